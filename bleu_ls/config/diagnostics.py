"""The diagnostics settings (``diagnostics.<code>``): each code on or off, its
severity and its thresholds.  Part of :class:`bleu_ls.config.settings.Settings`;
the defaults were chosen by measurement (docs/diagnostics.md); those of the
checks of a file's own format (PO, XLIFF, TMX, subtitles) are the check
modules' own, named after the QA tools and style guide they follow
(docs/formats.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..qa.formats.po_checks import DEFAULT_SEVERITY as _PO_SEVERITY
from ..qa.formats.subtitle_checks import CODES as _SUBTITLE_SEVERITY, SubtitleLimits as _Limits
from ..qa.formats.xml_checks import DEFAULT_SEVERITY as _XML_SEVERITY

#: The checks of a file's own format, code -> default severity: XLIFF/TMX, then
#: those of PO only, then the subtitles'.  Each is a row ``diagnostics.<code>``.
FORMAT_SEVERITY: dict[str, str] = {**_XML_SEVERITY, **_PO_SEVERITY, **_SUBTITLE_SEVERITY}
FORMAT_CODES = tuple(FORMAT_SEVERITY)


@dataclass
class CheckSettings:
    """One diagnostic code: on/off and severity."""

    enabled: bool = True
    severity: str = "warning"


@dataclass
class LowScoreSettings(CheckSettings):
    #: Off by default: the inlay hint shows every line's score already, and a
    #: fixed threshold flags ~18% of the lines of good MT with little to show
    #: for it (measured: docs/diagnostics.md) -- 86% of the diagnostics of a
    #: real 100k-line file, one changing with every key typed on a low line.
    enabled: bool = False
    #: A hint when switched on.
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
    worker process, ``bleu-ls check`` in the process: both encode only the
    ``candidates`` (about 4 ms of CPU per line encoded, source and line)."""

    enabled: bool = True
    severity: str = "information"
    #: The weakest ``percent`` % of the lines by similarity to the source and
    #: chrF together (2: chosen with each talk held out, en-de and zh-en).
    percent: float = 2.0
    #: Only the weakest ``candidates`` % of the lines by chrF are compared
    #: with their source and ranked (every line when there is no reference):
    #: the sentence encoder is what costs, about 2 ms of CPU per line.
    candidates: float = 10.0
    #: Lines whose reference has fewer tokens are not ranked.
    min_tokens: int = 5
    #: Documents with fewer paired lines are not ranked.
    min_lines: int = 20


def _format(code: str, cls: type = CheckSettings):
    """The default row of a format check: on, the check module's severity
    (``cls``: the row's class, for the checks with a limit)."""
    return field(default_factory=lambda: cls(severity=FORMAT_SEVERITY[code]))


@dataclass
class ReadingSpeedSettings(CheckSettings):
    #: Subtitles: a cue showing more characters per second than this is flagged
    #: (Netflix Timed Text Style Guide, adult programmes: 20).
    max_cps: float = _Limits.max_cps


@dataclass
class CharsPerLineSettings(CheckSettings):
    #: Subtitles: a cue line longer than this many characters is flagged (Netflix: 42).
    max_chars: int = _Limits.max_chars_per_line


@dataclass
class LinesPerCueSettings(CheckSettings):
    #: Subtitles: a cue with more lines than this is flagged (Netflix: 2).
    max_lines: int = _Limits.max_lines


@dataclass
class DurationShortSettings(CheckSettings):
    #: Subtitles: a cue on screen for less than this many milliseconds is flagged (Netflix: 5/6 s).
    min_ms: int = _Limits.min_duration_ms


@dataclass
class DurationLongSettings(CheckSettings):
    #: Subtitles: a cue on screen for more than this many milliseconds is flagged (Netflix: 7 s).
    max_ms: int = _Limits.max_duration_ms


@dataclass
class CueGapSettings(CheckSettings):
    #: Subtitles: less time than this (milliseconds) between two cues is flagged (Netflix: 2 frames).
    min_ms: int = _Limits.min_gap_ms


#: The parameter of each parameterised format row: (attribute, smallest allowed value).
FORMAT_LIMITS: dict[str, tuple[str, float]] = {
    "reading-speed": ("max_cps", 1),
    "chars-per-line": ("max_chars", 1),
    "lines-per-cue": ("max_lines", 1),
    "duration-short": ("min_ms", 0),
    "duration-long": ("max_ms", 1),
    "cue-gap": ("min_ms", 0),
}


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
    # the checks of a file's own format (qa/formats/format_checks.py; docs/formats.md)
    codes_missing: CheckSettings = _format("codes-missing")
    codes_extra: CheckSettings = _format("codes-extra")
    codes_order: CheckSettings = _format("codes-order")
    codes_malformed: CheckSettings = _format("codes-malformed")
    state_undefined: CheckSettings = _format("state-undefined")
    target_empty: CheckSettings = _format("target-empty")
    target_same_as_source: CheckSettings = _format("target-same-as-source")
    whitespace_leading: CheckSettings = _format("whitespace-leading")
    whitespace_trailing: CheckSettings = _format("whitespace-trailing")
    double_space: CheckSettings = _format("double-space")
    inconsistent_translation: CheckSettings = _format("inconsistent-translation")
    newlines: CheckSettings = _format("newlines")
    po_syntax: CheckSettings = _format("po-syntax")
    placeholders_missing: CheckSettings = _format("placeholders-missing")
    placeholders_extra: CheckSettings = _format("placeholders-extra")
    placeholders_order: CheckSettings = _format("placeholders-order")
    plural_count: CheckSettings = _format("plural-count")
    plural_header: CheckSettings = _format("plural-header")
    fuzzy: CheckSettings = _format("fuzzy")
    accelerator: CheckSettings = _format("accelerator")
    timecode: CheckSettings = _format("timecode")
    end_before_start: CheckSettings = _format("end-before-start")
    cue_order: CheckSettings = _format("cue-order")
    cue_overlap: CheckSettings = _format("cue-overlap")
    reading_speed: ReadingSpeedSettings = _format("reading-speed", ReadingSpeedSettings)
    chars_per_line: CharsPerLineSettings = _format("chars-per-line", CharsPerLineSettings)
    lines_per_cue: LinesPerCueSettings = _format("lines-per-cue", LinesPerCueSettings)
    duration_short: DurationShortSettings = _format("duration-short", DurationShortSettings)
    duration_long: DurationLongSettings = _format("duration-long", DurationLongSettings)
    cue_gap: CueGapSettings = _format("cue-gap", CueGapSettings)
    #: Push-diagnostics debounce for clients without pull diagnostics (ms).
    debounce_ms: int = 150
