"""The checks of a file's own format as rows of the rule table: `diagnostics.<code>` switches
each off, sets its severity, and (subtitles) its limit, in `bleu-ls check` through bleu-ls.toml."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest

from bleu_ls.cli.check import main
from bleu_ls.config.diagnostics import FORMAT_LIMITS
from bleu_ls.qa.rules import FORMAT_CODES
import bleu_ls.qa.formats.keyed_checks as keyed_checks
import bleu_ls.qa.formats.po_checks as po_checks
import bleu_ls.qa.formats.subtitle_checks as subtitle_checks
import bleu_ls.qa.formats.xml_checks as xml_checks
from bleu_ls.qa.formats.format_checks import SETTING_OF, findings_for
from bleu_ls.formats.subtitles import read_srt
from bleu_ls.config.settings import Settings

DOCS = Path(__file__).resolve().parents[3] / "docs"

# (start s, end s, text): 6 cps; 29 characters in 1 s = 29 cps; a 59-character line in 3 s = 19.67 cps
CUES = [(1, 3, "Hello there."), (4, 5, "We're almost done, my friend."),
        (6, 9, "This line is much longer than forty-two characters, surely.")]
REF = ["Hallo.", "Wir sind fast fertig, mein Freund.", "Diese Zeile ist lang."]


def _srt(texts) -> str:
    return "\n".join(f"{i}\n00:00:0{a},000 --> 00:00:0{b},000\n{t}\n" for i, ((a, b, _), t) in enumerate(zip(CUES, texts), 1))


@pytest.fixture
def ws(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "film.hyp.srt").write_text(_srt([t for _, _, t in CUES]), encoding="utf-8")
    (tmp_path / "film.ref.srt").write_text(_srt(REF), encoding="utf-8")
    return tmp_path


def check(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def found(out: str, codes=FORMAT_CODES) -> list[tuple[int, str, str]]:
    """(line, severity, code) of the format findings printed."""
    rows = []
    for m in re.finditer(r"^\S+:(\d+):\d+: (\w+): .* \[([a-z-]+)\]$", out, re.M):
        if m.group(3) in codes:
            rows.append((int(m.group(1)), m.group(2), m.group(3)))
    return rows


def _cps_over(limit: float) -> list[int]:
    """The file lines (the cue's text line: 3, 7, 11) of the cues over ``limit`` cps, counted here."""
    return [4 * i + 3 for i, (a, b, t) in enumerate(CUES) if len(t) / (b - a) > limit]


def test_defaults_flag_what_the_style_guide_says(ws):
    rc, out, err = check("film.hyp.srt")
    assert rc in (0, 1), err
    assert found(out) == [(7, "warning", "reading-speed"), (11, "warning", "chars-per-line")]
    assert [ln for ln, _, c in found(out) if c == "reading-speed"] == _cps_over(20)


def test_a_row_changes_the_limit_and_the_severity_and_switches_a_code_off(ws):
    (ws / "bleu-ls.toml").write_text(
        '[diagnostics.reading-speed]\nmaxCps = 15\nseverity = "error"\n'
        "[diagnostics.chars-per-line]\nenabled = false\n"
        "[diagnostics.duration-short]\nminMs = 1500\n",
        encoding="utf-8",
    )
    rc, out, err = check("film.hyp.srt")
    assert rc == 1 and err == "", err
    got = found(out)
    assert [ln for ln, _, c in got if c == "reading-speed"] == _cps_over(15) == [7, 11]
    assert {s for _, s, c in got if c == "reading-speed"} == {"error"}
    assert not [1 for _, _, c in got if c == "chars-per-line"]
    assert [(ln, s) for ln, s, c in got if c == "duration-short"] == [(7, "information")]  # the 1 s cue


def test_camel_case_keys_and_a_higher_limit(ws):
    (ws / "bleu-ls.toml").write_text("[diagnostics.readingSpeed]\nmaxCps = 30\n[diagnostics.charsPerLine]\nmaxChars = 60\n",
                                     encoding="utf-8")
    rc, out, err = check("film.hyp.srt")
    assert err == "" and found(out) == []


def test_diagnostics_off_turns_the_format_checks_off(ws):
    (ws / "bleu-ls.toml").write_text("[diagnostics]\nenabled = false\n", encoding="utf-8")
    rc, out, _ = check("film.hyp.srt")
    assert rc == 0 and found(out) == []


@pytest.mark.parametrize("toml,needle", [
    ("[diagnostics.reading-speed]\nmaxCps = -3\n", "diagnostics.readingSpeed.maxCps must be 1 or more, not -3"),
    ("[diagnostics.lines-per-cue]\nmaxLines = 0\n", "diagnostics.linesPerCue.maxLines must be 1 or more, not 0"),
    ('[diagnostics.fuzzy]\nseverity = "loud"\n', "diagnostics.fuzzy.severity must be one of error, warning, information, hint, not 'loud'"),
])
def test_a_bad_value_is_one_sentence(ws, toml, needle):
    (ws / "bleu-ls.toml").write_text(toml, encoding="utf-8")
    rc, out, err = check("film.hyp.srt")
    assert rc == 2 and err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_a_value_of_the_wrong_type_is_a_warning_and_the_default_kept(ws):
    (ws / "bleu-ls.toml").write_text('[diagnostics.reading-speed]\nmaxCps = "fast"\n', encoding="utf-8")
    rc, out, err = check("film.hyp.srt")
    assert "diagnostics.readingSpeed.maxCps must be a number; kept 20.0" in err
    assert [ln for ln, _, c in found(out) if c == "reading-speed"] == _cps_over(20)


def test_validate_keeps_the_default_of_a_bad_value():
    s = Settings.from_dict({"diagnostics": {"cueGap": {"minMs": -1, "severity": "loud"}, "durationLong": {"maxMs": 0}}})
    problems = s.validate()
    assert len(problems) == 3
    assert (s.diagnostics.cue_gap.min_ms, s.diagnostics.cue_gap.severity, s.diagnostics.duration_long.max_ms) == (83, "information", 7000)
    assert s.validate() == []


def test_rows_default_to_the_check_modules_and_the_style_guide():
    d = Settings().diagnostics
    assert set(FORMAT_CODES) == {*xml_checks.CODES, *po_checks.CODES, *subtitle_checks.CODES, *keyed_checks.CODES}
    for module_defaults in (xml_checks.DEFAULT_SEVERITY, po_checks.DEFAULT_SEVERITY, subtitle_checks.CODES,
                            keyed_checks.DEFAULT_SEVERITY):
        for code, severity in module_defaults.items():
            row = getattr(d, SETTING_OF[code])
            assert row.enabled and row.severity == severity, code
    # Netflix Timed Text Style Guide (docs/formats.md)
    limits = {code: getattr(getattr(d, SETTING_OF[code]), attr) for code, (attr, _) in FORMAT_LIMITS.items()}
    assert limits == {"reading-speed": 20, "chars-per-line": 42, "lines-per-cue": 2, "duration-short": 833,
                      "duration-long": 7000, "cue-gap": 83}
    assert subtitle_checks.SubtitleLimits() == subtitle_checks.SubtitleLimits(
        d.chars_per_line.max_chars, d.lines_per_cue.max_lines, d.reading_speed.max_cps,
        d.duration_short.min_ms, d.duration_long.max_ms, d.cue_gap.min_ms)


def test_findings_for_po_severity_and_off():
    from bleu_ls.formats.po import read_po

    text = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            '#, fuzzy\nmsgid "Open file"\nmsgstr "Datei öffnen"\n\n'
            'msgid "Close"\nmsgstr ""\n')
    doc = read_po(text)
    s = Settings()
    assert sorted((f.code, f.severity) for f in findings_for(doc, s)) == [("fuzzy", "information"), ("target-empty", "information")]
    s = Settings.from_dict({"diagnostics": {"fuzzy": {"severity": "warning"}, "target-empty": {"enabled": False}}})
    assert [(f.code, f.severity) for f in findings_for(doc, s)] == [("fuzzy", "warning")]


