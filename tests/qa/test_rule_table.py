"""The rule table (bleu_ls/qa/rules.py) is the only list of codes: every code a reader, a
check or a rule can emit is one of its rows, the lists of codes are derived from it, and each
row with a setting has its row in the settings, with the defaults it had."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest

import bleu_ls
from bleu_ls.config.diagnostics import CheckSettings, DiagnosticsSettings, SubtitleLimits
from bleu_ls.config.settings import Settings
from bleu_ls.formats.finding import Finding
from bleu_ls.formats.read import parse, read_document
from bleu_ls.qa import analysis, rules
from bleu_ls.qa.formats import po_checks, subtitle_checks, xml_checks
from bleu_ls.qa.formats.format_checks import findings_for

PACKAGE = Path(bleu_ls.__file__).resolve().parent
DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
TABLE = {r.code: r for r in rules.TABLE}

#: The default severities of the checks of a file's own format before they moved into the
#: settings (they were the check modules' own tables): kept as they were.
FORMAT_DEFAULTS = {
    "codes-missing": "error", "codes-extra": "warning", "codes-order": "information", "codes-malformed": "error",
    "length-limit": "warning",
    "state-undefined": "warning", "target-empty": "information", "target-same-as-source": "warning",
    "whitespace-leading": "warning", "whitespace-trailing": "warning", "double-space": "information",
    "inconsistent-translation": "warning", "newlines": "warning", "inconsistent-source": "information",
    "po-syntax": "error", "placeholders-missing": "error", "placeholders-extra": "error",
    "placeholders-order": "error", "plural-count": "error", "plural-header": "warning", "fuzzy": "information",
    "accelerator": "warning", "icu-syntax": "error", "icu-arguments": "error", "plural-categories": "warning",
    "timecode": "error", "end-before-start": "error", "cue-order": "warning", "cue-overlap": "warning",
    "reading-speed": "warning", "chars-per-line": "warning", "lines-per-cue": "warning",
    "duration-short": "information", "duration-long": "information", "cue-gap": "information",
    "key-missing": "warning", "key-extra": "warning",
}


# -- the lists derived from the table --------------------------------------------------------
def test_one_row_per_code():
    codes = [r.code for r in rules.TABLE]
    assert len(codes) == len(set(codes))


def test_codes_are_the_tables_line_file_codes_with_a_setting():
    assert rules.CODES == tuple(r.code for r in rules.TABLE if rules.LINE_RULES in r.by and r.setting is not None)
    assert analysis.CODES is rules.CODES
    assert rules.ORDER == {c: i for i, c in enumerate(rules.CODES)}
    assert rules.SETTING_OF == {c: c.replace("-", "_") for c in rules.CODES}
    # as the line files had them, in the order a line's findings are listed
    assert rules.CODES == (
        "low-score", "outlier", "empty-hypothesis", "untranslated", "length-ratio", "repetition", "doubled-word",
        "line-count-mismatch", "unpaired", "number-mismatch", "markup-mismatch", "unbalanced", "end-punctuation",
        "wrong-language", "misaligned", "adequacy", "term-missing", "term-forbidden", "do-not-translate", "spelling",
        "rule", "length-limit",
    )
    # a user rule's findings (rule:<name>) are listed in its row's place
    assert rules.ORDER["rule:any-name"] == rules.ORDER["rule"] and rules.row("rule:x") is TABLE["rule"]


def test_the_analysers_rules_are_the_rows_with_a_check():
    assert rules.RULES == tuple(r for r in rules.TABLE if r.check is not None)
    assert all(rules.LINE_RULES in r.by for r in rules.RULES)
    assert set(rules.RANKED) == {"outlier", "adequacy"}
    assert rules.LINE_PAIR_CODES == {"low-score", "outlier", "untranslated", "length-ratio", "adequacy",
                                     "number-mismatch", "markup-mismatch", "unbalanced", "end-punctuation",
                                     "term-missing", "do-not-translate", "length-limit"}
    assert set(rules.REFERENCE_CODES) == {"empty-hypothesis", "low-score", "outlier", "length-ratio",
                                          "line-count-mismatch", "misaligned"}


def test_format_codes_and_the_check_modules_defaults_come_from_the_table():
    assert set(rules.FORMAT_CODES) == set(FORMAT_DEFAULTS)
    assert list(xml_checks.CODES) == [r.code for r in rules.TABLE if rules.XML in r.by]
    assert set(po_checks.CODES) == {r.code for r in rules.TABLE if rules.PO in r.by}
    assert list(subtitle_checks.CODES) == [r.code for r in rules.TABLE if rules.SUBTITLES in r.by]
    assert [r.code for r in rules.TABLE if rules.KEYED in r.by] == [
        "target-empty", "target-same-as-source", "inconsistent-translation", "inconsistent-source",
        "icu-syntax", "plural-categories", "placeholders-missing", "placeholders-extra", "key-missing", "key-extra"]
    for defaults in (xml_checks.DEFAULT_SEVERITY, po_checks.DEFAULT_SEVERITY, subtitle_checks.CODES):
        assert defaults == {c: FORMAT_DEFAULTS[c] for c in defaults}
    assert rules.IGNORABLE == (*rules.CODES, *rules.FORMAT_CODES, "worse-than-other")


def test_every_row_with_a_setting_has_its_settings_row_and_every_settings_row_is_a_row():
    d = DiagnosticsSettings()
    attributes = {f.name for f in dataclasses.fields(d) if isinstance(getattr(d, f.name), CheckSettings)}
    assert {r.attribute for r in rules.TABLE if r.attribute} == attributes
    for code, severity in FORMAT_DEFAULTS.items():
        row = getattr(d, TABLE[code].attribute)
        assert (row.enabled, row.severity) == (True, severity)
    assert SubtitleLimits() is not None and subtitle_checks.SubtitleLimits is SubtitleLimits


def test_config_imports_nothing_of_qa():
    for path in (PACKAGE / "config").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                where = ["bleu_ls", "config"][: max(0, 2 - node.level + 1)] if node.level else []
                absolute = ".".join([*where, node.module or ""])
                assert not absolute.startswith("bleu_ls.qa"), (path, absolute)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("bleu_ls.qa") for a in node.names), path


# -- every code a check can emit is a row ------------------------------------------------------
def _literal_codes() -> set[tuple[str, str]]:
    """(module, code) of every code given to a finding in the package's source: the first
    argument of ``Finding(…)`` / ``finding(…)`` (a text check's) / ``add(…)`` (a cue's), the
    ``code`` of ``problem(…)`` (a reader's), where it is a string or a module's constant."""
    out = set()
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = None
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if fn in ("Finding", "finding", "add") and node.args:
                arg = node.args[0]
            elif fn == "problem":
                arg = node.args[4] if len(node.args) > 4 else next((k.value for k in node.keywords if k.arg == "code"), None)
                if arg is None:
                    out.add((name, "malformed"))
                    continue
            else:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.add((name, arg.value))
            elif (isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant)
                  and str(arg.values[0].value).startswith(rules.USER_RULE + ":")):
                out.add((name, rules.USER_RULE))  # f"rule:{name}": a user rule's, the row "rule"
            elif isinstance(arg, ast.Name) and arg.id.isupper():
                module = module or importlib.import_module(name)
                value = getattr(module, arg.id, None)
                if isinstance(value, str):
                    out.add((name, value))
    return out


def test_every_code_in_the_source_is_a_row_and_every_row_is_said_somewhere():
    found = _literal_codes()
    unknown = {(m, c) for m, c in found if c not in TABLE}
    assert not unknown
    assert {c for _, c in found} == set(TABLE)  # and no row is left that nothing says


def _all_on() -> Settings:
    s = Settings()
    for r in rules.TABLE:
        if r.attribute:
            getattr(s.diagnostics, r.attribute).enabled = True
    return s


@pytest.mark.parametrize("path", sorted(p for p in DATA.rglob("*") if p.suffix in (".po", ".xlf", ".tmx", ".vtt", ".srt")),
                         ids=lambda p: p.name)
def test_every_code_the_format_checks_emit_on_real_files_is_a_row_of_their_format(path):
    doc = read_document(str(path))
    text = doc.text if doc.text is not None else path.read_text(encoding="utf-8")
    family = {".po": rules.PO, ".vtt": rules.SUBTITLES, ".srt": rules.SUBTITLES}.get(path.suffix, rules.XML)
    got = findings_for(doc, _all_on(), text=text)
    assert all(isinstance(f, Finding) for f in got)
    for f in got:
        assert family in TABLE[f.code].by, f.code


@pytest.mark.parametrize("fmt, text", [
    ("po", 'msgid "a"\nmsgstr "b"\nmsgid\n'),
    ("xliff1", '<xliff version="1.2"><file><body><trans-unit id="1"><source>a</source><target>b</target></trans-unit>'),
    ("tmx", "<tmx><body><tu><tuv xml:lang='en'><seg>a</tuv></body></tmx>"),
    ("srt", "1\n00:00:01,000 --> nonsense\nHello\n"),
    ("vtt", "NOT A VTT\n\n00:01.000 --> 00:02.000\nHello\n"),
])
def test_a_readers_problems_carry_a_row_the_reader_reports(fmt, text):
    doc = parse(fmt, b"", f"x.{fmt}", text=text)
    assert doc.problems
    for p in doc.problems:
        assert isinstance(p, Finding) and p.severity == "error" and p.span == (p.offset, p.offset)
        assert rules.READER in TABLE[p.code].by
