"""sacrebleu's own tokenizers, by name (none, 13a, intl, zh, char, ja-mecab, ko-mecab)."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import import_module
from itertools import chain
from typing import Any, Callable

_TOKENIZERS = {
    "none": ("tokenizer_none", "NoneTokenizer", None),
    "13a": ("tokenizer_13a", "Tokenizer13a", None),
    "intl": ("tokenizer_intl", "TokenizerV14International", None),
    "zh": ("tokenizer_zh", "TokenizerZh", None),
    "char": ("tokenizer_char", "TokenizerChar", None),
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab", "ja"),
    "ko-mecab": ("tokenizer_ko_mecab", "TokenizerKoMecab", "ko"),
}

NAMES = tuple(_TOKENIZERS)
#: the sacrebleu tokenizers made in this process, by name
_MADE: dict = {}


class TokenizerUnavailable(ValueError):
    """A tokenizer that is unknown or whose optional dependency is missing."""


@lru_cache(maxsize=None)
def get_tokenizer(name: str):
    """The sacrebleu tokenizer instance for ``name`` (callable: str -> str)."""
    try:
        module, cls, extra = _TOKENIZERS[name]
    except KeyError:
        raise TokenizerUnavailable(
            f"unknown tokenizer {name!r}; choose one of {', '.join(NAMES)}"
        ) from None
    try:
        tok = _MADE[name] = getattr(import_module(f"sacrebleu.tokenizers.{module}"), cls)()
        return tok
    except ImportError as exc:
        raise TokenizerUnavailable(
            f"tokenizer {name!r} needs an optional dependency ({exc.name or exc}); "
            f"install it with: pip install 'bleu-ls[{extra}]'"
        ) from None


def sacrebleu_version() -> str:
    from sacrebleu import __version__

    return __version__


# -- fast tokenization --------------------------------------------------------
#
# sacrebleu's 13a tokenizer runs four regular expressions over the whole
# line.  Every one of them looks at windows of at most two characters and
# none of them matches across a run of whitespace in a way that changes the
# result (whitespace is never '.', ',', '-' or a digit, and the only
# whitespace character the first expression touches is ' ', which it merely
# pads with more spaces).  So the tokens of a line are the concatenation of
# the tokens of its whitespace-separated words, each tokenized alone between
# two spaces — after the line-level replacements (<skipped>, entities).
# Words repeat (Zipf), so a word -> tokens cache turns the regex work into a
# dictionary lookup.  The property test in tests/engine/test_tokenizers.py and the
# benchmark's identity checks hold this to sacrebleu's output.

_CACHE_LIMIT = 1 << 16
#: the word caches of every fast tokenizer made in this process
_WORD_CACHES: list[dict] = []


class FastWordTokenizer:
    """``line -> list[str]`` equal to ``sacrebleu_tokenizer(line).split()``.

    For ``13a`` and ``none`` a per-word cache does the work; every other
    tokenizer goes through sacrebleu's own per line.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._tok = get_tokenizer(name)
        self._cache: dict[str, tuple[str, ...]] = {}
        _WORD_CACHES.append(self._cache)
        if name == "13a":
            self._res = list(self._tok._post_tokenizer._re)
            # characters the first expression of TokenizerRegexp pads with spaces
            padded = [chr(c) for c in range(128) if self._res[0][0].fullmatch(chr(c))]
            self._pad_table = str.maketrans({c: f" {c} " for c in padded})
            # In a word without an ASCII digit, the expressions part every
            # padded character, "." and "," from its neighbours and leave the
            # rest whole ("-" parts only after a digit): one findall does it.
            cls = re.escape("".join(padded) + ".,")
            self._digit = re.compile("[0-9]")
            self._digit_free_tokens = re.compile(f"[{cls}]|[^{cls}]+").findall

    def __reduce__(self):
        # pickled by name (worker processes): the cache stays behind
        return (fast_tokenizer, (self.name,))

    def __call__(self, line: str) -> list[str]:
        if self.name == "13a":
            return self._call_13a(line)
        if self.name == "none":
            return line.split()
        return self._tok(line).split()

    def _word(self, word: str) -> tuple[str, ...]:
        toks = self.word_tokens(word)
        cache = self._cache
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[word] = toks
        return toks

    def word_tokens(self, word: str) -> tuple[str, ...]:
        """The 13a tokens of one whitespace-free word (no caching)."""
        if word.isalnum():
            # no ASCII punctuation: none of the expressions can match
            return (word,)
        if word[-1] in ".," and word[:-1].isalpha():
            # a word then a full stop or comma ("Haus," "ends."): no digit, so
            # the stop comes off; nothing else can match
            return (word[:-1], word[-1])
        if self._digit.search(word) is None:
            return tuple(self._digit_free_tokens(word))
        # the first expression pads single characters: a translate table
        s = f" {word} ".translate(self._pad_table)
        r_before, r_after, r_dash = self._res[1:4]
        if "." in s or "," in s:
            s = r_before[0].sub(r_before[1], s)
            s = r_after[0].sub(r_after[1], s)
        if "-" in s:
            s = r_dash[0].sub(r_dash[1], s)
        return tuple(s.split())

    @staticmethod
    def prepare_13a(line: str) -> str:
        line = line.replace("<skipped>", "")
        line = line.replace("-\n", "")
        line = line.replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"')
            line = line.replace("&amp;", "&")
            line = line.replace("&lt;", "<")
            line = line.replace("&gt;", ">")
        return line

    def needs_prepare(self, text: str) -> bool:
        """Whether the line-level replacements of 13a can change ``text``."""
        return "<skipped>" in text or "&" in text or "\n" in text

    def words_13a(self, line: str) -> list[tuple[str, ...]]:
        """The per-word token tuples of ``line`` (13a).

        Only words with punctuation are cached (a plain alphanumeric word is
        its own token), which keeps the cache small for large documents.
        """
        words = self.prepare_13a(line).split()
        get = self._cache.get
        word = self._word
        return [(w,) if w.isalnum() else (get(w) or word(w)) for w in words]

    def _call_13a(self, line: str) -> list[str]:
        return list(chain.from_iterable(self.words_13a(line)))


