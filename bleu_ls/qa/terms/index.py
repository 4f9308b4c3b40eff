"""A glossary's terms for one language pair, indexed for matching line by line.

:class:`TermIndex` keeps, per side (source and target language), the terms by the stems of
their first words (a one-word term by its stem, a two-word term by its two, a longer one by its
first three: a line costs a few dictionary lookups per word, however large the glossary), and
the terms written without spaces apart (found as substrings).  :meth:`TermIndex.scan` answers
one (source, target) pair of lines: the three findings of the terminology check, placed on the
target's characters where there is a place (each a finding of :func:`bleu_ls.qa.text.finding`:
code, sentence, columns, data).  Each line is split into words once (:class:`~.words.Line`);
the source is searched for its outermost terms only (a term inside a longer one is never tried);
the target is searched only for the terms some glossary forbids, and a target term a source term
asks for is looked up alone: by its stem (or two) in the line's set of them, or word by word.

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

import itertools
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional, Sequence

from ...formats.glossary.model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED, Concept, Glossary, same_language
from ..findings import Finding
from ..text import finding
from . import words as W

_SERIALS = itertools.count(1)
TERM_MISSING, TERM_FORBIDDEN, DO_NOT_TRANSLATE_CODE = "term-missing", "term-forbidden", "do-not-translate"
#: the severities of the three codes' findings, in that order (the rules' settings)
Severities = tuple[str, str, str]


def _severe(f: Finding, severity: str) -> Finding:
    """``f`` with ``severity`` (made once per entry and severity: see :meth:`TermIndex.scan`)."""
    f.severity = severity
    return f
ALLOWED = (PREFERRED, ADMITTED)
#: words kept per side with what they start (:meth:`Side._looked`) before the cache starts over
#: (a file's frequent words are back in it at once; a word met once costs a lookup either way:
#: about 240 bytes a distinct word in all, so a file of 100,000 distinct word forms held 27 MB
#: with 200,000 per side, 16 MB with this)
LOOK_CACHE = 20_000
_NOTHING: tuple = (None, None, False)
#: a word's first two letters as a stemmer may write them: marks taken off, ß as ss (German
#: stems fold the umlaut: "Äpfel" stems to "apfel")
_FOLDED: dict[str, str] = {}


def _folded(head: str) -> str:
    got = _FOLDED.get(head)
    if got is None:
        import unicodedata

        plain = "".join(c for c in unicodedata.normalize("NFD", head) if not unicodedata.combining(c))
        got = plain.replace("ß", "ss")[:2]
        if len(_FOLDED) < 100_000:
            _FOLDED[head] = got
    return got


@dataclass(eq=False, slots=True)
class Entry:
    """One term of one side as matched: its words' stems, and what it stands for."""

    text: str
    stems: tuple[str, ...]
    #: the words as written, for a term matched only as written (None: any case)
    exact: Optional[tuple[str, ...]]
    substring: bool
    #: (concept, status, glossary path) for each glossary entry of this text (a tuple: most
    #: entries have one, and a list would weigh more)
    uses: tuple = ()
    #: the words of the term, lower case (an English word matched by its stem must be one of
    #: them with a regular ending; a line's words equal to them are the term at once)
    lowers: tuple[str, ...] = ()
    #: what the index works out for this entry once, the first time a line meets it: the same
    #: for every line (:class:`_SourceFacts`, :class:`_TargetFacts`, :class:`_KeptFacts`)
    facts: Any = None


class Match(NamedTuple):
    entry: Entry
    start: int
    end: int


_new = tuple.__new__  # (a Match made as _new(Match, (entry, start, end)): no call of its __new__)


#: the findings an entry keeps made, for the lines that write its term alike (past it, the
#: next are made anew: only sharing is lost)
_KEEP = 1000


