"""The draft inside a segment file, driven without a client: a fuzzy PO msgstr and an
XLIFF 1.2 ``mt-suggestion`` target as first seen, an XLIFF ``alt-trans`` of MT origin.
HTER equals sacrebleu's TER(case_sensitive=True) on the texts polib extracts, the
hover shows the draft only once the target differs from it, the changed words'
tokens lie inside targets, and the snapshot survives a reopen."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from sacrebleu.metrics import TER

from bleu_ls.postedit import DraftStore
from bleu_ls.server.segdocs.docs import SegmentDocs
from bleu_ls.config.settings import Settings

DATA = Path(__file__).resolve().parents[2] / "data" / "formats"
PO_HYP = DATA / "po" / "phonenumber-fr-2024.po"
PO_REF = DATA / "po" / "phonenumber-fr-2025.po"
XLF_FINAL = DATA / "xliff" / "algorea.fr.final.xlf"
XLF_DRAFT = DATA / "xliff" / "algorea.fr.draft.xlf"


def _docs(root: Path, cache: Path) -> SegmentDocs:
    manager = SimpleNamespace(settings=Settings(), encoding="utf-32", pull_diagnostics=True, root_for=lambda p: root,
                              client=None, drafts=DraftStore(cache))
    return SegmentDocs(manager)  # type: ignore[arg-type]


def _hter(draft: str, target: str) -> float:
    return TER(case_sensitive=True).sentence_score(draft, [target]).score


def _hover(docs: SegmentDocs, uri: str, line: int) -> str:
    h = docs.hover(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=0)))
    assert h is not None
    return h.contents.value


def _hints(docs: SegmentDocs, uri: str) -> list[types.InlayHint]:
    sp = docs.docs[uri]
    rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=sp.index.line_count, character=0))
    return docs.hints(types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=rng))


def _tokens(docs: SegmentDocs, uri: str) -> list[tuple[int, int, int]]:
    """(line, start, end) of each token (UTF-32 columns: code points)."""
    data = docs.tokens(uri)
    out, line, col = [], 0, 0
    for k in range(0, len(data), 5):
        dl, dc, n, kind, mods = data[k : k + 5]
        assert (kind, mods) == (0, 0)  # bleuChanged, as in line files
        col = col + dc if dl == 0 else dc
        line += dl
        out.append((line, col, col + n))
    return out


def _inside_targets(docs: SegmentDocs, uri: str, toks) -> bool:
    index = docs.docs[uri].index
    spans = [index.target_span(i) for i in range(len(index))]
    for line, a, b in toks:
        x, y = index.offset(line, a), index.offset(line, b)
        if not any(s <= x and y <= e for s, e in spans):
            return False
    return True


def _edit(docs: SegmentDocs, uri: str, old: str, new: str) -> None:
    sp = docs.docs[uri]
    at = sp.index.text.index(old)
    docs._apply(sp, at, at + len(old), new)


@pytest.fixture
def po_pair(tmp_path):
    (tmp_path / "phone.ref.po").write_text(PO_REF.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path, (tmp_path / "phone.hyp.po").as_uri(), PO_HYP.read_text(encoding="utf-8")


def test_a_fuzzy_msgstr_is_the_draft_as_first_seen_and_hter_equals_sacrebleu(po_pair, tmp_path):
    root, uri, text = po_pair
    docs = _docs(root, tmp_path / "cache")
    docs.open(uri, text, 1)
    fuzzy = [e for e in polib.pofile(text) if e.fuzzy]
    assert len(fuzzy) == 3
    entry = fuzzy[0]  # a multi-line msgstr
    line = text.split("\n").index('"Saisissez un numéro de téléphone valide, par exemple {example_number}, ou un "')
    assert "HTER" not in _hover(docs, uri, line) and "Changes" not in _hover(docs, uri, line)
    assert _tokens(docs, uri) == []
    labels_before = [h.label for h in _hints(docs, uri)]
    assert not any("HTER" in x for x in labels_before)

    _edit(docs, uri, "par exemple {example_number}, ou un ", "comme {example_number} ou bien un ")
    edited = polib.pofile(docs.docs[uri].index.text)
    now = next(e for e in edited if e.msgctxt == entry.msgctxt and e.msgid == entry.msgid)
    want = _hter(entry.msgstr, now.msgstr)
    assert 0 < want < 100
    hover = _hover(docs, uri, line)
    assert f"**HTER {want:.2f}** vs draft" in hover and "**Changes:**" in hover and "~~par exemple" in hover and "**bien**" in hover
    labels = [h.label for h in _hints(docs, uri)]
    assert sum("HTER" in x for x in labels) == 1
    assert [x for x in labels if "HTER" in x][0].endswith(f" · HTER {want:.1f}")
    toks = _tokens(docs, uri)
    assert toks and _inside_targets(docs, uri, toks)
    words = {docs.docs[uri].index.line(ln)[a:b] for ln, a, b in toks}
    assert {"comme", "bien"} <= words and "Saisissez" not in words

    # fuzzy removed, the file closed and opened again (a new store on the same folder): same draft
    _edit(docs, uri, "#, fuzzy, python-brace-format\n#| msgid \"\"\n#| \"Enter a valid phone number (e.g. {example_number}) or",
          "#, python-brace-format\n#| msgid \"\"\n#| \"Enter a valid phone number (e.g. {example_number}) or")
    saved = docs.docs[uri].index.text
    again = _docs(root, tmp_path / "cache")
    again.open(uri, saved, 2)
    assert [x for x in (h.label for h in _hints(again, uri)) if "HTER" in x][0].endswith(f" · HTER {want:.1f}")


def test_an_unflagged_entry_has_no_draft(po_pair, tmp_path):
    root, uri, text = po_pair
    docs = _docs(root, tmp_path / "cache")
    docs.open(uri, text, 1)
    _edit(docs, uri, 'msgstr "Numéro de téléphone"', 'msgstr "Numéro de portable"')
    assert _tokens(docs, uri) == []
    assert not any("HTER" in h.label for h in _hints(docs, uri))


def _mt_xliff() -> str:
    """The Algorea catalogue, its translated targets qualified as MT suggestions."""
    return XLF_FINAL.read_text(encoding="utf-8").replace('<target state="translated">', '<target state="translated" state-qualifier="mt-suggestion">')


def test_an_mt_suggestion_target_is_its_draft_until_edited(tmp_path):
    (tmp_path / "algorea.ref.xlf").write_text(XLF_FINAL.read_text(encoding="utf-8"), encoding="utf-8")
    uri = (tmp_path / "algorea.hyp.xlf").as_uri()
    text = _mt_xliff()
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, text, 1)
    draft = "Entrez un titre afin de créer un nouveau contenu"
    line = next(i for i, x in enumerate(text.split("\n")) if draft in x)
    assert not any("HTER" in h.label for h in _hints(docs, uri))
    assert "Draft" not in _hover(docs, uri, line)
    _edit(docs, uri, f">{draft}<", ">Saisissez un titre pour créer un nouveau contenu<")
    target = "Saisissez un titre pour créer un nouveau contenu"
    want = _hter(draft, target)
    hover = _hover(docs, uri, line)
    assert f"**HTER {want:.2f}** vs draft" in hover and f"**Draft:** {draft}" in hover
    hint = next(h for h in _hints(docs, uri) if h.position.line == line)
    assert hint.label.endswith(f" · HTER {want:.1f}")
    toks = _tokens(docs, uri)
    assert _inside_targets(docs, uri, toks)
    assert sorted(docs.docs[uri].index.line(ln)[a:b] for ln, a, b in toks) == ["Saisissez", "pour"]


def test_an_alt_trans_of_mt_origin_is_the_draft_from_the_start(tmp_path):
    """The earlier revision's target of a unit as its MT alt-trans; the later one its target."""
    final = XLF_FINAL.read_text(encoding="utf-8")
    unit = '<source>Enter a title to create a new child</source><target state="translated">Entrez un titre afin de créer un nouveau contenu</target>'
    mt = "Entrez un titre pour créer un nouvel enfant"
    text = final.replace(unit, unit + f'\n        <alt-trans origin="machine-trans"><target>{mt}</target></alt-trans>')
    assert text != final
    (tmp_path / "algorea.ref.xlf").write_text(XLF_DRAFT.read_text(encoding="utf-8"), encoding="utf-8")
    uri = (tmp_path / "algorea.hyp.xlf").as_uri()
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, text, 1)
    target = "Entrez un titre afin de créer un nouveau contenu"
    want = _hter(mt, target)
    line = next(i for i, x in enumerate(text.split("\n")) if target in x)
    assert f"**HTER {want:.2f}** vs draft" in _hover(docs, uri, line)
    hint = next(h for h in _hints(docs, uri) if h.position.line == line)
    assert hint.label.endswith(f" · HTER {want:.1f}")
    assert sum("HTER" in h.label for h in _hints(docs, uri)) == 1
    toks = _tokens(docs, uri)
    assert _inside_targets(docs, uri, toks)
    assert sorted(docs.docs[uri].index.line(ln)[a:b] for ln, a, b in toks) == ["afin", "contenu", "de", "nouveau"]


