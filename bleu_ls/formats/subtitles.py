"""SubRip (``.srt``) and WebVTT (``.vtt``) files read into segments, one per cue.

Both readers work on the decoded text and keep exact positions: a cue's
``target_span`` runs from the start of its first text line to the end of its
last, ``line`` is the first text line, and ``runs`` map every character of the
scored text back to the file.  The scored text of a cue is its text lines with
markup removed (SRT: ``<i>``, ``<b>``, ``<u>``, ``<font …>``, ``{\\an8}``-style
overrides; WebVTT: every cue tag, the speaker of ``<v …>``, ruby annotations
``<rt>…</rt>`` and inline timestamps), WebVTT character references decoded, and
the lines joined by one space.

Keys: SRT, the cue's number as written (``"12"``); WebVTT, the cue identifier
when it has one, else ``"#n"`` for the n-th cue (1-based).  A key seen before in
the same file gets ``"~2"``, ``"~3"``… so keys stay unique.

Nothing here raises on bad content: a block that is not a cue (a missing or
malformed timing line) is a :func:`~bleu_ls.formats.finding.problem` (code ``timecode``) and is
skipped; the cues around it are read.
"""

from __future__ import annotations

import html
import re
from typing import Iterator, Optional

from .finding import TIMECODE, Finding, problem
from .model import SRT, VTT, Run, Segment, SegmentDocument

# SubRip: HH:MM:SS,mmm (a period is accepted for the comma, as players do).
_SRT_TIME = r"(\d{1,3}):(\d{1,2}):(\d{1,2})[,.](\d{1,3})"
_SRT_TIMING = re.compile(rf"^\s*{_SRT_TIME}\s*-->\s*{_SRT_TIME}(.*)$")
# WebVTT: [HH:]MM:SS.mmm, exactly as the specification writes it.
_VTT_TIME = r"(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})"
_VTT_TIMING = re.compile(rf"^{_VTT_TIME}[ \t]+-->[ \t]+{_VTT_TIME}(.*)$")
_INDEX = re.compile(r"^\s*\d+\s*$")

# Pieces of a cue text line: a tag, a character reference, an ASS override, or text.
_SRT_PIECES = re.compile(r"<[^<>\n]*>|\{\\[^{}\n]*\}|[^<{]+|[<{]")
_VTT_PIECES = re.compile(r"<[^<>\n]*>|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);|[^<&]+|[<&]")


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(offset, line without its line end) for every line of ``text``."""
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        line = text[pos:end]
        if line.endswith("\r"):
            line = line[:-1]
        yield pos, line
        if nl < 0:
            return
        pos = nl + 1


def _blocks(text: str) -> Iterator[list[tuple[int, int, str]]]:
    """Blocks of (line number, offset, line) separated by blank lines."""
    block: list[tuple[int, int, str]] = []
    for ln, (off, line) in enumerate(_lines(text)):
        if line.strip():
            block.append((ln, off, line))
        elif block:
            yield block
            block = []
    if block:
        yield block


def _ms(h: Optional[str], m: str, s: str, frac: str) -> int:
    return ((int(h or 0) * 60 + int(m)) * 60 + int(s)) * 1000 + int(frac.ljust(3, "0")[:3])


class _Keys:
    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def unique(self, key: str) -> str:
        n = self.seen.get(key, 0) + 1
        self.seen[key] = n
        return key if n == 1 else f"{key}~{n}"


def line_text(off: int, line: str, vtt: bool) -> tuple[str, list[Run]]:
    """One text line's scored text (markup removed, references decoded, ends stripped) and runs."""
    parts: list[str] = []
    runs: list[Run] = []
    length = 0
    in_rt = 0
    for m in (_VTT_PIECES if vtt else _SRT_PIECES).finditer(line):
        piece = m.group()
        if piece.startswith("<") and len(piece) > 1:
            if vtt:
                inner = piece[1:-1].lstrip("/").split(None, 1)
                name = inner[0].split(".", 1)[0] if inner else ""
                if name == "rt":
                    in_rt += -1 if piece.startswith("</") else 1
            continue
        if piece.startswith("{\\") or in_rt > 0:
            continue
        if vtt and piece.startswith("&") and len(piece) > 1:
            decoded = html.unescape(piece)
            parts.append(decoded)
            length += len(decoded)
            continue
        runs.append(Run(length, off + m.start(), len(piece)))
        parts.append(piece)
        length += len(piece)
    text = "".join(parts)
    lead = len(text) - len(text.lstrip())
    text = text.strip()
    out: list[Run] = []
    for r in runs:
        a, b = max(r.text_start, lead), min(r.text_start + r.length, lead + len(text))
        if a < b:
            out.append(Run(a - lead, r.file_start + (a - r.text_start), b - a))
    return text, out


