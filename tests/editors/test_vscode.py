"""VS Code, for real: code-server 4.100.3 (VS Code 1.100) with the built
bleu-ls.vsix, driven in headless Chromium by playwright-core, against the
real `bleu-ls serve` on the samples."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import sacrebleu

from bleu_ls.config.settings import Settings

from .conftest import (
    ARTIFACTS,
    EDITORS,
    HERE,
    REPO,
    editor_env,
    expected_flags,
    missing,
    oracle_corpus,
    oracle_label,
    read_lines,
    server_bin_dir,
)

pytestmark = pytest.mark.editor

EXT = EDITORS / "vscode"
VSIX = EXT / "bleu-ls.vsix"
CODE_SERVER = HERE / "node_modules" / ".bin" / "code-server"
CHROMIUM = os.environ.get("BLEU_LS_CHROMIUM", "/usr/bin/chromium")
EDIT_TEXT = "Der Bürgermeister sagte, dass die Brücke im Frühjahr repariert wird."
SETUP = "run .ci/setup-editors.sh"


def _newest_source_mtime() -> float:
    files = [EXT / "package.json", *(EXT / "src").rglob("*.ts")]
    return max(f.stat().st_mtime for f in files)


@pytest.fixture(scope="module")
def vsix() -> Path:
    """The packaged extension; rebuilt when its sources are newer."""
    node = shutil.which("node")
    if node is None:
        missing("Node.js", "install Node 20 and " + SETUP)
    stale = not VSIX.is_file() or VSIX.stat().st_mtime < _newest_source_mtime()
    if stale:
        if not (EXT / "node_modules" / ".bin" / "vsce").exists():
            missing("the built bleu-ls.vsix", SETUP + " (npm ci and npm run package in editors/vscode)")
        proc = subprocess.run(["npm", "run", "package"], cwd=EXT, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return VSIX


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: the small samples' tests: no minimap in their screenshots
SMALL_FILE_SETTINGS = {"editor.minimap.enabled": False}


@pytest.fixture(scope="module")
def code_server(vsix: Path, tmp_path_factory: pytest.TempPathFactory):
    yield from _code_server(vsix, tmp_path_factory.mktemp("code-server"), SMALL_FILE_SETTINGS)


@pytest.fixture(scope="module")
def code_server_defaults(vsix: Path, tmp_path_factory: pytest.TempPathFactory):
    """code-server at VS Code's own defaults (minimap on, the large-file
    prompt at its usual limit): what a user who just installed it has.  The
    server runs behind scripts/lsp_timeline.py (every message logged to
    ``timeline``), unless BLEU_LS_VSCODE_SERVER names another command."""
    yield from _code_server(vsix, tmp_path_factory.mktemp("code-server-defaults"), {}, relay=True)


def _relay(base: Path) -> tuple[str, Path]:
    """A server command that runs this checkout's server behind the LSP relay."""
    timeline = base / "timeline.jsonl"
    w = base / "bleu-ls-relay"
    w.write_text(
        f'#!/bin/sh\nBLEU_LS_TIMELINE="{timeline}" PYTHONPATH="{REPO}${{PYTHONPATH:+:$PYTHONPATH}}" '
        f'exec "{sys.executable}" "{REPO / "scripts" / "lsp_timeline.py"}" "$@"\n',
        encoding="utf-8",
    )
    w.chmod(0o755)
    return str(w), timeline


