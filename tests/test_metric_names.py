"""The table of metrics is the only place that knows them by key.

Outside a metric's own module (and the table), no code of the package
tests a metric's key or picks a metric by it: it iterates the table or the
metrics of a model, and asks the metric object (``Metric.short``,
``higher_is_better``, ``ngram_precisions``…).  Read with :mod:`ast`,
nothing is imported but the table.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bleu_ls.engine import KEYS, TABLE

PACKAGE = Path(__file__).resolve().parent.parent / "bleu_ls"
#: a metric's own module, and the table listing them, may name the keys
OWN = {"engine/bleu.py", "engine/chrf.py", "engine/nltk_bleu.py", "engine/ter.py", "engine/table.py"}
#: what a pair model, a line context or an analyzer answers for one metric key
BY_KEY = {"line_score", "line_value", "values", "stats_array", "corpus", "get"}
COMPARE = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def _key(node: ast.AST, keys: frozenset[str]) -> bool:
    """A string literal equal to a metric key, or a literal collection holding one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in keys
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_key(e, keys) for e in node.elts)
    return False


def _names_metrics(node: ast.AST) -> bool:
    """``metrics`` or ``<anything>.metrics``: a dict of metrics by key."""
    return (isinstance(node, ast.Name) and node.id == "metrics") or (
        isinstance(node, ast.Attribute) and node.attr == "metrics"
    )


#: the metrics' keys and short labels (a display name starts with its label: "chrF2++")
NAMES = frozenset(KEYS) | frozenset(row.short for row in TABLE)


def name_tests(source: str, keys: frozenset[str] = NAMES) -> list[tuple[int, str]]:
    """(line, code) of every place ``source`` tests or looks up a metric by a literal key
    (or label):

    * a comparison (``==``, ``!=``, ``in``, ``not in``) with a key literal on
      either side (``key == "bleu"``, ``"bleu" in keys``, ``k in ("bleu", "chrf")``,
      ``score.metric == "TER"``), or a ``startswith`` one (``name.startswith("chrF")``);
    * a metrics dict subscripted or ``.get``-ed with one (``model.metrics["bleu"]``);
    * a per-metric accessor called with one (``model.line_score("bleu", i)``,
      ``ctx.model.values("chrf")``, ``model.stats_array("bleu")``).
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        hit = False
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            hit = any(isinstance(op, COMPARE) for op in node.ops) and any(_key(s, keys) for s in sides)
        elif isinstance(node, ast.Subscript):
            hit = _names_metrics(node.value) and _key(node.slice, keys)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            receiver = node.func.value
            if node.func.attr == "get":
                hit = _names_metrics(receiver) and _key(node.args[0], keys)
            elif node.func.attr == "startswith":
                hit = _key(node.args[0], keys)
            else:
                hit = node.func.attr in BY_KEY and _key(node.args[0], keys)
        if hit:
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def package_name_tests(root: Path = PACKAGE) -> list[str]:
    """Every metric-name test of the package outside the metrics' own modules."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in OWN:
            continue
        out += [f"{rel}:{line}: {code}" for line, code in name_tests(path.read_text(encoding="utf-8"))]
    return out


# -- the finder, on code written to be caught (and code that must not be)


def test_finder_catches_every_form() -> None:
    caught = '''
if key == "bleu": pass
if "chrf" != key: pass
if "bleu" in keys: pass
if k not in ("x", "ter"): pass
label = key.upper() if key != 'chrf' else 'chrF'
m = model.metrics["bleu"]
m = metrics.get("chrf") or metrics.get("bleu")
s = model.line_score("bleu", i)
v = ctx.model.values("chrf")
a = self.model.stats_array("bleu")
c = pair.model.corpus("ter")
if score.metric.startswith("chrF") or score.metric == "TER": pass
'''
    assert [line for line, _ in name_tests(caught)] == [2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 13, 13]


def test_finder_passes_what_names_no_metric() -> None:
    passed = '''
for key, metric in model.metrics.items():
    if metric.ngram_precisions:
        s = model.line_score(key, i)
label = metric.short
answer = json.loads(line)["chrf"]
thresholds = {"bleu": 1.0}
if key == "bleu_threshold": pass
default = "bleu"
if preset == "sacrebleu": pass
if name.startswith("nltk"): pass
'''
    assert name_tests(passed) == []


# -- the package


def test_table_keys_are_the_classes_keys() -> None:
    assert KEYS == tuple(row.key for row in TABLE)
    assert len(set(KEYS)) == len(KEYS)
    for row in TABLE:
        for cls in row.classes:
            assert (cls.key, cls.section, cls.short) == (row.key, row.section, row.short), cls
            assert "from_section" in vars(cls), f"{cls.__name__} is not made from its section"


def test_no_metric_is_tested_by_its_key_outside_its_module() -> None:
    found = package_name_tests()
    assert not found, "metric keys tested outside the metrics' modules (ask the metric, or iterate the table):\n" + "\n".join(found)
