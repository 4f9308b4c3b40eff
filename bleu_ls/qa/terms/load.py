"""The glossaries a document is checked against: read once, read again when a file changes
on disk, and their terms indexed for the document's language pair.

:func:`glossaries` reads each file of ``[terms] files`` (kept while its size and modification
time stay the same: a saved glossary is read again at the next pass, an unchanged one costs a
``stat``); :func:`index_for` picks the language pair and keeps one :class:`~.index.TermIndex`
per (glossaries, pair).  Neither raises: a file that cannot be used is a sentence in the
answer's problems, and the other glossaries are used.
"""

from __future__ import annotations

import os
import threading
from typing import NamedTuple, Optional, Sequence

from ...formats.glossary.model import Glossary, same_language
from ...formats.glossary.read import read_glossary
from .index import TermIndex

_lock = threading.Lock()
#: path -> ((size, mtime_ns), Glossary)
_READ: dict[str, tuple[tuple[int, int], Glossary]] = {}
#: (glossary ids, source, target) -> TermIndex (the last few)
_INDEXES: dict[tuple, TermIndex] = {}
_KEEP_INDEXES = 8


class Terms(NamedTuple):
    """What the terminology rules read: the index (None: nothing to check) and the sentences
    about glossaries that could not be used."""

    termbase: Optional[TermIndex]
    problems: tuple[str, ...]

    @property
    def token(self) -> tuple:
        """Changes when the index or the problems change (the rules' ``params``)."""
        return (self.termbase.serial if self.termbase is not None else 0, self.problems)


def glossary(path: str) -> Glossary:
    """The glossary at ``path``, read again only when the file changed."""
    try:
        st = os.stat(path)
        stamp = (st.st_size, st.st_mtime_ns)
    except OSError:
        stamp = (-1, -1)
    with _lock:
        got = _READ.get(path)
        if got is not None and got[0] == stamp:
            return got[1]
    g = read_glossary(path)
    with _lock:
        _READ[path] = (stamp, g)
    return g


def forget(path: Optional[str] = None) -> None:
    """Drop what was read of ``path`` (every file when None)."""
    with _lock:
        if path is None:
            _READ.clear()
            _INDEXES.clear()
        else:
            _READ.pop(path, None)


def pick_languages(g: Glossary, source: Optional[str], target: Optional[str]) -> tuple[Optional[str], Optional[str], Optional[str]]:
    """(source language, target language, problem) a glossary is read in for a document
    declaring ``source`` and ``target`` (either may be unknown).  A glossary with exactly two
    languages needs neither; with more, the document's or the settings' languages choose."""
    langs = [lang for lang in g.languages if lang != "*"]
    if not langs:  # a do-not-translate list for any language
        return source, target, None

    def among(lang: Optional[str]) -> Optional[str]:
        if not lang:
            return None
        return next((x for x in langs if same_language(x, lang)), None)

    src, tgt = among(source), among(target)
    name = os.path.basename(g.path)
    if len(langs) == 1:  # one language: a do-not-translate list of it
        if source and src is None:
            return None, None, None  # another source language: not this document's list
        return langs[0], target, None
    if src is None and source is None:
        if tgt is not None and len(langs) == 2:
            src = next(x for x in langs if x != tgt)
        elif len(langs) == 2 or g.source_language:
            src = among(g.source_language) or langs[0]
    if tgt is None and target is None and src is not None and len(langs) == 2:
        tgt = next(x for x in langs if x != src)
    if src is None or tgt is None:
        if (source and src is None) or (target and tgt is None):
            return None, None, None  # the document's languages are not this glossary's
        return None, None, (f"{name}: it has {len(langs)} languages ({', '.join(langs)}); set [terms] "
                            "sourceLanguage and targetLanguage to say which pair to check")
    return src, tgt, None


def terms_for(paths: Sequence[str], source: Optional[str], target: Optional[str]) -> Terms:
    """The term index of the glossaries at ``paths`` for a document in ``source`` → ``target``."""
    if not paths:
        return Terms(None, ())
    problems: list[str] = []
    chosen: list[Glossary] = []
    pair: tuple[Optional[str], Optional[str]] = (source, target)
    for path in paths:
        g = glossary(path)
        problems.extend(g.problems)
        if not g.concepts:
            continue
        src, tgt, problem = pick_languages(g, source, target)
        if problem:
            problems.append(problem)
            continue
        if src is None and tgt is None and g.languages and any(x != "*" for x in g.languages):
            continue
        if src is not None and pair[0] is None:
            pair = (src, pair[1])
        if tgt is not None and pair[1] is None:
            pair = (pair[0], tgt)
        chosen.append(g)
    if not chosen:
        return Terms(None, tuple(problems))
    key = (tuple(id(g) for g in chosen), pair)
    with _lock:
        index = _INDEXES.get(key)
    if index is None:
        index = TermIndex(chosen, pair[0], pair[1])
        with _lock:
            if len(_INDEXES) >= _KEEP_INDEXES:
                _INDEXES.pop(next(iter(_INDEXES)))
            _INDEXES[key] = index
    return Terms(None if index.empty else index, tuple(problems))


def document_terms(settings, names: dict) -> Terms:
    """The term index for a document: the settings' glossaries (``terms.files``) in the
    languages the document declares (``names["source_language"]``, ``names["target_language"]``),
    else the settings' ``terms.sourceLanguage`` / ``terms.targetLanguage``."""
    t = settings.terms
    if not t.files:
        return Terms(None, ())
    src = names.get("source_language") or t.source_language or None
    tgt = names.get("target_language") or t.target_language or None
    return terms_for(tuple(t.files), src, tgt)