def test_an_xliff2_mt_match_is_the_draft_and_tokens_stay_inside_a_paired_code(tmp_path):
    """Angular's XLIFF 2 with a Translation Candidates ``mtc:match type="mt"`` added to the
    unit whose target is inside a ``<pc>``: the changed word's token is inside the code's text."""
    real = (DATA / "xliff" / "angular.fr.xlf2.xlf").read_text(encoding="utf-8")
    (tmp_path / "ng.ref.xlf").write_text(real, encoding="utf-8")
    text = real.replace('xmlns="urn:oasis:names:tc:xliff:document:2.0"',
                        'xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:mtc="urn:oasis:names:tc:xliff:matches:2.0"', 1)
    unit = '<unit id="3780349238193953556">\n'
    mt = "avec les espaces réservés"
    text = text.replace(unit, unit + f'      <mtc:matches><mtc:match ref="#s1" type="mt"><source>with placeholders</source><target>{mt}</target></mtc:match></mtc:matches>\n', 1)
    uri = (tmp_path / "ng.hyp.xlf").as_uri()
    docs = _docs(tmp_path, tmp_path / "cache")
    docs.open(uri, text, 1)
    target = "avec des espaces réservés"
    line = next(i for i, x in enumerate(text.split("\n")) if f">{target}</pc></target>" in x)
    assert f"**HTER {_hter(mt, target):.2f}** vs draft" in _hover(docs, uri, line)
    toks = _tokens(docs, uri)
    assert _inside_targets(docs, uri, toks)
    assert [docs.docs[uri].index.line(ln)[a:b] for ln, a, b in toks] == ["des"]
    # the target typed back to the draft: no HTER, no token, no draft section
    _edit(docs, uri, f">{target}</pc>", f">{mt}</pc>")
    assert _tokens(docs, uri) == [] and "Draft" not in _hover(docs, uri, line)
    assert not any("HTER" in h.label for h in _hints(docs, uri))


