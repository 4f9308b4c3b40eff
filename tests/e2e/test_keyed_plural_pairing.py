"""Plural forms of a key-value file in the editor, through the real server: a Russian i18next file's
``_few`` and ``_many`` forms are paired with the English source's entry (no ``key-extra``, no
``inconsistent-translation`` between the forms), as ``bleu-ls check`` says; a form typed in or cut
afterwards (an entry's key that the source lacks) is paired again the same way, and the editor keeps
agreeing with ``check`` of the text as it then is."""

from __future__ import annotations

import asyncio
import io
import json
import time

from bleu_ls.cli.check import main as check_main

from .conftest import _close, _session

EN = {"item_one": "{{count}} item", "item_other": "{{count}} items", "title": "Items", "save": "Save"}
RU = {"item_one": "{{count}} предмет", "item_few": "{{count}} предмета", "item_other": "{{count}} предмета",
      "title": "Предметы", "save": "Сохранить"}
TOML = "[diagnostics.adequacy]\nenabled = false\n[diagnostics.wrong-language]\nenabled = false\n"
CODES = ("key-extra", "key-missing", "inconsistent-translation", "plural-categories")


def said(code: str, message: str) -> str:
    """What a finding says, the way each side names the source file left out (``check`` names it as
    given, the editor by its name)."""
    return message.split('key "', 1)[1].split('"', 1)[0] if code in ("key-extra", "key-missing") else message


def checked(root, name: str) -> set:
    out, err = io.StringIO(), io.StringIO()
    rc = check_main([str(root / name), "--format", "json", "--config", str(root / "bleu-ls.toml")], out=out, err=err)
    assert rc in (0, 1), err.getvalue()
    [pair] = json.loads(out.getvalue())["pairs"]
    return {(d["line"] - 1, d["code"], said(d["code"], d["message"])) for d in pair["diagnostics"] if d["code"] in CODES}


async def agreed(s, uri: str, want: set, timeout: float = 30.0) -> set:
    deadline = time.monotonic() + timeout
    while True:
        diags, _, _ = await s.diagnostics(uri)
        got = {(d.range.start.line, d.code, said(str(d.code), d.message)) for d in diags or [] if d.code in CODES}
        if got == want or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.2)


async def test_plural_forms_paired_by_entry_in_the_editor(tmp_path):
    (tmp_path / "bleu-ls.toml").write_text(TOML, encoding="utf-8")
    s = await _session("vscode", tmp_path)
    try:
        s.write("locales/en/translation.json", json.dumps(EN, indent=2))
        name = "locales/ru/translation.json"
        text = json.dumps(RU, ensure_ascii=False, indent=2)
        s.write(name, text)
        want = checked(tmp_path, name)
        # Russian needs `many` too: the one finding; no form is extra, none inconsistent
        assert [c for _l, c, _m in want] == ["plural-categories"] and "many" in next(iter(want))[2]
        uri = s.open(name, text)
        assert await agreed(s, uri, want) == want

        # the missing form typed in: a key the source lacks, paired with its entry
        lines = text.split("\n")
        at = next(i for i, ln in enumerate(lines) if '"item_few"' in ln)
        new = '  "item_many": "{{count}} предметов",'
        s.change(uri, [{"range": ((at + 1, 0), (at + 1, 0)), "text": new + "\n"}])
        text = "\n".join(lines[: at + 1] + [new] + lines[at + 1:])
        s.write(name, text)
        want = checked(tmp_path, name)
        assert want == set()
        assert await agreed(s, uri, want) == want

        # an entry the source does not have, in a plural form: extra, as check says
        lines = text.split("\n")
        new = '  "gone_few": "{{count}} старых",'
        s.change(uri, [{"range": ((1, 0), (1, 0)), "text": new + "\n"}])
        text = "\n".join(lines[:1] + [new] + lines[1:])
        s.write(name, text)
        want = checked(tmp_path, name)
        assert {c for _l, c, _m in want} >= {"key-extra"}
        assert await agreed(s, uri, want) == want
    finally:
        await _close(s)
