"""The compiled peers of batch scoring, run as whole processes by the benchmark.

    python -m benchmarks.peers MODE HYP REF OUT

MODE is one of
  bleuscore      bleuscore.compute([[r] ...], hyps)      (Rust, corpus BLEU, 13a)  -> OUT: repr(100 * bleu)
  fastchrf       fastchrf.pairwise_chrf([[h] ...], [[r] ...])  (Rust, chrF per line) -> OUT: repr(score) per line
  mojo_bleu_chrf sacrebleu-mojo's corpus BLEU and corpus chrF (Mojo; Python >= 3.12) -> OUT: two reprs

They are the ``bench`` extra (``pip install 'bleu-ls[bench]'``); ``available``
says which of them import here, and why not.  Files are read the way
``bleu-ls score`` reads them (:func:`benchmarks.baselines.read`).
"""

from __future__ import annotations

import importlib.util
import sys

from .baselines import read

#: peer -> (module it needs, what it computes, what it is compared with)
PEERS = {
    "bleuscore": ("bleuscore", "corpus BLEU (Rust)", "bleu"),
    "fastchrf": ("fastchrf", "chrF per line (Rust, pairwise_chrf)", "chrf"),
    "mojo_bleu_chrf": ("sacrebleu_mojo", "corpus BLEU + chrF (Mojo kernel)", "bleu+chrf"),
}


def available(peer: str) -> tuple[bool, str]:
    """(whether ``peer`` can run in this interpreter, the reason when not)."""
    module = PEERS[peer][0]
    if peer == "mojo_bleu_chrf" and sys.version_info < (3, 12):
        return False, f"sacrebleu-mojo needs Python >= 3.12 (this is {sys.version_info.major}.{sys.version_info.minor})"
    if importlib.util.find_spec(module) is None:
        return False, f"{module} is not installed (pip install 'bleu-ls[bench]')"
    return True, ""


def main(argv: list[str]) -> int:
    mode, hyp_path, ref_path, out_path = argv
    hyps, refs = read(hyp_path), read(ref_path)
    if mode == "bleuscore":
        import bleuscore

        res = bleuscore.compute([[r] for r in refs], hyps, max_order=4, smooth=False)
        out = [repr(100 * res["bleu"])]
    elif mode == "fastchrf":
        from fastchrf import pairwise_chrf

        scores = pairwise_chrf([[h] for h in hyps], [[r] for r in refs])
        out = [repr(s[0][0]) for s in scores]
    elif mode == "mojo_bleu_chrf":  # pragma: no cover - Python >= 3.12 only
        import sacrebleu_mojo  # type: ignore[import-not-found]

        out = [repr(sacrebleu_mojo.corpus_bleu(hyps, [refs]).score), repr(sacrebleu_mojo.corpus_chrf(hyps, [refs]).score)]
    else:
        print(f"unknown mode {mode!r}", file=sys.stderr)
        return 2
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
