"""Whatever the bytes, a glossary read gives an answer: no exception, no internal error, sentences naming the file."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_ls.formats.glossary.read import read_glossary_bytes

DATA = Path(__file__).resolve().parents[2] / "data" / "terms"
REAL = (DATA / "okapi-ibm_tbx.tbx").read_bytes()
CSV = "en,de-DE,status,note\r\nfile,Datei,,\r\nfolder,\"Ordner, Mappe\",admitted,\"x\"\"y\"\r\nGitHub,,dnt,\r\n".encode()


def _calm(g, name):
    assert all(isinstance(p, str) and p.startswith(f"{name}: ") for p in g.problems)
    assert not any("internal error" in p for p in g.problems), g.problems
    if g.problems and g.problems[-1].endswith("the glossary is not used"):
        assert g.concepts == [] and len(g.problems) == 1
    for c in g.concepts:
        assert c.terms and all(t.text and t.text == t.text.strip() and t.line >= 1 for t in c.terms)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=300), name=st.sampled_from(["g.tbx", "g.csv", "g.tsv", "g.txt", "g"]))
def test_random_bytes(data, name):
    _calm(read_glossary_bytes(data, name), name)


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(0, len(REAL)), at=st.integers(0, len(REAL) - 1), byte=st.integers(0, 255))
def test_a_real_tbx_cut_or_with_one_byte_changed(cut, at, byte):
    _calm(read_glossary_bytes(REAL[:cut], "ibm.tbx"), "ibm.tbx")
    changed = REAL[:at] + bytes([byte]) + REAL[at + 1:]
    _calm(read_glossary_bytes(changed, "ibm.tbx"), "ibm.tbx")


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(0, len(CSV)), at=st.integers(0, len(CSV) - 1), byte=st.integers(0, 255))
def test_a_csv_cut_or_with_one_byte_changed(cut, at, byte):
    _calm(read_glossary_bytes(CSV[:cut], "g.csv"), "g.csv")
    changed = CSV[:at] + bytes([byte]) + CSV[at + 1:]
    _calm(read_glossary_bytes(changed, "g.csv"), "g.csv")


def test_crlf_csv_reads_with_its_lines():
    g = read_glossary_bytes(CSV, "g.csv")
    assert g.problems == []
    assert [(c.line, [t.text for t in c.terms], c.note) for c in g.concepts] == [
        (2, ["file", "Datei"], None), (3, ["folder", "Ordner, Mappe"], 'x"y'), (4, ["GitHub"], None)]
