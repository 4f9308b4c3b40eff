"""The diagnostics settings (``diagnostics.<code>``): each code on or off, its
severity and its thresholds.  Part of :class:`bleu_ls.config.settings.Settings`;
the defaults were chosen by measurement (docs/diagnostics.md); those of the
checks of a file's own format (PO, XLIFF, TMX, subtitles) follow the QA tools
and the style guide named beside each (docs/formats.md, docs/formats-xml.md).
Which codes there are is the rule table's business (``qa/rules.py``): each
of its rows with a setting has its attribute here (``code`` with ``_`` for ``-``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Optional, get_type_hints


@dataclass(frozen=True)
class SubtitleLimits:
    """The limits of the subtitle checks (Netflix's Timed Text Style Guide: general
    requirements, and the English (USA) guide for reading speed); the rows below
    give them (``diagnostics.readingSpeed.maxCps``…)."""

    max_chars_per_line: int = 42
    max_lines: int = 2
    max_cps: float = 20.0
    min_duration_ms: int = 833
    max_duration_ms: int = 7000
    min_gap_ms: int = 83


_Limits = SubtitleLimits


@dataclass
class CheckSettings:
    """One diagnostic code: on/off and severity."""

    enabled: bool = True
    severity: str = "warning"
    #: a row with a limit: (its attribute, the smallest value allowed)
    LIMIT: ClassVar[Optional[tuple[str, float]]] = None


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
class DoubledWordSettings(CheckSettings):
    """The same word twice in a row ("the the"; docs/diagnostics.md#doubled-word)."""

    #: Flag a word written twice in a row ("the the"), unless the language allows that
    #: double ("die die", "that that") or the source line doubles it too.
    enabled: bool = True
    #: Severity of doubled-word diagnostics. Information by default: every flag read on
    #: real files was a real error (7 of 7), but minor ones, and the MQM study has too
    #: few flags to show a lift (measured: docs/diagnostics.md).
    severity: str = "information"
    #: The language whose allowed doubles apply (de: "die die", en: "that that"…);
    #: empty: the language the file declares for its targets, else every list's.
    language: str = ""


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


@dataclass
class LengthLimitSettings(CheckSettings):
    """A target over a length limit (docs/diagnostics.md#length-limit): the limit its file
    declares (XLIFF ``maxwidth``/``maxbytes``, ``slr:sizeRestriction``/``slr:storageRestriction``)
    and, when ``max_ratio`` is set, a target much longer than its source."""

    #: A warning: a declared limit is a hard fact (the text does not fit the screen or the field).
    severity: str = "warning"
    #: Off by default (no ratio): a target longer than this many times its source's characters is
    #: flagged (a source under 10 characters counted as 10), wherever a line or segment has a
    #: source (a line file with its source, PO, XLIFF, TMX).
    max_ratio: Optional[float] = None


@dataclass
class SpellingSettings(CheckSettings):
    """Words of the target that the language's dictionary does not know
    (docs/diagnostics.md#spelling; the dictionaries of the ``spelling`` extra)."""

    #: Flag words of the target that the language's dictionary (pyspellchecker's word lists,
    #: the `spelling` extra) does not know. Off by default: on rated MT its flags did not
    #: point at spelling errors (measured: docs/diagnostics.md#spelling).
    enabled: bool = False
    #: Severity of spelling diagnostics.
    severity: str = "information"
    #: The language whose dictionary is used (de, en, fr…); empty: the language the file
    #: declares for its targets, else `terms.targetLanguage`.
    language: str = ""
    #: German, Dutch, Swedish…: a word made of two or three known words is known (compounds).
    compounds: bool = True


def _format(severity: str, cls: type = CheckSettings):
    """The default row of a check of a file's own format: on, with ``severity``
    (``cls``: the row's class, for the checks with a limit)."""
    return field(default_factory=lambda: cls(severity=severity))


@dataclass
class ReadingSpeedSettings(CheckSettings):
    LIMIT = ("max_cps", 1)
    #: Subtitles: a cue showing more characters per second than this is flagged
    #: (Netflix Timed Text Style Guide, adult programmes: 20).
    max_cps: float = _Limits.max_cps


@dataclass
class CharsPerLineSettings(CheckSettings):
    LIMIT = ("max_chars", 1)
    #: Subtitles: a cue line longer than this many characters is flagged (Netflix: 42).
    max_chars: int = _Limits.max_chars_per_line


@dataclass
class LinesPerCueSettings(CheckSettings):
    LIMIT = ("max_lines", 1)
    #: Subtitles: a cue with more lines than this is flagged (Netflix: 2).
    max_lines: int = _Limits.max_lines


@dataclass
class DurationShortSettings(CheckSettings):
    LIMIT = ("min_ms", 0)
    #: Subtitles: a cue on screen for less than this many milliseconds is flagged (Netflix: 5/6 s).
    min_ms: int = _Limits.min_duration_ms


@dataclass
class DurationLongSettings(CheckSettings):
    LIMIT = ("max_ms", 1)
    #: Subtitles: a cue on screen for more than this many milliseconds is flagged (Netflix: 7 s).
    max_ms: int = _Limits.max_duration_ms


@dataclass
class CueGapSettings(CheckSettings):
    LIMIT = ("min_ms", 0)
    #: Subtitles: less time than this (milliseconds) between two cues is flagged (Netflix: 2 frames).
    min_ms: int = _Limits.min_gap_ms


@dataclass
class DiagnosticsSettings:
    enabled: bool = True
    low_score: LowScoreSettings = field(default_factory=LowScoreSettings)
    outlier: OutlierSettings = field(default_factory=OutlierSettings)
    empty_hypothesis: CheckSettings = field(default_factory=lambda: CheckSettings(severity="error"))
    untranslated: CheckSettings = field(default_factory=CheckSettings)
    length_ratio: LengthRatioSettings = field(default_factory=LengthRatioSettings)
    repetition: RepetitionSettings = field(default_factory=RepetitionSettings)
    doubled_word: DoubledWordSettings = field(default_factory=DoubledWordSettings)
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
    # terminology: run only when glossaries are set ([terms] files; docs/terminology.md)
    term_missing: CheckSettings = field(default_factory=lambda: CheckSettings(severity="information"))
    term_forbidden: CheckSettings = field(default_factory=CheckSettings)
    do_not_translate: CheckSettings = field(default_factory=CheckSettings)
    # words the target language's dictionary does not know (qa/spelling/; off by default)
    spelling: SpellingSettings = field(default_factory=SpellingSettings)
    # the user's own rules ([[rules]] in bleu-ls.toml; docs/diagnostics.md#your-own-rules): all
    # of them on or off, and the severity of a rule that does not give its own
    rule: CheckSettings = field(default_factory=CheckSettings)
    # the checks of a file's own format (qa/formats/; docs/formats.md, docs/formats-xml.md):
    # XLIFF and TMX (the first twelve; those from target_empty on run on PO entries too), PO, subtitles
    codes_missing: CheckSettings = _format("error")
    codes_extra: CheckSettings = _format("warning")
    codes_order: CheckSettings = _format("information")
    codes_malformed: CheckSettings = _format("error")
    length_limit: LengthLimitSettings = field(default_factory=LengthLimitSettings)
    state_undefined: CheckSettings = _format("warning")
    target_empty: CheckSettings = _format("information")
    target_same_as_source: CheckSettings = _format("warning")
    whitespace_leading: CheckSettings = _format("warning")
    whitespace_trailing: CheckSettings = _format("warning")
    double_space: CheckSettings = _format("information")
    inconsistent_translation: CheckSettings = _format("warning")
    inconsistent_source: CheckSettings = _format("information")
    newlines: CheckSettings = _format("warning")
    # ICU messages in a segment whose source is one (qa/formats/icu_checks.py; docs/formats.md#icu-messages)
    icu_syntax: CheckSettings = _format("error")
    icu_arguments: CheckSettings = _format("error")
    plural_categories: CheckSettings = _format("warning")
    po_syntax: CheckSettings = _format("error")
    placeholders_missing: CheckSettings = _format("error")
    placeholders_extra: CheckSettings = _format("error")
    placeholders_order: CheckSettings = _format("error")
    plural_count: CheckSettings = _format("error")
    plural_header: CheckSettings = _format("warning")
    fuzzy: CheckSettings = _format("information")
    accelerator: CheckSettings = _format("warning")
    # key-value localization files (JSON, ARB, WebExtension) against their source-language file
    key_missing: CheckSettings = _format("warning")
    key_extra: CheckSettings = _format("warning")
    timecode: CheckSettings = _format("error")
    end_before_start: CheckSettings = _format("error")
    cue_order: CheckSettings = _format("warning")
    cue_overlap: CheckSettings = _format("warning")
    reading_speed: ReadingSpeedSettings = _format("warning", ReadingSpeedSettings)
    chars_per_line: CharsPerLineSettings = _format("warning", CharsPerLineSettings)
    lines_per_cue: LinesPerCueSettings = _format("warning", LinesPerCueSettings)
    duration_short: DurationShortSettings = _format("information", DurationShortSettings)
    duration_long: DurationLongSettings = _format("information", DurationLongSettings)
    cue_gap: CueGapSettings = _format("information", CueGapSettings)
    #: Push-diagnostics debounce for clients without pull diagnostics (ms).
    debounce_ms: int = 150


#: The parameter of each row with a limit, by code: (attribute, smallest allowed value).
FORMAT_LIMITS: dict[str, tuple[str, float]] = {
    name.replace("_", "-"): kind.LIMIT for name, kind in get_type_hints(DiagnosticsSettings).items()
    if getattr(kind, "LIMIT", None) is not None
}
