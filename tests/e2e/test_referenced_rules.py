"""A segment file opened with its reference, in the real server: the rule table runs on it as
``bleu-ls check FILE`` runs it (the rows ``check`` scores, their findings placed at the
targets), beside the format checks, and follows edits.

* A catalogue paired with the next revision of itself and a glossary in ``bleu-ls.toml``: the
  forbidden term typed into a paired entry is flagged where ``check`` of the edited text flags
  it, the quick fix writes the preferred term and the flag goes.
* Real pairs of ``tests/data/formats`` (two revisions of a PO catalogue, an XLIFF draft and its
  final version, an MT draft and its post-edit): the editor's (line, code) set equals ``check``'s
  JSON once the adequacy values have arrived, before and after an edit.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

import pytest
from lsprotocol import types

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session, apply_edits as apply

FORMATS = Path(__file__).resolve().parents[1] / "data" / "formats"
PO_HYP, PO_REF = FORMATS / "po" / "allauth-de-2023-10-07.po", FORMATS / "po" / "allauth-de-2023-11-03.po"
GLOSSARY = "en,de,status\npassword,Passwort,\npassword,Kennwort,forbidden\n"

#: (hypothesis, reference) pairs of real files
PAIRS = [
    ("po/allauth-de-2023-10-07.po", "po/allauth-de-2023-11-03.po"),
    ("xliff/algorea.fr.draft.xlf", "xliff/algorea.fr.final.xlf"),
    ("xliff/modernflyouts.ko.mt.xlf", "xliff/modernflyouts.ko.postedit.xlf"),
]


def checked(path: Path, config: Path | None = None) -> tuple[set, dict]:
    """(0-based line, code) of ``check PATH`` (its reference beside it), and the pair's JSON."""
    out, err = io.StringIO(), io.StringIO()
    how = ["--config", str(config)] if config is not None else ["--no-config"]
    rc = check_main([str(path), "--format", "json", *how], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    assert pair["paired"] is True and pair["references"], pair
    return {(d["line"] - 1, d["code"]) for d in pair["diagnostics"]}, pair


async def settled(s, uri: str, want: set, timeout: float = 120.0) -> tuple[set, list]:
    """The diagnostics once their (line, code) set equals ``want``, or the last ones."""
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        diags = list(diags or [])
        got = {(d.range.start.line, d.code) for d in diags}
        if got == want or time.monotonic() > deadline:
            return got, diags
        await asyncio.sleep(0.3)



async def test_a_forbidden_term_in_a_paired_catalogue_is_flagged_and_fixed(tmp_path):
    (tmp_path / "glossary.csv").write_text(GLOSSARY, encoding="utf-8")
    config = tmp_path / "bleu-ls.toml"
    config.write_text('[terms]\nfiles = ["glossary.csv"]\n', encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        text = PO_HYP.read_text(encoding="utf-8")
        s.write("django.ref.po", PO_REF.read_text(encoding="utf-8"))
        path = s.write("django.hyp.po", text)
        lines = text.split("\n")
        k = lines.index('msgstr "Passwort"')  # msgid "Password", paired in the reference
        uri = s.open("django.hyp.po", text)
        want, pair = checked(path, config)
        assert not any(code == "term-forbidden" for _l, code in want)
        assert any(code in ("outlier", "adequacy") for _l, code in want)  # (rows that read the reference)
        got, _ = await settled(s, uri, want)
        assert got == want, (sorted(want - got), sorted(got - want))
        # the translator types the forbidden word
        s.change(uri, [{"range": ((k, 8), (k, 16)), "text": "Kennwort"}])
        edited = text.replace('msgstr "Passwort"\n', 'msgstr "Kennwort"\n', 1)
        path = s.write("django.hyp.po", edited)
        want, pair = checked(path, config)
        [forbidden] = [d for d in pair["diagnostics"] if d["code"] == "term-forbidden"]
        assert (forbidden["line"] - 1, forbidden["column"] - 1) == (k, 8)
        got, diags = await settled(s, uri, want, timeout=60)
        assert got == want, (sorted(want - got), sorted(got - want))
        [d] = [d for d in diags if d.code == "term-forbidden"]
        assert (d.range.start.line, d.range.start.character, d.range.end.character) == (k, 8, 16)
        assert d.message == forbidden["message"]
        # its quick fix writes the preferred term back
        actions = await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
            context=types.CodeActionContext(diagnostics=[d], only=[types.CodeActionKind.QuickFix])))
        [fix] = [a for a in actions or [] if isinstance(a, types.CodeAction) and "Passwort" in a.title]
        [doc_edit] = fix.edit.document_changes
        fixed = apply(edited, doc_edit.edits)
        assert fixed == text
        s.change(uri, [{"range": ((e.range.start.line, e.range.start.character),
                                  (e.range.end.line, e.range.end.character)), "text": e.new_text}
                       for e in doc_edit.edits])
        path = s.write("django.hyp.po", fixed)
        want, _ = checked(path, config)
        got, _ = await settled(s, uri, want, timeout=60)
        assert got == want and not any(code == "term-forbidden" for _l, code in got)
    finally:
        await _close(s)


