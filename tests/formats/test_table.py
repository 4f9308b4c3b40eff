"""The format table's rows against the readers and the detection they replace.

Each row's extensions and sniffing are checked against ``read.detect_format``
on the files in tests/data/formats (and small files of the formats that have
none there); each row's reader, text reader, prefix reader and live index give
what a plain read of the file gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_ls.formats import states
from bleu_ls.formats.model import (ANDROID, ARB, FORMATS, JSON, LINES, PO, PROPERTIES, SRT, STRINGS, STRINGSDICT, TMX,
                                   VTT, XCSTRINGS, XLIFF1, XLIFF2, YAML, Segment)
from bleu_ls.formats.read import EXTENSIONS, PATHED, _reader, decode_file, detect_format, read_document, read_prefix
from bleu_ls.formats.table import BY_NAME, ROWS, SNIFFED, Ref, names, row, sniffed

DATA = Path(__file__).resolve().parent.parent / "data" / "formats"
#: the format files (not their notes, licences, nor a project's l10n.yaml kept beside its ARB files)
FILES = sorted(p for p in DATA.rglob("*") if p.is_file() and p.suffix not in (".md", ".yaml") and p.name != "LICENSE")

SRT_TEXT = "1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:04,000\n<i>Bye.</i>\n"


@pytest.fixture
def files(tmp_path) -> list[Path]:
    """The data files, a SubRip file and a line file (tests/data/formats has none of either)."""
    srt = tmp_path / "a.srt"
    srt.write_text(SRT_TEXT, encoding="utf-8")
    txt = tmp_path / "a.txt"
    txt.write_text("one line\nanother line\n", encoding="utf-8")
    return [*FILES, srt, txt]


def _seen(doc) -> list[tuple]:
    return [(s.key, s.target, s.target_span, s.source, s.state) for s in doc.segments]


def test_the_rows_are_the_formats() -> None:
    assert tuple(r.name for r in ROWS) == FORMATS
    assert len(BY_NAME) == len(ROWS)
    assert row("no-such-format") is BY_NAME[LINES]
    exts = [e for r in ROWS for e in r.extensions]
    assert len(exts) == len(set(exts)), "an extension in two rows"
    assert all(e == e.lower() and e.startswith(".") for e in exts)
    assert not set(SNIFFED) & set(exts)


def test_the_data_has_every_format_but_subtitles_srt_and_lines() -> None:
    found = {detect_format(str(p), p.read_bytes()[:4096]) for p in FILES}
    assert found == {PO, XLIFF1, TMX, VTT, JSON, ARB, ANDROID, PROPERTIES, STRINGS, STRINGSDICT, XCSTRINGS, YAML}


def test_extensions_are_the_detection(files) -> None:
    for p in files:
        by_path = next((r.name for r in PATHED if r.paths(p)), None)  # type: ignore[misc]
        by_row = next((r.name for r in ROWS if p.suffix.lower() in r.extensions), LINES)
        assert detect_format(str(p), p.read_bytes()[:4096]) == (by_path or by_row), p
        if by_path is None:
            assert EXTENSIONS.get(p.suffix.lower(), LINES) == by_row


def test_paths_are_the_detection(tmp_path) -> None:
    """Android's strings.xml is known by its folder only: values/ or values-*/; any other .xml never."""
    for folder, fmt in (("values", ANDROID), ("values-de", ANDROID), ("values-b+sr+Latn", ANDROID),
                        ("values-de-rDE", ANDROID), ("layout", LINES), ("valuesx", LINES)):
        assert detect_format(str(tmp_path / "res" / folder / "strings.xml")) == fmt, folder
    assert detect_format(str(tmp_path / "res" / "values" / "colors.xml")) == LINES
    assert detect_format(str(tmp_path / "res" / "values" / "strings.xml.bak")) == LINES


def test_translation_yaml_is_known_by_its_place_only(tmp_path) -> None:
    """Rails' config/locales/ and locales/, Symfony's translations/NAME.<lang>.yaml: translation
    YAML; any other .yml (a compose file, a CI workflow, a .yml whose one root key is a language) never."""
    de_root = b"de:\n  hello: Hallo\n"
    for rel, fmt in (("config/locales/de.yml", YAML), ("config/locales/models/de.yml", YAML),
                     ("app/config/locales/devise.de.yml", YAML), ("locales/de.yml", YAML),
                     ("translations/messages.de.yaml", YAML), ("translations/validators.pt_BR.yml", YAML),
                     ("docker-compose.yml", LINES), (".github/workflows/ci.yml", LINES), ("de.yml", LINES),
                     ("config/database.yml", LINES), ("translations/messages.yaml", LINES),
                     ("config/locales/de.yml.bak", LINES), ("locales/de/x/de.txt", LINES)):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(de_root)
        assert detect_format(str(p), de_root) == fmt, rel