def _code_server(vsix: Path, base: Path, editor_settings: dict, relay: bool = False):
    if not CODE_SERVER.exists():
        missing("code-server", SETUP + " (npm ci in tests/editors)")
    if not Path(CHROMIUM).is_file():
        missing("Chromium", "apt-get install chromium (or set BLEU_LS_CHROMIUM)")
    user, exts, xdg = base / "user", base / "extensions", base / "xdg"
    (user / "User").mkdir(parents=True)
    server_path, timeline = os.environ.get("BLEU_LS_VSCODE_SERVER"), None
    if relay and not server_path:
        server_path, timeline = _relay(base)
    settings = {
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "telemetry.telemetryLevel": "off",
        **editor_settings,
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        # VS Code's extension host takes PATH from a login shell, so point
        # the extension at the server explicitly (the setting users have too).
        # (BLEU_LS_VSCODE_SERVER: another command, e.g. a wrapper that logs with -vv)
        "bleuLs.server.path": server_path or str(Path(server_bin_dir()) / "bleu-ls"),
    }
    # BLEU_LS_VSCODE_SETTINGS: further user settings as JSON (e.g. to measure an editor default)
    settings.update(json.loads(os.environ.get("BLEU_LS_VSCODE_SETTINGS") or "{}"))
    (user / "User" / "settings.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    env = editor_env({"XDG_CONFIG_HOME": str(xdg), "XDG_DATA_HOME": str(base / "data")})
    t0 = time.monotonic()
    proc = subprocess.run(
        [str(CODE_SERVER), "--install-extension", str(vsix), "--extensions-dir", str(exts), "--user-data-dir", str(user)],
        env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0 and "successfully installed" in proc.stdout, proc.stdout + proc.stderr
    port = _free_port()
    log = open(base / "code-server.log", "w")
    server = subprocess.Popen(
        [
            str(CODE_SERVER), "--bind-addr", f"127.0.0.1:{port}", "--auth", "none", "--disable-telemetry",
            "--disable-update-check", "--disable-workspace-trust", "--user-data-dir", str(user),
            "--extensions-dir", str(exts),
            # BLEU_LS_VSCODE_PROFILE=DIR: trace logging (VS Code's debounce values reach the console)
            *(["--log", "trace"] if os.environ.get("BLEU_LS_VSCODE_PROFILE") else []),
        ],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=base,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert server.poll() is None, (base / "code-server.log").read_text()
            assert time.monotonic() < deadline, "code-server did not come up in 60 s"
            time.sleep(0.25)
        yield {"port": port, "base": base, "startup_s": time.monotonic() - t0, "pid": server.pid, "timeline": timeline}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


HINT_RE = re.compile(r"^(?P<text>.*?)\s*(?P<label>BLEU (?:\d+\.\d|n/a))$")


def split_hint(rendered: str) -> tuple[str, str | None]:
    m = HINT_RE.match(rendered.rstrip())
    if not m:
        return rendered, None
    return m.group("text"), m.group("label")


def test_vscode_hints_status_problems_edit(code_server, workspace: Path, tmp_path: Path) -> None:
    hyp_path = workspace / "news.hyp"
    hyps = read_lines(hyp_path)
    refs = read_lines(workspace / "news.ref")
    srcs = read_lines(workspace / "news.src") if (workspace / "news.src").is_file() else None
    n = min(len(hyps), len(refs))
    edit_line = next(i for i, h in enumerate(hyps) if h.strip() and h.strip() != refs[i].strip())

    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "vscode-result.json"  # kept for a look after a failure
    env = editor_env(
        {
            "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={workspace}",
            "BLEU_FILE": hyp_path.name,
            "BLEU_EDIT_LINE": str(edit_line),
            "BLEU_EDIT_TEXT": EDIT_TEXT,
            "BLEU_EXPECT_HINTS": str(n),
            "BLEU_OUT": str(out),
            "BLEU_CHROMIUM": CHROMIUM,
            "BLEU_SHOT_OPEN": str(ARTIFACTS / "vscode-open.png"),
            "BLEU_SHOT_EDIT": str(ARTIFACTS / "vscode-edited.png"),
        }
    )
    t0 = time.monotonic()
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=300)
    elapsed = time.monotonic() - t0
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])

    # Hints rendered at the line ends, equal to sacrebleu's sentence BLEU.
    assert r["hintsReady"], r["events"]
    lines = {int(k): v for k, v in r["lines"].items()}
    for i in range(n):
        text, label = split_hint(lines[i])
        assert text == hyps[i].rstrip(), f"line {i + 1}: {lines[i]!r}"
        assert label == oracle_label(hyps[i], [refs[i]]), f"line {i + 1}: {lines[i]!r}"

    # The status item: corpus BLEU as sacrebleu computes it, with its signature.
    assert r["statusReady"], r["events"]
    corpus = oracle_corpus(hyps[:n], refs[:n])
    bleu = sacrebleu.BLEU()
    bleu.corpus_score(hyps[:n], [refs[:n]])
    assert r["status"]["text"].endswith(f"BLEU {corpus:.2f}"), r["status"]
    assert bleu.get_signature().format() in r["status"]["label"]
    assert f"BLEU {corpus:.2f}" in r["codeLens"][0]

    # Problems: the status-bar count matches the panel, and the panel holds
    # the lines the rules must flag with their codes.
    edited = list(hyps)
    edited[edit_line] = EDIT_TEXT
    rows = []
    for label, text in r["problemRows"]:
        m = re.search(r"bleu-ls([a-z-]+)\[Ln (\d+), Col (\d+)\]$", text)
        if m:
            rows.append((label.split(":")[0], m.group(1), int(m.group(2)) - 1))
    assert rows, r["problemRows"]
    want = expected_flags(edited[:n], refs[:n], srcs)
    # Problems lists errors, warnings and information; a hint (low-score by
    # default, chosen by measurement) is shown in the editor only.
    d = Settings().diagnostics
    for code, want_lines in want.items():
        listed = getattr(d, code.replace("-", "_")).severity != "hint"
        assert {ln for _, c, ln in rows if c == code} == (want_lines if listed else set()), code
    errors = sum(1 for sev, _, _ in rows if sev == "Error")
    warnings = sum(1 for sev, _, _ in rows if sev == "Warning")
    assert r["problemsAfter"].startswith(f"Errors: {errors}, Warnings: {warnings}"), r["problemsAfter"]
    # Before the edit: the empty line is the only error (empty-hypothesis is an error by default).
    first_errors = len(expected_flags(hyps[:n], refs[:n], srcs)["empty-hypothesis"])
    assert r["problems"].startswith(f"Errors: {first_errors},"), r["problems"]

    # Typing replaced the line; its hint and the corpus score follow.
    text, label = split_hint(r["editedLine"])
    assert text == EDIT_TEXT
    assert label == oracle_label(EDIT_TEXT, [refs[edit_line]])
    assert label != oracle_label(hyps[edit_line], [refs[edit_line]])
    assert r["statusAfterReady"], r["events"]
    new_corpus = oracle_corpus(edited[:n], refs[:n])
    delta = new_corpus - corpus
    sign = "+" if delta > 0 else "\u2212"
    assert f"BLEU {new_corpus:.2f} ({sign}{abs(delta):.2f})" in r["statusAfter"]["text"], r["statusAfter"]

    # "bleu-ls: Toggle Score Hints" from the palette: the setting changes,
    # reaches the server live, the hints go and come back.
    assert r["hintsOff"] and r["hintsWhenOff"] == 0, r["events"]
    off = {int(k): v.rstrip() for k, v in r["linesWhenOff"].items()}
    assert [off[i] for i in range(n)] == [h.rstrip() for h in edited[:n]]
    assert r["hintsOn"] and r["hintsWhenOn"] >= n, r["events"]
    ws_settings = json.loads((workspace / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert ws_settings["bleuLs.hints.enabled"] is True

    shots = [ARTIFACTS / "vscode-open.png", ARTIFACTS / "vscode-edited.png"]
    assert all(s.is_file() and s.stat().st_size > 10_000 for s in shots)
    print(f"code-server up in {code_server['startup_s']:.1f} s; browser session {elapsed:.1f} s; {r['events']}")
    assert elapsed < 120


def test_vscode_report_webview_shows_the_status_score_and_jumps_to_a_clicked_line(
    code_server, workspace: Path, tmp_path: Path
) -> None:
    hyp_path = workspace / "news.hyp"
    hyps = read_lines(hyp_path)
    refs = read_lines(workspace / "news.ref")
    n = min(len(hyps), len(refs))
    out = ARTIFACTS / "vscode-report.json"
    env = editor_env(
        {
            "BLEU_MODE": "report",
            "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={workspace}",
            "BLEU_FILE": hyp_path.name,
            "BLEU_EXPECT_HINTS": str(n),
            "BLEU_OUT": str(out),
            "BLEU_CHROMIUM": CHROMIUM,
            "BLEU_SHOT_OPEN": str(ARTIFACTS / "vscode-report-open.png"),
            "BLEU_SHOT_REPORT": str(ARTIFACTS / "vscode-report.png"),
            "BLEU_SHOT_REPORT_CLICK": str(ARTIFACTS / "vscode-report-click.png"),
            "BLEU_SHOT_ERROR": str(ARTIFACTS / "vscode-report-error.png"),
        }
    )
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=300)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    # The webview shows the corpus score the status item shows (sacrebleu's).
    corpus = oracle_corpus(hyps[:n], refs[:n])
    assert r["status"]["text"].endswith(f"BLEU {corpus:.2f}"), r["status"]
    data = json.loads(r["reportData"])
    assert data["systems"][0]["corpus"]["bleu"]["score"] == sacrebleu.corpus_bleu(hyps[:n], [refs[:n]]).score
    assert f"{corpus:.2f}" in r["reportText"]
    assert "news.hyp" in r["reportTitle"]
    # A click on a listed line puts the cursor on that line of the hypothesis.
    assert 1 <= r["clickedLine"] <= n
    assert r["cursor"].startswith(f"Ln {r['clickedLine']},"), r["cursor"]
    assert (ARTIFACTS / "vscode-report.png").stat().st_size > 10_000


@pytest.mark.xfail(
    strict=False,
    reason="in a fresh clone's CI run only VS Code's own 'couldn't create connection' toast appeared, "
    "not the extension's 'did not start' message; under investigation (passes on a warm machine)",
)
def test_vscode_says_how_to_fix_a_server_that_cannot_start(code_server, workspace: Path, tmp_path: Path) -> None:
    """bleuLs.server.interpreter set (in the workspace settings) to a Python
    without bleu-ls: the extension names the command, the reason and the fix."""
    python = "/usr/bin/python3"
    # the editor's own PYTHONPATH (a checkout under test) reaches the server command too
    probe_env = {"PATH": "/usr/bin:/bin", **{k: v for k, v in editor_env().items() if k == "PYTHONPATH"}}
    probe = subprocess.run([python, "-c", "import bleu_ls"], capture_output=True, cwd=tmp_path,
                           env=probe_env) if Path(python).is_file() else None
    if probe is None or probe.returncode == 0:
        pytest.skip(f"{python} can import bleu_ls; no Python without it to point at")
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text(
        json.dumps({"bleuLs.server.path": "", "bleuLs.server.interpreter": python}), encoding="utf-8"
    )
    out = ARTIFACTS / "vscode-no-server.json"
    env = editor_env(
        {
            "BLEU_MODE": "notification",
            "BLEU_NOTIFICATION_TEXT": "did not start",
            "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={workspace}",
            "BLEU_FILE": "news.hyp",
            "BLEU_OUT": str(out),
            "BLEU_CHROMIUM": CHROMIUM,
            "BLEU_SHOT_OPEN": str(ARTIFACTS / "vscode-no-server.png"),
            "BLEU_TIMEOUT_MS": "45000",
            "BLEU_SHOT_ERROR": str(ARTIFACTS / "vscode-no-server-error.png"),
        }
    )
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=180)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    text = r["notification"]
    assert f"{python} -m bleu_ls serve" in text, text
    assert "No module named bleu_ls" in text, text
    assert "pip install bleu-ls" in text, text
    assert "Open Settings" in r["notificationButtons"]
    # No hints without a server.
    assert not any(HINT_RE.match(v.rstrip()) for v in r["lines"].values())


