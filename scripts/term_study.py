"""Precision of the terminology check on real data: the French translation of the Python
documentation (python/python-docs-fr, CC0) against its own glossary.

The glossary is the table "Glossaire" of the project's CONTRIBUTING.rst (an RST simple table
of two columns: English term, French translation with notes).  The stand-in glossary reader
takes CSV only, so this script converts the table into a CSV (``en,fr,status``), written
to tests/data/terms/python-docs-fr-glossary.csv:

* a source cell is split on ", " and " or " ("parse, parser"; "frozen package or set" →
  "paquet ou ensemble figé" gives "frozen package" → "paquet figé" and "frozen set" →
  "ensemble figé"; "little-endian, big-endian" pairs in order); a sense note in parentheses ("pickle (v.)",
  "caught (exception)") is dropped;
* a target cell is cut at its first note in parentheses ("(préféré)" is kept as the order:
  "copie récursive (préféré), ou copie profonde"); the rest is split on ", " and
  " ou "; the first is preferred, the others admitted; RST markup goes (a link's text is
  kept, ``*daemon*`` is the English word kept in italics: admitted);
* a term the notes say to avoid is a forbidden row: « retourne » (return), « spécifier »
  (specify), « typiquement » (typically), « supporter » (support), « sensiblement
  équivalent » (roughly), « liste en intension » (list comprehension: "valid, but we do not
  use it"), and the Latin abbreviations « e.g. » and « i.e. » written in French;
* left out: "-like" → "-compatible" (a suffix, not a word: the index matches words).

Then ``bleu-ls check FILE… --glossary CSV --format json`` runs on the PO files (each is
a file with no reference: the analyser's rows run on msgid → msgstr) and the findings of
the three terminology codes are counted per 1,000 checked segments, and a seeded sample
of 50 is printed with each segment's source and target to be judged by reading.  (The figures of docs/terminology.md
were taken before and after the term index learnt the changes the study proposed: run the
script at each commit.)

    PYTHONPATH=. .venv/bin/python scripts/term_study.py [PO files or folders…]

With no argument, the PO files under tests/data/terms/python-docs-fr/.
"""

from __future__ import annotations

import csv
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "terms"
RST = DATA / "python-docs-fr" / "CONTRIBUTING.rst"
CSV_OUT = DATA / "python-docs-fr-glossary.csv"
CODES = ("term-missing", "term-forbidden", "do-not-translate")

#: the terms the notes of a row say to avoid (source term -> forbidden French terms)
FORBIDDEN = {
    "return": ["retourne"],
    "specify": ["spécifier"],
    "typically": ["typiquement"],
    "support": ["supporter"],
    "roughly": ["sensiblement équivalent"],
    "list comprehension": ["liste en intension"],
    "e.g.": ["e.g."],
    "i.e.": ["i.e."],
}
#: rows left out, and why
SKIP = {"-like": "a suffix, not a word"}


def table_rows(rst: str) -> list[tuple[str, str]]:
    """The (term, translation) rows of the "Glossaire" simple table, continuation lines
    joined to their row."""
    lines = rst.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Glossaire")
    rules = [i for i in range(start, len(lines)) if re.fullmatch(r"=+ +=+", lines[i].strip())]
    head, body, end = rules[0], rules[1], rules[2]
    col = lines[head].index(" =") + 1
    rows: list[list[str]] = []
    for line in lines[body + 1:end]:
        left, right = line[:col].strip(), line[col:].strip()
        if left:
            rows.append([left, right])
        elif rows and right:
            rows[-1][1] += " " + right
    assert lines[head + 1].split()[0] == "Terme", "the table's header moved"
    return [(a, b) for a, b in rows]


def _plain(text: str) -> str:
    text = re.sub(r"`([^`<]*?)\s*<[^>]*>`_", r"\1", text)  # a link: its text
    text = text.replace("*", "")
    return " ".join(text.split())


