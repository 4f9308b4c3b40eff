"""The server's C-heap settings (server/background/memory.py)."""

from __future__ import annotations

import ctypes.util
import platform
import sys

import pytest

from bleu_ls.server.background import memory

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc" and ctypes.util.find_library("c") is not None


@pytest.mark.skipif(not GLIBC, reason="glibc only")
def test_glibc_takes_the_heap_settings():
    assert memory.one_heap() is True
    assert memory.release() is True


def test_without_glibc_both_do_nothing(monkeypatch):
    monkeypatch.setattr(memory, "_libc", False)
    assert memory.one_heap() is False
    assert memory.release() is False


def test_release_drops_the_word_caches_and_tokens_stay_sacrebleus():
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from bleu_ls.engine.tokenizers import fast_tokenizer, forget_words

    fast, oracle = fast_tokenizer("13a"), Tokenizer13a()
    lines = ["Das ist's, z.B. 3.000,5 Euro - oder (nicht)?", "&quot;Hallo&quot; sagte er... \"ja\".", "U.S.-Wahl: 1,5% mehr!"]
    before = [fast(line) for line in lines]
    assert forget_words() >= 5  # the punctuated words were cached
    before_again = [fast(line) for line in lines]
    memory.release()
    assert forget_words() == 0  # release() emptied them
    after = [fast(line) for line in lines]
    assert before == before_again == after == [oracle(line).split() for line in lines]


def test_release_drops_sacrebleus_line_caches_and_tokens_stay_sacrebleus():
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

    from bleu_ls.engine.tokenizers import forget_words, get_tokenizer

    tok, oracle = get_tokenizer("intl"), TokenizerV14International()
    lines = ["Das ist's, z.B. 3.000,5 Euro!", "„Hallo“ — sagte er…"]
    before = [tok(line) for line in lines]
    assert forget_words() >= len(lines)  # the whole lines were cached by sacrebleu
    memory.release()
    assert forget_words() == 0
    assert before == [tok(line) for line in lines] == [oracle(line) for line in lines]