def test_vscode_highlights_changed_and_unmatched_words(code_server, workspace: Path, tmp_path: Path) -> None:
    """The extension's default colours on the server's semantic tokens, in
    Default Dark Modern: with the opt-in view of the
    words in no reference switched on, they are italic light red; a typed
    word is bold teal (changed since the draft, the text as first opened)."""
    (workspace / "talk.hyp").write_text("Grüße aus 😀 Köln\nthe cat sat on the mat\n", encoding="utf-8")
    (workspace / "talk.ref").write_text("Grüße aus Köln\nthe cat sat on a mat\n", encoding="utf-8")
    (workspace / ".vscode").mkdir(exist_ok=True)
    (workspace / ".vscode" / "settings.json").write_text(json.dumps({"bleuLs.highlights.unmatched": True, "workbench.colorTheme": "Default Dark Modern"}), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "vscode-tokens.json"
    env = editor_env({
        "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={workspace}",
        "BLEU_FILE": "talk.hyp", "BLEU_MODE": "tokens", "BLEU_EDIT_LINE": "1", "BLEU_EDIT_TEXT": "today",
        "BLEU_EXPECT_HINTS": "2", "BLEU_OUT": str(out), "BLEU_CHROMIUM": CHROMIUM,
        "BLEU_SHOT_OPEN": str(ARTIFACTS / "vscode-tokens-open.png"),
        "BLEU_SHOT_EDIT": str(ARTIFACTS / "vscode-tokens-edited.png"),
    })
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=300)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    assert r["beforeReady"] and r["afterReady"], r["events"]
    # package.json's colours for Default Dark Modern (tests/test_colours.py checks their contrast)
    red, teal = "rgb(255, 192, 185)", "rgb(140, 248, 247)"

    def styled(spans: list[dict]) -> set[tuple[int, str, str]]:
        out = set()
        for s in spans:
            kind = "changed" if s["bold"] and s["color"] == teal else "unmatched" if s["italic"] and s["color"] == red else "?"
            out.add((s["line"], s["text"].strip(), kind))
        return out

    assert styled(r["before"]) == {(0, "😀", "unmatched"), (1, "the", "unmatched")}
    assert styled(r["after"]) == {(0, "😀", "unmatched"), (1, "the", "unmatched"), (1, "today", "changed")}
    # "bleu-ls: Toggle Unmatched-Word Highlighting": the setting reaches the server, the
    # editor is told to ask again, and only the changed word keeps a style.
    assert r["unmatchedOff"], r["events"]
    assert styled(r["whenOff"]) == {(1, "today", "changed")}
    ws_settings = json.loads((workspace / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert ws_settings["bleuLs.highlights.unmatched"] is False
    for shot in ("vscode-tokens-open.png", "vscode-tokens-edited.png"):
        assert (ARTIFACTS / shot).stat().st_size > 10_000


#: the real data beside the project (../shared/data), else where the CI keeps it
TALK = next((p for p in (EDITORS.parent.parent.parent / "shared" / "data" / "wmt21-ted-mqm-en-de",
                         Path("/work/shared/data/wmt21-ted-mqm-en-de")) if p.is_dir()), Path("/nonexistent"))


@pytest.mark.parametrize("theme", ["Default Light Modern", "Default Dark Modern"])
def test_vscode_translator_view_of_a_real_talk(code_server, tmp_path: Path, theme: str) -> None:
    """A real 529-line talk (WMT21 TED en-de, one system) with its reference
    and source, in a light and a dark theme with the extension's defaults:
    the status tooltip's counts agree with Problems' (background findings
    included), the hover of a flagged line reads findings, reference and
    source before the numbers, typing opens no suggestion popup and the typed
    word is bold teal, and the status item stays while the report has focus.
    Screenshots .artifacts/vscode-ux-{light,dark}-{open,hover,typed,report}.png."""
    if not TALK.is_dir():
        pytest.skip("the WMT21 TED data is not here (/work/shared/data)")
    ws = tmp_path / "talk"
    ws.mkdir()
    shutil.copy(TALK / "Nemo.hyp", ws / "talk.hyp")
    shutil.copy(TALK / "ref.txt", ws / "talk.ref")
    shutil.copy(TALK / "src.txt", ws / "talk.src")
    (ws / "bleu-ls.toml").write_text("[diagnostics.low_score]\nenabled = true\n", encoding="utf-8")  # off by default; these expectations include it
    (ws / ".vscode").mkdir()
    (ws / ".vscode" / "settings.json").write_text(json.dumps({"workbench.colorTheme": theme}), encoding="utf-8")
    hyps, refs = read_lines(ws / "talk.hyp"), read_lines(ws / "talk.ref")
    # the first line under the low-score threshold (a flagged line)
    flagged = next(i for i in range(len(hyps)) if sacrebleu.sentence_bleu(hyps[i], [refs[i]]).score < 10)
    kind = "light" if "Light" in theme else "dark"
    shots = {k: ARTIFACTS / f"vscode-ux-{kind}-{k}.png" for k in ("open", "hover", "typed", "report")}
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / f"vscode-ux-{kind}.json"
    env = editor_env({
        "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={ws}",
        "BLEU_FILE": "talk.hyp", "BLEU_MODE": "ux", "BLEU_EDIT_LINE": str(flagged), "BLEU_EDIT_TEXT": "und das Wort",
        "BLEU_EXPECT_HINTS": "20", "BLEU_OUT": str(out), "BLEU_CHROMIUM": CHROMIUM, "BLEU_REOPEN": "1",
        "BLEU_SHOT_OPEN": str(shots["open"]), "BLEU_SHOT_HOVER": str(shots["hover"]),
        "BLEU_SHOT_EDIT": str(shots["typed"]), "BLEU_SHOT_REPORT": str(shots["report"]),
        "BLEU_SHOT_ERROR": str(ARTIFACTS / f"vscode-ux-{kind}-error.png"),
    })
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=400)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    assert r["hintsReady"] and r["statusReady"], r["events"]

    # Counts: the tooltip's "In Problems: N" is what the Problems item counts
    # (errors + warnings + information), the flagged lines are one number.
    tip = r["status"]["title"] or r["status"]["label"]
    listed = int(re.search(r"In Problems: ([\d,]+)", tip).group(1).replace(",", ""))
    nums = [int(x) for x in re.findall(r"(\d+)", r["problems"] or "")]
    assert sum(nums) == listed, (r["problems"], tip)
    assert re.search(r"In the text only: low-score \d+", tip), tip

    # Hints keep their line: no row holds a hint and nothing else.  The
    # extension glues each label to the line's last word (src/hints.ts), which
    # the DOM-measured wrapping ("advanced") follows; under the column-counting
    # "simple" wrapping (the default) the MT languages' break characters do
    # it.  VS Code takes those when it builds the view: the file, first opened
    # in the window's first seconds (before VS Code knows the MT languages),
    # is opened again (BLEU_REOPEN) as a user opens it.
    print(f"{theme}: rows holding a hint alone: {r['hintAloneRows']}")
    assert r["hintAloneRows"] == [], r["hintAloneRows"]

    # The hover in reading order: findings, reference, source, then the numbers.
    assert r["hoverShown"], r["events"]
    h = r["hover"]
    at = [h.find(x) for x in ("under the threshold", "Reference:", "Source:", "n  matches")]
    assert all(i >= 0 for i in at) and at == sorted(at), h
    assert "draft" not in h.lower()

    # Typing: no word-suggestion popup over the next lines' hints; the typed words are bold teal.
    assert not r["suggestSeen"], r["events"]
    teal = "rgb(0, 95, 95)" if kind == "light" else "rgb(140, 248, 247)"
    typed = [s for s in r["typedSpans"] if s["text"].strip() in ("und", "das", "Wort")]
    assert typed and all(s["bold"] and s["color"] == teal for s in typed), r["typedSpans"]

    # The report has the focus: the status item is still there.
    assert r["statusWithReport"] and r["statusWithReport"]["visible"], r["events"]
    # ... and the editor beside it, half as wide, wraps no hint alone either
    assert r["hintAloneWithReport"] == [], r["hintAloneWithReport"]
    for shot in shots.values():
        assert shot.is_file() and shot.stat().st_size > 10_000


def test_vscode_defaults_on_a_real_talk(code_server, tmp_path: Path) -> None:
    """The real talk with its reference and source and nothing configured
    (the README's pictures): the status tooltip, Problems and the code lens
    count the same, no low-score finding (off by default); the hover of the
    first line Problems lists reads its finding, the reference and the source
    before the numbers; three words typed there are bold teal.  Screenshots of
    the editor .artifacts/vscode-defaults-{open,hover,typed}.png (the README's
    docs/images/vscode-light-hover.png and docs/images/vscode-light-typed.png
    are copies of the last two)."""
    if not TALK.is_dir():
        pytest.skip("the WMT21 TED data is not here (/work/shared/data)")
    ws = tmp_path / "talk"
    ws.mkdir()
    shutil.copy(TALK / "Nemo.hyp", ws / "talk.hyp")
    shutil.copy(TALK / "ref.txt", ws / "talk.ref")
    shutil.copy(TALK / "src.txt", ws / "talk.src")
    (ws / ".vscode").mkdir()
    (ws / ".vscode" / "settings.json").write_text(json.dumps({"workbench.colorTheme": "Default Light Modern"}), encoding="utf-8")
    # the first line Problems lists, as `bleu-ls check` finds it with the defaults
    check = subprocess.run([sys.executable, "-m", "bleu_ls", "check", "talk.hyp", "--fail-on", "never", "--format", "json"],
                           cwd=ws, env=editor_env(), capture_output=True, text=True, timeout=600)
    found = json.loads(check.stdout)["pairs"][0]["diagnostics"]
    assert not any(d["code"] == "low-score" for d in found)
    listed = next(d for d in found if d["severity"] != "hint")
    line = listed["line"] - 1
    shots = {k: ARTIFACTS / f"vscode-defaults-{k}.png" for k in ("open", "hover", "typed", "report")}
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "vscode-defaults.json"
    env = editor_env({
        "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={ws}",
        "BLEU_FILE": "talk.hyp", "BLEU_MODE": "ux", "BLEU_EDIT_LINE": str(line), "BLEU_EDIT_TEXT": "und das Wort",
        "BLEU_EXPECT_HINTS": "12", "BLEU_OUT": str(out), "BLEU_CHROMIUM": CHROMIUM, "BLEU_VIEWPORT": "1280x800",
        "BLEU_SHOT_CLIP": "editor", "BLEU_REOPEN": "1",
        # the findings worked out in the background (adequacy) are in the count before the pictures
        "BLEU_WAIT_TIP": rf"In Problems: {sum(d['severity'] != 'hint' for d in found)}\b",
        "BLEU_SHOT_OPEN": str(shots["open"]), "BLEU_SHOT_HOVER": str(shots["hover"]),
        "BLEU_SHOT_EDIT": str(shots["typed"]), "BLEU_SHOT_REPORT": str(shots["report"]),
        "BLEU_SHOT_ERROR": str(ARTIFACTS / "vscode-defaults-error.png"),
    })
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=400)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    assert r["hintsReady"] and r["statusReady"], r["events"]
    tip = r["status"]["title"] or r["status"]["label"]
    in_problems = int(re.search(r"In Problems: ([\d,]+)", tip).group(1).replace(",", ""))
    assert sum(int(x) for x in re.findall(r"(\d+)", r["problems"] or "")) == in_problems, (r["problems"], tip)
    assert "low-score" not in tip, tip
    flagged = re.search(r"([\d,]+) flagged lines?", tip).group(1)
    assert any(f"{flagged} flagged" in t for t in r["codeLens"]), (r["codeLens"], tip)
    h = r["hover"]
    at = [h.find(x) for x in (listed["message"].split(" (")[0], "Reference:", "Source:", "n  matches")]
    assert all(i >= 0 for i in at) and at == sorted(at), h
    typed = [s for s in r["typedSpans"] if s["text"].strip() in ("und", "das", "Wort")]
    assert typed and all(s["bold"] and s["color"] == "rgb(0, 95, 95)" for s in typed), r["typedSpans"]
    print(f"tooltip: {tip!r}; lens: {r['codeLens']}; problems: {r['problems']}")
    for k in ("open", "hover", "typed"):
        assert shots[k].stat().st_size > 10_000


