"""Pairing: bleu-ls.toml, rules, conventions, the workspace boundary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bleu_ls.config.pairing import PairSpec, find_pair, glob_to_regex, is_hypothesis_like, path_allowed
from bleu_ls.config.workspace import find_workspace_root, load_workspace_config
from bleu_ls.config.settings import Settings


def touch(p: Path, text: str = "x\n") -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def settings_from(root: Path) -> Settings:
    data, problems = load_workspace_config(root)
    assert problems == []
    sp: list[str] = []
    s = Settings.from_dict(data, sp)
    assert sp == []
    return s


# -- bleu-ls.toml -------------------------------------------------------------
def test_config_absent(tmp_path):
    assert load_workspace_config(tmp_path) == ({}, [])


def test_config_camel_case_and_pairs(tmp_path):
    touch(
        tmp_path / "bleu-ls.toml",
        """
conventions = false
[bleu]
tokenize = "intl"
smooth_value = 0.2
max-order = 3
[diagnostics.low_score]
bleu_threshold = 12.5
[[pairs]]
hypothesis = "out/*.de"
references = ["refs/{1}.de"]
source = "src/{1}.en"
options = { bleu = { lowercase = true } }
""",
    )
    data, problems = load_workspace_config(tmp_path)
    assert problems == []
    assert data["bleu"] == {"tokenize": "intl", "smoothValue": 0.2, "maxOrder": 3}
    assert data["diagnostics"]["lowScore"]["bleuThreshold"] == 12.5
    assert data["pairs"][0]["options"] == {"bleu": {"lowercase": True}}
    s = Settings.from_dict(data)
    assert s.bleu.tokenize == "intl" and s.bleu.smooth_value == 0.2 and s.bleu.max_order == 3
    assert s.conventions is False
    assert s.pairs[0].hypothesis == "out/*.de" and s.pairs[0].source == "src/{1}.en"


def test_config_bad_toml_names_the_line(tmp_path):
    touch(tmp_path / "bleu-ls.toml", '[bleu]\ntokenize = "intl"\nsmooth = \n')
    data, problems = load_workspace_config(tmp_path)
    assert data == {}
    assert len(problems) == 1
    assert "not valid TOML" in problems[0] and "line 3" in problems[0]


def test_config_not_utf8(tmp_path):
    (tmp_path / "bleu-ls.toml").write_bytes(b'[bleu]\ntokenize = "\xff"\n')
    data, problems = load_workspace_config(tmp_path)
    assert data == {} and "not UTF-8" in problems[0] and "line 2" in problems[0]


def test_find_workspace_root(tmp_path):
    touch(tmp_path / "bleu-ls.toml", "")
    hyp = touch(tmp_path / "a" / "b" / "x.hyp")
    assert find_workspace_root(hyp) == tmp_path.absolute()
    assert find_workspace_root(hyp.parent) == tmp_path.absolute()


# -- globs --------------------------------------------------------------------
@pytest.mark.parametrize(
    "pattern,path,groups",
    [
        ("out/*.de", "out/news.de", ("news",)),
        ("out/*.de", "out/sub/news.de", None),
        ("**/*.hyp", "a/b/c.hyp", ("a/b/", "c")),
        ("**/*.hyp", "c.hyp", ("", "c")),
        ("sys?/*.txt", "sys1/x.txt", ("1", "x")),
        ("[ab]/*.txt", "a/x.txt", ("x",)),
        ("[!ab]/*.txt", "a/x.txt", None),
        ("out/x.de", "out/x.de", ()),
        ("out/x.de", "out/xyde", None),
    ],
)
def test_glob(pattern, path, groups):
    m = glob_to_regex(pattern).match(path)
    assert (m.groups() if m else None) == groups


# -- rules --------------------------------------------------------------------
def test_rule_with_captures(tmp_path):
    touch(
        tmp_path / "bleu-ls.toml",
        '[[pairs]]\nhypothesis = "out/*.de"\nreferences = ["refs/{1}.de", "refs/{1}.2.de"]\nsource = "src/{1}.en"\n',
    )
    hyp = touch(tmp_path / "out" / "news.de")
    touch(tmp_path / "refs" / "news.de")
    touch(tmp_path / "src" / "news.en")
    s = settings_from(tmp_path)
    spec = find_pair(hyp, s, tmp_path)
    assert spec is not None and spec.origin == "rule"
    assert spec.references == [tmp_path / "refs" / "news.de", tmp_path / "refs" / "news.2.de"]
    assert spec.missing() == [tmp_path / "refs" / "news.2.de"]
    assert spec.source == tmp_path / "src" / "news.en"
    assert is_hypothesis_like(hyp, s, tmp_path)
    assert not is_hypothesis_like(tmp_path / "refs" / "news.de", s, tmp_path)


def test_rule_returns_spec_for_missing_reference(tmp_path):
    s = Settings.from_dict({"pairs": [{"hypothesis": "*.out", "references": ["{stem}.gold"]}]})
    hyp = touch(tmp_path / "a.out")
    spec = find_pair(hyp, s, tmp_path)
    assert spec is not None and spec.references == [tmp_path / "a.gold"]
    assert spec.missing() == [tmp_path / "a.gold"]


def test_rule_placeholders_stem_name_dir(tmp_path):
    s = Settings.from_dict(
        {
            "pairs": [
                {
                    "hypothesis": "**/*.sys",
                    "references": ["{dir}/{stem}.gold", "gold/{name}"],
                    "options": {"bleu": {"tokenize": "intl"}},
                }
            ]
        }
    )
    hyp = touch(tmp_path / "d" / "e" / "run.v2.sys")
    spec = find_pair(hyp, s, tmp_path)
    assert spec.references == [tmp_path / "d" / "e" / "run.v2.gold", tmp_path / "gold" / "run.v2.sys"]
    assert spec.options == {"bleu": {"tokenize": "intl"}}


def test_rule_reference_glob_expands(tmp_path):
    s = Settings.from_dict({"pairs": [{"hypothesis": "*.hyp", "references": ["refs/{1}.*"]}]})
    hyp = touch(tmp_path / "x.hyp")
    touch(tmp_path / "refs" / "x.b")
    touch(tmp_path / "refs" / "x.a")
    spec = find_pair(hyp, s, tmp_path)
    assert spec.references == [tmp_path / "refs" / "x.a", tmp_path / "refs" / "x.b"]


def test_first_rule_wins_and_rules_beat_conventions(tmp_path):
    s = Settings.from_dict(
        {
            "pairs": [
                {"hypothesis": "*.hyp", "references": ["first.ref"]},
                {"hypothesis": "*.hyp", "references": ["second.ref"]},
            ]
        }
    )
    hyp = touch(tmp_path / "x.hyp")
    touch(tmp_path / "x.ref")
    spec = find_pair(hyp, s, tmp_path)
    assert spec.references == [tmp_path / "first.ref"] and spec.origin == "rule"


def test_absolute_rule(tmp_path):
    outside = tmp_path / "outside"
    ws = tmp_path / "ws"
    ref = touch(outside / "refs" / "a.de")
    hyp = touch(ws / "a.de")
    s = Settings.from_dict({"pairs": [{"hypothesis": "*.de", "references": [str(outside / "refs") + "/{1}.de"]}]})
    spec = find_pair(hyp, s, ws)
    assert spec.references == [ref]
    assert path_allowed(ref, ws, s)
    assert not path_allowed(touch(outside / "secret.txt"), ws, s)


def test_rule_needs_root_for_relative_globs(tmp_path):
    s = Settings.from_dict({"pairs": [{"hypothesis": "*.out", "references": ["{stem}.gold"]}]})
    hyp = touch(tmp_path / "a.out")
    assert find_pair(hyp, s, None) is None


def test_rule_bad_capture_index_kept_visible(tmp_path):
    s = Settings.from_dict({"pairs": [{"hypothesis": "*.out", "references": ["{3}.gold"]}]})
    hyp = touch(tmp_path / "a.out")
    spec = find_pair(hyp, s, tmp_path)
    assert spec.references == [tmp_path / "{3}.gold"] and spec.missing()


# -- conventions --------------------------------------------------------------
def test_convention_basic(tmp_path):
    hyp = touch(tmp_path / "news.hyp")
    ref = touch(tmp_path / "news.ref")
    src = touch(tmp_path / "news.src")
    spec = find_pair(hyp, Settings(), tmp_path)
    assert spec == PairSpec(hyp, [ref], src, {}, "convention")


def test_convention_mt_and_consecutive_refs(tmp_path):
    hyp = touch(tmp_path / "a.b.mt")
    touch(tmp_path / "a.b.ref")
    touch(tmp_path / "a.b.ref2")
    touch(tmp_path / "a.b.ref3")
    touch(tmp_path / "a.b.ref5")  # not consecutive: ignored
    spec = find_pair(hyp, Settings(), None)
    assert [p.name for p in spec.references] == ["a.b.ref", "a.b.ref2", "a.b.ref3"]
    assert spec.source is None


def test_convention_ref1(tmp_path):
    hyp = touch(tmp_path / "a.hyp")
    touch(tmp_path / "a.ref1")
    touch(tmp_path / "a.ref2")
    spec = find_pair(hyp, Settings(), tmp_path)
    assert [p.name for p in spec.references] == ["a.ref1", "a.ref2"]


def test_convention_needs_existing_reference(tmp_path):
    hyp = touch(tmp_path / "a.hyp")
    assert find_pair(hyp, Settings(), tmp_path) is None
    assert is_hypothesis_like(hyp, Settings(), tmp_path)


def test_convention_language_suffix(tmp_path):
    hyp = touch(tmp_path / "talk.hyp.de")
    touch(tmp_path / "talk.ref.de")
    touch(tmp_path / "talk.ref2.de")
    src = touch(tmp_path / "talk.src.en")
    spec = find_pair(hyp, Settings(), tmp_path)
    assert [p.name for p in spec.references] == ["talk.ref.de", "talk.ref2.de"]
    assert spec.source == src


def test_convention_language_suffix_source_fallbacks(tmp_path):
    hyp = touch(tmp_path / "t.mt.txt")
    touch(tmp_path / "t.ref.txt")
    src = touch(tmp_path / "t.src.txt")
    assert find_pair(hyp, Settings(), tmp_path).source == src
    src.unlink()
    touch(tmp_path / "t.src.en")
    touch(tmp_path / "t.src.fr")  # two candidates: ambiguous, no source
    assert find_pair(hyp, Settings(), tmp_path).source is None


def test_conventions_off(tmp_path):
    hyp = touch(tmp_path / "a.hyp")
    touch(tmp_path / "a.ref")
    s = Settings(conventions=False)
    assert find_pair(hyp, s, tmp_path) is None
    assert not is_hypothesis_like(hyp, s, tmp_path)


@pytest.mark.parametrize("name", ["a.ref", "a.src", "a.txt", "hyp", "a.hyp.b.c", "a.hypx"])
def test_not_hypothesis_like(tmp_path, name):
    assert not is_hypothesis_like(tmp_path / name, Settings(), tmp_path)


# -- the workspace boundary ---------------------------------------------------
def test_path_allowed_inside_and_outside(tmp_path):
    ws = tmp_path / "ws"
    inside = touch(ws / "d" / "x.ref")
    outside = touch(tmp_path / "x.ref")
    s = Settings()
    assert path_allowed(inside, ws, s)
    assert not path_allowed(outside, ws, s)
    assert not path_allowed(ws / ".." / "x.ref", ws, s)
    assert path_allowed(outside, None, s)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this system")
def test_symlink_out_of_workspace_refused(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    secret = touch(tmp_path / "secret")
    link = ws / "a.ref"
    link.symlink_to(secret)
    assert not path_allowed(link, ws, Settings())


def test_relative_rule_escaping_root_is_refused(tmp_path):
    ws = tmp_path / "ws"
    hyp = touch(ws / "a.hyp")
    ref = touch(tmp_path / "a.gold")
    s = Settings.from_dict({"pairs": [{"hypothesis": "*.hyp", "references": ["../{1}.gold"]}]})
    spec = find_pair(hyp, s, ws)
    assert spec.references == [ref]
    assert not path_allowed(ref, ws, s)


def test_absolute_plain_file_allowed(tmp_path):
    ws = tmp_path / "ws"
    ref = touch(tmp_path / "shared" / "ref.txt")
    s = Settings.from_dict({"pairs": [{"hypothesis": "*.hyp", "references": [str(ref)]}]})
    assert path_allowed(ref, ws, s)
    assert not path_allowed(touch(tmp_path / "shared" / "other.txt"), ws, s)
