"""`bleu-ls check` on a file with no reference: a PO, XLIFF, TMX or subtitle
file alone, or a line file with only its source, gets every check that does
not need a reference (the rule table's rows without ``needs_reference`` and
the file's own format checks); ``--fail-on`` counts them."""

from __future__ import annotations

import io
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import polib
import pytest
import sacrebleu

from bleu_ls.qa.rules import REFERENCE_CODES
from bleu_ls.cli.check import main
from bleu_ls.formats.read import read_documents

FORMATS = Path(__file__).resolve().parents[2] / "data" / "formats"
ALLAUTH = FORMATS / "po" / "allauth-de-2023-10-07.po"

#: real files and the file that stands as their reference (a later revision, the
#: post-edit; or the file itself)
REAL = [
    ("po/allauth-de-2023-10-07.po", "po/allauth-de-2023-11-03.po"),
    ("po/allauth-ru-2025-03-27.po", "po/allauth-ru-2025-04-29.po"),
    ("po/phonenumber-fr-2024.po", "po/phonenumber-fr-2025.po"),
    ("xliff/algorea.fr.draft.xlf", "xliff/algorea.fr.final.xlf"),
    ("xliff/modernflyouts.de.mt.xlf", "xliff/modernflyouts.de.postedit.xlf"),
    ("xliff/modernflyouts.ko.mt.xlf", "xliff/modernflyouts.ko.postedit.xlf"),
    ("xliff/angular.fr.xlf2.xlf", "xliff/angular.fr.xlf2.xlf"),
    ("xliff/files.de-DE.codes.xlf", "xliff/files.de-DE.codes.xlf"),
    ("tmx/sample.tmx", "tmx/sample.tmx"),
    ("tmx/mixed-languages.tmx", "tmx/mixed-languages.tmx"),
    ("subtitles/sintel-de.vtt", "subtitles/sintel-de.vtt"),
]
#: the codes whose verdict a reference can change when there is one (it keeps the
#: source, shares the number, is in the same other language…): alone they may
#: say what a reference would have excused
REFERENCE_INFORMED = {"untranslated", "number-mismatch", "markup-mismatch", "unbalanced", "end-punctuation",
                      "wrong-language", "repetition", "doubled-word"}
#: ranked differently with a reference (similarity and chrF) than without (similarity alone)
RANKED_OTHERWISE = {"adequacy"}


def check(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out=out, err=err)
    return rc, out.getvalue(), err.getvalue()


def checked(path: Path, *flags: str) -> tuple[int, dict]:
    rc, out, err = check(str(path), "--format", "json", *(flags or ("--no-config",)))
    assert rc in (0, 1), err
    [pair] = json.loads(out)["pairs"]
    return rc, pair


def found(pair: dict) -> set:
    return {(d["line"], d["code"]) for d in pair["diagnostics"]}


@pytest.mark.parametrize("hyp, ref", REAL, ids=[h for h, _ in REAL])
def test_a_file_alone_gets_every_check_that_needs_no_reference(tmp_path, monkeypatch, hyp, ref):
    """The same (line, code) set as with a reference paired, less the codes
    that need one; what differs is only what a reference decides: a verdict
    it excused (alone, it stands), ``target-same-as-source`` said as
    ``untranslated`` alone, and segments the pair did not score (an empty or
    missing reference target)."""
    monkeypatch.chdir(tmp_path)
    ext = Path(hyp).suffix
    alone_path = tmp_path / f"alone{ext}"
    shutil.copy(FORMATS / hyp, alone_path)
    shutil.copy(FORMATS / hyp, tmp_path / f"x.hyp{ext}")
    shutil.copy(FORMATS / ref, tmp_path / f"x.ref{ext}")
    # adequacy (ranked otherwise with a reference: compared below as it runs alone) left out here
    config = tmp_path / "qa.toml"
    config.write_text("[diagnostics.adequacy]\nenabled = false\n", encoding="utf-8")
    _rc, alone = checked(alone_path, "--config", str(config))
    _rc, paired = checked(tmp_path / f"x.hyp{ext}", "--config", str(config))
    assert paired["paired"] and not alone["paired"]
    a, p = found(alone), found(paired)
    assert not {code for _line, code in a} & set(REFERENCE_CODES)
    assert ("unpaired" in {code for _l, code in a}) and (1, "unpaired") in a
    skip = set(REFERENCE_CODES) | RANKED_OTHERWISE | {"unpaired"}
    a = {x for x in a if x[1] not in skip}
    p = {x for x in p if x[1] not in skip}
    # every finding of the pair is there alone, but a copied source the pair's
    # reference kept too, which alone is `untranslated` on the same line
    for line, code in p - a:
        assert code == "target-same-as-source" and (line, "untranslated") in a, (line, code)
    # alone, only what a reference decides is more
    scored_lines = {d["line"] for d in paired["diagnostics"]} | _scored_target_lines(FORMATS / hyp, FORMATS / ref)
    for line, code in a - p:
        assert code in REFERENCE_INFORMED or line not in scored_lines, (line, code)
    # the format checks are the file's own: the same with or without a reference
    fmt = {x for x in a if x[1] not in REFERENCE_INFORMED and x[1] not in {"target-same-as-source"}}
    assert fmt <= p | {x for x in a if x[0] not in scored_lines}


