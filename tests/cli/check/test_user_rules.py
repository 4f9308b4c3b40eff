"""`bleu-ls check` with the user's own rules ([[rules]] in bleu-ls.toml) on a real PO catalogue:
the findings are those a plain polib + ``re`` reading of the catalogue gives; a catastrophic
pattern finishes in seconds with one sentence; a pattern that does not compile is one settings
sentence naming the rule."""

from __future__ import annotations

import io
import json
import re
import shutil
import time
from collections import Counter
from pathlib import Path

import polib

from bleu_ls.cli.check import main

PO = Path(__file__).resolve().parents[2] / "data" / "formats" / "po"

TOML = r'''
[[rules]]
code = "de-quotes"
message = "German uses „…“, not \"…\"."
target = '(?<!=)"[^"<>]*"'

[[rules]]
code = "email"
source = '\be-?mail\b'

[[rules]]
code = "placeholder-name"
source = '%\((\w+)\)s'
target = '%\((\w+)\)s'
severity = "error"

[[rules]]
code = "only-ru"
target = 'a'
files = ["*-ru-*.po"]
'''

#: the same rules for the oracle: (code, source, target); flags re.IGNORECASE (the default)
ORACLE = [("de-quotes", None, r'(?<!=)"[^"<>]*"'), ("email", r"\be-?mail\b", None),
          ("placeholder-name", r"%\((\w+)\)s", r"%\((\w+)\)s")]


def check(path: Path, codes: tuple = (0, 1)) -> dict:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(path), "--format", "json"], out=out, err=err)
    assert code in codes, err.getvalue()
    return {"json": json.loads(out.getvalue()) if out.getvalue() else None, "err": err.getvalue()}


def unescape(po_text: str) -> str:
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), po_text)


def oracle(path: Path) -> Counter:
    """(msgid, form, code, the target text flagged or None for the whole target) with polib and re."""
    out: Counter = Counter()
    for e in polib.pofile(str(path)):
        if e.obsolete or not e.msgid:
            continue
        if e.msgid_plural:
            forms = [(k, e.msgid if k == 0 else e.msgid_plural, t) for k, t in sorted(e.msgstr_plural.items())]
        else:
            forms = [(0, e.msgid, e.msgstr)]
        for k, src, tgt in forms:
            if not tgt:
                continue
            for code, sp, tp in ORACLE:
                if sp is None:
                    for m in re.finditer(tp, tgt, re.I):
                        out[(e.msgid, k, f"rule:{code}", m.group())] += 1
                    continue
                s = re.search(sp, src, re.I)
                if s is None:
                    continue
                t = re.search(tp or sp, tgt, re.I)
                if t is None:
                    out[(e.msgid, k, f"rule:{code}", None)] += 1
                elif tp and any(s.group(g).casefold() != t.group(g).casefold()
                                for g in range(1, min(re.compile(sp).groups, re.compile(tp).groups) + 1)):
                    out[(e.msgid, k, f"rule:{code}", t.group())] += 1
    return out


def got_of(path: Path, diags: list) -> Counter:
    """The same keys from check's diagnostics: the entry and plural form of each file line, the
    flagged text read from the file (a whole-target finding: None)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    entries = sorted((e.linenum, e) for e in polib.pofile(str(path)) if not e.obsolete)
    out: Counter = Counter()
    for d in diags:
        if not d["code"].startswith("rule:"):
            continue
        line = d["line"]
        entry = [e for n, e in entries if n <= line][-1]
        form = 0
        for back in range(line - 1, -1, -1):
            m = re.match(r"msgstr(?:\[(\d+)\])?", lines[back])
            if m:
                form = int(m.group(1) or 0)
                break
        text = lines[line - 1]
        flagged = None if d["endColumn"] is None else unescape(text[d["column"] - 1 : d["endColumn"] - 1])
        out[(entry.msgid, form, d["code"], flagged)] += 1
    return out


def test_check_on_a_real_po_gives_the_findings_polib_and_re_give(tmp_path):
    path = tmp_path / "allauth-de-2023-11-03.po"
    shutil.copy(PO / path.name, path)
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    result = check(path)
    [pair] = result["json"]["pairs"]
    got = got_of(path, pair["diagnostics"])
    want = oracle(path)
    assert sum(want.values()) >= 10  # quotes and e-mails the German catalogue has
    assert got == want
    assert {d["severity"] for d in pair["diagnostics"] if d["code"] == "rule:placeholder-name"} <= {"error"}
    assert not any(d["code"] == "rule:only-ru" for d in pair["diagnostics"])  # files: the Russian ones only


def test_files_globs_choose_the_documents(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    ru = tmp_path / "allauth-ru-2025-04-29.po"
    shutil.copy(PO / ru.name, ru)
    [pair] = check(ru)["json"]["pairs"]
    n = sum(1 for d in pair["diagnostics"] if d["code"] == "rule:only-ru")
    # the Latin a of every target that has one (Cyrillic а is another letter)
    want = sum(len(re.findall("a", t, re.I)) if len(re.findall("a", t, re.I)) <= 20 else 20
               for e in polib.pofile(str(ru)) if not e.obsolete and e.msgid
               for t in ([e.msgstr] if not e.msgid_plural else [v for _k, v in sorted(e.msgstr_plural.items())]) if t)
    assert n == want > 0


CATASTROPHIC = r'''
[[rules]]
code = "slow"
target = '(a|aa)+$'

[[rules]]
code = "nested"
target = '(a+)+$'
'''


def test_a_catastrophic_pattern_ends_in_seconds_with_one_sentence(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(CATASTROPHIC, encoding="utf-8")
    path = tmp_path / "hostile.po"
    bad = "a" * 40 + "b"
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                    + "".join(f'msgid "s{i}"\nmsgstr "{bad}"\n\n' for i in range(30))
                    + 'msgid "end"\nmsgstr "aaaa"\n', encoding="utf-8")
    t = time.perf_counter()
    [pair] = check(path)["json"]["pairs"]
    assert time.perf_counter() - t < 10  # (std re on the first line alone: hours)
    slow = [d for d in pair["diagnostics"] if d["code"] == "rule:slow"]
    assert [d["message"] for d in slow] == [
        "rule:slow: the pattern took longer than 20 ms on segment 1; the rule is off until its settings change"]
    lines = path.read_text(encoding="utf-8").split("\n")
    assert slow[0]["line"] == lines.index(f'msgstr "{bad}"') + 1  # the first entry's msgstr in the file
    # (a+)+$: the regex package matches it in linear time; it flags the last target only
    assert [d["line"] for d in pair["diagnostics"] if d["code"] == "rule:nested"] == [lines.index('msgstr "aaaa"') + 1]


def test_a_pattern_that_does_not_compile_is_one_settings_sentence(tmp_path):
    """As every setting with a bad value, check stops with the sentence (exit 2); the server
    says it and goes on without the rule (tests/e2e/test_user_rules.py)."""
    (tmp_path / "bleu-ls.toml").write_text('[[rules]]\ncode = "broken"\ntarget = "[a-"\n', encoding="utf-8")
    path = tmp_path / "x.po"
    shutil.copy(PO / "phonenumber-fr-2025.po", path)
    result = check(path, codes=(2,))
    assert result["err"].splitlines() == [
        "bleu-ls check: error: rules[0] (rule:broken): the target pattern '[a-' does not compile: "
        "unterminated character set at position 4; the rule is off"]
