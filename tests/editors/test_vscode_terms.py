"""Terminology in VS Code (code-server + headless Chromium, the built extension): the real
catalogue opened alone in a workspace with a glossary, with the forbidden "Kennwort" where
the file has "Passwort" (msgid "Password").  The squiggle is drawn under exactly that word,
the Problems count is check's and the panel lists the finding at its line and column, the
hover at the word shows the glossary entry (the preferred term bold, the forbidden one
struck through), and the quick fix "Replace with “Passwort” (glossary)" picked from the
Ctrl+. menu puts the word back: the saved file is the original, byte for byte.
Screenshots .artifacts/vscode-terms-{open,problems,hover,menu,fixed}.png.

The word typed in the editor (the second test): VS Code does not pull diagnostics after an
edit (editors/vscode/src/pullOptions.ts), so the squiggle appears only because the server asks
it to pull (workspace/diagnostic/refresh) once the edit changed the file's diagnostics
(server/segdocs/docs.py, ``_push_later``); the quick fix then takes it away the same way."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from bleu_ls.cli.check import main as check_main

from .conftest import ARTIFACTS, HERE, editor_env
from .test_neovim_terms import FIX_TITLE, NEW, OLD, PO, edit_place, terms_workspace
from .test_vscode import CHROMIUM, code_server, vsix  # noqa: F401 (the fixtures)

pytestmark = pytest.mark.editor

SHOTS = ("open", "problems", "hover", "menu", "fixed")


def problems_label(text: str, root: Path) -> tuple[str, list[dict]]:
    """The Problems status item's label for ``text`` ("Warnings: W, Infos: I": the kinds present),
    from ``bleu-ls check`` with the workspace's settings; and check's findings (but
    ``unpaired``, which an editor does not list)."""
    path = root.parent / "checked.po"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert check_main([str(path), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err) in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    found = [d for d in pair["diagnostics"] if d["code"] != "unpaired"]
    counts = [(kind, sum(d["severity"] == sev for d in found))
              for kind, sev in (("Errors", "error"), ("Warnings", "warning"), ("Infos", "information"))]
    return ", ".join(f"{kind}: {n}" for kind, n in counts if n), found


def _drive(code_server, tmp_path: Path, shot: str, typed: bool, **waits: str) -> tuple[dict, Path, str, int, int, dict]:
    """The workspace (the catalogue as on disk: the original when ``typed``, else with the
    forbidden word), the driver run; what it saw, the catalogue, its original text, the
    place, and check's finding on the word."""
    ws = tmp_path / "locale"
    po = terms_workspace(ws)
    (ws / ".vscode").mkdir()
    (ws / ".vscode" / "settings.json").write_text(json.dumps({"workbench.colorTheme": "Default Dark Modern"}), encoding="utf-8")
    text = po.read_text(encoding="utf-8")
    k, col = edit_place(text)
    lines = text.split("\n")
    lines[k] = lines[k][:col] + NEW + lines[k][col + len(OLD):]
    flagged = "\n".join(lines)
    want_open, found_open = problems_label(text, ws)
    want_flagged, found_flagged = problems_label(flagged, ws)
    [new] = [d for d in found_flagged if d not in found_open]
    assert (new["code"], new["line"] - 1, new["column"] - 1, new["endColumn"] - 1) == ("term-forbidden", k, col, col + len(NEW))
    if not typed:
        po.write_text(flagged, encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / f"vscode-{shot}.json"
    out.unlink(missing_ok=True)
    env = editor_env({
        "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={ws}", "BLEU_FILE": po.name, "BLEU_PATH": str(po),
        "BLEU_EDIT_LINE": str(k), "BLEU_EDIT_COL": str(col), "BLEU_EDIT_LEN": str(len(OLD)),
        "BLEU_EDIT_TEXT": NEW if typed else "", "BLEU_FLAGGED_WORD": NEW, "BLEU_FIXED_WORD": OLD,
        "BLEU_WANT_OPEN": want_open if typed else want_flagged, "BLEU_WANT_FLAGGED": want_flagged, "BLEU_WANT_FIXED": want_open,
        "BLEU_FILTER": "term-forbidden", "BLEU_FIX_TITLE": FIX_TITLE, "BLEU_OUT": str(out), "BLEU_CHROMIUM": CHROMIUM,
        **{f"BLEU_SHOT_{s.upper()}": str(ARTIFACTS / f"vscode-{shot}-{s}.png") for s in (*SHOTS, "edit", "error")},
        **waits,
    })
    proc = subprocess.run(["node", str(HERE / "vscode_terms_driver.mjs")], cwd=HERE, env=env, capture_output=True,
                          text=True, timeout=900)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    assert r["openReady"], (r["problemsOpen"], "\n".join(r["events"]))
    return r, po, text, k, col, new


def _flagged_explained_and_fixed(r: dict, po: Path, text: str, k: int, col: int, new: dict) -> None:
    events = "\n".join(r["events"])
    lines = text.split("\n")
    # the squiggle under exactly the word
    assert r["flagged"]["text"] == lines[k][:col] + NEW + lines[k][col + len(OLD):]
    [sq] = r["flagged"]["squiggles"]
    assert "squiggly-warning" in sq["cls"]
    word = r["flagged"]["wordBox"]
    assert abs(sq["left"] - word["left"]) < 1.5 and abs(sq["right"] - word["right"]) < 1.5, (sq, word)
    # the Problems panel: the finding at its line and column, with check's message
    assert r["problemRows"], "the Problems panel, filtered to term-forbidden, listed nothing"
    rows = [t for label, t in r["problemRows"] if not label.endswith("of folder .")]
    assert rows == [f"{new['message']}bleu-lsterm-forbidden[Ln {k + 1}, Col {col + 1}]"], r["problemRows"]
    # the hover: the glossary entry as rendered Markdown
    assert r["hoverShown"], events
    assert "Password → Passwort (preferred), Kennwort (forbidden) · glossary.csv — the product's word" in r["hover"], r["hover"]
    assert new["message"] in r["hover"], r["hover"]  # the finding, in the segment's hover
    assert "Passwort" in r["hoverStrong"] and r["hoverStruck"] == ["Kennwort"], (r["hoverStrong"], r["hoverStruck"])
    assert "**" not in r["hover"] and "~~" not in r["hover"]
    # the quick fix from the Ctrl+. menu: the word back, and saved, the file is the original
    assert [m for m in r["menu"] if FIX_TITLE in m], r["menu"]
    assert r["fixedText"] and r["fixed"]["text"] == lines[k], (r["fixed"], events)
    assert r["saved"], events
    assert po.read_bytes() == PO.read_bytes()


def test_vscode_forbidden_term_in_a_catalogue_squiggle_problems_hover_and_quick_fix(code_server, tmp_path: Path) -> None:
    r, po, text, k, col, new = _drive(code_server, tmp_path, "terms", typed=False, BLEU_FIX_WAIT_MS="1")
    # opened: the count check gives for the file with the word
    assert r["problemsFlagged"] == r["problemsOpen"]
    _flagged_explained_and_fixed(r, po, text, k, col, new)
    for s in SHOTS:
        assert (ARTIFACTS / f"vscode-terms-{s}.png").stat().st_size > 10_000, s


def test_vscode_typed_forbidden_term_is_flagged_and_the_fix_clears_it(code_server, tmp_path: Path) -> None:
    r, po, text, k, col, new = _drive(code_server, tmp_path, "terms-typed", typed=True, BLEU_EDIT_WAIT_MS="60000")
    assert r["edited"]["text"] == text.split("\n")[k].replace(OLD, NEW)  # typed
    assert r["editedReady"], (r["problemsEdited"], r["edited"])
    _flagged_explained_and_fixed(r, po, text, k, col, new)
    assert r["findingGone"], (r["problemsFixed"], r["fixed"])
