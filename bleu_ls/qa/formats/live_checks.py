"""The QA checks of a PO, XLIFF or TMX document kept in step with its live index.

:class:`LiveChecks` holds what :func:`~.format_checks.findings_for` gives for
the index's text (the same codes, severities and messages), split the way
edits need it:

* each segment's own checks (placeholders, inline codes, white space, empty
  or copied target, states…), kept per segment and counted again only for
  the segments an edit touched;
* a PO plural entry's form count (``plural-count``), counted again for the
  run of plural entries around the touched segments (the whole catalogue
  only where the header has no ``nplurals``: then ``plural-header`` names the
  first plural entry);
* the same source translated differently (``inconsistent-translation``): a
  map from each source (PO: with its msgctxt and plural form) to the
  segments that translate it, so an edit counts again the groups of the
  segments it touched — the old source's and the new one's — and no other;
* one translation used for different sources (``inconsistent-source``): the
  same, from each target (PO: with its plural form).

A finding's span is relative to its segment's target start (it moves with
the segment).  The reader's problems (``po-syntax``) are not here: they
belong to no segment.  A header edit (a PO's Plural-Forms) or keys changed
outside the edit count everything again.

Plain Python; imports the segment checks, nothing of the server.
"""

from __future__ import annotations

from typing import Optional

from ...formats.l10n_paths import PATH_LANGUAGE
from ...formats.model import SegmentDocument
from .table import CheckRow, checks_of
from .xml_checks import DEFAULT_SEVERITY as XML_SEVERITY
from .keyed_checks import plural_category
from .xml_checks import other_sources_message, source_identity
from ..findings import Finding

#: structural edits noted before the key -> index map is made again
MOVES = 256


#: the checks of a format without a row (none)
_NO_CHECKS = CheckRow(document=lambda *_a: [])

#: the findings of a segment that has none: one list for all of them (never added to: ``at`` adds by ``+``)
_NONE: list = []


def _norm(s: str) -> str:
    t = " ".join(s.split())
    return s if t == s else t  # the text itself where it is normal already (kept per segment: no copy)


