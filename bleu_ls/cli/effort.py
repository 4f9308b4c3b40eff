"""``bleu-ls effort DRAFT POSTEDIT``: how much the post-editor changed the MT draft.

HTER is TER with the draft line as the hypothesis and the post-edited line as
the reference: the word edits (insertions, deletions, substitutions, block
shifts) that turn the draft into the final text, per word of the final text.
Case-sensitive by default (a changed capital is an edit).  The numbers are
sacrebleu 2.6's ``TER(case_sensitive=True)`` of the draft against the
post-edit; the edit kinds come from the same alignment.  Segment files (PO,
XLIFF…) pair the draft's segments with the post-edit's by key.

``bleu-ls effort --draft-rev REV FILE`` takes the draft from git: ``FILE`` as it
was at revision ``REV`` (read-only, :mod:`bleu_ls.postedit.revision`) against
``FILE`` as it is now, e.g. the MT commit of a translation pull request against
its head.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional, Sequence

from ..engine import InputError
from ..formats.rows import SegmentRows
from ..engine.ter import TerMetric
from ..engine.ter_batch import corpus_of_alignments, ter_alignments
from ..engine.ter_core import TerResult
from ..postedit.revision import Revision, RevisionError, read_at
from .inputs import LineCounts, read_inputs
from .metric_args import UsageError, add_jobs_argument, check_jobs
from .output import Chunked

KINDS = ("insertions", "deletions", "substitutions", "shifts")

#: what a post-edit with another line count than its draft is told
LINE_COUNTS = LineCounts("the post-edit must have one line per draft line")


def _materialise(revision: Revision, tmp: Path) -> Path:
    """The revision's bytes written under ``tmp`` at the file's path in the repository (its
    folders and name decide its format as the work tree's file's do)."""
    target = tmp.joinpath(*revision.path.split("/"))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(revision.data)
    return target


def _tsv_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\x04", "\\x04").replace("\t", "\\t").replace("\n", "\\n")


def _line(i: int, draft: str, post: str, r: TerResult) -> dict[str, Any]:
    return {
        "line": i + 1,
        "score": TerMetric._value(r.edits, float(r.ref_len)),
        "num_edits": r.edits,
        "ref_length": float(r.ref_len),
        **{k: getattr(r, k) for k in KINDS},
        "edited": draft.rstrip() != post.rstrip(),
    }


def effort_report(
    metric: TerMetric, draft: list[str], post: list[str], workers: Optional[int] = None, segments: Optional[SegmentRows] = None
) -> dict[str, Any]:
    """Per-line and corpus HTER with edit counts, as one JSON-ready record.

    ``segments``: the lines are segments of a PO / XLIFF / … file; each record
    carries the segment's key and the line of its target in the draft."""
    results = ter_alignments(metric, draft, [post], workers=workers)
    lines = [_line(i, d, p, r) for i, (d, p, r) in enumerate(zip(draft, post, results))]
    if segments is not None:
        lines = [{**segments.record(i), **{k: v for k, v in rec.items() if k != "line"}} for i, rec in enumerate(lines)]
    corpus = corpus_of_alignments(metric, results)
    edited = sum(1 for rec in lines if rec["edited"])
    return {
        "metric": "HTER",
        "signature": metric.signature(1),
        "corpus": {
            **corpus.as_dict(),
            **{k: sum(getattr(r, k) for r in results) for k in KINDS},
            "lines": len(lines),
            "lines_edited": edited,
        },
        "lines": lines,
        **({"unpaired": segments.unpaired_json()} if segments is not None else {}),
    }


def _text(report: dict[str, Any], out) -> None:
    lines = report["lines"]
    width = max(4, len(str(len(lines))))
    out.write(f"{'line':>{width}}  {'HTER':>7}  {'edits':>5}  {'ins':>4}  {'del':>4}  {'sub':>4}  {'shift':>5}\n")
    for rec in lines:
        out.write(
            f"{rec['line']:>{width}}  {rec['score']:7.2f}  {rec['num_edits']:5d}  {rec['insertions']:4d}  "
            f"{rec['deletions']:4d}  {rec['substitutions']:4d}  {rec['shifts']:5d}\n"
        )
    c = report["corpus"]
    out.write("\n")
    for sentence in report.get("_notes", ()):
        out.write(sentence + "\n")
    out.write(
        f"HTER = {c['score']:.2f} ({c['num_edits']} edits / {c['ref_length']:g} post-edited words: "
        f"{c['insertions']} ins, {c['deletions']} del, {c['substitutions']} sub, {c['shifts']} shifts; "
        f"{c['lines_edited']} of {c['lines']} lines edited)  {report['signature']}\n"
    )


