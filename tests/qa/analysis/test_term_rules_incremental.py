"""The terminology rules after edits: one long-lived analyser (incremental: its memo of each
line's terms and its findings of the lines an edit did not touch) against a fresh one on the
same lines, after every step of seeded random edit scripts; and after the glossary file is
rewritten on disk.

The edits are those the server makes: a segment document's lines spliced into an
``Unreferenced`` model with its sources (a new source list when a source changed, as
``server/segdocs/rules.py`` hands it), and a line file's pair model with a reference and a
source; lines replaced, inserted and deleted, alone or several at once, with and without the
glossary's words (inflected, in other cases, inside compounds and hyphenated words)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from bleu_ls.config.settings import Settings
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.qa.analysis import Analyzer
from bleu_ls.qa.analysis.unreferenced import Unreferenced
from bleu_ls.qa.terms import load

CODES = ("term-missing", "term-forbidden", "do-not-translate")

GLOSSARY = """en,de,status
file,Datei,preferred
folder,Verzeichnis,preferred
folder,Ordner,forbidden
email address,E-Mail-Adresse,preferred
save,speichern,preferred
save,sichern,admitted
GitHub,GitHub,do-not-translate
"""
#: the same terms, two changed: "file" is now "Akte", "Ordner" is allowed, "Mappe" forbidden
GLOSSARY_2 = """en,de,status
file,Akte,preferred
folder,Ordner,preferred
folder,Mappe,forbidden
email address,E-Mail-Adresse,preferred
save,speichern,preferred
GitHub,GitHub,do-not-translate
"""

SOURCES = [
    "Save the file.", "Open the folder on GitHub.", "Send it to your email address.",
    "The files are in two folders.", "Nothing to see here.", "Saved to the github folder",
    "Your email addresses and files", "", "Profile settings", "FILE AND FOLDER",
]
TARGETS = [
    "Speichern Sie die Datei.", "Öffnen Sie den Ordner auf GitHub.", "Senden Sie es an Ihre E-Mail-Adresse.",
    "Die Dateien liegen in zwei Verzeichnissen.", "Hier gibt es nichts.", "Im Github-Ordner gesichert",
    "Ihre E-Mail-Adressen und Akten", "", "Dateiname und Mappe", "DATEI UND ORDNER", "Sichern Sie die Datei im Ordner.",
]


def _terms(findings) -> list:
    return [f for f in findings if f.code in CODES]


def _write(path: Path, text: str, stamp: int) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))  # a new modification time even within the clock's resolution


@pytest.fixture
def glossary(tmp_path):
    path = tmp_path / "glossary.csv"
    _write(path, GLOSSARY, 1_000_000_000_000_000_000)
    yield path
    load.forget()


def _settings(path: Path, languages: bool) -> Settings:
    terms: dict = {"files": [str(path)]}
    if languages:
        terms.update({"sourceLanguage": "en", "targetLanguage": "de"})
    # (the rows that load a model per analyser off: a fresh analyser runs after every step)
    return Settings.from_dict({"terms": terms, "diagnostics": {"adequacy": {"enabled": False}, "wrongLanguage": {"enabled": False}}})


def _edit(rng: random.Random, n: int) -> tuple[int, int, int]:
    """(start, end, count of new lines) of one random splice of ``n`` lines."""
    kind = rng.random()
    start = rng.randrange(n + 1)
    if kind < 0.5 and n:  # replace one line
        start = min(start, n - 1)
        return start, start + 1, 1
    if kind < 0.7:  # insert one to three lines
        return start, start, rng.randint(1, 3)
    if kind < 0.85 and n > 1:  # delete one to three lines
        start = min(start, n - 1)
        return start, min(n, start + rng.randint(1, 3)), 0
    end = min(n, start + rng.randint(0, 4))  # replace a block by another of a different size
    return start, end, rng.randint(0, 4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_unreferenced_edits_equal_a_fresh_analysis(glossary, seed):
    """A segment document alone (the languages from the file: ``names``), 250 random splices:
    after each, the long-lived analyser's terminology findings equal a fresh analyser's."""
    rng = random.Random(seed)
    s = _settings(glossary, languages=False)
    names = {"source_language": "en", "target_language": "de"}
    n = 30
    source = [rng.choice(SOURCES) for _ in range(n)]
    model = Unreferenced(build_metrics(s), [rng.choice(TARGETS) for _ in range(n)])
    live = Analyzer(s)
    first = _terms(live.analyse(model, source, names))
    assert {f.code for f in first} == set(CODES)  # the script starts with each finding present
    incremental = 0
    for _step in range(250):
        start, end, k = _edit(rng, model.n_hyp)
        targets = [rng.choice(TARGETS) for _ in range(k)]
        if rng.random() < 0.3 and end - start == k:  # the targets alone change: the same source list
            model.splice_hyp(start, end, targets)
        else:
            model.splice_hyp(start, end, targets)
            source = source[:start] + [rng.choice(SOURCES) for _ in range(k)] + source[end:]
        got = _terms(live.analyse(model, source, names))
        incremental += live.changed is not None  # the pass worked out the edited lines only
        assert got == _terms(Analyzer(s).analyse(model, list(source), dict(names)))
    assert incremental > 125  # (a splice of a large share of the lines is a full pass)


@pytest.mark.parametrize("seed", [4, 5])
def test_pair_model_edits_equal_a_fresh_analysis(glossary, seed):
    """A line file with its reference and source (the languages from the settings): 200 random
    splices of the hypothesis, its reference and source kept aligned."""
    rng = random.Random(seed)
    s = _settings(glossary, languages=True)
    n = 25
    source = [rng.choice(SOURCES) for _ in range(n)]
    model = PairModel(build_metrics(s), [rng.choice(TARGETS) for _ in range(n)], [[rng.choice(TARGETS) for _ in range(n)]])
    live = Analyzer(s)
    live.analyse(model, source)
    for _step in range(200):
        start, end, k = _edit(rng, model.n_hyp)
        model.splice_hyp(start, end, [rng.choice(TARGETS) for _ in range(k)])
        model.splice_ref(0, start, end, [rng.choice(TARGETS) for _ in range(k)])
        source = source[:start] + [rng.choice(SOURCES) for _ in range(k)] + source[end:]
        got = _terms(live.analyse(model, source))
        assert got == _terms(Analyzer(s).analyse(model, list(source)))


def test_a_glossary_rewritten_on_disk_is_read_again_for_every_line(glossary):
    """The glossary file rewritten (new size and time; then new time, same size) between two
    passes with no edit: the long-lived analyser's next pass equals a fresh one's, and differs
    from its previous pass where the glossaries differ ("Akte" for "file", "Mappe" forbidden
    instead of "Ordner").  Rewritten a dozen times back and forth, every pass still equals a
    fresh one's (more rewrites than the term indexes kept)."""
    rng = random.Random(7)
    s = _settings(glossary, languages=True)
    n = 40
    source = [SOURCES[i % len(SOURCES)] for i in range(n)]
    model = Unreferenced(build_metrics(s), [TARGETS[(3 * i) % len(TARGETS)] for i in range(n)])
    live = Analyzer(s)
    before = _terms(live.analyse(model, source))
    assert any(f.code == "term-forbidden" and f.data["term"] == "Ordner" for f in before)
    stamp = 2_000_000_000_000_000_000
    _write(glossary, GLOSSARY_2, stamp)
    after = _terms(live.analyse(model, source))
    assert after == _terms(Analyzer(s).analyse(model, list(source)))
    assert not any(f.data.get("term") == "Ordner" for f in after)
    assert any(f.code == "term-forbidden" and f.data["term"] == "Mappe" for f in after)
    # the same size, another time: read again (a byte changed where the size stays)
    same_size = GLOSSARY_2.replace("Mappe", "Tasche"[:5])
    assert len(same_size.encode()) == len(GLOSSARY_2.encode())
    for i in range(12):
        stamp += 1_000_000_000
        text = [GLOSSARY, GLOSSARY_2, same_size][i % 3]
        _write(glossary, text, stamp)
        if rng.random() < 0.5:  # an edit in between, or none
            j = rng.randrange(n)
            model.splice_hyp(j, j + 1, [rng.choice(TARGETS)])
        got = _terms(live.analyse(model, source))
        assert got == _terms(Analyzer(s).analyse(model, list(source))), i


