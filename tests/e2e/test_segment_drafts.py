"""The draft inside a segment file through the real server (UTF-16 and UTF-8
clients): a real PO catalogue's fuzzy msgstr and an XLIFF 1.2 ``mt-suggestion``
target are their drafts as first seen.  After an edit inside the target: the hint
equals sacrebleu's label (BLEU against the reference, then TER(case_sensitive=True)
of the draft against the target), the hover shows the draft's word diff (not
before), and the one changed word is the only semantic token, inside the target."""

from __future__ import annotations

from pathlib import Path

import polib
import sacrebleu
from lsprotocol import types
from sacrebleu.metrics import TER

from .conftest import eventually, units

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


def label(target: str, ref: str, draft: str) -> str:
    bleu = sacrebleu.sentence_bleu(target, [ref]).score
    hter = TER(case_sensitive=True).sentence_score(draft, [target]).score
    return f"BLEU {bleu:.1f} · HTER {hter:.1f}"


async def _hover(s, uri: str, line: int) -> str:
    h = await s.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=2))
    )
    return h.contents.value if h is not None else ""


async def _tokens(s, uri: str) -> list[tuple[int, int, int, int]]:
    res = await s.client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    data = list(res.data) if res else []
    out, line, col = [], 0, 0
    for k in range(0, len(data), 5):
        dl, dc, n, kind, _mods = data[k : k + 5]
        col = col + dc if dl == 0 else dc
        line += dl
        out.append((line, col, n, kind))
    return out


async def _edit_word(s, uri: str, text: str, line: int, old: str, new: str) -> str:
    content = text.split("\n")[line]
    at = content.index(old)
    a, b = units(content[:at], s.encoding), units(content[: at + len(old)], s.encoding)
    s.change(uri, [{"range": ((line, a), (line, b)), "text": new}])
    return content[:at] + new + content[at + len(old) :]


async def _until_hter(s, uri: str, line: int):
    async def got():
        hints = await s.hints(uri)
        return [h for h in hints if h.position.line == line and "HTER" in h.label] or None

    return (await eventually(got, timeout=5))[0]


async def test_a_fuzzy_po_entry_edited_in_place(session):
    s = session
    s.write("phone.ref.po", (DATA / "po" / "phonenumber-fr-2025.po").read_text(encoding="utf-8"))
    text = (DATA / "po" / "phonenumber-fr-2024.po").read_text(encoding="utf-8")
    uri = s.open("phone.hyp.po", text)
    hints = await eventually(lambda: s.hints(uri), timeout=5)
    assert hints and not any("HTER" in h.label for h in hints)
    line = text.split("\n").index('"Saisissez un numéro de téléphone valide, par exemple {example_number}, ou un "')
    assert "Changes" not in await _hover(s, uri, line)
    assert await _tokens(s, uri) == []

    new_line = await _edit_word(s, uri, text, line, "valide", "correct")
    edited = text.replace('"Saisissez un numéro de téléphone valide,', '"Saisissez un numéro de téléphone correct,', 1)
    key = next(e for e in polib.pofile(text) if e.fuzzy)
    draft = key.msgstr
    target = next(e for e in polib.pofile(edited) if (e.msgctxt, e.msgid) == (key.msgctxt, key.msgid)).msgstr
    ref = next(e for e in polib.pofile(str(DATA / "po" / "phonenumber-fr-2025.po")) if (e.msgctxt, e.msgid) == (key.msgctxt, key.msgid)).msgstr
    hint = await _until_hter(s, uri, line + 1)  # the hint follows the msgstr's last line
    assert hint.label == label(target, ref, draft)
    hover = await _hover(s, uri, line)
    hter = TER(case_sensitive=True).sentence_score(draft, [target]).score
    assert f"**HTER {hter:.2f}** vs draft" in hover and "~~valide,~~ **correct,**" in hover
    at = new_line.index("correct")
    assert await _tokens(s, uri) == [(line, units(new_line[:at], s.encoding), len("correct,"), 0)]


async def test_an_mt_suggestion_xliff_target_edited_in_place(session):
    s = session
    final = (DATA / "xliff" / "algorea.fr.final.xlf").read_text(encoding="utf-8")
    s.write("algorea.ref.xlf", final)
    text = final.replace('<target state="translated">', '<target state="translated" state-qualifier="mt-suggestion">')
    uri = s.open("algorea.hyp.xlf", text)
    hints = await eventually(lambda: s.hints(uri), timeout=5)
    assert hints and not any("HTER" in h.label for h in hints)
    draft = "Entrez un titre afin de créer un nouveau contenu"
    line = next(i for i, x in enumerate(text.split("\n")) if draft in x)
    assert "Draft" not in await _hover(s, uri, line)
    new_line = await _edit_word(s, uri, text, line, "nouveau contenu", "nouvel élément")
    target = "Entrez un titre afin de créer un nouvel élément"
    hint = await _until_hter(s, uri, line)
    assert hint.label == label(target, draft, draft)  # the reference is the draft's text
    assert hint.position.character == units(new_line[: new_line.index("</target>")], s.encoding)
    hover = await _hover(s, uri, line)
    assert "~~nouveau contenu~~ **nouvel élément**" in hover
    at = new_line.index("nouvel élément")
    assert await _tokens(s, uri) == [
        (line, units(new_line[:at], s.encoding), units("nouvel", s.encoding), 0),
        (line, units(new_line[: at + 7], s.encoding), units("élément", s.encoding), 0),
    ]
