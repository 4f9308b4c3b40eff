"""A lost placeholder of a key-value localization file is said once, by the format's own
check (``placeholders-missing`` / ``-extra``, which knows the format's syntax), not a second time by
the rule table's generic ``markup-mismatch`` — in ``bleu-ls check`` and in the editor alike, as in PO.
A lost item the format's syntax does not know (``%s`` in an i18next file) is still the generic
check's to say.

The expected placeholders are counted from the source and target texts by a plain regular
expression per format, not by the checks under test."""

from __future__ import annotations

import asyncio
import io
import json
import re
import time
from pathlib import Path

import pytest
import yaml

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session

#: (source file, its text, target file, its text, the format's placeholders, the generic-only items)
CASES = {
    "json": (
        "locales/en/translation.json",
        '{\n  "greet": "Hello {{name}}, you have {{count}} files",\n  "bye": "Bye %s",\n  "ok": "OK {{n}}"\n}\n',
        "locales/de/translation.json",
        '{\n  "greet": "Hallo, du hast {{count}} Dateien",\n  "bye": "Tschüss",\n  "ok": "OK {{n}} {{m}}"\n}\n',
        r"\{\{[^{}]*\}\}",
    ),
    "android": (
        "res/values/strings.xml",
        '<resources>\n  <string name="a">Hello %1$s, %2$d files</string>\n  <string name="b">Saved</string>\n</resources>\n',
        "res/values-de/strings.xml",
        '<resources>\n  <string name="a">Hallo, %2$d Dateien</string>\n  <string name="b">Gespeichert %1$s</string>\n</resources>\n',
        r"%\d\$[sd]",
    ),
    "yaml": (
        "config/locales/en.yml",
        "en:\n  greet: \"Hello %{name}, you have %{count} files\"\n  bye: \"Bye\"\n",
        "config/locales/de.yml",
        "de:\n  greet: \"Hallo, du hast %{count} Dateien\"\n  bye: \"Tschüss %{user}\"\n",
        r"%\{\w+\}",
    ),
    "properties": (
        "messages.properties",
        "greet=Hello {0}, you have {1} files\nbye=Bye\n",
        "messages_de.properties",
        "greet=Hallo, du hast {1} Dateien\nbye=Tschüss {2}\n",
        r"\{\d\}",
    ),
}


def _expected(src: str, tgt: str, pattern: str) -> dict[str, tuple[set, set]]:
    """key -> (lost, added) placeholders, by the pattern, from the two files' values."""
    def values(text: str) -> dict[str, str]:
        if text.lstrip().startswith("{"):
            return json.loads(text)
        if text.startswith(("en:", "de:")):
            [values] = yaml.safe_load(text).values()
            return values
        if text.lstrip().startswith("<"):
            return dict(re.findall(r'<string name="([^"]+)">([^<]*)</string>', text))
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

    s, t = values(src), values(tgt)
    return {k: (set(re.findall(pattern, s[k])) - set(re.findall(pattern, t[k])),
                set(re.findall(pattern, t[k])) - set(re.findall(pattern, s[k]))) for k in s}


def _write(root: Path, case: str) -> Path:
    src_name, src, tgt_name, tgt, _ = CASES[case]
    for name, text in ((src_name, src), (tgt_name, tgt)):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root / tgt_name


def _by_code(diags) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for code, message in diags:
        out.setdefault(code, []).append(message)
    return out


def _assert_once(case: str, got: dict[str, list[str]]) -> None:
    _src_name, src, _tgt_name, tgt, pattern = CASES[case]
    expected = _expected(src, tgt, pattern)
    lost = {p for lo, _ad in expected.values() for p in lo}
    added = {p for _lo, ad in expected.values() for p in ad}
    assert lost and added  # each case loses one and adds one
    said = " ".join(got.get("placeholders-missing", []) + got.get("placeholders-extra", []))
    assert all(p in said for p in lost | added), got
    generic = " ".join(got.get("markup-mismatch", []))
    assert not any(p in generic or p.lstrip("%") in generic for p in lost | added), got  # not said twice
    if case == "json":  # "%s" is no i18next placeholder: the generic check says it
        assert "%s" in generic


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_says_a_lost_placeholder_once(tmp_path, case):
    path = _write(tmp_path, case)
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--no-config"], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    _assert_once(case, _by_code((d["code"], d["message"]) for d in pair["diagnostics"]))


@pytest.mark.parametrize("case", sorted(CASES))
async def test_the_editor_says_a_lost_placeholder_once(tmp_path, case):
    s = await _session("vscode", tmp_path)
    try:
        src_name, src, tgt_name, tgt, _ = CASES[case]
        s.write(src_name, src)
        s.write(tgt_name, tgt)
        uri = s.open(tgt_name, tgt)
        deadline = time.monotonic() + 60
        while True:
            diags, _, _ = await s.diagnostics(uri)
            got = _by_code((d.code, d.message) for d in diags or [])
            if ("placeholders-missing" in got and "placeholders-extra" in got) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.3)
        _assert_once(case, got)
    finally:
        await _close(s)


@pytest.mark.parametrize("case", sorted(CASES))
async def test_the_lost_placeholder_has_its_quick_fix(tmp_path, case):
    """The one finding left keeps the generic check's quick fix: the placeholder inserted as the
    source writes it; after it, that finding is gone and no other finding changed (``check`` of the
    fixed file agreeing with the editor)."""
    from .test_quick_fixes import Buffer

    (tmp_path / "bleu-ls.toml").write_text("", encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        src_name, src, tgt_name, tgt, pattern = CASES[case]
        s.write(src_name, src)
        buf = Buffer(s, tmp_path, tgt_name, tgt)
        before = await buf._agree(tgt)
        [(line, _col, _code)] = [x for x in before if x[2] == "placeholders-missing"]
        [lost] = [p for lo, _ad in _expected(src, tgt, pattern).values() for p in lo]
        fixed, before, after = await buf.fix("placeholders-missing", line, f"Insert {lost} as in the source")
        assert fixed.count(lost) == tgt.count(lost) + 1
        assert {x[2] for x in before - after} == {"placeholders-missing"} and not after - before
    finally:
        await _close(s)
