"""The reference implementations, run as whole processes by the benchmark.

    python -m benchmarks.baselines MODE HYP REF OUT

MODE is one of
  corpus_bleu    sacrebleu.corpus_bleu(hyps, [refs])            -> OUT: repr(score)
  sentence_bleu  [sacrebleu.sentence_bleu(h, [r]) for ...]      -> OUT: repr(score) per line
  chrf           [CHRF().sentence_score(h, [r]) for ...]        -> OUT: repr(score) per line
  nltk           [nltk sentence_bleu([r.split()], h.split())]   -> OUT: repr(100 * score) per line

Files are read the way ``bleu-ls score`` reads them (UTF-8, one segment per
line, trailing whitespace removed) so both sides score the same strings.
"""

from __future__ import annotations

import sys


def read(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read().removeprefix("\ufeff")
    # the file rule of bleu-ls score (and sacrebleu's CLI): split on \n, a final break adds none
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def main(argv: list[str]) -> int:
    mode, hyp_path, ref_path, out_path = argv
    hyps, refs = read(hyp_path), read(ref_path)
    if mode == "corpus_bleu":
        import sacrebleu

        out = [repr(sacrebleu.corpus_bleu(hyps, [refs]).score)]
    elif mode == "sentence_bleu":
        import sacrebleu

        sb = sacrebleu.sentence_bleu
        out = [repr(sb(h, [r]).score) for h, r in zip(hyps, refs)]
    elif mode == "chrf":
        from sacrebleu.metrics import CHRF

        chrf = CHRF()
        out = [repr(chrf.sentence_score(h, [r]).score) for h, r in zip(hyps, refs)]
    elif mode == "nltk":
        import warnings

        from nltk.translate.bleu_score import sentence_bleu

        warnings.simplefilter("ignore")

        out = [repr(100 * float(sentence_bleu([r.split()], h.split()))) for h, r in zip(hyps, refs)]
    else:
        print(f"unknown mode {mode!r}", file=sys.stderr)
        return 2
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
