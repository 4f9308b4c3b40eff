"""settings.py: how wire values are coerced, merged and validated, and the
option names it shares with the engine, the CLI and the editors."""

from __future__ import annotations

import pytest

from bleu_ls.engine import BleuMetric, NltkBleuMetric
from bleu_ls.engine.tokenizers import get_tokenizer
from bleu_ls.config.settings import (
    BLEU_SMOOTHING,
    METRICS,
    NLTK_SMOOTHING,
    PRESETS,
    SEVERITIES,
    SEVERITY_RANK,
    TOKENIZERS,
    Settings,
)


def build(data) -> tuple[Settings, list[str]]:
    problems: list[str] = []
    return Settings.from_dict(data, problems), problems


# -- coercion --------------------------------------------------------------------


def test_camel_and_snake_keys_and_whole_floats():
    s, problems = build({"bleu": {"maxOrder": 3.0, "smooth_value": 1}, "diagnostics": {"lowScore": {"bleuThreshold": 5}}})
    assert problems == []
    assert s.bleu.max_order == 3 and type(s.bleu.max_order) is int
    assert s.bleu.smooth_value == 1.0 and type(s.bleu.smooth_value) is float
    assert s.diagnostics.low_score.bleu_threshold == 5.0


@pytest.mark.parametrize(
    "data, sentence",
    [
        ({"bleu": {"lowercase": "yes"}}, "bleu.lowercase must be true or false; kept False"),
        ({"bleu": {"tokenize": 5}}, "bleu.tokenize must be a string; kept '13a'"),
        ({"bleu": {"maxOrder": 2.5}}, "bleu.maxOrder must be a whole number; kept 4"),
        ({"bleu": {"maxOrder": True}}, "bleu.maxOrder must be a whole number; kept 4"),
        ({"diagnostics": {"lowScore": {"bleuThreshold": True}}}, "diagnostics.lowScore.bleuThreshold must be a number; kept 10.0"),
        ({"bleu": {"weights": 0.5}}, "bleu.weights must be a list; kept None"),
        ({"bleu": {"weights": [1, "a"]}}, "bleu.weights[1] must be a number; kept None"),
        ({"bleu": {"bogus": 1}}, "unknown setting bleu.bogus; ignored"),
        ({"chrf": [1]}, "chrf must be a table/object; ignored"),
        (5, "settings must be a table/object; ignored"),
    ],
)
def test_a_bad_value_is_one_sentence_and_keeps_the_default(data, sentence):
    s, problems = build(data)
    assert problems == [sentence]
    assert s == Settings()


def test_bad_values_do_not_take_the_good_ones_down():
    s, problems = build({"bleu": {"tokenize": 5, "maxOrder": 2}, "chrf": {"enabled": True, "beta": "x"}})
    assert (s.bleu.tokenize, s.bleu.max_order) == ("13a", 2)
    assert (s.chrf.enabled, s.chrf.beta) == (True, 2)
    assert len(problems) == 2


def test_null_resets_an_optional_value():
    base = Settings.from_dict({"bleu": {"smooth": "floor", "smoothValue": 0.2}})
    s = base.merged({"bleu": {"smooth": None, "smoothValue": None}})
    assert (s.bleu.smooth, s.bleu.smooth_value) == (None, None)


# -- merging ---------------------------------------------------------------------


def test_merged_lays_values_over_a_copy():
    base, _ = build({"bleu": {"maxOrder": 3, "lowercase": True}, "chrf": {"enabled": True}})
    problems: list[str] = []
    merged = base.merged({"bleu": {"maxOrder": 2}}, problems)
    assert problems == []
    assert (merged.bleu.max_order, merged.bleu.lowercase, merged.chrf.enabled) == (2, True, True)
    assert base.bleu.max_order == 3  # the base is not changed


def test_round_trip_through_to_dict():
    s, _ = build({"bleu": {"preset": "nltk", "weights": [0.5, 0.5]}, "pairs": [{"hypothesis": "*.mt", "references": ["{stem}.ref"]}]})
    d = s.to_dict()
    assert d["bleu"]["weights"] == [0.5, 0.5] and "maxOrder" in d["bleu"]
    assert Settings.from_dict(d) == s


# -- validation ------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, sentence",
    [
        ({"bleu": {"preset": "x"}}, "bleu.preset must be one of sacrebleu, nltk, nltk-3.2, not 'x'"),
        ({"bleu": {"smooth": "nltk-method1"}}, "bleu.smooth must be one of none, floor, add-k, exp, not 'nltk-method1'"),
        ({"bleu": {"tokenize": "spm"}}, "bleu.tokenize must be one of none, 13a, intl, zh, char, ja-mecab, ko-mecab, not 'spm'"),
        (
            {"bleu": {"preset": "nltk", "smooth": "exp"}},
            "with the nltk preset bleu.smooth must be one of " + ", ".join(f"nltk-method{i}" for i in range(8)) + ", not 'exp'",
        ),
        ({"bleu": {"maxOrder": 0}}, "bleu.maxOrder must be between 1 and 16, not 0"),
        ({"bleu": {"weights": []}}, "bleu.weights must be a non-empty list of non-negative numbers"),
        ({"bleu": {"weights": [1, -1]}}, "bleu.weights must be a non-empty list of non-negative numbers"),
        ({"chrf": {"charOrder": 0}}, "chrf.charOrder and chrf.wordOrder must be >= 0 and not both 0"),
        ({"chrf": {"beta": -1}}, "chrf.beta must be >= 0"),
        (
            {"diagnostics": {"lengthRatio": {"severity": "loud"}}},
            "diagnostics.lengthRatio.severity must be one of error, warning, information, hint, not 'loud'",
        ),
        (
            {"diagnostics": {"outlier": {"rule": "top"}}},
            "diagnostics.outlier.rule must be one of bottom-percent, robust-z, below-median, not 'top'",
        ),
        ({"diagnostics": {"outlier": {"metric": "ter"}}}, "diagnostics.outlier.metric must be bleu or chrf, not 'ter'"),
        ({"pairs": [{"hypothesis": "*.mt"}]}, "pairs[0] needs a hypothesis pattern and at least one reference pattern"),
    ],
)
def test_validate_names_the_bad_value(data, sentence):
    s, problems = build(data)
    assert problems == []
    assert s.validate() == [sentence]


def test_defaults_are_valid():
    assert Settings().validate() == []
    assert Settings.from_dict({"bleu": {"preset": "nltk-3.2"}}).validate() == []


# -- the option names shared with the engine ------------------------------------


def test_every_name_is_one_the_engine_accepts():
    for name in TOKENIZERS:
        if "mecab" not in name:  # optional dependencies
            assert callable(get_tokenizer(name))
    for smooth in BLEU_SMOOTHING:
        assert BleuMetric(smooth=smooth).smooth == smooth
    for smooth in NLTK_SMOOTHING:
        assert NltkBleuMetric(smooth=smooth).smooth == smooth
    with pytest.raises(ValueError):
        NltkBleuMetric(smooth="nltk-method8")
    assert METRICS == tuple(Settings().to_dict())[: len(METRICS)]
    assert PRESETS[0] == Settings().bleu.preset


def test_severity_ranks_are_lsp_numbers():
    from lsprotocol import types

    assert [SEVERITY_RANK[s] for s in SEVERITIES] == [
        types.DiagnosticSeverity.Error,
        types.DiagnosticSeverity.Warning,
        types.DiagnosticSeverity.Information,
        types.DiagnosticSeverity.Hint,
    ]