def test_vscode_hints_keep_their_line_on_a_real_talk(code_server, tmp_path: Path) -> None:
    """The real 529-line talk in a narrow window (1000 px, the editor beside
    the explorer: about 70 columns), the extension's defaults (word wrap,
    "simple" wrapping): paged through from the top to the end, no wrapped row
    holds a score hint alone or a piece of one; the hint wraps with the
    line's last word.  Screenshot .artifacts/vscode-wrap-open.png."""
    if not TALK.is_dir():
        pytest.skip("the WMT21 TED data is not here (/work/shared/data)")
    ws = tmp_path / "talk"
    ws.mkdir()
    shutil.copy(TALK / "Nemo.hyp", ws / "talk.hyp")
    shutil.copy(TALK / "ref.txt", ws / "talk.ref")
    hyps, refs = read_lines(ws / "talk.hyp"), read_lines(ws / "talk.ref")
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "vscode-wrap.json"
    env = editor_env({
        "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={ws}",
        "BLEU_FILE": "talk.hyp", "BLEU_MODE": "wrap", "BLEU_VIEWPORT": "1000x900",
        "BLEU_EXPECT_HINTS": "10", "BLEU_EXPECT_LINES": str(len(hyps)), "BLEU_OUT": str(out),
        "BLEU_CHROMIUM": CHROMIUM, "BLEU_SHOT_OPEN": str(ARTIFACTS / "vscode-wrap-open.png"),
        "BLEU_SHOT_ALONE": str(ARTIFACTS / "vscode-wrap-alone.png"),
        "BLEU_SHOT_FIRST": str(ARTIFACTS / "vscode-wrap-first-open.png"),
        "BLEU_SHOT_ERROR": str(ARTIFACTS / "vscode-wrap-error.png"),
    })
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=600)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    rows = {int(k): v for k, v in r["rows"].items()}
    # every line of the talk was on screen with its hint (sacrebleu's), its text whole
    assert sorted(rows) == list(range(len(hyps))), sorted(set(range(len(hyps))) - set(rows))
    wrapped = {i: v for i, v in rows.items() if len(v) > 1}
    assert len(wrapped) > len(hyps) // 2, f"only {len(wrapped)} lines wrapped: the window is not narrow"
    alone, split = [], []
    for i, v in rows.items():
        text, label = split_hint("".join(v))
        assert text == hyps[i].rstrip() and label == oracle_label(hyps[i], [refs[i]]), (i + 1, v)
        if any(row.strip() and label.endswith(row.strip()) for row in v[1:]):
            alone.append((i + 1, v))
        if not v[-1].rstrip().endswith(label):
            split.append((i + 1, v))
    print(f"{len(rows)} lines, {len(wrapped)} wrapped; rows holding only a hint: {alone}; labels split: {split}; "
          f"opened before VS Code knew the MT languages, lines with a hint alone on the first screen: {r['firstOpenAlone']}")
    assert alone == [] and split == []
    assert (ARTIFACTS / "vscode-wrap-open.png").stat().st_size > 10_000


