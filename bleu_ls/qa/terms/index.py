"""A glossary's terms for one language pair, indexed for matching line by line.

:class:`TermIndex` keeps, per side (source and target language), the terms by the stem of
their first word (a line costs one dictionary lookup per word, however large the glossary),
and the terms written without spaces apart (found as substrings).  :meth:`TermIndex.scan`
answers one (source, target) pair of lines: the three findings of the terminology check,
placed on the target's characters where there is a place (each a finding of
:func:`bleu_ls.qa.text.finding`: code, sentence, columns, data).

Matching (docs/terminology.md):

* whole words: "file" does not match inside "profile";
* inflected forms match on both sides: words are compared by their Snowball stems
  ("files" ~ "file", "Dateien" ~ "Datei");
* multi-word terms match word by word ("email address");
* a term with inner capitals or all in capitals ("GitHub", "iOS", "URL") matches only as
  written (its inflections too: "URLs"); other terms match in any case;
* a term in a script without spaces (Chinese, Japanese, Thai) matches as a substring;
* placeholders, inline tags, URLs and e-mail addresses are not text;
* on the target side, a preferred or admitted term counts as present inside a compound in
  the languages that write compounds as one word ("Datei" in "Dateiname"); the strict
  matches (a forbidden term, a do-not-translate term) never take part of a word;
* a source term inside a longer source term that also matched is the longer one's
  ("address" inside "email address").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Optional, Sequence

from ...formats.glossary.model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED, Concept, Glossary, same_language
from ..findings import Finding
from ..text import finding
from . import words as W

TERM_MISSING, TERM_FORBIDDEN, DO_NOT_TRANSLATE_CODE = "term-missing", "term-forbidden", "do-not-translate"
ALLOWED = (PREFERRED, ADMITTED)


@dataclass(eq=False)
class Entry:
    """One term of one side as matched: its words' stems, and what it stands for."""

    text: str
    stems: tuple[str, ...]
    #: the words as written, for a term matched only as written (None: any case)
    exact: Optional[tuple[str, ...]]
    substring: bool
    #: (concept, status, glossary path) for each glossary entry of this text
    uses: list = field(default_factory=list)
    #: the words of the term, lower case (an English word matched by its stem must be one of
    #: them with a regular ending)
    lowers: tuple[str, ...] = ()


class Match(NamedTuple):
    entry: Entry
    start: int
    end: int


