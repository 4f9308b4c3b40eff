"""The 13a tokens of the batch pass (``ngrams.bleu_token_ids``: the lines of a
chunk joined and split once, each word's tokens from the word cache, the
words of several tokens spread out with numpy) against sacrebleu 2.6's own
``Tokenizer13a``, line for line, on real text (the samples, the raw lines of the format files with their XML
entities) and on adversarial text (every 13a replacement, digits with '.' and
',', unicode, odd whitespace, empty lines, lines of spaces)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_ls.engine.bleu import BleuMetric
from bleu_ls.engine.ngrams import bleu_tokens, clear_caches

ROOT = Path(__file__).resolve().parents[2]
_SACRE = Tokenizer13a()


def sacre(line: str) -> list[str]:
    # what sacrebleu's BLEU tokenizes: the line without trailing white space
    return _SACRE(line.rstrip()).split()


def check(lines: list[str], lowercase: bool = False) -> None:
    metric = BleuMetric(lowercase=lowercase)
    want = [sacre(line.lower() if lowercase else line) for line in lines]
    clear_caches()
    assert bleu_tokens(metric, lines) == want  # a cold cache: every word new
    assert bleu_tokens(metric, lines) == want  # every word known
    half = lines[: len(lines) // 2]
    clear_caches()
    bleu_tokens(metric, half)
    assert bleu_tokens(metric, lines) == want  # some known, some new


def _real_lines() -> list[str]:
    lines: list[str] = []
    for path in sorted((ROOT / "samples").iterdir()) + sorted((ROOT / "tests" / "data" / "formats").rglob("*")):
        if path.is_file():
            try:
                lines += path.read_text(encoding="utf-8").split("\n")
            except UnicodeDecodeError:
                continue
    return lines


def test_real_text():
    lines = _real_lines()
    assert len(lines) > 1000
    assert any("&quot;" in line for line in lines) and any("&amp;" in line for line in lines)
    check(lines)
    check(lines, lowercase=True)


EDGES = [
    "", " ", "   ", "\t", "\u3000 \u00a0", "a", ".", ",", "-", "--", "...", ",,,", ".,.,", "a..", "5..", "..5",
    ".5", "5.", "5,", ",5", "3.5", "1,000.00", "1.000,5", "9-", "9-9", "-9", "a-b", "2020-21", "x--y", "9--",
    "&quot;", "&amp;", "&lt;", "&gt;", "&amp;quot;", "&quot;a&quot;", "&lt;b&gt;bold&lt;/b&gt;", "&", "&am p;",
    "<skipped>", "a<skipped>b", "<skip<skipped>ped>", "&qu<skipped>ot;", "end-\nstart", "a\nb", "-\n", "line-",
    "He said: \"Hi!\" (twice) [ok] {x} <y> a/b a\\b a|b a~b a^b a_b a`b a@b a#b a$b a%b a*b a+b a=b a?b a;b",
    "Zürich, 3.5 km. Naïve café. ١٢٣.٤ ²,³ Ⅻ. 東京. 日本語,テキスト。", "👋🙏.,", "x\u2028y", "a\x1cb\x1dc\x1ed\x1fe",
    "a\x85b", "tab\there", "trailing   ", "   leading", "\x00", "a \x00 b", "a\x00.b", "\x00&quot;\x00",
]


@pytest.mark.parametrize("line", EDGES)
def test_edge_lines_alone(line):
    check([line])


def test_edge_lines_together():
    check(EDGES * 3)


ALPHABET = " \t\n\u00a0\u2028\u3000\x1c\x85a1Z9.,-&;<>\"'()[]{}/:?!@#$%^*_+=|~`\\é東٣²\x00" + "quotampltgskipped"
pieces = st.sampled_from([
    "&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-", "-\n", "\n", "3.5", "1,000", "a.", ".b", ",", "x-y",
    " ", "  ", "..", "9-", "-9", "5.", ".5", "Zürich", "東京", "(", ")", "\"", "'s",
])
line = st.one_of(st.text(alphabet=ALPHABET, max_size=40), st.lists(pieces, max_size=12).map("".join))


@settings(max_examples=300, deadline=None)
@given(st.lists(line, min_size=1, max_size=30))
def test_arbitrary_lines(lines):
    check(lines)
