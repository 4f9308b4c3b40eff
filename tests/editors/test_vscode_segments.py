"""VS Code (code-server + headless Chromium) on segment files with their draft inside:
a real PO catalogue's fuzzy entry and an XLIFF 1.2 catalogue's ``mt-suggestion``
target, each edited in place.  The rendered hint equals sacrebleu's label (BLEU
against the reference, HTER = TER(case_sensitive=True) of the draft against the
target), the typed words are styled by the semantic tokens (bold, the extension's
"changed" colour) and nothing else is, the hover shows the draft diff.  Screenshots
.artifacts/vscode-seg-{po,xlf}-{open,edited,hover}.png."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polib
import pytest
import sacrebleu
from sacrebleu.metrics import TER

from .conftest import ARTIFACTS, HERE, editor_env
from .test_vscode import CHROMIUM, code_server, vsix  # noqa: F401 (the fixtures)

pytestmark = pytest.mark.editor

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
#: package.json's colour of a changed word in Default Dark Modern
TEAL = "rgb(140, 248, 247)"


def _label(target: str, ref: str, draft: str) -> str:
    bleu = sacrebleu.sentence_bleu(target, [ref]).score
    hter = TER(case_sensitive=True).sentence_score(draft, [target]).score
    return f"BLEU {bleu:.1f} · HTER {hter:.1f}"


def _drive(code_server, folder: Path, name: str, shot: str, line: int, old: str, new: str, hint_line: int) -> dict:
    (folder / ".vscode").mkdir(exist_ok=True)
    (folder / ".vscode" / "settings.json").write_text(json.dumps({"workbench.colorTheme": "Default Dark Modern", "editor.wordWrap": "on"}), encoding="utf-8")
    content = (folder / name).read_text(encoding="utf-8").split("\n")[line]
    col = len(content[: content.index(old)].encode("utf-16-le")) // 2
    ARTIFACTS.mkdir(exist_ok=True)
    out = ARTIFACTS / f"vscode-seg-{shot}.json"
    out.unlink(missing_ok=True)
    env = editor_env({
        "BLEU_URL": f"http://127.0.0.1:{code_server['port']}/?folder={folder}", "BLEU_FILE": name,
        "BLEU_EDIT_LINE": str(line), "BLEU_EDIT_COL": str(col), "BLEU_EDIT_LEN": str(len(old.encode("utf-16-le")) // 2),
        "BLEU_EDIT_TEXT": new, "BLEU_HINT_LINE": str(hint_line), "BLEU_OUT": str(out), "BLEU_CHROMIUM": CHROMIUM,
        **{f"BLEU_SHOT_{k.upper()}": str(ARTIFACTS / f"vscode-seg-{shot}-{k}.png") for k in ("open", "edit", "hover", "error")},
    })
    proc = subprocess.run(["node", str(HERE / "vscode_segment_driver.mjs")], cwd=HERE, env=env, capture_output=True, text=True, timeout=300)
    assert out.is_file(), proc.stdout + proc.stderr
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r["error"] + "\n" + "\n".join(r["events"])
    assert r["hintsReady"] and r["afterReady"], r
    for k in ("open", "edit", "hover"):
        assert (ARTIFACTS / f"vscode-seg-{shot}-{k}.png").stat().st_size > 10_000
    return r


def _changed(r: dict) -> list[tuple[int, str]]:
    return sorted((s["line"], s["text"].strip()) for s in r["after"]["spans"] if s["bold"] and s["color"] == TEAL)


def test_vscode_po_fuzzy_entry_hint_and_highlight(code_server, tmp_path: Path) -> None:
    hyp_text = (DATA / "po" / "phonenumber-fr-2024.po").read_text(encoding="utf-8")
    (tmp_path / "phone.hyp.po").write_text(hyp_text, encoding="utf-8")
    (tmp_path / "phone.ref.po").write_text((DATA / "po" / "phonenumber-fr-2025.po").read_text(encoding="utf-8"), encoding="utf-8")
    line = hyp_text.split("\n").index('"Saisissez un numéro de téléphone valide, par exemple {example_number}, ou un "')
    r = _drive(code_server, tmp_path, "phone.hyp.po", "po", line, "valide", "correcte", line + 1)
    entry = next(e for e in polib.pofile(hyp_text) if e.fuzzy)
    edited = polib.pofile(hyp_text.replace("téléphone valide,", "téléphone correcte,", 1))
    target = next(e for e in edited if (e.msgctxt, e.msgid) == (entry.msgctxt, entry.msgid)).msgstr
    ref = next(e for e in polib.pofile(str(DATA / "po" / "phonenumber-fr-2025.po")) if (e.msgctxt, e.msgid) == (entry.msgctxt, entry.msgid)).msgstr
    want = _label(target, ref, entry.msgstr)
    assert "HTER" not in r["before"]["line"] and not r["before"]["spans"]
    assert r["after"]["line"].rstrip().endswith(want), (r["after"]["line"], want)
    assert _changed(r) == [(line, "correcte,")]
    assert "HTER" in r["hover"] and "valide, correcte," in r["hover"]  # rendered: ~~valide,~~ **correcte,**


def test_vscode_xliff_mt_suggestion_hint_and_highlight(code_server, tmp_path: Path) -> None:
    final = (DATA / "xliff" / "algorea.fr.final.xlf").read_text(encoding="utf-8")
    text = final.replace('<target state="translated">', '<target state="translated" state-qualifier="mt-suggestion">')
    (tmp_path / "algorea.hyp.xlf").write_text(text, encoding="utf-8")
    (tmp_path / "algorea.ref.xlf").write_text(final, encoding="utf-8")
    draft = "Entrez un titre afin de créer un nouveau contenu"
    line = next(i for i, x in enumerate(text.split("\n")) if draft in x)
    r = _drive(code_server, tmp_path, "algorea.hyp.xlf", "xlf", line, "nouveau contenu", "nouvel élément", line)
    want = _label("Entrez un titre afin de créer un nouvel élément", draft, draft)
    assert "HTER" not in r["before"]["line"] and not r["before"]["spans"]
    assert f"nouvel élément {want}</target>" in r["after"]["line"].replace("  ", " "), (r["after"]["line"], want)
    assert _changed(r) == [(line, "nouvel"), (line, "élément")]
    assert "HTER" in r["hover"] and "nouveau contenu nouvel élément" in r["hover"]


def test_vscode_po_fuzzy_entry_hover_shows_the_source_change(code_server, tmp_path: Path) -> None:
    """A fuzzy entry whose msgid changed since it was translated (``#| msgid "Current
    Password"``): after a word of its msgstr is typed over, the hover shows the hint's numbers,
    the draft diff and what changed in the source, old words struck through and new ones bold.
    Screenshot .artifacts/vscode-seg-po-fuzzy-hover.png."""
    old, new = DATA / "po" / "allauth-de-2023-10-07.po", DATA / "po" / "allauth-de-2023-11-03.po"
    hyp_text = old.read_text(encoding="utf-8")
    (tmp_path / "django.hyp.po").write_text(hyp_text, encoding="utf-8")
    (tmp_path / "django.ref.po").write_text(new.read_text(encoding="utf-8"), encoding="utf-8")
    entry = next(e for e in polib.pofile(hyp_text) if e.msgid == "Incorrect password.")
    assert entry.fuzzy and entry.previous_msgid == "Current Password"
    lines = hyp_text.split("\n")
    line = lines.index('msgid "Incorrect password."') + 1
    assert lines[line] == f'msgstr "{entry.msgstr}"'
    r = _drive(code_server, tmp_path, "django.hyp.po", "po-fuzzy", line, "Aktuelles", "Falsches", line)
    ref = next(e for e in polib.pofile(str(new)) if e.msgid == entry.msgid).msgstr
    want = _label("Falsches Passwort", ref, entry.msgstr)
    assert r["after"]["line"].rstrip().endswith(want), (r["after"]["line"], want)
    assert "Source changed since it was translated" in r["hover"], r["hover"]
    # the rendered diff: the old source and the new one, in that order, after the draft's
    tail = r["hover"][r["hover"].index("Source changed"):]
    assert tail.index("Current Password") < tail.index("Incorrect password."), tail
    assert _changed(r) == [(line, "Falsches")]
