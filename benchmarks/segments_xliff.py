"""A large XLIFF 1.2 file in the server, in process (issue 22): open (both files read,
paired by unit id, the model built) and typing in a target → its hint, with the
diagnostics asked for too.  Synthetic: N units of eight words from a small
vocabulary (reference: the same ids, other words).  No client and no pipe: the
server's own work only.  Run: ``python -m benchmarks.segments_xliff [N] [EDITS]``.
"""
import sys
import random
import time
import statistics
from types import SimpleNamespace
from lsprotocol import types
from bleu_ls.config.settings import Settings
from bleu_ls.server.segdocs.docs import SegmentDocs

from .corpus import CACHE
W = "the cat sat on a mat dog ran fast and slow we will meet at noon".split()
def xlf(n, seed):
    rng = random.Random(seed)
    units = "\n".join(f'      <trans-unit id="u{i}">\n        <source>{" ".join(rng.choice(W) for _ in range(8))}</source>\n        <target>{" ".join(rng.choice(W) for _ in range(8))}</target>\n      </trans-unit>' for i in range(n))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file original="app" source-language="en" target-language="de" datatype="plaintext">\n    <body>\n{units}\n    </body>\n  </file>\n</xliff>\n'
def main(n: int = 100_000, edits: int = 60) -> None:
    ws = CACHE / f"segments-xliff-{n}"
    ws.mkdir(parents=True, exist_ok=True)
    hyp = ws / "big.hyp.xlf"
    if not hyp.exists():
        hyp.write_text(xlf(n, 1))
        (ws / "big.ref.xlf").write_text(xlf(n, 2))
    text = hyp.read_text()
    m = SimpleNamespace(settings=Settings(), encoding="utf-16", pull_diagnostics=True, root_for=lambda p: ws, client=None)
    sd = SegmentDocs(m)
    t = time.perf_counter()
    sd.open(hyp.as_uri(), text, 1)
    t_open = time.perf_counter() - t
    sp = sd.docs[hyp.as_uri()]
    rng = random.Random(3)
    lat = []
    for _ in range(edits):
        i = min(n - 1, n // 2 + rng.randrange(1000))
        a, b = sp.index.target_span(i)
        t = time.perf_counter()
        sd._apply(sp, b, b, " mot")
        sp.serial += 1
        sd.diagnostics(hyp.as_uri())
        line = sp.index.line_of(b)
        sd.hints(types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=hyp.as_uri()), range=types.Range(start=types.Position(line=line - 30, character=0), end=types.Position(line=line + 30, character=0))))
        lat.append(time.perf_counter() - t)
    lat.sort()
    print(f"{n} units, {len(text)/1e6:.1f} MB: open (both files read, paired, model) {t_open:.2f} s; typing in a target -> hint p50 {statistics.median(lat)*1e3:.1f} ms p95 {lat[int(0.95*len(lat))]*1e3:.1f} ms")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
