"""The yardstick for diagnostics: how often does a flag point at a real error?

Runs the diagnostics rules on the WMT21 TED en-de MQM data (13 systems x 529
lines, source paired), one system = one document, as ``bleu-ls check`` runs
them, and compares the flagged lines with expert MQM ratings: a line has a
*major* error when its MQM score is <= -5.  Per rule and for the union of
the rules that are on by default:

* flag rate (share of lines flagged), P(major | flagged), lift =
  P(major | flagged) / P(major), recall = flagged majors / all majors;
* length-adjusted lift: flagged majors / the majors expected among the
  flagged lines from P(major | reference-length bin) (MQM adds penalties per
  segment, so long lines carry more majors whatever a rule sees);
* 95% intervals by bootstrap over *segments*: all systems' versions of a
  segment are resampled together;
* per system: how many of the 13 keep a length-adjusted lift above 1, and
  the lowest.

    PYTHONPATH=. .venv/bin/python scripts/flag_study.py [DATA_DIR] [--markdown] [--per-system]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_ls.analysis import CODES, Analyzer  # noqa: E402
from bleu_ls.engine import PairModel, build_metrics, read_lines  # noqa: E402
from bleu_ls.settings import Settings  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "wmt21-ted-mqm-en-de"
MAJOR = -5.0
#: reference-length bins (BLEU tokens): [0,5), [5,10), … [40, inf)
LENGTH_EDGES = (5, 10, 15, 20, 30, 40)


@dataclass
class System:
    name: str
    source: list[str]
    hypothesis: list[str]
    reference: list[str]
    mqm: np.ndarray  # NaN = unrated
    ref_len: np.ndarray  # BLEU tokens of the reference line


def load_mqm(path: Path, n: int) -> np.ndarray:
    """Per-line MQM (NaN where unrated), indexed by the file's 1-based line column."""
    out = np.full(n, np.nan)
    for row in path.read_text(encoding="utf-8").splitlines()[1:]:
        parts = row.split("\t")
        if len(parts) >= 3 and parts[2].strip():
            out[int(parts[0]) - 1] = float(parts[2])
    return out


def load_systems(data: Path) -> list[System]:
    src = read_lines(str(data / "src.txt"))
    ref = read_lines(str(data / "ref.txt"))
    tokens = build_metrics(Settings())["bleu"].tokens
    ref_len = np.array([len(tokens(r)) for r in ref])
    out = []
    for hyp_path in sorted(data.glob("*.hyp")):
        name = hyp_path.name[: -len(".hyp")]
        hyp = read_lines(str(hyp_path))
        out.append(System(name, src, hyp, ref, load_mqm(data / f"{name}.mqm.tsv", len(hyp)), ref_len))
    return out


# --------------------------------------------------------------------------
# what the rules flag
# --------------------------------------------------------------------------
def analyzer_masks(settings: Settings, system: System) -> dict[str, np.ndarray]:
    """{code: flagged lines} as ``bleu-ls check`` finds them with ``settings``."""
    model = PairModel(build_metrics(settings), system.hypothesis, [system.reference])
    n = len(system.hypothesis)
    masks: dict[str, np.ndarray] = {}
    for f in Analyzer(settings).analyse(model, system.source):
        lines = range(f.data["start"], f.data["end"] + 1) if f.code == "misaligned" else (f.line,)
        m = masks.setdefault(f.code, np.zeros(n, dtype=bool))
        for i in lines:
            m[i] = True
    return masks


#: what counts as flagged in the shipped union: a finding listed in the
#: Problems panel (VS Code lists errors, warnings and information there, and
#: shows hints only as faint dots in the text)
LISTED = ("error", "warning", "information")


def shipped_mask(settings: Settings, system: System) -> np.ndarray:
    """Lines with a listed finding (see LISTED) under ``settings``."""
    model = PairModel(build_metrics(settings), system.hypothesis, [system.reference])
    mask = np.zeros(len(system.hypothesis), dtype=bool)
    for f in Analyzer(settings).analyse(model, system.source):
        if f.code == "adequacy" and not f.data:
            continue  # the one notice that the encoder is missing, not a flag
        if f.severity in LISTED:
            end = f.data["end"] if f.code == "misaligned" else f.line
            mask[f.line : end + 1] = True
    return mask


