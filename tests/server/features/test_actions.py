"""The code actions offered on diagnostics (no server: the pure part)."""

from __future__ import annotations

from lsprotocol import types

from bleu_ls.server.features.actions import IGNORE, _wants_quickfix, actions_for


def diag(line, code, source="bleu-ls"):
    r = types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=4))
    return types.Diagnostic(range=r, message="m", code=code, source=source)


def test_four_actions_per_diagnostic_and_line_actions_once_per_line():
    ds = [diag(3, "low-score"), diag(3, "outlier"), diag(3, "E501", source="flake8"), diag(3, "settings")]
    acts = actions_for("file:///w/a.hyp", ds)
    got = [(a.title, a.command.arguments) for a in acts]
    assert got == [
        ("Ignore low-score on this line", ["file:///w/a.hyp", "code", 3, "low-score"]),
        ("Ignore this line", ["file:///w/a.hyp", "line", 3]),
        ("Mark line as reviewed", ["file:///w/a.hyp", "reviewed", 3]),
        ("Turn low-score off for the workspace", ["file:///w/a.hyp", "off", 3, "low-score"]),
        ("Ignore outlier on this line", ["file:///w/a.hyp", "code", 3, "outlier"]),
        ("Turn outlier off for the workspace", ["file:///w/a.hyp", "off", 3, "outlier"]),
    ]
    assert all(a.kind == types.CodeActionKind.QuickFix and a.command.command == IGNORE for a in acts)
    # the line-wide actions name both diagnostics they resolve
    line_action = next(a for a in acts if a.title == "Ignore this line")
    assert [d.code for d in line_action.diagnostics] == ["low-score", "outlier"]


def test_one_workspace_switch_for_a_code_on_several_lines():
    acts = actions_for("file:///w/a.hyp", [diag(1, "repetition"), diag(2, "repetition")])
    offs = [a for a in acts if a.title.startswith("Turn")]
    assert len(offs) == 1 and len(offs[0].diagnostics) == 2
    assert len([a for a in acts if a.title == "Mark line as reviewed"]) == 2


def test_the_comparison_diagnostic_can_be_ignored_too():
    from bleu_ls.qa.ignore import IGNORABLE
    from bleu_ls.server.postedit import compare

    assert compare.CODE in IGNORABLE
    acts = actions_for("file:///w/a.hyp", [diag(4, compare.CODE)])
    assert "Turn worse-than-other off for the workspace" in [a.title for a in acts]


def test_only_filter():
    assert _wants_quickfix(None) and _wants_quickfix([])
    assert _wants_quickfix([types.CodeActionKind.QuickFix])
    assert not _wants_quickfix([types.CodeActionKind.Refactor])
    assert not _wants_quickfix([types.CodeActionKind.SourceOrganizeImports])