class Side:
    """The terms of one language."""

    def __init__(self, lang: Optional[str]) -> None:
        self.lang = lang
        self.stem = W.stem_function(lang)
        self.compounding = W.primary(lang) in W.COMPOUNDING
        #: English: a stem match must be a regular inflection of the term's word (the Porter
        #: stem joins "interpreted" to "interpreter", "promptly" to "prompt")
        self.english = W.primary(lang) == "en"
        #: one-word terms by their stem; terms of several words by their first two stems (a
        #: frequent first word, "of", does not walk every term that starts with it)
        self.by_first: dict[str, list[Entry]] = {}
        self.by_pair: dict[tuple[str, str], list[Entry]] = {}
        self._pair_firsts: set[str] = set()
        self.substrings: list[Entry] = []
        self._entries: dict[tuple, Entry] = {}
        #: the first two letters of every first stem (a word starting otherwise is not stemmed)
        self._heads: set[str] = set()
        self._keys: dict[str, tuple] = {}

    def add(self, text: str, use: tuple) -> Optional[Entry]:
        text = " ".join(text.split())
        if not text:
            return None
        sub = W.no_spaces(text)
        if sub:
            key: tuple = ("sub", text.lower())
        else:
            ws = W.words(W.masked(text))
            if not ws:
                return None
            exact = tuple(w.text for w in ws) if W.case_sensitive(text) else None
            stems = tuple(self.stem(w.lower) for w in ws)
            key = ("words", stems, exact)
        entry = self._entries.get(key)
        if entry is None:
            if sub:
                entry = Entry(text, (), None, True)
                self.substrings.append(entry)
            else:
                entry = Entry(text, stems, exact, False, lowers=tuple(w.lower for w in ws))
                if len(stems) == 1:
                    self.by_first.setdefault(stems[0], []).append(entry)
                else:
                    self.by_pair.setdefault((stems[0], stems[1]), []).append(entry)
                    self._pair_firsts.add(stems[0])
                self._heads.add(stems[0][:2])
            self._entries[key] = entry
        entry.uses.append(use)
        return entry

    def __len__(self) -> int:
        return len(self._entries)

    def find(self, text: str, strict: bool, split: Optional[tuple[str, list]] = None) -> list[Match]:
        """Every term of this side in ``text`` (masked first), longest first where two overlap
        at one start.  ``strict``: never part of a hyphenated word.  ``split``: ``text`` masked
        and its words (:func:`split`), when the caller has them."""
        if not self._entries or not text:
            return []
        plain, ws = split if split is not None else split_text(text)
        out: list[Match] = []
        if self.by_first or self.by_pair:
            stems: list[Optional[str]] = [None] * len(ws)
            stem, heads, by_first, by_pair, firsts = self.stem, self._heads, self.by_first, self.by_pair, self._pair_firsts
            n = len(ws)
            for i, w in enumerate(ws):
                if w.lower[:2] not in heads:
                    continue
                s = stems[i] = stem(w.lower)
                cands = by_first.get(s)
                if s in firsts and i + 1 < n:
                    s1 = stems[i + 1]
                    if s1 is None:
                        s1 = stems[i + 1] = stem(ws[i + 1].lower)
                    more = by_pair.get((s, s1))
                    if more:
                        cands = [*cands, *more] if cands else more
                if not cands:
                    continue
                for e in cands:
                    k = len(e.stems)
                    if i + k > len(ws):
                        continue
                    ok = True
                    for j in range(1, k):
                        sj = stems[i + j]
                        if sj is None:
                            sj = stems[i + j] = stem(ws[i + j].lower)
                        if sj != e.stems[j]:
                            ok = False
                            break
                    if ok and e.exact is not None:
                        ok = all(ws[i + j].text.startswith(e.exact[j]) for j in range(k))
                    if ok and self.english:
                        ok = all(W.english_inflection(ws[i + j].lower, e.lowers[j]) for j in range(k))
                    if ok and strict and (w.joined_before or ws[i + k - 1].joined_after):
                        ok = False
                    if ok:
                        out.append(Match(e, w.start, ws[i + k - 1].end))
        if self.substrings and W.no_spaces(plain):
            low = plain.lower()
            for e in self.substrings:
                needle = e.text.lower()
                at = low.find(needle)
                while at >= 0:
                    out.append(Match(e, at, at + len(needle)))
                    at = low.find(needle, at + 1)
        out.sort(key=lambda m: (m.start, -(m.end - m.start)))
        return out

    def present(self, text: str, entry_texts: Iterable[str], matches: Optional[list] = None,
                split: Optional[tuple[str, list]] = None) -> bool:
        """Is one of the terms ``entry_texts`` of this side in ``text``?  Leniently: a term
        inside a compound counts in a compounding language."""
        wanted = [self._entries.get(k) for k in map(self._key_of, entry_texts)]
        wanted_set = {id(e) for e in wanted if e is not None}
        found = matches if matches is not None else self.find(text, strict=False)
        if any(id(m.entry) in wanted_set for m in found):
            return True
        low_words: Optional[list] = None
        for e in wanted:
            if e is None or e.substring or len(e.stems) != 1:
                continue
            s, term = e.stems[0], e.text.lower()
            if low_words is None:
                low_words = [w.lower for w in (split[1] if split is not None else split_text(text)[1])]
            for w in low_words:
                # a compound holding the term, in a language that writes compounds as one word
                if self.compounding and len(s) >= 3 and len(w) > len(s) and (w.startswith(s) or w.endswith(s)):
                    return True
                # an irregular form the stemmer does not join ("Konten" for "Konto")
                if len(term) >= 5 and _common_prefix(w, term) >= max(4, len(term) - 2):
                    return True
        return False

    def _key_of(self, text: str) -> tuple:
        got = self._keys.get(text)
        if got is None:
            if len(self._keys) > 100_000:
                self._keys.clear()
            got = self._keys[text] = self._make_key(text)
        return got

    def _make_key(self, text: str) -> tuple:
        text = " ".join(text.split())
        if W.no_spaces(text):
            return ("sub", text.lower())
        ws = W.words(W.masked(text))
        exact = tuple(w.text for w in ws) if W.case_sensitive(text) else None
        return ("words", tuple(self.stem(w.lower) for w in ws), exact)


