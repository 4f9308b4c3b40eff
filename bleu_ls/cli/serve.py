"""``bleu-ls serve [--stdio|--tcp]``: run the language server (:mod:`bleu_ls.server.main`)."""

from __future__ import annotations

from typing import Optional, Sequence

from ..server.main import main as serve


def main(argv: Optional[Sequence[str]] = None) -> int:
    return serve(argv)
