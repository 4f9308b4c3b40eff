"""One typed settings object for the CLI and the language server.

The server reads the same structure from ``initializationOptions``, from the
``bleuLs`` section of ``workspace/configuration`` and from ``bleu-ls.toml``;
the CLI builds it from its flags.  Keys on the wire are camelCase
(``smoothValue``); attributes here are snake_case.  Unknown keys and values of
the wrong type are reported as problems (plain sentences) and otherwise
ignored, so that one typo never takes the whole configuration down.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from dataclasses import dataclass, field, fields
from typing import Any, Optional, Union, get_args, get_origin, get_type_hints

from ..engine import bleu as _bleu, nltk_bleu as _nltk
from ..engine.chrf import ChrfMetric
from ..engine.table import KEYS, TABLE
from ..engine.tokenizers import NAMES as TOKENIZERS
from .diagnostics import (  # noqa: F401  (part of the settings' public names)
    CheckSettings,
    LowScoreSettings,
    OutlierSettings,
    LengthRatioSettings,
    RepetitionSettings,
    WrongLanguageSettings,
    MisalignedSettings,
    AdequacySettings,
    DiagnosticsSettings,
    FORMAT_LIMITS,
)

# The allowed values of the options, one source for the CLI flags, the
# server's validation and the VS Code configuration (gen-config.py).
#: BLEU smoothing under the sacrebleu preset / under the NLTK presets (the engine's names).
BLEU_SMOOTHING: tuple[str, ...] = _bleu.SMOOTHING
NLTK_SMOOTHING: tuple[str, ...] = _nltk.SMOOTHING
#: BLEU's presets, the default first (the engine's: sacrebleu, then NLTK's).
PRESETS: tuple[str, ...] = _bleu.BleuMetric.presets + _nltk.NltkBleuMetric.presets
#: The metric keys, in display order (the engine's table; each is a section below).
METRICS: tuple[str, ...] = KEYS
#: The metrics the outlier rule can rank lines by (higher is better).
OUTLIER_METRICS: tuple[str, ...] = tuple(row.key for row in TABLE if row.higher_is_better)
#: Diagnostic severities, most severe first (LSP's DiagnosticSeverity 1..4).
SEVERITIES = ("error", "warning", "information", "hint")
#: Severity name -> rank (1: most severe), as LSP numbers them.
SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES, 1)}
OUTLIER_RULES = ("bottom-percent", "robust-z", "below-median")


def _engine_default(cls: type, name: str) -> Any:
    """The default of a metric constructor's parameter (sacrebleu's defaults live there)."""
    return inspect.signature(cls).parameters[name].default


_BLEU = _bleu.BleuMetric


@dataclass
class BleuSettings:
    """BLEU as sacrebleu computes it, or as NLTK does under a preset."""

    enabled: bool = True
    #: ``sacrebleu`` (default), ``nltk`` (NLTK 3.10 ``sentence_bleu`` /
    #: ``corpus_bleu``), ``nltk-3.2`` (NLTK 3.2.2–3.2.5's default behaviour).
    preset: str = PRESETS[0]
    tokenize: str = _engine_default(_BLEU, "tokenize")
    #: sacrebleu: none | floor | add-k | exp; NLTK presets: nltk-method0 … 7.
    #: ``None`` picks the preset's default (exp for sacrebleu, nltk-method0 for NLTK).
    smooth: Optional[str] = None
    smooth_value: Optional[float] = None
    max_order: int = _engine_default(_BLEU, "max_order")
    #: NLTK presets only: n-gram weights (default: uniform over max_order).
    weights: Optional[list[float]] = None
    lowercase: bool = _engine_default(_BLEU, "lowercase")
    #: Effective order for per-line scores (sacrebleu's sentence_bleu default).
    #: The corpus score never uses it, as sacrebleu's corpus_bleu.
    effective_order: bool = _engine_default(_BLEU, "effective_order")

    def resolved_smooth(self) -> str:
        if self.smooth:
            return self.smooth
        return _bleu.DEFAULT_SMOOTH if self.preset == PRESETS[0] else _nltk.DEFAULT_SMOOTH


@dataclass
class ChrfSettings:
    """chrF / chrF++ as sacrebleu's CHRF."""

    enabled: bool = False
    char_order: int = _engine_default(ChrfMetric, "char_order")
    word_order: int = _engine_default(ChrfMetric, "word_order")
    beta: int = _engine_default(ChrfMetric, "beta")
    lowercase: bool = _engine_default(ChrfMetric, "lowercase")
    whitespace: bool = _engine_default(ChrfMetric, "whitespace")
    eps_smoothing: bool = _engine_default(ChrfMetric, "eps_smoothing")