def all_on(overrides: Optional[dict] = None) -> Settings:
    """Every code on (the study measures each) but ``adequacy``, which has
    rows of its own (it ranks against the other lines, like outlier); chrF off as by default."""
    s = Settings()
    for name in vars(s.diagnostics):
        c = getattr(s.diagnostics, name)
        if hasattr(c, "enabled"):
            c.enabled = name != "adequacy"
    return s.merged(overrides or {}) if overrides else s


#: codes with rows of their own below, and file-level codes (no line to rate)
SWEPT = ("low-score", "outlier", "adequacy", "line-count-mismatch", "unpaired")
#: (label, settings overrides, code): a row measured through the Analyzer.
VARIANTS: list[tuple[str, dict, str]] = [
    ("low-score: BLEU < 10", {}, "low-score"),
    ("low-score: BLEU < 5", {"diagnostics": {"lowScore": {"bleuThreshold": 5}}}, "low-score"),
    ("low-score: BLEU < 2", {"diagnostics": {"lowScore": {"bleuThreshold": 2}}}, "low-score"),
    ("low-score: chrF < 30 (chrF on, BLEU ignored)", {"chrf": {"enabled": True}, "diagnostics": {"lowScore": {"bleuThreshold": -1}}}, "low-score"),
    ("outlier: BLEU bottom 3%, min 5 tokens", {"diagnostics": {"outlier": {"minTokens": 5}}}, "outlier"),
    ("outlier: BLEU bottom 3%, min 8 tokens", {}, "outlier"),
    ("outlier: BLEU bottom 3%, min 10 tokens", {"diagnostics": {"outlier": {"minTokens": 10}}}, "outlier"),
    ("outlier: BLEU bottom 5%, min 10 tokens", {"diagnostics": {"outlier": {"value": 5, "minTokens": 10}}}, "outlier"),
    ("outlier: BLEU bottom 5%, min 12 tokens", {"diagnostics": {"outlier": {"value": 5, "minTokens": 12}}}, "outlier"),
    ("outlier: chrF bottom 10%, min 5 tokens", {"chrf": {"enabled": True}, "diagnostics": {"outlier": {"metric": "chrf", "value": 10, "minTokens": 5}}}, "outlier"),
    ("outlier: chrF bottom 10%, min 8 tokens", {"chrf": {"enabled": True}, "diagnostics": {"outlier": {"metric": "chrf", "value": 10, "minTokens": 8}}}, "outlier"),
    ("adequacy (qe): similarity + chrF, bottom 3%, min 5 tokens", {"diagnostics": {"adequacy": {"enabled": True}}}, "adequacy"),
    ("adequacy (qe): similarity + chrF, bottom 5%, min 5 tokens", {"diagnostics": {"adequacy": {"enabled": True, "percent": 5}}}, "adequacy"),
    ("outlier: chrF bottom 5%, min 8 tokens", {"chrf": {"enabled": True}, "diagnostics": {"outlier": {"metric": "chrf", "value": 5, "minTokens": 8}}}, "outlier"),
]


def rows_for(systems: list[System], extra: Callable[[System], dict[str, np.ndarray]]) -> dict[str, list[np.ndarray]]:
    """{row label: [mask per system]} for the variants, every other code the
    Analyzer reports with all codes on, and ``extra``'s rows."""
    per_system: list[dict[str, np.ndarray]] = []
    base = all_on()
    for s in systems:
        n = len(s.hypothesis)
        found = analyzer_masks(base, s)
        masks = {code: found.get(code, np.zeros(n, dtype=bool)) for code in CODES if code not in SWEPT}
        for label, over, code in VARIANTS:
            got = analyzer_masks(all_on(over), s) if over else found
            masks[label] = got.get(code, np.zeros(n, dtype=bool))
        masks.update(extra(s))
        masks["(baseline) longest 5% of references"] = s.ref_len >= np.percentile(s.ref_len, 95)
        per_system.append(masks)
    labels = list(dict.fromkeys(label for masks in per_system for label in masks))
    return {
        label: [m.get(label, np.zeros(len(s.hypothesis), dtype=bool)) for s, m in zip(systems, per_system)]
        for label in labels
    }


