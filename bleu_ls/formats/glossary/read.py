"""Reading a glossary file (a first reader of CSV only; TBX and the rest follow)."""

from __future__ import annotations

import csv
import io
from typing import Optional

from .model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED, Concept, Glossary, Term

_STATUS = {"": PREFERRED, "preferred": PREFERRED, "admitted": ADMITTED, "forbidden": FORBIDDEN,
           "deprecated": FORBIDDEN, "do-not-translate": DO_NOT_TRANSLATE}


def read_glossary(path: str) -> Glossary:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return Glossary(path, (), [], [f"{path}: cannot read"])
    return read_glossary_bytes(data, path)


def read_glossary_bytes(data: bytes, path: str, kind: Optional[str] = None) -> Glossary:
    text = data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter="\t" if path.endswith(".tsv") else ","))
    head = [h.strip() for h in rows[0]]
    langs = [h for h in head if h.lower() not in ("status", "note")]
    si = head.index("status") if "status" in head else None
    ni = head.index("note") if "note" in head else None
    out = []
    for n, r in enumerate(rows[1:], 2):
        st = _STATUS[r[si] if si is not None else ""]
        terms = []
        for j, h in enumerate(head):
            if h in langs and r[j].strip():
                s = st if (j > 0 or st == DO_NOT_TRANSLATE) else PREFERRED
                if len(langs) == 1 and si is None:
                    s = DO_NOT_TRANSLATE
                terms.append(Term(r[j].strip(), h, s, (r[ni].strip() or None) if ni is not None and j > 0 else None, n))
        out.append(Concept(tuple(terms), line=n))
    return Glossary(path, tuple(langs), out, [], langs[0])