@dataclass
class TerSettings:
    """TER as sacrebleu's TER (lower is better; lowercased unless case_sensitive)."""

    #: Compute TER (translation edit rate: edits per reference word, lower is better).
    enabled: bool = False
    #: TER: tercom's normalization (XML entities, punctuation split off words).
    normalized: bool = False
    #: TER: remove punctuation before counting edits.
    no_punct: bool = False
    #: TER: split CJK characters (with normalized) and drop CJK punctuation (with noPunct).
    asian_support: bool = False
    #: TER: keep case (sacrebleu's TER lowercases by default).
    case_sensitive: bool = False


@dataclass
class HintSettings:
    enabled: bool = True
    #: Label templates; fields: {bleu}, {chrf} (floats on the 0–100 scale).
    bleu_format: str = "BLEU {bleu:.1f}"
    chrf_format: str = "chrF {chrf:.1f}"
    #: Label template of TER (when ter.enabled); field {ter} (edits per 100 reference words).
    ter_format: str = "TER {ter:.1f}"
    #: Show the line's HTER against its draft in the hint too.
    hter: bool = False
    #: Label template of HTER; field {hter}.
    hter_format: str = "HTER {hter:.1f}"
    #: Show ``BLEU 0.0`` on empty hypothesis lines (else nothing).
    show_on_empty: bool = True


@dataclass
class CompareSettings:
    """Comparing the open hypothesis with a second system's output (bleuLs.compareWith)."""

    #: Show the line's difference to the other system in the hint (``+12.4 vs B``).
    hint: bool = True
    #: Flag lines whose score is at least this much below the other system's.
    threshold: float = 10.0
    #: Severity of ``worse-than-other``: error | warning | information | hint.
    severity: str = "information"


@dataclass
class HighlightSettings:
    """Semantic highlighting of words in a hypothesis file."""

    #: Mark the words inserted or changed since the draft (needs a draft).
    changed: bool = True
    #: Mark the words that match no word of the reference (needs a reference).
    #: Off by default: on real output, correct paraphrases are a large share
    #: of the words (44 % on a WMT21 TED talk) and would all be marked.
    unmatched: bool = False


@dataclass
class TermsSettings:
    """Terminology: the glossaries every document is checked against (docs/terminology.md)."""

    #: Glossary files: TBX, CSV or TSV with a header of language codes, or a plain list of
    #: do-not-translate terms (.txt). In bleu-ls.toml, relative to that file; in an
    #: editor's settings, relative to the workspace folder.
    files: list[str] = field(default_factory=list)
    #: The source language of documents that do not say it (line files), as a BCP 47 code.
    source_language: str = ""
    #: The target language of documents that do not say it (line files), as a BCP 47 code.
    target_language: str = ""


#: The characters of a user rule's code (``rule:<code>``).
RULE_CODE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


