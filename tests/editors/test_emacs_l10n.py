"""Software localization files in Emacs, headless (`emacs --batch -Q`), after the user's opt-in
`bleu-ls-enable-localization-files` (docs/editors.md): a file is bleu-ls's by its place, as the
server and Neovim tell them (formats/l10n_paths.py, editors/neovim/lua/bleu_ls/init.lua), and any
other JSON, XML, properties or YAML file keeps its usual mode; a real i18next file opened with its
source-language file beside it gets, through Eglot and Flymake, exactly the diagnostics
`bleu-ls check` gives it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bleu_ls.formats.read import LINES, detect_format

from .conftest import EDITORS, HERE
from .test_emacs import DEBIAN_ELPA, SEVERITY, batch_env, emacs  # noqa: F401  (the fixture)

pytestmark = pytest.mark.editor

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "json" / "excalidraw" / "locales"

#: path -> the mode after the opt-in (None: not bleu-ls's; the usual mode stays)
PLACES = {
    "web/locales/de/app.json": "bleu-ls-l10n-json-mode",
    "web/locales/de.json": "bleu-ls-l10n-json-mode",
    "ext/_locales/de/messages.json": "bleu-ls-l10n-json-mode",
    "app/lib/l10n/app_de.arb": "bleu-ls-l10n-json-mode",
    "ios/Localizable.xcstrings": "bleu-ls-l10n-json-mode",
    "android/res/values-de/strings.xml": "bleu-ls-l10n-xml-mode",
    "ios/de.lproj/Localizable.stringsdict": "bleu-ls-l10n-xml-mode",
    "ios/de.lproj/Localizable.strings": "bleu-ls-l10n-text-mode",
    "java/src/messages_de.properties": "bleu-ls-l10n-properties-mode",
    "rails/config/locales/de.yml": "bleu-ls-l10n-text-mode",
    "package.json": None,
    "web/src/settings.json": None,
    "pom.xml": None,
    "android/res/layout/main.xml": None,
    "gradle.properties": None,
    "docker-compose.yml": None,
    "ios/Base/Localizable.strings": None,
}


def _modes(emacs: str, tmp_path: Path, enable: bool) -> dict[str, str]:
    d = tmp_path / ("on" if enable else "off")
    for rel in PLACES:
        f = d / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("{}\n" if rel.endswith((".json", ".arb", ".xcstrings")) else "x\n", encoding="utf-8")
    files = " ".join(f'"{r}"' for r in PLACES)
    code = (
        f"(progn (require 'package) (add-to-list 'package-directory-list \"{DEBIAN_ELPA}\") (package-initialize)"
        f' (load "{EDITORS / "emacs" / "bleu-ls.el"}" nil t)'
        + (" (bleu-ls-enable-localization-files)" if enable else "")
        + f" (dolist (f '({files}))"
        f'   (with-current-buffer (find-file-noselect (expand-file-name f "{d}"))'
        '     (princ (format "%s %s\\n" f major-mode)))))'
    )
    out = subprocess.run([emacs, "--batch", "-Q", "--eval", code], capture_output=True, text=True, timeout=60,
                         env=batch_env(tmp_path, {}))
    modes = dict(line.split() for line in out.stdout.splitlines() if line.strip())
    assert set(modes) == set(PLACES), out.stderr
    return modes


def test_localization_files_are_known_by_their_place(emacs: str, tmp_path: Path) -> None:
    before = _modes(emacs, tmp_path, enable=False)
    after = _modes(emacs, tmp_path, enable=True)
    for rel, want in PLACES.items():
        assert not before[rel].startswith("bleu-ls"), rel  # nothing changes without the opt-in
        assert after[rel] == (want or before[rel]), rel  # the others keep the mode Emacs gives them


def test_the_places_are_the_servers() -> None:
    """Every file the opt-in gives bleu-ls is one the server reads as a localization file; of the
    others, those the server would read so by their extension alone (gradle.properties, a Base.lproj
    .strings) are left to the user, as in Neovim and VS Code."""
    for rel, want in PLACES.items():
        fmt = detect_format("/w/" + rel)
        if want is not None:
            assert fmt != LINES, rel
        elif rel.endswith((".json", ".yml", ".xml")):
            assert fmt == LINES, rel


def test_a_localization_json_in_eglot_gets_checks_diagnostics(emacs: str, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "locales" / "en").mkdir(parents=True)
    # a project, as a real one is (Eglot's root is its project's; a file outside any project has
    # its own folder as the root, and the server reads no file outside the root: locales/en)
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / "locales" / "de").mkdir(parents=True)
    shutil.copyfile(DATA / "en.json", ws / "locales" / "en" / "app.json")
    de = ws / "locales" / "de" / "app.json"
    shutil.copyfile(DATA / "de-DE.json", de)
    # the encoder's values come late in a batch session; the checks of the file are the point here
    (ws / "bleu-ls.toml").write_text("[diagnostics.adequacy]\nenabled = false\n", encoding="utf-8")
    env = batch_env(tmp_path, {})
    check = subprocess.run(["bleu-ls", "check", "--format", "json", "--fail-on", "never", str(de)],
                           cwd=ws, env=env, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    # (check's "unpaired" says the file has no reference to be scored against; the editor says so
    # in its hover and status, not as a diagnostic: tests/e2e/test_l10n_json.py)
    want = [d for p in json.loads(check.stdout)["pairs"] for d in p["diagnostics"] if d["code"] != "unpaired"]
    assert {"target-empty", "untranslated"} <= {d["code"] for d in want}
    out = tmp_path / "emacs-l10n.json"
    env.update({"BLEU_LS_EL": str(EDITORS / "emacs" / "bleu-ls.el"), "BLEU_HYP": str(de), "BLEU_OUT": str(out),
                "BLEU_EXPECT_N": str(len(want)), "BLEU_L10N": "1", "BLEU_TIMEOUT_S": "120"})
    proc = subprocess.run([emacs, "--batch", "-Q", "-l", str(HERE / "emacs_driver.el")], cwd=ws, env=env,
                          capture_output=True, text=True, timeout=180)
    assert out.is_file(), f"emacs wrote no result (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, f"{r['error']}\n{r.get('events', '')}"
    assert r["mode"] == "bleu-ls-l10n-json-mode" and r["server_program"] == "bleu-ls"
    got = sorted((d["line"], d["code"], d["severity"], d["column"]) for d in r["diagnostics"])
    exp = sorted((d["line"], d["code"], SEVERITY[d["severity"]], d["column"]) for d in want)
    assert [g[:3] for g in got] == [e[:3] for e in exp]
    for g, e in zip(got, exp):
        # an empty value's finding is an empty range between its quotes; Eglot shows an empty
        # range as the thing at point (flymake-diag-region): the string, from its opening quote
        assert g[3] == e[3] or (g[1] == "target-empty" and g[3] == e[3] - 1), (g, e)
