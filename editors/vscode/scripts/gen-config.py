#!/usr/bin/env python3
"""Generate ``contributes.configuration`` of the VS Code extension.

Every server setting comes from ``bleu_ls.config.settings.Settings`` (its defaults,
types and ``#:`` comments), so package.json never drifts from the server.
Run from the repository root::

    python editors/vscode/scripts/gen-config.py          # rewrite package.json
    python editors/vscode/scripts/gen-config.py --check  # exit 1 when stale
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints

HERE = Path(__file__).resolve().parent
PACKAGE_JSON = HERE.parent / "package.json"
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO))

from bleu_ls.config import settings as S  # noqa: E402

SECTION = "bleuLs"

# Descriptions for settings whose field has no ``#:`` comment in settings.py.
DESCRIPTIONS: dict[str, str] = {
    "bleu.enabled": "Score each line with BLEU.",
    "bleu.preset": "Which BLEU to compute: `sacrebleu` (sacrebleu 2.6), `nltk` (NLTK 3.10 sentence_bleu/corpus_bleu) or `nltk-3.2` (NLTK 3.2.2-3.2.5 behaviour).",
    "bleu.tokenize": "sacrebleu tokenizer applied to hypothesis and references.",
    "bleu.smooth": (
        f"Smoothing for sentence scores. sacrebleu: {', '.join(S.BLEU_SMOOTHING)}. "
        f"NLTK presets: {S.NLTK_SMOOTHING[0]} to {S.NLTK_SMOOTHING[-1]}. "
        f"Empty: the preset's default ({S.BleuSettings(preset='sacrebleu').resolved_smooth()} for sacrebleu, "
        f"{S.BleuSettings(preset='nltk').resolved_smooth()} for NLTK)."
    ),
    "bleu.smoothValue": "Value for the floor / add-k smoothing methods (empty: sacrebleu's default).",
    "bleu.maxOrder": "Highest n-gram order counted by BLEU.",
    "bleu.weights": "NLTK presets only: n-gram weights (empty: uniform over maxOrder).",
    "bleu.lowercase": "Lowercase hypothesis and references before scoring BLEU.",
    "bleu.effectiveOrder": "Use the effective order for per-line BLEU (as sacrebleu's sentence_bleu). The corpus score never uses it.",
    "chrf.enabled": "Also score each line with chrF (shown in the hint and usable by the diagnostics).",
    "chrf.charOrder": "Character n-gram order of chrF.",
    "chrf.wordOrder": "Word n-gram order of chrF (2 gives chrF++).",
    "chrf.beta": "Weight of recall against precision in chrF.",
    "chrf.lowercase": "Lowercase before scoring chrF.",
    "chrf.whitespace": "Keep whitespace when extracting chrF character n-grams.",
    "chrf.epsSmoothing": "Use epsilon smoothing for chrF (as sacrebleu's eps_smoothing).",
    "diagnostics.enabled": "Report diagnostics (problems) for paired hypothesis files.",
    "diagnostics.lowScore.enabled": "Flag lines whose score is under a threshold.",
    "diagnostics.lowScore.severity": "Severity of low-score diagnostics.",
    "diagnostics.outlier.enabled": "Flag lines that score far below the rest of the document.",
    "diagnostics.outlier.severity": "Severity of outlier diagnostics.",
    "diagnostics.emptyHypothesis.enabled": "Flag empty hypothesis lines whose reference is not empty.",
    "diagnostics.emptyHypothesis.severity": "Severity of empty-hypothesis diagnostics.",
    "diagnostics.untranslated.enabled": "Flag hypothesis lines identical to the source line (needs a source file).",
    "diagnostics.untranslated.severity": "Severity of untranslated-line diagnostics.",
    "diagnostics.lengthRatio.enabled": "Flag lines much shorter or longer than their reference.",
    "diagnostics.lengthRatio.severity": "Severity of length-ratio diagnostics.",
    "diagnostics.lengthRatio.minRatio": "Hypothesis/reference token ratio under which a line is flagged.",
    "diagnostics.lengthRatio.maxRatio": "Hypothesis/reference token ratio over which a line is flagged.",
    "diagnostics.repetition.enabled": "Flag lines that repeat an n-gram far more often than the reference.",
    "diagnostics.repetition.severity": "Severity of repetition diagnostics.",
    "diagnostics.lineCountMismatch.enabled": "Flag a hypothesis whose line count differs from its reference's.",
    "diagnostics.lineCountMismatch.severity": "Severity of line-count-mismatch diagnostics.",
    "diagnostics.unpaired.enabled": "Tell when a hypothesis file has no reference to pair with.",
    "diagnostics.unpaired.severity": "Severity of the unpaired-file diagnostic.",
    "diagnostics.numberMismatch.enabled": "Flag lines whose numbers differ from the source's (needs a source file).",
    "diagnostics.numberMismatch.severity": "Severity of number-mismatch diagnostics.",
    "diagnostics.markupMismatch.enabled": "Flag lines that lose or add placeholders, inline tags, URLs or e-mail addresses of the source (needs a source file).",
    "diagnostics.markupMismatch.severity": "Severity of markup-mismatch diagnostics.",
    "diagnostics.unbalanced.enabled": "Flag lines with unbalanced brackets or quotes where the source's are balanced (needs a source file).",
    "diagnostics.unbalanced.severity": "Severity of unbalanced diagnostics.",
    "diagnostics.endPunctuation.enabled": "Flag lines whose end punctuation differs from the source's (needs a source file; off by default: it did not find errors on rated data).",
    "diagnostics.endPunctuation.severity": "Severity of end-punctuation diagnostics.",
    "diagnostics.wrongLanguage.enabled": "Flag lines in another language than the document's (language identifier bundled, nothing downloaded).",
    "diagnostics.wrongLanguage.severity": "Severity of wrong-language diagnostics.",
    "diagnostics.misaligned.enabled": "Flag a stretch of lines that match neighbouring reference lines better than their own (a line dropped or split).",
    "diagnostics.misaligned.severity": "Severity of misaligned diagnostics.",
    "diagnostics.adequacy.enabled": "Flag lines far from their source in meaning, ranked with chrF (needs a source file; the sentence encoder is computed in a worker process).",
    "diagnostics.adequacy.severity": "Severity of adequacy diagnostics.",
    "diagnostics.termMissing.enabled": "Flag a source term of the glossaries (`bleuLs.terms.files`) whose preferred or admitted translations are all missing from the target.",
    "diagnostics.termMissing.severity": "Severity of term-missing diagnostics.",
    "diagnostics.termForbidden.enabled": "Flag a forbidden (deprecated) term of the glossaries in the target, with a quick fix to the preferred term.",
    "diagnostics.termForbidden.severity": "Severity of term-forbidden diagnostics.",
    "diagnostics.doNotTranslate.enabled": "Flag a do-not-translate term of the source that the target does not keep as written.",
    "diagnostics.doNotTranslate.severity": "Severity of do-not-translate diagnostics.",
    "diagnostics.outlier.value": "Parameter of the outlier rule: a percentage for bottom-percent, a z value for robust-z, score points for below-median.",
    "diagnostics.repetition.minCount": "An n-gram must occur at least this many times in a line to be flagged as repeated.",
    "diagnostics.repetition.factor": "An n-gram must occur at least this many times as often as in the best reference to be flagged as repeated.",
    "hints.chrfFormat": "Label template of the chrF part of the hint; field: {chrf} (0-100).",
    "hints.enabled": "Show each line's score as an inlay hint at the end of the line.",
    "pairs": "Pairing rules: hypothesis glob -> reference glob(s) and optional source glob. In reference/source patterns {stem} is the hypothesis file name without its last suffix, {name} the full name, {dir} its folder, {1}, {2}... the text matched by the hypothesis pattern's *. `draft` names the machine-translation draft the file was post-edited from (same placeholders); without one, NAME.draft beside the file, else the text as first seen (kept in the user's cache folder). `options` overrides bleu/chrf/diagnostics/hints for that pair.",
    "diagnostics.rule.enabled": "Run your own rules (`bleuLs.rules`): switch this off to silence all of them.",
    "diagnostics.rule.severity": "Severity of a rule of `bleuLs.rules` that does not give its own.",
    "conventions": "Pair NAME.hyp / NAME.mt with NAME.ref, NAME.ref2..., NAME.src without configuration.",
}

# The checks of a file's own format (docs/formats.md): what each flags.
FORMAT_CHECKS: dict[str, str] = {
    "codes-missing": "XLIFF/TMX: flag a target that lacks an inline code of its source.",
    "codes-extra": "XLIFF/TMX: flag an inline code in the target that the source does not have.",
    "codes-order": "XLIFF/TMX: flag a target with the source's inline codes in another order.",
    "codes-malformed": "XLIFF/TMX: flag a paired inline code ended before its start or left open.",
    "length-limit": "XLIFF: flag a target over the length its unit declares (maxwidth, maxbytes, slr:sizeRestriction); with maxRatio, any target longer than maxRatio times its source.",
    "state-undefined": "XLIFF: flag a state, state-qualifier or subState the XLIFF version does not define.",
    "target-empty": "PO/XLIFF/TMX: flag an empty target whose source is not empty.",
    "target-same-as-source": "PO/XLIFF/TMX: flag a target identical to its source.",
    "whitespace-leading": "PO/XLIFF/TMX: flag leading white space that differs from the source's.",
    "whitespace-trailing": "PO/XLIFF/TMX: flag trailing white space that differs from the source's.",
    "double-space": "PO/XLIFF/TMX: flag a double space the source does not have.",
    "inconsistent-translation": "PO/XLIFF/TMX: flag the same source translated differently in the file.",
    "inconsistent-source": "PO/XLIFF/TMX: flag one translation used for different sources in the file.",
    "newlines": "PO/XLIFF/TMX: flag a target with another number of line breaks than its source.",
    "key-missing": "Localization files (JSON, ARB, Android, .properties): flag a key of the source-language file the target file lacks.",
    "key-extra": "Localization files: flag a key of the target file its source-language file no longer has.",
    "icu-syntax": "ICU messages (Angular XLIFF…): flag a target that is not a well-formed ICU message where its source is one.",
    "icu-arguments": "ICU messages: flag an argument of the source missing from the target, or one the source does not have.",
    "plural-categories": "ICU plurals: flag plural forms the target language needs (CLDR) and lacks, or has and never uses.",
    "po-syntax": "PO: flag a malformed entry (a quote left open, an unknown keyword...).",
    "placeholders-missing": "PO: flag a msgstr lacking a placeholder of the entry's format flag (c-format, python-format...).",
    "placeholders-extra": "PO: flag a placeholder in the msgstr that the source does not have.",
    "placeholders-order": "PO: flag unnumbered printf directives in another order than the source's.",
    "plural-count": "PO: flag a plural entry without every form Plural-Forms asks for, or with one too many.",
    "plural-header": "PO: flag plural entries in a catalogue whose header has no Plural-Forms.",
    "fuzzy": "PO: flag a fuzzy entry (a draft to review).",
    "accelerator": "PO: flag a msgstr without the source's one accelerator marker (&File, _File), or with several.",
    "timecode": "Subtitles: flag a timing line that cannot be read.",
    "end-before-start": "Subtitles: flag a cue that ends before or when it starts.",
    "cue-order": "Subtitles: flag a cue starting before the one above it.",
    "cue-overlap": "Subtitles: flag a cue starting while the one above is still on screen.",
    "reading-speed": "Subtitles: flag a cue with more characters per second than maxCps.",
    "chars-per-line": "Subtitles: flag a cue line longer than maxChars characters.",
    "lines-per-cue": "Subtitles: flag a cue with more than maxLines lines.",
    "duration-short": "Subtitles: flag a cue on screen for less than minMs milliseconds.",
    "duration-long": "Subtitles: flag a cue on screen for more than maxMs milliseconds.",
    "cue-gap": "Subtitles: flag less than minMs milliseconds between two cues.",
}
for _code, _what in FORMAT_CHECKS.items():
    _key = "diagnostics." + re.sub(r"-([a-z])", lambda m: m.group(1).upper(), _code)
    DESCRIPTIONS[f"{_key}.enabled"] = _what
    DESCRIPTIONS[f"{_key}.severity"] = f"Severity of {_code} diagnostics."

# Allowed values (JSON schema ``enum``) of some settings.
ENUMS: dict[str, list[Any]] = {
    "bleu.preset": list(S.PRESETS),
    "bleu.tokenize": list(S.TOKENIZERS),
    "bleu.smooth": [None, *S.BLEU_SMOOTHING, *S.NLTK_SMOOTHING],
    "diagnostics.outlier.rule": list(S.OUTLIER_RULES),
    "diagnostics.outlier.metric": list(S.OUTLIER_METRICS),
}

# Settings whose default in VS Code differs from the server's own: package.json
# carries this default and the extension sends it even when the user left the
# setting alone (src/settings.ts, EDITOR_DEFAULTS lists the same keys).
EDITOR_DEFAULTS: dict[str, Any] = {
    # VS Code shows at most 1,000 diagnostics per file (extHostDiagnostics.ts)
    "maxProblems": 1000,
}

# Settings read by the extension only (never sent to the server).
CLIENT_PROPERTIES: dict[str, dict[str, Any]] = {
    f"{SECTION}.server.path": {
        "type": "string",
        "default": "",
        "scope": "machine-overridable",
        "markdownDescription": "Path to the `bleu-ls` executable. Empty: use `bleuLs.server.interpreter`, else `bleu-ls` from PATH, else the managed server (`bleuLs.server.manage`).",
    },
    f"{SECTION}.server.interpreter": {
        "type": "string",
        "default": "",
        "scope": "machine-overridable",
        "markdownDescription": "A Python interpreter that has bleu-ls installed; the server is started as `<python> -m bleu_ls serve`. Used when `bleuLs.server.path` is empty.",
    },
    f"{SECTION}.server.manage": {
        "type": "boolean",
        "default": True,
        "scope": "machine",
        "markdownDescription": "When neither `bleuLs.server.path` nor `bleuLs.server.interpreter` is set and no `bleu-ls` of the extension's version is on PATH, set up the server the extension carries: a virtual environment in the extension's storage, made with a Python 3.10 or newer found on this machine (the Python extension's interpreter first), its dependencies installed by pip from the package index. Off: only the settings above and PATH are used. Rebuild it with **bleu-ls: Reinstall the Managed Server**.",
    },
    f"{SECTION}.trace.server": {
        "type": "string",
        "enum": ["off", "messages", "verbose"],
        "default": "off",
        "scope": "window",
        "description": "Log the messages between VS Code and the bleu-ls server in the output channel.",
    },
}


def _camel(name: str) -> str:
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)


def _field_comments(cls: type) -> dict[str, str]:
    """``#:`` comment lines just above each field of a dataclass (walks bases)."""
    out: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(klass):
            continue
        try:
            src = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        pending: list[str] = []
        for line in src.splitlines():
            s = line.strip()
            if s.startswith("#:"):
                pending.append(s[2:].strip())
                continue
            m = re.match(r"([a-z_][a-z0-9_]*)\s*:", s)
            if m and pending:
                out[m.group(1)] = " ".join(pending)
            pending = []
    return out


