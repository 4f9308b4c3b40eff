"""The words a term is matched on: placeholders and inline codes masked, words found with
their columns, stems taken per language (Snowball, through ``snowballstemmer`` over the
compiled PyStemmer, a dependency: the same stems as the pure-Python ones), scripts written without spaces told apart.

A word is a run of letters and digits.  Hyphens and apostrophes separate words ("E-Mail" is
two words, "l'adresse" two), and a word joined to its neighbour by a hyphen says so
(:attr:`Word.joined_before` / :attr:`Word.joined_after`), so that the strict matches
(a forbidden term, a do-not-translate term) never take one half of a hyphenated word.  Han,
kana, Thai, Lao, Khmer and Myanmar letters never make words: a term written in those scripts is
found as a substring (:func:`no_spaces`).
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Callable, NamedTuple, Optional

from ..text.markup import find_markup

#: scripts written without spaces between words: terms in them match as substrings
NO_SPACE_RANGES = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u2fdf\u3005\u3040-\u30ff\u31f0-\u31ff"
                   "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f")
_NO_SPACE = re.compile(f"[{NO_SPACE_RANGES}]")
_WORD = re.compile(f"[^\\W_{NO_SPACE_RANGES}]+")
#: the same, kept by ``split``: the pieces between the words and the words, in turn
_SPLIT = re.compile(f"({_WORD.pattern})")
#: the same on a text all in ASCII, where a letter or digit is one of these (a simpler test per character)
_SPLIT_ASCII = re.compile("([A-Za-z0-9]+)")
_HYPHENS = "-\u2010\u2011"

#: BCP 47 primary subtag -> Snowball algorithm
SNOWBALL = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "cs": "czech", "da": "danish",
    "nl": "dutch", "en": "english", "eo": "esperanto", "et": "estonian", "fi": "finnish", "fr": "french",
    "de": "german", "el": "greek", "hi": "hindi", "hu": "hungarian", "id": "indonesian", "ga": "irish",
    "it": "italian", "lt": "lithuanian", "ne": "nepali", "no": "norwegian", "nb": "norwegian",
    "nn": "norwegian", "fa": "persian", "pl": "polish", "pt": "portuguese", "ro": "romanian",
    "ru": "russian", "sr": "serbian", "st": "sesotho", "es": "spanish", "sv": "swedish", "ta": "tamil",
    "tr": "turkish", "yi": "yiddish",
}
#: languages that write compounds as one word (a term found inside a compound of the target
#: counts as present: "Datei" in "Dateiname")
COMPOUNDING = frozenset({"de", "nl", "sv", "da", "no", "nb", "nn", "fi", "is", "et", "af", "lb", "fy"})

_STEMMERS: dict[str, Optional[Callable[[str], str]]] = {}
_STEMS: dict[str, dict[str, str]] = {}
#: words kept per language before the cache starts over (see :data:`.index.LOOK_CACHE`)
STEM_CACHE = 40_000


def primary(lang: Optional[str]) -> str:
    """The primary subtag of a BCP 47 code, lower case ("" when none)."""
    return (lang or "").replace("_", "-").split("-")[0].lower()


def stemmer_name(lang: Optional[str]) -> Optional[str]:
    """The Snowball algorithm used for ``lang`` (None: words are compared as written, lower-cased)."""
    return SNOWBALL.get(primary(lang))


def stem_function(lang: Optional[str]) -> Callable[[str], str]:
    """A memoised stemmer of lower-cased words for ``lang`` (the identity where Snowball has none)."""
    key = primary(lang)
    cache = _STEMS.get(key)
    if cache is None:
        cache = _STEMS[key] = {}
    if key not in _STEMMERS:
        _STEMMERS[key] = _load(SNOWBALL.get(key))
    fn = _STEMMERS[key]

    if fn is None:
        return str  # (the word itself)
    stem_word = fn

    def stem(word: str) -> str:
        got = cache.get(word)
        if got is None:
            if word.isdigit() and word.isascii():
                # a number: no Snowball rule takes anything off it, and a document's
                # numbers (ids, counts, years) would fill the cache
                return word
            if len(cache) >= STEM_CACHE:
                cache.clear()
            got = stem_word(word)
            if got == word:  # (the word itself kept, not the stemmer's copy of it)
                got = word
            cache[word] = got
        return got

    return stem


def _load(name: Optional[str]) -> Optional[Callable[[str], str]]:
    if name is None:
        return None
    try:
        import snowballstemmer  # type: ignore[import-untyped]
    except ImportError:  # (a dependency: a broken install compares words as written)
        return None
    return snowballstemmer.stemmer(name).stemWord


class Word(NamedTuple):
    start: int
    end: int
    text: str
    lower: str
    joined_before: bool
    joined_after: bool


#: reStructuredText and Markdown code: ``literal``, :role:`target` (the prose of :term:, :ref: and
#: :doc: roles kept: the text before ``<label>``, a :term:'s whole text), `code` (not a link's
#: `text`_), |substitution|
_RST_LITERAL = re.compile(r"``[^`]+``|(?<![`\w])`[^`\n]+`(?![`_])|\|[\w.-]+\|")
_RST_ROLE = re.compile(r":[A-Za-z][\w.+-]*(?::[\w.+-]+)*:`([^`]*)`")
_PROSE_ROLES = ("term", "ref", "doc")


def masked(text: str) -> str:
    """``text`` with its placeholders, inline tags, URLs, e-mail addresses and inline code
    (reStructuredText roles and literals, Markdown code spans) blanked out (same length:
    columns stay those of the text)."""
    found = find_markup(text)
    code = "`" in text or "|" in text
    if not found and not code:
        return text
    chars = list(text)

    def blank(a: int, b: int) -> None:
        chars[a:b] = " " * (b - a)

    for _kind, _value, start, end in found:
        blank(start, end)
    if code:
        for m in _RST_ROLE.finditer(text):
            name = text[m.start() + 1:text.index(":", m.start() + 1)]
            inner, (a, b) = m.group(1), m.span(1)
            keep = None
            if name in _PROSE_ROLES:
                lt = inner.rfind("<")
                if lt > 0 and inner.endswith(">"):
                    keep = (a, a + lt)
                elif name == "term":
                    keep = (a, b)
            if keep is None:
                blank(m.start(), m.end())
            else:
                blank(m.start(), keep[0])
                blank(keep[1], m.end())
        for m in _RST_LITERAL.finditer(text):
            if text[m.start() - 1:m.start()] != ":" or not m.group().startswith("`"):
                blank(*m.span())
    return "".join(chars)


#: the regular endings of an English word
_EN_ENDINGS = ("", "s", "es", "d", "ed", "ing", "'s")


def english_inflection(word: str, term: str) -> bool:
    """Is the lower-case English ``word`` the term's word with a regular ending ("files",
    "raised", "sorting", "specified", "debugging"), not another word of its stem
    ("interpreted" for "interpreter", "promptly" for "prompt")?"""
    if word == term or not term:
        return True
    bases = {term, term + term[-1]}
    if term.endswith("e"):
        bases.add(term[:-1])
    if term.endswith("y"):
        bases.add(term[:-1] + "i")
    return any(word.startswith(b) and word[len(b):] in _EN_ENDINGS for b in bases)


def words(text: str) -> list[Word]:
    """The words of ``text`` (already :func:`masked`), with their columns."""
    new = tuple.__new__
    if "-" not in text and "\u2010" not in text and "\u2011" not in text:  # no word joined to another
        return [new(Word, (m.start(), m.end(), w, w.lower(), False, False))
                for m in _WORD.finditer(text) for w in (m.group(),)]
    out = []
    n = len(text)
    for m in _WORD.finditer(text):
        a, b = m.span()
        w = m.group()
        before = a >= 2 and text[a - 1] in _HYPHENS and (text[a - 2].isalnum())
        after = b + 1 < n and text[b] in _HYPHENS and text[b + 1].isalnum()
        out.append(new(Word, (a, b, w, w.lower(), before, after)))
    return out


class Line:
    """A line as the term index reads it, split once for every side and every test: the text
    masked (:func:`masked`), its words (those of :func:`words`) as written and in lower case,
    their columns worked out when first asked for."""

    __slots__ = ("text", "plain", "words", "lows", "_parts", "_offsets")

    def __init__(self, text: str) -> None:
        plain = masked(text)
        parts = (_SPLIT_ASCII if plain.isascii() else _SPLIT).split(plain)
        ws = parts[1::2]
        self.text, self.plain, self.words, self._parts = text, plain, ws, parts
        # one lower() of the words joined by NUL, which no word holds and which is neither a
        # cased nor a case-ignorable character: each word lowered as on its own (a final
        # sigma included), without a call per word
        self.lows: list[str] = "\0".join(ws).lower().split("\0") if ws else []
        self._offsets: Optional[list[int]] = None

    def offsets(self) -> list[int]:
        """The words' columns: word ``i`` starts at ``[2 * i]`` and ends at ``[2 * i + 1]``."""
        got = self._offsets
        if got is None:
            got = self._offsets = list(accumulate(map(len, self._parts)))
        return got

    def joined(self, first: int, last: int) -> bool:
        """Is word ``first`` joined by a hyphen to the word before it, or word ``last`` to the
        word after it (:attr:`Word.joined_before`, :attr:`Word.joined_after`)?"""
        plain = self.plain
        if "-" not in plain and "\u2010" not in plain and "\u2011" not in plain:
            return False
        offs = self.offsets()
        a, b = offs[2 * first], offs[2 * last + 1]
        return ((a >= 2 and plain[a - 1] in _HYPHENS and plain[a - 2].isalnum())
                or (b + 1 < len(plain) and plain[b] in _HYPHENS and plain[b + 1].isalnum()))


def no_spaces(text: str) -> bool:
    """Does ``text`` hold a letter of a script written without spaces?"""
    return _NO_SPACE.search(text) is not None


def case_sensitive(term: str) -> bool:
    """A term written with inner capitals or all in capitals ("GitHub", "iOS", "URL") matches
    case-sensitively; others ("file", "Datei", "Python") do not."""
    if term.islower():  # (no capital at all: the common case, without a look at each word)
        return False
    for m in _WORD.finditer(term):
        w = m.group()
        if any(ch.isupper() for ch in w[1:]):
            return True
    return False


def bounded(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a whole piece: no letter or digit of a spaced script touching it
    (a letter of a script without spaces may)?"""
    if start > 0:
        ch = text[start - 1]
        if ch.isalnum() and not _NO_SPACE.match(ch) and not _NO_SPACE.match(text[start]):
            return False
    if end < len(text):
        ch = text[end]
        if ch.isalnum() and not _NO_SPACE.match(ch) and not _NO_SPACE.match(text[end - 1]):
            return False
    return True