def test_a_rewritten_glossary_is_never_taken_for_the_index_of_a_previous_pass(glossary, tmp_path):
    """Other documents' glossaries push this document's term index out of the loader's
    cache between two passes, and the glossary is rewritten: the new index is a new object,
    possibly at the address of the freed one.  The long-lived analyser's next pass still
    equals a fresh one's, round after round."""
    s = _settings(glossary, languages=True)
    n = 20
    source = [SOURCES[i % len(SOURCES)] for i in range(n)]
    model = Unreferenced(build_metrics(s), [TARGETS[(3 * i) % len(TARGETS)] for i in range(n)])
    live = Analyzer(s)
    stamp = 3_000_000_000_000_000_000
    others = []
    for k in range(9):
        other = tmp_path / f"other{k}.csv"
        other.write_text(f"en,de,status\nword{k},Wort{k},preferred\n", encoding="utf-8")
        others.append(str(other))
    for i in range(40):
        live.analyse(model, source)
        for other in others:  # other documents' glossaries: more than the cache keeps
            assert load.terms_for((other,), "en", "de").termbase is not None
        stamp += 1_000_000_000
        _write(glossary, GLOSSARY_2 if i % 2 == 0 else GLOSSARY, stamp)
        got = _terms(live.analyse(model, source))
        assert got == _terms(Analyzer(s).analyse(model, list(source))), i


