"""Which reference (and source) files go with a hypothesis file.

Pure file-system logic, shared by the language server and ``bleu-ls check``.

Two ways to pair, tried in this order:

1. **Rules** (``[[pairs]]`` in ``bleu-ls.toml`` or the ``pairs`` setting):
   a glob for the hypothesis, reference pattern(s) and an optional source
   pattern.  The first rule whose hypothesis glob matches wins.  A rule may
   name a reference that does not exist: the pair is still returned so the
   caller can say which file is missing.
2. **Conventions** (setting ``conventions``, on by default), in the
   hypothesis file's folder:

   ======================  ==================================  =====================
   hypothesis              references (existing ones only)     source
   ======================  ==================================  =====================
   ``NAME.hyp``/``.mt``    ``NAME.ref`` (or ``NAME.ref1``),    ``NAME.src``
                           then ``NAME.ref2``, ``NAME.ref3``…
   ``NAME.hyp.X``/         ``NAME.ref.X`` (or ``NAME.ref1.X``),  ``NAME.src.X``, else
   ``NAME.mt.X``           then ``NAME.ref2.X``…                ``NAME.src``, else the
                                                                 only ``NAME.src.*``
   ======================  ==================================  =====================

   ``X`` is one extra suffix, typically a language code (``de``, ``pt-BR``)
   or ``txt``.  Extra references are taken while the numbering is
   consecutive.

   A key-value localization file (JSON, ARB, WebExtension ``messages.json``…) has its source
   in its source-language file, found by its format's row (``source_files``,
   :func:`localization_source`); a rule's ``source`` overrides it.

Security: files are read only inside the workspace root, unless a rule
names an absolute path (see :func:`path_allowed`).
"""

from __future__ import annotations

import glob as _glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Optional, Union

from ..formats.read import detect_format
from ..formats.table import row as format_row
from .settings import PairRule, Settings

HYP_MARKERS = ("hyp", "mt")
_EXT = r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}"
_CONVENTION_RE = re.compile(rf"^(?P<name>.+)\.(?P<marker>hyp|mt)(?:\.(?P<ext>{_EXT}))?$")
_GLOB_CHARS = re.compile(r"[*?\[]")
_PLACEHOLDER = re.compile(r"\{(stem|name|dir|\d+)\}")


@dataclass
class PairSpec:
    """A hypothesis file and the files it is scored against."""

    hypothesis: Path
    references: list[Path]
    source: Optional[Path] = None
    #: Per-pair setting overrides (camelCase, same shape as the settings).
    options: dict[str, Any] = field(default_factory=dict)
    #: "convention" | "rule" | "command"
    origin: str = "convention"

    def missing(self) -> list[Path]:
        """The named reference files that do not exist (rules may name them)."""
        return [p for p in self.references if not p.is_file()]