@dataclass
class UserRule:
    """One of the user's own rules (``[[rules]]``; docs/diagnostics.md#your-own-rules): a
    regular expression on the source and/or the target of each segment, read as an Xbench
    checklist entry is.  Only ``source``: a segment whose source matches and whose target does
    not match the same pattern; only ``target``: a target that matches; both: a source that
    matches and a target that does not, or (when both patterns have groups) both matching with
    a group of the source's match differing from the target's."""

    #: The rule's name: its findings are ``rule:<code>``.
    code: str = ""
    #: What its findings say.
    message: str = ""
    #: error | warning | information | hint; empty: ``diagnostics.rule.severity``.
    severity: str = ""
    #: A regular expression searched in the source (Python's ``regex`` syntax).
    source: str = ""
    #: A regular expression searched in the target.
    target: str = ""
    #: The documents it applies to (globs relative to the workspace root; one without a
    #: ``/`` names files in any folder, as in .gitignore); empty: every document.
    files: list[str] = field(default_factory=list)
    #: Match case (by default a pattern ignores it).
    case_sensitive: bool = False


def compile_rule_pattern(pattern: str, case_sensitive: bool) -> Any:
    """A user rule's pattern compiled with the ``regex`` package (VERSION0, Python ``re``'s
    syntax), ignoring case unless ``case_sensitive``; raises ``regex.error``."""
    import regex  # type: ignore[import-untyped]

    flags = regex.VERSION0 | (0 if case_sensitive else regex.IGNORECASE)
    return regex.compile(pattern, flags)


def _rule_problems(i: int, rule: UserRule) -> list[str]:
    """What is wrong with user rule ``i`` (sentences; empty: it can run)."""
    import regex

    name = f"rules[{i}]" + (f" (rule:{rule.code})" if rule.code else "")
    out = []
    if not RULE_CODE_RE.match(rule.code or ""):
        out.append(f"{name} needs a code of letters, digits, '.', '_' or '-' (its findings are rule:<code>), "
                   f"not {rule.code!r}")
    if not rule.source and not rule.target:
        out.append(f"{name} needs a source or a target pattern")
    if rule.severity and rule.severity not in SEVERITIES:
        out.append(f"{name}: severity must be one of {', '.join(SEVERITIES)}, not {rule.severity!r}")
    for side in ("source", "target"):
        pattern = getattr(rule, side)
        if not pattern:
            continue
        try:
            compile_rule_pattern(pattern, rule.case_sensitive)
        except regex.error as exc:
            where = f" at position {exc.pos + 1}" if getattr(exc, "pos", None) is not None else ""
            out.append(f"{name}: the {side} pattern {pattern!r} does not compile: {exc.msg}{where}")
        except Exception as exc:  # (regex raises a few others on odd input)
            out.append(f"{name}: the {side} pattern {pattern!r} does not compile: {exc}")
    return out