def _scored_target_lines(hyp: Path, ref: Path) -> set:
    """1-based lines of the targets the pair scores (paired by key, both targets non-empty)."""
    from bleu_ls.formats.match import align
    from bleu_ls.formats.model import line_col

    docs = read_documents([str(hyp), str(ref)])
    assert docs is not None
    al = align(docs[0], docs[1:])
    text = docs[0].text
    out = set()
    for i in al.rows:
        seg = docs[0].segments[i]
        out.add(line_col(text, seg.target_span[0])[0] + 1 if text is not None else seg.line + 1)
    return out


def _po_placeholders(text: str) -> Counter:
    return Counter(re.findall(r"%(?:\([A-Za-z_]\w*\))?[sdif]", text))


def test_a_lone_catalogue_with_broken_placeholders_fails_the_job(tmp_path, monkeypatch):
    """`check django.po --fail-on error`: the two entries whose target lost a
    placeholder (polib's reading of the catalogue is the oracle) are errors
    on their msgstr lines, and the exit status is 1."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(ALLAUTH, tmp_path / "django.po")
    rc, out, err = check("django.po", "--fail-on", "error", "--no-config")
    assert rc == 1, err
    lines = (tmp_path / "django.po").read_text(encoding="utf-8").split("\n")
    want = set()
    for e in polib.pofile(str(ALLAUTH)):
        if e.obsolete or not e.msgstr or "python-format" not in e.flags:
            continue
        if _po_placeholders(e.msgid) - _po_placeholders(e.msgstr):
            at = next(k for k in range(e.linenum - 1, len(lines)) if lines[k].startswith("msgstr"))
            if lines[at] == 'msgstr ""':  # the target's text starts on the next line
                at += 1
            want.add(at + 1)
    got = {int(m.group(1)) for m in re.finditer(r"^django\.po:(\d+):\d+: error: .*\[placeholders-missing\]$", out, re.M)}
    assert got == want and len(want) == 2
    assert re.search(r"^django\.po:1:1: information: No reference found for django\.po, so nothing is scored\..*\[unpaired\]$", out, re.M)
    assert out.rstrip().endswith("(against the file's own sources; no reference, so no scores)")
    # --fail-on never: the same findings, exit 0
    assert check("django.po", "--fail-on", "never", "--no-config")[0] == 0


def test_a_lone_xliff_with_mt_drafts_gives_their_hter(tmp_path, monkeypatch):
    """The file's own MT drafts (kept beside the post-edited targets) give the
    file's HTER: sacrebleu's case-sensitive TER of the drafts against the targets."""
    monkeypatch.chdir(tmp_path)
    src = FORMATS / "xliff" / "modernflyouts.de.postedit.xlf"
    shutil.copy(src, tmp_path / "app.xlf")
    _rc, pair = checked(tmp_path / "app.xlf")
    [doc] = read_documents([str(src)])
    drafts = [(s.draft, s.target) for s in doc.segments if s.draft and s.target]
    want = sacrebleu.metrics.TER(case_sensitive=True).corpus_score([d for d, _ in drafts], [[t for _, t in drafts]])
    assert pair["effort"]["score"] == want.score and pair["effort"]["segments"] == len(drafts) > 0


def test_a_line_file_with_its_source_and_no_reference(tmp_path, monkeypatch):
    """`NAME.hyp` beside `NAME.src`: the source checks and adequacy (similarity
    alone), no scores; the same source-check findings as with a reference
    that excuses nothing."""
    monkeypatch.chdir(tmp_path)
    src = ["The meeting starts at 9 o'clock.", "Please open the file.", "I have three cats and 2 dogs.",
           "Hello world", "The weather is nice today.", "We sold 1500 copies."]
    hyp = ["Das Treffen beginnt um 10 Uhr.", "Bitte öffnen Sie die Datei.", "Ich habe drei Katzen und 2 Hunde.",
           "Hello world", "Das Wetter ist heute schön.", "Wir haben 1500 Exemplare verkauft."]
    ref = ["Die Sitzung beginnt um neun.", "Öffne bitte die Datei.", "Ich habe drei Katzen und zwei Hunde.",
           "Hallo Welt", "Heute ist schönes Wetter.", "Wir verkauften 1.500 Exemplare."]
    (tmp_path / "talk.hyp").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    (tmp_path / "talk.src").write_text("\n".join(src) + "\n", encoding="utf-8")
    rc, alone = checked(tmp_path / "talk.hyp")
    assert alone["paired"] is False and alone["source"] == "talk.src" and alone["lines"] == 6
    a = found(alone)
    assert (1, "number-mismatch") in a and (4, "untranslated") in a and (1, "unpaired") in a
    assert not {code for _l, code in a} & set(REFERENCE_CODES)
    (tmp_path / "talk.ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    _rc, paired = checked(tmp_path / "talk.hyp")
    skip = set(REFERENCE_CODES) | RANKED_OTHERWISE | {"unpaired"}
    assert {x for x in found(paired) if x[1] not in skip} == {x for x in a if x[1] not in skip}
    # without its source there is nothing to check a line file against: the one line
    (tmp_path / "talk.src").unlink()
    (tmp_path / "talk.ref").unlink()
    rc, alone = checked(tmp_path / "talk.hyp")
    assert rc == 0 and found(alone) == {(1, "unpaired")}