def split_text(text: str) -> tuple[str, list]:
    """``text`` masked (:func:`~.words.masked`) and its words: what every side's :meth:`Side.find`
    reads, made once per line."""
    plain = W.masked(text)
    return plain, W.words(plain)


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _outermost(matches: list[Match]) -> list[Match]:
    """The matches not inside a longer one."""
    out: list[Match] = []
    reach = -1
    for m in matches:  # sorted by start, longest first
        if m.end <= reach:
            continue
        out.append(m)
        reach = max(reach, m.end)
    return out


class TermIndex:
    """The terms of some glossaries for one language pair (``source`` → ``target``)."""

    def __init__(self, glossaries: Sequence[Glossary], source: Optional[str], target: Optional[str]) -> None:
        self.glossaries = tuple(glossaries)
        self.source_lang, self.target_lang = source, target
        self.src = Side(source)
        self.tgt = Side(target)
        #: source-side do-not-translate terms
        self.dnt = Side(source)
        #: a source term (lower case) -> the concepts holding it: one glossary may give a term's
        #: preferred and forbidden translations in separate entries (a CSV's rows)
        self._by_source: dict[str, list[Concept]] = {}
        for g in glossaries:
            for c in g.concepts:
                self._add(g, c)

    def _add(self, g: Glossary, c: Concept) -> None:
        src_terms = [t for t in c.terms if self.source_lang is None or same_language(t.lang, self.source_lang)]
        tgt_terms = [t for t in c.terms if self.target_lang is not None and same_language(t.lang, self.target_lang)
                     and t.lang != "*"]
        if self.source_lang is not None and self.target_lang is not None and same_language(self.source_lang, self.target_lang):
            tgt_terms = []
        for t in src_terms:
            if t.lang != "*":
                self._by_source.setdefault(" ".join(t.text.lower().split()), []).append(c)
            if t.status == DO_NOT_TRANSLATE:
                self.dnt.add(t.text, (c, t.status, g.path))
            elif t.status != FORBIDDEN and t.lang != "*" and tgt_terms:
                self.src.add(t.text, (c, t.status, g.path))
        for t in tgt_terms:
            if t.status != DO_NOT_TRANSLATE:
                self.tgt.add(t.text, (c, t.status, g.path))

    @property
    def empty(self) -> bool:
        return not (len(self.src) or len(self.tgt) or len(self.dnt))

    # -- one line -------------------------------------------------------------------------
    def scan(self, source: Optional[str], target: str) -> tuple[Finding, ...]:
        """The terminology findings of one target line (and its source line, when there is one)."""
        hits: list[Finding] = []
        tsplit = split_text(target) if target else None
        tgt_found = self.tgt.find(target, strict=False, split=tsplit) if len(self.tgt) and target else []
        ssplit = split_text(source) if source else None
        # forbidden target terms (strict: whole words, never half of a hyphenated word)
        allowed_here: set[str] = set()
        src_found: list[Match] = []
        if source and len(self.src):
            src_found = _outermost(self.src.find(source, strict=False, split=ssplit))
            for m in src_found:
                for c, _st, _p in m.entry.uses:
                    allowed_here.update(t.text.lower() for t in c.terms_in(self.target_lang or "*") if t.status in ALLOWED)
        for m in tgt_found:
            forbidden = [(c, p) for c, st, p in m.entry.uses if st == FORBIDDEN]
            if not forbidden or m.entry.text.lower() in allowed_here:
                continue
            if not W.bounded(target, m.start, m.end) or _half_of_hyphenated(target, m.start, m.end):
                continue
            if m.end - m.start < len(m.entry.text) - len(m.entry.stems):
                continue  # a shorter word of the same stem ("typique" for "typiquement"): not the term
            written = target[m.start:m.end]
            instead = self._preferred([c for c, _p in forbidden])
            where = _places({p for _c, p in forbidden})
            say = f"“{written}” is a forbidden term ({where})"
            say += f": use “{instead[0]}”." if instead else "."
            hits.append(finding(TERM_FORBIDDEN, say, m.start, m.end,
                                {"term": written, "replacements": instead, "glossary": sorted({p for _c, p in forbidden})}))
        # source terms whose target terms are all absent
        if src_found and source:
            forbidden_at = [(h.start_col, h.end_col) for h in hits]
            for m in src_found:
                expected: list[str] = []
                concepts = []
                for c, _st, p in m.entry.uses:
                    concepts.append((c, p))
                    for t in c.terms_in(self.target_lang or "*"):
                        if t.status in ALLOWED and t.text not in expected:
                            expected.append(t.text)
                if not expected:
                    continue
                if self.tgt.present(target, expected, tgt_found, split=tsplit):
                    continue
                if _forbidden_of(concepts, tgt_found, forbidden_at):
                    continue  # term-forbidden says it on the term itself
                written = source[m.start:m.end]
                listed = " or ".join(f"“{x}”" for x in expected[:3])
                where = _places({p for _c, p in concepts})
                hits.append(finding(TERM_MISSING,
                                    f"The source has “{written}”: the glossary ({where}) translates it {listed}, "
                                    "and the target has none of them.", 0, None,
                                    {"source": written, "expected": expected, "glossary": sorted({p for _c, p in concepts})}))
        # do-not-translate terms of the source, kept as written in the target
        if source and len(self.dnt):
            seen: set[str] = set()
            for m in _outermost(self.dnt.find(source, strict=True, split=ssplit)):
                # the glossary's spelling where the source writes it so, else the source's
                term = m.entry.text if _contains_exactly(source, m.entry.text) else source[m.start:m.end]
                if term in seen:
                    continue
                seen.add(term)
                if _contains_exactly(target, term):
                    continue
                paths = sorted({p for _c, _s, p in m.entry.uses})
                where = _places(set(paths))
                variant = _variant(target, term)
                if variant is not None:
                    a, b = variant
                    hits.append(finding(DO_NOT_TRANSLATE_CODE,
                                        f"“{term}” is not to be translated ({where}); the target writes “{target[a:b]}”.",
                                        a, b, {"term": term, "replacements": [term], "glossary": paths}))
                else:
                    hits.append(finding(DO_NOT_TRANSLATE_CODE,
                                        f"“{term}” is not to be translated ({where}), and the target does not have it as written.",
                                        0, None, {"term": term, "glossary": paths}))
        return tuple(hits)

    def related(self, concepts: Sequence[Concept]) -> list[Concept]:
        """``concepts`` and the concepts sharing a source term with one of them."""
        out: list[Concept] = []
        seen: set[int] = set()
        for c in concepts:
            for x in [c, *(k for t in c.terms_in(self.source_lang or "*") if t.lang != "*"
                           for k in self._by_source.get(" ".join(t.text.lower().split()), ()))]:
                if id(x) not in seen:
                    seen.add(id(x))
                    out.append(x)
        return out

    def _preferred(self, concepts: Sequence[Concept]) -> list[str]:
        """The allowed target terms of the concepts a forbidden term belongs to (and of those
        sharing their source term), preferred first."""
        out: list[str] = []
        related = self.related(concepts)
        for status in ALLOWED:
            for c in related:
                for t in c.terms_in(self.target_lang or "*"):
                    if t.status == status and t.text not in out:
                        out.append(t.text)
        return out

    # -- what applies to a segment (the hover) --------------------------------------------
    def entries(self, source: Optional[str], target: Optional[str]) -> list[tuple[str, Concept, str]]:
        """The glossary entries that apply to a segment: (the text matched, concept, glossary
        path), source terms first, then forbidden or do-not-translate terms; each concept once."""
        out: list[tuple[str, Concept, str]] = []
        seen: set[int] = set()
        for side, text in ((self.src, source), (self.dnt, source), (self.tgt, target)):
            if not text or not len(side):
                continue
            for m in _outermost(side.find(text, strict=side is not self.src)):
                for c, st, p in m.entry.uses:
                    if side is self.tgt and st != FORBIDDEN:
                        continue
                    if id(c) not in seen:
                        seen.add(id(c))
                        out.append((text[m.start:m.end], c, p))
        return out

    def target_terms(self, source: Optional[str]) -> list[tuple[str, str, Concept]]:
        """The allowed target terms of the source terms of a segment: (target term, the source
        term, concept), for completion."""
        out: list[tuple[str, str, Concept]] = []
        if not source or not len(self.src):
            return out
        seen: set[str] = set()
        for m in _outermost(self.src.find(source, strict=False)):
            for c, _st, _p in m.entry.uses:
                for t in c.terms_in(self.target_lang or "*"):
                    if t.status in ALLOWED and t.text not in seen:
                        seen.add(t.text)
                        out.append((t.text, source[m.start:m.end], c))
        for m in _outermost(self.dnt.find(source, strict=True)):
            text = m.entry.text
            if text not in seen:
                seen.add(text)
                out.append((text, text, m.entry.uses[0][0]))
        return out


