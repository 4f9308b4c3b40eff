"""Format detection, reading with clear errors, line files as segments."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_ls.engine import InputError, read_lines
from bleu_ls.formats import detect_format, read_document, read_documents
from bleu_ls.formats.lines import lines_document
from bleu_ls.formats.model import LINES, PO, SRT, TMX, VTT, XLIFF1

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "name, head, fmt",
    [
        ("a.po", b"", PO), ("a.POT", b"", PO), ("a.xlf", b"", XLIFF1), ("a.xliff", b"", XLIFF1),
        ("a.sdlxliff", b"", XLIFF1), ("a.tmx", b"", TMX), ("a.srt", b"", SRT), ("a.vtt", b"", VTT),
        ("a.txt", b"", LINES), ("a.hyp", b"<xliff", LINES), ("noext", b"", LINES),
        ("a.xml", b'<?xml version="1.0"?>\n<xliff version="1.2">', XLIFF1),
        ("a.xml", b'<?xml version="1.0"?><tmx version="1.4">', TMX),
        ("a.xml", "<?xml version='1.0' encoding='utf-16'?><xliff>".encode("utf-16"), XLIFF1),
        ("a.xml", b"<root/>", LINES),
    ],
)
def test_detect_format(name, head, fmt):
    assert detect_format(name, head) == fmt


@pytest.mark.parametrize(
    "text",
    ["", "a\n", "a", "a \nb\t\n\nc", "x\r\ny\r\n", "  lead\n\n\n", "é ü\nsecond line  "],
)
def test_line_file_segments_are_read_lines(tmp_path, text):
    p = tmp_path / "f.txt"
    p.write_bytes(text.encode("utf-8"))
    doc = read_document(p)
    assert doc.format == LINES and doc.problems == []
    assert doc.targets() == read_lines(str(p))
    assert doc.keys() == [str(i + 1) for i in range(len(doc.segments))]
    for i, seg in enumerate(doc.segments):
        assert seg.line == i
        assert text[seg.target_span[0]:seg.target_span[1]] == seg.target
        assert text.split("\n")[i].startswith(seg.target)
    assert lines_document(text).targets() == doc.targets()


def test_line_files_read_as_before(tmp_path):
    assert read_documents([ROOT / "samples" / "news.hyp", ROOT / "samples" / "news.ref"]) is None


def test_missing_and_unsupported_files_are_one_sentence(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_document(tmp_path / "missing.po")
    bad = tmp_path / "bad.po"
    bad.write_bytes(b'msgid "a"\nmsgstr "\xff"\n')
    with pytest.raises(InputError, match=r"bad.po: not UTF-8 text: byte 0xff at line 2"):
        read_document(bad)


def test_a_format_without_its_reader_is_not_supported_yet(tmp_path, monkeypatch):
    from bleu_ls.formats import read as read_mod

    monkeypatch.setitem(read_mod.READERS, TMX, ("no_such_module", ("read_tmx",), "bytes"))
    p = tmp_path / "a.tmx"
    p.write_text("<tmx/>", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_document(p)
    assert str(exc.value) == f"{p}: TMX files are not supported yet by this version of bleu-ls"


def test_a_folder_or_missing_file_is_said_before_formats(tmp_path):
    po = tmp_path / "a.po"
    po.write_text('msgid "a"\nmsgstr "b"\n', encoding="utf-8")
    with pytest.raises(InputError, match="is a folder, not a file"):
        read_documents([po, tmp_path])
    with pytest.raises(InputError, match="no such file"):
        read_documents([tmp_path / "missing.txt", po])
    with pytest.raises(InputError, match="a gettext PO file and .* is a line file"):
        read_documents([po, ROOT / "samples" / "news.ref"])
