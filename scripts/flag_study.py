"""The yardstick for diagnostics: how often does a flag point at a real error?

Runs the diagnostics rules on every rated folder of ../shared/data (WMT21
TED, English->German and Chinese->English, 13 systems each, source paired),
one system = one document, as ``bleu-ls check`` runs them, and compares the
flagged lines with expert MQM ratings: a line has a *major* error when its
MQM score is <= -5.  For each language pair apart and both pooled, per rule
and for the union of what the defaults list:

* the share of lines flagged, P(major | flagged), recall;
* length-adjusted lift: flagged majors / the majors expected among the
  flagged lines from P(major | language pair, reference-length bin) (MQM adds
  penalties per segment, so long lines carry more majors whatever a rule sees);
* 95% intervals by bootstrap over *segments* (all systems' versions of a
  segment resampled together, each language pair's segments within itself);
* per system: how many keep a length-adjusted lift above 1, and the lowest;
* a leave-one-talk-out estimate of every *choice* (a threshold family, the
  whole default set): the choice is made on the other talks, measured on the
  held-out one, and the held-out lines of all talks are measured together.
  The same TED talk rated in both languages is held out in both.

    PYTHONPATH=. .venv/bin/python scripts/flag_study.py [DATA_DIR ...] [--markdown] [--per-system]
    PYTHONPATH=. .venv/bin/python scripts/flag_study.py --code doubled-word [--no-reference]  (one code alone, its flags listed)
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_ls.qa.analysis import CODES, Analyzer  # noqa: E402
from bleu_ls.qa.analysis.unreferenced import Unreferenced  # noqa: E402
from bleu_ls.engine import PairModel, build_metrics, read_lines  # noqa: E402
from bleu_ls.config.settings import Settings  # noqa: E402

#: the rated folders sit beside the project (BLEU_LS_SHARED_DATA names another place)
DATA_ROOT = Path(os.environ.get("BLEU_LS_SHARED_DATA") or Path(__file__).resolve().parents[1] / ".." / "shared" / "data")
DEFAULT_DATA = DATA_ROOT / "wmt21-ted-mqm-en-de"
MAJOR = -5.0
#: reference-length bins (BLEU tokens): [0,5), [5,10), … [40, inf)
LENGTH_EDGES = (5, 10, 15, 20, 30, 40)
#: the listed share the defaults must stay under, in each language pair
MAX_LISTED = 0.10
#: False (``--no-reference``): every rule runs as ``bleu-ls check`` runs it on a
#: file with its source and no reference (the rules that need one stay silent;
#: ``adequacy`` ranks by similarity to the source alone)
REFERENCE = True


@dataclass
class System:
    name: str
    source: list[str]
    hypothesis: list[str]
    reference: list[str]
    mqm: np.ndarray  # NaN = unrated
    ref_len: np.ndarray  # BLEU tokens of the reference line


@dataclass
class Corpus:
    """One rated folder: its systems, its language pair and the talk of each segment."""

    name: str
    pair: str
    systems: list[System]
    talks: np.ndarray  # talk key per segment
    talks_from: str = ""  # how the talks were found


def load_mqm(path: Path, n: int) -> np.ndarray:
    """Per-line MQM (NaN where unrated), indexed by the file's 1-based line column."""
    out = np.full(n, np.nan)
    for row in path.read_text(encoding="utf-8").splitlines()[1:]:
        parts = row.split("\t")
        if len(parts) >= 3 and parts[2].strip():
            out[int(parts[0]) - 1] = float(parts[2])
    return out


def load_seg_ids(path: Path, n: int) -> np.ndarray:
    """The release's seg_id per line (0 where the file has none)."""
    out = np.zeros(n, dtype=int)
    for row in path.read_text(encoding="utf-8").splitlines()[1:]:
        parts = row.split("\t")
        if len(parts) >= 2 and parts[1].strip().isdigit():
            out[int(parts[0]) - 1] = int(parts[1])
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


#: The talks of the stored folders: (talk, first line, how its reference
#: line starts).  The en-de folder numbers its segments 1..529 without gaps,
#: so its talks come from the release (google/wmt-mqm-human-evaluation,
#: ted/ende: talk.1 = seg 1-140, talk.3 = 218-248, talk.4 = 249-377, talk.5 =
#: 378-447, talk.6 = 448-606, 141-217 unrated); the zh-en folder keeps the
#: release's seg_id (talk.2 = 84-223, talk.5 = 353-383, talk.7 = 513-582).
#: Three of the TED talks are rated in both languages; a talk is keyed by what
#: it is about, so that leaving it out leaves it out of both.
KNOWN_TALKS = {
    "wmt21-ted-mqm-en-de": [
        ("light", 1, "Bitte machen Sie"), ("artist", 141, "Als Künstler"), ("flowers", 172, "Wissen Sie wie"),
        ("making", 301, "Ich möchte Ihnen heute"), ("truth", 371, "Sie alle wissen"),
    ],
    "wmt21-ted-mqm-zh-en-part": [("light", 1, "I hope you"), ("artist", 141, "As an artist"), ("making", 172, "Today I'd like")],
}


