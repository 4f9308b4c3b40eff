"""A real MT draft post-edited in place through the real server (UTF-16 and UTF-8 clients).

ModernFlyouts' German and Korean Multilingual App Toolkit catalogues as MAT left them
(Microsoft Translator targets marked ``mt-suggestion``) are opened beside the translator's
reviewed file as their reference; the translator's rewrites (23 German, 47 Korean) are
typed into the open file in one change, each over its whole target.  Every rewritten unit's hint then says BLEU against the reviewed
file (100: the same text) and the HTER of the MT draft the file carried when first seen,
both equal to sacrebleu's on the texts ElementTree reads; the untouched units say no HTER.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import sacrebleu
import pytest
from sacrebleu.metrics import TER

from lsprotocol import types

from .conftest import eventually, units

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "xliff"
X1 = "{urn:oasis:names:tc:xliff:document:1.2}"


def _targets(path: Path) -> dict[str, tuple[str, str]]:
    root = ET.fromstring(path.read_bytes())
    return {tu.get("id"): ((t := tu.find(X1 + "target")).get("state-qualifier"), "".join(t.itertext()))
            for tu in root.iter(X1 + "trans-unit")}


@pytest.mark.parametrize("lang,units_in_file,rewrites", [("de", 104, 23), ("ko", 125, 47)])
async def test_the_translators_rewrites_typed_over_the_mt_draft(session, lang, units_in_file, rewrites):
    s = session
    mt_path, post_path = DATA / f"modernflyouts.{lang}.mt.xlf", DATA / f"modernflyouts.{lang}.postedit.xlf"
    s.write("flyouts.ref.xlf", post_path.read_bytes().decode("utf-8"))  # with its BOM, as on disk
    text = mt_path.read_bytes().decode("utf-8-sig")  # an editor shows the file without its BOM
    uri = s.open("flyouts.hyp.xlf", text)
    hints = await eventually(lambda: s.hints(uri), timeout=5)
    assert len(hints) == units_in_file and not any("HTER" in h.label for h in hints)

    mt, post = _targets(mt_path), _targets(post_path)
    rewritten = [uid for uid, (sq, t) in mt.items() if sq == "mt-suggestion" and post[uid][1] != t]
    assert len(rewritten) == rewrites
    lines = text.split("\n")
    edits, where = [], {}
    for uid in rewritten:
        ln = next(i for i in range(text[: text.index(f'<trans-unit id="{uid}"')].count("\n"), len(lines))
                  if "<target" in lines[i])
        content = lines[ln]
        a = content.index(">", content.index("<target")) + 1
        b = content.index("</target>")
        assert content[a:b] == mt[uid][1]  # one line, no markup: the draft as typed
        edits.append((ln, a, b, post[uid][1]))
        where[ln] = (uid, content[:a] + post[uid][1])
    # bottom up, so each range is still where it was when the next change applies
    s.change(uri, [{"range": ((ln, units(lines[ln][:a], s.encoding)), (ln, units(lines[ln][:b], s.encoding))), "text": t}
                   for ln, a, b, t in sorted(edits, reverse=True)])

    async def all_hter():
        got = [h for h in await s.hints(uri) if "HTER" in h.label]
        return got if len(got) == len(rewritten) else None

    got = await eventually(all_hter, timeout=10)
    assert got, "no HTER hints after the edits"
    for h in got:
        uid, before_end = where[h.position.line]
        draft, target = mt[uid][1], post[uid][1]
        bleu = sacrebleu.sentence_bleu(target, [target]).score
        hter = TER(case_sensitive=True).sentence_score(draft, [target]).score
        assert h.label == f"BLEU {bleu:.1f} · HTER {hter:.1f}", uid
        assert h.position.character == units(before_end, s.encoding)  # at the end of the target text
    # the hover of every rewritten unit: sacrebleu's HTER to two places, against the MT draft it shows
    for ln, (uid, _) in sorted(where.items()):
        hv = await s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=ln, character=12)))
        hter = TER(case_sensitive=True).sentence_score(mt[uid][1], [post[uid][1]]).score
        assert hv is not None and f"**HTER {hter:.2f}** vs draft" in hv.contents.value, uid
