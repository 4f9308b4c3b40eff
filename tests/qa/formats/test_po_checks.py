"""QA checks on PO entries: each check on small handwritten catalogues, spans checked against the file text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib

from bleu_ls.formats.po import read_po
from bleu_ls.qa.formats.po_checks import (
    CODES, DEFAULT_SEVERITY, check_accelerators, check_document, check_newlines, check_placeholders,
    check_plurals, counts, inconsistent_in_context, problem_findings,
)
from bleu_ls.formats.po_plural import single_valued_forms

from ...cli.test_segments_po import run

DATA = Path(__file__).resolve().parents[2] / "data" / "formats" / "po"

HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

'''


def read(body: str, header: str = HEADER):
    text = header + body
    doc = read_po(text)
    doc.text = text
    assert doc.problems == []
    return doc


def one(body: str):
    doc = read(body)
    assert len(doc.segments) == 1
    return doc, doc.segments[0]


def at(doc, f) -> str:
    return doc.text[f.span[0] : f.span[1]]


def codes(findings):
    return [f.code for f in findings]


def test_every_code_has_a_default():
    assert set(CODES) == set(DEFAULT_SEVERITY)
    assert DEFAULT_SEVERITY["placeholders-missing"] == "error" and DEFAULT_SEVERITY["fuzzy"] == "information"


def test_printf_count_and_type():
    body = '#, c-format\nmsgid "%s files in %d folders"\nmsgstr "%s Dateien"\n'
    doc, s = one(body)
    f = check_placeholders(s)
    assert codes(f) == ["placeholders-missing"] and "%d" in f[0].message and f[0].severity == "error"
    assert at(doc, f[0]) == "%s Dateien"
    # the second %s takes the %d's argument as a string: %d missing, that %s extra (at the %s)
    doc, s = one('#, c-format\nmsgid "%s files in %d folders"\nmsgstr "%s Dateien in %s Ordnern"\n')
    f = check_placeholders(s)
    assert codes(f) == ["placeholders-missing", "placeholders-extra"]
    assert at(doc, f[1]) == "%s" and doc.text[f[1].span[0] - 3 : f[1].span[1]] == "in %s"
    # %s against %d: not the same argument type; %i is %d's
    doc, s = one('#, c-format\nmsgid "%d items"\nmsgstr "%s Elemente"\n')
    assert codes(check_placeholders(s)) == ["placeholders-missing", "placeholders-extra"]
    doc, s = one('#, c-format\nmsgid "%d items"\nmsgstr "%i Elemente"\n')
    assert check_placeholders(s) == []
    # %% is a literal percent sign, not a placeholder
    doc, s = one('#, c-format\nmsgid "100%% done"\nmsgstr "zu 100 %% fertig"\n')
    assert check_placeholders(s) == []
    # %ld is not %d
    doc, s = one('#, c-format\nmsgid "%ld bytes"\nmsgstr "%d Bytes"\n')
    assert codes(check_placeholders(s)) == ["placeholders-missing", "placeholders-extra"]


def test_printf_order_and_positions():
    # reordered unnumbered directives take the arguments in the wrong order
    doc, s = one('#, c-format\nmsgid "%s has %d files"\nmsgstr "%d Dateien hat %s"\n')
    f = check_placeholders(s)
    assert codes(f) == ["placeholders-order"] and "%1$s" in f[0].message
    assert at(doc, f[0]) == "%d Dateien hat %s"
    doc, s = one('#, python-format\nmsgid "%s has %d files"\nmsgstr "%d Dateien hat %s"\n')
    f = check_placeholders(s)
    assert codes(f) == ["placeholders-order"] and "%(name)s" in f[0].message
    # numbered ones may be reordered
    doc, s = one('#, c-format\nmsgid "%s has %d files"\nmsgstr "%2$d Dateien hat %1$s"\n')
    assert check_placeholders(s) == []
    # but not mixed with unnumbered ones
    doc, s = one('#, c-format\nmsgid "%s has %d files"\nmsgstr "%2$d Dateien hat %s"\n')
    assert codes(check_placeholders(s)) == ["placeholders-order"]
    # the same directive twice in the same order is no reordering
    doc, s = one('#, c-format\nmsgid "%s and %s"\nmsgstr "%s und %s"\n')
    assert check_placeholders(s) == []


def test_python_named_and_brace_placeholders():
    doc, s = one('#, python-format\nmsgid "%(a)s and %(b)s"\nmsgstr "%(b)s und %(a)s"\n')
    assert check_placeholders(s) == []
    doc, s = one('#, python-format\nmsgid "Sent to %(email)s"\nmsgstr "Gesendet an %(mail)s"\n')
    f = check_placeholders(s)
    assert codes(f) == ["placeholders-missing", "placeholders-extra"]
    assert "%(email)s" in f[0].message and at(doc, f[1]) == "%(mail)s"
    body = '#, python-brace-format\nmsgid "Hello {name}, you have {count} messages"\nmsgstr "Hallo {name}"\n'
    doc, s = one(body)
    f = check_placeholders(s)
    assert codes(f) == ["placeholders-missing"] and "{count}" in f[0].message and "{name}" not in f[0].message
    doc, s = one('#, python-brace-format\nmsgid "Hello {name}, {count}"\nmsgstr "Hallo {nom}, {count}"\n')
    f = check_placeholders(s)
    assert codes(f) == ["placeholders-missing", "placeholders-extra"] and at(doc, f[1]) == "{nom}"
    # a brace argument may repeat; a format spec does not change the argument
    doc, s = one('#, python-brace-format\nmsgid "{name}: {count:d}"\nmsgstr "{name} ({name}): {count}"\n')
    assert check_placeholders(s) == []
    # {{ }} are literal braces
    doc, s = one('#, python-brace-format\nmsgid "{{x}} {n}"\nmsgstr "{{y}} {n}"\n')
    assert check_placeholders(s) == []


def test_no_format_flag_no_check_and_empty_target_left_to_its_check():
    doc, s = one('#, no-c-format\nmsgid "100%s of it"\nmsgstr "alles"\n')
    assert check_placeholders(s) == []
    doc, s = one('msgid "%s of it"\nmsgstr "alles"\n')
    assert check_placeholders(s) == []
    doc, s = one('#, c-format\nmsgid "%s of it"\nmsgstr ""\n')
    assert check_placeholders(s) == []


RU = HEADER.replace(
    "nplurals=2; plural=(n != 1);",
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")


def test_plural_placeholders_against_msgid_plural_and_the_formula():
    body = ('#, c-format\nmsgid "One file"\nmsgid_plural "%d files"\n'
            'msgstr[0] "%d Datei"\nmsgstr[1] "Dateien"\n')
    doc = read(body)
    single = single_valued_forms(doc.header)
    assert single == frozenset({0})  # n != 1: form 0 is for n = 1 only
    f0, f1 = (check_placeholders(s, single_forms=single) for s in doc.segments)
    assert f0 == []  # form 0 may use msgid_plural's count
    assert codes(f1) == ["placeholders-missing"] and f1[0].severity == "error"
    assert at(doc, f1[0]) == "Dateien"
    # without the formula, a form that lacks a placeholder may be a one-number form: warning
    assert [f.severity for f in check_placeholders(doc.segments[1])] == ["warning"]
    # English form 0 may leave the count out; Russian form 0 (1, 21, 31…) may not
    body = '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "eine Datei"\nmsgstr[1] "%d Dateien"\n'
    doc = read(body)
    assert check_document(doc) == {}
    body_ru = ('#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\n'
               'msgstr[0] "один файл"\nmsgstr[1] "%d файла"\nmsgstr[2] "%d файлов"\n')
    doc = read(body_ru, RU)
    assert single_valued_forms(doc.header) == frozenset()
    assert {k: codes(v) for k, v in check_document(doc).items()} == {"%d file[0]": ["placeholders-missing"]}
    body = '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d Datei %s"\nmsgstr[1] "%d Dateien"\n'
    doc = read(body)
    f0 = check_placeholders(doc.segments[0], single_forms=frozenset({0}))
    assert codes(f0) == ["placeholders-extra"] and at(doc, f0[0]) == "%s"


def test_plural_formula_read_as_gettext_writes_it():
    forms = lambda pf: single_valued_forms({"Plural-Forms": pf})  # noqa: E731
    assert forms("nplurals=2; plural=(n != 1);") == frozenset({0})
    assert forms("nplurals=2; plural=n>1;") == frozenset()  # French: form 0 is 0 and 1
    assert forms("nplurals=1; plural=0;") == frozenset()
    arabic = ("nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
              "n%100>=11 ? 4 : 5);")
    assert forms(arabic) == frozenset({0, 1, 2})
    # not a formula: no answer (and no exception)
    assert forms("nplurals=2; plural=foo(n);") is None
    assert forms("nplurals=2; plural=n/0;") is None
    assert forms("nplurals=2; plural=(n != 1;") is None
    assert single_valued_forms({}) is None


def test_plural_count_against_the_header():
    body = ('msgid "file"\nmsgid_plural "files"\nmsgstr[0] "Datei"\nmsgstr[1] "Dateien"\nmsgstr[2] "Dateien!"\n\n'
            'msgid "day"\nmsgid_plural "days"\nmsgstr[0] "Tag"\n\n'
            'msgid "week"\nmsgid_plural "weeks"\nmsgstr[0] "Woche"\nmsgstr[1] "Wochen"\n')
    doc = read(body)
    got = check_plurals(doc)
    assert set(got) == {"file[2]", "day[0]"}
    (f,) = got["file[2]"]
    assert f.code == "plural-count" and f.severity == "error" and "nplurals=2" in f.message
    assert at(doc, f) == "Dateien!"
    (f,) = got["day[0]"]
    assert "msgstr[1]" in f.message and at(doc, f) == "Tag"
    # three forms where the header says three: nothing
    doc3 = read(body.replace("msgid \"day\"", "msgid \"dag\""), HEADER.replace("nplurals=2", "nplurals=3"))
    assert set(check_plurals(doc3)) == {"dag[0]", "week[1]"}


def test_plural_header_missing_or_template():
    body = 'msgid "file"\nmsgid_plural "files"\nmsgstr[0] "Datei"\nmsgstr[1] "Dateien"\n'
    no_pf = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    doc = read(body, no_pf)
    got = check_plurals(doc)
    (f,) = got["file[0]"]
    assert f.code == "plural-header" and f.severity == "warning"
    template = no_pf + '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"\n\n'
    doc = read(body, template.replace('\\n"\n\n"Plural', '\\n"\n"Plural'))
    assert check_plurals(doc) == {}
    # no plural entries: no header needed
    assert check_plurals(read('msgid "a"\nmsgstr "b"\n', no_pf)) == {}


def test_fuzzy_empty_same_whitespace_newlines():
    body = ('#, fuzzy\nmsgid "Open"\nmsgstr "Öffnen"\n\n'
            'msgid "Close"\nmsgstr ""\n\n'
            'msgid "Cancel"\nmsgstr "Cancel"\n\n'
            'msgid "Name:"\nmsgstr "Nom: "\n\n'
            'msgid "Hello\\n"\nmsgstr "Hallo"\n\n'
            'msgid "Line one\\n line two"\nmsgstr "Zeile eins\\n Zeile zwei"\n\n'
            'msgid "a b"\nmsgstr "a  b"\n\n'
            'msgid "42"\nmsgstr "42"\n')
    doc = read(body)
    got = check_document(doc)
    assert {k: codes(v) for k, v in got.items()} == {
        "Open": ["fuzzy"],
        "Close": ["target-empty"],
        "Cancel": ["target-same-as-source"],
        "Name:": ["whitespace-trailing"],
        # a line break is the newlines check's, not white space
        "Hello\n": ["newlines"],
        "a b": ["double-space"],
    }
    assert at(doc, got["Open"][0]) == "Öffnen" and got["Open"][0].severity == "information"
    assert got["Close"][0].severity == "information"
    assert at(doc, got["Name:"][0]) == " "
    assert at(doc, got["a b"][0]) == "  "
    assert "1 line break" not in got["Hello\n"][0].message and "has 0 line breaks" in got["Hello\n"][0].message
    assert counts(doc) == {"fuzzy": 1, "untranslated": 1}


def test_newlines_on_a_multi_line_msgstr_span_starts_at_the_text():
    body = 'msgid ""\n"one\\n"\n"two\\n"\nmsgstr ""\n"eins "\n"zwei\\n"\n'
    doc = read(body)
    (f,) = check_newlines(doc.segments[0])
    assert "1 line break" in f.message and "source has 2" in f.message
    assert at(doc, f) == 'eins "\n"zwei\\n'


def test_accelerators():
    doc, s = one('msgid "_File"\nmsgstr "Datei"\n')
    f = check_accelerators(s)
    assert codes(f) == ["accelerator"] and "(_)" in f[0].message and "none" in f[0].message
    assert check_accelerators(one('msgid "_File"\nmsgstr "_Datei"\n')[1]) == []
    assert check_accelerators(one('msgid "&Open"\nmsgstr "Ö&ffnen"\n')[1]) == []
    assert codes(check_accelerators(one('msgid "&Open"\nmsgstr "&Ö&ffnen"\n')[1])) == ["accelerator"]
    # an entity, a lone ampersand, snake_case are no accelerators
    assert check_accelerators(one('msgid "Tom &amp; Jerry"\nmsgstr "Tom und Jerry"\n')[1]) == []
    assert check_accelerators(one('msgid "Terms & Conditions"\nmsgstr "AGB"\n')[1]) == []
    assert check_accelerators(one('msgid "user_name"\nmsgstr "Benutzername"\n')[1]) == []


def test_inconsistent_translation_within_a_context():
    body = ('msgctxt "menu"\nmsgid "Open"\nmsgstr "Öffnen"\n\n'
            'msgctxt "button"\nmsgid "Open"\nmsgstr "Auf"\n\n'
            'msgctxt "menu"\nmsgid "Open "\nmsgstr "Aufmachen "\n\n'
            'msgid "file"\nmsgid_plural "files"\nmsgstr[0] "Datei"\nmsgstr[1] "Dateien"\n\n'
            'msgid "files"\nmsgstr "Akten"\n')
    doc = read(body)
    got = inconsistent_in_context(doc.segments)
    # "Open" in two contexts is meant to differ; "Open" and "Open " in one context are not
    assert sorted(got) == ["menu\x04Open", "menu\x04Open "]
    assert "menu\x04Open " in got["menu\x04Open"][0].message
    # the forms of one plural entry differ by design, and form 1 is not a singular entry
    assert "files" not in got and "file[1]" not in got


def test_malformed_entry_is_a_po_syntax_finding():
    text = HEADER + 'msgid "a"\nmsgstr "b\n\nmsgid "c"\nmsgstr "d"\n'
    doc = read_po(text)
    doc.text = text
    (f,) = problem_findings(doc)
    assert f.code == "po-syntax" and f.severity == "error" and "closing quote" in f.message
    # from the problem to the end of its line
    assert text[: f.span[0]].count("\n") == HEADER.count("\n") + 1
    assert doc.segments[-1].target == "d"


def _msgstr_lines(path: Path) -> set[int]:
    """1-based lines that belong to a msgstr (its keyword line and its continuation strings)."""
    out, inside = set(), False
    for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith("msgstr"):
            inside = True
        elif not line.startswith('"'):
            inside = False
        if inside:
            out.add(i)
    return out


def test_check_on_a_real_catalogue_pair(tmp_path):
    hyp, ref = tmp_path / "ru.hyp.po", tmp_path / "ru.ref.po"
    shutil.copy(DATA / "allauth-ru-2025-03-27.po", hyp)
    shutil.copy(DATA / "allauth-ru-2025-04-29.po", ref)
    res = run("check", hyp, "--format", "json")
    assert res.returncode in (0, 1), res.stderr
    (pair,) = json.loads(res.stdout)["pairs"]
    diags = pair["diagnostics"]
    ours = [d for d in diags if d["code"] in CODES]
    inside = _msgstr_lines(hyp)
    assert ours and all(d["line"] in inside for d in ours)
    lines = hyp.read_text(encoding="utf-8").split("\n")
    # the Russian draft wrote %(email_link)s for the source's %(recipient)s: said at that placeholder
    extra = [d for d in diags if d["code"] == "placeholders-extra"]
    assert any("%(email_link)s" in d["message"] for d in extra)
    for d in extra:
        name = d["message"].split("has ", 1)[1].split(",", 1)[0]
        assert lines[d["line"] - 1][d["column"] - 1 :].startswith(name)
    # said once: the rule table's generic markup-mismatch gives way to the format's own check
    assert not any(d["code"] == "markup-mismatch" and "%(recipient)s" in d["message"] for d in diags)
    # fuzzy entries: counted as polib counts them (plural forms one each)
    po = polib.pofile(str(hyp))
    fuzzy = sum(len(e.msgstr_plural) or 1 for e in po.fuzzy_entries())
    assert pair["segments"]["fuzzy"] == fuzzy == sum(1 for d in diags if d["code"] == "fuzzy")
    untranslated = sum(sum(1 for v in e.msgstr_plural.values() if not v) if e.msgstr_plural else 1
                       for e in po.untranslated_entries())
    assert pair["segments"]["untranslated"] == untranslated == sum(1 for d in diags if d["code"] == "target-empty")
    assert isinstance(pair["segments"]["empty"], list)  # the pairing's own list, untouched
    # nplurals=4 in the header, four forms per plural entry: no plural-count
    assert not any(d["code"] == "plural-count" for d in diags)


def test_check_shows_a_malformed_hypothesis_as_po_syntax(tmp_path):
    text = (DATA / "phonenumber-fr-2025.po").read_text(encoding="utf-8")
    hyp, ref = tmp_path / "fr.hyp.po", tmp_path / "fr.ref.po"
    ref.write_text(text, encoding="utf-8")
    i = text.index('msgstr "', text.index("msgid \"\"") + 10)
    i = text.index('msgstr "', i + 10)  # the first entry's msgstr after the header
    end = text.index("\n", i)
    broken = text[:end - 1] + text[end:]  # its closing quote removed
    hyp.write_text(broken, encoding="utf-8")
    res = run("check", hyp, "--format", "json")
    assert res.returncode == 1, res.stderr
    (pair,) = json.loads(res.stdout)["pairs"]
    syntax = [d for d in pair["diagnostics"] if d["code"] == "po-syntax"]
    assert len(syntax) == 1 and syntax[0]["severity"] == "error"
    assert syntax[0]["line"] == text[:i].count("\n") + 1
    # the reference is still refused when malformed: one sentence, exit 2
    ref.write_text(broken, encoding="utf-8")
    hyp.write_text(text, encoding="utf-8")
    res = run("check", hyp)
    assert res.returncode == 2 and "closing quote" in res.stderr and "Traceback" not in res.stderr


# (flag, msgid, msgstr): gettext's `msgfmt --check-format` is the oracle for the placeholder verdict
MSGFMT_CASES = [
    ("c-format", "%s files in %d folders", "%s Dateien"),
    ("c-format", "%s files in %d folders", "%s Dateien in %s Ordnern"),
    ("c-format", "%d items", "%s Elemente"),
    ("c-format", "%d items", "%i Elemente"),
    ("c-format", "100%% done", "zu 100 %% fertig"),
    ("c-format", "%ld bytes", "%d Bytes"),
    ("c-format", "%s has %d files", "%d Dateien hat %s"),
    ("c-format", "%s has %d files", "%2$d Dateien hat %1$s"),
    ("c-format", "%s has %d files", "%2$d Dateien hat %s"),
    ("c-format", "%s and %s", "%s und %s"),
    ("c-format", "%u of %x", "%x von %u"),
    ("c-format", "%s", "%s %s"),
    ("c-format", "%.2f MB", "%f MB"),
    ("c-format", "%5d items", "%d Elemente"),
    ("c-format", "%s", "%S"),
    ("c-format", "%c", "%s"),
    ("c-format", "%1$s %2$s", "%2$s %1$s %1$s"),
    ("c-format", "%s %s", "%1$s"),
    ("c-format", "%s %s", "%2$s"),
    ("c-format", "%lu", "%llu"),
    ("c-format", "%zu", "%u"),
    ("c-format", "%s", "text only"),
    ("c-format", "text only", "%s"),
    ("python-format", "%(a)s and %(b)s", "%(b)s und %(a)s"),
    ("python-format", "Sent to %(email)s", "Gesendet an %(mail)s"),
    ("python-format", "Sent to %(email)s", "Gesendet"),
    ("python-format", "%(n)d items", "%(n)s Elemente"),
    ("python-format", "%s has %d files", "%d Dateien hat %s"),
    ("python-format", "%(a)s", "%(a)s %(a)s"),
    ("python-format", "%(a)s %(b)s", "%(a)s"),
    ("python-format", "%d%%", "%d %%"),
    ("python-brace-format", "Hello {name}, you have {count} messages", "Hallo {name}"),
    ("python-brace-format", "Hello {name}, {count}", "Hallo {nom}, {count}"),
    ("python-brace-format", "{{x}} {n}", "{{y}} {n}"),
    ("python-brace-format", "abc{}{}{}def", "xyz{2}{1}{0}"),
    ("python-brace-format", "{baz} {bar} {foo} {bar}", "{foo} {bar} {baz}"),
    ("python-brace-format", "{0} and {1}", "{1} und {0}"),
    ("python-brace-format", "{} and {}", "{} und {}"),
    ("python-brace-format", "{a}", "{b}"),
    ("python-brace-format", "{a.b}", "{a}"),
    ("qt-format", "%1 of %2", "%2 von %1"),
    ("qt-format", "%1 of %2", "%1 von"),
    ("qt-format", "%1", "%L1"),
    ("qt-format", "%1 %2", "%1 %1"),
    ("php-format", "%s of %d", "%2$d von %1$s"),
]


def test_placeholder_verdicts_agree_with_msgfmt(tmp_path):
    import shutil as _sh
    import subprocess

    import pytest

    msgfmt = _sh.which("msgfmt")
    if msgfmt is None:
        pytest.skip("gettext's msgfmt is not installed")
    disagree = []
    for flag, msgid, msgstr in MSGFMT_CASES:
        body = f'#, {flag}\nmsgid "{msgid}"\nmsgstr "{msgstr}"\n'
        path = tmp_path / "one.po"
        path.write_text(body, encoding="utf-8")
        bad = subprocess.run([msgfmt, "--check-format", "-o", "/dev/null", str(path)], capture_output=True).returncode != 0
        _, s = one(body)
        ours = any(f.severity == "error" for f in check_placeholders(s))
        if bad != ours:
            disagree.append((flag, msgid, msgstr, "msgfmt error" if bad else "msgfmt ok"))
    assert disagree == []
    assert sum(1 for c in MSGFMT_CASES) > 40


# (header, entry): msgfmt -c on plural entries, the formula deciding which forms may drop placeholders
MSGFMT_PLURAL_CASES = [
    (HEADER, 'msgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] "%d Datei"\nmsgstr[1] "%d Dateien"\n'),
    (HEADER, 'msgid "One file"\nmsgid_plural "%d files"\nmsgstr[0] "Eine Datei"\nmsgstr[1] "Dateien"\n'),
    (HEADER, 'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "Eine Datei"\nmsgstr[1] "%d Dateien"\n'),
    (HEADER, 'msgid "%d file in %s"\nmsgid_plural "%d files in %s"\nmsgstr[0] "Eine Datei"\nmsgstr[1] "%d Dateien in %s"\n'),
    (HEADER, 'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d Datei %s"\nmsgstr[1] "%d Dateien"\n'),
    (RU, 'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "один файл"\nmsgstr[1] "%d файла"\nmsgstr[2] "%d файлов"\n'),
    (RU, 'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d файл"\nmsgstr[1] "%d файла"\nmsgstr[2] "%d файлов"\n'),
]


def test_plural_placeholder_verdicts_agree_with_msgfmt(tmp_path):
    import shutil as _sh
    import subprocess

    import pytest

    msgfmt = _sh.which("msgfmt")
    if msgfmt is None:
        pytest.skip("gettext's msgfmt is not installed")
    verdicts = []
    for header, entry in MSGFMT_PLURAL_CASES:
        body = "#, c-format\n" + entry
        path = tmp_path / "p.po"
        path.write_text(header + body, encoding="utf-8")
        # -c: the format check together with the header's (which reads the plural formula)
        bad = subprocess.run([msgfmt, "-c", "-o", "/dev/null", str(path)], capture_output=True).returncode != 0
        doc = read(body, header)
        ours = any(f.severity == "error" for fs in check_document(doc).values() for f in fs)
        verdicts.append((bad, ours))
    assert all(bad == ours for bad, ours in verdicts), verdicts
    assert {bad for bad, _ in verdicts} == {True, False}


def test_placeholder_errors_on_real_catalogues_are_msgfmts():
    """On the real catalogues, the entries with a placeholder error are those msgfmt -c --use-fuzzy names
    (fuzzy entries included: the reviewer who removes the flag ships the fault)."""
    import re
    import shutil as _sh
    import subprocess

    import pytest

    from bleu_ls.formats.read import read_document

    msgfmt = _sh.which("msgfmt")
    if msgfmt is None:
        pytest.skip("gettext's msgfmt is not installed")
    total = 0
    for path in sorted(DATA.glob("*.po")):
        res = subprocess.run([msgfmt, "-c", "--use-fuzzy", "-o", "/dev/null", str(path)], capture_output=True, text=True)
        theirs = {int(m.group(1)) for m in re.finditer(r"\.po:(\d+): (?!warning)", res.stderr)}
        doc = read_document(str(path))
        by_key = {s.key: s for s in doc.segments}
        ours = {by_key[k].line + 1 for k, fs in check_document(doc).items()
                for f in fs if f.code.startswith("placeholders-") and f.severity == "error"}
        assert ours == theirs, path.name
        total += len(ours)
    assert total == 4


def test_a_copied_source_is_said_once_even_on_a_multi_line_msgstr(tmp_path):
    hyp, ref = tmp_path / "u.hyp.po", tmp_path / "u.ref.po"
    hyp.write_text('msgid ""\n"Open the file in a new window"\nmsgstr ""\n"Open the file in a new window"\n\n'
                   'msgid "Close"\nmsgstr "Schließen"\n', encoding="utf-8")
    ref.write_text('msgid "Open the file in a new window"\nmsgstr "Datei in einem neuen Fenster öffnen"\n\n'
                   'msgid "Close"\nmsgstr "Schließen"\n', encoding="utf-8")
    res = run("check", hyp, "--format", "json")
    assert res.returncode in (0, 1), res.stderr
    (pair,) = json.loads(res.stdout)["pairs"]
    said = [d["code"] for d in pair["diagnostics"] if d["code"] in ("untranslated", "target-same-as-source")]
    # the rule table's word, placed on the string's line (4), the format check's would be on `msgstr ""` (3)
    assert said == ["untranslated"]
