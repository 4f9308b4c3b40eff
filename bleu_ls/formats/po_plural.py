"""A PO header's Plural-Forms read: ``nplurals``, the ``plural=`` formula parsed, the forms it uses for one number.

Plain Python, over the segment model only: for :func:`~.po_checks.check_plurals`
and :func:`~.po_checks.check_placeholders` (a form for one number only may leave
placeholders out).
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from .model import Segment

_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()]))")
_BINARY = [("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%")]


class PluralFormula:
    """gettext's ``plural=`` expression (C syntax, one variable ``n``), parsed to a Python closure.
    Anything else (a name, a function call, an unbalanced parenthesis) is ``ValueError``."""

    def __init__(self, text: str) -> None:
        self.toks: list = []
        pos = 0
        text = text.strip().rstrip(";").strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                raise ValueError(text[pos:])
            num, var, op = m.groups()
            self.toks.append(int(num) if num is not None else ("n" if var else op))
            pos = m.end()
        self.i = 0
        self.fn = self.ternary()
        if self.i != len(self.toks):
            raise ValueError("trailing tokens")

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise ValueError(f"expected {want}")
        self.i += 1
        return t

    def ternary(self):
        cond = self.binary(0)
        if self.peek() == "?":
            self.take("?")
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return lambda n: a(n) if cond(n) else b(n)
        return cond

    def binary(self, level):
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while isinstance(self.peek(), str) and self.peek() in _BINARY[level]:
            op = self.take()
            right = self.binary(level + 1)
            left = _op(op, left, right)
        return left

    def unary(self):
        t = self.peek()
        if t == "!":
            self.take()
            x = self.unary()
            return lambda n: int(not x(n))
        if t == "-":
            self.take()
            x = self.unary()
            return lambda n: -x(n)
        if t == "(":
            self.take()
            x = self.ternary()
            self.take(")")
            return x
        if t == "n":
            self.take()
            return lambda n: n
        if isinstance(t, int):
            self.take()
            return lambda n, v=t: v
        raise ValueError(f"unexpected {t!r}")


def _op(op, a, b):
    if op == "||":
        return lambda n: int(bool(a(n)) or bool(b(n)))
    if op == "&&":
        return lambda n: int(bool(a(n)) and bool(b(n)))
    if op == "/":
        return lambda n: a(n) // b(n)  # ZeroDivisionError: caught by the caller
    if op == "%":
        return lambda n: a(n) % b(n)
    return {
        "==": lambda n: int(a(n) == b(n)), "!=": lambda n: int(a(n) != b(n)),
        "<": lambda n: int(a(n) < b(n)), ">": lambda n: int(a(n) > b(n)),
        "<=": lambda n: int(a(n) <= b(n)), ">=": lambda n: int(a(n) >= b(n)),
        "+": lambda n: a(n) + b(n), "-": lambda n: a(n) - b(n), "*": lambda n: a(n) * b(n),
    }[op]


_PLURAL_EXPR = re.compile(r"plural\s*=\s*(.*)$", re.S)


def single_valued_forms(header, upto: int = 1000) -> Optional[frozenset]:
    """The plural forms the header's formula picks for exactly one n in 0…``upto`` (English: form 0,
    for n = 1; Russian: none, its form 0 is 1, 21, 31…); None when there is no formula or it cannot be read."""
    m = _PLURAL_EXPR.search(header.get("Plural-Forms", ""))
    if m is None:
        return None
    try:
        f = PluralFormula(m.group(1)).fn
        hits: dict[int, int] = {}
        for n in range(upto + 1):
            k = f(n)
            hits[k] = hits.get(k, 0) + 1
    except (ValueError, ZeroDivisionError, RecursionError):
        return None
    return frozenset(k for k, c in hits.items() if c == 1)


_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")


def nplurals(header) -> Optional[int]:
    """The ``nplurals`` of the header's Plural-Forms (None when absent, unreadable or a template's ``INTEGER``)."""
    m = _NPLURALS.search(header.get("Plural-Forms", ""))
    return int(m.group(1)) if m else None


def plural_entries(segments: Iterable[Segment]) -> list[list[Segment]]:
    """The forms of each plural entry, grouped (consecutive segments of one msgctxt + msgid)."""
    out: list[list[Segment]] = []
    last = None
    for s in segments:
        if "plural_index" not in s.extra:
            last = None
            continue
        ident = (s.extra.get("msgctxt"), s.extra.get("msgid"), s.extra.get("msgid_plural"))
        if ident == last and out:
            out[-1].append(s)
        else:
            out.append([s])
        last = ident
    return out