class _SourceFacts:
    """A source entry's side of ``term-missing``: its allowed target terms and what a finding says."""

    __slots__ = ("expected", "firsts", "pairs", "others", "loose", "allowed", "concepts", "paths", "where",
                 "_written", "_severity", "_first", "_made")

    def __init__(self, *, expected: list[str], firsts: tuple, pairs: tuple, others: tuple, loose: tuple,
                 allowed: tuple, concepts: tuple, paths: list[str], where: str) -> None:
        #: the allowed target terms, in order (the finding's ``data["expected"]``)
        self.expected = expected
        #: the target side's entries of them: the stems of those found by their stems alone (in
        #: any case, in a language other than English): of one word, of two words (pairs);
        #: the others (:meth:`Side.holds`); and those that may be found leniently.  Tuples,
        #: each tested against a line's set (``set.isdisjoint``): a set each would weigh more
        self.firsts, self.pairs, self.others, self.loose = firsts, pairs, others, loose
        #: the allowed target terms, lower case (no forbidden target term of the line is one);
        #: tuples, not sets: a few items each, and one of these per entry met
        self.allowed = allowed
        #: the concepts of the entry
        self.concepts = concepts
        self.paths, self.where = paths, where
        #: the first finding made, for the source written so and that severity (most entries
        #: are met written one way: no dict for them); the others by both (made when needed)
        self._written: Optional[str] = None
        self._severity = ""
        self._first: Optional[Finding] = None
        self._made: Optional[dict[tuple[str, str], Finding]] = None

    def finding(self, written: str, severity: str = "") -> Finding:
        if written == self._written and severity == self._severity:
            return self._first  # type: ignore[return-value]
        made = self._made
        got = made.get((written, severity)) if made is not None else None
        if got is None:
            listed = " or ".join(f"“{x}”" for x in self.expected[:3])
            got = _severe(finding(
                TERM_MISSING, f"The source has “{written}”: the glossary ({self.where}) translates it {listed}, "
                "and the target has none of them.", 0, None,
                {"source": written, "expected": self.expected, "glossary": self.paths}), severity)
            if self._first is None:
                self._written, self._severity, self._first = written, severity, got
            else:
                if made is None:
                    made = self._made = {}
                elif len(made) >= _KEEP:
                    made.clear()
                made[(written, severity)] = got
        return got


class _TargetFacts:
    """A target entry's side of ``term-forbidden``."""

    __slots__ = ("forbidden", "lower", "shortest", "instead", "paths", "where", "_said", "_made")

    def __init__(self, *, forbidden: bool, lower: str, shortest: int, instead: list[str], paths: list[str],
                 where: str) -> None:
        self.forbidden, self.lower, self.shortest = forbidden, lower, shortest
        self.instead, self.paths, self.where = instead, paths, where
        self._said: dict[str, tuple[str, dict]] = {}
        self._made: dict[tuple[str, int, int, str], Finding] = {}

    def finding(self, written: str, start: int, end: int, severity: str = "") -> Finding:
        got = self._made.get((written, start, end, severity))
        if got is None:
            said = self._said.get(written)
            if said is None:
                if len(self._said) >= _KEEP:
                    self._said.clear()
                say = f"“{written}” is a forbidden term ({self.where})"
                say += f": use “{self.instead[0]}”." if self.instead else "."
                said = self._said[written] = (say, {"term": written, "replacements": self.instead, "glossary": self.paths})
            if len(self._made) >= _KEEP:
                self._made.clear()
            got = self._made[(written, start, end, severity)] = _severe(
                finding(TERM_FORBIDDEN, said[0], start, end, said[1]), severity)
        return got


class _KeptFacts:
    """A do-not-translate entry's side of ``do-not-translate``."""

    __slots__ = ("paths", "where", "_made")

    def __init__(self, *, paths: list[str], where: str) -> None:
        self.paths, self.where = paths, where
        self._made: dict[tuple, Finding] = {}

    def finding(self, term: str, variant: Optional[str], start: int, end: Optional[int], severity: str = "") -> Finding:
        key = (term, variant, start, end, severity)
        got = self._made.get(key)
        if got is None:
            if len(self._made) >= _KEEP:
                self._made.clear()
            if variant is not None:
                got = finding(DO_NOT_TRANSLATE_CODE,
                              f"“{term}” is not to be translated ({self.where}); the target writes “{variant}”.",
                              start, end, {"term": term, "replacements": [term], "glossary": self.paths})
            else:
                got = finding(DO_NOT_TRANSLATE_CODE,
                              f"“{term}” is not to be translated ({self.where}), and the target does not have it as written.",
                              0, None, {"term": term, "glossary": self.paths})
            self._made[key] = got = _severe(got, severity)
        return got


