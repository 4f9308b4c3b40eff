"""Hardening tests: the ``fuzz`` hypothesis profile.

Normal runs use each test's own example count (the differential state
machine runs 1,000 edit scripts).  For a long fuzzing run select the
``fuzz`` profile, either way:

    BLEU_LS_FUZZ=1 .venv/bin/python -m pytest tests/hardening
    .venv/bin/python -m pytest tests/hardening --hypothesis-profile fuzz

It raises the differential state machine to 10,000 edit scripts (and any
property test in this folder to at least that many examples), with no
deadline.

Long runs (``@pytest.mark.slow``: the 60 s load on 100k lines, a 10 MB line,
1M lines) are skipped unless selected with ``-m slow`` (or any ``-m``
expression) or BLEU_LS_SLOW=1; their shortened forms always run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "fuzz",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

if os.environ.get("BLEU_LS_FUZZ") == "1":
    settings.load_profile("fuzz")


_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    if config.getoption("-m") or os.environ.get("BLEU_LS_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="long run: select with -m slow or BLEU_LS_SLOW=1 (a shortened form runs always)")
    for item in items:
        if "slow" in item.keywords and _HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)
