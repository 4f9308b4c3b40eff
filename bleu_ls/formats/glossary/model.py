"""What a glossary is once read (stub until the readers land)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

PREFERRED, ADMITTED, FORBIDDEN, DO_NOT_TRANSLATE = "preferred", "admitted", "forbidden", "do-not-translate"


@dataclass(frozen=True)
class Term:
    text: str
    lang: str
    status: str = PREFERRED
    note: Optional[str] = None
    line: int = 0


@dataclass
class Concept:
    terms: tuple[Term, ...]
    id: Optional[str] = None
    note: Optional[str] = None
    line: int = 0

    def terms_in(self, lang: str) -> list[Term]:
        return [t for t in self.terms if same_language(t.lang, lang)]


@dataclass
class Glossary:
    path: str
    languages: tuple[str, ...]
    concepts: list[Concept] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    source_language: Optional[str] = None


def same_language(a: str, b: str) -> bool:
    if a == "*" or b == "*":
        return True
    x, y = a.replace("_", "-").lower(), b.replace("_", "-").lower()
    if x == y:
        return True
    return "-" not in x and y.split("-")[0] == x or "-" not in y and x.split("-")[0] == y