class Side:
    """The terms of one language."""

    def __init__(self, lang: Optional[str], heads: Optional[set[str]] = None) -> None:
        self.lang = lang
        self.stem = W.stem_function(lang)
        self.compounding = W.primary(lang) in W.COMPOUNDING
        #: English: a stem match must be a regular inflection of the term's word (the Porter
        #: stem joins "interpreted" to "interpreter", "promptly" to "prompt")
        self.english = W.primary(lang) == "en"
        #: one-word terms by their stem; two-word terms by their stems; longer terms by their
        #: first three stems, the longest first (as a line's matches at one word are ordered):
        #: a frequent first word ("of") or first two ("of the") walk no term they start
        self.by_first: dict[str, list[Entry]] = {}
        self.by_pair: dict[tuple[str, str], list[Entry]] = {}
        self.by_three: dict[tuple[str, str, str], list[Entry]] = {}
        self._pair_firsts: set[str] = set()
        self._three_firsts: set[tuple[str, str]] = set()
        self.substrings: list[Entry] = []
        #: the entries by what tells two terms apart (:func:`_key`)
        self._entries: dict["str | tuple", Entry] = {}
        #: the first two letters of every first stem (a word starting otherwise is not stemmed)
        self._heads: set[str] = heads if heads is not None else set()
        #: the first stems of the terms (a line holds a term of words only if one of its words
        #: stems to one of them)
        self.starts: set[str] = set()
        self._keys: dict[str, "str | tuple"] = {}
        #: a word (lower case) -> what it starts (:meth:`_looked`)
        self._look: dict[str, tuple] = {}

    def add(self, text: str, use: tuple) -> Optional[Entry]:
        text = " ".join(text.split())
        if not text:
            return None
        sub = W.no_spaces(text)
        if sub:
            key: "str | tuple" = text.lower()
        else:
            ws = W.words(W.masked(text))
            if not ws:
                return None
            exact = tuple(w.text for w in ws) if W.case_sensitive(text) else None
            stems = tuple(self.stem(w.lower) for w in ws)
            key = _key(stems, exact)
        entry = self._entries.get(key)
        if entry is None:
            entry = Entry(text, (), None, True) if sub else Entry(text, stems, exact, False, lowers=tuple(w.lower for w in ws))
            self._put(key, entry)
        entry.uses = (*entry.uses, use)
        return entry

    def _put(self, key: "str | tuple", entry: Entry) -> None:
        self._look.clear()
        if entry.substring:
            self.substrings.append(entry)
        else:
            stems = entry.stems
            if len(stems) == 1:
                self.by_first.setdefault(stems[0], []).append(entry)
            elif len(stems) == 2:
                self.by_pair.setdefault((stems[0], stems[1]), []).append(entry)
                self._pair_firsts.add(stems[0])
            else:
                kept = self.by_three.setdefault((stems[0], stems[1], stems[2]), [])
                at = len(kept)
                while at and len(kept[at - 1].stems) < len(stems):
                    at -= 1
                kept.insert(at, entry)
                self._pair_firsts.add(stems[0])
                self._three_firsts.add((stems[0], stems[1]))
            self._heads.add(stems[0][:2])
            self.starts.add(stems[0])
        self._entries[key] = entry

    def subset(self, keep: Callable[[Entry], bool]) -> "Side":
        """The entries of this side that ``keep`` holds, the same objects in the same order,
        looked for on the same words (the same first letters stemmed): what :meth:`find` of
        the subset gives is what this side's gives, without the others' entries."""
        sub = Side(self.lang, heads=self._heads)
        for key, entry in self._entries.items():
            if keep(entry):
                sub._put(key, entry)
        return sub

    def __len__(self) -> int:
        return len(self._entries)

    def _infos(self, lows: list[str]) -> list[tuple]:
        """What each word of a line starts (:meth:`_looked`), in order."""
        infos: list = list(map(self._look.get, lows))
        if None in infos:  # (words not met before: a line's few new ones)
            looked, i = self._looked, infos.index(None)
            while True:
                infos[i] = looked(lows[i])
                try:
                    i = infos.index(None, i + 1)
                except ValueError:
                    break
        return infos

    def _fits(self, e: Entry, line: W.Line, i: int, last: int, strict: bool, known: int) -> bool:
        """Is the term ``e`` of several words, whose first ``known`` stems are those of words
        ``i``, ``i + 1``..., at words ``i`` to ``last`` of ``line``?"""
        lows, stems = line.lows, e.stems
        if len(stems) > known:
            stem = self.stem
            for j in range(known, len(stems)):
                if stem(lows[i + j]) != stems[j]:
                    return False
        if e.exact is not None:
            ws = line.words
            for j, x in enumerate(e.exact):
                if not ws[i + j].startswith(x):
                    return False
        if self.english:
            inflection = W.english_inflection
            for j, x in enumerate(e.lowers):
                a = lows[i + j]
                if a != x and not inflection(a, x):
                    return False
        return not (strict and line.joined(i, last))

    def _longer(self, infos: list[tuple], lows: list[str], i: int, s: str) -> tuple[Sequence[Entry], Sequence[Entry]]:
        """The terms of several words whose first two (and third) stems are those of words
        ``i``, ``i + 1`` (and ``i + 2``): (those of three words or more, the longest first;
        those of two)."""
        n = len(lows)
        if i + 1 >= n:
            return (), ()
        s1 = infos[i + 1][0]
        if s1 is None:
            s1 = self.stem(lows[i + 1])
        pairs = self.by_pair.get((s, s1)) or ()
        if i + 2 < n and (s, s1) in self._three_firsts:
            s2 = infos[i + 2][0]
            if s2 is None:
                s2 = self.stem(lows[i + 2])
            return self.by_three.get((s, s1, s2)) or (), pairs
        return (), pairs

    def _borrowed(self, infos: list[tuple], lows: list[str]) -> list[tuple]:
        """What each word starts on this side (:meth:`_looked`), made from what it starts on a
        side this one is a subset of (``infos``, the same first letters stemmed): not kept
        per word."""
        starts, by_first, pair_firsts, english = self.starts, self.by_first, self._pair_firsts, self.english
        out: list[tuple] = []
        for g, low in zip(infos, lows):
            s = g[0]
            if s is None or s not in starts:
                out.append(_NOTHING)
                continue
            ones = by_first.get(s)
            if ones is not None and english:
                kept = [e for e in ones if low == e.lowers[0] or W.english_inflection(low, e.lowers[0])]
                if len(kept) != len(ones):
                    ones = kept or None
            out.append((s, ones, s in pair_firsts))
        return out

    def find(self, text: "str | W.Line", strict: bool, within: Optional[list[tuple]] = None) -> list[Match]:
        """Every term of this side in ``text`` (masked first), longest first where two overlap
        at one start.  ``strict``: never part of a hyphenated word.  ``within``: what the words
        start on the side this one is a subset of (:meth:`subset`, :meth:`firsts`), when the
        caller has it: this side's own is then made of it, not kept."""
        line = text if isinstance(text, W.Line) else W.Line(text)
        if not self._entries or not line.text:
            return []
        out: list[Match] = []
        lows = line.lows
        n = len(lows)
        if n and (self.by_first or self.by_pair or self.by_three):
            offs = line.offsets()
            infos = self._infos(lows) if within is None else self._borrowed(within, lows)
            for i, (s, ones, first) in enumerate(infos):
                if s is None:
                    continue
                if first:
                    threes, pairs = self._longer(infos, lows, i, s)
                    for e in threes:
                        last = i + len(e.stems) - 1
                        if last < n and self._fits(e, line, i, last, strict, 3):
                            out.append(_new(Match, (e, offs[2 * i], offs[2 * last + 1])))
                    for e in pairs:
                        if self._fits(e, line, i, i + 1, strict, 2):
                            out.append(_new(Match, (e, offs[2 * i], offs[2 * i + 3])))
                if ones is not None:
                    for e in ones:
                        if e.exact is not None and not line.words[i].startswith(e.exact[0]):
                            continue
                        if strict and line.joined(i, i):
                            break
                        out.append(_new(Match, (e, offs[2 * i], offs[2 * i + 1])))
        if self.substrings and W.no_spaces(line.plain):
            low = line.plain.lower()
            for e in self.substrings:
                needle = e.text.lower()
                at = low.find(needle)
                while at >= 0:
                    out.append(_new(Match, (e, at, at + len(needle))))
                    at = low.find(needle, at + 1)
            # (the words' matches are in this order already: by their word, the longest first)
            out.sort(key=lambda m: (m.start, -(m.end - m.start)))
        return out

    def find_outer(self, line: W.Line, strict: bool) -> list[Match]:
        """The terms of :meth:`find` not inside a longer one (``_outermost(find(line))``),
        found without trying what a longer term already holds."""
        if not self._entries or not line.text:
            return []
        if self.substrings and W.no_spaces(line.plain):
            return _outermost(self.find(line, strict))
        lows = line.lows
        n = len(lows)
        if not n or not (self.by_first or self.by_pair or self.by_three):
            return []
        out: list[Match] = []
        reach = -1  # the last word of the last term kept
        infos = self._infos(lows)
        fits, stem, by_pair, by_three, three_firsts = self._fits, self.stem, self.by_pair, self.by_three, self._three_firsts
        # (a term written as the line writes its words, lower case, is there without a stem
        # compared; not so for a term matched as written or a strict match)
        plain = not strict
        offs: Optional[list[int]] = None
        for i, (s, ones, first) in enumerate(infos):
            if s is None:
                continue
            hit: Optional[Entry] = None
            last = i
            if first and i + 1 < n:
                s1 = infos[i + 1][0]
                if s1 is None:
                    s1 = stem(lows[i + 1])
                if i + 2 < n and (s, s1) in three_firsts:
                    s2 = infos[i + 2][0]
                    if s2 is None:
                        s2 = stem(lows[i + 2])
                    for e in by_three.get((s, s1, s2), ()):  # the longest first: past one ending
                        last = i + len(e.stems) - 1          # within reach, all do
                        if last <= reach:
                            break
                        if last < n and ((plain and e.exact is None and tuple(lows[i:last + 1]) == e.lowers)
                                         or fits(e, line, i, last, strict, 3)):
                            hit = e
                            break
                if hit is None and i + 1 > reach:
                    for e in by_pair.get((s, s1), ()):
                        if ((plain and e.exact is None and lows[i] == e.lowers[0] and lows[i + 1] == e.lowers[1])
                                or fits(e, line, i, i + 1, strict, 2)):
                            hit, last = e, i + 1
                            break
            if hit is None and ones is not None and i > reach:
                for e in ones:
                    if e.exact is not None and not line.words[i].startswith(e.exact[0]):
                        continue
                    if strict and line.joined(i, i):
                        break
                    hit, last = e, i
                    break
            if hit is not None:
                if offs is None:
                    offs = line.offsets()
                out.append(_new(Match, (hit, offs[2 * i], offs[2 * last + 1])))
                reach = last
        return out

    def firsts(self, line: W.Line) -> tuple[list[tuple], set]:
        """What each word of ``line`` starts (:meth:`_looked`), and the set of the stems that
        start a term: a term of this side is in the line only if its first stem is in it."""
        infos = self._infos(line.lows) if line.text else []
        return infos, {g[0] for g in infos}

    def pairs(self, line: W.Line, infos: list[tuple]) -> set[tuple[str, str]]:
        """The stems of every two words of ``line`` a term of several words may start with
        (``infos``: :meth:`firsts`): a term of two words, matched by its stems alone, is in the
        line only if its stems are in this set, and then it is."""
        lows, stem = line.lows, self.stem
        return {(g[0], h[0] if h[0] is not None else stem(lows[i + 1]))
                for i, (g, h) in enumerate(zip(infos, infos[1:])) if g[2]}

    def holds(self, e: Entry, line: W.Line, infos: list[tuple], firsts: set) -> bool:
        """Is the entry ``e`` of this side among :meth:`find`'s matches in ``line`` (``infos``,
        ``firsts``: :meth:`firsts`)?"""
        if e.substring:
            return W.no_spaces(line.plain) and e.text.lower() in line.plain.lower()
        s0, k, n = e.stems[0], len(e.stems), len(infos)
        if s0 not in firsts:
            return False
        for i, (s, ones, _first) in enumerate(infos):
            if s != s0 or i + k > n:
                continue
            if k == 1:
                if ones is not None and e in ones and (
                        e.exact is None or line.words[i].startswith(e.exact[0])):
                    return True
            elif self._fits(e, line, i, i + k - 1, False, 1):
                return True
        return False

    def _looked(self, low: str) -> tuple:
        """What a word (lower case) starts: (its stem, the one-word terms of that stem it is,
        whether terms of several words start with it); (None, None, False) for a word no term
        starts with (not stemmed).  Kept per word.  In English, the one-word terms are those
        the word is a regular inflection of."""
        if low[:2] not in self._heads and (low.isascii() or _folded(low[:2]) not in self._heads):
            got: tuple = _NOTHING
        else:
            s = self.stem(low)
            ones = self.by_first.get(s)
            if ones is not None and self.english:
                kept = [e for e in ones if low == e.lowers[0] or W.english_inflection(low, e.lowers[0])]
                if len(kept) != len(ones):
                    ones = kept or None
            got = (s, ones, s in self._pair_firsts)
        if got is _NOTHING and low.isdigit():
            return got  # (a number no term starts with: met again, the test above is as quick)
        if len(self._look) >= LOOK_CACHE:
            self._look.clear()
        self._look[low] = got
        return got

    def _key_of(self, text: str) -> "str | tuple":
        got = self._keys.get(text)
        if got is None:
            if len(self._keys) > 100_000:
                self._keys.clear()
            got = self._keys[text] = self._make_key(text)
        return got

    def _make_key(self, text: str) -> "str | tuple":
        text = " ".join(text.split())
        if W.no_spaces(text):
            return text.lower()
        ws = W.words(W.masked(text))
        exact = tuple(w.text for w in ws) if W.case_sensitive(text) else None
        return _key(tuple(self.stem(w.lower) for w in ws), exact)


