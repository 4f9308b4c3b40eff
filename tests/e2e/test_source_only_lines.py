"""A line file with its source and no reference, in the real server: it is analysed as
``bleu-ls check FILE`` analyses it (every rule of the table that does not read a reference:
numbers, markup, end punctuation, untranslated, terminology, doubled words, the user's rules,
adequacy against the source), beside its ``unpaired`` line, and follows each edited line.

The lines are real: the translated one-line entries of a German catalogue of django-allauth
(``tests/data/formats/po/allauth-de-2023-10-07.po``, its licence in SOURCES.md there), its
``msgid`` as the source file and its ``msgstr`` as the hypothesis, read with the plain PO reader
``polib``."""

from __future__ import annotations

import asyncio
import io
import json
import re
import time
from pathlib import Path

import polib
import pytest

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session

PO = Path(__file__).resolve().parents[1] / "data" / "formats" / "po" / "allauth-de-2023-10-07.po"
GLOSSARY = "en,de,status\npassword,Passwort,\npassword,Kennwort,forbidden\n"
CONFIG = """[terms]
files = ["glossary.csv"]

[[rules]]
code = "sie-lowercase"
message = "The polite form is written Sie."
target = '\\bsie\\b'
case_sensitive = true
"""


def _entries() -> list[tuple[str, str]]:
    """(msgid, msgstr) of the translated, not fuzzy, one-line, singular entries (read by polib)."""
    cat = polib.pofile(str(PO))
    return [(e.msgid, e.msgstr) for e in cat.translated_entries() if not e.msgid_plural and "\n" not in e.msgid + e.msgstr]


def checked(path: Path, config: Path) -> set:
    """(0-based line, code) of ``check PATH`` with the workspace's settings (its source beside it, no reference)."""
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(config)], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    assert pair["paired"] is False and pair["source"], pair
    return {(d["line"] - 1, d["code"]) for d in pair["diagnostics"]}


async def settled(s, uri: str, want: set, timeout: float = 120.0) -> set:
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        got = {(d.range.start.line, d.code) for d in diags or []}
        if got == want or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.3)


def _workspace(root: Path, languages: bool) -> tuple[list[str], list[str], str, str, Path]:
    """The source and target lines written beside each other (``account.hyp.txt`` with
    ``account.src.txt``, or ``account.hyp.de`` with ``account.src.en``), the names of the
    hypothesis and source files, and the config file."""
    entries = _entries()
    assert len(entries) > 50
    source = [s for s, _t in entries]
    target = [t for _s, t in entries]
    (root / "glossary.csv").write_text(GLOSSARY, encoding="utf-8")
    config = root / "bleu-ls.toml"
    config.write_text(CONFIG, encoding="utf-8")
    hyp, src = ("account.hyp.de", "account.src.en") if languages else ("account.hyp.txt", "account.src.txt")
    (root / src).write_text("\n".join(source) + "\n", encoding="utf-8")
    return source, target, hyp, src, config


@pytest.mark.parametrize("kind,languages", [("vscode", False), ("push", False), ("vscode", True)],
                         ids=["txt-pull", "txt-push", "languages-pull"])
async def test_a_line_file_with_its_source_lists_what_check_lists_and_follows_edits(kind, languages, tmp_path):
    source, target, hyp, _src, config = _workspace(tmp_path, languages)
    s = await _session(kind, tmp_path)
    try:
        text = "\n".join(target) + "\n"
        path = s.write(hyp, text)
        uri = s.open(hyp, text)
        want = checked(path, config)
        codes = {c for _l, c in want}
        assert codes - {"unpaired"}, "the lines have findings besides unpaired"
        got = await settled(s, uri, want)
        assert got == want, (sorted(want - got)[:8], sorted(got - want)[:8])

        # typed edits: a forbidden term, a doubled word and a changed number make findings; undone, they go
        k = next(i for i, t in enumerate(target) if re.search(r"\bPasswort\b", t) and (i, "term-forbidden") not in want)
        j = next(i for i, t in enumerate(target) if i != k and t.endswith(".") and not any(line == i for line, _c in want))
        line_k, line_j = target[k], target[j]
        at = line_k.index("Passwort")
        s.change(uri, [{"range": ((k, at), (k, at + len("Passwort"))), "text": "Kennwort"},
                       {"range": ((j, 0), (j, 0)), "text": "Konto Konto 7 "}])
        lines = list(target)
        lines[k] = line_k[:at] + "Kennwort" + line_k[at + len("Passwort"):]
        lines[j] = "Konto Konto 7 " + line_j
        path = s.write(hyp, "\n".join(lines) + "\n")
        want2 = checked(path, config)
        assert {(k, "term-forbidden"), (j, "doubled-word"), (j, "number-mismatch")} <= want2 - want
        got = await settled(s, uri, want2, timeout=60)
        assert got == want2, (sorted(want2 - got)[:8], sorted(got - want2)[:8])

        s.change(uri, [{"range": ((k, at), (k, at + len("Kennwort"))), "text": "Passwort"},
                       {"range": ((j, 0), (j, len("Konto Konto 7 "))), "text": ""}])
        path = s.write(hyp, text)
        assert checked(path, config) == want
        got = await settled(s, uri, want, timeout=60)
        assert got == want, (sorted(want - got)[:8], sorted(got - want)[:8])
    finally:
        await _close(s)


async def test_the_source_edited_in_the_editor_is_what_the_lines_are_checked_against(tmp_path):
    """The source open in the editor too: a number typed into a source line flags its target line
    (the open buffer counts, not the file on disk)."""
    source, target, hyp, src, config = _workspace(tmp_path, False)
    s = await _session("vscode", tmp_path)
    try:
        text = "\n".join(target) + "\n"
        path = s.write(hyp, text)
        uri = s.open(hyp, text)
        want = checked(path, config)
        assert await settled(s, uri, want) == want
        src_uri = s.open(src, "\n".join(source) + "\n")
        j = next(i for i, t in enumerate(target) if not any(line == i for line, _c in want) and not re.search(r"\d", t))
        s.change(src_uri, [{"range": ((j, 0), (j, 0)), "text": "42 "}])
        edited = list(source)
        edited[j] = "42 " + source[j]
        (tmp_path / src).write_text("\n".join(edited) + "\n", encoding="utf-8")
        want2 = checked(path, config)
        assert (j, "number-mismatch") in want2 - want
        got = await settled(s, uri, want2, timeout=60)
        assert got == want2, (sorted(want2 - got)[:8], sorted(got - want2)[:8])
    finally:
        await _close(s)
