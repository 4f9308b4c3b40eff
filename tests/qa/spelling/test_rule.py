"""The ``spelling`` row through the analyser: the language chosen, the user's word list and the
glossaries' terms left out (the list re-read when it changes on disk), the sentence when there
is no dictionary; the word list written only by ``add_word``; after random edits and word-list
rewrites, a long-lived analyser equals a fresh one."""

from __future__ import annotations

import os
import random

import pytest

from bleu_ls.config.settings import Settings
from bleu_ls.engine import PairModel, build_metrics
from bleu_ls.qa.analysis import Analyzer
from bleu_ls.qa.analysis.unreferenced import Unreferenced
from bleu_ls.qa.spelling import dictionary as D
from bleu_ls.qa.spelling import wordlist
from bleu_ls.qa.terms import load

WORDS = frozenset("the file is saved in your folder we open a send it to and was with".split())


@pytest.fixture(autouse=True)
def small_dictionary(monkeypatch):
    """English is the words above (what is known is plain); other languages are not installed."""
    monkeypatch.setattr(D, "_languages", lambda: ["en"])
    monkeypatch.setattr(D, "_read", lambda lang: WORDS)
    D._LOADED.clear()
    yield
    D._LOADED.clear()
    load.forget()


def settings(**spelling) -> Settings:
    return Settings.from_dict({"diagnostics": {"spelling": {"enabled": True, **spelling},
                                               "adequacy": {"enabled": False}, "wrongLanguage": {"enabled": False}}})


def spelling(findings) -> list:
    return [(f.line, f.start_col, f.end_col, f.message) for f in findings if f.code == "spelling"]


def run(s: Settings, targets: list, source=None, names=None) -> list:
    model = Unreferenced(build_metrics(s), list(targets))
    return spelling(Analyzer(s).analyse(model, source, names or {}))


def test_off_by_default_and_found_when_on(tmp_path):
    lines = ["The file is saevd.", "Open the folder."]
    names = {"target_language": "en", "path": str(tmp_path / "a.txt")}
    assert run(Settings(), lines, names=names) == []
    assert run(settings(), lines, names=names) == [
        (0, 12, 17, "“saevd” is not in the en dictionary (nor in your word list).")]


def test_the_language_setting_the_files_then_the_terms_setting(tmp_path):
    lines = ["The file is saevd."]
    path = {"path": str(tmp_path / "a.txt")}
    assert len(run(settings(language="en"), lines, names={**path, "target_language": "de"})) == 1
    got = run(settings(), lines, names={**path, "target_language": "de"})
    assert [(g[0], g[3]) for g in got] == [(0, "Spelling not checked: no dictionary for “de” in pyspellchecker (it has en).")]
    s = Settings.from_dict({"terms": {"targetLanguage": "en"}, "diagnostics": {"spelling": {"enabled": True}}})
    assert len(run(s, lines, names=path)) == 1
    [(line, _a, _b, said)] = run(settings(), lines, names=path)
    assert line == 0 and said.startswith("Spelling not checked: the target language is not known")


def test_the_word_list_is_left_out_and_read_again_when_it_changes(tmp_path):
    doc = tmp_path / "sub" / "a.txt"
    doc.parent.mkdir()
    names = {"target_language": "en", "path": str(doc)}
    s = settings()
    model = Unreferenced(build_metrics(s), ["The kubernetes file is saevd.", "Open kubectl."])
    live = Analyzer(s)
    assert [m for *_x, m in spelling(live.analyse(model, None, names))] == [
        "“kubernetes” is not in the en dictionary (nor in your word list).",
        "“saevd” is not in the en dictionary (nor in your word list).",
        "“kubectl” is not in the en dictionary (nor in your word list)."]
    # the word list of the workspace above the document's folder, case aside
    said = wordlist.add_word(tmp_path / wordlist.RELATIVE, "kubernetes")
    assert said == "Added “kubernetes” to .bleu-ls/words.txt."
    assert (tmp_path / ".bleu-ls" / "words.txt").read_text(encoding="utf-8") == "kubernetes\n"
    got = spelling(live.analyse(model, None, names))
    assert [g[0] for g in got] == [0, 1] and "saevd" in got[0][3]
    assert got == spelling(Analyzer(s).analyse(model, None, names))
    # edited by hand: a comment, a blank line, a word without its final newline
    path = tmp_path / ".bleu-ls" / "words.txt"
    path.write_text("# project words\nkubernetes\n\nKUBECTL", encoding="utf-8")
    os.utime(path, ns=(5_000_000_000_000_000_000,) * 2)
    got = spelling(live.analyse(model, None, names))
    assert [g[0] for g in got] == [0]
    assert wordlist.add_word(path, "saevd") == "Added “saevd” to .bleu-ls/words.txt."
    assert path.read_text(encoding="utf-8") == "# project words\nkubernetes\n\nKUBECTL\nsaevd\n"
    assert wordlist.add_word(path, "Saevd") == "“Saevd” is already in .bleu-ls/words.txt."
    assert spelling(live.analyse(model, None, names)) == []