# --------------------------------------------------------------------------
# the measures
# --------------------------------------------------------------------------
class Yardstick:
    """Per-segment counts of the data, and the measures of a rule's masks."""

    def __init__(self, systems: list[System], n_boot: int = 2000, seed: int = 10) -> None:
        self.systems = systems
        mqm = np.stack([s.mqm for s in systems])  # systems x segments
        self.rated = ~np.isnan(mqm)
        self.major = self.rated & (np.nan_to_num(mqm, nan=0.0) <= MAJOR)
        bins = np.searchsorted(LENGTH_EDGES, systems[0].ref_len, side="right")
        self.onehot = np.eye(len(LENGTH_EDGES) + 1)[bins]  # segments x bins
        n_seg = mqm.shape[1]
        rng = np.random.default_rng(seed)
        draws = rng.integers(0, n_seg, size=(n_boot, n_seg))
        self.weights = np.stack([np.bincount(d, minlength=n_seg) for d in draws]).astype(float)
        # P(major | length bin), pooled over systems (for the per-system figures)
        self.bin_rate = (self.major.sum(0) @ self.onehot) / np.maximum(self.rated.sum(0) @ self.onehot, 1)

    def _measures(self, w: np.ndarray, flagged: np.ndarray) -> dict[str, np.ndarray]:
        """The measures for segment weights ``w`` (resamples x segments)."""
        fr = (flagged & self.rated).sum(0).astype(float)
        fm = (flagged & self.major).sum(0).astype(float)
        rated = self.rated.sum(0).astype(float)
        major = self.major.sum(0).astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            base = (w @ major) / (w @ rated)
            prec = (w @ fm) / (w @ fr)
            rate_bins = (w @ (major[:, None] * self.onehot)) / (w @ (rated[:, None] * self.onehot))
            expected = np.nansum(rate_bins * (w @ (fr[:, None] * self.onehot)), axis=1)
            return {
                "rate": (w @ flagged.sum(0)) / (w.sum(1) * len(self.systems)),
                "precision": prec,
                "lift": prec / base,
                "recall": (w @ fm) / (w @ major),
                "adj_lift": (w @ fm) / expected,
                "base": base,
            }

    def measure(self, masks: list[np.ndarray]) -> dict[str, float]:
        flagged = np.stack(masks)
        point = {k: float(v[0]) for k, v in self._measures(np.ones((1, flagged.shape[1])), flagged).items()}
        boot = self._measures(self.weights, flagged)
        for key in ("lift", "adj_lift"):
            lo, hi = np.nanpercentile(boot[key], [2.5, 97.5]) if np.isfinite(boot[key]).any() else (np.nan, np.nan)
            point[key + "_ci"] = (float(lo), float(hi))
        point["flagged_rated"] = int((flagged & self.rated).sum())
        point.update(self.per_system(flagged))
        return point

    def per_system(self, flagged: np.ndarray) -> dict[str, float]:
        """Per-system length-adjusted lifts: how many above 1, the lowest."""
        lifts, rates = [], []
        for k in range(len(self.systems)):
            f = flagged[k]
            fr = f & self.rated[k]
            expected = float(self.bin_rate @ (fr @ self.onehot)) if fr.any() else 0.0
            rates.append(f.mean())
            if expected > 0:
                lifts.append((f & self.major[k]).sum() / expected)
        return {
            "sys_rate_min": float(min(rates)),
            "sys_rate_max": float(max(rates)),
            "sys_above1": sum(x > 1 for x in lifts),
            "sys_measured": len(lifts),
            "sys_min": float(min(lifts)) if lifts else float("nan"),
            "sys_lifts": lifts,
        }


# --------------------------------------------------------------------------
# the line checks not (yet) run by the Analyzer
# --------------------------------------------------------------------------
def similarity_rows(system: System) -> dict[str, np.ndarray]:
    """The encoder's source/line similarity alone, bottom p% of each document
    (the ``adequacy`` code ranks it together with chrF): what it adds by itself."""
    from bleu_ls.checks.qe import low_similarity

    sims = adequacy(system)
    if sims is None:
        return {}
    return {f"(similarity alone) bottom {pct}%": low_similarity(sims, pct, 0.0) for pct in (3, 5, 10)}


