"""The effort of a whole segment file against its drafts, through the real server
(UTF-16 and UTF-8 clients), numbers checked against sacrebleu on the texts polib
extracts:

* a real PO catalogue whose fuzzy entries are their drafts as first seen, three of
  them post-edited in place to what the next release of the catalogue says: the
  corpus HTER of ``bleuLs/corpusScore`` equals sacrebleu's corpus
  ``TER(case_sensitive=True)`` of (drafts, [targets]) over the entries with both,
  the paired test equals sacrebleu's ``PairedTest`` of the rows as drafted against
  the rows as they are, and the lens says both;
* ``bleuLs.setDraft`` / ``bleuLs.forgetDraft`` on an XLIFF file without MT drafts:
  after Set Draft and an edit of one target, that segment's HTER (hint, hover,
  corpus) equals sacrebleu's TER of the snapshot against the edited target, the
  snapshot is kept outside the workspace and survives a restart; after Forget no
  HTER shows;
* the same catalogue without a reference: the HTER hint of each edited entry, the
  corpus HTER alone."""

from __future__ import annotations

import os
import re
from pathlib import Path

import polib
import pytest
import sacrebleu
from lsprotocol import types
from sacrebleu.metrics import BLEU, TER
from sacrebleu.significance import PairedTest

from .conftest import _close, _session, eventually, units

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
PO_HYP = DATA / "po" / "allauth-de-2023-10-07.po"
PO_REF = DATA / "po" / "allauth-de-2023-11-03.po"
XLF = DATA / "xliff" / "algorea.fr.final.xlf"
#: fuzzy msgstr (the MT draft) -> what the translator made of it (the next release's msgstr)
POST_EDITS = {
    "Aktuelles Passwort": "Aktuelles Passwort.",
    "Anbieter": "Anbieter-ID",
    "Geheimes Token": "Authentifizierungsgeheimnis",
}


def _entries(text: str) -> list[polib.POEntry]:
    return [e for e in polib.pofile(text) if not e.obsolete]


def _rows(text: str) -> list[tuple[str, str]]:
    """(target, reference target) of each entry paired by msgctxt + msgid, in file order."""
    ref = {(e.msgctxt, e.msgid): e for e in _entries(PO_REF.read_text(encoding="utf-8"))}
    out = []
    for e in _entries(text):
        r = ref.get((e.msgctxt, e.msgid))
        if r is None:
            continue
        if e.msgid_plural:
            out.extend((e.msgstr_plural[k], r.msgstr_plural.get(k, "")) for k in sorted(e.msgstr_plural))
        else:
            out.append((e.msgstr, r.msgstr))
    return out


def _fuzzy_entry(lines: list[str], k: int) -> bool:
    """Line ``k`` is in an entry flagged fuzzy (its comments, up to the blank line before it)."""
    while k > 0 and lines[k - 1].strip():
        k -= 1
        if lines[k].startswith("#,") and "fuzzy" in lines[k]:
            return True
    return False


def _post_edit(s, uri: str, text: str) -> str:
    """Each msgstr of POST_EDITS replaced in place (one edit each); the text after them."""
    lines = text.split("\n")
    for old, new in POST_EDITS.items():
        (i,) = [k for k, x in enumerate(lines) if x == f'msgstr "{old}"' and _fuzzy_entry(lines, k)]
        a = len('msgstr "')
        s.change(uri, [{"range": ((i, a), (i, a + units(old, s.encoding))), "text": new}])
        lines[i] = f'msgstr "{new}"'
    return "\n".join(lines)


async def _lens(s, uri: str) -> str:
    lenses = await s.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return lenses[0].command.title if lenses else ""


