"""Inlay hints through the real server: values (oracle: sacrebleu), ranges,
line-end columns in UTF-16 and UTF-8."""

from __future__ import annotations

import re

import sacrebleu

from .conftest import eventually, units

HYP = [
    "The cat sat on the mat .",
    "A quick brown fox jumps over the lazy dog",
    "It is raining cats and dogs today",
    "He read the book yesterday evening",
    "We will meet at the station at noon",
    "The weather is nice , isn't it ?",
    "She plays the piano very well",
    "They have lived here for ten years",
]
REF = [
    "The cat is sitting on the mat .",
    "The quick brown fox jumped over the lazy dog",
    "It is pouring rain today",
    "He read that book last night",
    "We meet at the station at twelve",
    "Nice weather , isn't it ?",
    "She plays piano well",
    "They have been living here for ten years",
]


def _value(label: str, name: str) -> float:
    m = re.search(rf"{name} (-?[0-9.]+)", label)
    assert m, label
    return float(m.group(1))


async def test_hint_values_for_a_range_not_at_line_0(session):
    session.write("a.ref", "\n".join(REF) + "\n")
    uri = session.open("a.hyp", "\n".join(HYP) + "\n")
    hints = await session.hints(uri, 3, 6)
    assert [h.position.line for h in hints] == [3, 4, 5, 6]
    for h in hints:
        i = h.position.line
        expected = sacrebleu.sentence_bleu(HYP[i], [REF[i]]).score
        assert _value(h.label, "BLEU") == round(expected, 1)
        assert h.position.character == units(HYP[i], session.encoding)
        # the breakdown comes with inlayHint/resolve (both clients resolve tooltips)
        assert h.tooltip is None
        r = await session.client.inlay_hint_resolve_async(h)
        sb = sacrebleu.sentence_bleu(HYP[i], [REF[i]])
        assert " / ".join(f"{p:.1f}" for p in sb.precisions) in r.tooltip.value
        assert f"BP {sb.bp:.3f}" in r.tooltip.value


async def test_hints_at_true_line_end_with_emoji_and_cjk(session):
    hyp = ["I love 🍕 and 🍣 so much", "我喜欢吃寿司和拉面", "plain ascii line", "😀😀😀 émoji café"]
    ref = ["I love 🍕 and sushi", "我喜欢寿司", "plain ascii line", "😀 emoji cafe"]
    session.write("e.ref", "\n".join(ref) + "\n")
    uri = session.open("e.hyp", "\n".join(hyp) + "\n")
    hints = await session.hints(uri, 0, 10)
    assert len(hints) == 4
    for h in hints:
        line = hyp[h.position.line]
        assert h.position.character == units(line, session.encoding)
    # the encodings really differ on these lines
    assert units(hyp[1], "utf-8") != units(hyp[1], "utf-16")


async def test_chrf_in_label_when_enabled(session):
    session.client.set_configuration({"chrf": {"enabled": True}}, section="bleuLs")
    session.client.workspace_did_change_configuration(
        __import__("lsprotocol").types.DidChangeConfigurationParams(settings={"bleuLs": {"chrf": {"enabled": True}}})
    )
    session.write("c.ref", "\n".join(REF) + "\n")
    uri = session.open("c.hyp", "\n".join(HYP) + "\n")

    async def with_chrf():
        hs = await session.hints(uri, 0, 2)
        return hs if hs and all("chrF" in h.label for h in hs) else None

    hints = await eventually(with_chrf, timeout=3)
    assert hints and len(hints) == 3
    for h in hints:
        i = h.position.line
        assert _value(h.label, "chrF") == round(sacrebleu.sentence_chrf(HYP[i], [REF[i]]).score, 1)
