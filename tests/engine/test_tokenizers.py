"""The per-word 13a tokenizer against sacrebleu's own Tokenizer13a on
arbitrary text (punctuation, digits, entities, odd whitespace), string for string."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from bleu_ls.engine.tokenizers import fast_tokenizer, get_tokenizer
from tests.strategies import sentence

ALPHABET = " \t\u00a0\u2028\u3000a1Z9.,-&;<>\"'()[]{}/:?!@#$%^*_+=|~`\\é東" + "quotampltgskipped"
text = st.text(alphabet=ALPHABET, max_size=40)
entityish = st.lists(
    st.sampled_from(["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-", "3.5", "1,000", "a.", ".b", ",", "x-y", " ", "..", "9-"]),
    max_size=10,
).map("".join)


@settings(max_examples=800, deadline=None)
@given(st.one_of(text, entityish, sentence))
def test_fast_13a_matches_sacrebleu(line):
    assert fast_tokenizer("13a")(line) == get_tokenizer("13a")(line).split()


# A word without an ASCII digit takes the one-expression path of
# ``word_tokens``: every ASCII punctuation mark, with the non-ASCII letters and
# the digits of other scripts that 13a leaves alone.
WORD_CHARS = [chr(c) for c in range(33, 127) if not chr(c).isdigit()] + ["é", "東", "٣", "\u00ad"]


def _word_tokens(word: str) -> list[str]:
    """``word_tokens`` after the line-level replacements, as a line gets them."""
    fast = fast_tokenizer("13a")
    return [t for w in fast.prepare_13a(word).split() for t in fast.word_tokens(w)]


def test_digit_free_words_of_two_characters():
    slow = get_tokenizer("13a")
    words = [a + b for a in WORD_CHARS for b in WORD_CHARS] + WORD_CHARS
    wrong = [w for w in words if _word_tokens(w) != slow(w).split()]
    assert wrong == []


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=WORD_CHARS + ["a", "b", "-", ".", ",", "1"], min_size=1, max_size=14))
def test_words_match_sacrebleu(word):
    assert _word_tokens(word) == get_tokenizer("13a")(word).split()