def _analysed(glossary: Path, source: list, targets: list) -> tuple:
    """(settings, sources, model, its analyser after a first pass) of a segment document."""
    s = _settings(glossary, languages=True)
    model = Unreferenced(build_metrics(s), targets)
    live = Analyzer(s)
    live.analyse(model, source)
    return s, source, model, live


class _Scans:
    """Counts the lines the term index looks at."""

    def __init__(self, monkeypatch):
        from bleu_ls.qa.terms.index import TermIndex

        self.targets: list = []
        real = TermIndex.scan

        def scan(index, source, target, severity=None):
            self.targets.append(target)
            return real(index, source, target, severity)

        monkeypatch.setattr(TermIndex, "scan", scan)


def test_lines_put_in_every_column_alike_cost_those_lines(glossary, monkeypatch):
    """Segments put in near the top of a segment document (its targets and sources alike) make
    a full pass (every later line is paired anew), which looks at the new lines' terms only: the
    other lines keep what they were found to have, by position; taken out again, none."""
    s, source, model, live = _analysed(glossary, [f"{SOURCES[i % len(SOURCES)]} {i}" for i in range(400)],
                                       [f"{TARGETS[(3 * i) % len(TARGETS)]} {i}" for i in range(400)])
    scans = _Scans(monkeypatch)
    new_targets, new_sources = ["Öffnen Sie den Ordner.", "Das Dokument"], ["Open the folder.", "The file"]
    model.splice_hyp(3, 3, new_targets)
    source = source[:3] + new_sources + source[3:]
    got = _terms(live.analyse(model, source))
    assert live.changed is None  # (a full pass)
    assert scans.targets == new_targets
    assert got == _terms(Analyzer(s).analyse(model, list(source)))
    assert {(f.line, f.code) for f in got} >= {(3, "term-forbidden"), (4, "term-missing")}
    scans.targets.clear()
    model.splice_hyp(3, 5, [])
    source = source[:3] + source[5:]
    got = _terms(live.analyse(model, source))
    assert scans.targets == []
    assert got == _terms(Analyzer(s).analyse(model, list(source)))


def test_a_term_met_alike_on_many_lines_is_one_finding_placed_on_each(glossary):
    """The store keeps one finding for the lines that meet a term alike (memory: a dense
    glossary flags most lines of a large file); what the analysis hands on is placed on each
    line, with the rule's severity."""
    s = Settings.from_dict({"terms": {"files": [str(glossary)], "sourceLanguage": "en", "targetLanguage": "de"},
                            "diagnostics": {"adequacy": {"enabled": False}, "wrongLanguage": {"enabled": False},
                                            "termMissing": {"severity": "error"}}})
    n = 50
    model = Unreferenced(build_metrics(s), [f"Öffnen Sie das Dokument {i}." for i in range(n)])
    live = Analyzer(s)
    got = _terms(live.analyse(model, [f"Open the file {i}." for i in range(n)]))
    assert [(f.line, f.code, f.severity) for f in got] == [(i, "term-missing", "error") for i in range(n)]
    kept = [live.store.final[i] for i in range(n)]
    assert all(fs[0] is kept[0][0] for fs in kept)
    assert kept[0][0].line == 0 and got[7].line == 7 and got[7].message == kept[7][0].message


@pytest.mark.parametrize("seed", [8, 9])
def test_edits_of_a_document_flagged_on_most_lines_equal_a_fresh_analysis(glossary, seed):
    """1,500 lines, most with a term finding (the store keeps them as lists by line,
    ``DenseLines``): 40 random splices and line edits, each pass equal to a fresh analyser's."""
    from bleu_ls.qa.findings import DenseLines

    rng = random.Random(seed)
    s, source, model, live = _analysed(glossary, [f"{rng.choice(SOURCES[:4])} {i}" for i in range(1500)],
                                       [f"{rng.choice(TARGETS)} {i}" for i in range(1500)])
    assert isinstance(live.store.final, DenseLines) and isinstance(live.store.by_code["term-missing"], DenseLines)
    for step in range(40):
        if step % 2:
            j = rng.randrange(model.n_hyp)
            model.splice_hyp(j, j + 1, [f"{rng.choice(TARGETS)} {step}"])
        else:
            start, end, k = _edit(rng, model.n_hyp)
            model.splice_hyp(start, end, [f"{rng.choice(TARGETS)} {step}" for _ in range(k)])
            source = source[:start] + [f"{rng.choice(SOURCES)} {step}" for _ in range(k)] + source[end:]
        got = _terms(live.analyse(model, source))
        assert got == _terms(Analyzer(s).analyse(model, list(source))), step