_PUNCTS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def split_punctuation(sent: str) -> list[str]:
    """chrF++'s word split: one leading or trailing punctuation mark comes off."""
    out: list[str] = []
    for w in sent.split():
        if len(w) == 1:
            out.append(w)
        elif w[-1] in _PUNCTS:
            out += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out


def forget_words() -> int:
    """Empty the word caches of the fast tokenizers (and the batch pass's
    word ids, when that ran in this process); how many entries went.

    A bulk pass over a large document (the first analysis counts the tokens
    of every line and side) fills them with tens of thousands of words —
    ~8 MB at 100k lines — that an edit, which re-tokenizes a handful of
    words, hardly needs again.  Tokens are the same with or without them."""
    dropped = 0
    for cache in _WORD_CACHES:
        dropped += len(cache)
        cache.clear()
    # sacrebleu's own tokenizers (intl, char, zh, mecab) keep up to 65,536
    # whole lines each (functools.lru_cache on the class's __call__)
    for name in _TOKENIZERS:
        if name in _MADE:
            call: Any = type(_MADE[name]).__call__
            held = getattr(call, "cache_info", None)
            if held is not None:
                dropped += held().currsize
                call.cache_clear()
    for forget in _ALSO_FORGET:
        dropped += forget()
    return dropped


#: other word caches emptied with these (the batch pass's word ids, by
#: :mod:`.ngrams` when it is imported: this module does not import it)
_ALSO_FORGET: list[Callable[[], int]] = []


def also_forget(forget: Callable[[], int]) -> None:
    """Have :func:`forget_words` call ``forget`` too (it returns how many entries went)."""
    _ALSO_FORGET.append(forget)


@lru_cache(maxsize=None)
def fast_tokenizer(name: str) -> FastWordTokenizer:
    """The shared fast tokenizer for ``name`` (raises TokenizerUnavailable)."""
    return FastWordTokenizer(name)