def _rst_to_md(text: str) -> str:
    return text.replace("``", "`")


def _schema_for(tp: Any) -> dict[str, Any]:
    origin = get_origin(tp)
    if origin is Union:
        args = [a for a in get_args(tp) if a is not type(None)]
        inner = _schema_for(args[0])
        t = inner["type"]
        inner["type"] = [t, "null"] if isinstance(t, str) else [*t, "null"]
        return inner
    if origin is list:
        (item,) = get_args(tp)
        return {"type": "array", "items": _schema_for(item)}
    if origin is dict:
        return {"type": "object"}
    if dataclasses.is_dataclass(tp):
        hints = get_type_hints(tp)
        comments = _field_comments(tp)
        props = {}
        for f in dataclasses.fields(tp):
            sub = _schema_for(hints[f.name])
            if f.name in comments:
                sub["description"] = _rst_to_md(comments[f.name]).replace("`", "")
            props[_camel(f.name)] = sub
        return {"type": "object", "properties": props}
    return {
        bool: {"type": "boolean"},
        int: {"type": "integer"},
        float: {"type": "number"},
        str: {"type": "string"},
    }.get(tp, {})


def leaf_properties() -> dict[str, dict[str, Any]]:
    """One configuration property per leaf of ``Settings().to_dict()``."""
    defaults = S.Settings()
    props: dict[str, dict[str, Any]] = {}
    missing: list[str] = []

    def walk(obj: Any, prefix: str) -> None:
        hints = get_type_hints(type(obj))
        comments = _field_comments(type(obj))
        for f in dataclasses.fields(obj):
            key = f"{prefix}{_camel(f.name)}"
            value = getattr(obj, f.name)
            tp = hints[f.name]
            if dataclasses.is_dataclass(value):
                walk(value, key + ".")
                continue
            prop = _schema_for(tp)
            if key in ENUMS:
                prop["enum"] = ENUMS[key]
            prop["default"] = EDITOR_DEFAULTS.get(key, S._dump(value))
            desc = comments.get(f.name)
            desc = _rst_to_md(desc) if desc else DESCRIPTIONS.get(key)
            if not desc:
                missing.append(key)
                desc = ""
            prop["markdownDescription"] = desc
            props[f"{SECTION}.{key}"] = prop

    walk(defaults, "")
    if missing:
        raise SystemExit(
            "gen-config: no description for " + ", ".join(missing)
            + " (add a `#:` comment in bleu_ls/config/settings.py (the diagnostics rows: config/diagnostics.py) or an entry in DESCRIPTIONS)"
        )
    return props


def configuration() -> dict[str, Any]:
    props = dict(CLIENT_PROPERTIES)
    for key, prop in leaf_properties().items():
        prop.setdefault("scope", "resource")
        props[key] = prop
    return {"title": "bleu-ls", "properties": props}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that package.json is up to date")
    args = ap.parse_args(argv)
    pkg = json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))
    wanted = configuration()
    if args.check:
        if pkg.get("contributes", {}).get("configuration") != wanted:
            print("editors/vscode/package.json is out of date: run python editors/vscode/scripts/gen-config.py",
                  file=sys.stderr)
            return 1
        return 0
    pkg.setdefault("contributes", {})["configuration"] = wanted
    PACKAGE_JSON.write_text(json.dumps(pkg, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
