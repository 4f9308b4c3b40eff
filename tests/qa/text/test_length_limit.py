"""The ``length-limit`` verdicts (bleu_ls/qa/text/length_limit.py): declared limits counted in
their unit, the ratio to the source with its floor for short sources."""

from __future__ import annotations

import pytest

from bleu_ls.qa.text.length_limit import (BYTES, CHARS, SMALL_SOURCE, Limit, line_finding, measure, over_limit,
                                          over_ratio, verdicts)


def test_characters_are_code_points_not_utf16_units_or_bytes():
    lim = Limit(CHARS, 3, "maxwidth")
    assert measure("a😀é", lim) == 3  # one emoji is one code point (two UTF-16 units, four UTF-8 bytes)
    assert over_limit("a😀é", lim) is None
    v = over_limit("a😀éx", lim)
    assert v is not None and (v.length, v.limit) == (4, 3)
    assert v.message == "The target is 4 characters, the limit is 3 (maxwidth)."


def test_normalisation_changes_the_count_only_where_declared():
    decomposed = "e\u0301"  # é as e + combining accent
    assert measure(decomposed, Limit(CHARS, 9, "slr:sizeRestriction")) == 2
    assert measure(decomposed, Limit(CHARS, 9, "slr:sizeRestriction", normalization="NFC")) == 1
    assert measure("é", Limit(CHARS, 9, "slr:sizeRestriction", normalization="NFD")) == 2


@pytest.mark.parametrize("encoding, text, n", [
    ("utf-8", "Größe", 7),
    ("iso-8859-1", "Größe", 5),
    ("utf-16", "Größe", 10),  # no byte order mark counted
    ("utf-32", "ab", 8),
    ("utf-16", "😀", 4),  # a surrogate pair
    ("iso-8859-1", "€", len("&#8364;")),  # not in Latin-1: the file holds its character reference
    ("windows-1252", "€", 1),
])
def test_bytes_are_counted_in_the_files_encoding(encoding, text, n):
    assert measure(text, Limit(BYTES, 99, "maxbytes", encoding)) == n


def test_an_unknown_encoding_is_not_checked():
    assert measure("abc", Limit(BYTES, 1, "maxbytes", "x-no-such-codec")) is None
    assert over_limit("abc", Limit(BYTES, 1, "maxbytes", "x-no-such-codec")) is None


def test_the_message_names_the_length_the_limit_the_unit_and_where_it_comes_from():
    v = over_limit("Größe", Limit(BYTES, 5, "maxbytes", "utf-8"))
    assert v is not None
    assert v.message == "The target is 7 bytes in UTF-8, the limit is 5 (maxbytes)."
    assert v.data == {"length": 7, "limit": 5, "unit": BYTES, "by": "maxbytes"}
    assert over_limit("x", Limit(CHARS, 0 + 1, "maxwidth")) is None  # at the limit fits


def test_verdicts_keep_the_files_order_and_skip_what_fits():
    lims = (Limit(CHARS, 4, "maxwidth"), Limit(BYTES, 100, "maxbytes"), Limit(BYTES, 5, "maxbytes"))
    got = verdicts("Größe", lims)
    assert [(v.data["by"], v.length, v.limit) for v in got] == [("maxwidth", 5, 4), ("maxbytes", 7, 5)]


def test_the_ratio_compares_characters_with_a_floor_for_short_sources():
    assert SMALL_SOURCE == 10
    # a 2-character source counts as 10: 15 characters fit at 1.5, 16 do not
    assert over_ratio("x" * 15, "OK", 1.5) is None
    v = over_ratio("x" * 16, "OK", 1.5)
    assert v is not None and (v.length, v.limit) == (16, 15)
    assert v.message == "The target is 16 characters, the limit is 15 (maxRatio 1.5 × the source's 2 (counted as 10))."
    # a long source: its own length
    assert over_ratio("y" * 60, "s" * 40, 1.5) is None
    v = over_ratio("y" * 61, "s" * 40, 1.5)
    assert v is not None and v.limit == 60 and v.data["sourceLength"] == 40
    assert v.message == "The target is 61 characters, the limit is 60 (maxRatio 1.5 × the source's 40)."


def test_the_ratio_leaves_out_white_space_at_either_end_and_empty_sources():
    assert over_ratio("  " + "y" * 30 + "  ", "s" * 20, 1.5) is None
    assert over_ratio("y" * 100, "   ", 1.5) is None
    assert over_ratio("y" * 100, "", 1.5) is None


def test_a_line_finding_covers_the_line():
    f = line_finding("y" * 31, "s" * 10, 3.0)
    assert f is not None and f.code == "length-limit" and (f.start_col, f.end_col) == (0, None)
    assert line_finding("y" * 30, "s" * 10, 3.0) is None