def test_add_word_refuses_what_is_not_one_word(tmp_path):
    path = tmp_path / wordlist.RELATIVE
    for bad in ("", "  ", "two words"):
        with pytest.raises(wordlist.WordListError, match="one word is needed"):
            wordlist.add_word(path, bad)
    assert not path.exists()  # nothing written
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    with pytest.raises(wordlist.WordListError, match="cannot write"):
        wordlist.add_word(blocked / wordlist.RELATIVE, "word")


def test_glossary_terms_are_left_out(tmp_path):
    g = tmp_path / "glossary.csv"
    g.write_text("en,de,status\nkubelet,Kubelet,\nGitHub,,do-not-translate\n", encoding="utf-8")
    s = Settings.from_dict({"terms": {"files": [str(g)]},
                            "diagnostics": {"spelling": {"enabled": True, "language": "en"}}})
    names = {"source_language": "de", "target_language": "en", "path": str(tmp_path / "a.txt")}
    got = run(s, ["Open the kubelet and saevd it to your github folder."], None, names)
    assert [m.split("”")[0][1:] for *_x, m in got] == ["saevd"]


def test_source_words_are_left_out_in_a_line_file(tmp_path):
    s = settings(language="en")
    model = PairModel(build_metrics(s), ["Open the Kubernetes folder."], [["Open the folder."]])
    got = spelling(Analyzer(s).analyse(model, ["Öffne den Kubernetes-Ordner."], {"path": str(tmp_path / "x")}))
    assert got == []


# -- incremental: a long-lived analyser after random edits equals a fresh one ------------------
SOURCES = ["Open the Kubernetes folder.", "Save the file.", "", "Send it with kubectl."]
TARGETS = ["The file is saevd.", "Open the Kubernetes folder.", "Send it with kubectl.", "",
           "We open your foldr and the fiel.", "The file is saved.", "A fiel, a foldr and a saevd file."]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_edits_and_word_list_rewrites_equal_a_fresh_analysis(tmp_path, seed):
    rng = random.Random(seed)
    s = settings(language="en")
    names = {"path": str(tmp_path / "doc.txt")}
    n = 30
    source = [rng.choice(SOURCES) for _ in range(n)]
    model = Unreferenced(build_metrics(s), [rng.choice(TARGETS) for _ in range(n)])
    live = Analyzer(s)
    assert spelling(live.analyse(model, source, names))
    path = tmp_path / wordlist.RELATIVE
    stamp = 6_000_000_000_000_000_000
    incremental = 0
    for step in range(200):
        if step % 25 == 24:  # the word list rewritten on disk
            path.parent.mkdir(exist_ok=True)
            path.write_text("\n".join(rng.sample(["saevd", "foldr", "fiel", "kubectl"], rng.randint(0, 3))),
                            encoding="utf-8")
            stamp += 1_000_000_000
            os.utime(path, ns=(stamp, stamp))
        start = rng.randrange(model.n_hyp + 1)
        end = min(model.n_hyp, start + rng.randint(0, 2))
        k = rng.randint(0, 2) if rng.random() < 0.3 else end - start
        model.splice_hyp(start, end, [rng.choice(TARGETS) for _ in range(k)])
        source = source[:start] + [rng.choice(SOURCES) for _ in range(k)] + source[end:]
        got = spelling(live.analyse(model, source, names))
        incremental += live.changed is not None
        assert got == spelling(Analyzer(s).analyse(model, list(source), dict(names))), step
    assert incremental > 100
