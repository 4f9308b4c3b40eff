"""Memory of a 100k-unit XLIFF open in process (issue 22, item 8: RSS ≤ 400 MB).

The Angular-like file of ``scripts/xml_parse_throughput.py`` (inline codes, an
entity, a note per unit; 100k units: ~33 MB) and its reference (the same unit ids,
other words) beside it as ``big.hyp.xlf`` / ``big.ref.xlf``.  Each step runs in a
fresh process, so that one step's freed memory does not lower the next one's figure:

* ``read``: the RSS added by ``read_xliff_text`` of the document alone (its
  ``SegmentDocument`` kept), and the bytes per segment tracemalloc counts;
* ``open``: the RSS added by ``SegmentDocs.open`` of the document (its reference
  read from disk and kept slim, the pairing, the checks), and the process RSS.

    PYTHONPATH=. python scripts/segment_memory.py [--units 100000] [--plain] [--trace] [--step read|open]

``--plain``: units without inline codes (the file of ``benchmarks/segments_xliff``).
``--trace``: the top tracemalloc holders of the read (slower; the RSS figures are
then not the ones to quote).
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def files(units: int, plain: bool) -> Path:
    ws = Path(tempfile.gettempdir()) / f"bleu-ls-segmem-{'plain' if plain else 'angular'}-{units}"
    ws.mkdir(exist_ok=True)
    hyp, ref = ws / "big.hyp.xlf", ws / "big.ref.xlf"
    if not hyp.exists() or not ref.exists():
        if plain:
            from benchmarks.segments_xliff import xlf

            make = xlf
        else:
            from xml_parse_throughput import synthetic_xliff

            make = lambda n, seed: synthetic_xliff(n, seed)  # noqa: E731
        ref.write_text(make(units, 2), encoding="utf-8")
        hyp.write_text(make(units, 1), encoding="utf-8")
    return ws


def step(name: str, ws: Path, trace: bool) -> dict:
    from types import SimpleNamespace

    from bleu_ls.server.segdocs.docs import SegmentDocs
    from bleu_ls.formats.xliff import read_xliff_text
    from bleu_ls.config.settings import Settings

    from bleu_ls.server.background import memory

    memory.one_heap()  # as the server does at start
    hyp = ws / "big.hyp.xlf"
    text = hyp.read_text(encoding="utf-8")
    gc.collect()
    if trace:
        tracemalloc.start()
    r0 = rss()
    t0 = time.perf_counter()
    out: dict = {"chars": len(text)}
    if name == "read":
        doc = read_xliff_text(text)
        out["segments"] = len(doc.segments)
    else:
        manager = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: ws,
                                  client=None, publisher=SimpleNamespace(schedule_refresh=lambda: None))
        docs = SegmentDocs(manager)  # type: ignore[arg-type]
        docs.open(hyp.as_uri(), text, 1)
        sp = docs.docs[hyp.as_uri()]
        out["segments"] = len(sp.index)
        out["ref_segments"] = len(sp.ref.segments) if sp.ref is not None else None
    out["seconds"] = round(time.perf_counter() - t0, 2)
    gc.collect()
    memory.release()  # as the server does after a large step
    out["rss_added_mb"] = round((rss() - r0) / 1e6, 1)
    out["rss_mb"] = round(rss() / 1e6, 1)
    if trace:
        snap = tracemalloc.take_snapshot()
        tracemalloc.stop()
        stats = snap.statistics("lineno")
        total = sum(s.size for s in stats)
        n = out["segments"] or 1
        out["traced_bytes_per_segment"] = round(total / n)
        out["top"] = [f"{s.size / 1e6:7.1f} MB {s.size / n:6.0f} B/seg  {s.traceback[0].filename.rsplit('/', 2)[-1]}:{s.traceback[0].lineno}"
                      for s in stats[:20]]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", type=int, default=100_000)
    ap.add_argument("--plain", action="store_true")
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--step", choices=("read", "open"))
    ap.add_argument("--ws")
    a = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if a.step:
        print(json.dumps(step(a.step, Path(a.ws), a.trace)))
        return
    ws = files(a.units, a.plain)
    kind = "plain" if a.plain else "Angular-like"
    print(f"{a.units} {kind} units: {(ws / 'big.hyp.xlf').stat().st_size / 1e6:.1f} MB (+ its reference)")
    for name in ("read", "open"):
        argv = [sys.executable, __file__, "--step", name, "--ws", str(ws)] + (["--trace"] if a.trace else [])
        res = json.loads(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)
        top = res.pop("top", None)
        print(f"{name:5s} {json.dumps(res)}")
        for t in top or ():
            print("      ", t)


if __name__ == "__main__":
    main()