def _key(stems: tuple[str, ...], exact: Optional[tuple[str, ...]]) -> tuple:
    """What tells a term of words from the others of its side: its stems (a term matched in any
    case), or its stems and its words as written (a term matched as written).  A term without
    spaces is told by its text in lower case: a string, never equal to a tuple; a tuple of
    stems (strings) never equals a pair whose first item is a tuple.  The stems' own tuple is
    the key of most terms (no tuple made for it)."""
    return stems if exact is None else (stems, exact)


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
        #: a number no other index of this process has (what the rules' ``params`` compare: an
        #: object's id may be given again once it is freed)
        self.serial = next(_SERIALS)
        self.glossaries = tuple(glossaries)
        self.source_lang, self.target_lang = source, target
        self.src = Side(source)
        self.tgt = Side(target)
        #: source-side do-not-translate terms
        self.dnt = Side(source)
        #: a source term (lower case) -> the concept holding it, or the concepts when several
        #: do: one glossary may give a term's preferred and forbidden translations in separate
        #: entries (a CSV's rows).  A list only for those (most terms have one concept)
        self._by_source: dict[str, "Concept | list[Concept]"] = {}
        self._names: dict[tuple, tuple[list[str], str]] = {}
        for g in glossaries:
            for c in g.concepts:
                self._add(g, c)
        #: the target terms some glossary forbids: the only target terms a line is scanned for;
        #: the others are looked for one by one, those a source term of the line asks for
        #: (:meth:`Side.holds`)
        self.forbidden = self.tgt.subset(lambda e: any(st == FORBIDDEN for _c, st, _p in e.uses))

    def _add(self, g: Glossary, c: Concept) -> None:
        src_terms = [t for t in c.terms if self.source_lang is None or same_language(t.lang, self.source_lang)]
        tgt_terms = [t for t in c.terms if self.target_lang is not None and same_language(t.lang, self.target_lang)
                     and t.lang != "*"]
        if self.source_lang is not None and self.target_lang is not None and same_language(self.source_lang, self.target_lang):
            tgt_terms = []
        for t in src_terms:
            if t.lang != "*":
                key = _lower_key(t.text)
                had = self._by_source.get(key)
                if had is None:
                    self._by_source[key] = c
                elif isinstance(had, list):
                    had.append(c)
                else:
                    self._by_source[key] = [had, c]
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
    def scan(self, source: Optional[str], target: str, severity: Optional[Severities] = None) -> tuple[Finding, ...]:
        """The terminology findings of one target line (and its source line, when there is one),
        with the severity ``severity`` gives their code ("" without it).

        What a finding says of a glossary entry (its allowed target terms, the glossaries'
        names, its sentence and ``data``) is worked out once per entry and shared by every
        line meeting it (:meth:`_source_facts`, :meth:`_target_facts`, :meth:`_kept_facts`):
        the findings of two lines that write the term alike are one object, with no line of
        its own (``line`` 0: the analysis store keeps such findings by line, see
        :func:`bleu_ls.qa.analysis.incremental.placed`)."""
        sev_missing, sev_forbidden, sev_kept = severity if severity is not None else ("", "", "")
        hits: list[Finding] = []
        tline = W.Line(target) if target else None
        # what the target's words start (for the forbidden terms and the terms asked for)
        tinfos, tfirsts = self.tgt.firsts(tline) if tline is not None and len(self.tgt) else ([], set())
        bad: list[Match] = []
        if tline is not None and len(self.forbidden) and (
                self.forbidden.substrings or not self.forbidden.starts.isdisjoint(tfirsts)):
            bad = self.forbidden.find(tline, strict=False, within=tinfos)
        sline = W.Line(source) if source else None
        src_found: list[Match] = []
        if sline is not None and len(self.src):
            src_found = self.src.find_outer(sline, strict=False)
        # forbidden target terms (strict: whole words, never half of a hyphenated word), unless
        # a source term of the line allows the same text
        allowed_here: Optional[list[tuple]] = None
        for m in bad:
            tf = m.entry.facts if m.entry.facts is not None else self._target_facts(m.entry)
            if allowed_here is None:
                allowed_here = [(sm.entry.facts if sm.entry.facts is not None else self._source_facts(sm.entry)).allowed
                                for sm in src_found]
            if any(tf.lower in allowed for allowed in allowed_here):
                continue
            if not W.bounded(target, m.start, m.end) or _half_of_hyphenated(target, m.start, m.end):
                continue
            if m.end - m.start < tf.shortest:
                continue  # a shorter word of the same stem ("typique" for "typiquement"): not the term
            hits.append(tf.finding(target[m.start:m.end], m.start, m.end, sev_forbidden))
        # source terms whose target terms are all absent
        if src_found and source:
            forbidden_at = [(h.start_col, h.end_col) for h in hits]
            tpairs: Optional[set] = None
            joined: Optional[str] = None  # the target's lower-case words, each between NULs
            for m in src_found:
                sf = m.entry.facts if m.entry.facts is not None else self._source_facts(m.entry)
                if not sf.expected:
                    continue
                if not tfirsts.isdisjoint(sf.firsts):
                    continue  # the target has one of the terms (one word, its stem starts a word)
                if sf.pairs:
                    if tpairs is None:
                        tpairs = self.tgt.pairs(tline, tinfos) if tline is not None else set()
                    if not tpairs.isdisjoint(sf.pairs):
                        continue
                if sf.others and tline is not None and any(self.tgt.holds(e, tline, tinfos, tfirsts) for e in sf.others):
                    continue
                if sf.loose:
                    if joined is None:
                        joined = "\0" + "\0".join(tline.lows if tline is not None else ()) + "\0"
                    if _loosely_present(sf.loose, joined):
                        continue
                if forbidden_at and _forbidden_of(sf.concepts, bad, forbidden_at):
                    continue  # term-forbidden says it on the term itself
                hits.append(sf.finding(source[m.start:m.end], sev_missing))
        # do-not-translate terms of the source, kept as written in the target
        if sline is not None and source and len(self.dnt):
            seen: set[str] = set()
            for m in self.dnt.find_outer(sline, strict=True):
                # the glossary's spelling where the source writes it so, else the source's
                term = m.entry.text if _contains_exactly(source, m.entry.text) else source[m.start:m.end]
                if term in seen:
                    continue
                seen.add(term)
                if _contains_exactly(target, term):
                    continue
                kf = m.entry.facts if m.entry.facts is not None else self._kept_facts(m.entry)
                variant = _variant(target, term)
                if variant is not None:
                    a, b = variant
                    hits.append(kf.finding(term, target[a:b], a, b, sev_kept))
                else:
                    hits.append(kf.finding(term, None, 0, None, sev_kept))
        return tuple(hits)

    # -- what an entry's findings say, worked out once ------------------------------------
    def _allowed_targets(self, uses: Sequence[tuple]) -> list[str]:
        """The allowed target terms of the concepts of ``uses``, in order, each text once."""
        expected: list[str] = []
        for c, _st, _p in uses:
            for t in c.terms_in(self.target_lang or "*"):
                if t.status in ALLOWED and t.text not in expected:
                    expected.append(t.text)
        return expected

    def _source_facts(self, entry: Entry) -> "_SourceFacts":
        expected = self._allowed_targets(entry.uses)
        wanted = [self.tgt._entries.get(self.tgt._key_of(x)) for x in expected]
        loose: list[tuple[Optional[str], Optional[str]]] = []
        for e in wanted:
            if e is None or e.substring or len(e.stems) != 1:
                continue
            s, term = e.stems[0], e.text.lower()
            # a compound holding the term, in a language that writes compounds as one word;
            # an irregular form the stemmer does not join ("Konten" for "Konto"): a word
            # starting with all of the term but its last two letters (four at least)
            compound = s if self.tgt.compounding and len(s) >= 3 else None
            head = term[:max(4, len(term) - 2)] if len(term) >= 5 else None
            if compound is not None or head is not None:
                loose.append((compound, head))
        paths, where = self._named({p for _c, _st, p in entry.uses})
        found = tuple({id(e): e for e in wanted if e is not None}.values())
        # a target term of one or two words, any case, in a language other than English is in
        # a line exactly when its stem starts a word there (its stems, two words) (the tests:
        # the stems in the line's sets, Side.firsts, Side.pairs)
        simple = [e for e in found if not e.substring and len(e.stems) <= 2 and e.exact is None and not self.tgt.english]
        facts = _SourceFacts(
            expected=expected, firsts=tuple({e.stems[0]: None for e in simple if len(e.stems) == 1}),
            pairs=tuple({e.stems: None for e in simple if len(e.stems) == 2}),
            others=tuple(e for e in found if e not in simple), loose=tuple(loose),
            allowed=tuple({x.lower(): None for x in expected}), concepts=tuple({id(c): c for c, _st, _p in entry.uses}.values()),
            paths=paths, where=where)
        entry.facts = facts
        return facts

    def _target_facts(self, entry: Entry) -> "_TargetFacts":
        forbidden = [(c, p) for c, st, p in entry.uses if st == FORBIDDEN]
        paths, where = self._named({p for _c, p in forbidden})
        facts = _TargetFacts(
            forbidden=bool(forbidden), lower=entry.text.lower(), shortest=len(entry.text) - len(entry.stems),
            instead=self._preferred([c for c, _p in forbidden]) if forbidden else [],
            paths=paths, where=where)
        entry.facts = facts
        return facts

    def _named(self, paths: set) -> tuple[list[str], str]:
        """The glossaries' paths sorted (a finding's ``data["glossary"]``) and their names as a
        sentence says them: one list and one string for every entry of the same glossaries."""
        key = tuple(sorted(paths))
        got = self._names.get(key)
        if got is None:
            got = self._names[key] = (list(key), _places(paths))
        return got

    def _kept_facts(self, entry: Entry) -> "_KeptFacts":
        paths, where = self._named({p for _c, _s, p in entry.uses})
        facts = _KeptFacts(paths=paths, where=where)
        entry.facts = facts
        return facts

    def related(self, concepts: Sequence[Concept]) -> list[Concept]:
        """``concepts`` and the concepts sharing a source term with one of them."""
        out: list[Concept] = []
        seen: set[int] = set()
        for c in concepts:
            for x in [c, *(k for t in c.terms_in(self.source_lang or "*") if t.lang != "*"
                           for k in _listed(self._by_source.get(_lower_key(t.text))))]:
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


