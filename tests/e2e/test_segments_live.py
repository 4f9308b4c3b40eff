"""Subtitle files scored per cue through the real server: hints at the end of each
cue's text (oracle: sacrebleu on the cue texts), edits, a malformed buffer, the
subtitle checks as diagnostics; UTF-8, UTF-16 and UTF-32 clients."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import pytest_asyncio
import sacrebleu

from .conftest import _close, _session, eventually

HYP = [
    ("00:00:01,000", "00:00:03,500", ["Le chat est assis", "sur le tapis 🐈 ."]),
    ("00:00:04,000", "00:00:06,000", ["Il pleut des cordes aujourd'hui"]),
    ("00:00:06,500", "00:00:09,000", ["<i>Nous nous verrons</i> à la gare à midi"]),
    ("00:00:10,000", "00:00:12,000", ["Elle joue très bien du piano"]),
]
REF = [
    ("00:00:01,100", "00:00:03,400", ["Le chat est assis sur le tapis 🐈 ."]),
    ("00:00:04,100", "00:00:05,900", ["Il pleut à verse aujourd'hui"]),
    ("00:00:06,600", "00:00:08,900", ["Nous nous retrouverons", "à la gare à midi"]),
    ("00:00:10,100", "00:00:11,900", ["Elle joue bien du piano"]),
]


def srt(cues) -> str:
    return "\n".join(f"{i}\n{a} --> {b}\n" + "\n".join(lines) + "\n" for i, (a, b, lines) in enumerate(cues, 1))


def shown(lines) -> str:
    return " ".join(re.sub(r"<[^>]*>", "", line).strip() for line in lines)


def units(s: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(s.encode("utf-8"))
    if encoding == "utf-32":
        return len(s)
    return len(s.encode("utf-16-le")) // 2


def label(hyp: str, ref: str) -> str:
    return f"BLEU {sacrebleu.sentence_bleu(hyp, [ref]).score:.1f}"


@pytest_asyncio.fixture(params=["vscode", "neovim", "emacs"])
async def sub_session(request, tmp_path):
    sess = await _session(request.param, tmp_path)
    sess.encoding = {"neovim": "utf-8", "emacs": "utf-32"}.get(request.param, "utf-16")
    yield sess
    await _close(sess)


def _ends(text: str) -> list[tuple[int, str]]:
    """(line, last text line) of each cue: where its hint belongs."""
    lines = text.split("\n")
    out = []
    for j, line in enumerate(lines):
        if line.strip() and (j + 1 == len(lines) or not lines[j + 1].strip()) and "-->" not in line:
            out.append((j, line))
    return out


async def test_hints_at_the_end_of_each_cue_equal_sacrebleu(sub_session):
    s = sub_session
    s.write("film.ref.srt", srt(REF))
    text = srt(HYP)
    uri = s.open("film.hyp.srt", text)
    hints = await eventually(lambda: s.hints(uri), timeout=5)
    ends = _ends(text)
    assert len(hints) == len(HYP) == len(ends)
    for h, (_a, _b, lines), (_ref_a, _ref_b, ref_lines), (line, last) in zip(hints, HYP, REF, ends):
        assert h.label == label(shown(lines), shown(ref_lines))
        assert (h.position.line, h.position.character) == (line, units(last, s.encoding))


async def test_an_edit_inside_a_cue_updates_its_hint(sub_session):
    s = sub_session
    s.write("film.ref.srt", srt(REF))
    text = srt(HYP)
    uri = s.open("film.hyp.srt", text)
    await eventually(lambda: s.hints(uri), timeout=5)
    # cue 2's text: "Il pleut des cordes aujourd'hui" -> "Il pleut à verse aujourd'hui"
    line = text.split("\n").index("Il pleut des cordes aujourd'hui")
    s.change(uri, [{"range": ((line, 9), (line, 19)), "text": "à verse"}])
    new = "Il pleut à verse aujourd'hui"
    want = label(new, shown(REF[1][2]))
    assert want != label(shown(HYP[1][2]), shown(REF[1][2]))

    async def updated():
        hints = await s.hints(uri)
        return hints if len(hints) == 4 and hints[1].label == want else None

    hints = await eventually(updated, timeout=5)
    assert hints, "the hint of the edited cue did not change"
    assert (hints[1].position.line, hints[1].position.character) == (line, units(new, s.encoding))
    # the other cues keep their labels; the first cue's emoji line keeps its column
    assert hints[0].label == label(shown(HYP[0][2]), shown(REF[0][2]))
    assert hints[0].position.character == units("sur le tapis 🐈 .", s.encoding)


async def test_a_malformed_buffer_keeps_its_hints_and_shows_one_diagnostic(sub_session):
    s = sub_session
    s.write("film.ref.srt", srt(REF))
    text = srt(HYP)
    uri = s.open("film.hyp.srt", text)
    before = await eventually(lambda: s.hints(uri), timeout=5)
    assert len(before) == 4
    lines = text.split("\n")
    t = lines.index("00:00:04,000 --> 00:00:06,000")
    # half the timing line deleted, as when retyping it
    s.change(uri, [{"range": ((t, 8), (t, 29)), "text": ""}])
    diags, _, _ = await s.diagnostics(uri)

    async def one_problem():
        got, _, _ = await s.diagnostics(uri)
        bad = [d for d in got or [] if d.code == "timecode"]
        return bad if len(bad) == 1 else None

    bad = await eventually(one_problem, timeout=5)
    assert bad and bad[0].range.start.line == t
    kept = await s.hints(uri)
    assert [h.label for h in kept] == [h.label for h in before]
    assert [h.position.line for h in kept] == [h.position.line for h in before]
    # typed back: well-formed again, no problem, the same hints
    s.change(uri, [{"range": ((t, 8), (t, 8)), "text": ",000 --> 00:00:06,000"}])

    async def recovered():
        got, _, _ = await s.diagnostics(uri)
        return got is not None and not [d for d in got if d.code == "timecode"]

    assert await eventually(recovered, timeout=5)
    after = await s.hints(uri)
    assert [h.label for h in after] == [h.label for h in before]


async def test_subtitle_checks_are_diagnostics_with_their_codes(session):
    cues = [("00:00:01,000", "00:00:01,300", ["A line far too long for one subtitle line, it goes on and on"])]
    session.write("short.ref.srt", srt(cues))
    uri = session.open("short.hyp.srt", srt(cues))

    async def codes():
        got, _, _ = await session.diagnostics(uri)
        return {d.code for d in got or []}

    got = await eventually(codes, timeout=5)
    assert {"chars-per-line", "reading-speed", "duration-short"} <= got


async def test_a_cue_pasted_and_deleted_keeps_hints_in_step(session):
    s = session
    s.write("film.ref.srt", srt(REF))
    text = srt(HYP)
    uri = s.open("film.hyp.srt", text)
    await eventually(lambda: s.hints(uri), timeout=5)
    n = len(text.split("\n"))
    # a cue without a reference partner pasted at the end: not scored, the others stay
    s.change(uri, [{"range": ((n - 1, 0), (n - 1, 0)), "text": "\n5\n00:01:00,000 --> 00:01:02,000\nNo partner\n"}])

    async def four():
        hints = await s.hints(uri)
        return hints if len(hints) == 4 else None

    hints = await eventually(four, timeout=5)
    assert [h.label for h in hints] == [label(shown(h_[2]), shown(r[2])) for h_, r in zip(HYP, REF)]
    # the second cue deleted: three hints, the later ones moved up
    lines = text.split("\n")
    t = lines.index("2")
    s.change(uri, [{"range": ((t, 0), (t + 4, 0)), "text": ""}])

    async def three():
        hints = await s.hints(uri)
        return hints if len(hints) == 3 else None

    hints = await eventually(three, timeout=5)
    assert hints[1].label == label(shown(HYP[2][2]), shown(REF[2][2]))
    assert hints[1].position.line == lines.index("<i>Nous nous verrons</i> à la gare à midi") - 4


async def test_hover_and_lens_of_a_cue(session):
    from lsprotocol import types

    s = session
    s.write("film.ref.srt", srt(REF))
    text = srt(HYP)
    uri = s.open("film.hyp.srt", text)
    await eventually(lambda: s.hints(uri), timeout=5)
    line = text.split("\n").index("Il pleut des cordes aujourd'hui")
    hover = await s.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=3))
    )
    value = hover.contents.value
    assert "Cue 2" in value and "00:00:04.000" in value
    assert label(shown(HYP[1][2]), shown(REF[1][2])) in value
    assert "Il pleut à verse aujourd'hui" in value
    lenses = await s.client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    corpus = sacrebleu.corpus_bleu([shown(c[2]) for c in HYP], [[shown(c[2]) for c in REF]]).score
    assert lenses[0].command.title.startswith(f"BLEU {corpus:.2f}")
    assert "4 cue groups" in lenses[0].command.title


async def test_a_reference_changed_on_disk_is_read_again(session):
    s = session
    ref_path = s.write("film.ref.srt", srt(REF))
    uri = s.open("film.hyp.srt", srt(HYP))
    await eventually(lambda: s.hints(uri), timeout=5)
    new_ref = [(a, b, lines) for a, b, lines in REF]
    new_ref[3] = (REF[3][0], REF[3][1], ["Elle joue très bien du piano"])  # now the hypothesis' own words
    s.write("film.ref.srt", srt(new_ref))
    s.notify_disk(ref_path)
    want = label(shown(HYP[3][2]), shown(new_ref[3][2]))
    assert want == "BLEU 100.0"

    async def updated():
        hints = await s.hints(uri)
        return hints if len(hints) == 4 and hints[3].label == want else None

    assert await eventually(updated, timeout=8), "the hint did not follow the reference on disk"


DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


@pytest.mark.parametrize(
    "hyp_file, ref_file, name",
    [
        ("po/allauth-de-2023-10-07.po", "po/allauth-de-2023-11-03.po", "allauth.{}.po"),
        ("xliff/algorea.fr.draft.xlf", "xliff/algorea.fr.final.xlf", "algorea.{}.xlf"),
    ],
)
async def test_po_and_xliff_hints_at_each_target_equal_sacrebleu(sub_session, hyp_file, ref_file, name):
    from bleu_ls.formats.match import pair_documents
    from bleu_ls.formats.read import read_document

    s = sub_session
    hyp_text = (DATA / hyp_file).read_text(encoding="utf-8")
    s.write(name.format("ref"), (DATA / ref_file).read_text(encoding="utf-8"))
    uri = s.open(name.format("hyp"), hyp_text)
    hints = await eventually(lambda: s.hints(uri), timeout=10)
    hyp_doc, ref_doc = read_document(str(DATA / hyp_file)), read_document(str(DATA / ref_file))
    partners = pair_documents(hyp_doc, ref_doc).partners
    lines = hyp_text.split("\n")
    want = {}
    for seg, p in zip(hyp_doc.segments, partners):
        ref = " ".join(t for t in (ref_doc.segments[j].target for j in p) if t)
        if not p or not seg.target or not ref:
            continue
        end = seg.target_span[1] + (1 if name.endswith(".po") and hyp_text.startswith('"', seg.target_span[1]) else 0)
        line = hyp_text.count("\n", 0, end)
        col = end - (hyp_text.rfind("\n", 0, end) + 1)
        want[line] = (units(lines[line][:col], s.encoding), label(seg.target, ref))
    assert len(want) > 20
    got = {h.position.line: (h.position.character, h.label) for h in hints}
    assert got == want


PO_HYP = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: de\\n"

msgid "The cat sat on the mat."
msgstr "Die Katze saß auf der Matte."

#, fuzzy
msgid "It is raining today."
msgstr "Es regnet heute sehr."

msgctxt "menu"
msgid "Open the file"
msgstr "Öffne die Datei 🙂"
'''
PO_REF = PO_HYP.replace("Es regnet heute sehr.", "Heute regnet es.").replace("Öffne die Datei 🙂", "Datei öffnen 🙂").replace("#, fuzzy\n", "")


async def test_po_edit_inside_a_msgstr_and_a_quote_left_open(sub_session):
    s = sub_session
    s.write("app.ref.po", PO_REF)
    uri = s.open("app.hyp.po", PO_HYP)
    before = await eventually(lambda: s.hints(uri), timeout=5)
    assert [h.label for h in before] == [
        label("Die Katze saß auf der Matte.", "Die Katze saß auf der Matte."),
        label("Es regnet heute sehr.", "Heute regnet es."),
        label("Öffne die Datei 🙂", "Datei öffnen 🙂"),
    ]
    lines = PO_HYP.split("\n")
    ln = lines.index('msgstr "Es regnet heute sehr."')
    assert before[1].position.line == ln and before[1].position.character == len(lines[ln])
    # the msgstr typed into: that hint follows
    s.change(uri, [{"range": ((ln, 8), (ln, 29)), "text": "Heute regnet es."}])

    async def updated():
        hints = await s.hints(uri)
        # a fuzzy entry: its msgstr as opened is its draft, so HTER follows the score
        hter = sacrebleu.metrics.TER(case_sensitive=True).sentence_score("Es regnet heute sehr.", ["Heute regnet es."]).score
        return hints if len(hints) == 3 and hints[1].label == f"BLEU 100.0 · HTER {hter:.1f}" else None

    hints = await eventually(updated, timeout=5)
    assert hints and hints[1].position.character == len('msgstr "Heute regnet es."')
    # the closing quote deleted: one diagnostic there, the hints kept
    end = len('msgstr "Heute regnet es.')
    s.change(uri, [{"range": ((ln, end), (ln, end + 1)), "text": ""}])

    async def problem():
        got, _, _ = await s.diagnostics(uri)
        bad = [d for d in got or [] if d.code == "po-syntax"]  # the fuzzy entry's own finding aside
        return bad if bad else None

    got = await eventually(problem, timeout=5)
    assert got and len(got) == 1 and got[0].range.start.line == ln
    kept = await s.hints(uri)
    assert [h.label for h in kept] == [h.label for h in hints]
    s.change(uri, [{"range": ((ln, end), (ln, end)), "text": '"'}])

    async def clean():
        got, _, _ = await s.diagnostics(uri)
        return got is not None and not [d for d in got if d.code == "po-syntax"]

    assert await eventually(clean, timeout=5)


XLF_HYP = '''<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="a">
        <source>The cat sat on the mat.</source>
        <target>Die Katze saß auf der Matte.</target>
      </trans-unit>
      <trans-unit id="b">
        <source>It is raining today.</source>
        <target>Es regnet heute sehr.</target>
      </trans-unit>
      <trans-unit id="c">
        <source>Open the <g id="1">file</g></source>
        <target>Öffne die <g id="1">Datei</g> 🙂</target>
      </trans-unit>
    </body>
  </file>
</xliff>
'''
XLF_REF = XLF_HYP.replace("Es regnet heute sehr.", "Heute regnet es.").replace("Öffne die <g id=\"1\">Datei</g> 🙂", "<g id=\"1\">Datei</g> öffnen 🙂")


async def test_xliff_edit_inside_a_target_and_a_tag_typed_half_way(sub_session):
    s = sub_session
    s.write("app.ref.xlf", XLF_REF)
    uri = s.open("app.hyp.xlf", XLF_HYP)
    before = await eventually(lambda: s.hints(uri), timeout=5)
    assert [h.label for h in before] == [
        label("Die Katze saß auf der Matte.", "Die Katze saß auf der Matte."),
        label("Es regnet heute sehr.", "Heute regnet es."),
        label("Öffne die Datei 🙂", "Datei öffnen 🙂"),
    ]
    lines = XLF_HYP.split("\n")
    ln = lines.index("        <target>Es regnet heute sehr.</target>")
    assert before[1].position.line == ln and before[1].position.character == len("        <target>Es regnet heute sehr.")
    s.change(uri, [{"range": ((ln, 16), (ln, 37)), "text": "Heute regnet es."}])

    async def updated():
        hints = await s.hints(uri)
        return hints if len(hints) == 3 and hints[1].label == "BLEU 100.0" else None

    hints = await eventually(updated, timeout=5)
    assert hints and hints[1].position.character == len("        <target>Heute regnet es.")
    # a tag typed half-way: one diagnostic, the hints kept
    at = len("        <target>Heute")
    s.change(uri, [{"range": ((ln, at), (ln, at)), "text": "<g id="}])

    async def problem():
        got, _, _ = await s.diagnostics(uri)
        return got if got else None

    got = await eventually(problem, timeout=5)
    assert got and len(got) == 1
    kept = await s.hints(uri)
    assert [h.label for h in kept] == [h.label for h in hints]
    s.change(uri, [{"range": ((ln, at), (ln, at + 6)), "text": ""}])

    async def clean():
        got, _, _ = await s.diagnostics(uri)
        return got is not None and not got

    assert await eventually(clean, timeout=5)
    after = await s.hints(uri)
    assert [h.label for h in after] == [h.label for h in hints]
