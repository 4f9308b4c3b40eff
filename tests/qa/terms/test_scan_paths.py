"""The term index's quick paths against its general one: ``scan`` looks for the outermost
source terms only (``Side.find_outer``), for a target term asked for alone (``Side.holds``, the
line's sets of first stems and stem pairs) and for the forbidden target terms in a side of
their own (``TermIndex.forbidden``); each must say what ``Side.find`` over the whole side says,
on lines and glossaries drawn at random from words that take every rule's path (inflections,
capitals, hyphens, placeholders, a final sigma, a dotted capital I, scripts without spaces)."""

from __future__ import annotations

import random

import pytest

from bleu_ls.formats.glossary.model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED, Concept, Glossary, Term
from bleu_ls.qa.terms import words as W
from bleu_ls.qa.terms.index import TermIndex, _outermost

VOCABULARY = [
    "file", "files", "filed", "Filing", "of", "the", "email", "E-Mail", "address", "Adresse", "Datei", "Dateien",
    "Dateiname", "URL", "URLs", "iOS", "GitHub", "Github", "mail", "Mail", "Konto", "Konten", "account", "accounts",
    "interpreter", "interpreted", "prompt", "promptly", "run", "running", "I", "d", "like", "to", "in", "relation",
    "a", "Äpfel", "Apfel", "ΟΔΟΣ", "οδος", "İstanbul", "文件", "文件夹", "ファイル", "set", "up", "set-up", "Set",
    "{name}", "<b>", "</b>", "%s", "`code`", "data", "Data", "die", "Erklärung", "x",
]
PAIRS = [("en", "de"), ("en", "de"), ("de", "en"), ("en", "zh"), ("en", "fr")]


def _phrase(rng: random.Random, k: int) -> str:
    return " ".join(rng.choice(VOCABULARY) for _ in range(k))


def _line(rng: random.Random) -> str:
    ws = [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 14))]
    return "".join(w + rng.choice([" ", " ", " ", "-", ", ", "'", ". ", ""]) for w in ws)


def _index(seed: int) -> tuple[TermIndex, random.Random]:
    rng = random.Random(seed)
    source, target = rng.choice(PAIRS)
    concepts = []
    for _ in range(rng.randint(1, 25)):
        if rng.random() < 0.15:
            terms = [Term(_phrase(rng, rng.randint(1, 2)), source, DO_NOT_TRANSLATE)]
        else:
            terms = [Term(_phrase(rng, rng.choice([1, 1, 2, 2, 3, 4, 5])), source, rng.choice([PREFERRED, FORBIDDEN]))]
            terms += [Term(_phrase(rng, rng.choice([1, 1, 2, 3])), target,
                           rng.choice([PREFERRED, PREFERRED, ADMITTED, FORBIDDEN])) for _ in range(rng.randint(0, 3))]
        concepts.append(Concept(tuple(terms)))
    return TermIndex([Glossary(f"g{seed}.csv", (source, target), concepts, [], source)], source, target), rng


def _spans(ms) -> list[tuple[int, int, int]]:
    return [(id(m.entry), m.start, m.end) for m in ms]


@pytest.mark.parametrize("seed", range(0, 400, 8))
def test_the_quick_paths_say_what_the_whole_side_finds(seed):
    ix, rng = _index(seed)
    forbidden = {id(e) for e in ix.forbidden._entries.values()}
    assert forbidden == {id(e) for e in ix.tgt._entries.values() if any(st == FORBIDDEN for _c, st, _p in e.uses)}
    for _ in range(25):
        source, target = W.Line(_line(rng)), W.Line(_line(rng))
        for side, strict in ((ix.src, False), (ix.dnt, True), (ix.src, True)):
            assert _spans(side.find_outer(source, strict)) == _spans(_outermost(side.find(source.text, strict)))
        everything = ix.tgt.find(target.text, strict=False)
        assert _spans(ix.forbidden.find(target, strict=False)) == _spans(m for m in everything if id(m.entry) in forbidden)
        found = {id(m.entry) for m in everything}
        infos, firsts = ix.tgt.firsts(target)
        assert _spans(ix.forbidden.find(target, strict=False, within=infos)) == _spans(
            m for m in everything if id(m.entry) in forbidden)
        pairs = ix.tgt.pairs(target, infos)
        for e in ix.tgt._entries.values():
            assert ix.tgt.holds(e, target, infos, firsts) == (id(e) in found), (e.text, target.text)
            if not e.substring and e.exact is None and not ix.tgt.english:
                if len(e.stems) == 1:
                    assert (e.stems[0] in firsts) == (id(e) in found), (e.text, target.text)
                elif len(e.stems) == 2:
                    assert (e.stems in pairs) == (id(e) in found), (e.text, target.text)


