"""Neovim 0.11, headless: the changed / unmatched word highlights (semantic
tokens) on both paths, Neovim's own engine for small buffers and
bleu_ls.tokens' visible lines for buffers over the limit, against the real
`bleu-ls serve`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import EDITORS, HERE, editor_env
from .test_neovim import INIT_011, RANGE, _large_pair, nvim  # noqa: F401 (nvim: fixture)

pytestmark = pytest.mark.editor

TOKENS_NS = "bleu_ls_semantic_tokens"  # bleu_ls.tokens' extmarks (the visible-lines path)


#: The words in no reference are an opt-in view (off by default): these tests switch it on.
UNMATCHED_ON = "[highlights]\nunmatched = true\n"


def run_tokens_driver(nvim: str, tmp_path: Path, hyp: Path, init: str, extra: dict[str, str]) -> dict:
    init_file = tmp_path / "init.lua"
    init_file.write_text(init.format(path=str(EDITORS / "neovim")), encoding="utf-8")
    out = tmp_path / "tokens.json"
    env = editor_env({
        "BLEU_OUT": str(out), "BLEU_HYP": str(hyp), "BLEU_TIMEOUT_MS": "30000",
        "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"), **extra,
    })
    cmd = [nvim, "--clean", "--headless", "-u", str(init_file), "-c", f"luafile {HERE / 'nvim_tokens.lua'}"]
    proc = subprocess.run(cmd, cwd=hyp.parent, env=env, capture_output=True, text=True, timeout=180)
    assert out.is_file(), f"nvim wrote no result (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in r, r.get("error")
    assert r["attached"] and r["before_ready"] and r["after_ready"], r["messages"]
    return r


def _check_path(r: dict, viewport: bool) -> None:
    """Which engine drew the marks, and what the client asked the server for."""
    marks = r["before"] + r["after"]
    assert marks
    if viewport:
        # bleu_ls.tokens only: Neovim's engine never started, never asked for the whole buffer
        assert r["builtin_active"] is False
        assert r["methods"] and set(r["methods"]) == {RANGE}, r["methods"]
        assert all(m["ns"] == TOKENS_NS for m in marks)
    else:
        assert r["builtin_active"] is True
        assert "textDocument/semanticTokens/full" in r["methods"] and RANGE not in r["methods"], r["methods"]
        assert all(m["ns"] != TOKENS_NS for m in marks)


@pytest.mark.parametrize("path", ["builtin", "viewport"])
def test_neovim_semantic_tokens_mark_changed_and_unmatched_words(nvim: str, tmp_path: Path, path: str) -> None:
    """The edit's new words are bleuChanged extmarks, the words in no
    reference bleuUnmatched ones, at the UTF-8 byte columns of the words;
    both groups link to highlight groups by default.  Both paths: Neovim's
    own engine (a small buffer) and bleu_ls.tokens' visible lines (a buffer
    over vim.g.bleu_ls_viewport_tokens_lines, here 1).  Turning the
    unmatched-word highlights off in the settings removes those marks live."""
    ws = tmp_path / "tok"
    ws.mkdir()
    hyps = ["Grüße aus 😀 Köln", "the cat sat on the mat"]
    refs = ["Grüße aus Köln", "the cat sat on a mat"]
    (ws / "talk.hyp").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (ws / "talk.ref").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (ws / "bleu-ls.toml").write_text(UNMATCHED_ON, encoding="utf-8")
    edited = "the small cat sat on the mat"
    init = ("vim.g.bleu_ls_viewport_tokens_lines = 1\n" if path == "viewport" else "") + INIT_011
    r = run_tokens_driver(nvim, tmp_path, ws / "talk.hyp", init, {
        "BLEU_EDIT_LINE": "1", "BLEU_EDIT_TEXT": edited, "BLEU_TOGGLE_UNMATCHED": "1",
    })
    _check_path(r, path == "viewport")

    def span(line: str, word: str, nth: int = 0) -> tuple[int, int]:
        start = -1
        for _ in range(nth + 1):
            start = line.index(word, start + 1)
        b = len(line[:start].encode("utf-8"))
        return b, b + len(word.encode("utf-8"))

    def words(marks: list[dict], group: str) -> set[tuple[int, int, int]]:
        # Neovim names the groups with the filetype appended: @lsp.type.bleuChanged.mthyp
        return {(m["row"], m["col"], m["end_col"]) for m in marks if m["group"].removesuffix(".mthyp") == group}

    # As opened (the draft): only the words in no reference, at byte columns.
    assert words(r["before"], "@lsp.type.bleuUnmatched") == {(0, *span(hyps[0], "😀")), (1, *span(hyps[1], "the", 1))}
    assert words(r["before"], "@lsp.type.bleuChanged") == set()
    # After the edit: "small" is new (and in no reference), the rest as before.
    assert words(r["after"], "@lsp.type.bleuChanged") == {(1, *span(edited, "small"))}
    assert words(r["after"], "@lsp.typemod.bleuChanged.unmatched") == {(1, *span(edited, "small"))}
    assert words(r["after"], "@lsp.type.bleuUnmatched") == {(0, *span(hyps[0], "😀")), (1, *span(edited, "the", 1))}
    assert r["links"] == {"@lsp.type.bleuChanged": "DiffText", "@lsp.type.bleuUnmatched": "Removed"}
    # highlights.unmatched = false: the changed word stays, nothing says "unmatched" any more
    assert r["toggled_ready"], r["messages"]
    assert words(r["toggled"], "@lsp.type.bleuChanged") == {(1, *span(edited, "small"))}
    assert not [m for m in r["toggled"] if "nmatched" in m["group"]]


_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def _expected_marks(line: str, ref: str, changed: set[int], row: int) -> set[tuple[int, int, int, str]]:
    """From scratch: the marks of ``line`` (UTF-8 byte columns).  A word is
    unmatched when its core (punctuation at its ends stripped) is left over
    after the reference's words are used up, left to right (clipped counts);
    ``changed`` are the indices of the words the edit put in."""
    budget: dict[str, int] = {}
    for w in ref.split():
        k = _EDGE.sub("", w) or w
        budget[k] = budget.get(k, 0) + 1
    out = set()
    for i, m in enumerate(re.finditer(r"\S+", line)):
        k = _EDGE.sub("", m.group()) or m.group()
        unmatched = budget.get(k, 0) == 0
        if not unmatched:
            budget[k] -= 1
        b0 = len(line[: m.start()].encode("utf-8"))
        b1 = b0 + len(m.group().encode("utf-8"))
        if i in changed:
            out.add((row, b0, b1, "@lsp.type.bleuChanged"))
            if unmatched:
                out.add((row, b0, b1, "@lsp.mod.unmatched"))
                out.add((row, b0, b1, "@lsp.typemod.bleuChanged.unmatched"))
        elif unmatched:
            out.add((row, b0, b1, "@lsp.type.bleuUnmatched"))
    return out


def test_neovim_large_buffer_tokens_of_the_visible_lines(nvim: str, tmp_path: Path) -> None:
    """A buffer over the limit (vim.g.bleu_ls_viewport_tokens_lines, here 100;
    the default is 10,000): jump to the middle, edit the line there.  The
    marks in the window are exactly the changed and unmatched words
    (recomputed here from the draft and the reference), nothing is marked
    far from the window, and the client only ever asked for ranges of lines."""
    n = 600
    hyp_path, hyps, refs = _large_pair(tmp_path, n)
    (hyp_path.parent / "bleu-ls.toml").write_text(UNMATCHED_ON, encoding="utf-8")
    line = n // 2
    while len(hyps[line].split()) < 4:
        line += 1
    words = hyps[line].split()
    # replace the second word, add one at the end: no word diff can see it otherwise
    words[1] = "Zwischenwört"
    words.append("Schlußwort")
    edited = " ".join(words)
    changed = {1, len(words) - 1}
    init = "vim.g.bleu_ls_viewport_tokens_lines = 100\n" + INIT_011
    r = run_tokens_driver(nvim, tmp_path, hyp_path, init, {
        "BLEU_EDIT_LINE": str(line), "BLEU_JUMP_LINE": str(line), "BLEU_EDIT_TEXT": edited,
    })
    _check_path(r, viewport=True)
    assert r["line_count"] == n
    top, bottom = r["window"]
    assert top <= line <= bottom and top > 100, r["window"]
    want = set()
    for row in range(top, bottom + 1):
        text = edited if row == line else hyps[row]
        want |= _expected_marks(text, refs[row], changed if row == line else set(), row)
    got = {(m["row"], m["col"], m["end_col"], m["group"].removesuffix(".mthyp"))
           for m in r["after"] if top <= m["row"] <= bottom}
    assert any(g[3] == "@lsp.type.bleuUnmatched" for g in want)
    assert got == want
    # only the lines around the window carry marks, only ranges were asked for
    rows = [m["row"] for m in r["after"]]
    assert min(rows) >= top - 150 and max(rows) <= bottom + 150
    assert r["token_ranges"] and max(b - a for a, b in r["token_ranges"]) < 400
