"""Apple .strings / .stringsdict / String Catalogs and Rails YAML through the real server: a
hypothesis file paired with its reference gets one hint per paired key at the end of its value
(after the closing quote of a quoted .strings value), labelled with sacrebleu's sentence BLEU of the
two values; a file opened alone lists what ``bleu-ls check`` lists for it."""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu

from bleu_ls.formats.apple_strings import read_strings
from bleu_ls.formats.l10n_yaml import read_yaml
from bleu_ls.formats.model import line_col

from .conftest import _close, _session, eventually
from .test_lone_files import checked, settled

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
STRINGS_NOW = DATA / "apple" / "sparkle" / "de.lproj" / "Sparkle.strings"
STRINGS_BEFORE = DATA / "apple" / "sparkle-previous" / "de.lproj" / "Sparkle.strings"
YAML_NOW = DATA / "yaml" / "activeadmin" / "config" / "locales" / "de.yml"
YAML_BEFORE = DATA / "yaml" / "activeadmin-previous" / "config" / "locales" / "de.yml"


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def expected_hints(hyp_text: str, ref_text: str, read, after_quote: bool) -> list[tuple[int, int, str]]:
    hyp, ref = read(hyp_text), read(ref_text)
    refs = {s.key: s.target for s in ref.segments}
    out = []
    for s in hyp.segments:
        if s.key not in refs:
            continue
        end = s.target_span[1] + (1 if after_quote and hyp_text.startswith('"', s.target_span[1]) else 0)
        line, col = line_col(hyp_text, end)
        start = hyp_text.rfind("\n", 0, end) + 1
        out.append((line, utf16(hyp_text[start:end]), f"BLEU {sacrebleu.sentence_bleu(s.target, [refs[s.key]]).score:.1f}"))
    return out


@pytest.mark.parametrize("hyp_src, ref_src, names, read, after_quote", [
    (STRINGS_BEFORE, STRINGS_NOW, ("de.lproj/Sparkle.hyp.strings", "de.lproj/Sparkle.ref.strings"), read_strings, True),
    (YAML_BEFORE, YAML_NOW, ("config/locales/de.hyp.yml", "config/locales/de.ref.yml"), read_yaml, False),
])
async def test_a_pair_gets_a_hint_per_paired_key(tmp_path, hyp_src, ref_src, names, read, after_quote):
    s = await _session("vscode", tmp_path)
    try:
        hyp_text, ref_text = hyp_src.read_text(encoding="utf-8"), ref_src.read_text(encoding="utf-8")
        s.write(names[1], ref_text)
        s.write(names[0], hyp_text)
        uri = s.open(names[0], hyp_text)
        want = expected_hints(hyp_text, ref_text, read, after_quote)
        assert len(want) > 40
        hints = await eventually(lambda: s.hints(uri), timeout=30)
        got = [(h.position.line, h.position.character, h.label) for h in hints]
        assert got == want
    finally:
        await _close(s)


async def test_each_real_file_alone_lists_what_check_lists(tmp_path):
    s = await _session("vscode", tmp_path)
    try:
        opened = []
        for src, name in ((STRINGS_NOW, "de.lproj/Localizable.strings"),
                          (DATA / "apple" / "tethys" / "en.lproj" / "Localizable.stringsdict", "en.lproj/Plurals.stringsdict"),
                          (DATA / "apple" / "maccy" / "Localizable.xcstrings", "Localizable.xcstrings"),
                          (YAML_NOW, "config/locales/de.yml")):
            text = src.read_text(encoding="utf-8")
            path = s.write(name, text)
            opened.append((name, s.open(name, text), checked(path)))
        for label, uri, want in opened:
            got = await settled(s, uri, want)
            assert got == want, (label, sorted(want - got)[:8], sorted(got - want)[:8])
        assert any(want for _l, _u, want in opened)
    finally:
        await _close(s)
