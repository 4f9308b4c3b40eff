"""The features never test the kind of document: they ask the manager for a
document's answers (``manager.answers(uri)``, roles.DocumentAnswers).  No
feature module names the segment documents' owner (``segment_docs``) or
imports the segment documents' room; read with :mod:`ast`."""

from __future__ import annotations

import ast
from pathlib import Path

FEATURES = Path(__file__).resolve().parents[3] / "bleu_ls" / "server" / "features"


def kind_tests(source: str) -> list[str]:
    """Where a module's code names ``segment_docs`` or imports from ``segdocs``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "segment_docs" in node.value:
            name = "segment_docs"  # getattr(manager, "segment_docs")
        elif isinstance(node, ast.ImportFrom) and "segdocs" in (node.module or "").split("."):
            found.append(f"line {node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Import):
            found.extend(f"line {node.lineno}: import {a.name}" for a in node.names if "segdocs" in a.name.split("."))
        if name == "segment_docs":
            found.append(f"line {node.lineno}: segment_docs")
    return sorted(found, key=lambda where: int(where.split(":")[0][5:]))


def test_the_finder_finds_a_branch_on_the_kind() -> None:
    source = (
        "from ..segdocs import drafts\n"
        "def f(manager, uri):\n"
        "    if uri in manager.segment_docs.docs:\n"
        "        return getattr(manager, 'segment_docs')\n"
        "    docs = segment_docs\n"
    )
    assert kind_tests(source) == [
        "line 1: from segdocs import …",
        "line 3: segment_docs",
        "line 4: segment_docs",
        "line 5: segment_docs",
    ]
    assert kind_tests("async def f(manager, uri, params):\n    return await manager.answers(uri).hints(params)\n") == []


def test_no_feature_tests_the_kind_of_document() -> None:
    modules = sorted(FEATURES.glob("*.py"))
    assert len(modules) >= 8  # __init__ and the seven features
    found = {p.name: kind_tests(p.read_text(encoding="utf-8")) for p in modules}
    assert not any(found.values()), {name: where for name, where in found.items() if where}
