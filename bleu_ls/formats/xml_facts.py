"""An XLIFF segment's facts (its ``extra``), compact: a read-only mapping over one packed string of ints.

The XLIFF readers give every segment one (a 100k-unit file, 100k of them: a
dict with its span tuples took about 640 bytes, this about 150); imports only
the segment model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, Optional

from .model import pack_ints, int_view


#: the units a length limit counts in: Unicode code points, or bytes in an encoding
CHARS = "chars"
BYTES = "bytes"


class Limit(NamedTuple):
    """One length limit a file declares for a unit's target (read by the XLIFF readers, checked by
    ``length-limit``: :mod:`bleu_ls.qa.text.length_limit`)."""

    #: :data:`CHARS` (Unicode code points) or :data:`BYTES`
    unit: str
    #: the largest length allowed
    maximum: int
    #: where it comes from, as the file names it (``maxwidth``, ``maxbytes``, ``slr:sizeRestriction``…)
    name: str
    #: :data:`BYTES`: the encoding the bytes are counted in (an encoding's name, no byte order mark)
    encoding: str = "utf-8"
    #: :data:`CHARS`: the Unicode normalisation applied first ("", "NFC" or "NFD")
    normalization: str = ""


class XmlFacts(Mapping):
    """An XLIFF segment's ``extra``, compact: a read-only mapping of ``original``, ``unit_id``,
    ``segment_id``, ``unit_span``, ``unit_line``, ``state_tag`` (None where the unit has no
    target), ``source_span`` (absent where there is no source), ``duplicate`` (only when
    the key was met before) and ``limits`` (the unit's length limits, a tuple of :class:`Limit`;
    only where the file declares some), its offsets in one array of ints.  ``limit_context``: what
    the unit inherits that its limits are made of (the enclosing groups' limits, the file's size
    profiles; None: nothing), so a unit read again alone is read as in its place."""

    __slots__ = ("original", "_uid", "segment_id", "duplicate", "_p", "_key", "_lim")

    _KEYS = ("original", "unit_id", "segment_id", "unit_span", "unit_line", "state_tag", "source_span", "duplicate",
             "limits")

    def __init__(self, original: str, unit_id: str, segment_id: Optional[str], unit_span: tuple[int, int],
                 unit_line: int, state_tag: Optional[tuple[int, int]], source_span: Optional[tuple[int, int]],
                 duplicate: Optional[int] = None, key: Optional[str] = None,
                 limits: Optional[tuple[tuple[Limit, ...], object]] = None) -> None:
        self.original = original
        #: (the unit's limits, their context) or None (no limit and nothing inherited)
        self._lim = limits
        # the unit id not held twice: None where ``key`` (the segment's) is ``original/unit-id``
        self._uid: Optional[str]
        self._key: Optional[str]
        if key is not None and original and len(key) == len(original) + 1 + len(unit_id) and key.endswith(unit_id) \
                and key.startswith(original) and key[len(original)] == "/":
            self._uid, self._key = None, key
        else:
            self._uid, self._key = unit_id, None
        self.segment_id = segment_id
        self.duplicate = duplicate
        has = (1 if state_tag is not None else 0) | (2 if source_span is not None else 0)
        st = state_tag or (0, 0)
        ss = source_span or (0, 0)
        self._p = pack_ints([unit_span[0], unit_span[1], unit_line, st[0], st[1], ss[0], ss[1], has])

    @property
    def limit_context(self) -> object:
        """What the unit's limits inherit (see the class): None where nothing is inherited."""
        return self._lim[1] if self._lim is not None else None

    def shifted(self, dc: int, dl: int) -> "XmlFacts":
        """The facts of the unit moved ``dc`` characters and ``dl`` lines."""
        f = XmlFacts.__new__(XmlFacts)
        f.original, f._uid, f.segment_id, f.duplicate, f._key = self.original, self._uid, self.segment_id, self.duplicate, self._key
        f._lim = self._lim
        p = int_view(self._p)
        f._p = pack_ints([p[0] + dc, p[1] + dc, p[2] + dl, p[3] + dc, p[4] + dc, p[5] + dc, p[6] + dc, p[7]])
        return f

    def __getitem__(self, k: str) -> object:
        p = int_view(self._p)
        if k == "original":
            return self.original
        if k == "unit_id":
            return self._uid if self._key is None else self._key[len(self.original) + 1:]
        if k == "segment_id":
            return self.segment_id
        if k == "unit_span":
            return (p[0], p[1])
        if k == "unit_line":
            return p[2]
        if k == "state_tag":
            return (p[3], p[4]) if p[7] & 1 else None
        if k == "source_span" and p[7] & 2:
            return (p[5], p[6])
        if k == "duplicate" and self.duplicate is not None:
            return self.duplicate
        if k == "limits" and self._lim is not None and self._lim[0]:
            return self._lim[0]
        raise KeyError(k)

    def get(self, k: str, default: object = None) -> object:
        if k == "limits":  # asked of every segment by the length check: no KeyError raised and caught
            lim = self._lim
            return lim[0] if lim is not None and lim[0] else default
        try:
            return self[k]
        except KeyError:
            return default

    def __iter__(self):
        for k in self._KEYS:
            if k == "source_span" and not int_view(self._p)[7] & 2:
                continue
            if k == "duplicate" and self.duplicate is None:
                continue
            if k == "limits" and not (self._lim is not None and self._lim[0]):
                continue
            yield k

    def __len__(self) -> int:
        return 6 + (1 if int_view(self._p)[7] & 2 else 0) + (self.duplicate is not None) + (
            self._lim is not None and bool(self._lim[0]))

    def __contains__(self, k: object) -> bool:
        if k == "source_span":
            return bool(int_view(self._p)[7] & 2)
        if k == "duplicate":
            return self.duplicate is not None
        if k == "limits":
            return self._lim is not None and bool(self._lim[0])
        return k in self._KEYS

    def __repr__(self) -> str:
        return repr(dict(self))
