"""``bleu-ls check``: check one hypothesis file — pair it, lay the pair's
options over the settings (:mod:`bleu_ls.config.pair_options`, as the server does),
score it, run the rules."""

from __future__ import annotations

import dataclasses
from itertools import accumulate
from pathlib import Path
from typing import Any, Optional, Sequence


from ...qa.analysis import Analyzer, unpaired_findings
from ...qa.analysis.unreferenced import segment_languages, Unreferenced, segment_lines
from ...engine import InputError, PairModel, TokenizerUnavailable, build_metrics, read_lines
from ...engine.ter import TerMetric
from ...engine.ter_batch import corpus_of_alignments, ter_alignments
from ...config.pairing import PairSpec, find_pair, find_source
from ...config.workspace import CONFIG_NAME
from ...qa.ignore import RELATIVE, IgnoreStore, find_store_root
from ...config.pair_options import pair_names, pair_settings
from ...qa.findings import Finding
from ...qa.formats.format_checks import findings_for
from ...formats.keyed import SOURCE_FILE, fill_sources, paired_with_source
from ...formats.l10n_paths import PATH_LANGUAGE, path_language
from ...formats.model import line_col
from ...formats.read import detect_format, first_problem, read_document
from ...formats.table import names, row
from ...qa.formats.table import checks_of
from ...config.settings import Settings
from ..inputs import Paired, read_inputs, read_segments
from .across import Across
from .report import Report, display

#: the formats whose reading problems are findings of ``check`` (PO ``po-syntax``), not a stop
PROBLEMS_CHECKED = names(problems_checked=True)


def check_pair(hyp: Path, settings: Settings, root: Optional[Path], report: Report,
               across: Optional[Across] = None, *, workers: Optional[int] = None) -> None:
    """Check ``hyp`` and hand the outcome to ``report`` (an error when the
    pair cannot be checked); its segments with a source to ``across`` (the checks
    comparing the files of the run).  Lines are scored on ``workers`` processes
    (``--jobs``; None: the engine's choice)."""
    shown = display(hyp)
    spec = find_pair(hyp, settings, root)
    if spec is None:
        _check_alone(hyp, settings, root, report, across, workers=workers)
        return
    for m in spec.missing():
        what = "is a folder, not a file" if m.is_dir() else "not found"
        report.error(f"{shown}: reference {display(m)} {what} (named by a [[pairs]] rule in {CONFIG_NAME})")
    if spec.missing():
        return
    merged = pair_settings(settings, spec)
    for p in merged.warnings:
        report.warn(f"{shown}: pair options: {p}")
    if merged.invalid:
        report.error(f"{shown}: pair options: " + "; ".join(merged.invalid))
        return
    settings = merged.settings
    try:
        metrics = build_metrics(settings)
    except (TokenizerUnavailable, ValueError) as exc:
        report.error(str(exc))
        return
    if not metrics:
        report.error("no metric selected")
        return
    try:
        inputs = read_inputs([str(hyp), *map(str, spec.references)], names=[display(r) for r in spec.references],
                             keep_problems=PROBLEMS_CHECKED)
        if inputs.segments is not None and not _with_source_file(hyp, inputs.segments, settings, root, report, spec):
            return
        if inputs.segments is None:
            hyp_lines, *ref_lines = inputs.texts
            model = PairModel.from_lines(metrics, hyp_lines, ref_lines, workers=workers)
    except InputError as exc:
        report.error(str(exc))
        return
    if inputs.segments is not None:
        _check_segments(hyp, spec, settings, metrics, inputs.segments, report, across=across, workers=workers)
        return
    source = _source_lines(spec, report)
    findings = Analyzer(settings, workers=workers).analyse(model, source, pair_names(hyp, spec))
    findings = _unignored(hyp, hyp_lines, findings, report)
    _hand_lines(across, hyp, shown, hyp_lines, source, settings, report)
    info = _pair_info(shown, spec, model)
    report.emit(shown, findings, info, info)


