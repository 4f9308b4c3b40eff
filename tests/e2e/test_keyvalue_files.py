"""Android strings.xml and Java .properties files opened alone in the real server: the editor lists
what ``bleu-ls check FILE`` lists for the same text, and an edit inside a string moves nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import _close, _session
from .test_lone_files import checked, settled

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
FILES = [
    ("android/updater/res/values-de/strings.xml", "res/values-de/strings.xml"),
    ("properties/jmeter/messages_de.properties", "messages_de.properties"),
]


@pytest.mark.parametrize("src, name", FILES, ids=["android", "properties"])
async def test_a_key_value_file_alone_lists_what_check_lists(src, name, tmp_path):
    s = await _session("vscode", tmp_path)
    try:
        text = (DATA / src).read_text(encoding="utf-8")
        path = s.write(name, text)
        want = checked(path)
        uri = s.open(name, text)
        assert await settled(s, uri, want) == want
        # a word doubled with two spaces in one string: what check says of the edited text
        old = "Herunterladen" if name.endswith(".xml") else "Hinzufügen"
        at = text.index(f">{old}<" if name.endswith(".xml") else f"={old}\n") + 1
        line = text.count("\n", 0, at)
        col = at - (text.rfind("\n", 0, at) + 1)
        s.change(uri, [{"range": ((line, col), (line, col + len(old))), "text": "Herunterladen  Herunterladen"}])
        edited = text[:at] + "Herunterladen  Herunterladen" + text[at + len(old):]
        after = checked(s.write(name, edited))
        assert any(ln == line for ln, _ in after - want)  # the edit found something on its line
        assert await settled(s, uri, after) == after
    finally:
        await _close(s)
