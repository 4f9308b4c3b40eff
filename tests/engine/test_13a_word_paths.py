"""The shortcuts of the 13a word tokenizer (``FastWordTokenizer.word_tokens``)
give sacrebleu's tokens: a word then a full stop or comma, and its neighbours
that must not take the shortcut (digits, other scripts' digits, two marks)."""

from __future__ import annotations

import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_ls.engine.tokenizers import FastWordTokenizer

WORDS = [
    "Haus,", "ends.", "é.", "ß,", "a.", ".", ",", "1.", "a1.", "1a,", "ª,", "Ⅻ.", "a..", "a,.", ",a", ".a",
    "٣.", "²,", "x².", "a-b.", "a'b,", "\"a\".", "a_b,", "日本.", "e.g.", "U.S.,", "3,5.", "a.b", "x,y,",
]


@pytest.mark.parametrize("word", WORDS)
def test_word_tokens_are_sacrebleus(word):
    assert FastWordTokenizer("13a").word_tokens(word) == tuple(Tokenizer13a()(word).split())