@dataclass
class PairRule:
    """A glob rule: hypothesis pattern -> reference pattern(s), source pattern.

    Patterns are relative to the workspace root (or absolute).  In
    reference/source patterns ``{stem}`` is the hypothesis file name without
    its last suffix, ``{name}`` the full file name, ``{dir}`` its folder, and
    ``{1}``, ``{2}``… the text matched by the hypothesis pattern's ``*``.
    """

    hypothesis: str = ""
    references: list[str] = field(default_factory=list)
    source: Optional[str] = None
    #: The machine-translation draft the hypothesis was post-edited from
    #: (same placeholders as the references; relative to the workspace root).
    draft: Optional[str] = None
    #: Per-pair overrides, same shape as the top-level settings (bleu, chrf,
    #: diagnostics, hints, highlights).
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Settings:
    bleu: BleuSettings = field(default_factory=BleuSettings)
    chrf: ChrfSettings = field(default_factory=ChrfSettings)
    ter: TerSettings = field(default_factory=TerSettings)
    compare: CompareSettings = field(default_factory=CompareSettings)
    diagnostics: DiagnosticsSettings = field(default_factory=DiagnosticsSettings)
    hints: HintSettings = field(default_factory=HintSettings)
    highlights: HighlightSettings = field(default_factory=HighlightSettings)
    terms: TermsSettings = field(default_factory=TermsSettings)
    pairs: list[PairRule] = field(default_factory=list)
    #: Your own rules (``[[rules]]``): regular expressions on the source and target of each
    #: segment, reported as ``rule:<code>`` (docs/diagnostics.md#your-own-rules).
    rules: list[UserRule] = field(default_factory=list)
    #: Pair NAME.hyp / NAME.mt with NAME.ref, NAME.ref2…, NAME.src.
    conventions: bool = True
    #: Watch paired reference files for changes on disk ourselves when the
    #: client cannot register file watchers (ms between polls).
    watch_interval_ms: int = 500
    #: A line longer than this (UTF-8 bytes, in the hypothesis or a reference)
    #: is never scored while you type: it is scored in the background, in
    #: another process, and its hint appears once known (0: no cap).
    max_line_bytes: int = 1_000_000
    #: The most diagnostics sent for one file (0: all). With more findings,
    #: the file gets the ones an editor showing this many keeps (errors first,
    #: then warnings, information, hints) and one note at line 1 saying how many
    #: more there are and where to see them all. VS Code shows at most 1,000
    #: per file; every client gets 1,000 unless you set another value (an
    #: editor that is pushed tens of thousands of items freezes decoding them).
    max_problems: int = 1000

    # -- (de)serialisation -------------------------------------------------
    @classmethod
    def from_dict(cls, data: Any, problems: Optional[list[str]] = None) -> "Settings":
        """Build settings from a camelCase (or snake_case) mapping."""
        problems = problems if problems is not None else []
        return _build(cls, data, "", problems)

    def merged(self, data: Any, problems: Optional[list[str]] = None) -> "Settings":
        """A copy of these settings with ``data`` laid over them."""
        problems = problems if problems is not None else []
        return _build(type(self), data, "", problems, base=self)

    def to_dict(self) -> dict[str, Any]:
        return _dump(self)

    def validate(self) -> list[str]:
        """Problems with values (unknown tokenizer, bad order…) as sentences."""
        out: list[str] = []
        if self.compare.severity not in SEVERITIES:
            out.append(f"compare.severity must be one of {', '.join(SEVERITIES)}, not {self.compare.severity!r}")
            self.compare.severity = CompareSettings.severity
        b = self.bleu
        if b.preset not in PRESETS:
            out.append(f"bleu.preset must be one of {', '.join(PRESETS)}, not {b.preset!r}")
        smooth = b.resolved_smooth()
        if b.preset == "sacrebleu":
            if smooth not in BLEU_SMOOTHING:
                out.append(f"bleu.smooth must be one of {', '.join(BLEU_SMOOTHING)}, not {smooth!r}")
            if b.tokenize not in TOKENIZERS:
                out.append(f"bleu.tokenize must be one of {', '.join(TOKENIZERS)}, not {b.tokenize!r}")
        else:
            if smooth not in NLTK_SMOOTHING:
                out.append(
                    f"with the {b.preset} preset bleu.smooth must be one of "
                    f"{', '.join(NLTK_SMOOTHING)}, not {smooth!r}"
                )
        if not 1 <= b.max_order <= 16:
            out.append(f"bleu.maxOrder must be between 1 and 16, not {b.max_order}")
        if b.weights is not None:
            if not b.weights or any(w < 0 for w in b.weights):
                out.append("bleu.weights must be a non-empty list of non-negative numbers")
        c = self.chrf
        if c.char_order < 0 or c.word_order < 0 or c.char_order + c.word_order == 0:
            out.append("chrf.charOrder and chrf.wordOrder must be >= 0 and not both 0")
        if c.beta < 0:
            out.append("chrf.beta must be >= 0")
        d = self.diagnostics
        for f in fields(d):
            v = getattr(d, f.name)
            if isinstance(v, CheckSettings) and v.severity not in SEVERITIES:
                out.append(
                    f"diagnostics.{_camel(f.name)}.severity must be one of "
                    f"{', '.join(SEVERITIES)}, not {v.severity!r}"
                )
                v.severity = f.default_factory().severity  # type: ignore[operator]
        for code, (attr, least) in FORMAT_LIMITS.items():
            row = getattr(d, code.replace("-", "_"))
            value = getattr(row, attr)
            if not value >= least:
                out.append(
                    f"diagnostics.{_camel(code.replace('-', '_'))}.{_camel(attr)} must be {least:g} or more, not {value:g}"
                )
                setattr(row, attr, getattr(type(row), attr))
        if d.length_limit.max_ratio is not None and not d.length_limit.max_ratio > 0:
            out.append(f"diagnostics.lengthLimit.maxRatio must be more than 0, not {d.length_limit.max_ratio:g}")
            d.length_limit.max_ratio = None
        if d.outlier.rule not in OUTLIER_RULES:
            out.append(f"diagnostics.outlier.rule must be one of {', '.join(OUTLIER_RULES)}, not {d.outlier.rule!r}")
        if d.outlier.metric not in OUTLIER_METRICS:
            out.append(
                f"diagnostics.outlier.metric must be {' or '.join(OUTLIER_METRICS)}, not {d.outlier.metric!r}"
            )
        if self.max_line_bytes < 0:
            out.append(f"maxLineBytes must be 0 (no cap) or more, not {self.max_line_bytes}")
            self.max_line_bytes = Settings.max_line_bytes
        if self.max_problems < 0:
            out.append(f"maxProblems must be 0 (no cap) or more, not {self.max_problems}")
            self.max_problems = Settings.max_problems
        for i, rule in enumerate(self.pairs):
            if not rule.hypothesis or not rule.references:
                out.append(f"pairs[{i}] needs a hypothesis pattern and at least one reference pattern")
        kept = []
        for i, user_rule in enumerate(self.rules):
            problems = _rule_problems(i, user_rule)
            out.extend(f"{p}; the rule is off" for p in problems)
            if not problems:
                kept.append(user_rule)
        self.rules = kept
        return out


