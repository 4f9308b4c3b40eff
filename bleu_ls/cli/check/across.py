"""``bleu-ls check``: what is found across the files of one run.

Each file checked hands over its segments (key, source, target, plural form)
with where each target stands in the file; at the end of the run the files of
one target language are compared with each other: a translation that stands for
one source in a file and for another in a second file is an ``inconsistent-source``
finding in each of them (Xbench's *inconsistency in source* over a project).
Within one file the format's own check says it (it runs per file); here only
what takes two files is said, after the files' own findings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence

from ...qa.findings import Finding
from ...qa.formats.format_checks import severities
from ...qa.formats.xml_checks import inconsistent_sources_across

#: where a key's target stands: (line, first column, last column or None)
Place = tuple[int, int, Optional[int]]


@dataclass
class _File:
    shown: str
    language: Optional[str]
    items: Sequence[tuple[str, str, str, object]]
    place: Callable[[str], Place]
    severity: Optional[str]
    #: the findings the run's ignore files leave (a file's own filter over its lines)
    unignored: Callable[[list[Finding]], list[Finding]]


def language_key(tag: Optional[str]) -> Optional[str]:
    """The language two files must share to be compared: the tag's primary subtag, lower case
    ("de-DE", "de_AT" and "de" are one language); None when the file does not say it (files
    that do not say it are compared with each other only)."""
    if not tag or not tag.strip():
        return None
    return tag.strip().replace("_", "-").split("-")[0].lower() or None


class Across:
    """The files of one ``check`` run, kept for the checks that compare them."""

    def __init__(self) -> None:
        self._files: list[_File] = []

    def add(self, shown: str, language: Optional[str], items: Sequence[tuple[str, str, str, object]],
            place: Callable[[str], Place], settings, unignored: Callable[[list[Finding]], list[Finding]]) -> None:
        """A checked file's segments with a source: ``items`` as
        :func:`~bleu_ls.qa.formats.xml_checks.inconsistent_sources_across` takes them, ``place(key)`` the
        target's place in the file; ``settings`` the file's own (its ``inconsistent-source`` row)."""
        if not items:
            return
        sev = severities(settings.diagnostics).get("inconsistent-source")
        self._files.append(_File(shown, language_key(language), items, place, sev, unignored))

    def findings(self) -> list[tuple[str, list[Finding]]]:
        """(file as shown, its findings placed) for each file with any, in the order the files were checked."""
        by_language: dict[Optional[str], list[int]] = {}
        for i, f in enumerate(self._files):
            by_language.setdefault(f.language, []).append(i)
        found: dict[int, list[Finding]] = {}
        for indexes in by_language.values():
            if len(indexes) < 2:
                continue
            files = [self._files[i] for i in indexes]
            per_file = inconsistent_sources_across([(f.shown, f.items) for f in files])
            for i, f, keyed in zip(indexes, files, per_file):
                if f.severity is None or not keyed:
                    continue
                placed = []
                for key, finding in keyed.items():
                    line, col, end = f.place(key)
                    placed.append(replace(finding, severity=f.severity, line=line, start_col=col, end_col=end, key=key))
                placed.sort(key=lambda x: (x.line, x.start_col))
                placed = f.unignored(placed)
                if placed:
                    found[i] = placed
        return [(self._files[i].shown, found[i]) for i in sorted(found)]
