"""Emacs, headless (`emacs --batch -Q`), with Eglot and editors/emacs/bleu-ls.el
loaded as docs/editors.md tells a user to, against the real `bleu-ls serve`.

Debian 12's Emacs 28 with elpa-eglot 1.9 shows what the server pushes
(textDocument/publishDiagnostics, through Flymake) and the hover; it has no
inlay hints.  The oracle for the diagnostics is `bleu-ls check` on the same
files, and sacrebleu for the rules and scores it can decide alone."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import sacrebleu

from .conftest import ARTIFACTS, EDITORS, HERE, editor_env, expected_flags, missing, read_lines

pytestmark = pytest.mark.editor

DEBIAN_ELPA = "/usr/share/emacs/site-lisp/elpa"
# a character outside the BMP before the repeated phrase of line 18: Eglot 1.9
# counts UTF-16 units, Emacs characters; the column must still land on the phrase
EMOJI = "😀 "
SEVERITY = {"error": "eglot-error", "warning": "eglot-warning", "information": "eglot-note", "hint": "eglot-note"}


@pytest.fixture(scope="module")
def emacs() -> str:
    exe = shutil.which("emacs")
    if exe is None:
        missing("Emacs", "apt-get install emacs-nox elpa-eglot (.ci/setup-editors.sh)")
    probe = (
        "(progn (require 'package)"
        f' (add-to-list (quote package-directory-list) "{DEBIAN_ELPA}")'
        ' (package-initialize) (princ (if (locate-library "eglot") "eglot" "none")))'
    )
    out = subprocess.run([exe, "--batch", "-Q", "--eval", probe], capture_output=True, text=True, timeout=60)
    if out.stdout.strip() != "eglot":
        missing("Eglot", "apt-get install elpa-eglot (Emacs 28) or use Emacs 29+, which has it built in")
    return exe


def batch_env(tmp_path: Path, extra: dict[str, str]) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return editor_env({"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "cache"), **extra})


def test_emacs_mode_file_names(emacs: str, tmp_path: Path) -> None:
    """The file names of the other editors: NAME.hyp always; .mt, .ref, .refN,
    .src only beside their partner."""
    d = tmp_path / "files"
    d.mkdir()
    paired = ["a.hyp", "a.ref", "a.ref2", "a.src", "b.mt", "b.ref1"]
    alone = ["r.ref", "s.src", "m.mt", "n.ref2", "c.txt"]
    names = paired + alone
    for name in names:
        (d / name).write_text("x\n", encoding="utf-8")
    files = " ".join(f'"{n}"' for n in names)
    code = (
        f"(progn (require 'package) (add-to-list 'package-directory-list \"{DEBIAN_ELPA}\") (package-initialize)"
        f' (load "{EDITORS / "emacs" / "bleu-ls.el"}" nil t)'
        f" (dolist (f '({files}))"
        f'   (with-current-buffer (find-file-noselect (expand-file-name f "{d}"))'
        '     (princ (format "%s %s\\n" f major-mode)))))'
    )
    out = subprocess.run([emacs, "--batch", "-Q", "--eval", code], capture_output=True, text=True, timeout=60,
                         env=batch_env(tmp_path, {}))
    modes = dict(line.split() for line in out.stdout.splitlines() if line.strip())
    assert modes, out.stderr
    for name in paired:
        assert modes[name] == "bleu-ls-mt-mode", name
    for name in alone:
        assert modes[name] != "bleu-ls-mt-mode", name


def test_emacs_eglot_diagnostics_and_hover(emacs: str, workspace: Path, tmp_path: Path) -> None:
    (workspace / "bleu-ls.toml").write_text("[diagnostics.low_score]\nenabled = true\n", encoding="utf-8")  # off by default; these expectations include it
    hyp_path = workspace / "news.hyp"
    lines = read_lines(hyp_path)
    rep_line = next(i for i, h in enumerate(lines) if "Sprachkurse und Sprachkurse" in h)
    lines[rep_line] = EMOJI + lines[rep_line]
    hyp_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    hyps = read_lines(hyp_path)
    refs = read_lines(workspace / "news.ref")
    srcs = read_lines(workspace / "news.src")
    env = batch_env(tmp_path, {})

    # the oracle: what `bleu-ls check` reports for the same files
    check = subprocess.run(["bleu-ls", "check", "--format", "json", "--fail-on", "never", "news.hyp"],
                           cwd=workspace, env=env, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    want = [d for p in json.loads(check.stdout)["pairs"] for d in p["diagnostics"]]
    assert want

    low = sorted(expected_flags(hyps, refs, srcs)["low-score"])
    hover_line = low[0]
    out = tmp_path / "emacs-result.json"
    env.update(
        {
            "BLEU_LS_EL": str(EDITORS / "emacs" / "bleu-ls.el"),
            "BLEU_HYP": str(hyp_path),
            "BLEU_OUT": str(out),
            "BLEU_EXPECT_N": str(len(want)),
            "BLEU_HOVER_LINE": str(hover_line + 1),
            # through the defcustom, sent as initializationOptions
            "BLEU_INIT": "(:chrf (:enabled t))",
            # then M-x eglot-code-actions on that line, this one chosen
            "BLEU_ACTION": "Ignore this line",
            "BLEU_TIMEOUT_S": "120",
        }
    )
    t0 = time.monotonic()
    proc = subprocess.run([emacs, "--batch", "-Q", "-l", str(HERE / "emacs_driver.el")], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=180)
    wall = time.monotonic() - t0
    assert out.is_file(), f"emacs wrote no result (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, f"{r['error']}\n{r.get('events', '')}"

    assert r["mode"] == "bleu-ls-mt-mode"
    assert r["auto_fill"] is False  # a line is a segment: never filled
    assert r["server_program"] == "bleu-ls"
    assert r["server_name"] == "bleu-ls"
    # Eglot 1.9 offers no encoding (UTF-16, the protocol's default); newer ones utf-32 first
    major = int(r["emacs"].split(".")[0])
    assert r["position_encoding"] == ("utf-16" if major < 29 and r["eglot"].startswith("1.9") else "utf-32")

    # Flymake shows what the server pushed: the CLI's diagnostics, line, column, code, severity
    got = sorted((d["line"], d["column"], d["code"], d["severity"]) for d in r["diagnostics"])
    assert got == sorted((d["line"], d["column"], d["code"], SEVERITY[d["severity"]]) for d in want)
    for d in r["diagnostics"]:
        assert d["text"].startswith(f"bleu-ls [{d['code']}]: ")
    # and the rules sacrebleu alone decides
    flags = expected_flags(hyps, refs, srcs)
    for code in ("empty-hypothesis", "low-score", "untranslated"):
        assert {d["line"] - 1 for d in r["diagnostics"] if d["code"] == code} == flags[code], code
    rep = next(d for d in r["diagnostics"] if d["code"] == "repetition")
    assert (rep["line"] - 1, rep["column"] - 1) == (rep_line, hyps[rep_line].index("Sprachkurse und"))

    # the hover of a low-scoring line: sacrebleu's BLEU and chrF (switched on
    # by bleu-ls-initialization-options), the reference and the source
    h, ref = hyps[hover_line], refs[hover_line]
    # (the Markdown marks dropped: with markdown-mode installed Eglot renders them)
    hover = r["hover"].replace("**", "").replace("`", "")
    # the first line says the line, its BLEU and chrF (the hover in a translator's order)
    first = hover.split("\n", 1)[0]
    assert first == (f"Line {hover_line + 1} · BLEU {sacrebleu.sentence_bleu(h, [ref]).score:.2f}"
                     f" · chrF2 {sacrebleu.sentence_chrf(h, [ref]).score:.2f}"), hover
    assert f"Reference: {ref}\n" in hover
    assert f"Source: {srcs[hover_line]}\n" in hover

    # the quick fixes of that line, through Eglot's code actions: "Ignore this
    # line" (run by the server as workspace/executeCommand) takes its
    # diagnostics away and leaves every other one
    assert {"Ignore this line", "Mark line as reviewed", "Ignore low-score on this line"} <= set(r["code_actions"])
    after = sorted((d["line"], d["code"]) for d in r["diagnostics_after"])
    assert after == sorted((d["line"], d["code"]) for d in want if d["line"] != hover_line + 1)
    assert (workspace / ".bleu-ls" / "ignore.json").is_file()

    ARTIFACTS.mkdir(exist_ok=True)
    timing = {k: r[k] for k in ("emacs", "eglot", "connect_s", "diagnostics_s", "hover_s", "action_pushed_s", "total_s")}
    timing["wall_s"] = wall
    (ARTIFACTS / "emacs-timing.json").write_text(json.dumps(timing, indent=1), encoding="utf-8")
    print(f"\nEmacs {r['emacs']} / Eglot {r['eglot']}: connected {r['connect_s']:.2f} s, "
          f"{len(r['diagnostics'])} diagnostics {r['diagnostics_s']:.2f} s, hover {r['hover_s']:.2f} s, "
          f"code action applied {r['action_pushed_s']:.2f} s, wall {wall:.2f} s")


def test_emacs_package_byte_compiles_without_warnings(emacs: str, tmp_path: Path) -> None:
    """bleu-ls.el byte-compiles with every warning an error (as package.el
    compiles it on install)."""
    el = tmp_path / "bleu-ls.el"
    shutil.copy2(EDITORS / "emacs" / "bleu-ls.el", el)
    setup = (
        f"(progn (require 'package) (add-to-list 'package-directory-list \"{DEBIAN_ELPA}\")"
        " (package-initialize) (setq byte-compile-error-on-warn t))"
    )
    proc = subprocess.run([emacs, "--batch", "-Q", "--eval", setup, "-f", "batch-byte-compile", str(el)],
                          capture_output=True, text=True, timeout=120, env=batch_env(tmp_path, {}))
    assert proc.returncode == 0 and (tmp_path / "bleu-ls.elc").is_file(), proc.stderr