def _check_alone(hyp: Path, settings: Settings, root: Optional[Path], report: Report,
                 across: Optional[Across] = None, *, workers: Optional[int] = None) -> None:
    """A file with no reference: every check that does not need one (the rule
    table's rows without ``needs_reference``; a segment file's own format
    checks), against the file's own sources (PO, XLIFF, TMX) or the line
    file's ``NAME.src``; the ``unpaired`` line says what would add scores."""
    shown = display(hyp)
    unpaired = unpaired_findings(hyp.name, settings, command_title=None)
    info: dict = {"hypothesis": shown, "references": [], "paired": False}
    try:
        metrics = build_metrics(settings)  # (their tokenizer only: nothing is scored)
        paired = read_segments([str(hyp)], keep_problems=PROBLEMS_CHECKED)
        source_path = find_source(hyp, settings, root) if paired is None else None
        hyp_lines = read_lines(str(hyp)) if paired is None and source_path is not None else None
    except (InputError, TokenizerUnavailable, ValueError) as exc:
        report.error(str(exc))
        return
    if paired is not None:
        if not _with_source_file(hyp, paired, settings, root, report):
            return
        _check_segments(hyp, None, settings, metrics, paired, report, unpaired, across, workers=workers)
        return
    source = _source_lines(PairSpec(hyp, [], source_path, {}, "convention"), report) if source_path else None
    if hyp_lines is None or source is None or source_path is None:  # nothing to check a line file against
        report.emit(shown, unpaired, None, info)
        return
    model = Unreferenced(metrics, hyp_lines)
    findings = unpaired + Analyzer(settings, workers=workers).analyse(model, source, {"hypothesis": hyp.name, "path": str(hyp.absolute()),
                                                                    "references": [], "source": source_path.name})
    findings = _unignored(hyp, hyp_lines, findings, report)
    _hand_lines(across, hyp, shown, hyp_lines, source, settings, report)
    info.update({"source": display(source_path), "lines": len(hyp_lines)})
    report.emit(shown, findings, info, info)


def _with_source_file(hyp: Path, paired: Paired, settings: Settings, root: Optional[Path], report: Report,
                      spec: Optional[PairSpec] = None) -> bool:
    """A key-value localization file (JSON, ARB…): its sources filled, by key, from its source-language file
    (a rule's ``source``, else the format's convention); False when that file is there but cannot be read
    (said as an error).  A format whose source is in the file itself, or no source-language file: as it is."""
    doc = paired.docs[0]
    if row(doc.format).source_files is None:
        return True
    path = spec.source if spec is not None and spec.source is not None else find_source(hyp, settings, root)
    if path is None or not path.is_file():
        report.warn(f"{display(hyp)}: no source-language file found (looked for "
                    f"{', '.join(display(p) for p in _source_candidates(hyp, settings)) or 'none'}): "
                    "the values are checked alone")
        return True
    try:
        source = read_document(str(path), doc.format)
    except InputError as exc:
        report.error(str(exc))
        return False
    sentence = first_problem(display(path), source)
    if sentence:
        report.error(f"{sentence} (the source-language file of {display(hyp)})")
        return False
    fill_sources(doc, source, display(path))
    return True


def _source_candidates(hyp: Path, settings: Settings) -> list[Path]:
    fn = row(detect_format(str(hyp))).source_files
    return list(fn(hyp, settings.terms.source_language or None)) if fn is not None else []


