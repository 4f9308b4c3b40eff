"""Glossaries as tables (CSV, TSV) and plain do-not-translate lists (``.txt``).

CSV / TSV: UTF-8 (a byte-order mark is fine), read with the standard
library's :mod:`csv` (CSV: comma, double quotes; TSV: tab, no quoting — a
cell is the text between two tabs).  The first row is the header:

* language columns, named by BCP 47 codes (``en``, ``de-DE``, ``pt_BR``,
  ``zh-Hans``), at least one;
* optionally ``status``, and ``note`` (also ``notes``, ``comment``,
  ``comments``), names compared without case.

Anything else in the header is fatal (a misspelt column would silently
become a language or be lost).  Every further row is one concept whose terms
are the non-empty cells of the language columns (a cell is one term, even if
it lists several words with commas or slashes; white space normalised).  The
``status`` of a row:

* empty or ``preferred`` → preferred; ``admitted``;
* ``forbidden``, also ``deprecated`` / ``superseded``;
* ``do-not-translate``, also ``dnt``, ``untranslatable``, ``do not translate``.

It applies to the terms of the target columns (every language column but the
first); the first column's term stays preferred — except do-not-translate:
then every term of the row is do-not-translate, and an empty target cell is
fine (the term stays as it is).  A table with a single language column is a
do-not-translate list: every term is do-not-translate unless its status says
otherwise.  A row with another number of cells than the header, or an
unknown status, is skipped with a sentence; blank rows are skipped quietly.

``.txt``: one do-not-translate term per line, no header, in any language
(``"*"``); blank lines and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Optional

from .model import ADMITTED, ANY_LANGUAGE, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED, Concept, Glossary, Term
from .problems import NOT_USED, Skips, clean, decode_utf8, place

STATUS_COLUMN = "status"
NOTE_COLUMNS = frozenset({"note", "notes", "comment", "comments"})

#: a status cell (lower case, white space normalised) → the status
STATUS_WORDS = {
    "": PREFERRED, "preferred": PREFERRED,
    "admitted": ADMITTED,
    "forbidden": FORBIDDEN, "deprecated": FORBIDDEN, "superseded": FORBIDDEN,
    "do-not-translate": DO_NOT_TRANSLATE, "dnt": DO_NOT_TRANSLATE, "untranslatable": DO_NOT_TRANSLATE,
    "do not translate": DO_NOT_TRANSLATE,
}
_EXPECTED_STATUS = "expected preferred, admitted, forbidden, deprecated, do-not-translate"

#: a BCP 47 language tag as glossary headers write it: a 2-3 letter language, then script,
#: region (letters or UN M.49 digits) or variant subtags, "-" or "_" between them
_LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(?:[-_](?:[A-Za-z]{4}|[A-Za-z]{2}|[0-9]{3}|[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$")


def is_language_tag(name: str) -> bool:
    return bool(_LANGUAGE.match(name))


def read_table_text(text: str, path: str, delimiter: str) -> Glossary:
    """A CSV (``delimiter=","``) or TSV (``"\\t"``) glossary from its decoded text."""
    if not text.strip():
        return _fatal(path, f"{path}: the file is empty; {NOT_USED}")
    source = io.StringIO(text, newline="")
    if delimiter == ",":
        rows = csv.reader(source, delimiter=",", quoting=csv.QUOTE_MINIMAL, strict=False)
    else:
        rows = csv.reader(source, delimiter=delimiter, quoting=csv.QUOTE_NONE, strict=False)
    try:
        return _read_rows(rows, path)
    except csv.Error as e:
        return _fatal(path, f"{place(path, rows.line_num)}the file cannot be read as "
                            f"{'CSV' if delimiter == ',' else 'TSV'} ({e}); {NOT_USED}")


def _fatal(path: str, sentence: str) -> Glossary:
    return Glossary(path, (), [], [sentence])


def _read_rows(rows, path: str) -> Glossary:
    header: Optional[list[str]] = None
    header_line = 0
    prev = 0
    for cells in rows:
        start, prev = prev + 1, rows.line_num
        if any(c.strip() for c in cells):
            header, header_line = cells, start
            break
    if header is None:
        return _fatal(path, f"{path}: the file has no header row (only empty cells); {NOT_USED}")
    names = [c.strip() for c in header]
    langs: list[tuple[int, str]] = []
    status_col: Optional[int] = None
    note_col: Optional[int] = None
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        low = name.lower()
        key = STATUS_COLUMN if low == STATUS_COLUMN else "note" if low in NOTE_COLUMNS else \
            low.replace("_", "-")
        if key in seen:
            return _fatal(path, f'{place(path, header_line)}the header names "{name}" twice '
                                f"(columns {seen[key] + 1} and {i + 1}); {NOT_USED}")
        seen[key] = i
        if key == STATUS_COLUMN:
            status_col = i
        elif key == "note":
            note_col = i
        elif is_language_tag(name):
            langs.append((i, name))
        else:
            what = f"column {i + 1} of the header is empty" if not name else f'unknown column "{name}" in the header'
            return _fatal(path, f"{place(path, header_line)}{what} (expected language codes such as en, de-DE, "
                                f"pt_BR, and optionally status and note); {NOT_USED}")
    if not langs:
        return _fatal(path, f"{place(path, header_line)}the header names no language column (expected language "
                            f"codes such as en, de-DE, pt_BR, and optionally status and note); {NOT_USED}")
    width = len(names)
    single = len(langs) == 1
    skips = Skips(path, "row")
    concepts: list[Concept] = []
    for cells in rows:
        start, prev = prev + 1, rows.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != width:
            skips.add(start, f"the row has {len(cells)} cells, the header {width}")
            continue
        raw_status = clean(cells[status_col]).lower() if status_col is not None else ""
        status = STATUS_WORDS.get(raw_status)
        if status is None:
            skips.add(start, f'unknown status "{clean(cells[status_col]) if status_col is not None else ""}" '
                             f"({_EXPECTED_STATUS})")
            continue
        if single and not raw_status:
            status = DO_NOT_TRANSLATE
        terms = []
        for k, (i, lang) in enumerate(langs):
            text = clean(cells[i])
            if not text:
                continue
            st = status if (k > 0 or single or status == DO_NOT_TRANSLATE) else PREFERRED
            terms.append(Term(text, lang, st, None, start))
        if not terms:
            continue
        note = clean(cells[note_col]) if note_col is not None else ""
        concepts.append(Concept(tuple(terms), None, note or None, start))
    problems = skips.sentences()
    if not concepts and not skips.said:
        problems.append(f"{path}: no terms found (no row after the header)")
    return Glossary(path, tuple(lang for _, lang in langs), concepts, problems, langs[0][1])


def read_list_text(text: str, path: str) -> Glossary:
    """A plain do-not-translate list: one term per line, ``#`` comments and blank lines skipped."""
    concepts = []
    for n, line in enumerate(text.split("\n"), 1):
        term = clean(line)
        if not term or term.startswith("#"):
            continue
        concepts.append(Concept((Term(term, ANY_LANGUAGE, DO_NOT_TRANSLATE, None, n),), None, None, n))
    if not concepts:
        if not text.strip():
            return _fatal(path, f"{path}: the file is empty; {NOT_USED}")
        return Glossary(path, (ANY_LANGUAGE,), [], [f"{path}: no terms found (only comments and blank lines)"])
    return Glossary(path, (ANY_LANGUAGE,), concepts, [], None)


def decode_table(data: bytes, path: str) -> tuple[Optional[str], Optional[Glossary]]:
    """The UTF-8 text of a table or list, or the fatal glossary saying why not."""
    text, problem = decode_utf8(data, path)
    if problem is not None:
        return None, _fatal(path, problem)
    return text, None