@pytest.mark.parametrize("text", [
    "Öffnen Sie die E-Mail-Adresse {name} und <b>das File</b>.",
    "ΟΔΟΣ'Β ΑΣ.Β ΟΔΟΣ",  # a final sigma: each word lowered as on its own
    "İstanbul'da İİ",  # a dotted capital I lowers to two characters
    "文件 set-up `code` %s a--b -x- y‑z",
    "Set_up 2 files-now, the_end 3D x",  # all ASCII: the simpler split
    "",
    "   ",
])
def test_a_line_is_split_as_words_splits_it(text):
    line = W.Line(text)
    want = W.words(W.masked(text))
    assert line.words == [w.text for w in want]
    assert line.lows == [w.lower for w in want]
    offs = line.offsets()
    assert [(offs[2 * i], offs[2 * i + 1]) for i in range(len(want))] == [(w.start, w.end) for w in want]
    for i, w in enumerate(want):
        assert line.joined(i, i) == (w.joined_before or w.joined_after)


def _c(*terms: Term) -> Concept:
    return Concept(tuple(terms))


def test_an_outer_term_starting_inside_a_longer_one_is_kept():
    """"but I'd like" (four words) and "I'd like to" (four words, from its second): neither is
    inside the other, both are asked for."""
    g = Glossary("g.csv", ("en", "de"), [_c(Term("but I'd like", "en"), Term("aber ich möchte", "de")),
                                         _c(Term("I'd like to", "en"), Term("möchte", "de")),
                                         _c(Term("like", "en"), Term("wie", "de"))], [], "en")
    ix = TermIndex([g], "en", "de")
    got = [(f.data["source"]) for f in ix.scan("But I'd like to play.", "Spielen.")]
    assert got == ["But I'd like", "I'd like to"]
    assert ix.scan("But I'd like to play.", "Aber ich möchte spielen.") == ()


def test_a_forbidden_term_of_three_words_is_found_in_the_target():
    g = Glossary("g.csv", ("en", "de"), [_c(Term("set up", "en"), Term("einrichten", "de"),
                                            Term("auf die Beine stellen", "de", FORBIDDEN))], [], "en")
    ix = TermIndex([g], "en", "de")
    target = "Den Server auf die Beine stellen."
    [f] = ix.scan("Set up the server.", target)
    at = target.index("auf die Beine stellen")
    assert (f.code, f.start_col, f.end_col) == ("term-forbidden", at, at + len("auf die Beine stellen"))


@pytest.mark.parametrize("source", ["Your email address here", "Enter the email address book now"])
def test_a_term_written_as_the_glossary_writes_it_is_found_without_its_stems_compared(monkeypatch, source):
    """A term of two or three words that the line writes as the glossary does (lower case) is
    there at once: ``find_outer`` compares no stem for it (``Side._fits`` is not asked)."""
    g = Glossary("g.csv", ("en", "de"), [
        Concept((Term("email address", "en"), Term("E-Mail-Adresse", "de"))),
        Concept((Term("email address book", "en"), Term("Adressbuch", "de"))),
    ], [], "en")
    ix = TermIndex([g], "en", "de")
    asked: list = []
    fits = type(ix.src)._fits
    monkeypatch.setattr(type(ix.src), "_fits", lambda self, *a: asked.append(a) or fits(self, *a))
    [m] = ix.src.find_outer(W.Line(source), strict=False)
    assert m.entry.text == ("email address" if "book" not in source else "email address book")
    assert asked == []


@pytest.mark.parametrize("seed", range(0, 60, 6))
def test_the_word_caches_starting_over_change_no_finding(monkeypatch, seed):
    """The words a side keeps (``LOOK_CACHE``) and the stems a language keeps (``STEM_CACHE``)
    start over when full: with room for a handful of words each, every line's findings are
    those of an index whose caches never fill, and the caches stay within their bounds."""
    from bleu_ls.qa.terms import index as module

    def findings(ix: TermIndex, lines: list) -> list:
        return [[(f.code, f.start_col, f.end_col, f.message, f.data) for f in ix.scan(s, t)] for s, t in lines]

    wide, rng = _index(seed)
    lines = [(_line(rng), _line(rng)) for _ in range(60)]
    want = findings(wide, lines)
    W._STEMS.clear()
    monkeypatch.setattr(module, "LOOK_CACHE", 5)
    monkeypatch.setattr(W, "STEM_CACHE", 7)
    narrow, _ = _index(seed)
    assert findings(narrow, lines) == want
    assert all(len(side._look) <= 5 for side in (narrow.src, narrow.tgt, narrow.dnt, narrow.forbidden))
    assert all(len(cache) <= 7 for cache in W._STEMS.values())
    W._STEMS.clear()
