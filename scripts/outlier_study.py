"""Which outlier rule finds lines with major translation errors?

The candidate sweep for the ``outlier`` rule alone; the yardstick for every
diagnostic (intervals, length adjustment, the default-on union) is
``scripts/flag_study.py``.

Scores every line of every system in the WMT21 TED MQM data (en-de) with
bleu-ls's engine (sentence BLEU and chrF, sacrebleu defaults), applies each
candidate outlier rule per system (one system = one document, as in the
editor) and compares the flagged lines with the human MQM ratings: a line
has a *major* error when its MQM score is <= -5.

For each rule, pooled over systems: share of lines flagged, P(major |
flagged), the base rate P(major) and lift = P(major | flagged) / P(major).

    .venv/bin/python scripts/outlier_study.py [DATA_DIR] [--markdown]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_ls.qa.analysis import outlier_mask, outlier_select  # noqa: E402
from bleu_ls.engine import BleuMetric, ChrfMetric, PairModel, read_lines  # noqa: E402
from bleu_ls.config.settings import OutlierSettings  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flag_study import MAJOR, load_mqm  # noqa: E402  (the yardstick for every code)

DEFAULT_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"


def load_systems(data: Path):
    """[(system, bleu values, chrf values, reference token counts, mqm)] per system."""
    ref = read_lines(str(data / "ref.txt"))
    metrics = {"bleu": BleuMetric(), "chrf": ChrfMetric()}
    out = []
    for hyp_path in sorted(data.glob("*.hyp")):
        system = hyp_path.name[: -len(".hyp")]
        hyp = read_lines(str(hyp_path))
        model = PairModel(metrics, hyp, [ref])
        mqm = load_mqm(data / f"{system}.mqm.tsv", len(hyp))
        ref_lens = np.array([model.line_stats("bleu", i)[1] for i in range(model.n_paired)])
        out.append((system, model.values("bleu").copy(), model.values("chrf").copy(), ref_lens, mqm))
    return out


def rank_pct(x: np.ndarray) -> np.ndarray:
    """Average-rank percentile (0 = worst) of each value."""
    order = np.argsort(x, kind="stable")
    ranks = np.empty(len(x))
    ranks[order] = np.arange(len(x))
    _vals, inv = np.unique(x, return_inverse=True)
    sums = np.bincount(inv, ranks)
    cnts = np.bincount(inv)
    return (sums / cnts)[inv] / max(len(x) - 1, 1) * 100


def setting(metric: str, rule: str, value: float, min_tokens: int):
    """A candidate exactly as the shipped rule runs it (bleu_ls.qa.analysis.outlier_select)."""
    o = OutlierSettings(rule=rule, value=value, metric=metric, min_tokens=min_tokens)

    def fn(b, f, rl):
        return outlier_select(b if metric == "bleu" else f, rl, o)

    label = f"{metric} {rule} {value:g}" + (f", min tokens {min_tokens}" if min_tokens else "")
    return label, fn


def candidates():
    """(label, function(bleu, chrf, ref_lens) -> flagged mask)."""
    c = []
    for metric in ("bleu", "chrf"):
        for z in (1.5, 2.0, 2.5):
            c.append(setting(metric, "robust-z", z, 0))
        for k in ((15, 20, 25) if metric == "bleu" else (15, 20, 25)):
            c.append(setting(metric, "below-median", k, 0))
        for mt in (0, 5, 8):
            for pct in (3, 4, 5, 10):
                c.append(setting(metric, "bottom-percent", pct, mt))
    for pct in (3, 5, 10):
        c.append(
            (
                f"bottom {pct}% of mean(BLEU rank, chrF rank)",
                (lambda pct: lambda b, f, rl: outlier_mask((rank_pct(b) + rank_pct(f)) / 2, "bottom-percent", pct))(
                    pct
                ),
            )
        )
        c.append(
            (
                f"bottom {pct}% BLEU and bottom {pct}% chrF",
                (
                    lambda pct: lambda b, f, rl: outlier_mask(b, "bottom-percent", pct)
                    & outlier_mask(f, "bottom-percent", pct)
                )(pct),
            )
        )
    c.append(("fixed: BLEU under 10 (low-score default)", lambda b, f, rl: b < 10))
    return c


def evaluate(fn, systems) -> dict:
    flagged = rated = majors = flagged_rated = flagged_major = 0
    shares, lifts = [], []
    for _system, b, f, rl, mqm in systems:
        mask = fn(b, f, rl)
        ok = ~np.isnan(mqm)
        major = ok & (mqm <= MAJOR)
        flagged += int(mask.sum())
        shares.append(mask.mean())
        rated += int(ok.sum())
        majors += int(major.sum())
        fr, fm = int((mask & ok).sum()), int((mask & major).sum())
        flagged_rated += fr
        flagged_major += fm
        if fr and major.sum():
            lifts.append((fm / fr) / (major.sum() / ok.sum()))
    n = sum(len(s[1]) for s in systems)
    base = majors / rated
    p = flagged_major / flagged_rated if flagged_rated else float("nan")
    return dict(
        share=flagged / n,
        share_min=min(shares),
        share_max=max(shares),
        flagged=flagged_rated,
        p=p,
        base=base,
        lift=p / base if base else float("nan"),
        lift_min=min(lifts) if lifts else float("nan"),
        lift_gt1=sum(x > 1 for x in lifts),
        n_sys=len(systems),
    )


def study(systems):
    return [dict(rule=label, **evaluate(fn, systems)) for label, fn in candidates()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args(argv)
    data = Path(args.data)
    if not (data / "ref.txt").is_file():
        print(f"outlier_study: no MQM data at {data}", file=sys.stderr)
        return 2
    systems = load_systems(data)
    rows = study(systems)
    n = sum(len(s[1]) for s in systems)
    print(f"{len(systems)} systems, {n} lines; major error = MQM <= {MAJOR:g}; base rate {rows[0]['base']:.3f}\n")
    d = OutlierSettings()
    print(f"shipped default: {d.metric} {d.rule} {d.value:g}, min tokens {d.min_tokens}\n")
    if args.markdown:
        print("| rule | flagged: share (per-system range) | lines rated | P(major \\| flagged) | lift | systems with lift > 1 (min) |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(
                f"| {r['rule']} | {r['share']*100:.1f}% ({r['share_min']*100:.1f}–{r['share_max']*100:.1f}%) "
                f"| {r['flagged']} | {r['p']:.3f} | {r['lift']:.2f} | {r['lift_gt1']}/{r['n_sys']} ({r['lift_min']:.2f}) |"
            )
    else:
        print(f"{'rule':44} {'share':>7} {'range':>13} {'rated':>6} {'P(maj|fl)':>9} {'lift':>6} {'sys>1':>6} {'min':>5}")
        for r in rows:
            rng = f"{r['share_min']*100:.1f}-{r['share_max']*100:.1f}%"
            print(
                f"{r['rule']:44} {r['share']*100:6.1f}% {rng:>13} {r['flagged']:6d} {r['p']:9.3f} {r['lift']:6.2f}"
                f" {r['lift_gt1']:>3}/{r['n_sys']:<2} {r['lift_min']:5.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
