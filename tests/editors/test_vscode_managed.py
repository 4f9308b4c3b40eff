"""The VS Code extension brings its own server: code-server with the built
.vsix, a fresh HOME, and a PATH on which no `bleu-ls` exists.

First start: the extension finds a Python >= 3.10, makes a virtual
environment in its global storage, installs the wheel the .vsix carries
(dependencies from the package index, as pip is configured), with a progress
notification naming each step; then the hints show sacrebleu's scores.
Second start: the environment is reused at once.  And with no Python on PATH
at all: one message that says so, and no hints.

The machine's pip configuration (index, find-links) and pip's download cache
are passed in through PIP_CONFIG_FILE / PIP_CACHE_DIR, since HOME is a fresh
folder here; the extension itself runs pip with whatever configuration the
user has.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import ARTIFACTS, HERE, missing, oracle_label, read_lines
from .test_vscode import CHROMIUM, CODE_SERVER, _free_port, split_hint, vsix  # noqa: F401  (vsix: fixture)

pytestmark = pytest.mark.editor

SYSTEM_PYTHON = "/usr/bin/python3"
STORAGE = Path("User") / "globalStorage" / "bleu-ls.bleu-ls"


def _python_ok(python: str) -> bool:
    """A Python >= 3.10 that can make a virtual environment (Debian: python3-venv)."""
    if not Path(python).is_file():
        return False
    probe = subprocess.run(
        [python, "-c", "import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 10))"],
        capture_output=True, timeout=60,
    )
    return probe.returncode == 0


def _bin_dir(base: Path, with_python: bool) -> str:
    """PATH for code-server and its extension host: node and a shell's tools;
    python3 only when asked; never bleu-ls."""
    bindir = base / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    for tool in ("node", "sh", "bash", "env", "uname", "ps", "cat", "ls", "rm", "mkdir", "grep", "sed", "id"):
        exe = shutil.which(tool, path="/usr/bin:/bin")
        if exe and not (bindir / tool).exists():
            (bindir / tool).symlink_to(exe)
    if with_python and not (bindir / "python3").exists():
        (bindir / "python3").symlink_to(SYSTEM_PYTHON)
    # VS Code's server reads the environment of a login shell ($SHELL -ilc):
    # a shell that runs the command with this PATH, as a user's would.
    shell = bindir / "login-shell"
    shell.write_text(f'#!/bin/sh\nfor last; do :; done\nPATH="{bindir}" exec /bin/sh -c "$last"\n', encoding="utf-8")
    shell.chmod(0o755)
    return str(bindir)


def _env(base: Path, with_python: bool) -> dict[str, str]:
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    bindir = _bin_dir(base, with_python)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYENV", "CONDA", "PYTHON"))}
    env.update({"HOME": str(home), "PATH": bindir, "SHELL": str(Path(bindir) / "login-shell"),
                "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local" / "share"),
                "XDG_CACHE_HOME": str(home / ".cache")})
    real_home = Path(os.path.expanduser("~"))
    conf = real_home / ".config" / "pip" / "pip.conf"
    if conf.is_file() and "PIP_CONFIG_FILE" not in env:
        env["PIP_CONFIG_FILE"] = str(conf)  # the index this machine is configured with
    cache = real_home / ".cache" / "pip"
    if cache.is_dir() and "PIP_CACHE_DIR" not in env:
        env["PIP_CACHE_DIR"] = str(cache)
    return env


@contextlib.contextmanager
def _code_server(vsix_path: Path, base: Path, env: dict[str, str], install: bool):
    user, exts = base / "user", base / "extensions"
    (user / "User").mkdir(parents=True, exist_ok=True)
    settings = {
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "telemetry.telemetryLevel": "off",
        "editor.minimap.enabled": False,
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
    }
    (user / "User" / "settings.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    if install:
        proc = subprocess.run(
            [str(CODE_SERVER), "--install-extension", str(vsix_path), "--extensions-dir", str(exts),
             "--user-data-dir", str(user)],
            env=env, capture_output=True, text=True, timeout=180,
        )
        assert proc.returncode == 0 and "successfully installed" in proc.stdout, proc.stdout + proc.stderr
    port = _free_port()
    log = open(base / "code-server.log", "a")
    server = subprocess.Popen(
        [str(CODE_SERVER), "--bind-addr", f"127.0.0.1:{port}", "--auth", "none", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", "--user-data-dir", str(user),
         "--extensions-dir", str(exts)],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=base,
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert server.poll() is None, (base / "code-server.log").read_text()
            assert time.monotonic() < deadline, "code-server did not come up in 90 s"
            time.sleep(0.25)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


def _drive(port: int, workspace: Path, name: str, extra: dict[str, str], timeout_s: int) -> dict:
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / f"{name}.json"
    out.unlink(missing_ok=True)
    env = dict(os.environ)
    env.update({
        "BLEU_URL": f"http://127.0.0.1:{port}/?folder={workspace}",
        "BLEU_FILE": "news.hyp",
        "BLEU_OUT": str(out),
        "BLEU_CHROMIUM": CHROMIUM,
        "BLEU_TIMEOUT_MS": str(timeout_s * 1000),
        "BLEU_SHOT_OPEN": str(ARTIFACTS / f"{name}.png"),
        "BLEU_SHOT_ERROR": str(ARTIFACTS / f"{name}-error.png"),
        **extra,
    })
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=timeout_s + 120)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    return r


def _check_hints(r: dict, workspace: Path) -> int:
    hyps, refs = read_lines(workspace / "news.hyp"), read_lines(workspace / "news.ref")
    n = min(len(hyps), len(refs))
    lines = {int(k): v for k, v in r["lines"].items()}
    for i in range(n):
        text, label = split_hint(lines[i])
        assert text == hyps[i].rstrip(), f"line {i + 1}: {lines[i]!r}"
        assert label == oracle_label(hyps[i], [refs[i]]), f"line {i + 1}: {lines[i]!r}"
    return n


def _preconditions() -> None:
    if not CODE_SERVER.exists():
        missing("code-server", "run .ci/setup-editors.sh (npm ci in tests/editors)")
    if not Path(CHROMIUM).is_file():
        missing("Chromium", "apt-get install chromium (or set BLEU_LS_CHROMIUM)")
    if not _python_ok(SYSTEM_PYTHON):
        missing(f"{SYSTEM_PYTHON} (3.10+ with venv)", "apt-get install python3 python3-venv")


def test_vscode_sets_up_its_own_server_then_reuses_it(vsix: Path, workspace: Path, tmp_path: Path) -> None:  # noqa: F811
    _preconditions()
    base = tmp_path / "managed"
    env = _env(base, with_python=True)
    assert shutil.which("bleu-ls", path=env["PATH"]) is None
    n = len(read_lines(workspace / "news.hyp"))
    storage = base / "user" / STORAGE

    # First start: set-up, with its progress notification, then the hints.
    t0 = time.monotonic()
    with _code_server(vsix, base, env, install=True) as port:
        up = time.monotonic() - t0
        r = _drive(port, workspace, "vscode-managed-first", {
            "BLEU_MODE": "managed", "BLEU_EXPECT_HINTS": str(n),
            "BLEU_SHOT_PROGRESS": str(ARTIFACTS / "vscode-managed-progress.png"),
        }, timeout_s=900)
    assert r["hintsReady"], (r.get("failure"), r["progress"], r["events"])
    steps = " | ".join(p["text"] for p in r["progress"])
    assert steps.startswith("bleu-ls setup: "), r["progress"]
    assert any(s in steps for s in ("creating a Python", "installing bleu-ls")), r["progress"]
    _check_hints(r, workspace)
    marker = json.loads((storage / "server" / "bleu-ls-managed.json").read_text(encoding="utf-8"))
    assert marker["version"] == json.loads((vsix.parent / "package.json").read_text())["version"]
    assert sorted(p.name for p in storage.iterdir()) == ["server"]  # nothing half-made left
    first_ms = r["hintsMs"]

    # Second start (a new code-server, same storage): no set-up, the same
    # environment; and a `bleu-ls` of another version now on PATH is passed
    # over for it (the version handshake: were it started, it would serve nothing).
    stale = Path(env["PATH"]) / "bleu-ls"
    asked = base / "stale-bleu-ls-was-run"
    stale.write_text(f'#!/bin/sh\necho "$*" >> "{asked}"\necho "bleu-ls 0.0.9"\n', encoding="utf-8")
    stale.chmod(0o755)
    t1 = time.monotonic()
    with _code_server(vsix, base, env, install=False) as port:
        up2 = time.monotonic() - t1
        r2 = _drive(port, workspace, "vscode-managed-second", {"BLEU_MODE": "managed", "BLEU_EXPECT_HINTS": str(n)},
                    timeout_s=300)
    assert r2["hintsReady"], (r2.get("failure"), r2["progress"], r2["events"])
    assert r2["progress"] == [], r2["progress"]
    assert asked.read_text(encoding="utf-8").split("\n")[0] == "--version"  # asked, and never told to serve
    assert "serve" not in asked.read_text(encoding="utf-8")
    _check_hints(r2, workspace)
    again = json.loads((storage / "server" / "bleu-ls-managed.json").read_text(encoding="utf-8"))
    assert again["created"] == marker["created"]
    print(
        f"\nmanaged server, first start: click -> hints {first_ms / 1000:.1f} s "
        f"(progress shown {r['progress'][0]['ms'] / 1000:.1f} s after the click; steps: {steps}); "
        f"code-server up {up:.1f} s (install included)\n"
        f"second start (a bleu-ls 0.0.9 on PATH passed over): click -> hints {r2['hintsMs'] / 1000:.1f} s; "
        f"code-server up {up2:.1f} s"
    )


def test_vscode_without_any_python_says_so_once(vsix: Path, workspace: Path, tmp_path: Path) -> None:  # noqa: F811
    _preconditions()
    base = tmp_path / "nopython"
    env = _env(base, with_python=False)
    for name in ("python3", "python", "bleu-ls"):
        assert shutil.which(name, path=env["PATH"]) is None, name
    with _code_server(vsix, base, env, install=True) as port:
        r = _drive(port, workspace, "vscode-managed-no-python", {
            "BLEU_MODE": "notification", "BLEU_NOTIFICATION_TEXT": "needs Python",
        }, timeout_s=90)
    text = r["notification"]
    assert "needs Python 3.10 or newer" in text and "found none" in text, text
    assert "Reinstall the Managed Server" in text, text
    assert r["notificationButtons"] == ["Get Python", "Show Log"], r["notificationButtons"]
    # one message, not one per retry
    assert len(r["toasts"]) == 1 and "needs Python" in r["toasts"][0], r["toasts"]
    assert not any(split_hint(v)[1] for v in r["lines"].values())
    storage = base / "user" / STORAGE
    assert not (storage / "server").exists()
    assert (ARTIFACTS / "vscode-managed-no-python.png").stat().st_size > 10_000


def test_vscode_without_the_package_index_says_so_once(vsix: Path, workspace: Path, tmp_path: Path) -> None:  # noqa: F811
    """Python is there but pip cannot reach the index (here: an index URL on a
    closed local port, no other configuration): one message naming the cause
    and the fix, pip's log behind *Show Log*, nothing half-made kept."""
    _preconditions()
    base = tmp_path / "noindex"
    env = _env(base, with_python=True)
    for k in [k for k in env if k.startswith("PIP_")]:
        del env[k]
    env.update({"PIP_CONFIG_FILE": os.devnull, "PIP_INDEX_URL": f"http://127.0.0.1:{_free_port()}/simple",
                "PIP_RETRIES": "1", "PIP_DEFAULT_TIMEOUT": "5"})
    with _code_server(vsix, base, env, install=True) as port:
        r = _drive(port, workspace, "vscode-managed-no-index", {
            "BLEU_MODE": "notification", "BLEU_NOTIFICATION_TEXT": "could not",
            "BLEU_CLICK_BUTTON": "Show Log", "BLEU_SHOT_CLICK": str(ARTIFACTS / "vscode-managed-no-index-log.png"),
        }, timeout_s=300)
    text = r["notification"]
    assert "could not reach the package index" in text and "Connection refused" in text, text
    assert "Reinstall the Managed Server" in text and "proxy" in text, text
    assert r["notificationButtons"] == ["Retry", "Show Log"], r["notificationButtons"]
    assert [t for t in r["toasts"] if "could not" in t] == [text], r["toasts"]
    assert not any(split_hint(v)[1] for v in r["lines"].values())
    # Show Log: the bleu-ls output channel, holding pip's own log
    assert "Connection refused" in (r.get("panelText") or ""), r.get("panelText")
    storage = base / "user" / STORAGE
    assert sorted(p.name for p in storage.iterdir()) == [], "a half-made environment was kept"