# --------------------------------------------------------------------------
_CAMEL_RE = re.compile(r"_([a-z0-9])")


def _camel(name: str) -> str:
    return _CAMEL_RE.sub(lambda m: m.group(1).upper(), name)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), name).replace("-", "_")


def _dump(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj):
        return {_camel(f.name): _dump(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, list):
        return [_dump(x) for x in obj]
    if isinstance(obj, dict):
        return {k: _dump(v) for k, v in obj.items()}
    return obj


def _coerce(tp: Any, value: Any, path: str, problems: list[str], base: Any = None) -> Any:
    origin = get_origin(tp)
    if origin is Union:
        args = [a for a in get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _coerce(args[0], value, path, problems, base)
    if dataclasses.is_dataclass(tp):
        return _build(tp, value, path, problems, base=base)
    if origin is list:
        (item_tp,) = get_args(tp)
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{path} must be a list")
        return [_coerce(item_tp, v, f"{path}[{i}]", problems) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise TypeError(f"{path} must be a table/object")
        return dict(value)
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise TypeError(f"{path} must be true or false")
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            raise TypeError(f"{path} must be a whole number")
        return int(value)
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{path} must be a number")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise TypeError(f"{path} must be a string")
        return value
    return value


def _build(cls: Any, data: Any, prefix: str, problems: list[str], base: Any = None) -> Any:
    obj = dataclasses.replace(base) if base is not None else cls()
    if data is None:
        return obj
    if not isinstance(data, dict):
        problems.append(f"{prefix or 'settings'} must be a table/object; ignored")
        return obj
    hints = get_type_hints(cls)
    names = {f.name for f in fields(cls)}
    for key, value in data.items():
        name = _snake(str(key))
        path = f"{prefix}.{_camel(name)}" if prefix else _camel(name)
        if name not in names:
            problems.append(f"unknown setting {path}; ignored")
            continue
        try:
            current = getattr(obj, name)
            sub_base = current if dataclasses.is_dataclass(current) else None
            setattr(obj, name, _coerce(hints[name], value, path, problems, sub_base))
        except TypeError as exc:
            problems.append(f"{exc}; kept {_dump(getattr(obj, name))!r}")
    return obj
