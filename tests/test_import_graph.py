"""The package's import graph: no cycles, the engine below the server,
features apart from each other, the CLI's commands apart from each other.

Every import statement counts: those under ``if TYPE_CHECKING:`` and those
inside functions too (a type-only import still means one module cannot be
read without the other).  Built with :mod:`ast`, nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional, Sequence

PACKAGE = "bleu_ls"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE


def module_files(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([package, *parts])] = path
    return found


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package modules one module imports (``from pkg import sub`` counts
    as importing ``pkg.sub`` when ``sub`` is a module)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()

    def add(target: str) -> None:
        # the module itself, else its nearest enclosing package module
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else list(here)
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not (target == PACKAGE or target.startswith(PACKAGE + ".")):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in modules:
                    found.add(sub) if sub != name else None
                else:
                    add(target)
    return found


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    files = module_files(root, package)
    names = set(files)
    return {name: imports_of(name, path, names) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (or a
    module importing itself), each sorted; Tarjan's algorithm, iterative."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def third_party_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


# -- the finder itself, on graphs small enough to check by eye


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_cycle_finder_finds_two_and_a_self_import() -> None:
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": {"e"}, "f": {"a"}}
    assert cycles(graph) == [["a", "b"], ["c", "d"], ["e"]]


def test_cycle_finder_passes_a_tree() -> None:
    graph = {"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}
    assert cycles(graph) == []


def test_graph_reads_every_kind_of_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "low.py").write_text("X = 1\n")
    (pkg / "sub" / "other.py").write_text("Y = 1\n")
    (pkg / "top.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from .sub import other\n"
        "if TYPE_CHECKING:\n"
        "    from .sub.low import X\n"
        "def f():\n"
        "    import pkg.sub\n"
    )
    (pkg / "sub" / "back.py").write_text("from ..top import f\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, "pkg"
    try:
        graph = import_graph(pkg, "pkg")
    finally:
        PACKAGE = saved
    assert graph["pkg.top"] == {"pkg.sub.other", "pkg.sub.low", "pkg.sub"}
    assert graph["pkg.sub.back"] == {"pkg.top"}


# -- the package


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_engine_knows_nothing_of_the_server() -> None:
    graph = import_graph()
    for name, path in module_files().items():
        if not name.startswith(f"{PACKAGE}.engine"):
            continue
        assert not third_party_imports(path) & {"pygls", "lsprotocol"}, name
        assert not {t for t in graph[name] if t.startswith(f"{PACKAGE}.server")}, name


def test_engine_imports_only_the_engine() -> None:
    """The engine is the bottom layer: it imports no other module of the
    package (settings reach it duck-typed, through ``engine.table.build_metrics``)."""
    engine = f"{PACKAGE}.engine"
    upward = [
        f"{name} -> {target}"
        for name, targets in import_graph().items()
        if name == engine or name.startswith(engine + ".")
        for target in targets
        if not (target == engine or target.startswith(engine + "."))
    ]
    assert not upward, "the engine imports from above it:\n" + "\n".join(sorted(upward))


def test_features_do_not_import_each_other() -> None:
    features = f"{PACKAGE}.server.features"
    for name, targets in import_graph().items():
        if name.startswith(features + "."):
            others = {t for t in targets if t.startswith(features + ".")}
            assert not others, f"{name} imports {sorted(others)}"


#: the server's rooms from the bottom up: a module imports only from its own
#: room and the rooms before it (docs/architecture.md draws the same order)
SERVER_ROOMS = ("wire", "documents", "roles", "background", "postedit", "views", "segdocs", "pairs", "features", "server", "main")


def test_server_rooms_import_downwards() -> None:
    server = f"{PACKAGE}.server."

    def room(name: str) -> str:
        return name[len(server):].split(".")[0]

    graph = import_graph()
    rooms = {room(name) for name in graph if name.startswith(server)}
    assert rooms == set(SERVER_ROOMS), f"rooms not in SERVER_ROOMS: {sorted(rooms ^ set(SERVER_ROOMS))}"
    upward = []
    for name, targets in graph.items():
        if not name.startswith(server):
            continue
        for target in targets:
            if target.startswith(server) and SERVER_ROOMS.index(room(target)) > SERVER_ROOMS.index(room(name)):
                upward.append(f"{name} -> {target}")
    assert not upward, "imports climbing to a higher room:\n" + "\n".join(sorted(upward))


# -- the command line: a table of commands, one module each, none importing another

CLI = f"{PACKAGE}.cli"

#: the modules beside the commands that any command may import
CLI_SHARED = ("inputs", "metric_args", "output", "confidence")


def command_of(name: str, commands: Sequence[str]) -> Optional[str]:
    """The command module ``name`` is (or lies inside), None for any other module."""
    return next((c for c in commands if name == c or name.startswith(c + ".")), None)


def command_crossings(graph: dict[str, set[str]], commands: Sequence[str]) -> list[str]:
    """Every import of a command's module by a module outside that command (``a -> b``)."""
    found = []
    for name, targets in graph.items():
        own = command_of(name, commands)
        for target in targets:
            other = command_of(target, commands)
            if other is not None and other != own:
                found.append(f"{name} -> {target}")
    return sorted(found)