def _scored(lines: list[tuple[int, int, str]], vtt: bool) -> tuple[str, tuple[Run, ...]]:
    """The scored text of a cue's text lines (joined by one space) and the runs back into the file."""
    texts: list[str] = []
    runs: list[Run] = []
    length = 0
    for _ln, off, line in lines:
        text, line_runs = line_text(off, line, vtt)
        if not text:
            continue
        if texts:
            length += 1
        runs.extend(Run(r.text_start + length, r.file_start, r.length) for r in line_runs)
        texts.append(text)
        length += len(text)
    return " ".join(texts), tuple(runs)


def _cue(
    doc_format: str,
    key: str,
    index: Optional[str],
    timing: re.Match,
    text_lines: list[tuple[int, int, str]],
    after_timing: int,
    timing_line: int,
) -> Segment:
    g = timing.groups()
    vtt = doc_format == VTT
    if vtt:
        start, end = _ms(*g[0:4]), _ms(*g[4:8])
    else:
        start, end = _ms(g[0], g[1], g[2], g[3]), _ms(g[4], g[5], g[6], g[7])
    settings = g[8].strip()
    text, runs = _scored(text_lines, vtt)
    if text_lines:
        first_ln, first_off, _ = text_lines[0]
        _, last_off, last = text_lines[-1]
        span = (first_off, last_off + len(last))
        line = first_ln
    else:
        span = (after_timing, after_timing)
        line = timing_line + 1
    extra = {
        "start_ms": start,
        "end_ms": end,
        "settings": settings,
        "text_lines": tuple(t for _, _, t in text_lines),
        "timing_line": timing_line,
    }
    if index is not None:
        extra["index"] = index
    return Segment(key=key, target=text, target_span=span, line=line, runs=runs, extra=extra)


def _not_timing(ln: int, off: int, line: str, what: str) -> Finding:
    """The problem of a cue whose line ``ln`` (at ``off``) is not the timing line
    it should be (``what``: the form expected)."""
    col = len(line) - len(line.lstrip())
    return problem(off + col, ln, col, f"expected {what}, found {line.strip()[:40]!r}", TIMECODE)


def _line_end(text: str, off: int, line: str) -> int:
    """Offset just after ``line`` (which starts at ``off``) and its line end."""
    end = off + len(line)
    if text.startswith("\r\n", end):
        return end + 2
    if text.startswith("\n", end):
        return end + 1
    return end


def read_srt(text: str, max_segments: Optional[int] = None) -> SegmentDocument:
    """A SubRip file (decoded text) as segments, one per cue; with ``max_segments``, its
    first that many cues only (each as the whole read gives it: a block is read once
    the blank line after it is, and the rest of the text is not looked at)."""
    if text.startswith("\ufeff"):
        text = " " + text[1:]  # keep offsets: the BOM becomes a blank the reader ignores
    segments: list[Segment] = []
    problems: list[Finding] = []
    keys = _Keys()
    ordinal = 0
    for block in _blocks(text):
        ln0, off0, first = block[0]
        index: Optional[str] = None
        rest = block
        if _INDEX.match(first) and len(block) > 1:
            index = first.strip()
            rest = block[1:]
        t_ln, t_off, t_line = rest[0]
        timing = _SRT_TIMING.match(t_line)
        if timing is None:
            problems.append(_not_timing(t_ln, t_off, t_line, "a timing line (00:00:01,000 --> 00:00:02,500)"))
            continue
        ordinal += 1
        key = keys.unique(index if index is not None else f"#{ordinal}")
        body = rest[1:]
        segments.append(_cue(SRT, key, index, timing, body, _line_end(text, t_off, t_line), t_ln))
        if max_segments is not None and len(segments) >= max_segments:
            break
    return SegmentDocument(format=SRT, segments=segments, problems=problems)


def read_vtt(text: str, max_segments: Optional[int] = None) -> SegmentDocument:
    """A WebVTT file (decoded text) as segments, one per cue (NOTE, STYLE and REGION blocks
    skipped); ``max_segments`` as :func:`read_srt` says."""
    if text.startswith("\ufeff"):
        text = " " + text[1:]
    segments: list[Segment] = []
    problems: list[Finding] = []
    keys = _Keys()
    header: dict[str, str] = {}
    ordinal = 0
    first_block = True
    for block in _blocks(text):
        ln0, off0, first = block[0]
        if first_block:
            first_block = False
            sig = first.lstrip(" ")
            if not (sig == "WEBVTT" or sig.startswith("WEBVTT ") or sig.startswith("WEBVTT\t")):
                problems.append(problem(off0, ln0, 0, "a WebVTT file starts with the line WEBVTT", TIMECODE))
            else:
                header["WEBVTT"] = sig[6:].strip()
                continue
        word = first.split(None, 1)[0] if first.strip() else ""
        if word in ("NOTE", "STYLE", "REGION") and "-->" not in first:
            continue
        cue_id: Optional[str] = None
        rest = block
        if "-->" not in first and len(block) > 1:
            cue_id = first.strip()
            rest = block[1:]
        t_ln, t_off, t_line = rest[0]
        timing = _VTT_TIMING.match(t_line.strip())
        if timing is None:
            problems.append(_not_timing(t_ln, t_off, t_line, "a timing line ([hh:]mm:ss.ttt --> [hh:]mm:ss.ttt)"))
            continue
        ordinal += 1
        key = keys.unique(cue_id if cue_id else f"#{ordinal}")
        segments.append(_cue(VTT, key, cue_id, timing, rest[1:], _line_end(text, t_off, t_line), t_ln))
        if max_segments is not None and len(segments) >= max_segments:
            break
    return SegmentDocument(format=VTT, segments=segments, header=header, problems=problems)


