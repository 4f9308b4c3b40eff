"""The effort of a whole segment document against its drafts, driven without a client:
the corpus HTER kept per segment through any edit script equals a fresh opening's and
sacrebleu's corpus TER of (drafts, [targets]); Set Draft pins the current targets as
drafts (before the file's own, across reopenings), Forget Draft leaves none until the
file is opened again."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import SimpleNamespace

import polib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from sacrebleu.metrics import TER

from bleu_ls.postedit import DraftStore
from bleu_ls.server.segdocs import drafts, effort
from bleu_ls.server.segdocs.docs import SegmentDocs
from bleu_ls.config.settings import Settings

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"
PO_HYP = DATA / "po" / "allauth-de-2023-10-07.po"
PO_REF = DATA / "po" / "allauth-de-2023-11-03.po"
XLF = DATA / "xliff" / "algorea.fr.final.xlf"


def _docs(root: Path, cache: Path) -> SegmentDocs:
    manager = SimpleNamespace(settings=Settings(), encoding="utf-32", pull_diagnostics=True, root_for=lambda p: root,
                              client=None, drafts=DraftStore(cache))
    return SegmentDocs(manager)  # type: ignore[arg-type]


def _hter(docs: SegmentDocs, uri: str):
    sp = docs.docs[uri]
    sp.serial += 1  # (what an edit through the client does)
    return asyncio.run(effort.hter(sp))


def _oracle(docs: SegmentDocs, uri: str):
    """sacrebleu's corpus TER(case_sensitive=True) of (draft, [target]) over the segments with both."""
    sp = docs.docs[uri]
    pairs = [(drafts.draft_of(sp, s), s.target) for s in sp.index.unshifted()]
    pairs = [(d, t) for d, t in pairs if d is not None and t]
    if not pairs:
        return None
    return TER(case_sensitive=True).corpus_score([d for d, _ in pairs], [[t for _, t in pairs]]), pairs


def _same(rec, oracle) -> bool:
    if oracle is None:
        return rec is None
    score, pairs = oracle
    return (rec["score"], rec["num_edits"], rec["ref_length"], rec["segments"], rec["segmentsEdited"]) == (
        score.score, score.num_edits, score.ref_length, len(pairs), sum(d != t for d, t in pairs))


def _fuzzy_at(text: str, line: str) -> int:
    """The offset of ``line`` in an entry flagged fuzzy."""
    for m in re.finditer(re.escape("\n" + line + "\n"), text):
        entry = text[text.rfind("\n\n", 0, m.start()) : m.start()]
        if "#, fuzzy" in entry:
            return m.start() + 1
    raise AssertionError(f"no fuzzy entry has {line}")


def test_the_corpus_hter_of_post_edited_fuzzy_entries_equals_sacrebleu(tmp_path):
    (tmp_path / "auth.ref.po").write_text(PO_REF.read_text(encoding="utf-8"), encoding="utf-8")
    uri = (tmp_path / "auth.hyp.po").as_uri()
    text = PO_HYP.read_text(encoding="utf-8")
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, text, 1)
    sp = docs.docs[uri]
    fuzzy = {(e.msgctxt, e.msgid): e.msgstr for e in polib.pofile(text) if e.fuzzy and not e.obsolete and e.msgstr}
    rec = _hter(docs, uri)
    assert rec["score"] == 0.0 and rec["segments"] == len(fuzzy) == 31
    for old, new in (('msgstr "Anbieter"', 'msgstr "Anbieter-ID"'), ('msgstr "Geheimes Token"', 'msgstr "Geheimnis"')):
        at = _fuzzy_at(sp.index.text, old)
        docs._apply(sp, at, at + len(old), new)
    edited = polib.pofile(sp.index.text)
    pairs = [(fuzzy[(e.msgctxt, e.msgid)], e.msgstr) for e in edited if (e.msgctxt, e.msgid) in fuzzy and not e.obsolete]
    want = TER(case_sensitive=True).corpus_score([d for d, _ in pairs], [[t for _, t in pairs]])
    rec = _hter(docs, uri)
    assert (rec["score"], rec["num_edits"], rec["ref_length"], rec["segmentsEdited"]) == (
        want.score, want.num_edits, want.ref_length, 2)


WORDS = ["Konto", "E-Mail", "bestätigen", "🐈", "der", "ein"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.sampled_from(["word", "word", "paste", "delete", "quote", "unfuzzy"]), st.floats(0, 1),
                                st.sampled_from(WORDS)), min_size=1, max_size=8))