def _check_segments(hyp: Path, spec: Optional[PairSpec], settings: Settings, metrics, paired: Paired, report: Report,
                    unpaired: Sequence[Finding] = (), across: Optional[Across] = None, *,
                    workers: Optional[int] = None) -> None:
    """Segment files (PO, XLIFF…): the segments paired by key are scored and checked as
    lines, the file's own sources used, findings placed at the targets in the file.  With no
    ``spec`` (no reference), the file alone: its non-empty targets checked, nothing scored."""
    shown = display(hyp)
    doc = paired.docs[0]
    al = paired.alignment
    model: Any
    if spec is not None:
        segs = [doc.segments[i] for i in al.rows]
        model = PairModel.from_lines(metrics, al.hyp_texts, al.texts, workers=workers)
        source = [s.source or "" for s in segs] if segs and all(s.source is not None for s in segs) else None
    else:  # every segment a line, as the server reads a file alone
        segs = list(doc.segments)
        if paired_with_source(doc):  # a key the source no longer has: key-extra says it, no rule reads it
            segs = [s for s in segs if s.source is not None]
        hyp_lines, source = segment_lines(segs)
        model = Unreferenced(metrics, hyp_lines)
    names = pair_names(hyp, spec)
    # the languages the file declares (the language rule reads them without a reference; the term rules always)
    names["source_language"], names["target_language"] = doc.source_lang, doc.target_lang
    names["line_languages"] = segment_languages(segs)  # (a multilingual TMX: each segment's own)
    findings = Analyzer(settings, workers=workers).analyse(model, source, names)
    own_checks = checks_of(doc.format)
    placeholders_own = own_checks.placeholders_own if own_checks is not None else None
    if placeholders_own is not None:
        findings = _without_placeholder_markup(findings, segs, placeholders_own)
    text = doc.text
    file_lines = text.split("\n") if text is not None else []
    starts = line_starts(file_lines)  # every finding placed by bisection: counting the lines before it is O(n) each
    placed = [*unpaired, *(_place(f, segs, text, starts) for f in findings)]  # (unpaired: the file's first line)
    if text is not None:
        # the rule table's `untranslated` already says what `target-same-as-source` would
        said = {segs[f.line].key for f in findings if f.code == "untranslated" and 0 <= f.line < len(segs)}
        language = path_language(hyp)  # (a key-value file's folder: its plural groups' language where it says none)
        if language:
            doc.header.setdefault(PATH_LANGUAGE, language)
        own = _format_findings(doc, text, settings, frozenset(said), starts)
        if own:
            placed.extend(own)
            placed.sort(key=lambda f: (f.line, f.start_col))
    placed = _unignored(hyp, file_lines, placed, report)
    if across is not None:
        _hand_segments(across, hyp, shown, doc, segs, text, file_lines, starts, settings, report)
    if spec is not None:
        rows = paired.rows
        info = _pair_info(shown, spec, model)
        info["segments"] = {"scored": len(segs), **rows.unpaired_json()}
        for sentence in rows.text_lines():
            report.warn(f"{shown}: {sentence}")
    else:
        info = {"hypothesis": shown, "references": [], "paired": False,
                "source": doc.header.get(SOURCE_FILE) if paired_with_source(doc) else None,
                "segments": {"checked": len(al.rows), "empty": len(doc.segments) - len(al.rows)}}
        effort = _draft_effort(doc.segments, workers)
        if effort is not None:
            info["effort"] = effort
    info["lines"] = len(al.rows)
    checks = checks_of(doc.format)
    if checks is not None and checks.counts is not None:
        info["segments"].update(checks.counts(doc))
    report.emit(shown, placed, info, info)


def _hand_segments(across: Across, hyp: Path, shown: str, doc, segs, text: Optional[str], file_lines: list[str],
                   starts: list[int], settings: Settings, report: Report) -> None:
    """A segment file's targets with their sources, for the checks across the run's files."""
    by_key = {s.key: s for s in segs if s.source is not None}
    items = [(s.key, s.source or "", s.target, s.extra.get("plural_index")) for s in by_key.values()]

    def place(key: str) -> tuple[int, int, Optional[int]]:
        seg = by_key[key]
        if text is None:
            return seg.line, 0, None
        a = seg.file_offset(0) if seg.target else seg.target_span[0]
        b = seg.file_offset(len(seg.target)) if seg.target else seg.target_span[1]
        line, col = line_col(text, a, starts)
        end_line, end = line_col(text, b, starts)
        return line, col, end if end_line == line and end > col else None

    language = doc.target_lang or settings.terms.target_language or None
    across.add(shown, language, items, place, settings, lambda fs: _unignored(hyp, file_lines, fs, report))


def _hand_lines(across: Optional[Across], hyp: Path, shown: str, hyp_lines: list[str], source: Optional[list[str]],
                settings: Settings, report: Report) -> None:
    """A line file's lines with their source lines, for the checks across the run's files."""
    if across is None or source is None:
        return
    n = min(len(hyp_lines), len(source))
    items = [(f"line {i + 1}", source[i], hyp_lines[i], None) for i in range(n)]

    def place(key: str) -> tuple[int, int, Optional[int]]:
        i = int(key.split()[1]) - 1
        return i, 0, (len(hyp_lines[i]) or None)

    language = settings.terms.target_language or None
    across.add(shown, language, items, place, settings, lambda fs: _unignored(hyp, hyp_lines, fs, report))


def _draft_effort(segments, workers: Optional[int] = None) -> Optional[dict]:
    """HTER of the file's own MT drafts (an XLIFF ``alt-trans`` of MT origin…) against
    the targets: sacrebleu's case-sensitive TER, the draft as hypothesis; None without drafts."""
    pairs = [(s.draft, s.target) for s in segments if s.draft and s.target]
    if not pairs:
        return None
    metric = TerMetric(case_sensitive=True)
    results = ter_alignments(metric, [d for d, _ in pairs], [[t for _, t in pairs]], workers=workers)
    corpus = corpus_of_alignments(metric, results)
    return {"metric": "HTER", "score": corpus.score, "segments": len(pairs),
            "edited": sum(1 for d, t in pairs if d.rstrip() != t.rstrip()), "signature": metric.signature(1)}


