"""Terminology in Emacs, headless (`emacs --batch -Q`), with Eglot, editors/emacs/bleu-ls.el
and a PO mode of the user's own in bleu-ls's entry of `eglot-server-programs`, as
docs/editors.md ("Segment files in Emacs") tells a user to set it up, against the real
`bleu-ls serve`.

A real catalogue (django-allauth's German one) in a workspace whose bleu-ls.toml sets a
glossary, "Passwort" replaced by the glossary's forbidden "Kennwort" on the msgstr of
msgid "Password": Flymake shows the `term-forbidden` diagnostic the server pushed on that
word, where `bleu-ls check` of the same text puts it (line, columns, severity, message);
M-x eglot-code-actions on it offers "Replace with “Passwort” (glossary)", and choosing it
gives back the catalogue's own text in the buffer, after which the diagnostic goes and the
others are `check`'s of that text."""

from __future__ import annotations

import io
import json
import subprocess
import time
from pathlib import Path

import pytest

from bleu_ls.cli.check import main as check_main

from .conftest import ARTIFACTS, EDITORS, HERE
from .test_emacs import SEVERITY, batch_env, emacs  # noqa: F401  (the fixture)

pytestmark = pytest.mark.editor

PO = Path(__file__).resolve().parents[1] / "data" / "formats" / "po" / "allauth-de-2023-11-03.po"
GLOSSARY = "en,de,status,note\npassword,Passwort,,the product's word\npassword,Kennwort,forbidden,\n"
LINE = 'msgstr "Passwort"'  # under msgid "Password"
OLD, NEW = "Passwort", "Kennwort"
FIX_TITLE = "Replace with “Passwort” (glossary)"


def checked(text: str, root: Path) -> list[dict]:
    """``bleu-ls check`` of ``text`` with the workspace's settings (the file written beside the
    workspace, so the editor sees only its own copy): its diagnostics, but ``unpaired``."""
    path = root.parent / "checked.po"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return [d for d in pair["diagnostics"] if d["code"] != "unpaired"]


def test_emacs_eglot_term_forbidden_and_its_quick_fix(emacs: str, tmp_path: Path) -> None:
    root = tmp_path / "workspace"
    root.mkdir()
    (root / ".git").mkdir()  # the workspace root Eglot's project finds
    (root / "glossary.csv").write_text(GLOSSARY, encoding="utf-8")
    (root / "bleu-ls.toml").write_text('[terms]\nfiles = ["glossary.csv"]\n', encoding="utf-8")
    original = PO.read_text(encoding="utf-8")
    lines = original.split("\n")
    k = lines.index(LINE)
    edited = "\n".join(lines[:k] + [LINE.replace(OLD, NEW)] + lines[k + 1:])
    po = root / "django.po"
    po.write_text(edited, encoding="utf-8")

    # the oracle: what `bleu-ls check` says of the edited text and of the fixed one
    want = checked(edited, root)
    [forbidden] = [d for d in want if d["code"] == "term-forbidden"]
    assert (forbidden["line"] - 1, forbidden["column"] - 1) == (k, LINE.index(OLD))
    want_after = checked(original, root)
    assert not any(d["code"] == "term-forbidden" for d in want_after)

    out = tmp_path / "emacs-terms.json"
    env = batch_env(tmp_path, {
        "BLEU_LS_EL": str(EDITORS / "emacs" / "bleu-ls.el"),
        "BLEU_PO": str(po),
        "BLEU_OUT": str(out),
        "BLEU_CODE": "term-forbidden",
        "BLEU_ACTION": "Replace with",
        "BLEU_EXPECT_N": str(len(want)),
        "BLEU_EXPECT_AFTER": str(len(want_after)),
        "BLEU_TIMEOUT_S": "120",
    })
    t0 = time.monotonic()
    proc = subprocess.run([emacs, "--batch", "-Q", "-l", str(HERE / "emacs_terms_driver.el")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=240)
    wall = time.monotonic() - t0
    assert out.is_file(), f"emacs wrote no result (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, f"{r['error']}\n{r.get('events', '')}"
    assert r["mode"] == "bleu-drv-po-mode"

    # Flymake shows the pushed term-forbidden on the word, as check says it
    [d] = [d for d in r["diagnostics"] if d["code"] == "term-forbidden"]
    assert (d["line"], d["column"], d["end_column"]) == (forbidden["line"], forbidden["column"], forbidden["endColumn"])
    assert (d["line"], d["column"] - 1, d["end_column"] - 1) == (k + 1, LINE.index(OLD), LINE.index(OLD) + len(NEW))
    assert d["severity"] == SEVERITY[forbidden["severity"]]
    assert d["text"] == f"bleu-ls [term-forbidden]: {forbidden['message']}"
    # and the others check lists
    assert sorted((x["line"], x["code"]) for x in r["diagnostics"]) == sorted((x["line"], x["code"]) for x in want)

    # the quick fix, chosen from M-x eglot-code-actions, writes the preferred term back
    assert FIX_TITLE in r["code_actions"], r["code_actions"]
    assert r["line_after"] == LINE
    assert r["buffer_after"] == original
    assert not any(x["code"] == "term-forbidden" for x in r["diagnostics_after"])
    assert sorted((x["line"], x["code"]) for x in r["diagnostics_after"]) == sorted((x["line"], x["code"]) for x in want_after)
    assert po.read_text(encoding="utf-8") == edited  # an edit of the buffer: the file is the user's to save

    ARTIFACTS.mkdir(exist_ok=True)
    timing = {key: r[key] for key in ("emacs", "eglot", "connect_s", "diagnostics_s", "action_run_s", "fixed_s")}
    timing["wall_s"] = wall
    (ARTIFACTS / "emacs-terms-timing.json").write_text(json.dumps(timing, indent=1), encoding="utf-8")
    print(f"\nEmacs {r['emacs']} / Eglot {r['eglot']}: connected {r['connect_s']:.2f} s, term-forbidden "
          f"{r['diagnostics_s']:.2f} s, fix applied {r['action_run_s']:.2f} s, gone {r['fixed_s']:.2f} s, wall {wall:.2f} s")