def _lower_key(text: str) -> str:
    """A term as :attr:`TermIndex._by_source` keeps it: lower case, white space normalised (the
    term's own string when it is written so already)."""
    low = " ".join(text.lower().split())
    return text if low == text else low


def _listed(got: "Concept | list[Concept] | None") -> "Sequence[Concept]":
    return () if got is None else got if isinstance(got, list) else (got,)


def _forbidden_of(concepts: tuple, tgt_found: list[Match], at: list) -> bool:
    """Is one of the target terms found at a place in ``at`` a forbidden term of one of the
    concepts (the very objects: two entries alike are two concepts)?"""
    for m in tgt_found:
        if (m.start, m.end) in at and any(st == FORBIDDEN and any(c is x for x in concepts) for c, st, _p in m.entry.uses):
            return True
    return False


def _loosely_present(loose: tuple, joined: str) -> bool:
    """Is one of the target terms (``(compound stem, head)`` pairs of :class:`_SourceFacts`) in
    the target's lower-case words (``joined``: each between NULs, which no word holds)
    leniently: a word longer than the compound stem starting or ending with it (inside a
    compound), or a word starting with the head (an irregular form)?"""
    for compound, head in loose:
        if head is not None and "\0" not in head and "\0" + head in joined:
            return True
        if compound is not None:
            k = len(compound)
            at = joined.find("\0" + compound)
            while at >= 0:
                if joined[at + 1 + k] != "\0":
                    return True
                at = joined.find("\0" + compound, at + 1)
            at = joined.find(compound + "\0")
            while at >= 0:
                if joined[at - 1] != "\0":
                    return True
                at = joined.find(compound + "\0", at + 1)
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
