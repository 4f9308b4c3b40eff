"""The diagnostics settings (``diagnostics.<code>``): each code on or off, its
severity and its thresholds.  Part of :class:`bleu_ls.settings.Settings`;
the defaults were chosen by measurement (docs/diagnostics.md)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class CheckSettings:
    """One diagnostic code: on/off and severity."""

    enabled: bool = True
    severity: str = "warning"


@dataclass
class LowScoreSettings(CheckSettings):
    #: A hint by default: a fixed threshold flags ~18% of the lines of good MT
    #: with little to show for it (measured: docs/diagnostics.md).
    severity: str = "hint"
    #: A line scoring under this BLEU (0–100 scale) is flagged.
    bleu_threshold: float = 10.0
    #: A line scoring under this chrF (0–100) is flagged, when chrF is on.
    chrf_threshold: float = 30.0


@dataclass
class OutlierSettings(CheckSettings):
    #: Severity of outlier diagnostics. A hint by default: next to ``adequacy``
    #: its flags point at major errors less often, into German and into
    #: English alike (measured: docs/diagnostics.md).
    severity: str = "hint"
    #: bottom-percent: the weakest ``value`` % of the document's lines;
    #: robust-z: |x - median| / (1.4826 MAD) > ``value`` on the low side;
    #: below-median: x < median - ``value`` points.
    #: Default chosen by measurement on WMT21 TED MQM data (docs/outliers.md).
    rule: str = "bottom-percent"
    value: float = 3.0
    #: bleu or chrf: which per-line score the rule ranks.
    metric: str = "bleu"
    #: Documents with fewer paired lines than this are not ranked.
    min_lines: int = 20
    #: Lines whose (closest) reference has fewer tokens than this are not
    #: ranked: sentence scores of very short lines are mostly noise.
    min_tokens: int = 8


@dataclass
class LengthRatioSettings(CheckSettings):
    #: A hint by default: it fires mostly where the reference is a terse
    #: paraphrase (measured: docs/diagnostics.md).
    severity: str = "hint"
    min_ratio: float = 0.5
    max_ratio: float = 2.0
    #: Lines whose reference has fewer tokens than this are not checked.
    min_tokens: int = 3


@dataclass
class RepetitionSettings(CheckSettings):
    #: An n-gram (1..max_n) occurring at least ``min_count`` times and at
    #: least ``factor`` times as often as in the best reference is flagged.
    max_n: int = 4
    min_count: int = 3
    factor: float = 2.0


@dataclass
class WrongLanguageSettings(CheckSettings):
    #: The document's language as the identifier names it (de, fr, zh, …);
    #: empty: the language most reference lines are in.
    language: str = ""
    #: Lines with fewer letters are not judged (measured: docs/diagnostics.md).
    min_letters: int = 10
    #: How sure the identifier must be that the line is in another language.
    min_probability: float = 0.8


@dataclass
class MisalignedSettings(CheckSettings):
    #: A stretch needs this many lines matching a neighbouring reference line.
    min_run: int = 3


@dataclass
class AdequacySettings(CheckSettings):
    """Needs a source and the sentence encoder (a dependency; the ``qe`` extra
    names it too).  On by default: it is the listed code that holds best in
    both languages measured (docs/diagnostics.md); the server computes it in a
    worker process, ``bleu-ls check`` at about 5 ms of CPU per line."""

    enabled: bool = True
    severity: str = "information"
    #: The weakest ``percent`` % of the lines by similarity to the source and
    #: chrF together (2: chosen with each talk held out, en-de and zh-en).
    percent: float = 2.0
    #: Lines whose reference has fewer tokens are not ranked.
    min_tokens: int = 5
    #: Documents with fewer paired lines are not ranked.
    min_lines: int = 20


@dataclass
class DiagnosticsSettings:
    enabled: bool = True
    low_score: LowScoreSettings = field(default_factory=LowScoreSettings)
    outlier: OutlierSettings = field(default_factory=OutlierSettings)
    empty_hypothesis: CheckSettings = field(default_factory=lambda: CheckSettings(severity="error"))
    untranslated: CheckSettings = field(default_factory=CheckSettings)
    length_ratio: LengthRatioSettings = field(default_factory=LengthRatioSettings)
    repetition: RepetitionSettings = field(default_factory=RepetitionSettings)
    line_count_mismatch: CheckSettings = field(default_factory=lambda: CheckSettings(severity="error"))
    unpaired: CheckSettings = field(default_factory=lambda: CheckSettings(severity="information"))
    # source-aware checks (need a paired source) and document-level text checks
    number_mismatch: CheckSettings = field(default_factory=CheckSettings)
    markup_mismatch: CheckSettings = field(default_factory=CheckSettings)
    unbalanced: CheckSettings = field(default_factory=CheckSettings)
    end_punctuation: CheckSettings = field(default_factory=lambda: CheckSettings(enabled=False, severity="hint"))
    wrong_language: WrongLanguageSettings = field(default_factory=WrongLanguageSettings)
    misaligned: MisalignedSettings = field(default_factory=MisalignedSettings)
    adequacy: AdequacySettings = field(default_factory=AdequacySettings)
    #: Push-diagnostics debounce for clients without pull diagnostics (ms).
    debounce_ms: int = 150
