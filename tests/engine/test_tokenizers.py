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
