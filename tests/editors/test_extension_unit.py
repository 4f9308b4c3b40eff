"""The VS Code extension's own logic and its settings contract, without an editor."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys

import pytest

from bleu_ls.config.settings import Settings

from .conftest import EDITORS, missing

EXT = EDITORS / "vscode"
PKG = json.loads((EXT / "package.json").read_text(encoding="utf-8"))
PROPS = PKG["contributes"]["configuration"]["properties"]
CLIENT_ONLY = {"bleuLs.server.path", "bleuLs.server.interpreter", "bleuLs.server.manage", "bleuLs.trace.server"}


def _leaves(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_leaves(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def _editor_defaults() -> dict:
    spec = importlib.util.spec_from_file_location("gen_config", EXT / "scripts" / "gen-config.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.EDITOR_DEFAULTS


def test_configuration_mirrors_every_server_setting() -> None:
    leaves = _leaves(Settings().to_dict())
    server_props = {k for k in PROPS if k not in CLIENT_ONLY}
    assert server_props == {f"bleuLs.{k}" for k in leaves}, "run python editors/vscode/scripts/gen-config.py"
    editor = _editor_defaults()
    assert editor == {"maxProblems": 1000}  # VS Code shows at most 1,000 diagnostics per file
    # the extension sends those even when left at VS Code's default (src/settings.ts)
    ts = (EXT / "src" / "settings.ts").read_text(encoding="utf-8")
    listed = ts.split("export const EDITOR_DEFAULTS = [")[1].split("]")[0]
    assert sorted(x.strip().strip('"') for x in listed.split(",") if x.strip()) == sorted(editor)
    for key, default in leaves.items():
        prop = PROPS[f"bleuLs.{key}"]
        if key in editor:
            # (the server's own default is 1,000 for every client now; the extension still sends it)
            assert prop["default"] == editor[key], key
            default = editor[key]
        assert prop["default"] == default, key
        desc = prop.get("markdownDescription") or prop.get("description") or ""
        assert len(desc) > 10, f"bleuLs.{key} has no description"
        # Every default is valid for its declared type and enum.
        types = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
        py = {"boolean": bool, "integer": int, "number": (int, float), "string": str, "array": list,
              "object": dict, "null": type(None)}
        assert any(isinstance(default, py[t]) for t in types), key
        if "enum" in prop:
            assert default in prop["enum"], key


def test_settings_round_trip_through_the_server_parser() -> None:
    """Values of the contributed types, nested as the extension sends them,
    are read by Settings.from_dict without a problem."""
    sample = {
        "bleu": {"tokenize": "intl", "smooth": "floor", "smoothValue": 0.1, "maxOrder": 3},
        "chrf": {"enabled": True, "wordOrder": 2},
        "diagnostics": {"lowScore": {"bleuThreshold": 20.0, "severity": "error"},
                        "spelling": {"enabled": True, "language": "de-AT", "compounds": False}},
        "hints": {"bleuFormat": "B {bleu:.2f}"},
        "pairs": [{"hypothesis": "out/*.de", "references": ["ref/{1}.de"]}],
    }
    for key in _leaves(sample):
        assert f"bleuLs.{key}" in PROPS, key
    problems: list[str] = []
    s = Settings.from_dict(sample, problems)
    assert problems == [] and s.validate() == []
    assert s.chrf.word_order == 2 and s.diagnostics.low_score.bleu_threshold == 20.0
    sp = s.diagnostics.spelling
    assert (sp.enabled, sp.language, sp.compounds) == (True, "de-AT", False)
    assert s.pairs[0].references == ["ref/{1}.de"]


def test_package_json_is_generated_from_settings() -> None:
    proc = subprocess.run([sys.executable, str(EXT / "scripts" / "gen-config.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_activation_and_languages_follow_the_conventions() -> None:
    events = set(PKG["activationEvents"])
    assert "workspaceContains:bleu-ls.toml" in events
    assert {"onLanguage:mt-hypothesis", "workspaceContains:**/*.hyp", "workspaceContains:**/*.mt"} <= events
    langs = {lang["id"]: lang for lang in PKG["contributes"]["languages"]}
    assert set(langs["mt-hypothesis"]["extensions"]) == {".hyp", ".mt"}
    assert ".ref" in langs["mt-reference"]["extensions"] and "*.ref[0-9]" in langs["mt-reference"]["filenamePatterns"]
    assert langs["mt-source"]["extensions"] == [".src"]
    assert PKG["main"] == "./dist/extension.js"
    assert PKG["dependencies"] == {"vscode-languageclient": PKG["dependencies"]["vscode-languageclient"]}
    assert PKG["dependencies"]["vscode-languageclient"].startswith("9.")


@pytest.mark.editor
def test_extension_unit_tests_pass() -> None:
    """tsc, then node's test runner over the extension's unit tests (stub vscode module)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        missing("Node.js", "install Node 20 and run .ci/setup-editors.sh")
    if not (EXT / "node_modules" / "typescript").is_dir():
        missing("the extension's node_modules", "run .ci/setup-editors.sh (npm ci in editors/vscode)")
    proc = subprocess.run(["npm", "test"], cwd=EXT, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "# fail 0" in out
    passed = int(out.split("# pass ")[1].split()[0])
    assert passed >= 25, out[-2000:]


def test_one_version_for_the_server_the_wheel_and_the_extension() -> None:
    """`bleu-ls --version`, pyproject.toml and the extension's package.json say
    the same version: the extension installs the wheel of its own version and
    replaces a server whose `bleu-ls --version` says another."""
    import re

    import bleu_ls

    pyproject = (EDITORS.parent / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'^version\s*=\s*"([^"]+)"', pyproject, re.M).group(1)
    assert PKG["version"] == version == bleu_ls.__version__
    proc = subprocess.run([sys.executable, "-m", "bleu_ls", "--version"], capture_output=True, text=True,
                          timeout=60, cwd=EDITORS.parent)
    assert proc.returncode == 0 and proc.stdout == f"bleu-ls {version}\n", proc.stdout + proc.stderr
    changelog = (EXT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {version}\n" in changelog


def test_manifest_is_ready_for_publication() -> None:
    """What the Marketplace and Open VSX read, and what the .vsix must carry."""
    assert PKG["publisher"] and PKG["license"] == "MIT" and PKG["repository"]["url"].startswith("https://")
    icon = EXT / PKG["icon"]
    head = icon.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == int.from_bytes(head[20:24], "big") == 128
    assert set(PKG["categories"]) <= {"Linters", "Data Science", "Other", "Programming Languages", "Formatters",
                                      "Education", "Machine Learning", "Visualization"}
    assert len(PKG["keywords"]) <= 30
    ignore = (EXT / ".vscodeignore").read_text(encoding="utf-8").split()
    for kept in ("!dist/extension.js", "!README.md", "!CHANGELOG.md", "!LICENSE.txt", f"!{PKG['icon']}", "!bundled/*.whl"):
        assert kept in ignore, kept
    assert "wheel" in PKG["scripts"]["package"] or "build-wheel" in PKG["scripts"]["package"]
    # the managed server: its setting, off switch and command
    assert PROPS["bleuLs.server.manage"]["default"] is True
    assert any(c["command"] == "bleu-ls.reinstallServer" for c in PKG["contributes"]["commands"])
