"""The glossary entries of a segment or line, as the hover shows them."""

from __future__ import annotations

import re
from typing import Optional

from lsprotocol import types

from ...formats.glossary.model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED
from ...qa.terms.load import Terms

#: entries listed at most in one hover
MAX_ENTRIES = 8
_ORDER = {PREFERRED: 0, ADMITTED: 1, FORBIDDEN: 2}
_MD_SPECIAL = re.compile(r"[\\`*_\[\]<>#|~]")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(), text)


def glossary_block(terms: Terms, source: Optional[str], target: Optional[str]) -> Optional[str]:
    """"**Glossary:**" and one line per entry that applies (the source's terms, its
    do-not-translate terms, a forbidden term of the target): the source term → the target
    terms with their status (a forbidden one struck through), and the notes; None when none applies."""
    index = terms.termbase
    if index is None:
        return None
    found = index.entries(source, target)
    if not found:
        return None
    lines = ["**Glossary:**"]
    covered: set[int] = set()
    shown_entries = 0
    for written, concept, path in found:
        if id(concept) in covered:
            continue  # listed with another entry of the same source term
        related = index.related([concept])
        covered.update(id(c) for c in related)
        shown_entries += 1
        if shown_entries > MAX_ENTRIES:
            continue
        src = index.source_lang or "*"
        tgt = index.target_lang or "*"
        targets: list[str] = []
        notes: list[str] = []
        dnt = any(t.status == DO_NOT_TRANSLATE for c in related for t in c.terms_in(src))
        in_target = [t for c in related for t in c.terms_in(tgt) if t.lang != "*" and t.status != DO_NOT_TRANSLATE]
        for t in sorted(in_target, key=lambda t: _ORDER.get(t.status, 9)):
            shown = f"~~{_md(t.text)}~~ (forbidden)" if t.status == FORBIDDEN else f"**{_md(t.text)}** ({t.status})"
            if shown not in targets:
                targets.append(shown)
            if t.note:
                notes.append(t.note)
        notes += [c.note for c in related if c.note]
        name = path.replace("\\", "/").rsplit("/", 1)[-1]
        if dnt:
            line = f"- {_md(written)}: do not translate"
        else:
            line = f"- {_md(written)} → " + (", ".join(targets) if targets else "_no target term_")
        line += f" · _{_md(name)}_"
        if notes:
            line += " — " + "; ".join(_md(" ".join(n.split()))[:200] for n in dict.fromkeys(notes))
        lines.append(line)
    if shown_entries > MAX_ENTRIES:
        lines.append(f"- _(+{shown_entries - MAX_ENTRIES} more)_")
    return "\n".join(lines)


def completion_items(terms: Terms, source: Optional[str]) -> list[types.CompletionItem]:
    """The target terms of ``source``'s glossary terms as completion items (preferred first)."""
    index = terms.termbase
    if index is None or not source:
        return []
    out = []
    for k, (text, written, concept) in enumerate(index.target_terms(source)):
        notes = [t.note for t in concept.terms if t.note] + ([concept.note] if concept.note else [])
        out.append(types.CompletionItem(
            label=text, kind=types.CompletionItemKind.Text, detail=f"glossary: {written}",
            documentation="; ".join(notes) or None, sort_text=f"{k:04d}"))
    return out