def _tsv(report: dict[str, Any], out) -> None:
    keyed = "unpaired" in report
    cols = ["line", *(["key"] if keyed else []), "hter", "num_edits", "ref_length", *KINDS, "edited"]
    out.write("\t".join(cols) + "\n")
    for rec in [*report["lines"], {**report["corpus"], "line": "corpus", "edited": report["corpus"]["lines_edited"]}]:
        vals = [rec["line"], *([_tsv_cell(rec.get("key", ""))] if keyed else []), repr(rec["score"]),
                rec["num_edits"], repr(rec["ref_length"])]
        vals += [rec[k] for k in KINDS] + [int(rec["edited"])]
        out.write("\t".join(str(v) for v in vals) + "\n")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleu-ls effort",
        description="Post-editing effort: HTER (TER of the MT draft against its post-edit) per line and "
        "for the file, with word insertions, deletions, substitutions and shifts.",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="DRAFT POSTEDIT: the machine-translation draft and its post-edit (line-aligned, "
                   "or segment files paired by key); with --draft-rev, the post-edit alone")
    p.add_argument("--draft-rev", metavar="REV", default=None,
                   help="take the draft from git: the post-edit file as it was at revision REV "
                   "(HEAD, main, a commit id…), read-only")
    p.add_argument("--format", "-f", choices=("text", "json", "tsv"), default="text", help="output format")
    p.add_argument("--case-insensitive", action="store_true", help="lowercase both sides first (TER's default)")
    p.add_argument("--ter-normalized", action="store_true", help="tercom's normalization")
    p.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    p.add_argument("--ter-asian-support", action="store_true", help="split CJK characters")
    add_jobs_argument(p)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    want = 1 if args.draft_rev is not None else 2
    try:
        if len(args.files) != want:
            what = "the post-edit file alone with --draft-rev" if want == 1 else "a draft and a post-edit file"
            raise UsageError(f"give {what}")
        workers = check_jobs(args)
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        print(f"bleu-ls effort: error: {exc}", file=sys.stderr)
        return 2
    revision: Optional[Revision] = None
    with tempfile.TemporaryDirectory(prefix="bleu-ls-draft-") as tmp:
        try:
            if args.draft_rev is not None:
                post = args.files[0]
                if not Path(post).is_file():
                    raise InputError(f"{post}: not found" if not Path(post).exists() else f"{post}: not a file")
                revision = read_at(Path(post), args.draft_rev)
                draft_path = _materialise(revision, Path(tmp))
                shown = f"{post} at {revision.label}"
                try:
                    inputs = read_inputs([str(draft_path), post], LINE_COUNTS)
                except InputError as exc:
                    raise InputError(str(exc).replace(str(draft_path), shown)) from None
            else:
                inputs = read_inputs(args.files, LINE_COUNTS)  # segments are paired by key
        except (InputError, RevisionError) as exc:
            print(f"bleu-ls effort: error: {exc}", file=sys.stderr)
            return 2
    rows = inputs.rows
    draft, post = inputs.texts
    metric = TerMetric(
        normalized=args.ter_normalized,
        no_punct=args.ter_no_punct,
        asian_support=args.ter_asian_support,
        case_sensitive=not args.case_insensitive,
    )
    report = effort_report(metric, draft, post, workers, segments=rows)
    if revision is not None:
        report["draft"] = {"revision": revision.rev, "commit": revision.commit, "path": revision.path}
    try:
        out = Chunked(sys.stdout)
        if args.format == "json":
            json.dump(report, out, ensure_ascii=False, indent=1)
            out.write("\n")
        else:
            notes = rows.text_lines("draft", "post-edit") if rows is not None else []
            if revision is not None:
                notes = [f"draft: {revision.path} at {revision.label}", *notes]
            (_text if args.format == "text" else _tsv)({**report, "_notes": notes}, out)
        out.flush()
    except BrokenPipeError:
        return 0
    return 0
