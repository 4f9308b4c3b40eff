"""Hardening tests: the ``fuzz`` hypothesis profile.

Normal runs use each test's own example count (the differential state
machine runs 1,000 edit scripts).  For a long fuzzing run select the
``fuzz`` profile, either way:

    BLEU_LS_FUZZ=1 .venv/bin/python -m pytest tests/hardening
    .venv/bin/python -m pytest tests/hardening --hypothesis-profile fuzz

It raises the differential state machine to 10,000 edit scripts (and any
property test in this folder to at least that many examples), with no
deadline.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "fuzz",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

if os.environ.get("BLEU_LS_FUZZ") == "1":
    settings.load_profile("fuzz")
