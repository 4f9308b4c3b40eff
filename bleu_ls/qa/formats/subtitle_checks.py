"""The checks a subtitler expects, on the cues of an SRT or WebVTT file.

The defaults are those of Netflix's Timed Text Style Guide (general
requirements, and the English (USA) guide for reading speed): at most 42
characters per line and 2 lines per cue, at most 20 characters per second for
adult programmes, a cue on screen at least 5/6 of a second (833 ms) and at most
7 seconds, and 2 frames between cues (83 ms at 24 fps).  Characters are
counted on the cue's text as shown: markup removed, spaces and punctuation
included, line breaks not.

Each check is a code of its own (a row of the rule table, ``bleu_ls/qa/rules.py``),
so a project can switch one off or change its limit (``SubtitleLimits``, a part
of the settings: ``bleu_ls/config/diagnostics.py``) without the others.
"""

from __future__ import annotations

from typing import Optional

from ...config.diagnostics import SubtitleLimits
from ...formats.finding import TIMECODE
from ...formats.model import Segment, SegmentDocument
from ...formats.subtitles import VTT, line_text
from ..findings import Finding
from ..rules import SUBTITLES, default_severities

#: code -> default severity (the rule table's rows ``by`` SUBTITLES: ``timecode``, a block
#: whose timing line cannot be read; ``cue-order``, a cue starting before the one above it…)
CODES = default_severities(SUBTITLES)


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".") + " s"


#: the limits of a project that changes none
DEFAULT_LIMITS = SubtitleLimits()


def check_cues(doc: SegmentDocument, limits: SubtitleLimits = DEFAULT_LIMITS, text: Optional[str] = None) -> list[Finding]:
    """Every finding on ``doc``'s cues, in file order, each with its cue's ``key`` (None: the
    reader's problems) and its ``span``, [start, end) in the decoded file text.

    ``text`` (the decoded file) lets the line spans step over CRLF line ends
    exactly; without it a line end is taken as one character.
    """
    found: list[Finding] = []
    for p in doc.problems:
        found.append(Finding(TIMECODE, CODES[TIMECODE], p.message, (p.offset, p.offset)))
    previous: Optional[Segment] = None
    for seg in doc.segments:
        start, end = int(seg.extra["start_ms"]), int(seg.extra["end_ms"])  # type: ignore[call-overload]
        span = seg.target_span if seg.target_span[1] > seg.target_span[0] else (seg.target_span[0], seg.target_span[0])

        def add(code: str, message: str, where: tuple[int, int] = span) -> None:
            found.append(Finding(code, CODES[code], message, where, key=seg.key))

        duration = end - start
        if duration <= 0:
            add("end-before-start", f"The cue ends ({_seconds(end)}) before or when it starts ({_seconds(start)}).")
        else:
            if duration < limits.min_duration_ms:
                add("duration-short", f"On screen {_seconds(duration)}, under the {_seconds(limits.min_duration_ms)} a viewer needs.")
            if duration > limits.max_duration_ms:
                add("duration-long", f"On screen {_seconds(duration)}, over {_seconds(limits.max_duration_ms)}.")
        lines = shown_lines(doc.format, seg, text)
        if len(lines) > limits.max_lines:
            add("lines-per-cue", f"{len(lines)} lines; at most {limits.max_lines} fit on screen.")
        for shown, where in lines:
            if len(shown) > limits.max_chars_per_line:
                add("chars-per-line", f"{len(shown)} characters on this line; at most {limits.max_chars_per_line}.", where)
        chars = sum(len(s) for s, _ in lines)
        if duration > 0 and chars:
            cps = chars * 1000 / duration
            if cps > limits.max_cps:
                add(
                    "reading-speed",
                    f"{cps:.1f} characters per second ({chars} in {_seconds(duration)}); at most {limits.max_cps:g} can be read.",
                )
        if previous is not None:
            p_start, p_end = int(previous.extra["start_ms"]), int(previous.extra["end_ms"])  # type: ignore[call-overload]
            if start < p_start:
                add("cue-order", f"Starts at {_seconds(start)}, before the cue above it ({previous.key}, {_seconds(p_start)}).")
            elif start < p_end:
                add("cue-overlap", f"Starts at {_seconds(start)}, while cue {previous.key} is still on screen (until {_seconds(p_end)}).")
            elif start - p_end < limits.min_gap_ms:
                add("cue-gap", f"{start - p_end} ms after cue {previous.key}; leave at least {limits.min_gap_ms} ms between cues.")
        previous = seg
    return found


def shown_lines(doc_format: str, seg: Segment, text: Optional[str] = None) -> list[tuple[str, tuple[int, int]]]:
    """The cue's lines as shown (markup removed), each with its span in the file; blank ones left out."""
    vtt = doc_format == VTT
    out = []
    offset = seg.target_span[0]
    for raw in seg.extra.get("text_lines", ()):  # type: ignore[attr-defined]
        shown, _runs = line_text(offset, raw, vtt)
        if shown:
            out.append((shown, (offset, offset + len(raw))))
        offset += len(raw)
        if text is not None and text.startswith("\r\n", offset):
            offset += 2
        else:
            offset += 1
    return out