async def test_corpus_hter_and_the_paired_test_of_a_post_edited_catalogue(session):
    s = session
    s.write("auth.ref.po", PO_REF.read_text(encoding="utf-8"))
    text = PO_HYP.read_text(encoding="utf-8")
    uri = s.open("auth.hyp.po", text)
    fuzzy = {(e.msgctxt, e.msgid): e.msgstr for e in _entries(text) if e.fuzzy and e.msgstr}

    rec = await eventually(lambda: s.corpus(uri), timeout=10)
    assert rec["effort"]["score"] == 0.0 and rec["effort"]["segments"] == len(fuzzy)
    assert rec["effort"]["segmentsEdited"] == 0 and "paired" not in rec["tests"].get("bleu", {})
    assert "HTER" not in await _lens(s, uri)  # beside the scores, the effort shows once a target is edited

    edited = _post_edit(s, uri, text)
    drafts, targets = [], []
    for e in _entries(edited):
        if (e.msgctxt, e.msgid) in fuzzy and e.msgstr:
            drafts.append(fuzzy[(e.msgctxt, e.msgid)])
            targets.append(e.msgstr)
    assert sum(d != t for d, t in zip(drafts, targets)) == len(POST_EDITS)
    want = TER(case_sensitive=True).corpus_score(drafts, [targets])
    rows_now, rows_drafted = _rows(edited), _rows(text)
    hyp, ref = [h for h, _ in rows_now], [r for _, r in rows_now]
    bleu_now = BLEU().corpus_score(hyp, [ref]).score

    async def tested():
        rec = await s.corpus(uri)
        p = rec and rec["tests"].get("bleu", {}).get("paired")
        return rec if p and rec["effort"]["segmentsEdited"] == len(POST_EDITS) else None

    rec = await eventually(tested, timeout=20)
    assert rec, "no paired test of the edited text"
    assert rec["bleu"] == bleu_now  # the rows below are the server's
    eff = rec["effort"]
    assert (eff["score"], eff["num_edits"], eff["ref_length"]) == (want.score, want.num_edits, want.ref_length)
    assert eff["segments"] == len(drafts) and eff["signature"].startswith("HTER nrefs:1|case:mixed|tok:tercom")

    _, res = PairedTest([("draft", [h for h, _ in rows_drafted]), ("post-edit", hyp)], {"m": BLEU()}, [ref],
                        test_type="bs", n_samples=1000)()
    base, system = next(v for k, v in res.items() if k != "System")
    got = rec["tests"]["bleu"]["paired"]
    assert (got["baseline"]["score"], got["baseline"]["mean"], got["baseline"]["ci"]) == (base.score, base.mean, base.ci)
    assert (got["system"]["score"], got["system"]["mean"], got["system"]["ci"], got["system"]["p_value"]) == (
        system.score, system.mean, system.ci, system.p_value)
    conf = BLEU().corpus_score(hyp, [ref], n_bootstrap=1000)
    assert (rec["tests"]["bleu"]["confidence"]["mean"], rec["tests"]["bleu"]["confidence"]["ci"]) == (conf._mean, conf._ci)

    title = await _lens(s, uri)
    delta = system.score - base.score
    assert f"BLEU {system.score:.2f} (Δ {delta:+.2f} vs draft, p = {system.p_value:.4f})" in title
    assert f"HTER {want.score:.1f} · 3 segments edited" in title


async def _hints_at(s, uri: str, line: int) -> list[str]:
    return [h.label for h in await s.hints(uri) if h.position.line == line]


async def _hover(s, uri: str, line: int) -> str:
    h = await s.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=2))
    )
    return h.contents.value if h is not None else ""


def _workspace_files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.asyncio
async def test_set_draft_then_forget_draft_in_an_xliff_file(session, tmp_path):
    s = session
    final = XLF.read_text(encoding="utf-8")
    s.write("algorea.ref.xlf", final)
    s.write("algorea.hyp.xlf", final)
    uri = s.open("algorea.hyp.xlf", final)
    snapshot = "Entrez un titre afin de créer un nouveau contenu"
    line = next(i for i, x in enumerate(final.split("\n")) if snapshot in x)
    await eventually(lambda: _hints_at(s, uri, line), timeout=5)
    assert (await s.corpus(uri))["effort"] is None  # no MT draft in the file
    before = _workspace_files(s.root)

    msg = await s.command("bleuLs.setDraft", uri)
    assert msg.startswith("draft set to the current targets (")
    rec = await eventually(lambda: s.corpus(uri), timeout=5)
    assert rec["effort"]["score"] == 0.0 and rec["effort"]["segmentsEdited"] == 0 and rec["draft"]["set"]
    assert _workspace_files(s.root) == before  # the snapshot is kept in the cache folder
    cache = Path(os.environ["XDG_CACHE_HOME"])
    assert any(snapshot in p.read_text(encoding="utf-8", errors="replace") for p in cache.rglob("*.draft"))

    content = final.split("\n")[line]
    at = content.index("nouveau contenu")
    a, b = units(content[:at], s.encoding), units(content[: at + len("nouveau contenu")], s.encoding)
    s.change(uri, [{"range": ((line, a), (line, b)), "text": "nouvel élément"}])
    target = "Entrez un titre afin de créer un nouvel élément"
    ter = TER(case_sensitive=True).sentence_score(snapshot, [target])
    bleu = sacrebleu.sentence_bleu(target, [snapshot]).score  # the reference is the snapshot's text

    async def hter_hint():
        got = [x for x in await _hints_at(s, uri, line) if "HTER" in x]
        return got or None

    (label,) = await eventually(hter_hint, timeout=5)
    assert label == f"BLEU {bleu:.1f} · HTER {ter.score:.1f}"
    assert f"**HTER {ter.score:.2f}** vs draft" in await _hover(s, uri, line)

    async def edited():
        rec = await s.corpus(uri)
        return rec if rec and rec["effort"] and rec["effort"]["segmentsEdited"] == 1 else None

    eff = (await eventually(edited, timeout=5))["effort"]
    assert eff["num_edits"] == ter.num_edits  # the one edited segment's edits
    assert re.search(r"HTER [0-9.]+ · 1 segment edited", await _lens(s, uri))

    assert (await s.command("bleuLs.forgetDraft", uri)).startswith("draft forgotten")
    rec = await s.corpus(uri)
    assert rec["effort"] is None and rec["draft"]["forgotten"] and "tests" in rec
    assert not any("HTER" in x for x in await _hints_at(s, uri, line))
    assert "Draft" not in await _hover(s, uri, line)
    assert "HTER" not in await _lens(s, uri)
    assert not any(snapshot in p.read_text(encoding="utf-8", errors="replace") for p in cache.rglob("*.draft"))