def _without_placeholder_markup(findings: list, segs, placeholders_own) -> list:
    """The rule table's `markup-mismatch` left out where all it names are placeholders of the
    format's own syntax (`placeholders-missing`/`-extra` say it by the format's own rules; the
    check row's ``placeholders_own``)."""
    out = []
    for f in findings:
        if f.code == "markup-mismatch" and 0 <= f.line < len(segs):
            items = [*f.data.get("lost", ()), *f.data.get("added", ())]
            if placeholders_own(segs[f.line], items):
                continue
        out.append(f)
    return out


def _format_findings(doc, text: str, settings: Settings, said: frozenset = frozenset(),
                     starts: Optional[list[int]] = None) -> list[Finding]:
    """The checks of the file's own format (:func:`bleu_ls.qa.formats.format_checks.findings_for`:
    subtitles' reading speed, line length, timing; XLIFF and TMX inline codes, states, empty or
    unchanged targets, white space; PO placeholders, plural forms, fuzzy, a malformed entry as
    `po-syntax`), each code as its ``diagnostics.<code>`` row says, placed at line and column.
    ``said``: keys of segments whose copied source the rule table's `untranslated` already names
    (no `target-same-as-source` for them).  ``starts``: the text's :func:`line_starts`."""
    if starts is None:
        starts = line_starts(text.split("\n"))
    out = []
    for f in findings_for(doc, settings, said, text):
        a, b = f.span or (0, 0)
        line, col = line_col(text, a, starts)
        end_line, end_col = line_col(text, b, starts)
        out.append(Finding(f.code, f.severity, f.message, line=line, start_col=col,
                           end_col=end_col if end_line == line and end_col > col else None, data=f.data))
    return out


def line_starts(lines: Sequence[str]) -> list[int]:
    """The offset where each of ``lines`` (a text split at ``\\n``) begins in the text: what
    :func:`line_col` bisects, so that placing a finding costs O(log n), not a count of every
    line before it (O(n) each, O(n²) for a file's findings)."""
    return list(accumulate((len(s) + 1 for s in lines[:-1]), initial=0))


def _place(f, segs, text: Optional[str], starts: Sequence[int]):
    """A finding on row ``f.line`` moved to its segment's target in the file (``starts``: the
    text's :func:`line_starts`)."""
    if not segs:
        return f
    seg = segs[min(max(f.line, 0), len(segs) - 1)]
    if text is None:
        return dataclasses.replace(f, line=seg.line, start_col=0, end_col=None)
    start = seg.file_offset(min(f.start_col, len(seg.target))) if f.line < len(segs) else seg.target_span[0]
    line, col = line_col(text, start, starts)
    end_col = None
    if f.end_col is not None and f.line < len(segs):
        end_line, ec = line_col(text, seg.file_offset(min(f.end_col, len(seg.target))), starts)
        end_col = ec if end_line == line else None
    return dataclasses.replace(f, line=line, start_col=col, end_col=end_col)


def _unignored(hyp: Path, lines: list[str], findings: list, report: Report) -> list:
    """The findings the nearest ``.bleu-ls/ignore.json`` does not hide."""
    root = find_store_root(hyp)
    if root is None:
        return findings
    store = IgnoreStore.load(root)
    if store.problem is not None:
        report.warn(store.problem.replace(RELATIVE, display(store.path), 1))
        return findings
    text = lambda i: lines[i] if 0 <= i < len(lines) else ""  # noqa: E731
    return store.filter(hyp, findings, text).findings


def _source_lines(spec: PairSpec, report: Report) -> Optional[list[str]]:
    if spec.source is None or not spec.source.is_file():
        return None
    try:
        return read_lines(str(spec.source))
    except InputError as exc:
        report.warn(f"{exc} (source not used)")
        return None


def _pair_info(shown: str, spec: PairSpec, model: PairModel) -> dict:
    corpus = {
        key: {"name": metric.name, "score": model.corpus(key).score, "signature": metric.signature(model.n_refs)}
        for key, metric in model.metrics.items()
    }
    return {
        "hypothesis": shown,
        "references": [display(r) for r in spec.references],
        "source": display(spec.source) if spec.source else None,
        "origin": spec.origin,
        "paired": True,
        "lines": model.n_paired,
        "corpus": corpus,
    }
