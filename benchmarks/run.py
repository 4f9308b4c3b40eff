"""Run every benchmark and print one table (medians; ratios from the same run).

    .venv/bin/python -m benchmarks                 # the full run (100k batch, 1k/10k/100k server)
    .venv/bin/python -m benchmarks --quick         # a small smoke run (what CI runs)
    .venv/bin/python -m benchmarks --write-results # also rewrite benchmarks/RESULTS.md
    .venv/bin/python -m benchmarks --skip-server --skip-ter --skip-check --skip-scale --skip-real
                                                   # the batch rows and the compiled peers alone

Batch rows time whole processes (interpreter start, imports, reading the
files, scoring, writing the output): ``bleu-ls score`` against the same
work done by sacrebleu / NLTK in a ``python`` process of its own, run in
turn (A B C A B C ...) so that noise on a shared machine hits all of them
alike.  Every row also checks that the numbers are identical (the printed
``repr`` of every per-line score and of the corpus score).

Server rows drive ``bleu-ls serve --stdio`` with a raw JSON-RPC client.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from . import corpus
from .corpus import CACHE

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
REAL_DATA = ROOT.parent / "shared" / "data" / "wmt21-ted-mqm-en-de"


@dataclass
class Row:
    section: str
    name: str
    lines: str
    ours: str
    baseline: str
    ratio: str
    target: str
    met: Optional[bool]
    identical: str = ""

    def cells(self) -> list[str]:
        met = "" if self.met is None else ("yes" if self.met else "**NO**")
        return [self.name, self.lines, self.ours, self.baseline, self.ratio, self.target, met, self.identical]


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, row: Row) -> None:
        self.rows.append(row)
        print("  " + " | ".join(row.cells()), file=sys.stderr, flush=True)

    def table(self) -> str:
        head = ["benchmark", "lines", "bleu-ls", "baseline", "ratio", "target", "met", "identical"]
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        section = None
        for r in self.rows:
            if r.section != section:
                section = r.section
                out.append("| **" + section + "** |" + " |" * (len(head) - 1))
            out.append("| " + " | ".join(r.cells()) + " |")
        return "\n".join(out)


# -- processes ------------------------------------------------------------------------


def run_timed(argv: list[str], stdout_path: Optional[Path] = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    try:
        t0 = time.perf_counter()
        proc = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, cwd=ROOT)
        wall = time.perf_counter() - t0
    finally:
        if stdout_path:
            out.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))} failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def race(commands: dict[str, tuple[list[str], Optional[Path]]], repeat: int) -> dict[str, tuple[float, float]]:
    """Run the commands in turn ``repeat`` times; median (wall, cpu) of each."""
    walls: dict[str, list[float]] = {k: [] for k in commands}
    cpus: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(repeat):
        for key, (argv, out) in commands.items():
            w, c = run_timed(argv, out)
            walls[key].append(w)
            cpus[key].append(c)
    return {k: (statistics.median(walls[k]), statistics.median(cpus[k])) for k in commands}


def bleu_ls(*args: str) -> list[str]:
    return [PY, "-m", "bleu_ls", "score", *args]


def baseline(mode: str, hyp: Path, ref: Path, out: Path) -> list[str]:
    return [PY, "-m", "benchmarks.baselines", mode, str(hyp), str(ref), str(out)]


def tsv_scores(path: Path) -> tuple[list[str], str]:
    """(per-line score reprs, corpus score repr) of the first metric column of a TSV report."""
    lines, corpus_score = [], ""
    with open(path, encoding="utf-8") as f:
        next(f)
        for row in f:
            cells = row.rstrip("\n").split("\t")
            if cells[0] == "corpus":
                corpus_score = cells[1]
            else:
                lines.append(cells[1])
    return lines, corpus_score


def _norm(x: str) -> str:
    return repr(float(x)) if x not in ("", "nan") else x


def same_lines(ours: list[str], theirs: list[str]) -> tuple[int, int]:
    n = len(theirs)
    same = sum(1 for a, b in zip(ours, theirs) if _norm(a) == _norm(b))
    return same, max(n, len(ours))


def fmt_s(wall: float, cpu: float, n: int) -> str:
    return f"{wall:.2f} s ({wall / n * 1e6:.0f} µs/line; cpu {cpu:.2f} s)"


# -- batch ---------------------------------------------------------------------------


def batch_rows(report: Report, n: int, repeat: int, nltk_n: int, real: bool) -> None:
    hyp, ref = corpus.ensure(n)
    work = CACHE / "out"
    work.mkdir(parents=True, exist_ok=True)
    o = {k: work / f"{k}-{n}.txt" for k in ("ours_bleu", "corpus", "sentence", "ours_chrf", "chrf")}
    print(f"batch: {n:,} pairs x {repeat} (whole processes, in turn)", file=sys.stderr, flush=True)
    res = race(
        {
            "ours_bleu": (bleu_ls(str(hyp), str(ref), "--format", "tsv"), o["ours_bleu"]),
            "corpus": (baseline("corpus_bleu", hyp, ref, o["corpus"]), None),
            "sentence": (baseline("sentence_bleu", hyp, ref, o["sentence"]), None),
        },
        repeat,
    )
    ours_lines, ours_corpus = tsv_scores(o["ours_bleu"])
    sb_corpus = o["corpus"].read_text().strip()
    sb_lines = o["sentence"].read_text().split()
    same, total = same_lines(ours_lines, sb_lines)
    w, c = res["ours_bleu"]
    wc, cc = res["corpus"]
    ws, cs = res["sentence"]
    corpus_same = _norm(ours_corpus) == _norm(sb_corpus)
    report.add(Row("Batch scoring (whole processes)", "BLEU 13a per-line + corpus vs `sacrebleu.corpus_bleu`", f"{n:,}",
                   fmt_s(w, c, n), fmt_s(wc, cc, n), f"{w / wc:.2f}×", "≤ 0.6×", w / wc <= 0.6,
                   f"corpus {'yes' if corpus_same else '**NO**'} ({ours_corpus})"))
    report.add(Row("Batch scoring (whole processes)", "BLEU 13a per-line + corpus vs `sentence_bleu` loop", f"{n:,}",
                   fmt_s(w, c, n), fmt_s(ws, cs, n), f"{ws / w:.2f}× faster", "≥ 2.5× faster", ws / w >= 2.5,
                   f"{same:,}/{total:,} lines" if same == total else f"**{same:,}/{total:,} lines**"))

    res = race(
        {
            "ours_chrf": (bleu_ls(str(hyp), str(ref), "--metric", "chrf", "--format", "tsv"), o["ours_chrf"]),
            "chrf": (baseline("chrf", hyp, ref, o["chrf"]), None),
        },
        repeat,
    )
    ours_lines, _ = tsv_scores(o["ours_chrf"])
    same, total = same_lines(ours_lines, o["chrf"].read_text().split())
    w, c = res["ours_chrf"]
    wb, cb = res["chrf"]
    report.add(Row("Batch scoring (whole processes)", "chrF2 per line vs `CHRF().sentence_score` loop", f"{n:,}",
                   fmt_s(w, c, n), fmt_s(wb, cb, n), f"{wb / w:.2f}× faster", "≥ 2× faster", wb / w >= 2,
                   f"{same:,}/{total:,} lines" if same == total else f"**{same:,}/{total:,} lines**"))

    # NLTK is slow: a sample of the same corpus
    s_hyp, s_ref = corpus.ensure(nltk_n)
    o_ours, o_nltk = work / f"ours_nltk-{nltk_n}.txt", work / f"nltk-{nltk_n}.txt"
    res = race(
        {
            "ours": (bleu_ls(str(s_hyp), str(s_ref), "--preset", "nltk", "--format", "tsv"), o_ours),
            "nltk": (baseline("nltk", s_hyp, s_ref, o_nltk), None),
        },
        repeat,
    )
    ours_lines, _ = tsv_scores(o_ours)
    same, total = same_lines(ours_lines, o_nltk.read_text().split())
    w, c = res["ours"]
    wb, cb = res["nltk"]
    report.add(Row("Batch scoring (whole processes)", "NLTK preset vs `nltk` `sentence_bleu` loop (sample)", f"{nltk_n:,}",
                   fmt_s(w, c, nltk_n), fmt_s(wb, cb, nltk_n), f"{wb / w:.2f}× faster", "identical", same == total,
                   f"{same:,}/{total:,} lines" if same == total else f"**{same:,}/{total:,} lines**"))

    if real:
        real_rows(report, repeat)


def real_files() -> Optional[tuple[Path, Path, int]]:
    if not (REAL_DATA / "ref.txt").is_file():
        return None
    systems = sorted(REAL_DATA.glob("*.hyp"))
    if not systems:
        return None
    hyp_path, ref_path = CACHE / "real-wmt21.hyp", CACHE / "real-wmt21.ref"
    ref = (REAL_DATA / "ref.txt").read_text(encoding="utf-8")
    if not ref.endswith("\n"):
        ref += "\n"
    hyps = []
    for s in systems:
        t = s.read_text(encoding="utf-8")
        hyps.append(t if t.endswith("\n") else t + "\n")
    CACHE.mkdir(parents=True, exist_ok=True)
    hyp_path.write_text("".join(hyps), encoding="utf-8")
    ref_path.write_text(ref * len(systems), encoding="utf-8")
    n = sum(1 for _ in open(hyp_path, encoding="utf-8"))
    return hyp_path, ref_path, n


def real_rows(report: Report, repeat: int) -> None:
    found = real_files()
    if found is None:
        report.notes.append(f"Real-data row skipped: {REAL_DATA} is absent.")
        return
    hyp, ref, n = found
    work = CACHE / "out"
    o_ours, o_corpus, o_sent = work / "real-ours.txt", work / "real-corpus.txt", work / "real-sent.txt"
    res = race(
        {
            "ours": (bleu_ls(str(hyp), str(ref), "--format", "tsv"), o_ours),
            "corpus": (baseline("corpus_bleu", hyp, ref, o_corpus), None),
            "sentence": (baseline("sentence_bleu", hyp, ref, o_sent), None),
        },
        repeat,
    )
    ours_lines, ours_corpus = tsv_scores(o_ours)
    same, total = same_lines(ours_lines, o_sent.read_text().split())
    corpus_same = _norm(ours_corpus) == _norm(o_corpus.read_text().strip())
    w, c = res["ours"]
    wc, cc = res["corpus"]
    ws, cs = res["sentence"]
    report.add(Row("Batch scoring (whole processes)", "WMT21 TED en-de, 13 systems concatenated: vs `corpus_bleu` / `sentence_bleu` loop",
                   f"{n:,}", fmt_s(w, c, n), f"corpus_bleu {wc:.2f} s; loop {ws:.2f} s",
                   f"{w / wc:.2f}× / {ws / w:.2f}× faster", "(information)", None,
                   f"corpus {'yes' if corpus_same else '**NO**'}; {same:,}/{total:,} lines"))


# -- server --------------------------------------------------------------------------


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def workspace(n: int) -> tuple[Path, Path, str]:
    hyp, ref = corpus.ensure(n)
    ws = CACHE / f"ws-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    for src, name in ((hyp, "bench.hyp"), (ref, "bench.ref")):
        dst = ws / name
        if not dst.exists() or dst.stat().st_size != src.stat().st_size:
            shutil.copyfile(src, dst)
    return ws, ws / "bench.hyp", (ws / "bench.hyp").read_text(encoding="utf-8")


def _server_argv() -> list[str]:
    return [PY, "-m", "bleu_ls", "serve", "--stdio"]


def _floor_argv() -> list[str]:
    return [PY, "-m", "benchmarks.floor_server"]


def open_latency(argv: list[str], ws: Path, path: Path, text: str) -> float:
    from .lsp_client import RawClient

    c = RawClient(cwd=ROOT, argv=argv)
    try:
        c.initialize(ws, pull=True, configuration=True)
        uri = path.as_uri()
        t0 = c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
        rid = c.request_async("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": _range(0, 60)})
        msg = c.answer(rid, timeout=120)
        return msg["_t"] - t0
    finally:
        c.close()


def _range(a: int, b: int) -> dict:
    return {"start": {"line": a, "character": 0}, "end": {"line": b, "character": 0}}


def _mutate(line: str, rng: random.Random) -> str:
    words = line.split(" ")
    r = rng.random()
    if r < 0.4 and len(words) > 1:
        words.pop(rng.randrange(len(words)))
    elif r < 0.8:
        words.insert(rng.randrange(len(words) + 1), rng.choice(("the", "a", "und", "ist", "nicht", "bo")))
    else:
        i = rng.randrange(len(words))
        words[i] = words[i][::-1]
    return " ".join(words)


def server_session(report: Report, n: int, edits: int, seed: int = 7) -> dict[str, Any]:
    from .lsp_client import RawClient

    ws, path, text = workspace(n)
    lines = text.split("\n")
    c = RawClient(cwd=ROOT, argv=_server_argv())
    out: dict[str, Any] = {"n": n}
    try:
        c.initialize(ws, pull=True, configuration=True)
        time.sleep(0.3)
        rss0 = c.rss_kib() * 1024
        uri = path.as_uri()
        doc = {"uri": uri}
        t0 = c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
        rid_h = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(0, 60)})
        hints = c.answer(rid_h, timeout=120)
        out["first_hint"] = hints["_t"] - t0
        out["first_hint_count"] = len(hints.get("result") or [])
        rid_d = c.request_async("textDocument/diagnostic", {"textDocument": doc})
        diag = c.answer(rid_d, timeout=600)
        out["diag_ready"] = diag["_t"] - t0
        rid_l = c.request_async("textDocument/codeLens", {"textDocument": doc})
        lens = c.answer(rid_l, timeout=600)
        out["lens_ready"] = lens["_t"] - t0
        out["lens_title"] = ((lens.get("result") or [{}])[0].get("command") or {}).get("title", "")
        time.sleep(0.2)
        out["rss0"] = rss0
        out["rss"] = c.rss_kib() * 1024
        rng = random.Random(seed)
        w0 = max(0, n // 2 - 30)
        version = 1
        hint_lat, diag_lat, hint_counts = [], [], []
        for _ in range(edits):
            i = w0 + rng.randrange(min(60, n - w0 - 1))
            lines[i] = _mutate(lines[i], rng)
            version += 1
            t_edit = c.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version},
                 "contentChanges": [{"range": _range(i, i + 1), "text": lines[i] + "\n"}]},
            )
            rid = c.request_async("textDocument/inlayHint", {"textDocument": doc, "range": _range(w0, w0 + 60)})
            msg = c.answer(rid, timeout=120)
            hint_lat.append(msg["_t"] - t_edit)
            hint_counts.append(len(msg.get("result") or []))
            _, dt = c.timed("textDocument/diagnostic", {"textDocument": doc}, timeout=120)
            diag_lat.append(dt)
        out["hint_lat"] = hint_lat
        out["diag_lat"] = diag_lat
        out["hint_counts_ok"] = all(h > 0 for h in hint_counts)
    finally:
        c.close()
    return out


def server_rows(report: Report, sizes: list[int], edits: int, open_repeat: int) -> None:
    sec = "Server over stdio (`bleu-ls serve`)"
    results = {}
    for n in sizes:
        print(f"server: {n:,} lines, {edits} edits", file=sys.stderr, flush=True)
        results[n] = server_session(report, n, edits)
    for n in sizes:
        r = results[n]
        h = [x * 1000 for x in r["hint_lat"]]
        report.add(Row(sec, "edit → inlay hints for 60 lines, p50 / p95 / p99", f"{n:,}",
                       f"{pct(h, .5):.1f} / {pct(h, .95):.1f} / {pct(h, .99):.1f} ms", "", "",
                       "p95 ≤ 10 ms" if n == max(sizes) else "", (pct(h, .95) <= 10) if n == max(sizes) else None,
                       "" if r["hint_counts_ok"] else "**hints missing**"))
    for n in sizes:
        d = [x * 1000 for x in results[n]["diag_lat"]]
        report.add(Row(sec, "edit → pull diagnostics (whole document), p50 / p95 / p99", f"{n:,}",
                       f"{pct(d, .5):.1f} / {pct(d, .95):.1f} / {pct(d, .99):.1f} ms", "", "", "", None))
    small, big = min(sizes), max(sizes)
    if small != big:
        p_small = pct(results[small]["hint_lat"], .95)
        p_big = pct(results[big]["hint_lat"], .95)
        report.add(Row(sec, f"inlay-hint p95 at {big:,} / at {small:,} lines", "", f"{p_big / p_small:.2f}×", "", "",
                       "≤ 1.5×", p_big / p_small <= 1.5))
    # open latency against the do-nothing pygls floor, in turn
    ws, path, text = workspace(big)
    ours, floor = [], []
    for _ in range(open_repeat):
        floor.append(open_latency(_floor_argv(), ws, path, text))
        ours.append(open_latency(_server_argv(), ws, path, text))
    ours.append(results[big]["first_hint"])
    o, f = statistics.median(ours) * 1000, statistics.median(floor) * 1000
    report.add(Row(sec, "open → first inlay hints (lines 0–60) vs do-nothing pygls server", f"{big:,}",
                   f"{o:.0f} ms", f"floor {f:.0f} ms", f"+{o - f:.0f} ms", "≤ floor + 50 ms", o <= f + 50))
    r = results[big]
    report.add(Row(sec, "open → full diagnostics / corpus code lens ready", f"{big:,}",
                   f"{r['diag_ready']:.2f} s / {r['lens_ready']:.2f} s", "", "", "", None, r["lens_title"][:60]))
    for n in sizes:
        r = results[n]
        per_line = (r["rss"] - r["rss0"]) / n
        report.add(Row(sec, "server RSS with the pair open (idle server before open)", f"{n:,}",
                       f"{r['rss'] / 2**20:.0f} MB ({per_line:.0f} B/line)", f"idle {r['rss0'] / 2**20:.0f} MB", "",
                       "≤ 200 MB" if n == big else "", (r["rss"] <= 200 * 2**20) if n == big else None))


# -- main ----------------------------------------------------------------------------


def machine() -> str:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.0f} GB"
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} × {cpu}, {mem} RAM, Python {platform.python_version()}, load average at start {load}"


def commit() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "bleu_ls"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        return rev + (" (+ uncommitted changes in bleu_ls/)" if dirty else "")
    except OSError:
        return "?"


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes, one repetition (a smoke run)")
    p.add_argument("--batch-lines", type=int, default=None, help="pairs for the batch rows (default 100000)")
    p.add_argument("--nltk-lines", type=int, default=None, help="pairs for the NLTK sample (default 10000)")
    p.add_argument("--server-sizes", default=None, help="comma-separated document sizes (default 1000,10000,100000)")
    p.add_argument("--edits", type=int, default=None, help="edits per server size (default 300)")
    p.add_argument("--repeat", type=int, default=None, help="repetitions of each batch process (default 3)")
    p.add_argument("--ter-lines", type=int, default=None, help="pairs for the TER row (default 100000)")
    p.add_argument("--paired-sizes", default=None, help="sizes for the paired-test rows (default 10000,100000)")
    p.add_argument("--paired-sacrebleu-max", type=int, default=100_000,
                   help="largest size at which sacrebleu's PairedTest is run (it holds every resample: GBs)")
    p.add_argument("--skip-ter", action="store_true", help="skip the TER and paired-test rows")
    p.add_argument("--skip-batch", action="store_true")
    p.add_argument("--skip-peers", action="store_true", help="skip the rows against bleuscore, fastchrf, sacrebleu-mojo")
    p.add_argument("--skip-server", action="store_true")
    p.add_argument("--skip-real", action="store_true", help="skip the WMT21 real-data row")
    p.add_argument("--skip-check", action="store_true", help="skip the `check` with a source rows (benchmarks.check_qe)")
    p.add_argument("--skip-scale", action="store_true", help="skip the issue-12 rows (pull after every edit, process tree, long line)")
    p.add_argument("--scale-sizes", default=None, help="document sizes for the scale rows (default 1000,100000)")
    p.add_argument("--million", nargs="?", type=int, const=1_000_000, default=0, metavar="LINES",
                   help="also open a 1M-line pair (or LINES lines): open, scoring in the background, probes, edits, RSS")
    p.add_argument("--long-line-mb", type=float, default=None, help="size of the single long line (default 10; 0 skips)")
    p.add_argument("--write-results", action="store_true", help="write benchmarks/RESULTS.md")
    p.add_argument("--output", type=Path, default=None, help="also write the table (markdown) here")
    args = p.parse_args(argv)
    q = args.quick
    batch_n = args.batch_lines or (1000 if q else 100_000)
    nltk_n = args.nltk_lines or (300 if q else 10_000)
    sizes = [int(s) for s in args.server_sizes.split(",")] if args.server_sizes else ([200, 1000] if q else [1000, 10_000, 100_000])
    edits = args.edits or (15 if q else 300)
    repeat = args.repeat or (1 if q else 3)

    report = Report()
    started = _dt.datetime.now().astimezone()
    info = machine()
    if not args.skip_batch:
        batch_rows(report, batch_n, repeat, nltk_n, real=not args.skip_real)
    if not args.skip_peers:
        from .peer_table import peer_rows

        peer_rows(report, batch_n, repeat)
    if not args.skip_check:
        from .check_qe import check_rows

        check_rows(report, 3000 if q else 100_000)
    if not args.skip_ter:
        from .ter_paired import paired_rows, ter_rows

        ter_rows(report, args.ter_lines or (300 if q else 100_000), repeat)
        paired_sizes = [int(x) for x in args.paired_sizes.split(",")] if args.paired_sizes else (
            [300] if q else [10_000, 100_000])
        paired_rows(report, paired_sizes, 100 if q else 1000, args.paired_sacrebleu_max)
    if not args.skip_server:
        server_rows(report, sizes, edits, open_repeat=1 if q else 3)
    if not args.skip_scale:
        from .scale import scale_rows

        scale_sizes = [int(x) for x in args.scale_sizes.split(",")] if args.scale_sizes else ([200, 1000] if q else [1000, 100_000])
        long_mb = args.long_line_mb if args.long_line_mb is not None else (0.5 if q else 10)
        scale_rows(report, scale_sizes, edits, 1 if q else 3, args.million, long_mb)
    table = report.table()
    header = (
        f"Machine: {info}\n\nDate: {started:%Y-%m-%d %H:%M %Z}\n\nCommit: {commit()}\n\n"
        f"Command: `{' '.join(['python -m benchmarks'] + (argv if argv is not None else sys.argv[1:]))}`\n"
    )
    text = header + "\n" + table + "\n" + "".join(f"\n{n}\n" for n in report.notes)
    print(text)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    if args.write_results:
        path = Path(__file__).resolve().parent / "RESULTS.md"
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        marker = "<!-- results -->"
        intro = old.split(marker)[0] if marker in old else "# Benchmark results\n\nWritten by `python -m benchmarks --write-results`.\n\n"
        tail = old.split(marker)[2] if old.count(marker) >= 2 else "\n"
        path.write_text(intro + marker + "\n\n" + text + "\n" + marker + tail, encoding="utf-8")
    failed = [r for r in report.rows if r.identical.startswith("**") or "**NO**" in r.identical]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
