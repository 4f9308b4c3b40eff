"""How the effort against the draft and the paired test look in the editor:
the hover's draft section, the lens parts and tooltip, the ``effort`` record
of ``bleuLs/corpusScore``, the optional HTER hint label."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

from ...postedit import word_diff

if TYPE_CHECKING:
    from ..roles import PairRole as Pair  # what it uses of a pair

#: at most this many characters of word diff in a hover
MAX_DIFF_CHARS = 2000


def _num(x: Optional[float], digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def _esc(text: str) -> str:
    for ch in "\\`*_~[]":
        text = text.replace(ch, "\\" + ch)
    return text


def diff_markdown(draft_line: str, line: str) -> str:
    """The word diff as Markdown: ~~deleted~~ **inserted**, the rest plain."""
    out = []
    for op, text in word_diff(draft_line, line):
        t = _esc(text)
        out.append(t if op == "=" else f"~~{t}~~" if op == "-" else f"**{t}**")
    text = " ".join(out)
    return text if len(text) <= MAX_DIFF_CHARS else text[:MAX_DIFF_CHARS] + " …"


def effort_hover(pair: "Pair", i: int) -> Optional[str]:
    """The hover's draft section of line ``i`` (None: the file has no draft and no draft problem)."""
    if pair.draft is None or pair.effort is None:
        if pair.draft_problem:
            return f"**Draft:** {pair.draft_problem}" + (f" — {pair.draft_detail}" if pair.draft_detail else "")
        return None
    effort = pair.effort
    if 0 <= i < len(effort.lines) and not effort.fresh[i] and effort.heavy(i):
        return None  # counted in the background: the hint gains its HTER part when it is there
    rec = effort.line(i)
    if rec is None:
        return None
    draft_line = pair.draft.draft_line(i)
    if draft_line is not None and i not in effort.too_long and draft_line == effort.lines[i]:
        # nothing about the draft until the line was edited
        return f"_{pair.draft_problem}_" if pair.draft_problem else None
    edits = (
        f"{rec['num_edits']} edits: {rec['insertions']} ins, {rec['deletions']} del, "
        f"{rec['substitutions']} sub, {rec['shifts']} shifts · {rec['ref_length']:g} words"
    )
    parts = [f"**HTER {_num(rec['score'])}** vs draft ({edits})"]
    if i in pair.effort.too_long:
        parts = ["_Too long to align with its draft while you edit (over 2,000 words): no HTER for this line._"]
    if draft_line is None:
        parts.append("_New line: it has no draft line (inserted after the draft was taken)._")
    elif i in pair.effort.too_long:
        pass
    else:
        parts.append(f"**Draft:** {_esc(draft_line) if draft_line.strip() else '_(empty)_'}")
        parts.append(f"**Changes:** {diff_markdown(draft_line, pair.effort.lines[i])}")
    if pair.draft_problem:
        parts.append(f"_{pair.draft_problem}_")
    return "\n\n".join(parts)


def effort_lens(pair: "Pair") -> Optional[str]:
    """``HTER 18.4 · 112 lines edited`` (or the draft's problem in a word)."""
    if pair.effort is None:
        return f"draft: {pair.draft_problem.split(': ', 1)[-1]}" if pair.draft_problem else None
    c = pair.effort.corpus()
    if c["pending"]:
        return f"HTER … ({c['pending']:,} lines to count)"
    n = c["linesEdited"]
    if n == 0 and pair.model is not None:
        return None  # beside the scores, the effort shows once a line was edited
    return f"HTER {_num(c['score'], 1)} · {n:,} {'line' if n == 1 else 'lines'} edited"


def effort_tooltip(pair: "Pair") -> list[str]:
    """Signature lines, the draft's origin and the tests' intervals for the lens tooltip."""
    out = []
    for key in pair.paired:
        tests = tests_for(pair, key)
        ci = tests.get("confidence")
        if ci and ci.get("ci") is not None:
            out.append(f"{key}: {_num(ci['score'])} ± {_num(ci['ci'])} (95% bootstrap interval, mean {_num(ci['mean'])})")
        paired = tests.get("paired")
        if paired:
            b = paired["baseline"]
            out.append(
                f"{key} draft: {_num(b['score'])} (mean {_num(b['mean'])} ± {_num(b['ci'])}); "
                f"p = {paired['system']['p_value']:.4f}, paired bootstrap, {paired['resamples']} resamples"
            )
    if pair.effort is not None:
        out.append(pair.effort.corpus()["signature"])
        where = (pair.draft_path.name if pair.draft_origin == "file" and pair.draft_path
                 else f"the file at {pair.draft_revision} (git)" if pair.draft_origin == "git" else "kept in the cache")
        out.append(f"draft: {where}")
    if pair.draft_problem:
        out.append(f"draft: {pair.draft_detail or pair.draft_problem}")
    return out


def tests_for(pair: "Pair", key: str) -> dict[str, Any]:
    """The latest tests of metric ``key`` if they were run on the current text."""
    if pair.model is None or pair.paired_version != pair.model.version:
        return {}
    return pair.paired.get(key, {})


def paired_note(pair: "Pair", key: str) -> str:
    """`` (Δ +0.84 vs draft, p = 0.03)`` once the paired test has run on the
    current text (nothing while no line differs from the draft)."""
    paired = tests_for(pair, key).get("paired")
    if not paired or pair.draft is None or not pair.draft.edited_count():
        return ""
    return f" (Δ {paired['delta']:+.2f} vs draft, p = {paired['system']['p_value']:.4f})"


def effort_record(pair: "Pair") -> dict[str, Any]:
    """The ``effort`` entry of ``bleuLs/corpusScore`` (and the draft's state)."""
    draft: dict[str, Any] = {
        "origin": pair.draft_origin if pair.draft is not None else None,
        "path": str(pair.draft_path) if pair.draft_path is not None else None,
        "revision": pair.draft_revision if pair.draft_origin == "git" else None,
        "problem": pair.draft_problem,
    }
    if pair.effort is None:
        return {"effort": None, "draft": draft}
    return {"effort": pair.effort.corpus(), "draft": draft}


def hter_label(pair: "Pair", i: int, template: str, default: str) -> Optional[str]:
    """The optional HTER part of a hint label."""
    if pair.effort is None:
        return None
    effort = pair.effort
    if 0 <= i < len(effort.lines) and not effort.fresh[i] and effort.heavy(i):
        return None  # counted in the background: the hint gains its HTER part when it is there
    rec = effort.line(i)
    if rec is None:
        return None
    try:
        return template.format(hter=rec["score"])
    except Exception:  # a bad template in the settings
        return default.format(hter=rec["score"])
