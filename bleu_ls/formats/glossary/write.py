"""Adding an entry to a CSV or TSV glossary: the only file bleu-ls writes into a user's
terminology, and only on the user's action (the editor's "Add to Glossary").

The row is appended in the file's own column order (the header says it), quoted as the
``csv`` module quotes, after the last line (a missing final newline is supplied).  A TBX file
is never rewritten: a TBX glossary is usually managed by a terminology tool.
"""

from __future__ import annotations

import csv
import io
import os
from typing import Optional

from .model import same_language

#: header names that are not language columns
_OTHER_COLUMNS = {"status", "note", "notes", "comment"}


class GlossaryWriteError(ValueError):
    """A sentence for the user: why the entry was not added."""


def append_entry(path: str, source: str, target: str, status: str = "",
                 target_language: Optional[str] = None) -> str:
    """Append ``source`` → ``target`` to the glossary at ``path``; the sentence saying what was
    done.  The first language column takes the source term; the target goes to the column of
    ``target_language`` (else the second language column)."""
    source, target = " ".join(source.split()), " ".join(target.split())
    name = os.path.basename(path)
    if not source or not target:
        raise GlossaryWriteError("both a source term and a target term are needed")
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".csv", ".tsv"):
        raise GlossaryWriteError(f"{name}: entries are added to CSV or TSV glossaries only")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise GlossaryWriteError(f"{name}: cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GlossaryWriteError(f"{name}: not UTF-8 text; nothing was added") from None
    delimiter = "\t" if ext == ".tsv" else ","
    first = text.splitlines()[0] if text else ""
    header = next(csv.reader(io.StringIO(first), delimiter=delimiter), [])
    names = [h.strip() for h in header]
    langs = [i for i, h in enumerate(names) if h and h.lower() not in _OTHER_COLUMNS]
    if len(langs) < 2:
        raise GlossaryWriteError(f"{name}: its header names fewer than two languages; nothing was added")
    target_col = next((i for i in langs[1:] if target_language and same_language(names[i], target_language)), langs[1])
    row = [""] * len(names)
    row[langs[0]], row[target_col] = source, target
    if status and "status" in [h.lower() for h in names]:
        row[[h.lower() for h in names].index("status")] = status
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n").writerow(row)
    line = out.getvalue()
    newline = "\r\n" if "\r\n" in text else "\n"
    if newline != "\n":
        line = line.replace("\n", newline)
    prefix = "" if not text or text.endswith(("\n", "\r")) else newline
    try:
        with open(path, "ab") as f:
            f.write((prefix + line).encode("utf-8"))
    except OSError as exc:
        raise GlossaryWriteError(f"{name}: cannot write: {exc.strerror or exc}") from None
    return f"Added “{source}” → “{target}” to {name}."