def cli_commands() -> list[str]:
    from bleu_ls.cli import COMMANDS  # the table itself (loading it loads no command)

    return [CLI + c.module for c in COMMANDS]


def test_crossing_finder_finds_commands_importing_commands() -> None:
    commands = ["p.cli.a", "p.cli.b", "p.cli.c"]
    graph = {
        "p.cli.a": {"p.cli.b", "p.cli.shared", "p.engine"},
        "p.cli.b": {"p.cli.shared"},
        "p.cli.c": {"p.cli.c.x"},
        "p.cli.c.x": {"p.cli.c.y", "p.cli.a.z"},
        "p.cli.c.y": set(),
        "p.cli.shared": {"p.cli.c"},
        "p.cli.abc": {"p.cli.a"},
    }
    assert command_crossings(graph, commands) == [
        "p.cli.a -> p.cli.b",
        "p.cli.abc -> p.cli.a",
        "p.cli.c.x -> p.cli.a.z",
        "p.cli.shared -> p.cli.c",
    ]


def test_every_cli_module_is_a_command_or_shared() -> None:
    top = {name[len(CLI) + 1 :].split(".")[0] for name in module_files() if name.startswith(CLI + ".")}
    commands = {c[len(CLI) + 1 :] for c in cli_commands()}
    assert top == commands | set(CLI_SHARED), f"neither a command of the table nor shared: {sorted(top - commands - set(CLI_SHARED))}"


def test_commands_do_not_import_each_other() -> None:
    found = command_crossings(import_graph(), cli_commands())
    assert not found, "a command (or a shared module, or the table) imports a command:\n" + "\n".join(found)


def test_nothing_below_the_cli_imports_it() -> None:
    users = sorted(
        f"{name} -> {target}"
        for name, targets in import_graph().items()
        if not (name == CLI or name.startswith(CLI + ".")) and name != f"{PACKAGE}.__main__"
        for target in targets
        if target == CLI or target.startswith(CLI + ".")
    )
    assert not users, "imports of the CLI from below it:\n" + "\n".join(users)


# -- the layers of the package: each imports only from itself and the layers before it

#: the package's layers from the bottom up (docs/architecture.md draws the same order);
#: ``bleu_ls`` itself (the version) sits below them all, ``__main__`` above
LAYERS = ("engine", "formats", "config", "qa", "postedit", "report", "server", "cli")


def layer_of(name: str) -> str:
    """The layer a module belongs to: the first name under the package, or
    the package itself for ``bleu_ls`` (its ``__init__``)."""
    rest = name[len(PACKAGE) + 1 :]
    return rest.split(".")[0] if rest else ""


def climbs(graph: dict[str, set[str]], layers: Sequence[str]) -> list[str]:
    """Every import of a module in a higher layer (``a -> b``); the package's
    ``__init__`` counts as the lowest, ``__main__`` as the highest."""
    order = {"": -1, **{layer: i for i, layer in enumerate(layers)}, "__main__": len(layers)}
    return sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        if order[layer_of(target)] > order[layer_of(name)]
    )


def test_climb_finder_finds_an_import_of_a_higher_layer() -> None:
    global PACKAGE
    saved, PACKAGE = PACKAGE, "p"
    try:
        graph = {"p": set(), "p.low.a": {"p.low.b", "p"}, "p.low.b": set(), "p.high.c": {"p.low.a"}, "p.mid": {"p.high.c"}}
        assert climbs(graph, ("low", "mid", "high")) == ["p.mid -> p.high.c"]
    finally:
        PACKAGE = saved


def test_only_layers_at_the_top_of_the_package() -> None:
    """No loose modules: every module lies in a layer, but ``__init__`` and ``__main__``."""
    tops = {layer_of(name) for name in module_files()}
    assert tops == {"", "__main__", *LAYERS}, f"not a layer of LAYERS: {sorted(tops - {'', '__main__', *LAYERS})}"
    for layer in LAYERS:
        assert (ROOT / layer / "__init__.py").is_file(), f"{layer} is a loose module, not a package"


def test_layers_import_downwards() -> None:
    found = climbs(import_graph(), LAYERS)
    assert not found, "imports climbing to a higher layer:\n" + "\n".join(found)
