"""sacrebleu's own tokenizers, by name (none, 13a, intl, zh, char, ja-mecab, ko-mecab)."""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module

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
        return getattr(import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    except ImportError as exc:
        raise TokenizerUnavailable(
            f"tokenizer {name!r} needs an optional dependency ({exc.name or exc}); "
            f"install it with: pip install 'bleu-ls[{extra}]'"
        ) from None


def sacrebleu_version() -> str:
    from sacrebleu import __version__

    return __version__
