"""Turn scored pairs into a report: ``data`` (every number shown, for the
embedded JSON block) and ``view`` (the same plus texts and charts, for the
template)."""

from __future__ import annotations

import datetime

import numpy as np

from .. import __version__
from ..qa.analysis import Analyzer
from . import charts, scores
from .inputs import ReportInput
from .ngrams import gained, most_missed, tally
from .words import LineMarker


def _sample(n: int, limit: int) -> list[int]:
    if n <= limit:
        return list(range(n))
    return sorted({int(x) for x in np.linspace(0, n - 1, limit).round()})


class Builder:
    def __init__(self, inp: ReportInput) -> None:
        inp.check()
        self.inp = inp
        self.opt = inp.options
        self.models = [s.model for s in inp.systems]
        self.names = [s.name for s in inp.systems]
        first = self.models[0]
        self.metrics = first.metrics
        self.key = next(iter(self.metrics))  # the metric that orders lines
        self.n = first.n_paired
        self.refs = first.refs
        self.values = {k: [m.values(k) for m in self.models] for k in self.metrics}
        # lines are marked in BLEU's n-grams when it is scored, else in the first metric's tokens
        ngram = next((m for m in self.metrics.values() if m.ngram_precisions), None)
        self.tokens = (ngram or self.metrics[self.key]).tokens
        self.max_order = getattr(ngram, "max_order", 4) or 4
        self.marker = LineMarker(self.tokens, self.max_order)
        self.notes: list[str] = []
        self.data: dict = {}
        self.view: dict = {"colours": [charts.colour(i) for i in range(len(self.models))]}

    # -- the whole report -----------------------------------------------------
    def build(self) -> tuple[dict, dict]:
        inp, opt = self.inp, self.opt
        self.data = {
            "format": "bleu-ls-report",
            "version": 1,
            "generator": f"bleu-ls {__version__}",
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "title": inp.title,
            "lines": self.n,
            "references": list(inp.references),
            "source": inp.source_name,
            "draft": inp.draft_name,
            "metrics": self._metrics(),
            "bootstrap": {"resamples": opt.bootstrap, "seed": scores.seed_text(opt.seed)} if opt.bootstrap > 1 else None,
        }
        self.data["systems"] = self._systems()
        self.data["buckets"] = scores.bucket_section(self.models, self.refs[0], opt.bucket_edges)
        self.data["weakest"] = self._weakest()
        self.data["comparisons"] = self._comparisons()
        self.data["ngrams"] = self._ngrams()
        self.data["flags"] = self._flags()
        self.data["notes"] = self.notes
        self._charts()
        return self.data, self.view

    def _metrics(self) -> list[dict]:
        n_refs = self.models[0].n_refs
        out = []
        for k, m in self.metrics.items():
            sig = m.signature(n_refs, sentence=False)
            rec = {
                "key": k,
                "name": m.name,
                "signature": sig,
                "line_signature": m.signature(n_refs, sentence=True),
                "higher_is_better": m.higher_is_better,
            }
            if self.opt.bootstrap > 1 and m.bootstrap:
                rec["bootstrap_signature"] = scores.bootstrap_signature(sig, self.opt.bootstrap, self.opt.seed)
            out.append(rec)
        return out

    def _systems(self) -> list[dict]:
        opt = self.opt
        out = [{"name": s.name, "path": s.path, "corpus": {}, "histogram": {}} for s in self.inp.systems]
        for key, metric in self.metrics.items():
            if opt.bootstrap > 1 and not metric.bootstrap:
                self.notes.append(f"{metric.name} has no interval or paired test: sacrebleu's bootstrap "
                                  "is defined for sacrebleu's metrics, not for the NLTK presets.")
            recs = scores.corpus_section(self.models, key, opt.bootstrap, opt.seed)
            for s, rec in enumerate(recs):
                out[s]["corpus"][key] = rec
                out[s]["histogram"][key] = scores.histogram(self.values[key][s])
        keep = len(self.models) * self.n <= opt.line_scores_cells
        for s, rec in enumerate(out):
            if keep:
                rec["line_scores"] = {k: [scores.clean(v) for v in self.values[k][s]] for k in self.metrics}
        if not keep:
            self.notes.append(
                f"Per-line scores of all {self.n:,} lines are left out of the data block "
                f"({len(self.models)} systems × {self.n:,} lines is over {opt.line_scores_cells:,})."
            )
        return out

    # -- line-level lists -----------------------------------------------------
    def _ln(self, i: int) -> int:
        """The 1-based line shown for row ``i``: its line in the file (segment files) or ``i + 1``."""
        nums = self.inp.line_numbers
        return nums[i] if nums is not None and 0 <= i < len(nums) else i + 1

    def _line(self, i: int, shown: list[int]) -> tuple[dict, dict]:
        """One listed line: its numbers for the data block, and its view."""
        data = {
            "line": self._ln(i),
            **({"key": self.inp.keys[i]} if self.inp.keys is not None else {}),
            "systems": shown,
            "scores": {k: [scores.clean(self.values[k][s][i]) for s in shown] for k in self.metrics},
        }
        refs = [r[i] for r in self.refs]
        draft = self.inp.draft[i] if self.inp.draft is not None else None
        hyps = []
        for j, s in enumerate(shown):
            hyp = self.models[s].hyp[i]
            hyps.append({
                "system": s,
                "name": self.names[s],
                "colour": charts.colour(s),
                "scores": {k: data["scores"][k][j] for k in self.metrics},
                "pieces": self.marker.hypothesis(hyp, refs, draft),
            })
        view = {
            "line": self._ln(i),
            "hyps": hyps,
            "refs": refs,
            "source": self.inp.source[i] if self.inp.source is not None else None,
            "draft": LineMarker.draft(draft, self.models[shown[0]].hyp[i]) if draft is not None else None,
        }
        return data, view

    def _lines(self, lines: list[int], shown: list[int]) -> tuple[list, list]:
        pairs = [self._line(i, shown) for i in lines]
        return [p[0] for p in pairs], [p[1] for p in pairs]

    def _weakest(self) -> list[dict]:
        metric = self.metrics[self.key]
        lowest = metric.higher_is_better
        out, views = [], []
        for s in range(len(self.models)):
            picked = scores.extreme_lines(self.values[self.key][s], self.opt.top_lines, lowest)
            data, view = self._lines(picked, [s])
            out.append({"system": s, "metric": self.key, "lines": data})
            views.append({"system": s, "name": self.names[s], "lines": view})
        self.view["weakest"] = views
        return out

    def _comparisons(self) -> list[dict]:
        if len(self.models) < 2:
            self.view["comparisons"] = []
            return []
        metric = self.metrics[self.key]
        base = self.values[self.key][0]
        k = max(1, self.opt.top_lines // 2)
        out, views = [], []
        for s in range(1, len(self.models)):
            delta = scores.differences(base, self.values[self.key][s], metric.higher_is_better)
            rec = {"baseline": 0, "system": s, "metric": self.key, **scores.win_loss(delta)}
            better = [i for i in scores.extreme_lines(delta, k, lowest=False) if delta[i] > 0]
            worse = [i for i in scores.extreme_lines(delta, k, lowest=True) if delta[i] < 0]
            rec["better_lines"], better_view = self._lines(better, [0, s])
            rec["worse_lines"], worse_view = self._lines(worse, [0, s])
            for d, i in zip(rec["better_lines"] + rec["worse_lines"], better + worse):
                d["difference"] = float(delta[i])
            out.append(rec)
            views.append({"system": s, "name": self.names[s], "better": better_view, "worse": worse_view})
        self.view["comparisons"] = views
        return out

    # -- n-grams and flags ------------------------------------------------------
    def _ngrams(self) -> dict:
        opt = self.opt
        lines = _sample(self.n, opt.ngram_lines)
        if len(lines) < self.n:
            self.notes.append(
                f"The n-gram tables look at {len(lines):,} of the {self.n:,} lines (evenly spaced), "
                "to keep the report quick on very large inputs."
            )
        tallies, in_ref = tally(self.tokens, [m.hyp for m in self.models], self.refs, lines, self.max_order)
        missed = [
            {
                "system": s,
                "words": most_missed(t, in_ref, opt.top_ngrams, range(1, 2)),
                "phrases": most_missed(t, in_ref, opt.top_ngrams, range(2, self.max_order + 1)),
            }
            for s, t in enumerate(tallies)
        ]
        pairs = [
            {"baseline": 0, "system": s, "gained": gained(tallies[0], tallies[s], opt.top_ngrams),
             "lost": gained(tallies[s], tallies[0], opt.top_ngrams)}
            for s in range(1, len(tallies))
        ]
        return {"lines_examined": len(lines), "max_order": self.max_order, "missed": missed, "pairs": pairs}

    def _flags(self) -> dict:
        inp = self.inp
        out = []
        codes: list[str] = []
        for s, system in enumerate(inp.systems):
            findings = system.findings
            if findings is None:
                names = {"hypothesis": system.name, "references": list(inp.references), "source": inp.source_name}
                findings = Analyzer(inp.settings, workers=inp.workers).analyse(system.model, inp.source, names)
            counts: dict = {}
            lines: dict = {}
            for f in findings:
                counts[f.code] = counts.get(f.code, 0) + 1
                lines.setdefault(f.code, set()).add(f.line)
                if f.code not in codes:
                    codes.append(f.code)
            shown = findings[: self.opt.flag_examples]
            out.append({
                "system": s,
                "findings": len(findings),
                "flagged_lines": len({f.line for f in findings}),
                "counts": counts,
                "lines": {c: len(v) for c, v in lines.items()},
                "examples": [
                    {"line": self._ln(f.line), "code": f.code, "severity": f.severity, "message": f.message} for f in shown
                ],
            })
        return {"codes": codes, "systems": out}

    # -- charts -------------------------------------------------------------------
    def _charts(self) -> None:
        d = self.data
        view = self.view
        labels = [f"{e}–{e + scores.HIST_STEP}" for e in range(0, scores.HIST_STEP * scores.HIST_BINS, scores.HIST_STEP)]
        labels[-1] = f"≥{scores.HIST_STEP * (scores.HIST_BINS - 1)}"
        view["histograms"] = {
            k: [charts.histogram(rec["histogram"][k]["counts"], labels, charts.colour(s), rec["name"])
                for s, rec in enumerate(d["systems"])]
            for k in self.metrics
        }
        view["corpus_charts"] = {}
        if len(self.models) > 1:
            for k, m in self.metrics.items():
                recs = [rec["corpus"][k] for rec in d["systems"]]
                if all(r["score"] is not None for r in recs):
                    view["corpus_charts"][k] = charts.scores_with_ci(
                        self.names, [r["score"] for r in recs], [r["ci"] for r in recs], m.name
                    )
        b = d["buckets"]
        view["bucket_charts"] = {
            k: charts.grouped_bars(b["labels"], self.names, b["scores"][k], m.name) for k, m in self.metrics.items()
        }
        view["diff_charts"] = [
            charts.sorted_differences(c["curve"], c["wins"] + c["ties"] + c["losses"], self.names[0], self.names[c["system"]])
            for c in d["comparisons"]
        ]


def build_report(inp: ReportInput) -> tuple[dict, dict]:
    """(data, view) of a report on ``inp``'s systems."""
    return Builder(inp).build()