_ADEQUACY: dict = {}


def adequacy(system: System) -> Optional[np.ndarray]:
    """Source/line similarities with the qe extra, or None when it is absent."""
    from bleu_ls.checks.qe import Adequacy

    model = _ADEQUACY.setdefault("model", Adequacy(threads=1))
    sims = model.similarities(system.source, system.hypothesis)
    return None if model.error else sims


# --------------------------------------------------------------------------
# output
# --------------------------------------------------------------------------
SHIPPED = "**shipped defaults**: lines with a finding listed in Problems (error, warning, information)"
WITHOUT_QE = "shipped defaults without adequacy (encoder missing, or switched off)"


def fmt_ci(ci) -> str:
    return f"{ci[0]:.2f}–{ci[1]:.2f}"


def table(results: dict[str, dict], markdown: bool) -> list[str]:
    head = ["rule", "flagged", "per system", "rated", "P(major|flagged)", "recall", "lift (95% CI)",
            "length-adj. lift (95% CI)", "systems adj. > 1 (min)"]
    lines = []
    if markdown:
        lines.append("| " + " | ".join(head).replace("|flagged", "\\|flagged") + " |")
        lines.append("|" + "---|" * len(head))
    for label, r in results.items():
        cells = [
            label,
            f"{r['rate'] * 100:.1f}%",
            f"{r['sys_rate_min'] * 100:.1f}–{r['sys_rate_max'] * 100:.1f}%",
            str(r["flagged_rated"]),
            f"{r['precision']:.3f}",
            f"{r['recall']:.3f}",
            f"{r['lift']:.2f} ({fmt_ci(r['lift_ci'])})",
            f"{r['adj_lift']:.2f} ({fmt_ci(r['adj_lift_ci'])})",
            f"{r['sys_above1']}/{r['sys_measured']} ({r['sys_min']:.2f})",
        ]
        lines.append(("| " + " | ".join(cells) + " |") if markdown else "  ".join(cells))
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--per-system", action="store_true", help="also print the shipped union per system")
    ap.add_argument("--union", default=None, help="also measure the union of these rows (labels separated by semicolons)")
    ap.add_argument("--boot", type=int, default=2000, help="bootstrap resamples (default 2000)")
    args = ap.parse_args(argv)
    data = Path(args.data)
    if not (data / "ref.txt").is_file() or not (data / "src.txt").is_file():
        print(f"flag_study: no MQM data (src.txt, ref.txt, *.hyp, *.mqm.tsv) at {data}", file=sys.stderr)
        return 2
    systems = load_systems(data)
    shipped = [shipped_mask(Settings(), s) for s in systems]
    rows = rows_for(systems, similarity_rows)
    if args.union:
        union = args.union.split(";")
        missing = [u for u in union if u not in rows]
        if missing:
            print(f"flag_study: no row named {missing[0]!r}", file=sys.stderr)
            return 2
        rows["union: " + " + ".join(union)] = [np.logical_or.reduce(ms) for ms in zip(*(rows[u] for u in union))]
    if adequacy(systems[0]) is None:
        print("flag_study: the sentence encoder is not installed: the shipped row lacks adequacy", file=sys.stderr)
    rows[SHIPPED] = shipped
    without_qe = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": False}}})
    rows[WITHOUT_QE] = [shipped_mask(without_qe, s) for s in systems]
    ys = Yardstick(systems, n_boot=args.boot)
    results = {label: ys.measure(masks) for label, masks in rows.items()}
    n = sum(len(s.hypothesis) for s in systems)
    base = results[SHIPPED]["base"]
    print(f"{len(systems)} systems, {n} lines; major error = MQM <= {MAJOR:g}; base rate {base:.3f}; "
          f"bootstrap over {len(systems[0].hypothesis)} segments, {args.boot} resamples\n")
    print("\n".join(table(results, args.markdown)))
    if args.per_system:
        print(f"\nper system, {SHIPPED}: length-adjusted lift")
        for s, lift in zip(systems, results[SHIPPED]["sys_lifts"]):
            print(f"  {s.name}: {lift:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
