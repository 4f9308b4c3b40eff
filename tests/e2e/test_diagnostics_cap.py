"""The diagnostics cap (setting ``maxProblems``) through the real server: a
client with the cap gets what VS Code would show of the uncapped client's
diagnostics (errors in order, then warnings, information, hints) less one,
plus the note; pulled and pushed alike, at open and after edits; the
status still counts every finding."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import _close, _session, eventually

CAP = 7
SEVERITY = {
    "emptyHypothesis": "error",
    "repetition": "warning",
    "lengthRatio": "information",
    "lowScore": "hint",
    "outlier": "information",
}
REF = [f"the {w} sat on the mat near the old house number {i}" for i, w in
       enumerate("cat dog bird cow fox owl bee ant elk yak".split() * 3)]


def hyp_lines() -> list[str]:
    out = []
    for i, ref in enumerate(REF):
        kind = i % 5
        if kind == 0:
            out.append("")  # empty: an error
        elif kind == 1:
            out.append("the the the the the the the the")  # a loop: a warning (and a low score)
        elif kind == 2:
            out.append("a dog")  # too short: information (and a low score)
        elif kind == 3:
            out.append("completely different words here today")  # a low score: a hint
        else:
            out.append(ref)
    return out


def init(cap: int) -> dict:
    diag = {rule: {"severity": sev} for rule, sev in SEVERITY.items()}
    diag["wrongLanguage"] = {"enabled": False}
    diag["adequacy"] = {"enabled": False}
    settings = {"diagnostics": diag}
    if cap:
        settings["maxProblems"] = cap
    return {"bleuLs": settings}


def said(total: int) -> str:
    """What the note says of ``total`` problems: all but the first three digits 0."""
    digits = str(total)
    return f"found at least {int(digits[:3] + '0' * (len(digits) - 3)):,} problems"


def key(d: types.Diagnostic) -> tuple:
    return (d.range.start.line, d.code, int(d.severity), d.message)


def vscode_shows(items: list, limit: int) -> list:
    kept = []
    for severity in (1, 2, 3, 4):
        for d in items:
            if d[2] == severity:
                kept.append(d)
                if len(kept) == limit:
                    return kept
    return kept


def check(capped: list[types.Diagnostic], full: list[types.Diagnostic]) -> None:
    everything = [key(d) for d in full]
    assert len(everything) > CAP and len({k[2] for k in everything}) >= 3  # the cap bites, severities mixed
    *got, note = capped
    assert [key(d) for d in got] == vscode_shows(everything, CAP)[: CAP - 1]
    assert (note.code, note.severity, note.range.start.line) == ("not-sent", types.DiagnosticSeverity.Information, 0)
    assert said(len(everything)) in note.message
    assert f"{CAP - 1:,} of them are listed" in note.message
    assert "bleu-ls check job.hyp" in note.message


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["vscode", "push"])
async def test_capped_diagnostics_are_what_vscode_shows(tmp_path, kind):
    (tmp_path / "job.ref").write_text("\n".join(REF) + "\n", encoding="utf-8")
    text = "\n".join(hyp_lines()) + "\n"
    capped = await _session(kind, tmp_path, init_options=init(CAP))
    full = await _session("neovim", tmp_path, init_options=init(0))
    try:
        uris = [s.open("job.hyp", text) for s in (capped, full)]
        await eventually(lambda: capped.hints(uris[0]), timeout=20)
        await eventually(lambda: full.hints(uris[1]), timeout=20)
        got, rid, _ = await capped.diagnostics(uris[0])
        want, _, _ = await full.diagnostics(uris[1])
        check(got, want)
        # the status (corpus record) counts every finding, not the ones sent
        record = await capped.corpus(uris[0])
        assert record["problems"] == len(want) and record["flagged"] == len({d.range.start.line for d in want})
        # edits: a hint line made good (outside the items sent), an error line filled, a new error
        edits = [(3, REF[3]), (0, REF[0]), (4, "")]
        for line, new in edits:
            for s, uri in zip((capped, full), uris):
                s.change(uri, [{"range": ((line, 0), (line + 1, 0)), "text": new + "\n"}])
            await eventually(lambda: full.hints(uris[1], line, line + 1), timeout=20)
            want, _, _ = await full.diagnostics(uris[1])
            if kind == "vscode":
                again, rid2, unchanged = await capped.diagnostics(uris[0], previous=rid)
                if unchanged:
                    again = got  # the items sent did not move
                rid = rid2
            else:
                async def pushed():
                    d, _, _ = await capped.diagnostics(uris[0])
                    return d if [key(x) for x in d][: CAP - 1] == vscode_shows([key(x) for x in want], CAP)[: CAP - 1] and \
                        said(len(want)) in d[-1].message else None

                again = await eventually(pushed, timeout=10) or (await capped.diagnostics(uris[0]))[0]
            check(again, want)
            got = again
    finally:
        await _close(capped)
        await _close(full)