def _big_lines() -> int:
    """The pair's size: BLEU_LS_BIG (or BLEU_LS_VSCODE_LINES), 3,000 by default (CI)."""
    return int(os.environ.get("BLEU_LS_BIG") or os.environ.get("BLEU_LS_VSCODE_LINES") or "3000")


def last_key_bursts(head: str, tail: str, ref: str, k: int) -> tuple[list[str], list[str]] | None:
    """``k`` bursts of keys typed one after the other between ``head`` and
    ``tail`` (each a space and a word of the reference, letters only), each
    with sacrebleu's label of the line after it.  The final label of a burst
    is set by its LAST key: no earlier key of the burst, and not the burst
    before, leaves the line at that label, so a hint that is still catching
    up with the burst never shows it.  None when the line has too few such
    words."""
    before = oracle_label(head + tail, [ref])
    words = list(dict.fromkeys(w for w in ref.split() if w.isalpha() and len(w) >= 3))
    bursts, labels, typed = [], [], ""
    for w in words:
        if len(bursts) == k:
            break
        burst = " " + w
        after = [oracle_label(head + typed + burst[: m + 1] + tail, [ref]) for m in range(len(burst))]
        if after[-1] not in after[:-1] and after[-1] != (labels[-1] if labels else before):
            bursts.append(burst)
            labels.append(after[-1])
            typed += burst
    return (bursts, labels) if len(bursts) == k else None