# --------------------------------------------------------------------------
# globs
# --------------------------------------------------------------------------
def glob_to_regex(pattern: str) -> re.Pattern:
    """A regex for a path glob; every wildcard is a capture group ({1}, {2}…).

    ``*`` and ``?`` match within one path segment, ``**/`` any number of
    whole folders (captured with its trailing slash), a trailing ``**``
    anything; ``[abc]`` / ``[!abc]`` a character class (not captured).
    """
    out = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                if pattern.startswith("**/", i):
                    out.append(r"((?:[^/]*/)*)")
                    i += 3
                    continue
                out.append(r"(.*)")
                i += 2
                continue
            out.append(r"([^/]*)")
        elif c == "?":
            out.append(r"([^/])")
        elif c == "[":
            j = pattern.find("]", i + 2 if pattern.startswith("[!", i) else i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j + 1
                continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("^" + "".join(out) + "$")


def _posix(p: Path) -> str:
    return p.as_posix()


def _resolve(p: Path) -> Path:
    try:
        return Path(os.path.realpath(p))
    except OSError:
        return Path(os.path.abspath(p))


def _relative_to(p: Path, root: Path) -> Optional[PurePosixPath]:
    try:
        return PurePosixPath(p.relative_to(root).as_posix())
    except ValueError:
        return None


def _match_rule(rule: PairRule, hyp: Path, root: Optional[Path]) -> Optional[tuple[str, ...]]:
    """The wildcard captures if ``rule`` matches ``hyp``, else None."""
    pattern = rule.hypothesis
    if not pattern:
        return None
    if os.path.isabs(pattern) or pattern.startswith("~"):
        pattern = os.path.expanduser(pattern)
        targets = [_posix(hyp.absolute()), _posix(_resolve(hyp))]
    else:
        if root is None:
            return None
        targets = []
        for base, h in ((root.absolute(), hyp.absolute()), (_resolve(root), _resolve(hyp))):
            rel = _relative_to(h, base)
            if rel is not None:
                targets.append(str(rel))
        if pattern.startswith("./"):
            pattern = pattern[2:]
    rx = glob_to_regex(pattern)
    for t in targets:
        m = rx.match(t)
        if m:
            return m.groups()
    return None


def _substitute(template: str, hyp: Path, root: Optional[Path], groups: tuple[str, ...]) -> Optional[str]:
    rel_dir: str
    if root is not None:
        rel = _relative_to(hyp.absolute().parent, root.absolute())
        rel_dir = str(rel) if rel is not None else _posix(hyp.absolute().parent)
    else:
        rel_dir = _posix(hyp.absolute().parent)
    name = hyp.name
    stem = name.rsplit(".", 1)[0] if "." in name[1:] else name
    values = {"stem": stem, "name": name, "dir": rel_dir}
    bad = False

    def repl(m: re.Match) -> str:
        nonlocal bad
        key = m.group(1)
        if key.isdigit():
            k = int(key)
            if 1 <= k <= len(groups):
                return groups[k - 1] or ""
            bad = True
            return m.group(0)
        return values[key]

    out = _PLACEHOLDER.sub(repl, template)
    return None if bad else out


def _to_path(text: str, root: Optional[Path], hyp: Path) -> Path:
    text = os.path.expanduser(text)
    p = Path(text)
    if p.is_absolute():
        return p
    base = root if root is not None else hyp.absolute().parent
    return Path(os.path.normpath(base.absolute() / p))


def _expand(text: str, root: Optional[Path], hyp: Path) -> list[Path]:
    """A substituted reference pattern as paths: globs expand (sorted);
    a glob matching nothing or a plain name is kept as one path."""
    p = _to_path(text, root, hyp)
    if _GLOB_CHARS.search(text):
        found = sorted(Path(x) for x in _glob.glob(str(p), recursive=True) if os.path.isfile(x))
        found = [f for f in found if _resolve(f) != _resolve(hyp)]
        if found:
            return found
    return [p]


def _spec_from_rule(rule: PairRule, hyp: Path, root: Optional[Path], groups: tuple[str, ...]) -> PairSpec:
    refs: list[Path] = []
    for pattern in rule.references:
        text = _substitute(pattern, hyp, root, groups)
        if text is None:
            # {3} with only two wildcards: keep the pattern so the user sees it as missing
            refs.append(_to_path(pattern, root, hyp))
            continue
        for p in _expand(text, root, hyp):
            if p not in refs:
                refs.append(p)
    source = None
    if rule.source:
        text = _substitute(rule.source, hyp, root, groups)
        if text is not None:
            cands = _expand(text, root, hyp)
            source = cands[0] if cands else None
    return PairSpec(hyp, refs, source, dict(rule.options), "rule")


# --------------------------------------------------------------------------
# conventions
# --------------------------------------------------------------------------
def convention_parts(path: Union[str, Path]) -> Optional[tuple[str, str, Optional[str]]]:
    """(NAME, marker, extra suffix) for ``NAME.hyp[.X]`` / ``NAME.mt[.X]``."""
    m = _CONVENTION_RE.match(Path(path).name)
    if not m:
        return None
    return m.group("name"), m.group("marker"), m.group("ext")


def _convention_names(hyp: Path) -> Optional[tuple[Path, str, Optional[str], str]]:
    """(folder, NAME, extra suffix, ".X" or "") of ``NAME.hyp[.X]``, else None."""
    parts = convention_parts(hyp)
    if parts is None:
        return None
    name, _marker, ext = parts
    return hyp.parent, name, ext, f".{ext}" if ext else ""


def _convention_spec(hyp: Path) -> Optional[PairSpec]:
    names = _convention_names(hyp)
    if names is None:
        return None
    folder, name, _ext, tail = names

    def f(kind: str) -> Path:
        return folder / f"{name}.{kind}{tail}"

    refs: list[Path] = []
    if f("ref").is_file():
        refs.append(f("ref"))
    elif f("ref1").is_file():
        refs.append(f("ref1"))
    else:
        return None
    k = 2
    while f(f"ref{k}").is_file():
        refs.append(f(f"ref{k}"))
        k += 1
    return PairSpec(hyp, refs, _convention_source(hyp), {}, "convention")


def _convention_source(hyp: Path) -> Optional[Path]:
    """``NAME.src[.X]`` beside ``NAME.hyp[.X]`` (or the one ``NAME.src.Y``), when it exists."""
    names = _convention_names(hyp)
    if names is None:
        return None
    folder, name, ext, tail = names
    if (folder / f"{name}.src{tail}").is_file():
        return folder / f"{name}.src{tail}"
    if ext and (folder / f"{name}.src").is_file():
        return folder / f"{name}.src"
    if ext:
        prefix = f"{name}.src."
        try:
            cands = sorted(
                p for p in folder.iterdir() if p.name.startswith(prefix) and p.is_file() and "." not in p.name[len(prefix):]
            )
        except OSError:
            cands = []
        if len(cands) == 1:
            return cands[0]
    return None


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------
def find_pair(hyp: Path, settings: Settings, root: Optional[Path]) -> Optional[PairSpec]:
    """The pair for ``hyp``: the first matching rule, else the conventions.

    A rule's spec is returned even if its references are missing (check
    ``spec.missing()``); conventions only pair with existing references.
    Returns None when nothing pairs.
    """
    hyp = Path(hyp)
    root = Path(root) if root is not None else None
    for rule in settings.pairs:
        if not rule.references:
            continue
        groups = _match_rule(rule, hyp, root)
        if groups is not None:
            return _spec_from_rule(rule, hyp, root, groups)
    if settings.conventions:
        return _convention_spec(hyp)
    return None


def find_source(hyp: Path, settings: Settings, root: Optional[Path]) -> Optional[Path]:
    """The source file of ``hyp`` when nothing pairs it with a reference: the
    first matching rule's ``source`` (a rule that names a source and no
    reference is one way to say it), else ``NAME.src`` beside ``NAME.hyp``;
    only a file that exists."""
    hyp = Path(hyp)
    root = Path(root) if root is not None else None
    for rule in settings.pairs:
        if not rule.source:
            continue
        groups = _match_rule(rule, hyp, root)
        if groups is not None:
            text = _substitute(rule.source, hyp, root, groups)
            cands = _expand(text, root, hyp) if text is not None else []
            return cands[0] if cands and cands[0].is_file() else None
    if not settings.conventions:
        return None
    return _convention_source(hyp) or localization_source(hyp, settings)


def localization_source(hyp: Path, settings: Settings) -> Optional[Path]:
    """A key-value localization file's source-language file by its format's convention (the row's
    ``source_files``: ``locales/en/x.json`` beside ``locales/de/x.json``, the ARB template…), the
    source language being ``[terms] sourceLanguage``, else English; the first candidate that exists."""
    fmt = detect_format(str(hyp))
    candidates = format_row(fmt).source_files
    if candidates is None:
        return None
    lang = settings.terms.source_language or None
    for cand in candidates(Path(hyp), lang):
        if cand.is_file() and _resolve(cand) != _resolve(Path(hyp)):
            return cand
    return None


def is_localization_target(path: Path, settings: Settings) -> bool:
    """A key-value localization file in a target language: known by its path and with a source-language file
    to look for (``locales/de/app.json``; not ``locales/en/app.json`` itself, nor the ARB template)."""
    candidates = format_row(detect_format(str(path))).source_files
    return candidates is not None and bool(candidates(Path(path), settings.terms.source_language or None))


#: a ``draft`` pattern naming a git revision of the file itself: ``git:HEAD``, ``git:main``…
GIT_DRAFT = "git:"


def draft_revision(hyp: Path, settings: Settings, root: Optional[Path]) -> Optional[str]:
    """The git revision the first matching rule with a ``draft`` pattern names for ``hyp``
    (``draft = "git:REV"``: the file as committed at REV is its draft), else None."""
    hyp = Path(hyp)
    root = Path(root) if root is not None else None
    for rule in settings.pairs:
        if not rule.draft:
            continue
        if _match_rule(rule, hyp, root) is not None:
            return rule.draft[len(GIT_DRAFT):].strip() if rule.draft.startswith(GIT_DRAFT) else None
    return None


def find_draft(hyp: Path, settings: Settings, root: Optional[Path]) -> Optional[Path]:
    """The draft file named for ``hyp``: the first matching rule with a
    ``draft`` pattern, else ``NAME.draft`` beside ``NAME.hyp`` / ``NAME.mt``
    (when it exists).  None: no draft file (the server then keeps its own;
    a rule's ``git:REV`` draft is :func:`draft_revision`'s)."""
    hyp = Path(hyp)
    root = Path(root) if root is not None else None
    for rule in settings.pairs:
        if not rule.draft:
            continue
        groups = _match_rule(rule, hyp, root)
        if groups is not None:
            if rule.draft.startswith(GIT_DRAFT):
                return None
            text = _substitute(rule.draft, hyp, root, groups)
            return _to_path(text if text is not None else rule.draft, root, hyp)
    parts = convention_parts(hyp) if settings.conventions else None
    if parts is not None:
        name, _marker, ext = parts
        cand = hyp.parent / f"{name}.draft{f'.{ext}' if ext else ''}"
        if cand.is_file():
            return cand
    return None


def is_hypothesis_like(path: Path, settings: Settings, root: Optional[Path]) -> bool:
    """Does ``path`` look like a hypothesis (a rule's glob or a convention name)?"""
    path = Path(path)
    root = Path(root) if root is not None else None
    for rule in settings.pairs:
        if _match_rule(rule, path, root) is not None:
            return True
    return bool(settings.conventions and convention_parts(path) is not None)


def _fixed_prefix(pattern: str) -> Optional[Path]:
    """The folder part of an absolute pattern before any wildcard/placeholder."""
    pattern = os.path.expanduser(pattern)
    if not os.path.isabs(pattern):
        return None
    cut = len(pattern)
    for rx in (_GLOB_CHARS, _PLACEHOLDER):
        m = rx.search(pattern)
        if m:
            cut = min(cut, m.start())
    head = pattern[:cut]
    if cut == len(pattern):
        return Path(os.path.normpath(head))  # a plain absolute file name
    # the folder holding the first wildcard
    return Path(os.path.normpath(head[: head.rfind("/") + 1] or "/"))


def _inside(p: Path, folder: Path) -> bool:
    return p == folder or folder in p.parents


def path_allowed(path: Path, root: Optional[Path], settings: Settings) -> bool:
    """May the server read ``path``?

    Yes inside the workspace root (symbolic links resolved, so a link that
    leads out of the workspace does not count as inside).  Outside it only
    under an absolute path the user wrote in a rule (hypothesis, reference
    or source pattern: the part before the first wildcard or placeholder).
    Without a workspace root (a loose file), the user's own settings are
    the only source of rules and every path is allowed.
    """
    if root is None:
        return True
    real = _resolve(Path(path))
    if _inside(real, _resolve(Path(root))):
        return True
    for rule in settings.pairs:
        extra = [x for x in (rule.source, rule.draft) if x]
        for pattern in [rule.hypothesis, *rule.references, *extra]:
            prefix = _fixed_prefix(pattern)
            if prefix is None:
                continue
            if _inside(real, _resolve(prefix)) or _inside(Path(path).absolute(), prefix):
                return True
    return False
