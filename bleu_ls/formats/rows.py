"""What the commands print about segments: a row's key and line, and who went unpaired."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .match import Alignment
from .model import SegmentDocument

#: Keys longer than this are cut in the text output (the JSON has them whole).
KEY_WIDTH = 40


def show_key(key: str, width: int = KEY_WIDTH) -> str:
    """A key for a line of text: a PO context shown as ``context|msgid``, line breaks as ``⏎``, cut at ``width``."""
    k = key.replace("\x04", "|").replace("\n", "⏎")
    return k if len(k) <= width else k[: width - 1] + "…"


@dataclass
class SegmentRows:
    """The scored rows of a segment file, in file order, and the segments not scored."""

    keys: list[str]
    #: 1-based line of each row's target start in the hypothesis file.
    lines: list[int]
    #: Hypothesis segments without a partner in some other file: (key, line).
    unpaired_hyp: list[tuple[str, int]]
    #: Other files' segments without a hypothesis partner: (file, key, line).
    unpaired_other: list[tuple[str, str, int]]
    #: Segments paired everywhere whose target is empty on some side: (key, line).
    empty: list[tuple[str, int]]

    def record(self, r: int) -> dict[str, Any]:
        return {"key": self.keys[r], "line": self.lines[r]}

    def unpaired_json(self) -> dict[str, Any]:
        return {
            "hypothesis": [{"key": k, "line": ln} for k, ln in self.unpaired_hyp],
            "references": [{"file": f, "key": k, "line": ln} for f, k, ln in self.unpaired_other],
            "empty": [{"key": k, "line": ln} for k, ln in self.empty],
        }

    def text_lines(self, hyp_name: str = "hypothesis", other_role: str = "reference") -> list[str]:
        """Sentences for the text output: counts and the first keys of what was not scored."""
        out = []

        def names(items: Sequence[tuple], show: int = 5) -> str:
            shown = ", ".join(f"{show_key(it[-2])!r} (line {it[-1]})" for it in items[:show])
            return shown + (f", … {len(items) - show} more" if len(items) > show else "")

        if self.unpaired_hyp:
            n = len(self.unpaired_hyp)
            out.append(f"{n} {hyp_name} segment{'s' if n > 1 else ''} without a {other_role} partner, not scored: "
                       f"{names(self.unpaired_hyp)}")
        by_file: dict[str, list[tuple[str, str, int]]] = {}
        for it in self.unpaired_other:
            by_file.setdefault(it[0], []).append(it)
        for f, items in by_file.items():
            n = len(items)
            out.append(f"{n} segment{'s' if n > 1 else ''} of {f} without a {hyp_name} partner: {names(items)}")
        if self.empty:
            n = len(self.empty)
            out.append(f"{n} paired segment{'s' if n > 1 else ''} with an empty target on one side, not scored: "
                       f"{names(self.empty)}")
        return out


def segment_rows(hyp: SegmentDocument, others: Sequence[SegmentDocument], names: Sequence[str],
                 al: Alignment) -> SegmentRows:
    """The rows and the unpaired of ``al`` (``names``: the other documents' paths)."""
    segs = hyp.segments
    unpaired_other = [
        (name, doc.segments[j].key, doc.segments[j].line + 1)
        for name, doc, p in zip(names, others, al.pairings)
        for j in p.unpaired_ref
    ]
    return SegmentRows(
        keys=["+".join(segs[i].key for i in group) for group in al.members],
        lines=[segs[i].line + 1 for i in al.rows],
        unpaired_hyp=[(segs[i].key, segs[i].line + 1) for i in al.unpaired_hyp()],
        unpaired_other=unpaired_other,
        empty=[(segs[i].key, segs[i].line + 1) for i in al.empty],
    )
