"""`bleu-ls check` of a segment file places every finding at its line and column in the
file with work that grows with the file, not with the file times its findings: at 100,000
units a count of the lines before each finding (``str.count`` from the file's start, as
``line_col`` does without line starts) never finished.  Held here by the work done, not by
a clock: the characters a placement scans, at n and 2n units."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import bleu_ls.cli.check.one_pair as one_pair
from bleu_ls.cli.check import main
from bleu_ls.formats.model import line_col

WORDS = "the house is small and the garden was green when we came home late".split()


def _targets(n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        src = " ".join(rng.choice(WORDS) for _ in range(7))
        tgt = f"{rng.choice(WORDS)} {' '.join(rng.choice(WORDS) for _ in range(5))} {i}"
        if i % 3 == 0 and seed == 1:  # (not in the reference, which would excuse it)
            tgt = f"das das {tgt}"  # a doubled word: a finding with a start and an end
        out.append((f"{src} {i}", tgt))
    return out


def xlf(n: int, seed: int = 1) -> str:
    units = "\n".join(f'      <trans-unit id="u{i}">\n        <source>{s}</source>\n        <target>{t}</target>\n'
                      "      </trans-unit>" for i, (s, t) in enumerate(_targets(n, seed)))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            '  <file original="app" source-language="en" target-language="de" datatype="plaintext">\n    <body>\n'
            f"{units}\n    </body>\n  </file>\n</xliff>\n")


def po(n: int, seed: int = 1) -> str:
    entries = "".join(f'#: app.py:{i}\nmsgid "{s}"\nmsgstr "{t}"\n\n' for i, (s, t) in enumerate(_targets(n, seed)))
    return f'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n{entries}'


def tmx(n: int, seed: int = 1) -> str:
    tus = "".join(f'    <tu tuid="{i}">\n      <tuv xml:lang="en"><seg>{s}</seg></tuv>\n'
                  f'      <tuv xml:lang="de"><seg>{t}</seg></tuv>\n    </tu>\n' for i, (s, t) in enumerate(_targets(n, seed)))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header creationtool="t" segtype="sentence" '
            'o-tmf="none" adminlang="en" srclang="en" datatype="plaintext"/>\n  <body>\n' f"{tus}  </body>\n</tmx>\n")


MAKERS = {"xlf": xlf, "po": po, "tmx": tmx}


def _scanned(monkeypatch, tmp_path: Path, ext: str, n: int, paired: bool) -> tuple[int, int, int]:
    """One ``check`` of an n-unit file: (characters its placements scanned, placements, diagnostics printed)."""
    folder = tmp_path / f"{ext}-{n}-{paired}"
    folder.mkdir()
    (folder / "bleu-ls.toml").write_text("[diagnostics.adequacy]\nenabled = false\n", encoding="utf-8")
    hyp = folder / f"big.hyp.{ext}"
    hyp.write_text(MAKERS[ext](n), encoding="utf-8")
    if paired:
        (folder / f"big.ref.{ext}").write_text(MAKERS[ext](n, seed=2), encoding="utf-8")
    work = {"chars": 0, "calls": 0}

    def counted(text, offset, line_starts=None):
        work["calls"] += 1
        # without line starts the lines before `offset` are counted: `offset` characters read
        work["chars"] += offset if line_starts is None else max(len(line_starts), 1).bit_length()
        return line_col(text, offset, line_starts)

    monkeypatch.setattr(one_pair, "line_col", counted)
    out, err = io.StringIO(), io.StringIO()
    assert main([str(hyp), "--fail-on", "never"], out=out, err=err) == 0, err.getvalue()
    printed = sum(1 for line in out.getvalue().splitlines() if line.startswith(str(hyp) + ":"))
    return work["chars"], work["calls"], printed


@pytest.mark.parametrize("ext,paired", [("xlf", False), ("po", False), ("tmx", False), ("xlf", True)])
def test_placing_the_findings_grows_with_the_file(monkeypatch, tmp_path, ext, paired) -> None:
    n = 150
    chars1, calls1, printed1 = _scanned(monkeypatch, tmp_path, ext, n, paired)
    chars2, calls2, printed2 = _scanned(monkeypatch, tmp_path, ext, 2 * n, paired)
    assert printed1 >= n // 4 and printed2 >= 2 * (n // 4)  # a finding on one unit in four at least
    assert calls1 >= printed1 - 1  # every diagnostic placed (the file's first-line `unpaired` is not)
    # twice the units, about twice the findings and placements (random text doubles a word here and there)
    assert calls2 <= 2.6 * calls1
    # and a placement costs about the same in a file twice as long (counting the lines before it: twice as much)
    assert chars2 / calls2 <= 1.3 * chars1 / calls1, (chars1, calls1, chars2, calls2)


@pytest.mark.parametrize("text", ["", "a", "\n", "ab\n", "ab\ncd", "ab\n\ncd\n", "é\r\nü\n\nx", "\n\n\n"])
def test_line_starts_place_every_offset_as_counting_does(text) -> None:
    starts = one_pair.line_starts(text.split("\n"))
    assert len(starts) == text.count("\n") + 1
    for offset in range(len(text) + 1):
        assert line_col(text, offset, starts) == line_col(text, offset)
