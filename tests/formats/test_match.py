"""Pairing segments by key, the PO fallback, and what is scored."""

from __future__ import annotations

from bleu_ls.formats.match import align, pair_documents
from bleu_ls.formats.po import read_po


def po(*entries: tuple) -> str:
    out = []
    for e in entries:
        ctxt, msgid, strs = e
        block = [f'msgctxt "{ctxt}"'] if ctxt is not None else []
        block.append(f'msgid "{msgid}"')
        if isinstance(strs, list):
            block.append(f'msgid_plural "{msgid}s"')
            block += [f'msgstr[{i}] "{s}"' for i, s in enumerate(strs)]
        else:
            block.append(f'msgstr "{strs}"')
        out.append("\n".join(block))
    return "\n\n".join(out) + "\n"


def test_pairs_by_key_in_any_order_and_names_the_rest():
    hyp = read_po(po((None, "a", "A1"), ("m", "b", "B1"), (None, "only-hyp", "X"), (None, "c", "")))
    ref = read_po(po((None, "c", "C2"), ("m", "b", "B2"), (None, "a", "A2"), (None, "only-ref", "Y"), (None, "b", "Z")))
    p = pair_documents(hyp, ref)
    assert p.partners == [[2], [1], [], [0]]
    assert p.unpaired_hyp == [2]
    assert [ref.segments[j].key for j in p.unpaired_ref] == ["only-ref", "b"]  # context matters
    al = align(hyp, [ref])
    assert al.rows == [0, 1] and al.texts == [["A2", "B2"]]
    assert al.empty == [3]  # paired, but the hypothesis target is empty


def test_po_fallback_pairs_a_singular_with_form_zero():
    hyp = read_po(po((None, "file", "Datei")))
    ref = read_po(po((None, "file", ["Datei", "Dateien"])))
    p = pair_documents(hyp, ref)
    assert p.partners == [[0]] and p.unpaired_ref == [1]


def test_several_references_each_paired_by_key():
    hyp = read_po(po((None, "a", "x y"), (None, "b", "z")))
    r1 = read_po(po((None, "b", "z1"), (None, "a", "x1")))
    r2 = read_po(po((None, "a", "x2")))
    al = align(hyp, [r1, r2])
    assert al.rows == [0] and al.texts == [["x1"], ["x2"]]
    assert al.unpaired_hyp() == [1]


def test_srt_numbers_and_unnamed_vtt_cues_do_not_pair_by_key(monkeypatch):
    from bleu_ls.formats import match
    from bleu_ls.formats.model import SRT, VTT, Segment, SegmentDocument

    def doc(fmt, keys):
        return SegmentDocument(fmt, [Segment(key=k, target=f"t{k}", target_span=(0, 0), line=0) for k in keys])

    monkeypatch.setitem(match.FALLBACKS, SRT, lambda *a: [])
    monkeypatch.setitem(match.FALLBACKS, VTT, lambda *a: [])
    p = pair_documents(doc(SRT, ["1", "2"]), doc(SRT, ["1", "2"]))
    assert p.partners == [[], []] and p.unpaired_ref == [0, 1]
    p = pair_documents(doc(VTT, ["#1", "intro"]), doc(VTT, ["#1", "intro"]))
    assert p.partners == [[], [1]]
