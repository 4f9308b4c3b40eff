"""The format checks in the server: an opened PO, XLIFF or TMX file shows the
diagnostics `bleu-ls check` gives (same codes, same lines, same severities) on
the real files under tests/data/formats; after random edits the findings kept
in step with the index equal the ones counted afresh on the text."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_ls.qa.rules import FORMAT_CODES
from bleu_ls.qa.formats.format_checks import findings_for, severities
from bleu_ls.qa.formats.live_checks import LiveChecks
from bleu_ls.formats.read import parse
from bleu_ls.server.segdocs.checks import diagnostics_json, findings
from bleu_ls.server.segdocs.state import hint_offsets, visible_rows
from bleu_ls.server.segdocs.docs import SegmentDocs
from bleu_ls.config.settings import Settings

from ...cli.test_segments_po import run

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"
SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}

#: (hypothesis, reference): the real pairs, and files paired with themselves
PAIRS = [
    ("po/allauth-de-2023-10-07.po", "po/allauth-de-2023-11-03.po"),
    ("po/allauth-ru-2025-03-27.po", "po/allauth-ru-2025-04-29.po"),
    ("po/phonenumber-fr-2024.po", "po/phonenumber-fr-2025.po"),
    ("xliff/algorea.fr.draft.xlf", "xliff/algorea.fr.final.xlf"),
    ("xliff/angular.fr.xlf2.xlf", "xliff/angular.fr.xlf2.xlf"),
    ("tmx/sample.tmx", "tmx/sample.tmx"),
    ("tmx/mixed-languages.tmx", "tmx/mixed-languages.tmx"),
]


def _docs(root: Path) -> SegmentDocs:
    manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: root, client=None)
    return SegmentDocs(manager)  # type: ignore[arg-type]


@pytest.mark.parametrize("hyp,ref", PAIRS, ids=[Path(h).name for h, _ in PAIRS])
def test_an_opened_file_shows_the_format_findings_check_gives(tmp_path, hyp, ref):
    suffix = Path(hyp).suffix
    h, r = tmp_path / f"a.hyp{suffix}", tmp_path / f"a.ref{suffix}"
    shutil.copy(DATA / hyp, h)
    shutil.copy(DATA / ref, r)
    # the rule table's `untranslated` off: it would take `target-same-as-source`'s place in check
    (tmp_path / "bleu-ls.toml").write_text("[diagnostics.untranslated]\nenabled = false\n", encoding="utf-8")
    res = run("check", tmp_path, "--format", "json")
    assert res.returncode in (0, 1), res.stderr
    (pair,) = json.loads(res.stdout)["pairs"]
    own = set(FORMAT_CODES) | {"po-syntax"}
    expected = Counter((d["code"], d["line"], d["severity"]) for d in pair["diagnostics"] if d["code"] in own)

    docs = _docs(tmp_path)
    docs.manager.settings.diagnostics.untranslated.enabled = False  # (as in check above)
    uri = h.as_uri()
    docs.open(uri, h.read_text(encoding="utf-8"), 1)
    got = Counter()
    for text in docs.diagnostics(uri):
        d = json.loads(text)
        if d["code"] in own:  # (the rule table's findings beside them: tests/server/segdocs/test_rules.py)
            got[(d["code"], d["range"]["start"]["line"] + 1, SEVERITY[d["severity"]])] += 1
    assert expected or "angular" in hyp, "the file has findings to compare"  # Angular's own test file is clean
    assert got == expected


def test_a_code_switched_off_is_not_shown(tmp_path):
    h = tmp_path / "a.hyp.po"
    shutil.copy(DATA / "po/allauth-de-2023-10-07.po", h)
    docs = _docs(tmp_path)
    docs.manager.settings.diagnostics.fuzzy.enabled = False
    docs.open(h.as_uri(), h.read_text(encoding="utf-8"), 1)
    codes = {json.loads(t)["code"] for t in docs.diagnostics(h.as_uri())}
    assert "fuzzy" not in codes and "target-empty" in codes


# -- after edits: the findings kept in step equal those counted afresh -------------------------

def _fresh(fmt: str, text: str, sev) -> Counter:
    """findings_for's findings on a fresh read of ``text`` (the reader's problems aside)."""
    doc = parse(fmt, b"", "buffer", text=text)
    doc.text = text
    s = Settings()
    return Counter((f.code, f.severity, f.message, f.span) for f in findings_for(doc, s, text=text) if f.code != "po-syntax")


def _kept(sp) -> Counter:
    out = Counter()
    for i, found in enumerate(findings(sp)):
        base = sp.index.target_span(i)[0]
        for f in found:
            out[(f.code, f.severity, f.message, (base + f.span[0], base + f.span[1]))] += 1
    return out


SOURCES = {"po": "po/phonenumber-fr-2024.po", "xlf": "xliff/algorea.fr.draft.xlf", "xlf2": "xliff/angular.fr.xlf2.xlf",
           "tmx": "tmx/sample.tmx", "po-ru": "po/allauth-ru-2025-03-27.po"}
PIECES = {
    "po": ['msgstr "Bonjour %s"', '\n\nmsgid "Hello %s"\nmsgstr "Salut"\n', '"', "fuzzy", "#, c-format\n", "Bonjour", "\n", "  ", ""],
    "po-ru": ['msgstr[3] ""\n', '\n\nmsgid "A"\nmsgid_plural "As"\nmsgstr[0] "x"\n', '"', "%d", "Отправить", "\n", ""],
    "xlf": ["<x id=\"INTERPOLATION\"/>", "Annuler", " ", "<target>", "</target>", "state=\"final\"", "Cancel", ""],
    "xlf2": ["<ph id=\"1\"/>", "Bonjour", " ", "</target>", "<pc id=\"0\">", "</pc>", "", "{", "}", " few {#}", "'",
             "other", "VAR_SELECT"],  # (the ICU messages of its units: icu-syntax, icu-arguments, plural-categories)
    "tmx": ["<seg>Hello</seg>", "Bonjour", " ", "</tuv>", "x", ""],
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(which=st.sampled_from(sorted(SOURCES)), data=st.data())
def test_findings_after_random_edits_equal_a_fresh_count(tmp_path, which, data):
    name = SOURCES[which]
    suffix = Path(name).suffix
    path = tmp_path / f"a.hyp{suffix}"
    text = (DATA / name).read_text(encoding="utf-8")
    (tmp_path / f"a.ref{suffix}").write_text(text, encoding="utf-8")  # a reference: rows, hints
    docs = _docs(tmp_path)
    docs.open(path.as_uri(), text, 1)
    sp = docs.docs[path.as_uri()]
    assert len(sp.row_anchor)
    findings(sp)  # counted once, then kept in step
    for _ in range(data.draw(st.integers(1, 6))):
        index = sp.index
        n = len(index)
        if n and data.draw(st.booleans()):  # inside or around a target
            a, b = index.target_span(data.draw(st.integers(0, n - 1)))
            start = data.draw(st.integers(max(0, a - 3), b))
            end = data.draw(st.integers(start, min(len(index.text), b + 3)))
        else:
            start = data.draw(st.integers(0, len(index.text)))
            end = min(len(index.text), start + data.draw(st.integers(0, 60)))
        docs._apply(sp, start, end, data.draw(st.sampled_from(PIECES[which])))
        if sp.index.problems and sp.index.format != "po":
            continue  # a malformed XML text: the last good reading stays
        assert _kept(sp) == _fresh(sp.index.format, sp.index.text, None)
        _same_answers(sp)


def _same_answers(sp) -> None:
    """The diagnostics (made from the segments with findings, their JSON kept) equal those made afresh;
    the hints' rows found from the segments in a range equal those of every row's hint place."""
    got = diagnostics_json(sp, "utf-16")
    for found in sp.qa:
        for f in found:
            f.cache = None
    sp.qa_has = None
    assert got == diagnostics_json(sp, "utf-16")
    if sp.frozen is None and len(sp.row_anchor):
        offsets = hint_offsets(sp)
        n = len(sp.index.buf)
        for lo, hi in [(0, n), (n // 3, n // 2), (n // 2, n // 2 + 200), (0, 0), (n - 50, n)]:
            rows = np.flatnonzero((offsets >= lo) & (offsets <= hi))
            r, o = visible_rows(sp, lo, hi)
            assert r.tolist() == rows.tolist() and o.tolist() == offsets[rows].tolist()


def test_live_checks_count_what_findings_for_counts_on_every_real_file():
    for fmt_file in ("po/allauth-de-2023-10-07.po", "po/allauth-ru-2025-03-27.po", "xliff/algorea.fr.draft.xlf", "tmx/sample.tmx",
                     "xliff/angular.fr.xlf2.xlf"):
        text = (DATA / fmt_file).read_text(encoding="utf-8")
        from bleu_ls.formats.live.index import LiveIndex
        from bleu_ls.formats.read import EXTENSIONS

        fmt = EXTENSIONS[Path(fmt_file).suffix]
        index = LiveIndex(fmt, text, reader=lambda t: parse(fmt, b"", "buffer", text=t))
        live = LiveChecks(fmt, severities(Settings().diagnostics))
        live.full(index)
        got = Counter()
        for i in range(len(index)):
            base = index.target_span(i)[0]
            for f in live.at(i):
                got[(f.code, f.severity, f.message, (base + f.span[0], base + f.span[1]))] += 1
        assert got == _fresh(fmt, text, None), fmt_file


def test_subtitle_diagnostics_follow_their_rows(tmp_path):
    srt = "1\n00:00:01,000 --> 00:00:04,000\nA line of twenty-six chars\n\n2\n00:00:05,000 --> 00:00:08,000\nShort\n"
    path = tmp_path / "film.srt"

    def codes(configure) -> list[tuple[str, int, int]]:
        docs = _docs(tmp_path)
        configure(docs.manager.settings.diagnostics)
        docs.open(path.as_uri(), srt, 1)
        return sorted((d["code"], d["range"]["start"]["line"], d["severity"]) for d in map(json.loads, docs.diagnostics(path.as_uri())))

    assert codes(lambda d: None) == []
    narrow = codes(lambda d: setattr(d.chars_per_line, "max_chars", 20))
    assert narrow == [("chars-per-line", 2, 2)]
    assert codes(lambda d: (setattr(d.chars_per_line, "max_chars", 20), setattr(d.chars_per_line, "severity", "error"))) == [
        ("chars-per-line", 2, 1)]
    assert codes(lambda d: (setattr(d.chars_per_line, "max_chars", 20), setattr(d.chars_per_line, "enabled", False))) == []


def test_the_result_id_moves_only_when_the_diagnostics_do(tmp_path):
    text = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            '#, c-format\nmsgid "Hello %s"\nmsgstr "Bonjour"\n\nmsgid "World"\nmsgstr "Monde"\n')
    docs = _docs(tmp_path)
    uri = (tmp_path / "a.po").as_uri()
    docs.open(uri, text, 1)
    sp = docs.docs[uri]
    first = docs.result_id(uri)
    assert any(json.loads(d)["code"] == "placeholders-missing" for d in docs.diagnostics(uri))
    at = text.index("Monde") + len("Monde")
    docs._apply(sp, at, at, "s")  # another entry's text: the same diagnostics
    docs._changed(sp)
    assert docs.result_id(uri) == first
    at = text.index("Bonjour") + len("Bonjour")
    docs._apply(sp, at, at, " %s")  # the finding gone
    docs._changed(sp)
    assert docs.result_id(uri) != first
    assert not any(json.loads(d)["code"] == "placeholders-missing" for d in docs.diagnostics(uri))


def test_an_edit_before_a_target_on_its_line_moves_its_diagnostics(tmp_path):
    """Space typed between ``msgstr`` and its string, and before a PO string's second line: the target's
    text (and its findings) stay, its columns move; the diagnostics say the new columns (the kept JSON of
    a finding is made again), as a fresh count does."""
    text = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            '#, python-format\nmsgid "Hello %(name)s, welcome"\nmsgstr "Bonjour"\n\n'
            '#, python-format\nmsgid "Bye %(name)s"\nmsgstr ""\n"Au revoir"\n')
    path = tmp_path / "a.po"
    docs = _docs(tmp_path)
    docs.open(path.as_uri(), text, 1)
    sp = docs.docs[path.as_uri()]

    def placed() -> list[tuple[int, int, str]]:
        return [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"])
                for d in map(json.loads, diagnostics_json(sp, "utf-16")) if d["code"] == "placeholders-missing"]

    def targets(text: str) -> list[tuple[int, int, str]]:
        """Where each finding belongs: the first character of the entries' strings (in the text)."""
        lines = text.split("\n")
        return [(k, ln.index(word) + 1, "placeholders-missing") for k, ln in enumerate(lines)
                for word in ('"Bonjour"', '"Au revoir"') if word in ln]

    assert placed() == targets(text) and len(targets(text)) == 2
    original = text
    at = text.index('msgstr "Bonjour"') + len("msgstr")
    docs._apply(sp, at, at, "  ")
    text = text[:at] + "  " + text[at:]
    at = text.index('"Au revoir"')
    docs._apply(sp, at, at, "   ")
    text = text[:at] + "   " + text[at:]
    assert placed() == targets(text)
    assert [c for _l, c, _code in targets(text)] != [c for _l, c, _code in targets(original)]  # they moved
    for found in sp.qa:
        for f in found:
            f.cache = None
    assert placed() == targets(text)
