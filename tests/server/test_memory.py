"""The server's C-heap settings (server/memory.py)."""

from __future__ import annotations

import ctypes.util
import platform
import sys

import pytest

from bleu_ls.server import memory

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc" and ctypes.util.find_library("c") is not None


@pytest.mark.skipif(not GLIBC, reason="glibc only")
def test_glibc_takes_the_heap_settings():
    assert memory.one_heap() is True
    assert memory.release() is True


def test_without_glibc_both_do_nothing(monkeypatch):
    monkeypatch.setattr(memory, "_libc", False)
    assert memory.one_heap() is False
    assert memory.release() is False