def test_findings_for_subtitles_without_the_cli():
    text = _srt([t for _, _, t in CUES])
    doc = read_srt(text)
    s = Settings()
    s.diagnostics = dataclasses.replace(s.diagnostics, cue_gap=dataclasses.replace(s.diagnostics.cue_gap, min_ms=1001))
    assert [f.code for f in findings_for(doc, s, text=text)].count("cue-gap") == 2  # 1000 ms between each pair


def test_docs_list_every_row():
    table = (DOCS / "diagnostics.md").read_text(encoding="utf-8")
    for code in FORMAT_CODES:
        assert f"`{code}`" in table, code
    formats = (DOCS / "formats.md").read_text(encoding="utf-8")
    assert "diagnostics.reading-speed" in formats


def test_a_format_code_turned_off_in_the_ignore_file(ws):
    (ws / ".bleu-ls").mkdir()
    (ws / ".bleu-ls" / "ignore.json").write_text('{"version": 1, "off": ["reading-speed"]}', encoding="utf-8")
    rc, out, err = check("film.hyp.srt")
    assert err == "" and found(out) == [(11, "warning", "chars-per-line")]


PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def test_po_rows_in_check(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.hyp.po").write_text(
        PO_HEAD + '#, fuzzy\nmsgid "Open the file"\nmsgstr "Die Datei öffnen"\n\n'
        '#, c-format\nmsgid "%d files"\nmsgstr "Dateien"\n', encoding="utf-8")
    (tmp_path / "app.ref.po").write_text(
        PO_HEAD + 'msgid "Open the file"\nmsgstr "Datei öffnen"\n\n'
        '#, c-format\nmsgid "%d files"\nmsgstr "%d Dateien"\n', encoding="utf-8")
    _, out, err = check("app.hyp.po")
    assert err == "" and found(out) == [(7, "information", "fuzzy"), (11, "error", "placeholders-missing")]  # the msgstr lines
    (tmp_path / "bleu-ls.toml").write_text(
        '[diagnostics.fuzzy]\nseverity = "warning"\n[diagnostics.placeholders_missing]\nenabled = false\n', encoding="utf-8")
    _, out, err = check("app.hyp.po")
    assert err == "" and found(out) == [(7, "warning", "fuzzy")]