def find_talks(data: Path, reference: list[str], n: int) -> tuple[np.ndarray, str]:
    """The talk of each segment: the known table when its reference lines
    match, else the runs of consecutive seg_id, else blocks of 100 lines."""
    known = KNOWN_TALKS.get(data.name)
    if known and all(line <= n and reference[line - 1].startswith(head) for _, line, head in known):
        out = np.empty(n, dtype=object)
        starts = [line - 1 for _, line, _ in known] + [n]
        for (name, _, _), a, b in zip(known, starts, starts[1:]):
            out[a:b] = name
        return out, "the release's talks"
    tsv = next(iter(sorted(data.glob("*.mqm.tsv"))), None)
    if tsv is not None:
        seg = load_seg_ids(tsv, n)
        if seg.all():
            breaks = np.flatnonzero(np.diff(seg) != 1) + 1
            if len(breaks):
                out = np.empty(n, dtype=object)
                for a, b in zip([0, *breaks], [*breaks, n]):
                    out[a:b] = f"segs {seg[a]}-{seg[b - 1]}"
                return out, "runs of consecutive seg_id"
    out = np.array([f"lines {k // 100 * 100 + 1}-" for k in range(n)], dtype=object)
    return out, "blocks of 100 lines (talks unknown)"


def language_pair(data: Path) -> str:
    m = re.search(r"([a-z]{2,3})-([a-z]{2,3})(?:-part)?$", data.name)
    return f"{m.group(1)}-{m.group(2)}" if m else data.name


def load_corpus(data: Path) -> Corpus:
    systems = load_systems(data)
    n = len(systems[0].hypothesis)
    talks, how = find_talks(data, systems[0].reference, n)
    return Corpus(data.name, language_pair(data), systems, talks, how)


def rated_folders(root: Path = DATA_ROOT) -> list[Path]:
    """Every folder under ``root`` with src.txt, ref.txt and rated systems."""
    if not root.is_dir():
        return []
    return [d for d in sorted(root.iterdir())
            if (d / "src.txt").is_file() and (d / "ref.txt").is_file() and any(d.glob("*.mqm.tsv"))]


# --------------------------------------------------------------------------
# what the rules flag
# --------------------------------------------------------------------------
def analyzer_masks(settings: Settings, system: System) -> dict[str, np.ndarray]:
    """{code: flagged lines} as ``bleu-ls check`` finds them with ``settings``."""
    model = _model(settings, system)
    n = len(system.hypothesis)
    masks: dict[str, np.ndarray] = {}
    for f in Analyzer(settings).analyse(model, system.source):
        lines = range(f.data["start"], f.data["end"] + 1) if f.code == "misaligned" else (f.line,)
        m = masks.setdefault(f.code, np.zeros(n, dtype=bool))
        for i in lines:
            m[i] = True
    return masks


def _model(settings: Settings, system: System):
    if REFERENCE:
        return PairModel(build_metrics(settings), system.hypothesis, [system.reference])
    return Unreferenced(build_metrics(settings), system.hypothesis)


#: what counts as flagged in the shipped union: a finding listed in the
#: Problems panel (VS Code lists errors, warnings and information there, and
#: shows hints only as faint dots in the text)
LISTED = ("error", "warning", "information")


def listed_masks(settings: Settings, system: System) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """(lines with a listed finding (see LISTED), lines with a ``low-score``
    finding whatever its severity, {code: lines with its finding}) under ``settings``."""
    model = _model(settings, system)
    n = len(system.hypothesis)
    mask = np.zeros(n, dtype=bool)
    by_code: dict[str, np.ndarray] = {}
    for f in Analyzer(settings).analyse(model, system.source):
        if f.code == "adequacy" and not f.data:
            continue  # the one notice that the encoder is missing, not a flag
        end = f.data["end"] if f.code == "misaligned" else f.line
        by_code.setdefault(f.code, np.zeros(n, dtype=bool))[f.line : end + 1] = True
        if f.severity in LISTED:
            mask[f.line : end + 1] = True
    return mask, by_code.get("low-score", np.zeros(n, dtype=bool)), by_code


def shipped_mask(settings: Settings, system: System) -> np.ndarray:
    """Lines with a listed finding (see LISTED) under ``settings``."""
    return listed_masks(settings, system)[0]


