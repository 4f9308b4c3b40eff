"""same_language: BCP 47 tags compared the way glossary terms are looked up."""

from __future__ import annotations

import pytest

from bleu_ls.formats.glossary.model import same_language


@pytest.mark.parametrize("a,b,same", [
    ("de", "de", True),
    ("de", "DE", True),
    ("de", "de-DE", True),
    ("de-DE", "de", True),
    ("de_DE", "de-de", True),
    ("pt_BR", "pt-br", True),
    ("de-AT", "de-DE", False),
    ("pt-BR", "pt-PT", False),
    ("de", "da", False),
    ("en", "eng", False),
    ("zh", "zh-Hans", True),
    ("zh-Hans", "zh-Hant", False),
    ("sr-Latn-RS", "sr", True),
    ("zh-Hans", "zh-Hans-CN", True),
    ("zh_hans_cn", "ZH-Hans", True),
    ("sr-Latn", "sr-Cyrl-RS", False),
    ("de-DE", "de-DE-1996", True),
    ("de-CH", "de-DE-1996", False),
    ("pt", "pt-BR", True),
    ("sr-Latn-RS", "sr-Latn-RS", True),
    ("es-419", "es", True),
    ("*", "ja", True),
    ("fr-CA", "*", True),
    ("", "de", False),
    ("", "", False),
    (" de ", "de", True),
])
def test_same_language(a, b, same):
    assert same_language(a, b) is same
    assert same_language(b, a) is same
