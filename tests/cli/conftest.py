"""The CLI tests share the report tests' ``report`` fixture (``bleu-ls report`` run in-process)."""

from __future__ import annotations

from tests.report.conftest import report  # noqa: F401  (a fixture, found here by pytest)