@pytest.mark.parametrize("hyp,ref", PAIRS, ids=[Path(h).name for h, _ in PAIRS])
async def test_a_real_pair_lists_what_check_lists_before_and_after_an_edit(hyp, ref, tmp_path):
    suffix = Path(hyp).suffix
    s = await _session("vscode", tmp_path)
    try:
        text = (FORMATS / hyp).read_text(encoding="utf-8-sig")
        s.write(f"f.ref{suffix}", (FORMATS / ref).read_text(encoding="utf-8-sig"))
        path = s.write(f"f.hyp{suffix}", text)
        uri = s.open(f"f.hyp{suffix}", text)
        want, _ = checked(path)
        rule_codes = {code for _l, code in want} - {"target-empty", "fuzzy", "inconsistent-source",
                                                    "inconsistent-translation", "target-same-as-source", "newlines",
                                                    "placeholders-missing", "placeholders-extra",
                                                    "whitespace-leading", "whitespace-trailing"}
        assert rule_codes, "the pair has rule-table findings to compare"
        got, diags = await settled(s, uri, want)
        assert got == want, (sorted(want - got)[:8], sorted(got - want)[:8])
        # an edit: the first paired target with a letter gets a doubled word in front
        lines = text.split("\n")
        first = next(d for d in diags if d.code in rule_codes)
        at = first.range.start
        word = "Datei"
        s.change(uri, [{"range": ((at.line, at.character), (at.line, at.character)), "text": f"{word} {word} "}])
        lines[at.line] = lines[at.line][: at.character] + f"{word} {word} " + lines[at.line][at.character :]
        path = s.write(f"f.hyp{suffix}", "\n".join(lines))
        want2, _ = checked(path)
        assert want2 != want and (at.line, "doubled-word") in want2
        got, _ = await settled(s, uri, want2, timeout=60)
        assert got == want2, (sorted(want2 - got)[:8], sorted(got - want2)[:8])
    finally:
        await _close(s)


async def test_a_large_pair_is_analysed_in_a_worker_thread_first_and_lists_what_check_lists(tmp_path):
    """3,000 entries (over the server's THREAD_LINES): the first pass runs off the event loop on a
    copy of the rows, its scores installed after; the list is then ``check``'s, and an edit after
    it is followed as in a small file."""
    n = 3000
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n'

    def po(entries) -> str:
        return "\n".join([head, *(f'msgid "{src}"\nmsgstr "{tgt}"\n' for src, tgt in entries)])

    ref = [(f"Open file {i} now and save it", f"Datei {i} jetzt öffnen und speichern") for i in range(n)]
    hyp = [(src, tgt.replace("jetzt", "sofort") if i % 7 else tgt.replace(str(i), str(i + 1))) for i, (src, tgt) in enumerate(ref)]
    s = await _session("vscode", tmp_path)
    try:
        s.write("big.ref.po", po(ref))
        text = po(hyp)
        path = s.write("big.hyp.po", text)
        uri = s.open("big.hyp.po", text)
        want, _ = checked(path)
        assert sum(1 for _l, code in want if code == "number-mismatch") == len(range(0, n, 7))
        got, _ = await settled(s, uri, want)
        assert got == want, (sorted(want - got)[:8], sorted(got - want)[:8])
        lines = text.split("\n")
        k = lines.index('msgstr "Datei 1 sofort öffnen und speichern"')
        s.change(uri, [{"range": ((k, 8), (k, 8)), "text": "Datei "}])
        lines[k] = 'msgstr "Datei Datei 1 sofort öffnen und speichern"'
        path = s.write("big.hyp.po", "\n".join(lines))
        want2, _ = checked(path)
        assert (k, "doubled-word") in want2 - want
        got, _ = await settled(s, uri, want2, timeout=60)
        assert got == want2, (sorted(want2 - got)[:8], sorted(got - want2)[:8])
    finally:
        await _close(s)