# -- pairing by time ------------------------------------------------------------


def _interval(seg: Segment) -> tuple[int, int]:
    return int(seg.extra["start_ms"]), int(seg.extra["end_ms"])  # type: ignore[call-overload]


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


#: Two cues belong together when they share at least this share of the shorter one's time.
OVERLAP_SHARE = 0.5
#: Offsets tried when the two timings are shifted against each other (±, ms).
MAX_OFFSET_MS = 300_000


def estimate_offset(hyp: list[Segment], ref: list[Segment], max_offset_ms: int = MAX_OFFSET_MS) -> int:
    """The constant shift (ms, added to the hypothesis' times) that makes the cues overlap most.

    Candidate shifts are the differences of start times of cue pairs within
    ``max_offset_ms`` of each other, rounded to 40 ms; the best is the one whose
    total overlap is largest, and it is kept only when it beats no shift by 20 %.
    """
    hi = [_interval(s) for s in hyp]
    ri = [_interval(s) for s in ref]
    if not hi or not ri:
        return 0
    votes: dict[int, int] = {}
    ref_starts = sorted(r[0] for r in ri)
    import bisect

    step = max(1, len(hi) // 400)
    for h in hi[::step]:
        lo = bisect.bisect_left(ref_starts, h[0] - max_offset_ms)
        up = bisect.bisect_right(ref_starts, h[0] + max_offset_ms)
        for r0 in ref_starts[lo:up]:
            d = round((r0 - h[0]) / 40) * 40
            votes[d] = votes.get(d, 0) + 1
    candidates = sorted(votes, key=lambda d: (-votes[d], abs(d)))[:25]

    sample = hi[::step]

    def total(shift: int) -> int:
        return sum(o for _, _, o in _overlaps([(a + shift, b + shift) for a, b in sample], ri))

    base = total(0)
    best, best_total = 0, base
    for d in candidates:
        t = total(d)
        if t > best_total:
            best, best_total = d, t
    return best if best_total > base * 1.2 else 0


def _overlaps(hi: list[tuple[int, int]], ri: list[tuple[int, int]]) -> Iterator[tuple[int, int, int]]:
    """(i, j, overlap ms) for every hypothesis/reference cue pair that overlaps (a sweep)."""
    order_r = sorted(range(len(ri)), key=lambda j: ri[j][0])
    starts = [ri[j][0] for j in order_r]
    import bisect

    longest = max((b - a for a, b in ri), default=0)
    for i, h in enumerate(hi):
        lo = bisect.bisect_left(starts, h[0] - longest)
        for k in range(lo, len(order_r)):
            j = order_r[k]
            r = ri[j]
            if r[0] >= h[1]:
                break
            o = _overlap(h, r)
            if o > 0:
                yield i, j, o


def match_by_time(
    hyp: list[Segment], ref: list[Segment], offset_ms: Optional[int] = None
) -> list[tuple[list[int], list[int]]]:
    """Groups of hypothesis cues and the reference cues that cover the same time.

    Two cues are linked when they overlap by at least ``OVERLAP_SHARE`` of the
    shorter one's duration (after shifting the hypothesis by ``offset_ms``,
    estimated when None).  A group is a connected set of links: one cue
    against one (the common case), one against several (a cue the other
    timing split), several against one (merged), or several against several.
    Cues linked to nothing form groups with an empty other side.  Groups come
    in the hypothesis' file order (reference-only groups after).
    """
    if offset_ms is None:
        offset_ms = estimate_offset(hyp, ref)
    hi = [(a + offset_ms, b + offset_ms) for a, b in (_interval(s) for s in hyp)]
    ri = [_interval(s) for s in ref]
    parent = list(range(len(hi) + len(ri)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, o in _overlaps(hi, ri):
        shorter = min(hi[i][1] - hi[i][0], ri[j][1] - ri[j][0])
        if shorter <= 0 or o >= OVERLAP_SHARE * shorter:
            a, b = find(i), find(len(hi) + j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, tuple[list[int], list[int]]] = {}
    order: list[int] = []
    for i in range(len(hi)):
        root = find(i)
        if root not in groups:
            groups[root] = ([], [])
            order.append(root)
        groups[root][0].append(i)
    for j in range(len(ri)):
        root = find(len(hi) + j)
        if root not in groups:
            groups[root] = ([], [])
            order.append(root)
        groups[root][1].append(j)
    return [groups[r] for r in order]