def test_vscode_large_pair_typing_burst_mid_line(code_server_defaults, tmp_path: Path) -> None:
    """Real MT lines with a source (benchmarks/realpair.py; BLEU_LS_BIG lines,
    3,000 by default, the issue's figure is 100,000), at VS Code's defaults
    (minimap on; its large-file prompt answered "Open Anyway" when it comes):
    open the file and time its first hint, go to the middle line, then type
    bursts of keys in the middle of that line at 8 keys/s, each burst's final
    label set by its last key, timed from that key until the drawn hint is
    sacrebleu's label of the new text.  The renderer's long tasks while
    typing are recorded.  Only correctness is asserted; the times are
    printed (benchmarks/RESULTS.md)."""
    from benchmarks import realpair

    n = _big_lines()
    k = int(os.environ.get("BLEU_LS_VSCODE_BURSTS", "8"))
    folder = realpair.build(n)
    if folder is None:
        pytest.skip("WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) not present")
    ws = tmp_path / "large"
    ws.mkdir()
    for name in ("big.hyp", "big.ref", "big.src"):
        shutil.copyfile(folder / name, ws / name)
    hyps, refs = read_lines(ws / "big.hyp"), read_lines(ws / "big.ref")

    # the middle line, or the first after it with k such bursts before its last word
    line = n // 2
    while True:
        if len(hyps[line].split()) >= 4:
            left = len(hyps[line].split()[-1]) + 1
            head, tail = hyps[line][: len(hyps[line]) - left], hyps[line][len(hyps[line]) - left :]
            plan = last_key_bursts(head, tail, refs[line], k)
            if plan is not None:
                break
        line += 1
    bursts, labels = plan
    typed = "".join(bursts)
    # (the oracle, again, on the whole text after each burst)
    assert [oracle_label(head + "".join(bursts[: j + 1]) + tail, [refs[line]]) for j in range(k)] == labels

    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / "vscode-large.json"  # kept: key and hint times for a server-side timeline
    env = editor_env(
        {
            "BLEU_URL": f"http://127.0.0.1:{code_server_defaults['port']}/?folder={ws}",
            "BLEU_FILE": "big.hyp",
            "BLEU_MODE": "large",
            "BLEU_JUMP_LINE": str(line),
            "BLEU_JUMP_LABEL": oracle_label(hyps[line], [refs[line]]),
            "BLEU_COLUMN": str(len(head.encode("utf-16-le")) // 2 + 1),
            "BLEU_BURSTS": json.dumps(bursts),
            "BLEU_BURST_LABELS": json.dumps(labels),
            "BLEU_KEY_DELAY_MS": "125",
            "BLEU_TIMEOUT_MS": str(60000 + n // 2),
            "BLEU_OUT": str(out),
            "BLEU_CHROMIUM": CHROMIUM,
            "BLEU_SHOT_EDIT": str(ARTIFACTS / "vscode-large-typed.png"),
            "BLEU_SHOT_ERROR": str(ARTIFACTS / "vscode-large-error.png"),
            # BLEU_LS_VSCODE_PROFILE=DIR: CPU profiles of the workbench and the extension host while typing
            "BLEU_PROFILE_DIR": os.environ.get("BLEU_LS_VSCODE_PROFILE", ""),
            "BLEU_CODE_SERVER_PID": str(code_server_defaults["pid"]),
        }
    )
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=300 + n // 200)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    assert r["firstHintsOk"], r["events"]
    assert r["jumpOk"], (r["jumpLabel"], r["events"])
    assert r["statusReady"], r["events"]
    # each burst ends on sacrebleu's label of the text typed so far, and the line holds that text
    assert r["burstLabels"] == labels, (r["lineText"], r["burstMs"], r["events"])
    assert all(ms is not None for ms in r["burstMs"]), r["burstMs"]  # (each within 30 s)
    text, label = split_hint(r["lineText"])
    assert text == head + typed + tail and label == labels[-1]
    # the words typed are new against the draft: each carries the changed-word style
    assert r["typedHighlighted"], (r["changedWords"], r["typedStyles"])
    # loose sanity bounds only (a shared machine is noisy): the figures go to RESULTS.md
    assert r["typingLongTasks"] is not None, "no PerformanceObserver('longtask') in the page"
    ms = sorted(r["burstMs"])
    typing_tasks = sorted(d for _s, d in r["typingLongTasks"])
    open_tasks = sorted(d for _s, d in r["openLongTasks"])

    def p95(xs: list) -> float:
        return xs[min(len(xs) - 1, int(0.95 * len(xs)))]

    print(
        f"\nvscode {n:,} real lines with a source, editor defaults: "
        f"large-file prompt {'answered Open Anyway' if r['openAnyway'] else 'not shown'}; "
        f"open -> text on screen {r['editorShownMs']} ms -> first hint {r['firstHintsMs']} ms (server start "
        f"included; renderer long tasks meanwhile {len(open_tasks)}, {sum(open_tasks):.0f} ms in all, longest "
        f"{open_tasks[-1] if open_tasks else 0:.0f} ms); jump to line {line + 1:,} -> hint {r['jumpMs']} ms; "
        f"scored {r['scoredMs']} ms later"
    )
    print(f"last key of a burst -> sacrebleu's label drawn, {k} bursts {bursts}, in order (ms): "
          + " ".join(str(x) for x in r["burstMs"]))
    print(f"p50 {statistics.median(ms):.0f} ms, p95 {p95(ms):.0f} ms; renderer long tasks while typing: "
          f"{len(typing_tasks)}, longest {typing_tasks[-1] if typing_tasks else 0:.0f} ms "
          f"(over 200 ms: {sum(d > 200 for d in typing_tasks)}); typed words highlighted {r['highlightMs']} ms "
          f"after the last burst's check")
    print(r["events"])

    # Diagnostics while typing (the server's LSP timeline): VS Code pulls only
    # when the server asks, which it does only after an edit changed them
    # (editors/vscode/src/pullOptions.ts, server/views/pulled.py); pulling
    # after each key, it cancelled pulls and got the whole 1,000-item report
    # 11-23 times in 8 bursts at 100,000 lines.
    timeline = code_server_defaults["timeline"]
    if timeline is not None:
        spec = importlib.util.spec_from_file_location("lsp_timeline", REPO / "scripts" / "lsp_timeline.py")
        relay = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(relay)
        traffic = relay.typing(str(timeline), str(out))
        print(f"diagnostics while typing: {traffic}")
        assert traffic["didChange"] >= k, traffic  # (the timeline saw the keys)
        assert traffic["pulls"] <= 2 * traffic["diagnostic_refresh"] + 1, traffic
        assert traffic["full"] <= k, traffic


def test_vscode_large_pair_open_in_a_window_that_is_up(code_server_defaults, tmp_path: Path) -> None:
    """Open the real pair's hypothesis (benchmarks/realpair.py, BLEU_LS_BIG
    lines, 3,000 by default) in a window that is up, as a user does: the
    extension started its server for the folder before any file is opened
    (its `workspaceContains` activation), then the file is opened from the
    explorer, the large-file prompt answered "Open Anyway", and the first
    hint timed.  The same lines as ``big.txt`` (no language of ours, no
    server) are the control, opened in turn in the same window (txt, hyp,
    hyp, txt, ... BLEU_LS_VSCODE_OPEN_ROUNDS rounds): what VS Code itself
    takes.  Asserted: the server was up before the click, every open shows
    text and the hyp's first hint is sacrebleu's; the times are printed."""
    from benchmarks import realpair

    n = _big_lines()
    rounds = int(os.environ.get("BLEU_LS_VSCODE_OPEN_ROUNDS", "2"))
    folder = realpair.build(n)
    if folder is None:
        pytest.skip("WMT21 data (../shared/data or $BLEU_LS_SHARED_DATA) not present")
    timeline = code_server_defaults["timeline"]
    if timeline is None:
        pytest.skip("BLEU_LS_VSCODE_SERVER names another server command: no timeline to see it start")
    ws = tmp_path / "open"
    ws.mkdir()
    # a pair of its own per round: VS Code keeps the hints of a file it
    # closed and draws them again at once when it is opened again
    order = []
    for r in range(rounds):
        for ext in ("hyp", "ref", "src"):
            shutil.copyfile(folder / f"big.{ext}", ws / f"big{r + 1}.{ext}")
        pair = [["big.txt", False], [f"big{r + 1}.hyp", True]]
        order += pair if r % 2 == 0 else pair[::-1]
    shutil.copyfile(folder / "big.hyp", ws / "big.txt")
    out = ARTIFACTS / "vscode-open-large.json"
    ARTIFACTS.mkdir(exist_ok=True)
    env = editor_env({
        "BLEU_URL": f"http://127.0.0.1:{code_server_defaults['port']}/?folder={ws}",
        "BLEU_FILE": "big1.hyp", "BLEU_MODE": "open", "BLEU_OPEN_FILES": json.dumps(order),
        "BLEU_SETTLE_FILE": str(timeline),
        "BLEU_SETTLE_FROM": str(Path(timeline).stat().st_size if Path(timeline).is_file() else 0),
        "BLEU_TIMEOUT_MS": str(60000 + n // 2), "BLEU_OUT": str(out), "BLEU_CHROMIUM": CHROMIUM,
        "BLEU_SHOT_ERROR": str(ARTIFACTS / "vscode-open-large-error.png"),
        # BLEU_LS_VSCODE_PROFILE=DIR: CPU profiles of the workbench and the extension host over the first open
        "BLEU_PROFILE_DIR": os.environ.get("BLEU_LS_VSCODE_PROFILE", ""),
        "BLEU_CODE_SERVER_PID": str(code_server_defaults["pid"]),
    })
    proc = subprocess.run(["node", str(HERE / "vscode_driver.mjs")], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=300 + n // 200)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    assert r["settled"], f"the server did not start before a file was opened ({r['settleMs']} ms)"
    assert len(r["opens"]) == len(order)
    # the server's side (the relay's timeline): when the document reached it
    # and when it answered the first hints (what came before is VS Code's:
    # reading the file, handing it to the extension host, the client's didOpen)
    wire = [json.loads(x) for x in Path(timeline).read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = []
    for o in r["opens"]:
        assert o["textMs"] is not None, o
        longest = max((d for _s, d in o["longTasks"]), default=0)
        legs = ""
        if o["name"] != "big.txt":
            assert o["hintMs"] is not None, r["events"]
            after = [w for w in wire if w["t"] >= o["at"]]
            opened = next((w["t"] for w in after if w.get("method") == "textDocument/didOpen"), None)
            asked = {w["id"] for w in after if w.get("method") == "textDocument/inlayHint"}
            answered = next((w["t"] for w in after if w["dir"] == "out" and "method" not in w
                             and w.get("id") in asked and w["bytes"] > 200), None)
            if opened and answered:
                legs = f" (didOpen at the server {opened - o['at']:.0f} ms, its first hints sent {answered - o['at']:.0f} ms)"
        rows.append(f"{o['name']}: text {o['textMs']} ms, first hint {o.get('hintMs', '-')} ms{legs}, longest renderer "
                    f"task {longest:.0f} ms{' (after Open Anyway)' if o['prompt'] else ''}")
    hyp_hints = sorted(o["hintMs"] for o in r["opens"] if o["name"] != "big.txt")
    print(f"\nvscode open, {n:,} real lines with a source, a window that is up (server started "
          f"{r['settleMs']} ms after the explorer showed): " + "; ".join(rows)
          + f"; first hint of a .hyp, worst {hyp_hints[-1]} ms")
    # the hints drawn first are sacrebleu's labels of their lines
    hyps, refs = read_lines(ws / "big1.hyp"), read_lines(ws / "big1.ref")
    for o in r["opens"]:
        for i, rendered in (o.get("hinted") or {}).items():
            text, label = split_hint(rendered)
            assert label == oracle_label(hyps[int(i)], [refs[int(i)]]), (int(i) + 1, rendered)