def all_on(overrides: Optional[dict] = None) -> Settings:
    """Every code on (the study measures each) but ``adequacy``, which has
    rows of its own (it ranks against the other lines, like outlier); chrF off as by default."""
    s = Settings()
    for name in vars(s.diagnostics):
        c = getattr(s.diagnostics, name)
        if hasattr(c, "enabled"):
            c.enabled = name != "adequacy"
    return s.merged(overrides or {}) if overrides else s


def only_on(code: str, overrides: Optional[dict] = None) -> Settings:
    """Only ``code`` on (with ``overrides``): a variant row costs that rule alone."""
    s = Settings()
    for name in vars(s.diagnostics):
        c = getattr(s.diagnostics, name)
        if hasattr(c, "enabled"):
            c.enabled = name == code.replace("-", "_")
    return s.merged(overrides or {}) if overrides else s


#: codes with rows of their own below, and file-level codes (no line to rate)
SWEPT = ("low-score", "outlier", "adequacy", "line-count-mismatch", "unpaired")
_ADQ = {"enabled": True}
#: (label, settings overrides, code): a row measured through the Analyzer with
#: only its code on.  A code's rows are the options its leave-one-talk-out
#: estimate chooses among.
VARIANTS: list[tuple[str, dict, str]] = [
    ("low-score: BLEU < 10", {"diagnostics": {"lowScore": {"bleuThreshold": 10}}}, "low-score"),
    ("low-score: BLEU < 5", {"diagnostics": {"lowScore": {"bleuThreshold": 5}}}, "low-score"),
    ("low-score: BLEU < 2", {"diagnostics": {"lowScore": {"bleuThreshold": 2}}}, "low-score"),
    ("low-score: chrF < 30 (chrF on, BLEU ignored)", {"chrf": {"enabled": True}, "diagnostics": {"lowScore": {"bleuThreshold": -1, "chrfThreshold": 30}}}, "low-score"),
    ("outlier: BLEU bottom 2%, min 8 tokens", {"diagnostics": {"outlier": {"metric": "bleu", "value": 2, "minTokens": 8}}}, "outlier"),
    ("outlier: BLEU bottom 3%, min 5 tokens", {"diagnostics": {"outlier": {"metric": "bleu", "value": 3, "minTokens": 5}}}, "outlier"),
    ("outlier: BLEU bottom 3%, min 8 tokens", {"diagnostics": {"outlier": {"metric": "bleu", "value": 3, "minTokens": 8}}}, "outlier"),
    ("outlier: BLEU bottom 3%, min 10 tokens", {"diagnostics": {"outlier": {"metric": "bleu", "value": 3, "minTokens": 10}}}, "outlier"),
    ("outlier: BLEU bottom 5%, min 10 tokens", {"diagnostics": {"outlier": {"metric": "bleu", "value": 5, "minTokens": 10}}}, "outlier"),
    ("outlier: BLEU bottom 5%, min 12 tokens", {"diagnostics": {"outlier": {"metric": "bleu", "value": 5, "minTokens": 12}}}, "outlier"),
    ("outlier: chrF bottom 3%, min 8 tokens", {"chrf": {"enabled": True}, "diagnostics": {"outlier": {"metric": "chrf", "value": 3, "minTokens": 8}}}, "outlier"),
    ("outlier: chrF bottom 5%, min 8 tokens", {"chrf": {"enabled": True}, "diagnostics": {"outlier": {"metric": "chrf", "value": 5, "minTokens": 8}}}, "outlier"),
    ("outlier: chrF bottom 10%, min 5 tokens", {"chrf": {"enabled": True}, "diagnostics": {"outlier": {"metric": "chrf", "value": 10, "minTokens": 5}}}, "outlier"),
    ("outlier: chrF bottom 10%, min 8 tokens", {"chrf": {"enabled": True}, "diagnostics": {"outlier": {"metric": "chrf", "value": 10, "minTokens": 8}}}, "outlier"),
    ("adequacy: similarity + chrF, bottom 2%, min 5 tokens", {"diagnostics": {"adequacy": {**_ADQ, "percent": 2, "minTokens": 5}}}, "adequacy"),
    ("adequacy: similarity + chrF, bottom 2%, min 5 tokens, weakest 20% by chrF encoded", {"diagnostics": {"adequacy": {**_ADQ, "percent": 2, "minTokens": 5, "candidates": 20}}}, "adequacy"),
    ("adequacy: similarity + chrF, bottom 2%, min 5 tokens, every line encoded", {"diagnostics": {"adequacy": {**_ADQ, "percent": 2, "minTokens": 5, "candidates": 100}}}, "adequacy"),
    ("adequacy: similarity + chrF, bottom 3%, min 5 tokens", {"diagnostics": {"adequacy": {**_ADQ, "percent": 3, "minTokens": 5}}}, "adequacy"),
    ("adequacy: similarity + chrF, bottom 3%, min 8 tokens", {"diagnostics": {"adequacy": {**_ADQ, "percent": 3, "minTokens": 8}}}, "adequacy"),
    ("adequacy: similarity + chrF, bottom 5%, min 5 tokens", {"diagnostics": {"adequacy": {**_ADQ, "percent": 5, "minTokens": 5}}}, "adequacy"),
]
#: the codes whose finding is an error by construction (listed whenever they fire)
ALWAYS = ("empty-hypothesis", "untranslated", "repetition", "markup-mismatch", "misaligned")
#: the source checks listed by default: each reports a difference from the
#: source that a reviewer must look at; they flag few lines (their rows below)
LISTED_CODES = ("number-mismatch", "unbalanced", "wrong-language")


