"""Where localization JSON files lie: their recognition by path, and their source-language files.

A ``.json`` file is claimed only by a localization convention, never by its extension
(``package.json``, ``tsconfig.json`` and every other JSON file stay unknown):

* WebExtension: ``_locales/<lang>/messages.json``;
* JSON (i18next, vue-i18n, ngx-translate…): ``<dir>/<lang>/NAME.json`` or ``<dir>/<lang>.json``
  where ``<dir>`` is one of :data:`LOCALE_DIRS` (``locales/de/translation.json``,
  ``src/i18n/fr.json``);
* ARB: every ``.arb`` file (the row's extension).

``<lang>`` looks like a language tag (``de``, ``pt-BR``, ``zh_Hans``, ``en-US``).

The source-language file is the same path with the source language in place of the target's
(the ``[terms] sourceLanguage`` setting, else ``en``); for ARB, the ``template-arb-file`` of a
``l10n.yaml`` beside the file or one folder up (its ``arb-dir`` not read), else ``app_en.arb``
(the file's own prefix); for a WebExtension, the ``default_locale`` of ``../../manifest.json``.
These functions only name candidates (first existing wins); they read no file but
``l10n.yaml`` and ``manifest.json``, one key each.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePath
from typing import Optional, Union

LOCALE_DIRS = frozenset({"locales", "locale", "i18n", "lang", "langs", "languages", "translations", "l10n", "messages"})
_LANG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*\Z")
#: the source language when the settings name none
DEFAULT_SOURCE = "en"


def _parts(path: Union[str, PurePath]) -> tuple[str, ...]:
    return PurePath(path).parts


def is_lang(name: str) -> bool:
    return bool(_LANG.match(name))


def is_webext(path: Union[str, PurePath]) -> bool:
    p = _parts(path)
    return len(p) >= 3 and p[-1] == "messages.json" and p[-3] == "_locales" and is_lang(p[-2])


def _json_lang(path: Union[str, PurePath]) -> Optional[tuple[int, str]]:
    """(index of the part naming the language, the language) of a localization JSON path, else None."""
    p = _parts(path)
    if not p or not p[-1].lower().endswith(".json") or is_webext(path):
        return None
    stem = p[-1][: -len(".json")]
    if len(p) >= 2 and p[-2].lower() in LOCALE_DIRS and is_lang(stem):
        return len(p) - 1, stem
    if len(p) >= 3 and p[-3].lower() in LOCALE_DIRS and is_lang(p[-2]):
        return len(p) - 2, p[-2]
    return None


def is_json(path: Union[str, PurePath]) -> bool:
    return _json_lang(path) is not None


def lang_of(path: Union[str, PurePath]) -> Optional[str]:
    """The language a localization file's path names (None: it names none)."""
    found = _json_lang(path)
    if found is not None:
        return found[1]
    p = _parts(path)
    if is_webext(path):
        return p[-2]
    m = re.search(r"_([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)\.arb\Z", p[-1]) if p else None
    return m.group(1) if m else None


def _source_lang(lang: Optional[str]) -> str:
    return lang or DEFAULT_SOURCE


def json_sources(path: Path, source_lang: Optional[str]) -> list[Path]:
    """``locales/en/x.json`` for ``locales/de/x.json``, ``i18n/en.json`` for ``i18n/de.json``."""
    found = _json_lang(path)
    if found is None:
        return []
    k, lang = found
    src = _source_lang(source_lang)
    p = list(Path(path).parts)
    if k == len(p) - 1:
        p[k] = src + ".json"
    else:
        p[k] = src
    out = Path(*p)
    return [] if out == Path(path) else [out]


def _yaml_value(text: str, key: str) -> Optional[str]:
    """A top-level ``key: value`` of a small YAML file (quotes removed), read line by line."""
    for line in text.splitlines():
        if not line.startswith(key):
            continue
        rest = line[len(key):].lstrip()
        if not rest.startswith(":"):
            continue
        value = rest[1:].split(" #", 1)[0].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        return value or None
    return None


def arb_sources(path: Path, source_lang: Optional[str]) -> list[Path]:
    """The ``template-arb-file`` of ``l10n.yaml`` (beside the file or up to two folders up), then
    ``PREFIX_<source>.arb`` beside the file."""
    path = Path(path)
    out: list[Path] = []
    for up in (path.parent, path.parent.parent, path.parent.parent.parent):
        cfg = up / "l10n.yaml"
        try:
            if cfg.is_file() and cfg.stat().st_size <= 65536:
                name = _yaml_value(cfg.read_text(encoding="utf-8", errors="replace"), "template-arb-file")
                if name and "/" not in name and "\\" not in name:
                    out.append(path.parent / name)
                break
        except OSError:
            break
    m = re.match(r"(.*_)[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*\.arb\Z", path.name)
    if m:
        out.append(path.parent / f"{m.group(1)}{_source_lang(source_lang)}.arb")
    return [p for p in dict.fromkeys(out) if p != path]


def webext_sources(path: Path, source_lang: Optional[str]) -> list[Path]:
    """``_locales/<default_locale>/messages.json`` (from ``../../manifest.json``), then the source language's."""
    path = Path(path)
    if not is_webext(path):
        return []
    locales = path.parent.parent
    out: list[Path] = []
    manifest = locales.parent / "manifest.json"
    try:
        if manifest.is_file() and manifest.stat().st_size <= 1 << 20:
            data = json.loads(manifest.read_text(encoding="utf-8-sig", errors="replace"))
            default = data.get("default_locale") if isinstance(data, dict) else None
            if isinstance(default, str) and is_lang(default):
                out.append(locales / default / "messages.json")
    except (OSError, ValueError):
        pass
    out.append(locales / _source_lang(source_lang) / "messages.json")
    return [p for p in dict.fromkeys(out) if p != path]


#: the header field where a reader of a document's path notes the language its place names (the
#: target language of a key-value file that does not say it: :func:`path_language`)
PATH_LANGUAGE = "path-language"


def path_language(path: Union[str, PurePath]) -> Optional[str]:
    """The target language a localization file's place names: Android ``res/values-ru/strings.xml``
    (``ru``; ``values-b+sr+Latn`` → ``sr-Latn``), Apple ``ru.lproj/…``, JSON ``locales/ru/x.json`` and
    ``i18n/ru.json``, WebExtension ``_locales/ru/messages.json``, ARB ``app_ru.arb``; None when it
    names none.  No I/O."""
    from .android import android_language, is_android_strings
    from .apple_strings import lproj_language

    p = Path(path)
    if is_android_strings(p):
        return android_language(p)
    return lproj_language(p) or lang_of(p)
