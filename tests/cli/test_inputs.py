"""The input step every command shares: line files or segment files paired by key,
unequal line counts said in the command's own words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_ls.cli.inputs import LineCounts, read_inputs, read_line_files, read_segments
from bleu_ls.engine import InputError

PO = Path(__file__).resolve().parents[1] / "data" / "formats" / "po"


def write(path: Path, text: str) -> str:
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def test_line_files_are_read_in_order(tmp_path) -> None:
    a = write(tmp_path / "a.hyp", "one\ntwo  \n")
    b = write(tmp_path / "b.ref", "uno\ndos\n")
    inputs = read_inputs([a, b], LineCounts("never said"))
    assert inputs.texts == [["one", "two"], ["uno", "dos"]]
    assert inputs.segments is None and inputs.rows is None


def test_unequal_counts_in_the_commands_words(tmp_path) -> None:
    a = write(tmp_path / "a.hyp", "one\ntwo\n")
    b = write(tmp_path / "b.ref", "uno\n")
    with pytest.raises(InputError) as said:
        read_inputs([a, b], LineCounts("every reference must have one line per hypothesis line"))
    assert str(said.value) == (
        f"line counts differ: {a} has 2 lines, {b} has 1 lines; every reference must have one line per hypothesis line"
    )
    bracketed = LineCounts("every file must have one line per segment", each="{name} has {n}",
                           sentence="line counts differ ({counts}); {rule}")
    with pytest.raises(InputError) as said:
        read_line_files([a, b], bracketed)
    assert str(said.value) == f"line counts differ ({a} has 2, {b} has 1); every file must have one line per segment"
    assert read_inputs([a, b]).texts == [["one", "two"], ["uno"]]  # no counts: no refusal


def test_segments_are_paired_by_key(tmp_path) -> None:
    hyp, ref = str(PO / "allauth-de-2023-10-07.po"), str(PO / "allauth-de-2023-11-03.po")
    inputs = read_inputs([hyp, ref], LineCounts("never said"))
    assert inputs.segments is not None and inputs.rows is inputs.segments.rows
    hyp_texts, ref_texts = inputs.texts
    assert len(hyp_texts) == len(ref_texts) == len(inputs.rows.keys) > 100
    assert inputs.rows.unpaired_hyp  # this catalogue has entries the later one dropped
    assert inputs.rows.unpaired_other  # and the later one has entries of its own
    assert {name for name, _, _ in inputs.rows.unpaired_other} == {ref}
    named = read_inputs([hyp, ref], names=["shown.po"]).rows
    assert named is not None and {name for name, _, _ in named.unpaired_other} == {"shown.po"}


def test_line_files_are_not_read_for_segments(tmp_path) -> None:
    bad = tmp_path / "bad.hyp"
    bad.write_bytes(b"fine\n" + b"\xff" * 10 + b"\n")  # not UTF-8, past the first bytes
    assert read_segments([str(bad)]) is None
    with pytest.raises(InputError, match="not UTF-8"):
        read_inputs([str(bad)])