def _forbidden_of(concepts: list, tgt_found: list[Match], at: list) -> bool:
    ids = {id(c) for c, _p in concepts}
    for m in tgt_found:
        if (m.start, m.end) in at and any(id(c) in ids and st == FORBIDDEN for c, st, _p in m.entry.uses):
            return True
    return False


def _places(paths: set) -> str:
    names = sorted(p.replace("\\", "/").rsplit("/", 1)[-1] for p in paths)
    return ", ".join(names)


def _half_of_hyphenated(text: str, a: int, b: int) -> bool:
    return ((a >= 2 and text[a - 1] in W._HYPHENS and text[a - 2].isalnum())
            or (b + 1 < len(text) and text[b] in W._HYPHENS and text[b + 1].isalnum()))


def _contains_exactly(text: str, term: str) -> bool:
    at = text.find(term)
    while at >= 0:
        if W.bounded(text, at, at + len(term)):
            return True
        at = text.find(term, at + 1)
    return False


def _variant(text: str, term: str) -> Optional[tuple[int, int]]:
    """Where the target writes the term otherwise (another case, or another form of it)."""
    low, t = text.lower(), term.lower()
    at = low.find(t)
    while at >= 0:
        if W.bounded(text, at, at + len(t)):
            return at, at + len(t)
        at = low.find(t, at + 1)
    return None


#: the codes whose findings carry replacements (``data["replacements"]``) a quick fix can write
FIXABLE = (TERM_FORBIDDEN, DO_NOT_TRANSLATE_CODE)


def fixed_case(written: str, replacement: str) -> str:
    """``replacement`` written with the capital first letter of ``written`` (a sentence's first
    word stays capitalised: "File" → "Datei", "file" at a sentence start → as the glossary has it)."""
    if written[:1].isupper() and replacement[:1].islower():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def replacements(code: str, data) -> list[str]:
    """The texts a quick fix may put in place of a finding's term (none for other codes)."""
    if code not in FIXABLE or not isinstance(data, dict):
        return []
    written, options = data.get("term"), data.get("replacements")
    if not isinstance(written, str) or not isinstance(options, list):
        return []
    if code == DO_NOT_TRANSLATE_CODE:
        return [x for x in options if isinstance(x, str)][:1]
    return [fixed_case(written, x) for x in options if isinstance(x, str)][:3]
