"""The format tables are the only places that test a file's format.

Outside ``formats/table.py`` and ``qa/formats/table.py``, no code of the
package compares a format with a format constant (``fmt == PO``,
``doc.format in (SRT, VTT)``, ``index.format != "tmx"``) nor keeps a
per-format dict of its own (``{SRT: …, VTT: …}``): it asks the format's row
(``formats.table.row(fmt)``, ``qa.formats.table.checks_of(fmt)``).  Read with
:mod:`ast`, nothing of the package is imported but the model's names.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bleu_ls.formats import model

PACKAGE = Path(__file__).resolve().parent.parent / "bleu_ls"
#: the format names, as constants of the model and as strings (not "lines", "tmx" nor "json": words
#: the package uses for other things, a JSON field, an XML element and an output format)
CONSTANTS = frozenset({"LINES", "PO", "XLIFF1", "XLIFF2", "TMX", "SRT", "VTT"})
STRINGS = frozenset(model.FORMATS) - {"lines", "tmx", "json"}
COMPARE = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)

#: the tables
TABLES = {"formats/table.py", "qa/formats/table.py"}
#: modules that must still tell formats apart, and why: each is the one module of a family
#: whose formats differ inside it (versions or dialects of one reader, or of one check module).
#: A new format adds nothing here.
ALLOWED = {
    # the one XLIFF reader reads 1.2 and 2.x and reports which it read: the elements differ by version
    "formats/xliff_reader.py": "XLIFF 1.2 and 2.x in one reader",
    # the one subtitle reader: SubRip and WebVTT timings and inline markup differ
    "formats/subtitles.py": "SRT and WebVTT markup in one reader",
    # the XML live index re-reads XLIFF units and TMX tus: TMX keys a tu without id by its place,
    # its root is <tmx>, an edit at a tu's "<" belongs to the tu
    "formats/live/whole.py": "TMX and XLIFF units in one XML live index",
    "formats/live/xml_reread.py": "TMX and XLIFF units in one XML region reader",
    # the states each XLIFF version defines (state-undefined)
    "qa/formats/xml_checks.py": "XLIFF 1.2 and 2.x states in one check module",
    # a cue's lines as shown: SRT and WebVTT markup (the reader's line_text)
    "qa/formats/subtitle_checks.py": "SRT and WebVTT markup in one check module",
}


def _names_format(node: ast.AST) -> bool:
    """A format constant (``PO``, ``model.PO``), a format's name as a string, or a literal collection holding one."""
    if isinstance(node, ast.Name):
        return node.id in CONSTANTS
    if isinstance(node, ast.Attribute):
        return node.attr in CONSTANTS
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in STRINGS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_format(e) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set", "tuple"):
        return any(_names_format(a) for a in node.args)
    return False


def format_tests(source: str) -> list[tuple[int, str]]:
    """(line, code) of every place ``source`` tests a format by name: a comparison with a format
    constant or name on either side, or a dict literal keyed by one (a table of its own)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        hit = False
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            hit = any(isinstance(op, COMPARE) for op in node.ops) and any(_names_format(s) for s in sides)
        elif isinstance(node, ast.Dict):
            hit = any(k is not None and _names_format(k) for k in node.keys)
        if hit:
            found.append((node.lineno, ast.unparse(node).splitlines()[0]))
    return sorted(found)


def package_format_tests(root: Path = PACKAGE) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in TABLES or rel in ALLOWED:
            continue
        out += [f"{rel}:{line}: {code}" for line, code in format_tests(path.read_text(encoding="utf-8"))]
    return out


def test_finder_catches_every_form() -> None:
    caught = '''
if fmt == PO: pass
if doc.format in (SRT, VTT): pass
if index.format != model.TMX: pass
if fmt not in (XLIFF1, XLIFF2, TMX): pass
vtt = doc_format == VTT
if fmt == "po": pass
if fmt in frozenset({SRT, VTT}): pass
READERS = {SRT: read_srt, VTT: read_vtt}
'''
    assert [line for line, _ in format_tests(caught)] == [2, 3, 4, 5, 6, 7, 8, 9]


def test_finder_passes_what_tests_no_format() -> None:
    passed = '''
if row(fmt).timed: pass
if args.format == "json": pass
if ext == ".po": pass
if sp.index.format in TIMED: pass
doc = SegmentDocument(PO, segs)
if r.fmt != doc.format: pass
names = {"po-syntax": 1, "lines": 3}
if local == "tmx": pass
'''
    assert format_tests(passed) == []


def test_the_allowed_modules_exist_and_test_formats() -> None:
    """An allowed module that no longer tests a format leaves the list."""
    for rel in ALLOWED:
        path = PACKAGE / rel
        assert path.is_file(), rel
        assert format_tests(path.read_text(encoding="utf-8")), f"{rel} tests no format: take it off ALLOWED"


def test_no_format_is_tested_outside_the_tables() -> None:
    found = package_format_tests()
    assert not found, "formats tested outside the format tables (ask the row: formats.table.row(fmt)):\n" + "\n".join(found)