def convert(rst: str) -> list[tuple[str, str, str]]:
    """The glossary as (en, fr, status) rows."""
    out: list[tuple[str, str, str]] = []
    for left, right in table_rows(rst):
        if left in SKIP:
            continue
        base = re.sub(r"\s*\([^)]*\)", "", left).strip()
        sources = [s.strip() for s in re.split(r",\s*| or ", base) if s.strip()]
        # the translation: up to its first note in parentheses ("(préféré)" is no note)
        main = right.replace(" (préféré)", "").split(" (", 1)[0]
        main = re.sub(r"`([^`<]*?)\s*<[^>]*>`_", r"\1", main)
        main = main.split(", à accorder", 1)[0]  # et al.: "et autres, to agree with the context"
        targets = [_plain(t) for t in re.split(r",\s*(?:ou\s+)?| ou ", main) if _plain(t)]
        targets = [t for t in targets if t]
        if "little-endian" in sources:  # two terms, two translations in order
            pairs = list(zip(sources, targets))
        elif base == "frozen package or set":  # "paquet ou ensemble figé"
            pairs = [("frozen package", "paquet figé"), ("frozen set", "ensemble figé")]
        else:
            pairs = [(s, t) for s in sources for t in targets]
        seen: set[str] = set()
        for s, t in pairs:
            status = "preferred" if s not in seen else "admitted"
            seen.add(s)
            out.append((s, t, status))
        for s in sources:
            for bad in FORBIDDEN.get(s, ()):
                out.append((s, bad, "forbidden"))
    return out


def write_csv(rows: list[tuple[str, str, str]], path: Path) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["en", "fr", "status"])
        w.writerows(rows)


def po_files(args: list[str]) -> list[Path]:
    found: list[Path] = []
    for a in args or [str(DATA / "python-docs-fr")]:
        p = Path(a)
        found.extend(sorted(p.rglob("*.po")) if p.is_dir() else [p])
    return found


def run_check(files: list[Path], glossary: Path) -> dict:
    argv = [*map(str, files), "--glossary", str(glossary), "--format", "json", "--fail-on", "never", "--no-config"]
    cmd = [sys.executable, "-m", "bleu_ls", "check", *argv]
    got = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if got.returncode not in (0, 1):
        sys.exit(f"term_study: bleu-ls check failed: {got.stderr.strip()}")
    return json.loads(got.stdout)


def segments_of(path: Path) -> list[tuple[int, str, str]]:
    """(line of the entry's msgid, msgid, msgstr) of each translated entry, read by polib
    (a plain reader, not bleu-ls's)."""
    import polib

    return [(e.linenum, e.msgid, e.msgstr) for e in polib.pofile(str(path)) if e.msgstr and not e.obsolete]


def entry_at(segs: list[tuple[int, str, str]], line: int) -> tuple[int, str, str]:
    best = segs[0]
    for s in segs:
        if s[0] <= line:
            best = s
    return best


def findings(report: dict) -> tuple[int, list[tuple[Path, int, str, str, str]]]:
    """(segments checked, [(file, line, code, term, message)]) of the terminology codes."""
    checked, out = 0, []
    for pair in report["pairs"]:
        checked += pair["segments"]["checked"]
        for d in pair["diagnostics"]:
            if d["code"] in CODES:
                data = d.get("data") or {}
                out.append((Path(pair["hypothesis"]), d["line"], d["code"], data.get("source") or data.get("term", ""),
                            d["message"]))
    return checked, out


def main(argv: list[str]) -> None:
    rows = convert(RST.read_text(encoding="utf-8"))
    write_csv(rows, CSV_OUT)
    files = po_files(argv)
    checked, found = findings(run_check(files, CSV_OUT))
    print(f"glossary: {len(rows)} rows ({dict(Counter(r[2] for r in rows))}) from {RST.relative_to(ROOT)}")
    print(f"files: {len(files)}, segments checked: {checked:,}")
    for code in CODES:
        n = sum(f[2] == code for f in found)
        print(f"  {code:18} {n:6} {1000 * n / max(1, checked):10.1f} per 1,000 segments")
    by_term = Counter((f[2], f[3].lower()) for f in found)
    print("by term: " + ", ".join(f"{t} ({c}) {n}" for (c, t), n in by_term.most_common()))
    rng = random.Random(34)
    sample = sorted(rng.sample(found, min(50, len(found))), key=lambda f: (str(f[0]), f[1]))
    cache: dict[Path, list] = {}
    for n, (path, line, code, _term, message) in enumerate(sample, 1):
        segs = cache.setdefault(path, segments_of(path))
        _at, src, tgt = entry_at(segs, line)
        print(f"\n#{n} {path.name}:{line} [{code}] {message}"
              f"\n  EN: {src}\n  FR: {tgt}")


if __name__ == "__main__":
    main(sys.argv[1:])
