"""read_prefix: the first segments of a text, each exactly as the full read gives it
(the first hints of a large file come from them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_ls.formats.model import PO, SRT, TMX, VTT, XLIFF1
from bleu_ls.formats.read import decode_file, parse, read_prefix

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
FILES = [(PO, "po/allauth-ru-2025-03-27.po"), (PO, "po/allauth-de-2023-10-07.po"), (XLIFF1, "xliff/algorea.fr.final.xlf"),
         (XLIFF1, "xliff/angular.fr.xlf2.xlf"), (TMX, "tmx/sample.tmx"), (VTT, "subtitles/sintel-en.vtt"),
         (VTT, "subtitles/sintel-de.vtt")]


def _facts(segs):
    return [(s.key, s.target, s.target_span, s.line, s.source, s.state, s.runs, dict(s.extra)) for s in segs]


@pytest.mark.parametrize("fmt,name", FILES)
@pytest.mark.parametrize("n", [1, 5, 40, 10_000])
def test_the_prefix_is_the_full_reads_start(fmt, name, n):
    text = decode_file(str(DATA / name), fmt)
    full = parse(fmt, b"", name, text=text).segments
    part = read_prefix(fmt, text, n)
    assert part is not None and not part.problems
    k = len(part.segments)
    assert _facts(part.segments) == _facts(full[:k])
    assert k <= len(full) and (k > 0 or len(full) == 0)


def test_a_po_prefix_cut_inside_a_plural_entry_leaves_the_whole_entry_out():
    entry = 'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "eins"\n\nmsgstr[1] "viele"\n'
    text = 'msgid "a"\nmsgstr "b"\n\n' + "".join(entry.replace("one", f"one {i}") for i in range(400))
    full = parse(PO, b"", "x", text=text)
    read = 0
    for n in range(30, 60):  # cuts at every blank line around 4-7 KB, inside entries and between them
        part = read_prefix(PO, text, n)
        if part is not None:
            read += 1
            assert 0 < len(part.segments) < len(full.segments)
            assert _facts(part.segments) == _facts(full.segments[: len(part.segments)])
    assert read


def test_an_srt_prefix_is_the_full_reads_start():
    cue = "{n}\n00:00:{s:02d},000 --> 00:00:{s:02d},900\n<i>line {n}</i>\r\n  second  \n"
    text = "\ufeff" + "\n".join(cue.format(n=n if n != 7 else 3, s=n % 60) for n in range(1, 90)) + "\n \n\n"
    full = parse(SRT, b"", "x", text=text).segments
    for n in (1, 3, 7, 8, 88, 89, 500):
        part = read_prefix(SRT, text, n)
        assert part is not None and len(part.segments) == min(n, 89)
        assert _facts(part.segments) == _facts(full[: len(part.segments)])


def test_formats_read_whole_or_malformed_prefixes_give_none():
    assert read_prefix("lines", "a\nb\n", 1) is None
    assert read_prefix(SRT, "1\n00:00:01,000 -> 00:00:02,000\nhi\n", 1) is None
    assert read_prefix(XLIFF1, '<xliff version="1.2"><file original="a"><body><trans-unit id="1"><source>a</source><target>b</tar', 1) is None
