"""Does the ``spelling`` check point at spelling errors?  Its flags on rated MT against the
experts' error categories.

The rated folders of ../shared/data (WMT21 TED, English→German and Chinese→English, 13 systems;
``*.mqm.tsv`` gives each line's ``seg_id``) hold per-line MQM scores only; the error categories
and spans are in the public release (google/wmt-mqm-human-evaluation, ``ted/ende/mqm_ted_ende.tsv``
and ``ted/zhen/mqm_ted_zhen.tsv``, Apache 2.0): one row per error with its category
(``Fluency/Spelling``…) and the erroneous span marked ``<v>…</v>`` in the target.  Pass those
files; nothing is fetched.

For each language pair and each variant of the rule (compounds accepted or not):

* lines rated, lines with a ``Fluency/Spelling`` error (any severity), lines flagged;
* P(spelling | flagged), P(spelling), lift = their ratio; recall (the spelling lines flagged);
* flags (words) inside a ``Fluency/Spelling`` span: the precision of a single flag;
* flags per 1,000 words on the human reference (``ref.txt``, a text with few spelling errors:
  nearly every flag there is a false alarm).

    PYTHONPATH=. .venv/bin/python scripts/spell_study.py --ende PATH/mqm_ted_ende.tsv \\
        [--zhen PATH/mqm_ted_zhen.tsv] [--sample 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_ls.qa.spelling.check import unknown_words  # noqa: E402
from bleu_ls.qa.spelling.dictionary import dictionary  # noqa: E402
from bleu_ls.qa.terms.words import masked, words  # noqa: E402

DATA_ROOT = Path(os.environ.get("BLEU_LS_SHARED_DATA") or Path(__file__).resolve().parents[1] / ".." / "shared" / "data")
SPELLING = "Fluency/Spelling"
_MARK = re.compile(r"</?v>")


def spans_of(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """The target without its ``<v>`` marks, and the marked spans in it."""
    out, spans, pos, start = [], [], 0, None
    for m in _MARK.finditer(marked):
        out.append(marked[pos:m.start()])
        at = sum(map(len, out))
        if m.group() == "<v>":
            start = at
        elif start is not None:
            spans.append((start, at))
            start = None
        pos = m.end()
    out.append(marked[pos:])
    return "".join(out), spans


def read_release(path: Path) -> dict:
    """(system, seg_id) -> {"rated": True, "spelling": [spans]} from the release's TSV."""
    got: dict = defaultdict(lambda: {"spelling": [], "target": None})
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            key = (row["system"], int(row["seg_id"]))
            plain, spans = spans_of(row["target"] or "")
            rec = got[key]
            rec["target"] = rec["target"] or plain
            if row["category"] == SPELLING:
                rec["spelling"].extend(spans)
    return got


def seg_ids(path: Path) -> dict[int, int]:
    """line (0-based) -> seg_id of a folder's ``<system>.mqm.tsv``."""
    out = {}
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            out[int(row["line"]) - 1] = int(row["seg_id"])
    return out


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def study(folder: Path, release: Path, lang: str, compounds: bool, flags_out: Optional[list] = None) -> dict:
    d = dictionary(lang, compounds).dictionary
    assert d is not None, f"no {lang} dictionary installed"
    rel = read_release(release)
    src = read_lines(folder / "src.txt")
    n_lines = n_spell = n_flag = n_both = n_flags = n_in_span = same_text = 0
    for hyp_path in sorted(folder.glob("*.hyp")):
        system = hyp_path.name[: -len(".hyp")]
        hyp = read_lines(hyp_path)
        ids = seg_ids(folder / f"{system}.mqm.tsv")
        for i, line in enumerate(hyp):
            rec = rel.get((system, ids.get(i, -1)))
            if rec is None:
                continue  # not rated
            n_lines += 1
            target = rec["target"]
            same_text += target == line
            spell = bool(rec["spelling"])
            found = unknown_words(line, src[i], d)
            n_spell += spell
            n_flag += bool(found)
            n_both += spell and bool(found)
            n_flags += len(found)
            if target == line:
                for u in found:
                    if any(a < u.end and u.start < b for a, b in rec["spelling"]):
                        n_in_span += 1
            if flags_out is not None:
                flags_out.extend((system, i + 1, u.word, line, spell) for u in found)
    ref = read_lines(folder / "ref.txt")
    ref_words = ref_flags = 0
    for i, line in enumerate(ref):
        ref_words += len(words(masked(line)))
        ref_flags += len(unknown_words(line, src[i], d))
    p_spell = n_spell / n_lines if n_lines else 0.0
    p_given = n_both / n_flag if n_flag else 0.0
    return {
        "lines": n_lines, "spelling": n_spell, "flagged": n_flag, "both": n_both,
        "p_spell": p_spell, "p_given": p_given, "lift": p_given / p_spell if p_spell else float("nan"),
        "recall": n_both / n_spell if n_spell else float("nan"), "flags": n_flags, "in_span": n_in_span,
        "same_text": same_text, "ref_per_1000": 1000 * ref_flags / ref_words if ref_words else 0.0,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ende", type=Path, required=True, help="the release's ted/ende/mqm_ted_ende.tsv")
    ap.add_argument("--zhen", type=Path, help="the release's ted/zhen/mqm_ted_zhen.tsv")
    ap.add_argument("--sample", type=int, default=0, help="print this many en-de flags drawn at random")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    runs = [("en-de", DATA_ROOT / "wmt21-ted-mqm-en-de", args.ende, "de")]
    if args.zhen:
        runs.append(("zh-en", DATA_ROOT / "wmt21-ted-mqm-zh-en-part", args.zhen, "en"))
    for _pair, folder, release, _lang in runs:
        if not folder.is_dir() or not release.is_file():
            print(f"spell_study: missing {folder if not folder.is_dir() else release}", file=sys.stderr)
            return 2
    print("| pair | compounds | lines rated | with a spelling error | flagged | P(spelling \\| flagged) "
          "| P(spelling) | lift | recall | flags | flags in a spelling span | reference flags / 1,000 words |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    sample: list = []
    for pair, folder, release, lang in runs:
        for compounds in (True, False):
            keep = sample if (pair == "en-de" and compounds and args.sample) else None
            r = study(folder, release, lang, compounds, keep)
            print(f"| {pair} | {'yes' if compounds else 'no'} | {r['lines']} | {r['spelling']} ({100 * r['p_spell']:.1f}%) "
                  f"| {r['flagged']} ({100 * r['flagged'] / r['lines']:.1f}%) | {100 * r['p_given']:.1f}% "
                  f"| {100 * r['p_spell']:.1f}% | {r['lift']:.2f} | {100 * r['recall']:.1f}% | {r['flags']} "
                  f"| {r['in_span']} | {r['ref_per_1000']:.1f} |")
            if pair == "en-de" and compounds:
                print(f"<!-- {r['same_text']} of {r['lines']} rated lines: the release's target equals the folder's line -->")
    if sample:
        rng = random.Random(args.seed)
        print()
        for system, line, word, text, spell in rng.sample(sample, min(args.sample, len(sample))):
            print(f"{system}:{line} {word!r} spelling-error-line={spell}\n    {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
