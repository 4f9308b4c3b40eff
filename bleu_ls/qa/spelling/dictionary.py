"""The dictionary of a target language: the word list the ``pyspellchecker`` wheel ships
(an optional dependency, the ``spelling`` extra), read once per language and kept.

Nothing is downloaded: the words are read from the installed wheel (and kept in the user's
cache folder in a form read faster, :func:`_read`); a language the installed wheel has no list for, or no wheel at all, is
one sentence (:func:`dictionary` returns it) and the check does not run.

Compounds: in the languages that write them as one word (:data:`COMPOUNDING`), a word that is
not in the list is known when it is made of two or three known words of at least
:data:`MIN_PART` letters each, the first parts optionally followed by a linking element
("Übersetzung|s|fehler"); docs/diagnostics.md#spelling measures what that rule saves.
"""

from __future__ import annotations

import gzip
import itertools
import json
import marshal
import os
import threading
from importlib import resources
from pathlib import Path
from typing import Callable, Collection, NamedTuple, Optional

from ..terms.words import COMPOUNDING, primary

#: the package that ships the word lists, as ``pip`` names it
PACKAGE = "pyspellchecker"
#: the shortest part of a compound
MIN_PART = 3
#: linking elements allowed after a compound's first part, per language ("" always)
LINKS = {
    "de": ("s", "es", "n", "en", "e", "er", "ns"),
    "nl": ("s", "en", "e"),
}

_lock = threading.Lock()
_LOADED: dict[str, "Dictionary"] = {}
_SERIAL = itertools.count(1)


class Dictionary:
    """The known words of one language (lower case), with the compound rule where it applies."""

    def __init__(self, language: str, words: Collection[str], compounds: bool = True) -> None:
        self.language = language
        self.words = words
        self.compounds = compounds and language in COMPOUNDING
        self.links = ("", *LINKS.get(language, ()))
        #: names this dictionary among those read in the process (the rule's memo follows it)
        self.serial = next(_SERIAL)
        self._compound_memo: dict[str, bool] = {}

    def __contains__(self, lower: str) -> bool:
        return lower in self.words

    def known(self, lower: str) -> bool:
        """Is the lower-case word in the list, or (compounding languages) made of known words?"""
        if lower in self.words:
            return True
        if not self.compounds or len(lower) < 2 * MIN_PART:
            return False
        got = self._compound_memo.get(lower)
        if got is None:
            if len(self._compound_memo) > 200_000:
                self._compound_memo.clear()
            got = self._compound_memo[lower] = self._split(lower, 3)
        return got

    def _split(self, word: str, parts: int) -> bool:
        """Is ``word`` a known word, a linking element and a known rest (the rest itself split
        again while ``parts`` allows), each word at least MIN_PART letters?"""
        words, n = self.words, len(word)
        for i in range(MIN_PART, n - MIN_PART + 1):
            if word[:i] not in words:
                continue
            for link in self.links:
                if link and not word.startswith(link, i):
                    continue
                rest = word[i + len(link):]
                if len(rest) < MIN_PART:
                    continue
                if rest in words or (parts > 2 and len(rest) >= 2 * MIN_PART and self._split(rest, parts - 1)):
                    return True
        return False


class Loaded(NamedTuple):
    """A language's dictionary, or why there is none (one sentence for the user)."""

    dictionary: Optional[Dictionary]
    problem: Optional[str]


def _languages() -> Optional[list[str]]:
    try:
        from spellchecker import SpellChecker
    except ImportError:
        return None
    return sorted(SpellChecker.languages())


def cache_dir() -> Path:
    """The user's cache folder (``$XDG_CACHE_HOME/bleu-ls``, else ``~/.cache/bleu-ls``)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "bleu-ls"


def _read(language: str) -> Collection[str]:
    """The words of the wheel's list for ``language``: its packaged ``resources/<lang>.json.gz``,
    read as the package reads it, kept in the user's cache as a list of words read four times
    as fast (``spelling-<lang>-<stamp>.marshal``: the stamp is the packaged file's size and time,
    so another version of the wheel is read again); through the package's API where the file is
    not there."""
    try:
        res = resources.files("spellchecker").joinpath("resources").joinpath(f"{language}.json.gz")
        with resources.as_file(res) as path:
            st = os.stat(path)
            cached = cache_dir() / f"spelling-{language}-{st.st_size}-{st.st_mtime_ns}.marshal"
            try:
                got = marshal.loads(cached.read_bytes())
                if isinstance(got, list):
                    return set(got)
            except (OSError, ValueError, EOFError, TypeError):
                pass
            words = json.loads(gzip.decompress(path.read_bytes()))
        if isinstance(words, dict):
            _keep(cached, list(words))
            return words.keys()
    except (OSError, ValueError, ModuleNotFoundError):
        pass
    from spellchecker import SpellChecker

    return SpellChecker(language=language, distance=1).word_frequency.dictionary.keys()


def _keep(path: Path, words: list) -> None:
    """Write the cache file (never fails the check: a cache that cannot be written is not kept)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(words))
        os.replace(tmp, path)
    except OSError:
        pass


def dictionary(language: Optional[str], compounds: bool = True,
               reader: Callable[[str], Collection[str]] = _read) -> Loaded:
    """The dictionary of ``language`` (a BCP 47 code; its primary subtag chooses), read once."""
    lang = primary(language)
    if not lang:
        return Loaded(None, "the target language is not known: set diagnostics.spelling.language "
                            "(or [terms] targetLanguage) to the language of the translations")
    key = f"{lang}:{int(compounds)}"
    with _lock:
        got = _LOADED.get(key)
    if got is not None:
        return Loaded(got, None)
    langs = _languages()
    if langs is None:
        return Loaded(None, f"no dictionary is installed: the spelling check needs {PACKAGE} "
                            "(pip install 'bleu-ls[spelling]')")
    if lang not in langs:
        return Loaded(None, f"no dictionary for “{lang}” in {PACKAGE} (it has {', '.join(langs)})")
    d = Dictionary(lang, reader(lang), compounds)
    with _lock:
        got = _LOADED.setdefault(key, d)
    return Loaded(got, None)
