"""Deterministic synthetic MT test sets for the benchmarks.

A reference side drawn from a Zipf-like vocabulary (about 30k word types,
sentence lengths 5-60 tokens, with the punctuation, numbers, quotes and
hyphens that make sacrebleu's 13a tokenizer work), and a hypothesis that is
a noisy copy of it (substituted, dropped, inserted and swapped words), tuned
so that corpus BLEU lands near 30.  Same seed, same files, on any machine:
only Python's ``random.Random`` is used (its algorithms are stable across
versions for ``random()``).

    python -m benchmarks.corpus 100000        # writes benchmarks/.cache/...
"""

from __future__ import annotations

import bisect
import random
import sys
from itertools import accumulate
from pathlib import Path

CACHE = Path(__file__).resolve().parent / ".cache"
VOCAB_SIZE = 30_000
SIZES = (1_000, 10_000, 100_000)
DEFAULT_SEED = 13

_ONSETS = ["", "b", "br", "ch", "d", "f", "g", "gr", "h", "k", "l", "m", "n", "p", "pr", "r", "s", "sch", "st", "t", "tr", "v", "w", "z"]
_VOWELS = ["a", "e", "i", "o", "u", "ei", "au", "ie", "ä", "ö", "ü"]
_CODAS = ["", "", "n", "r", "s", "t", "ng", "ch", "ck", "l", "m", "nd", "st"]


class Corpus:
    """A seeded generator of (reference, hypothesis) line pairs."""

    def __init__(self, seed: int = DEFAULT_SEED, vocab_size: int = VOCAB_SIZE) -> None:
        self.rng = random.Random(seed)
        self.vocab = self._vocabulary(vocab_size)
        # Zipf-like rank weights, s = 1.05
        self.cum = list(accumulate(1.0 / (r ** 1.05) for r in range(1, vocab_size + 1)))

    def _vocabulary(self, size: int) -> list[str]:
        rng = self.rng
        seen: set[str] = set()
        words: list[str] = []
        while len(words) < size:
            syllables = rng.choice((1, 1, 2, 2, 2, 3, 3, 4))
            w = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables))
            if w not in seen:
                seen.add(w)
                words.append(w)
        # the most frequent ranks are the short words
        words.sort(key=len)
        head, tail = words[:300], words[300:]
        rng.shuffle(tail)
        return head + tail

    def word(self) -> str:
        rng = self.rng
        i = bisect.bisect_left(self.cum, rng.random() * self.cum[-1])
        w = self.vocab[min(i, len(self.vocab) - 1)]
        r = rng.random()
        if r < 0.06:
            w = w.capitalize()
        elif r < 0.075:
            w = f"{w}-{self.vocab[rng.randrange(2000)]}"
        return w

    def token(self) -> str:
        rng = self.rng
        r = rng.random()
        if r < 0.02:
            return rng.choice((f"{rng.randrange(1, 100)}", f"{rng.randrange(1, 10)}.{rng.randrange(10)}", f"{rng.randrange(1, 10)},{rng.randrange(100, 1000)}", f"{rng.randrange(1990, 2030)}-{rng.randrange(10, 99)}"))
        if r < 0.025:
            return rng.choice(("(", ")", "\"", "&quot;", "%", "&", ":", "'s", "--", "/"))
        w = self.word()
        r = rng.random()
        if r < 0.07:
            w += ","
        elif r < 0.08:
            w = f'"{w}"'
        elif r < 0.085:
            w += ";"
        return w

    def reference(self) -> list[str]:
        rng = self.rng
        n = min(60, max(5, int(rng.lognormvariate(3.0, 0.5))))
        toks = [self.token() for _ in range(n)]
        toks[0] = toks[0][:1].upper() + toks[0][1:]
        toks[-1] += rng.choice((".", ".", ".", ".", "?", "!", ":", ""))
        return toks

    def hypothesis(self, ref: list[str]) -> list[str]:
        rng = self.rng
        out: list[str] = []
        for tok in ref:
            r = rng.random()
            if r < 0.27:
                out.append(self.token())  # substitution
            elif r < 0.35:
                continue  # deletion
            elif r < 0.41:
                out += [tok, self.token()]  # insertion
            else:
                out.append(tok)
        for i in range(len(out) - 1):
            if rng.random() < 0.06:
                out[i], out[i + 1] = out[i + 1], out[i]
        if not out:
            out = [self.token()]
        return out

    def pairs(self, n: int) -> tuple[list[str], list[str]]:
        refs, hyps = [], []
        for _ in range(n):
            ref = self.reference()
            refs.append(" ".join(ref))
            hyps.append(" ".join(self.hypothesis(ref)))
        return hyps, refs


def paths(n: int, seed: int = DEFAULT_SEED) -> tuple[Path, Path]:
    stem = CACHE / f"synth-{seed}-{n}"
    return stem.with_suffix(".hyp"), stem.with_suffix(".ref")


def ensure(n: int, seed: int = DEFAULT_SEED) -> tuple[Path, Path]:
    """The (hyp, ref) files of ``n`` pairs, generated once and cached."""
    hyp_path, ref_path = paths(n, seed)
    if not (hyp_path.exists() and ref_path.exists()):
        CACHE.mkdir(parents=True, exist_ok=True)
        hyps, refs = Corpus(seed).pairs(n)
        for path, lines in ((hyp_path, hyps), (ref_path, refs)):
            tmp = path.with_suffix(path.suffix + ".tmp")
            tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            tmp.replace(path)
    return hyp_path, ref_path


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or list(SIZES)
    for n in sizes:
        print(*ensure(n))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
