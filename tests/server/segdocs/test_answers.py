"""The hover of a segment: in the order a translator reads (the score with the key, the
findings, the reference, then the source), a PO context shown as ``context|msgid``, the
file's text shown as itself in Markdown."""

from __future__ import annotations

import sacrebleu
from lsprotocol import types

from .test_docs import _docs

HYP = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "menu"
msgid "Open *file*"
msgstr "Ouvrir le *fichier* maintenant"
'''
REF = HYP.replace("Ouvrir le *fichier* maintenant", "Ouvrir le *fichier*")


def test_po_hover_reads_key_score_reference_then_source(tmp_path) -> None:
    (tmp_path / "app.hyp.po").write_text(HYP, encoding="utf-8")
    (tmp_path / "app.ref.po").write_text(REF, encoding="utf-8")
    docs = _docs(tmp_path)
    uri = (tmp_path / "app.hyp.po").as_uri()
    docs.open(uri, HYP, 1)
    line = HYP.splitlines().index('msgstr "Ouvrir le *fichier* maintenant"')
    hover = docs.hover(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                         position=types.Position(line=line, character=3)))
    assert hover is not None
    value = hover.contents.value
    first = value.split("\n\n")[0]
    bleu = sacrebleu.sentence_bleu("Ouvrir le *fichier* maintenant", ["Ouvrir le *fichier*"]).score
    assert first.startswith("**Segment menu\\|Open \\*file\\***") and f"BLEU {bleu:.1f}" in first
    assert "\x04" not in value and "(cue" not in value
    ref_at = value.index("**Reference:** Ouvrir le \\*fichier\\*")
    assert ref_at < value.index("**Source:** Open \\*file\\*")