class LiveChecks:
    """The format checks of one live index (``index``: a :class:`~.live.LiveIndex`)."""

    def __init__(self, fmt: str, severity: dict[str, Optional[str]], said: frozenset = frozenset(),
                 language: Optional[str] = None) -> None:
        self.format = fmt
        #: the target language the file's place names (a key-value file's folder), when its content says none
        self.language = language
        #: the format's checks (qa/formats/table.py)
        self.row = checks_of(fmt) or _NO_CHECKS
        #: code -> severity (None: off), as :func:`~.format_checks.severities` gives
        self.sev = severity
        self.given = {c: s for c, s in severity.items() if s is not None}
        self.said = said
        # a format with no checks of its own has none here either, as ``format_checks.findings_for``
        # (a String Catalog: its sources in many languages are not one file's inconsistencies)
        self.on = bool(self.given) and checks_of(fmt) is not None
        #: key -> the plural category it names a form of (key-value files)
        self.plural_category = plural_category(fmt)

    # -- the whole document -----------------------------------------------------------
    def full(self, index) -> None:
        """Count every check on every segment of ``index``."""
        segs = index.segments()
        self.header = dict(index.header)
        self._header_facts()
        self.keys = [s.key for s in segs]
        self.plural = [self.row.in_plural(s) for s in segs]
        text = index.buf if hasattr(index, "buf") else index.text  # slices only: no copy of the whole text
        self.own = [self._own(s, text) for s in segs]
        self.plur: dict[str, list[Finding]] = {}
        self.incon: dict[str, list[Finding]] = {}
        self.gkey: list[Optional[object]] = []
        #: group -> keys of its segments (a list: most groups have one segment, a set weighs 216 bytes)
        self.groups: dict[object, list[str]] = {}
        for s in segs:
            g = self._group_of(s)
            self.gkey.append(g)
            if g is not None:
                self.groups.setdefault(g, []).append(s.key)
        self.incsrc: dict[str, list[Finding]] = {}
        self.tkey: list[Optional[object]] = []
        #: target group -> keys of its segments (one translation: ``inconsistent-source``)
        self.tgroups: dict[object, list[str]] = {}
        for s in segs:
            g = self._tgroup_of(s)
            self.tkey.append(g)
            if g is not None:
                self.tgroups.setdefault(g, []).append(s.key)
        self._index_keys()
        #: a key twice (a file read with problems): the maps by key cannot tell them apart, count all again
        self.twice = len(self._pos) != len(self.keys)
        if self.row.plurals is not None and any(self.plural):
            self._plurals(index, 0, len(segs))
        for g, members in self.groups.items():
            if len(members) > 1:
                self._group(index, g)
        for g, members in self.tgroups.items():
            if len(members) > 1:
                self._tgroup(index, g)

    def _header_facts(self) -> None:
        #: what the header says that the checks read (PO: the single-valued plural forms, nplurals)
        header = {**self.header, PATH_LANGUAGE: self.language} if self.language else self.header
        self.facts = self.row.header_facts(header) if self.row.header_facts is not None else {}
        self.nplurals = self.facts.get("nplurals")

    # -- one segment --------------------------------------------------------------------
    def _own(self, seg, text: str) -> list[Finding]:
        if not self.on:
            return []
        if self.row.segment is None:
            return []
        return self._rel(seg, self.row.segment(seg, self.format, text, self.given, self.facts))

    def _rel(self, seg, found) -> list[Finding]:
        base = seg.target_span[0]
        out = []
        for f in found:
            if f.code == "target-same-as-source" and seg.key in self.said:
                continue
            if self.sev.get(f.code, f.severity) is None:
                continue
            out.append(Finding(f.code, f.severity, f.message, (f.span[0] - base, f.span[1] - base), data=f.data))
        return out or _NONE

    def _group_of(self, s) -> Optional[object]:
        """The inconsistency group of a segment (None: it translates nothing): its source, white space
        collapsed (PO: with its msgctxt and plural form; a key-value file: with the plural category
        its key names)."""
        if not (self.row.same_source and s.source and s.source.strip() and s.target.strip()):
            return None
        src = _norm(s.source)
        fields = self.row.group_fields
        if fields:
            return (*(s.extra.get(f) for f in fields), src)
        if self.plural_category is not None:  # a key-value file's plural forms: each category apart
            return (self.plural_category(s.key), src)
        return src

    def _tgroup_of(self, s) -> Optional[object]:
        """The target group of a segment (None: it translates nothing): its target, white space
        collapsed (PO: with its plural form)."""
        if not (self.row.same_source and s.source and s.source.strip() and s.target.strip()):
            return None
        tgt = _norm(s.target)
        if "plural_index" in self.row.group_fields:
            return (s.extra.get("plural_index"), tgt)
        return tgt

    # -- what an edit changed ---------------------------------------------------------------
    def update(self, index, change) -> set[int]:
        """Count again what ``change`` (a :class:`~.live_offsets.Change` of ``index``) touched;
        the indexes of the segments outside ``[change.start, change.start + change.count)``
        whose findings changed too."""
        if change.keys_changed or self.twice or index.header != self.header:  # a header edit may leave every segment as it was
            self.full(index)
            return set(range(len(index)))
        if change.kind == "none":
            return set()
        a = change.start
        if change.kind == "text":
            b, count = a + 1, 1
        else:
            b, count = change.end, change.count
        old_keys = self.keys[a:b]
        old_groups = [g for g in self.gkey[a:b] if g is not None]
        old_tgroups = [g for g in self.tkey[a:b] if g is not None]
        for k, g in zip(old_keys, self.gkey[a:b]):
            if g is not None and k in self.groups[g]:
                self.groups[g].remove(k)
            self.plur.pop(k, None)
            self.incon.pop(k, None)
        for k, g in zip(old_keys, self.tkey[a:b]):
            if g is not None and k in self.tgroups[g]:
                self.tgroups[g].remove(k)
            self.incsrc.pop(k, None)
        fresh = [index.segment(i) for i in range(a, a + count)]
        text = index.buf if hasattr(index, "buf") else index.text
        self.keys[a:b] = [s.key for s in fresh]
        self.plural[a:b] = [self.row.in_plural(s) for s in fresh]
        self.own[a:b] = [self._own(s, text) for s in fresh]
        got = [self._group_of(s) for s in fresh]
        self.gkey[a:b] = got
        tgot = [self._tgroup_of(s) for s in fresh]
        self.tkey[a:b] = tgot
        for k in old_keys:
            self._pos.pop(k, None)
        if count != b - a:  # the keys after the edit move: said once, applied when one is looked up
            self._moves.append((b, count - (b - a)))
        stamp = len(self._moves)
        for i, k in enumerate(self.keys[a : a + count], a):
            self._pos[k] = (i, stamp)
        if len(self._pos) != len(self.keys):
            self.full(index)  # the edit made a key twice
            return set(range(len(index)))
        for s, g in zip(fresh, got):
            if g is not None:
                self.groups.setdefault(g, []).append(s.key)
        for s, g in zip(fresh, tgot):
            if g is not None:
                self.tgroups.setdefault(g, []).append(s.key)
        touched: set[int] = set()
        if self.row.plurals is not None and (any(self.plural[max(0, a - 1) : a + count + 1]) or
                                             self.nplurals is None and any(self.plural)):
            touched |= self._plurals(index, a, a + count)
        for g in {*old_groups, *(g for g in got if g is not None)}:
            touched |= self._group(index, g)
        for g in {*old_tgroups, *(g for g in tgot if g is not None)}:
            touched |= self._tgroup(index, g)
        return {i for i in touched if not a <= i < a + count}

    # -- the document-wide checks -----------------------------------------------------------
    def _index_keys(self) -> None:
        """Key -> (its segment's index, the moves made before it was noted)."""
        self._pos: dict[str, tuple[int, int]] = {k: (i, 0) for i, k in enumerate(self.keys)}
        #: (first old index moved, by how much): the structural edits since (a paste moves every
        #: segment after it; the map is not made again for it)
        self._moves: list[tuple[int, int]] = []

    def _where(self, key: str) -> int:
        if len(self._moves) > MOVES:
            self._index_keys()
        i, stamp = self._pos[key]
        for at, d in self._moves[stamp:]:
            if i >= at:
                i += d
        if not (0 <= i < len(self.keys)) or self.keys[i] != key:  # (never expected) the map made again
            self._index_keys()
            i = self._pos[key][0]
        return i

    def _plurals(self, index, a: int, b: int) -> set[int]:
        """The plural checks of the run of plural segments around [a, b) (all of them without nplurals)."""
        n = len(self.keys)
        if self.nplurals is None:
            lo, hi = 0, n
        else:
            lo, hi = a, b
            while lo > 0 and self.plural[lo - 1]:
                lo -= 1
            while hi < n and self.plural[hi]:
                hi += 1
        segs = [index.segment(i) for i in range(lo, hi)] if self.nplurals is not None or not self.on else [
            index.segment(i) for i in range(n) if self.plural[i]]
        changed: set[int] = set()
        for s in segs:
            if self.plur.pop(s.key, None) is not None:
                changed.add(self._where(s.key))
        if not self.on:
            return changed
        header = {**self.header, PATH_LANGUAGE: self.language} if self.language else self.header
        found = self.row.plurals(SegmentDocument(self.format, segs, header=header), self.given)  # type: ignore[misc]
        for s in segs:
            rel = self._rel(s, found.get(s.key, ()))
            if rel:
                self.plur[s.key] = rel
                changed.add(self._where(s.key))
        return changed

    def _group(self, index, g: object) -> set[int]:
        """The inconsistency findings of the segments translating source ``g``."""
        members = self.groups.get(g)
        changed: set[int] = set()
        if not members:
            self.groups.pop(g, None)
            return changed
        where = sorted(self._where(k) for k in members)
        for i in where:
            if self.incon.pop(self.keys[i], None) is not None:
                changed.add(i)
        if len(where) < 2 or not self.on:
            return changed
        # the targets, white space collapsed, of a group's segments (made here: not kept for every segment)
        norm = {i: _norm(index.segment(i).target) for i in where}
        if len(set(norm.values())) < 2:
            return changed
        sev = self.given.get("inconsistent-translation", XML_SEVERITY["inconsistent-translation"])
        if self.sev.get("inconsistent-translation", sev) is None:
            return changed
        for i in where:
            others = [self.keys[j] for j in where if j != i and norm[j] != norm[i]]
            msg = f"The same source is translated differently in {', '.join(others[:3])}{'…' if len(others) > 3 else ''}."
            a, b = index.target_span(i)
            self.incon[self.keys[i]] = [Finding("inconsistent-translation", sev, msg, (0, b - a))]
            changed.add(i)
        return changed

    def _tgroup(self, index, g: object) -> set[int]:
        """The ``inconsistent-source`` findings of the segments with target ``g``."""
        members = self.tgroups.get(g)
        changed: set[int] = set()
        if not members:
            self.tgroups.pop(g, None)
            return changed
        where = sorted(self._where(k) for k in members)
        for i in where:
            if self.incsrc.pop(self.keys[i], None) is not None:
                changed.add(i)
        if len(where) < 2 or not self.on:
            return changed
        srcs = {i: index.segment(i).source or "" for i in where}
        ids = {i: source_identity(t) for i, t in srcs.items()}
        if len(set(ids.values())) < 2:
            return changed
        sev = self.given.get("inconsistent-source", XML_SEVERITY["inconsistent-source"])
        if self.sev.get("inconsistent-source", sev) is None:
            return changed
        for i in where:
            others = [(self.keys[j], srcs[j]) for j in where if j != i and ids[j] != ids[i]]
            a, b = index.target_span(i)
            self.incsrc[self.keys[i]] = [Finding("inconsistent-source", sev, other_sources_message(others), (0, b - a))]
            changed.add(i)
        return changed

    # -- reading ---------------------------------------------------------------------------
    def at(self, i: int) -> list[Finding]:
        """Segment ``i``'s findings (spans relative to its target start), in :func:`findings_for`'s order."""
        k = self.keys[i]
        out = self.own[i]
        more = self.plur.get(k), self.incon.get(k), self.incsrc.get(k)
        if more[0] or more[1] or more[2]:
            out = out + (more[0] or []) + (more[1] or []) + (more[2] or [])
        return out