@pytest.mark.asyncio
async def test_a_set_draft_outlives_the_server_and_goes_before_the_files_mt_draft(tmp_path):
    """The snapshot of Set Draft is read again by the next server, before an ``alt-trans`` MT draft."""
    final = XLF.read_text(encoding="utf-8")
    snapshot = "Entrez un titre afin de créer un nouveau contenu"
    mt = "Saisissez un titre pour créer un nouveau contenu"
    with_mt = final.replace(
        f">{snapshot}</target>",
        f'>{snapshot}</target><alt-trans origin="machine-translation"><target>{mt}</target></alt-trans>', 1)
    assert with_mt != final
    (tmp_path / "algorea.ref.xlf").write_text(final, encoding="utf-8")
    (tmp_path / "algorea.hyp.xlf").write_text(with_mt, encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        uri = s.open("algorea.hyp.xlf")
        rec = await eventually(lambda: s.corpus(uri), timeout=5)
        assert rec["effort"]["segmentsEdited"] == 1  # the MT draft differs from the target
        await s.command("bleuLs.setDraft", uri)
        rec = await s.corpus(uri)
        assert rec["effort"]["segmentsEdited"] == 0  # the snapshot goes before it
    finally:
        await _close(s)
    edited = with_mt.replace(f">{snapshot}</target>", ">Entrez un titre afin de créer un nouvel élément</target>", 1)
    (tmp_path / "algorea.hyp.xlf").write_text(edited, encoding="utf-8")
    s = await _session("neovim", tmp_path)
    try:
        uri = s.open("algorea.hyp.xlf")

        async def got():
            rec = await s.corpus(uri)
            return rec if rec and rec["effort"] and rec["effort"]["segmentsEdited"] == 1 else None

        eff = (await eventually(got, timeout=5))["effort"]
        want = TER(case_sensitive=True).sentence_score(snapshot, ["Entrez un titre afin de créer un nouvel élément"])
        assert eff["num_edits"] == want.num_edits and eff["segments"] > 1
    finally:
        await _close(s)


async def test_a_catalogue_without_a_reference_shows_hter_alone(session):
    """No reference: the edited fuzzy entry's hint is its HTER, after the msgstr's closing quote;
    corpusScore and the lens carry the corpus HTER."""
    s = session
    text = PO_HYP.read_text(encoding="utf-8")
    uri = s.open("auth.po", text)
    rec = await eventually(lambda: s.corpus(uri), timeout=10)
    assert rec["effort"]["segments"] == 31 and rec["rows"] == 0
    assert await s.hints(uri) == []
    edited = _post_edit(s, uri, text)
    line = edited.split("\n").index('msgstr "Authentifizierungsgeheimnis"')

    async def three():
        hints = await s.hints(uri)
        return hints if len(hints) == 3 else None

    hints = await eventually(three, timeout=5)
    hint = next(h for h in hints if h.position.line == line)
    want = TER(case_sensitive=True).sentence_score("Geheimes Token", ["Authentifizierungsgeheimnis"]).score
    assert hint.label == f"HTER {want:.1f}"
    assert hint.position.character == units('msgstr "Authentifizierungsgeheimnis"', s.encoding)
    assert (await s.corpus(uri))["effort"]["segmentsEdited"] == len(POST_EDITS)
    assert "HTER" in await _lens(s, uri) and "3 segments edited" in await _lens(s, uri)