def test_after_any_edit_script_the_corpus_hter_equals_a_fresh_opening_and_sacrebleu(tmp_path_factory, edits):
    """Words typed in targets, fuzzy entries pasted and deleted, a quote left open, a fuzzy
    flag removed: after each step the corpus HTER kept per segment equals a fresh opening's
    (same kept snapshot) and sacrebleu's on the segments' drafts and targets."""
    root = tmp_path_factory.mktemp("prop")
    (root / "auth.ref.po").write_text(PO_REF.read_text(encoding="utf-8"), encoding="utf-8")
    uri = (root / "auth.hyp.po").as_uri()
    docs = _docs(root, root / "cache")
    docs.open(uri, PO_HYP.read_text(encoding="utf-8"), 1)
    sp = docs.docs[uri]
    for k, (how, where, word) in enumerate(edits):
        index = sp.index
        n = len(index)
        i = min(n - 1, int(where * n))
        if how == "word" and n:
            a, b = index.target_span(i)
            words = [(m.start(), m.end()) for m in re.finditer(r"[^\s\"\\]+", index.text[a:b])]
            if words:
                x, y = words[int(where * 7919) % len(words)]
                docs._apply(sp, a + x, a + y, word)
        elif how == "paste":
            docs._apply(sp, len(index.text), len(index.text), f'\n#, fuzzy\nmsgid "pasted {k} {word}"\nmsgstr "eingefügt {word} {k}"\n')
        elif how == "delete" and n:
            a = index.text.rfind("\n\n", 0, index.target_span(i)[0])
            b = index.text.find("\n\n", index.target_span(i)[1])
            if a >= 0:
                docs._apply(sp, a, len(index.text) if b < 0 else b, "")
        elif how == "quote" and n:
            a = index.target_span(i)[0]
            docs._apply(sp, a, a, '"')
        elif how == "unfuzzy":
            at = index.text.find("#, fuzzy\n", int(where * len(index.text)))
            if at >= 0:
                docs._apply(sp, at, at + len("#, fuzzy\n"), "")
        rec = _hter(docs, uri)
        fresh = _docs(root, root / "cache")
        fresh.open(uri, sp.index.text, 2)
        assert rec == _hter(fresh, uri)
        assert _same(rec, _oracle(fresh, uri))


def test_set_draft_pins_the_current_targets_and_forget_leaves_none(tmp_path):
    """An XLIFF file with one MT alt-trans: Set Draft's snapshot goes before it, in this session
    and the next; Forget Draft leaves no draft (not even the file's) until the file is opened again."""
    final = XLF.read_text(encoding="utf-8")
    target = "Entrez un titre afin de créer un nouveau contenu"
    text = final.replace(f">{target}</target>",
                         f'>{target}</target><alt-trans origin="machine-translation"><target>MT de titre</target></alt-trans>', 1)
    (tmp_path / "algorea.ref.xlf").write_text(final, encoding="utf-8")
    uri = (tmp_path / "algorea.hyp.xlf").as_uri()
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, text, 1)
    sp = docs.docs[uri]
    rec = _hter(docs, uri)
    assert (rec["segments"], rec["segmentsEdited"]) == (1, 1)  # the MT draft only
    message = drafts.set_to_current(sp)
    n = sum(1 for s in sp.index.unshifted() if s.target)
    assert message == f"draft set to the current targets ({n:,} segments)"
    rec = _hter(docs, uri)
    assert (rec["score"], rec["segments"], rec["segmentsEdited"]) == (0.0, n, 0)
    at = sp.index.text.index("nouveau contenu")
    docs._apply(sp, at, at + len("nouveau"), "nouvel")
    rec = _hter(docs, uri)
    assert rec["segmentsEdited"] == 1 and _same(rec, _oracle(docs, uri))
    assert rec["num_edits"] == TER(case_sensitive=True).sentence_score(target, [target.replace("nouveau", "nouvel")]).num_edits

    again = _docs(tmp_path, tmp_path / "cache")  # the next server: the pinned snapshot read back, before the alt-trans
    again.open(uri, sp.index.text, 1)
    assert _hter(again, uri) == rec

    assert drafts.forget(sp).startswith("draft forgotten")
    assert _hter(docs, uri) is None and not sp.drafts.differs.any()
    assert all(drafts.draft_of(sp, s) is None for s in sp.index.unshifted())
    at = sp.index.text.index("nouvel contenu")
    docs._apply(sp, at, at + len("nouvel"), "autre")  # edits after it: still none
    assert _hter(docs, uri) is None and docs.tokens(uri) == []
    reopened = _docs(tmp_path, tmp_path / "cache")  # opened again: the file's MT draft, no snapshot
    reopened.open(uri, sp.index.text, 1)
    rec = _hter(reopened, uri)
    assert (rec["segments"], rec["segmentsEdited"]) == (1, 1)