WORDS = ["chat", "numéro", "valide", "téléphone", "🐈", "le", "un"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.sampled_from(["word", "word", "paste", "delete", "quote"]), st.floats(0, 1), st.sampled_from(WORDS)),
                      min_size=1, max_size=8))
def test_after_any_edit_script_tokens_and_hints_equal_a_fresh_opening(tmp_path_factory, edits):
    """Words typed in targets, fuzzy entries pasted and deleted, a quote left open: after each
    step the kept per-segment state gives the tokens and HTER hints a fresh opening of the
    same text (with the same kept snapshot) gives, and every token lies inside a target."""
    root = tmp_path_factory.mktemp("prop")
    (root / "phone.ref.po").write_text(PO_REF.read_text(encoding="utf-8"), encoding="utf-8")
    uri = (root / "phone.hyp.po").as_uri()
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
            docs._apply(sp, len(index.text), len(index.text), f'\n#, fuzzy\nmsgid "pasted {k} {word}"\nmsgstr "collé {word} {k}"\n')
        elif how == "delete" and n:
            a = index.text.rfind("\n\n", 0, index.target_span(i)[0])
            b = index.text.find("\n\n", index.target_span(i)[1])
            if a >= 0:
                docs._apply(sp, a, len(index.text) if b < 0 else b, "")
        elif how == "quote" and n:
            a = index.target_span(i)[0]
            docs._apply(sp, a, a, '"')
        fresh = _docs(root, root / "cache")
        fresh.open(uri, sp.index.text, 2)
        assert docs.tokens(uri) == fresh.tokens(uri)
        assert _inside_targets(docs, uri, _tokens(docs, uri))
        if sp.frozen is None:
            assert [h.label for h in _hints(docs, uri)] == [h.label for h in _hints(fresh, uri)]
