"""The wording of the length check: say what is known.

A line and its reference that differ a lot in length mean that one of them
leaves something out or adds something, and the reference is as often the
terse one (a subtitle-style paraphrase) as the line.  With the source at
hand the source's length tells which: its length in tokens is compared
against both, scaled by the document's own target/source length ratio.
"""

from __future__ import annotations

from typing import Optional

from . import Finding, finding


def _num(x: float) -> str:
    return f"{x:g}"


def length_issue(
    hyp_len: int,
    ref_len: int,
    min_ratio: float,
    max_ratio: float,
    src_len: Optional[int] = None,
    src_scale: float = 1.0,
) -> Optional[Finding]:
    """An issue when hyp_len / ref_len is outside [min_ratio, max_ratio].

    ``src_len`` (the source line's tokens) and ``src_scale`` (the document's
    reference/source token ratio) let the message say which side is out of
    line with the source; without them it blames neither.
    """
    if ref_len <= 0 or hyp_len <= 0:
        return None
    ratio = hyp_len / ref_len
    if min_ratio <= ratio <= max_ratio:
        return None
    shorter = "this line" if ratio < 1 else "the reference"
    text = (
        f"This line has {hyp_len} tokens and its reference {ref_len} (ratio {ratio:.2f}, "
        f"usual {_num(min_ratio)} to {_num(max_ratio)}): one of the two leaves something out or adds something"
    )
    if src_len:
        expected = src_len * src_scale
        off_hyp = abs(hyp_len - expected) / expected
        off_ref = abs(ref_len - expected) / expected
        if off_hyp > 2 * off_ref:
            text += "; the source's length is closer to the reference's, so look at this line"
        elif off_ref > 2 * off_hyp:
            text += "; this line's length is closer to the source's, so the reference may be the one that differs"
    data = {"hypothesisTokens": hyp_len, "referenceTokens": ref_len, "ratio": ratio, "shorter": shorter}
    return finding("length-ratio", text + ".", 0, None, data)