def test_set_draft_of_a_po_file_survives_removing_fuzzy(tmp_path):
    """Set Draft on a catalogue: every non-empty msgstr its entry's draft; removing a fuzzy flag
    or editing an entry that was never fuzzy measures against the snapshot."""
    (tmp_path / "auth.ref.po").write_text(PO_REF.read_text(encoding="utf-8"), encoding="utf-8")
    uri = (tmp_path / "auth.hyp.po").as_uri()
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, PO_HYP.read_text(encoding="utf-8"), 1)
    sp = docs.docs[uri]
    drafts.set_to_current(sp)
    old = 'msgstr "Anmeldename"'
    at = sp.index.text.index(old)
    docs._apply(sp, at, at + len(old), 'msgstr "Nutzername"')
    rec = _hter(docs, uri)
    assert rec["segmentsEdited"] == 1 and rec["num_edits"] == 1 and _same(rec, _oracle(docs, uri))
    at = sp.index.text.index("#, fuzzy\n")
    docs._apply(sp, at, at + len("#, fuzzy\n"), "")
    assert _hter(docs, uri) == rec


def test_a_catalogue_without_a_reference_shows_its_effort_alone(tmp_path):
    uri = (tmp_path / "auth.po").as_uri()
    docs = _docs(tmp_path, tmp_path / "cache")
    text = PO_HYP.read_text(encoding="utf-8")
    docs.open(uri, text, 1)
    sp = docs.docs[uri]
    assert sp.model is None
    at = _fuzzy_at(sp.index.text, 'msgstr "Anbieter"')
    docs._apply(sp, at, at + len('msgstr "Anbieter"'), 'msgstr "Anbieter-ID"')
    sp.serial += 1
    rec = asyncio.run(docs.corpus(uri))
    assert rec["rows"] == 0 and rec["unpairedHypothesis"] == len(sp.index) and rec["tests"] == {}
    assert _same(rec["effort"], _oracle(docs, uri)) and rec["effort"]["segmentsEdited"] == 1
    (lens,) = asyncio.run(docs.lens(uri))
    assert lens.command.title.endswith(f"· HTER {rec['effort']['score']:.1f} · 1 segment edited")
    drafts.forget(sp)
    assert asyncio.run(docs.corpus(uri)) is None
    (lens,) = asyncio.run(docs.lens(uri))
    assert "HTER" not in lens.command.title


def test_without_a_reference_an_edited_target_has_its_hter_hint(tmp_path):
    uri = (tmp_path / "auth.po").as_uri()
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, PO_HYP.read_text(encoding="utf-8"), 1)
    sp = docs.docs[uri]
    rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=sp.index.line_count, character=0))
    params = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=rng)
    assert docs.hints(params) == []  # no target differs from its draft yet
    old = 'msgstr "Geheimes Token"'
    at = _fuzzy_at(sp.index.text, old)
    docs._apply(sp, at, at + len(old), 'msgstr "Geheimes Authentifizierungstoken"')
    (hint,) = docs.hints(params)
    want = TER(case_sensitive=True).sentence_score("Geheimes Token", ["Geheimes Authentifizierungstoken"]).score
    assert hint.label == f"HTER {want:.1f}"
    line = sp.index.text[: at].count("\n")
    assert (hint.position.line, hint.position.character) == (line, len('msgstr "Geheimes Authentifizierungstoken"'))
    drafts.forget(sp)
    assert docs.hints(params) == []


def test_set_draft_is_refused_in_one_sentence_while_the_buffer_is_malformed(tmp_path):
    uri = (tmp_path / "auth.po").as_uri()
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, PO_HYP.read_text(encoding="utf-8"), 1)
    sp = docs.docs[uri]
    at = sp.index.target_span(3)[0]
    docs._apply(sp, at, at, '"')  # a quote typed: the msgstr string is not closed where it was
    assert sp.frozen is not None
    try:
        drafts.set_to_current(sp)
    except ValueError as exc:
        assert str(exc) == "the file is not well-formed now: set the draft once it is"
    else:
        raise AssertionError("Set Draft took a malformed buffer's targets")
    docs._apply(sp, at, at + 1, "")
    assert sp.frozen is None and drafts.set_to_current(sp).startswith("draft set to the current targets")
