"""Shared hypothesis strategies: small vocabularies so that n-grams do match."""

from __future__ import annotations

from hypothesis import strategies as st

WORDS = [
    "the", "cat", "sat", "on", "mat", "a", "dog", "The", "Cat", "is", "it", "ship",
    "ran", ",", ".", "!", "?", "(hi)", "don't", "3.5", "1,000", "U.S.", "e-mail",
    "&amp;", "&quot;", "&lt;b&gt;", "--", "Zürich", "naïve", "東京", "会議は", "金曜日",
    "👋", "🙏", "x", "y", "z", "\u00a0", "\t",
]

word = st.sampled_from(WORDS)
sentence = st.lists(word, min_size=0, max_size=14).map(" ".join).map(str.rstrip)
nonempty_sentence = st.lists(word, min_size=1, max_size=14).map(" ".join).map(str.rstrip)


@st.composite
def pair(draw, max_refs: int = 3):
    """A hypothesis sentence and 1..max_refs references, some drawn near the hypothesis."""
    hyp = draw(sentence)
    n = draw(st.integers(1, max_refs))
    refs = []
    for _ in range(n):
        if hyp and draw(st.booleans()):
            toks = hyp.split(" ")
            # perturb: drop / duplicate / swap a token
            ops = draw(st.lists(st.tuples(st.sampled_from(["drop", "dup", "swap", "sub"]),
                                          st.integers(0, 50), word), max_size=3))
            for op, pos, w in ops:
                if not toks:
                    break
                j = pos % len(toks)
                if op == "drop":
                    toks.pop(j)
                elif op == "dup":
                    toks.insert(j, toks[j])
                elif op == "swap" and len(toks) > 1:
                    k = (j + 1) % len(toks)
                    toks[j], toks[k] = toks[k], toks[j]
                else:
                    toks[j] = w
            refs.append(" ".join(toks).rstrip())
        else:
            refs.append(draw(sentence))
    return hyp, refs


@st.composite
def word_lists(draw, max_len: int = 120):
    """A hypothesis and a reference word list for TER's edge cases: long lines of a
    tiny vocabulary (many shift candidates, runs over 10 words, shifts over 50
    positions) or very different lengths (a wider band)."""
    vocab = draw(st.sampled_from([["a", "b"], ["a", "b", "c"], WORDS[:8]]))
    ref = draw(st.lists(st.sampled_from(vocab), max_size=max_len))
    if draw(st.booleans()):
        hyp = draw(st.lists(st.sampled_from(vocab), max_size=max_len))
    else:
        hyp = list(ref)
        for op, pos, w in draw(st.lists(st.tuples(st.sampled_from(["drop", "move", "sub"]),
                                                  st.integers(0, 10**6), st.sampled_from(vocab)), max_size=6)):
            if not hyp:
                break
            j = pos % len(hyp)
            if op == "drop":
                hyp.pop(j)
            elif op == "sub":
                hyp[j] = w
            else:
                k = (pos // 7) % len(hyp)
                block = hyp[j : j + 1 + pos % 12]
                del hyp[j : j + len(block)]
                hyp[k:k] = block
    return hyp, ref
