"""A newer Eglot (Emacs 29, eglot 1.15+) as a client: it offers utf-32
positions first and has no pull diagnostics.  The server must take utf-32,
count its columns in code points, and push the diagnostics.  (Emacs 28's
Eglot 1.9 offers no encoding and counts UTF-16: tests/editors/test_emacs.py.)"""

from __future__ import annotations

import sacrebleu
from lsprotocol import types

from .conftest import CLIENTS, CONFIG, Session, _close, eventually

EMOJI = "😀"  # outside the BMP: 1 code point, 2 UTF-16 units, 4 UTF-8 bytes
HYP = [
    "Der Stadtrat hat den Haushalt genehmigt .",
    f"{EMOJI} Räume für Sprachkurse und Sprachkurse und Sprachkurse und Sprachkurse anbieten .",
    f"{EMOJI}{EMOJI} Die Fähre fährt ab sechs Uhr .",
]
REF = [
    "Der Stadtrat hat den neuen Haushalt verabschiedet .",
    "Räume für Sprachkurse und Hausaufgabenhilfe anbieten .",
    "Die Fähre fährt ab sechs Uhr morgens .",
]


async def test_emacs29_utf32_push_diagnostics_and_hints(tmp_path):
    client = await CONFIG.start()
    s = Session(client, "emacs", tmp_path)
    s._pushed_version = client.pushed_versions  # type: ignore[attr-defined]
    try:
        caps = CLIENTS["emacs"]()
        result = await client.initialize_session(
            types.InitializeParams(
                capabilities=caps,
                root_uri=tmp_path.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name=tmp_path.name)],
            )
        )
        assert result.capabilities.position_encoding == "utf-32"
        assert s.encoding == "utf-32" and not s.pull

        s.write("t.ref", "\n".join(REF) + "\n")
        uri = s.open("t.hyp", "\n".join(HYP) + "\n")

        async def pushed():
            diags, _, _ = await s.diagnostics(uri)
            return [d for d in diags if d.code == "repetition"] and diags

        diags = await eventually(pushed, timeout=10)
        assert diags, "no repetition diagnostic was pushed"
        rep = next(d for d in diags if d.code == "repetition")
        # the repeated phrase starts after the emoji: a code-point column
        assert rep.range.start.line == 1
        assert rep.range.start.character == HYP[1].index("Sprachkurse und")

        # inlay hints at the end of each line, in code points, with sacrebleu's score
        hints = await s.hints(uri, 0, len(HYP))
        by_line = {h.position.line: h for h in hints}
        for i, (h, r) in enumerate(zip(HYP, REF)):
            assert by_line[i].position.character == len(h), f"line {i}"
            label = by_line[i].label if isinstance(by_line[i].label, str) else "".join(p.value for p in by_line[i].label)
            assert label == f"BLEU {sacrebleu.sentence_bleu(h, [r]).score:.1f}"
    finally:
        await _close(s)