def rows_for(systems: list[System], extra: Callable[[System], dict[str, np.ndarray]],
             variants: Sequence[tuple[str, dict, str]] = VARIANTS, codes: bool = True) -> dict[str, list[np.ndarray]]:
    """{row label: [mask per system]} for the variants, every other code the
    Analyzer reports with all codes on (unless not ``codes``), and ``extra``'s rows."""
    per_system: list[dict[str, np.ndarray]] = []
    base = all_on()
    for s in systems:
        n = len(s.hypothesis)
        found = analyzer_masks(base, s) if codes else {}
        masks = {code: found.get(code, np.zeros(n, dtype=bool)) for code in CODES if code not in SWEPT and codes}
        for label, over, code in variants:
            masks[label] = analyzer_masks(only_on(code, over), s).get(code, np.zeros(n, dtype=bool))
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
Masks = list  # one bool array per system (one corpus), or one systems x segments array per corpus


class Yardstick:
    """Per-segment counts of the data (one or more corpora, their segments
    side by side), and the measures of a rule's masks."""

    def __init__(self, groups, n_boot: int = 2000, seed: int = 10) -> None:
        if groups and isinstance(groups[0], System):
            groups = [groups]
        self.groups = [list(g) for g in groups]
        nb = len(LENGTH_EDGES) + 1
        self.rated_m, self.major_m, strata, lines, self.bin_rate, self.bins = [], [], [], [], [], []
        for gi, g in enumerate(self.groups):
            mqm = np.stack([s.mqm for s in g])  # systems x segments
            rated = ~np.isnan(mqm)
            major = rated & (np.nan_to_num(mqm, nan=0.0) <= MAJOR)
            self.rated_m.append(rated)
            self.major_m.append(major)
            bins = np.searchsorted(LENGTH_EDGES, g[0].ref_len, side="right")
            self.bins.append(np.eye(nb)[bins])
            strata.append(bins + gi * nb)
            lines.append(np.full(mqm.shape[1], len(g), dtype=float))
            # P(major | length bin), pooled over the corpus' systems (for the per-system figures)
            self.bin_rate.append((major.sum(0) @ self.bins[-1]) / np.maximum(rated.sum(0) @ self.bins[-1], 1))
        self.offsets = np.cumsum([0, *(m.shape[1] for m in self.rated_m)])
        n_seg = int(self.offsets[-1])
        self.onehot = np.eye(nb * len(self.groups))[np.concatenate(strata)]  # segments x (corpus, bin)
        self.lines = np.concatenate(lines)  # lines per segment (one per system)
        self.rated = np.concatenate([m.sum(0) for m in self.rated_m]).astype(float)
        self.major = np.concatenate([m.sum(0) for m in self.major_m]).astype(float)
        # each corpus' segments resampled within it
        rng = np.random.default_rng(seed)
        self.weights = np.zeros((n_boot, n_seg))
        for a, b in zip(self.offsets, self.offsets[1:]):
            draws = rng.integers(a, b, size=(n_boot, b - a))
            for k in range(n_boot):
                self.weights[k] += np.bincount(draws[k], minlength=n_seg)

    def group_of(self, gi: int) -> np.ndarray:
        """The segments of corpus ``gi`` (bool over all segments)."""
        sel = np.zeros(int(self.offsets[-1]), dtype=bool)
        sel[self.offsets[gi] : self.offsets[gi + 1]] = True
        return sel

    def _by_group(self, masks: Masks) -> list[np.ndarray]:
        if len(masks) and isinstance(masks[0], np.ndarray) and masks[0].ndim == 1:
            masks = [masks]  # one corpus: a list of per-system masks
        return [m if isinstance(m, np.ndarray) else np.stack(m) for m in masks]

    def counts(self, masks: Masks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(lines flagged, rated lines flagged, majors flagged) per segment."""
        flagged = self._by_group(masks)
        return (
            np.concatenate([f.sum(0) for f in flagged]).astype(float),
            np.concatenate([(f & r).sum(0) for f, r in zip(flagged, self.rated_m)]).astype(float),
            np.concatenate([(f & m).sum(0) for f, m in zip(flagged, self.major_m)]).astype(float),
        )

    def _measures(self, w: np.ndarray, counts) -> dict[str, np.ndarray]:
        """The measures for segment weights ``w`` (resamples x segments)."""
        fl, fr, fm = counts
        rated, major = self.rated, self.major
        with np.errstate(divide="ignore", invalid="ignore"):
            base = (w @ major) / (w @ rated)
            prec = (w @ fm) / (w @ fr)
            rate_bins = (w @ (major[:, None] * self.onehot)) / (w @ (rated[:, None] * self.onehot))
            expected = np.nansum(rate_bins * (w @ (fr[:, None] * self.onehot)), axis=1)
            return {
                "rate": (w @ fl) / (w @ self.lines),
                "precision": prec,
                "lift": prec / base,
                "recall": (w @ fm) / (w @ major),
                "adj_lift": (w @ fm) / expected,
                "base": base,
            }

    def point(self, masks_or_counts, where: Optional[np.ndarray] = None) -> dict[str, float]:
        """The measures without intervals, on the segments ``where`` (default: all)."""
        counts = masks_or_counts if isinstance(masks_or_counts, tuple) else self.counts(masks_or_counts)
        w = np.ones((1, len(self.rated))) if where is None else where[None, :].astype(float)
        return {k: float(v[0]) for k, v in self._measures(w, counts).items()}

    def measure(self, masks: Masks) -> dict[str, float]:
        counts = self.counts(masks)
        point = self.point(counts)
        boot = self._measures(self.weights, counts)
        for key in ("lift", "adj_lift"):
            lo, hi = np.nanpercentile(boot[key], [2.5, 97.5]) if np.isfinite(boot[key]).any() else (np.nan, np.nan)
            point[key + "_ci"] = (float(lo), float(hi))
        point["flagged_rated"] = int(counts[1].sum())
        point.update(self.per_system(self._by_group(masks)))
        return point

    def per_system(self, flagged: list[np.ndarray]) -> dict[str, float]:
        """Per-system length-adjusted lifts: how many above 1, the lowest."""
        lifts, rates = [], []
        for gi, f_g in enumerate(flagged):
            for k in range(f_g.shape[0]):
                f = f_g[k]
                fr = f & self.rated_m[gi][k]
                expected = float(self.bin_rate[gi] @ (fr @ self.bins[gi])) if fr.any() else 0.0
                rates.append(f.mean())
                if expected > 0:
                    lifts.append((f & self.major_m[gi][k]).sum() / expected)
        return {
            "sys_rate_min": float(min(rates)),
            "sys_rate_max": float(max(rates)),
            "sys_above1": sum(x > 1 for x in lifts),
            "sys_measured": len(lifts),
            "sys_min": float(min(lifts)) if lifts else float("nan"),
            "sys_lifts": lifts,
        }


# --------------------------------------------------------------------------
# leave one talk out
# --------------------------------------------------------------------------
@dataclass
class Choice:
    """A family of options, each the union of some rows, and how one is chosen."""

    name: str
    options: list[tuple[str, ...]]
    #: the least share of lines an option must list in each language pair
    min_rate: float = 0.0


def union(rows: dict[str, list], option: Sequence[str], n_corpora: int) -> list[np.ndarray]:
    """Per corpus, the systems x segments union of ``option``'s rows
    (``rows[label][corpus]`` = one mask per system)."""
    out = []
    for ci in range(n_corpora):
        acc = None
        for label in option:
            m = np.stack(rows[label][ci])
            acc = m.copy() if acc is None else acc | m
        out.append(acc)
    return out


def choose(ys: Yardstick, counts: list[tuple], train: np.ndarray, min_rate: float) -> int:
    """The option with the highest length-adjusted lift in its weaker language
    pair on the segments ``train``, among those listing between ``min_rate``
    and MAX_LISTED of the lines in each pair (all options if none does)."""
    sels = [train & ys.group_of(gi) for gi in range(len(ys.groups))]
    w = np.stack([s for s in sels if s.any()]).astype(float)
    best = fallback = None
    for k, c in enumerate(counts):
        m = ys._measures(w, c)
        key = (float(np.nan_to_num(m["adj_lift"], nan=0.0).min()), -k)
        if ((m["rate"] >= min_rate) & (m["rate"] <= MAX_LISTED)).all() and (best is None or key > best):
            best = key
        if fallback is None or key > fallback:
            fallback = key
    return -(best or fallback)[1]


def leave_one_talk_out(ys: Yardstick, corpora: list[Corpus], rows: dict[str, list], choice: Choice) -> dict:
    """Choose on the other talks, measure on the held-out one: the held-out
    masks of every talk side by side, the choice per held-out talk and on all talks."""
    counts = [ys.counts(union(rows, opt, len(corpora))) for opt in choice.options]
    talks = np.concatenate([c.talks for c in corpora])
    in_sample = choose(ys, counts, np.ones(len(talks), dtype=bool), choice.min_rate)
    held = [np.zeros((len(c.systems), len(c.talks)), dtype=bool) for c in corpora]
    per_fold = {}
    for key in dict.fromkeys(talks):
        k = choose(ys, counts, talks != key, choice.min_rate)
        per_fold[key] = choice.options[k]
        masks = union(rows, choice.options[k], len(corpora))
        for ci, c in enumerate(corpora):
            out = c.talks == key
            held[ci][:, out] = masks[ci][:, out]
    return {"in_sample": choice.options[in_sample], "per_fold": per_fold, "held_out": held}


DEFAULT_SET = "**the default set** (which codes are listed, their thresholds)"


def families(variants: Sequence[tuple[str, dict, str]] = VARIANTS) -> list[Choice]:
    """The choices estimated out of sample: each score rule's threshold, and
    the default set as a whole: the codes that report an error by construction
    (ALWAYS, LISTED_CODES) and, for each score rule, listed with one of its
    thresholds or not listed; an option must list at least 1 % of the lines
    in each language pair, so that listing nothing does not win."""
    def of(code):
        return [(label,) for label, _, c in variants if c == code]

    out = [Choice(code, of(code)) for code in ("low-score", "outlier", "adequacy") if of(code)]
    sets = [ALWAYS + LISTED_CODES + low + outl + adq
            for low in [()] + [o for o in of("low-score") if "BLEU < 10" not in o[0]]
            for outl in [()] + of("outlier")
            for adq in [()] + of("adequacy")]
    out.append(Choice(DEFAULT_SET, sets, min_rate=0.01))
    return out


def short(option: Sequence[str]) -> str:
    """An option without the codes every default set lists."""
    parts = [p for p in option if p not in ALWAYS + LISTED_CODES]
    return " + ".join(p.replace("similarity + chrF, ", "").replace(" (chrF on, BLEU ignored)", "") for p in parts) or "(nothing else)"


# --------------------------------------------------------------------------
# the line checks not (yet) run by the Analyzer
# --------------------------------------------------------------------------
def similarity_rows(system: System) -> dict[str, np.ndarray]:
    """The encoder's source/line similarity alone, bottom p% of each document
    (the ``adequacy`` code ranks it together with chrF): what it adds by itself."""
    from bleu_ls.qa.adequacy.qe import low_similarity

    sims = adequacy(system)
    if sims is None:
        return {}
    return {f"(similarity alone) bottom {pct}%": low_similarity(sims, pct, 0.0) for pct in (3, 5, 10)}


_ADEQUACY: dict = {}


def adequacy(system: System) -> Optional[np.ndarray]:
    """Source/line similarities with the qe extra, or None when it is absent."""
    from bleu_ls.qa.adequacy.qe import Adequacy

    model = _ADEQUACY.setdefault("model", Adequacy(threads=1))
    sims = model.similarities(system.source, system.hypothesis)
    return None if model.error else sims


# --------------------------------------------------------------------------
# the study
# --------------------------------------------------------------------------
SHIPPED = "**shipped defaults**: lines listed (error, warning, information)"
WITH_LOW = "shipped defaults, `low-score` lines counted as listed too"
SHIPPED_WITH_LOW_HINT = Settings.from_dict({"diagnostics": {"lowScore": {"enabled": True, "severity": "hint"}}})
WITHOUT_QE = "shipped defaults without adequacy (encoder missing, or switched off)"
POOLED = "pooled"


@dataclass
class Study:
    corpora: list[Corpus]
    rows: dict[str, list]  # label -> per corpus: one mask per system
    results: dict[str, dict[str, dict]]  # label -> pair (or POOLED) -> measures
    loto: dict[str, dict] = field(default_factory=dict)  # choice -> in_sample, per_fold, results

    @property
    def pairs(self) -> list[str]:
        return [c.pair for c in self.corpora] + ([POOLED] if len(self.corpora) > 1 else [])


def run(folders: Sequence[Path], n_boot: int = 2000, variants: Sequence[tuple[str, dict, str]] = VARIANTS,
        loto: bool = True, extra: Optional[Callable[[System], dict]] = None, codes: bool = True) -> Study:
    """Every row on every folder, measured per language pair and pooled;
    with ``loto`` the leave-one-talk-out estimates of the choices.  Without
    ``codes`` (a reduced study, for the tests) only the variants and the
    shipped defaults are measured: no per-code rows, nothing without adequacy."""
    extra = similarity_rows if extra is None else extra
    corpora = [load_corpus(Path(d)) for d in folders]
    rows: dict[str, list] = {}
    for ci, c in enumerate(corpora):
        got = rows_for(c.systems, extra, variants, codes)
        # the shipped defaults, with low-score switched on as the hint it is when on (off by
        # default: the inlay hint shows the score): a hint is not listed, so the listed lines
        # are the defaults' own, and the low-score lines are there for the WITH_LOW row
        listed = [listed_masks(SHIPPED_WITH_LOW_HINT, s) for s in c.systems]
        got[SHIPPED] = [m for m, _, _ in listed]
        got[WITH_LOW] = [m | low for m, low, _ in listed]
        for code in ALWAYS + LISTED_CODES:  # the reduced study: these codes as the defaults find them
            got.setdefault(code, [by.get(code, np.zeros(len(s.hypothesis), dtype=bool)) for s, (_, _, by) in zip(c.systems, listed)])
        if codes:
            without_qe = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": False}}})
            got[WITHOUT_QE] = [listed_masks(without_qe, s)[0] for s in c.systems]
        for label, masks in got.items():
            rows.setdefault(label, [[np.zeros(len(s.hypothesis), dtype=bool) for s in cc.systems] for cc in corpora])
            rows[label][ci] = masks
    sticks = [Yardstick([c.systems], n_boot=n_boot) for c in corpora]
    pooled = Yardstick([c.systems for c in corpora], n_boot=n_boot)

    def measure_all(per_corpus: list) -> dict[str, dict]:
        out = {c.pair: ys.measure(m) for c, ys, m in zip(corpora, sticks, per_corpus)}
        if len(corpora) > 1:
            out[POOLED] = pooled.measure(per_corpus)
        return out

    study = Study(corpora, rows, {label: measure_all(m) for label, m in rows.items()})
    if loto:
        for choice in families(variants):
            got = leave_one_talk_out(pooled, corpora, rows, choice)
            got["results"] = measure_all(got.pop("held_out"))
            study.loto[choice.name] = got
    return study


# --------------------------------------------------------------------------
# output
# --------------------------------------------------------------------------
def fmt_ci(ci) -> str:
    return f"{ci[0]:.2f}–{ci[1]:.2f}"


def _row(cells: list[str], markdown: bool) -> str:
    return ("| " + " | ".join(cells) + " |") if markdown else "  ".join(cells)


def _head(cells: list[str], markdown: bool) -> list[str]:
    if not markdown:
        return ["  ".join(cells)]
    return ["| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |", "|" + "---|" * len(cells)]


def table(study: Study, markdown: bool) -> list[str]:
    """Per row: for each language pair the share listed, the rated lines
    flagged, the length-adjusted lift and how many systems keep it above 1;
    pooled: the share and the lift."""
    head = ["rule"]
    for pair in study.pairs:
        if pair == POOLED:
            head += ["pooled: flagged", "length-adj. lift (95% CI)"]
        else:
            head += [f"{pair}: flagged", "rated", "length-adj. lift (95% CI)", "systems > 1 (min)"]
    lines = _head(head, markdown)
    for label, by_pair in study.results.items():
        cells = [label]
        for pair in study.pairs:
            r = by_pair[pair]
            adj = f"{r['adj_lift']:.2f} ({fmt_ci(r['adj_lift_ci'])})"
            if pair == POOLED:
                cells += [f"{r['rate'] * 100:.1f}%", adj]
            else:
                cells += [f"{r['rate'] * 100:.1f}%", str(r["flagged_rated"]), adj,
                          f"{r['sys_above1']}/{r['sys_measured']} ({r['sys_min']:.2f})"]
        lines.append(_row(cells, markdown))
    return lines


def loto_table(study: Study, markdown: bool) -> list[str]:
    """Per choice: what all talks choose, how many held-out talks choose the
    same, and the held-out measures per language pair and pooled."""
    head = ["choice", "chosen on all talks", "same when a talk is held out"]
    for pair in study.pairs:
        head += [f"{pair}: listed (held out)", "length-adj. lift held out (95% CI)"]
    lines = _head(head, markdown)
    for name, got in study.loto.items():
        folds = list(got["per_fold"].values())
        same = sum(f == got["in_sample"] for f in folds)
        cells = [name, short(got["in_sample"]), f"{same}/{len(folds)}"]
        for pair in study.pairs:
            r = got["results"][pair]
            cells += [f"{r['rate'] * 100:.1f}%", f"{r['adj_lift']:.2f} ({fmt_ci(r['adj_lift_ci'])})"]
        lines.append(_row(cells, markdown))
    return lines


def fold_choices(study: Study) -> list[str]:
    lines = []
    for name, got in study.loto.items():
        if any(f != got["in_sample"] for f in got["per_fold"].values()):
            lines.append(f"{name}, chosen without each talk:")
            for talk, option in got["per_fold"].items():
                lines.append(f"  without {talk}: {short(option)}")
    return lines


def one_code(folders: Sequence[Path], code: str, n_boot: int, markdown: bool, show: bool) -> list[str]:
    """The rows of one code alone (on with its defaults, the others off), measured per
    language pair and pooled, and (``show``) each flagged line with its MQM score."""
    corpora = [load_corpus(Path(d)) for d in folders]
    settings = only_on(code)
    per_corpus, shown = [], []
    for c in corpora:
        masks = []
        for s in c.systems:
            model = _model(settings, s)
            m = np.zeros(len(s.hypothesis), dtype=bool)
            # the target language as a file declares it (the spelling check's dictionary)
            names = {"target_language": c.pair.split("-")[-1]}
            for f in Analyzer(settings).analyse(model, s.source, names):
                if f.code == code:
                    m[f.line] = True
                    shown.append(f"{c.pair} {s.name} line {f.line + 1} MQM {s.mqm[f.line]:g}: {f.message}"
                                 f"\n    {s.hypothesis[f.line]}")
            masks.append(m)
        per_corpus.append(masks)
    label = f"{code} ({'with the reference' if REFERENCE else 'source only'})"
    results = {c.pair: Yardstick([c.systems], n_boot=n_boot).measure(m) for c, m in zip(corpora, per_corpus)}
    if len(corpora) > 1:
        results[POOLED] = Yardstick([c.systems for c in corpora], n_boot=n_boot).measure(per_corpus)
    study = Study(corpora, {label: per_corpus}, {label: results})
    lines = table(study, markdown)
    for c, masks in zip(corpora, per_corpus):
        n = sum(len(s.hypothesis) for s in c.systems)
        lines.append(f"{c.pair}: {int(sum(m.sum() for m in masks))} lines flagged of {n} "
                     f"({1000 * sum(m.sum() for m in masks) / n:.2f} per 1,000)")
    return lines + (["", *shown] if show else [])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="*", help=f"rated folders (default: every one under {DATA_ROOT.resolve()})")
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables")
    ap.add_argument("--per-system", action="store_true", help="also print the shipped defaults per system")
    ap.add_argument("--boot", type=int, default=2000, help="bootstrap resamples (default 2000)")
    ap.add_argument("--no-loto", action="store_true", help="leave out the leave-one-talk-out estimates")
    ap.add_argument("--no-reference", action="store_true",
                    help="run the rules as on a file checked without its reference (source only)")
    ap.add_argument("--code", help="measure this code alone (on with its defaults) and list its flags")
    args = ap.parse_args(argv)
    global REFERENCE
    REFERENCE = not args.no_reference
    folders = [Path(d) for d in args.data] or rated_folders()
    for data in folders:
        if not (data / "ref.txt").is_file() or not (data / "src.txt").is_file() or not any(data.glob("*.mqm.tsv")):
            print(f"flag_study: no MQM data (src.txt, ref.txt, *.hyp, *.mqm.tsv) at {data}", file=sys.stderr)
            return 2
    if not folders:
        print(f"flag_study: no rated folder under {DATA_ROOT.resolve()}", file=sys.stderr)
        return 2
    if args.code:
        print("\n".join(one_code(folders, args.code, args.boot, args.markdown, True)))
        return 0
    study = run(folders, n_boot=args.boot, loto=not args.no_loto)
    if adequacy(study.corpora[0].systems[0]) is None:
        print("flag_study: the sentence encoder is not installed: the shipped row lacks adequacy", file=sys.stderr)
    for c, ys in zip(study.corpora, [Yardstick([c.systems], n_boot=1) for c in study.corpora]):
        n = sum(len(s.hypothesis) for s in c.systems)
        base = ys.point([np.zeros(len(s.hypothesis), dtype=bool) for s in c.systems])["base"]
        print(f"{c.name} ({c.pair}): {len(c.systems)} systems x {len(c.talks)} segments = {n} lines; "
              f"base rate of major errors (MQM <= {MAJOR:g}) {base:.3f}; talks ({c.talks_from}): "
              + ", ".join(f"{k} {int((c.talks == k).sum())}" for k in dict.fromkeys(c.talks)))
    print(f"bootstrap over segments, {args.boot} resamples\n")
    print("\n".join(table(study, args.markdown)))
    if study.loto:
        print("\nleave one talk out: chosen on the other talks, measured on the held-out one\n")
        print("\n".join(loto_table(study, args.markdown)))
        extra = fold_choices(study)
        if extra:
            print("\n" + "\n".join(extra))
    if args.per_system:
        for c in study.corpora:
            print(f"\n{c.pair}, per system, {SHIPPED}: length-adjusted lift")
            for s, lift in zip(c.systems, study.results[SHIPPED][c.pair]["sys_lifts"]):
                print(f"  {s.name}: {lift:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
