"""``python -m benchmarks.scale tree N``: the process-tree memory on the real
pair with its source (issue 25) runs end to end on a small pair and says
which process holds what (skipped without the WMT21 data)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.realpair import data_dir

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.skipif(data_dir() is None, reason="the WMT21 data (../shared/data) are not on this machine")
def test_tree_entry_point_on_a_small_real_pair():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "benchmarks.scale", "tree", "600", "1"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert "600 real lines with a source, scored and typed in: process-tree RSS" in out
    assert "bleu_ls " in out and "idle after typing" in out
    first = out.splitlines()[0]
    assert first.startswith("run 1: settled after") and "process(es) [bleu_ls" in first
