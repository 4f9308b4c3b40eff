"""Where the terminology check's time goes on a dense glossary, and what two changes to the
term index would save: in-process, ``TermIndex.scan`` over the lines of a pair with its
source (default: the benchmark's 3,000-line real pair and its 10,000-entry glossary, made by
``python -m benchmarks.terms 3000 --check-only``), timed per line as it is and with the
proposals of docs/terminology.md applied to this process:

* **pairs**: multi-word terms indexed by the stems of their first two words (single-word
  terms by their one stem), so that a word like "of" or "the" that starts hundreds of
  multi-word terms costs one lookup of the pair it starts instead of a walk over all of them;
* **keys**: ``Side.present`` remembers the key (masked words, stems, case) of each expected
  target term instead of working it out again for every source term of every line.

The findings with the proposals are checked equal to those without, line by line.  With
``--thin``, the same per-line cost with every 10th and every 100th entry of the glossary kept
(1,000 and 100 entries): what a line costs as the terms it meets grow fewer.

    PYTHONPATH=. .venv/bin/python scripts/term_scan_cost.py [FOLDER GLOSSARY] [--profile] [--thin]
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bleu_ls.qa.terms import index as I  # noqa: E402
from bleu_ls.qa.terms import words as W  # noqa: E402
from bleu_ls.qa.terms.load import forget, terms_for  # noqa: E402


def find_by_pairs(self, text: str, strict: bool) -> list:
    """``Side.find`` with the candidates of a word looked up by its stem (single-word terms)
    and by its stem and the next word's (multi-word terms)."""
    if not self._entries or not text:
        return []
    if "_one" not in self.__dict__:
        one: dict = {}
        two: dict = {}
        for first, entries in self.by_first.items():
            for e in entries:
                if len(e.stems) == 1:
                    one.setdefault(first, []).append(e)
                else:
                    two.setdefault((first, e.stems[1]), []).append(e)
        self._one, self._two = one, two
    plain = W.masked(text)
    out: list = []
    if self.by_first:
        ws = W.words(plain)
        n = len(ws)
        stems: list[Optional[str]] = [None] * n
        stem, heads, one, two = self.stem, self._heads, self._one, self._two
        for i, w in enumerate(ws):
            if w.lower[:2] not in heads:
                continue
            s = stems[i]
            if s is None:
                s = stems[i] = stem(w.lower)
            cands = one.get(s, [])
            if i + 1 < n and two:
                s1 = stems[i + 1]
                if s1 is None:
                    s1 = stems[i + 1] = stem(ws[i + 1].lower)
                more = two.get((s, s1))
                if more:
                    cands = cands + more
            for e in cands:
                k = len(e.stems)
                if i + k > n:
                    continue
                ok = True
                for j in range(2, k):
                    sj = stems[i + j]
                    if sj is None:
                        sj = stems[i + j] = stem(ws[i + j].lower)
                    if sj != e.stems[j]:
                        ok = False
                        break
                if ok and e.exact is not None:
                    ok = all(ws[i + j].text.startswith(e.exact[j]) for j in range(k))
                if ok and getattr(self, "english", False):  # (the index's English inflection rule)
                    ok = all(W.english_inflection(ws[i + j].lower, e.lowers[j]) for j in range(k))
                if ok and strict and (w.joined_before or ws[i + k - 1].joined_after):
                    ok = False
                if ok:
                    out.append(I.Match(e, w.start, ws[i + k - 1].end))
    if self.substrings and W.no_spaces(plain):
        low = plain.lower()
        for e in self.substrings:
            needle = e.text.lower()
            at = low.find(needle)
            while at >= 0:
                out.append(I.Match(e, at, at + len(needle)))
                at = low.find(needle, at + 1)
    out.sort(key=lambda m: (m.start, -(m.end - m.start)))
    return out


def key_of_memo(self, text: str) -> tuple:
    memo = self.__dict__.setdefault("_key_memo", {})
    got = memo.get(text)
    if got is None:
        got = memo[text] = PLAIN_KEY_OF(self, text)
    return got


PLAIN_FIND, PLAIN_KEY_OF = I.Side.find, I.Side._key_of


def timed(index, src: list[str], hyp: list[str]) -> tuple[float, list]:
    t0 = time.perf_counter()
    got = [index.scan(s, h) for s, h in zip(src, hyp)]
    return (time.perf_counter() - t0) / max(1, len(src)) * 1000, got


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    folder = Path(args[0]) if args else ROOT / "benchmarks" / ".cache" / "real-3000-25-distinct"
    glossary = Path(args[1]) if len(args) > 1 else ROOT / "benchmarks" / ".cache" / "terms-glossary-10000.csv"
    src = (folder / "big.src").read_text(encoding="utf-8").splitlines()
    hyp = (folder / "big.hyp").read_text(encoding="utf-8").splitlines()
    index = terms_for((str(glossary),), "en", "de").termbase
    assert index is not None
    words = sum(len(W.words(W.masked(s))) for s in src)
    cands = sum(len(index.src.by_first.get(index.src.stem(w.lower), ()))
                for s in src for w in W.words(W.masked(s)))
    matched = sum(len(index.src.find(s, False)) for s in src)
    print(f"{len(src):,} lines, {len(index.src):,} source terms; per source word {cands / words:.1f} candidate "
          f"terms walked; {matched / len(src):.1f} source terms matched per line")
    timed(index, src[:200], hyp[:200])  # (the stem caches warm)
    base_ms, base = timed(index, src, hyp)
    print(f"as it is:            {base_ms:.3f} ms per line, {sum(map(len, base)) / len(src):.2f} findings per line")
    for label, patches in (("keys", {"_key_of": key_of_memo}), ("pairs", {"find": find_by_pairs}),
                           ("pairs + keys", {"_key_of": key_of_memo, "find": find_by_pairs})):
        forget()
        for name, fn in patches.items():
            setattr(I.Side, name, fn)
        fresh = terms_for((str(glossary),), "en", "de").termbase
        timed(fresh, src[:200], hyp[:200])
        ms, got = timed(fresh, src, hyp)
        assert got == base, label
        print(f"with {label + ':':15} {ms:.3f} ms per line ({base_ms / ms:.2f}× faster), the same findings")
        I.Side.find, I.Side._key_of = PLAIN_FIND, PLAIN_KEY_OF
    if "--thin" in argv:
        import csv
        import tempfile

        with open(glossary, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        for step in (1, 10, 100):
            kept = [rows[0]] + rows[1::step]
            with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8", newline="") as f:
                csv.writer(f, lineterminator="\n").writerows(kept)
            forget()
            thin = terms_for((f.name,), "en", "de").termbase
            Path(f.name).unlink()
            assert thin is not None
            met = sum(len(thin.src.find(s, False)) for s in src) / len(src)
            timed(thin, src[:200], hyp[:200])
            ms, got = timed(thin, src, hyp)
            print(f"every {step:>3}th row ({len(kept) - 1:,} rows): {met:5.1f} source terms met per line, "
                  f"{ms:.3f} ms per line, {sum(map(len, got)) / len(src):.2f} findings per line")
    if "--profile" in argv:
        forget()
        fresh = terms_for((str(glossary),), "en", "de").termbase
        pr = cProfile.Profile()
        pr.enable()
        timed(fresh, src, hyp)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main(sys.argv[1:])