def test_sniffing_is_the_detection(files, tmp_path) -> None:
    """A file of each XML format renamed ``.xml`` is told by the row's markers, as detect_format does."""
    told = set()
    for p in files:
        head = p.read_bytes()[:4096]
        as_xml = tmp_path / (p.stem + ".xml")
        as_xml.write_bytes(p.read_bytes())
        if any(r.paths(p) for r in PATHED):  # type: ignore[misc]  # known by its place, not by its bytes
            continue
        expected = sniffed(head)
        got = detect_format(str(as_xml), head)
        assert got == (expected or LINES), p
        if expected is not None:
            assert any(m in head for m in BY_NAME[expected].sniff)
            assert row(expected).family == row(detect_format(str(p), head)).family
            told.add(expected)
    assert told == {XLIFF1, TMX}
    # UTF-16 with its BOM
    assert sniffed("\ufeff<?xml version='1.0'?><tmx version='1.4'>".encode("utf-16")) == TMX
    assert sniffed(b"<html/>") is None


def test_every_row_reader_reads_as_the_reader(files) -> None:
    for p in files:
        doc = read_document(str(p))
        r = row(doc.format)
        assert r.family == row(detect_format(str(p), p.read_bytes()[:4096])).family
        text = decode_file(str(p), doc.format)
        assert r.text_reader is not None
        again = r.text_reader(text)
        assert again.format == doc.format
        assert _seen(again) == _seen(doc), p
        if r.segmented:
            fn, takes = _reader(doc.format, str(p))
            assert (fn.__module__.rsplit(".", 1)[-1], fn.__name__) == (r.reader_module, r.reader_names[0])
            assert takes == r.reader_takes
            direct = fn(p.read_bytes()) if takes == "bytes" else fn(text)
            assert _seen(direct) == _seen(doc)


def test_every_prefix_reader_reads_the_first_segments(files) -> None:
    for p in files:
        doc = read_document(str(p))
        r = row(doc.format)
        text = decode_file(str(p), doc.format)
        if r.prefix_reader is None:
            assert read_prefix(doc.format, text, 5) is None
            assert not r.segmented
            continue
        whole = read_prefix(doc.format, text, 10**6)
        if doc.problems:
            assert whole is None
            continue
        assert whole is not None and _seen(whole) == _seen(doc)
        part = read_prefix(doc.format, text, 3)
        assert part is not None
        assert _seen(part) == _seen(doc)[: len(part.segments)]


def test_every_live_index_holds_the_read(files) -> None:
    for p in files:
        doc = read_document(str(p))
        r = row(doc.format)
        if not r.segmented:
            continue
        text = decode_file(str(p), doc.format)
        assert r.live_index is not None
        index = r.live_index(r.name, text)
        assert [index.segment(i).key for i in range(len(index))] == [s.key for s in doc.segments], p
        assert [index.segment(i).target for i in range(len(index))] == [s.target for s in doc.segments]
        assert index.format == r.name
        if r.blocks:  # the blank-line indexes read with the row's own reader
            assert r.text_reader is not None


def test_refs_resolve() -> None:
    for r in ROWS:
        for ref in (r.text_reader, r.prefix_reader, r.live_index, r.needs_review, r.target_is_draft,
                    r.fallback):
            if ref is not None:
                assert callable(ref.resolve()), ref
    with pytest.raises(AttributeError):
        Ref("states:no_such_function").resolve()


def test_states_and_drafts_by_the_rows() -> None:
    fuzzy = Segment(key="1", target="x", target_span=(0, 1), line=0, flags=frozenset({"fuzzy"}),
                    extra={"flag_lines": (0,)})
    assert states.needs_review(PO, fuzzy) and not states.needs_review(XLIFF1, fuzzy)
    assert states.actions(PO, fuzzy) == [states.REMOVE_FUZZY]
    assert states.actions(XLIFF1, fuzzy) == []
    tagged = Segment(key="1", target="x", target_span=(0, 1), line=0, state="new", extra={"state_tag": (0, 1)})
    for fmt in (XLIFF1, XLIFF2):
        assert states.actions(fmt, tagged) == [states.MARK_TRANSLATED, states.MARK_FINAL]
    assert states.needs_review(XLIFF1, tagged) and not states.needs_review(XLIFF2, tagged)
    assert states.actions(TMX, tagged) == [] and not states.needs_review(TMX, tagged)
    assert names(draft_flag="fuzzy") == (PO,)
    assert {r.name for r in ROWS if r.target_is_draft is not None} == {PO, XLIFF1}


def test_pairing_by_the_rows() -> None:
    from bleu_ls.formats import match

    assert names(timed=True) == (SRT, VTT)
    assert match.PIECES == frozenset({SRT, VTT})
    # every segment format has a fallback after the exact key but Android and .properties (their keys are
    # names a build refers to: a key is the string or not); JSON's pairs a flat file with a nested one
    assert set(match.FALLBACKS) == {r.name for r in ROWS if r.fallback is not None}
    assert set(match.FALLBACKS) == set(FORMATS) - {LINES, ANDROID, PROPERTIES}
    assert set(match.KEYED) == {SRT, VTT}
    assert not match.KEYED[SRT]("1") and match.KEYED[VTT]("intro") and not match.KEYED[VTT]("#2")
    assert names(ids_decide=True) == (VTT,)
