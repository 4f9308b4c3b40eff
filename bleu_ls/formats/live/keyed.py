"""The live index of key-value localization files (JSON, ARB, WebExtension…): each reading's
segments given their source values by key from the source-language document
(:func:`~bleu_ls.formats.keyed.fill_sources`), so the checks and rules read sources as in a PO file.

An edit inside one value that neither removes nor types a quote, a backslash or a control
character (a word typed, deleted or pasted inside a value without escapes) changes that value
only: it is spliced in place (no reading).  In a localization JSON file (:class:`JsonIndex`) any
other edit reads the text from the end of the last value before it to the start of the first
value after it alone (:func:`~..l10n_json.scan_region`), from the state the file's scan was in
there, and splices the values it holds, when that read ends where the value after it is
expected, at the same path, says no problem and names no member the rest of the file has;
in a ``.properties`` file (:class:`PropertiesIndex`) the logical lines it touched; in an Android
``strings.xml`` (:class:`AndroidIndex`) the elements of ``<resources>`` it reaches into, read alone
after the file's text up to the end of the root's start tag.  The source values of the spliced
segments are those they had when their keys are the same; a key added or removed is paired with the
source alone (:class:`_SourceKeys`: each key once, the exact key, no fallback that could pair it
otherwise), else the file is paired with its source again (no reading).  Otherwise, and in the other
formats, the whole text is read again and every key paired (:class:`~.whole.WholeIndex`): linear in
the file (on 100,000 keys, seconds; see docs/formats.md).

Plain Python; imports nothing from the server.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from bisect import bisect_left
from dataclasses import replace
from typing import Callable, Optional

import numpy as np

from ..finding import Finding, problem
from ..keyed import SOURCE_MISSING, fill_sources
from ..match import PLURAL_FORMS
from ..l10n_json import AFTER, VALUE, Frame, read_json_live, scan_region, split_key
from ..model import Segment, SegmentDocument
from .arrays import Shifted
from .index import LiveIndex
from .offsets import Change, shift_segment
from .whole import WholeIndex

#: text that, typed or removed inside a value, leaves the file's structure as it was
_INERT = re.compile(r'[^"\\\x00-\x1f]*\Z')


class _SourceKeys:
    """A source-language document's keys paired with those of a file that names each key once, by the
    exact key alone (a format with no fallback): which source segments a key of the file pairs with,
    kept as an edit's keys come and go, so that a key added pairs alone.  What :func:`fill_sources`
    gives: each segment's source, the header's :data:`SOURCE_MISSING`."""

    def __init__(self, source: SegmentDocument, odd: Optional[Callable[[str], bool]] = None,
                 form_of: Optional[Callable[[str], Optional[tuple[str, str]]]] = None) -> None:
        self.keys = [s.key for s in source.segments]
        #: a key of the source the format's fallback may pair otherwise than by the exact key
        self.odd = odd is not None and any(odd(k) for k in self.keys)
        self.texts = [s.target for s in source.segments]
        #: key -> its first source segment (the one a key pairs with)
        self.at: dict[str, int] = {}
        for j, k in enumerate(self.keys):
            self.at.setdefault(k, j)
        #: per source segment: a key of the file pairs with it (by the exact key)
        self.used = np.zeros(len(self.keys), bool)
        #: key -> (entry, category) of a plural form (``plural_keys.py``; None: the format has none)
        self.form_of = form_of
        #: per source segment, the plural entry it is a form of (None: none); per entry, the segment a
        #: form the source lacks pairs with (its ``other``, else its first: as ``match.pair_documents``)
        self.entry_of: list[Optional[str]] = []
        self.entry_source: dict[str, int] = {}
        #: plural entry -> how many keys of the file are its forms
        self.entries: Counter = Counter()
        if form_of is not None:
            others: dict[str, int] = {}
            for j, k in enumerate(self.keys):
                f = form_of(k)
                self.entry_of.append(None if f is None else f[0])
                if f is not None:
                    self.entry_source.setdefault(f[0], j)
                    if f[1] == "other":
                        others.setdefault(f[0], j)
            self.entry_source.update(others)

    def _entry(self, key: str) -> Optional[str]:
        f = self.form_of(key) if self.form_of is not None else None
        return None if f is None else f[0]

    def start(self, segs: list[Segment]) -> None:
        """Paired with the keys of ``segs`` (no reading: their sources are set already)."""
        at = self.at
        self.used = np.zeros(len(self.keys), bool)
        self.used[[at[k] for k in (s.key for s in segs) if k in at]] = True
        if self.form_of is not None:
            self.entries = Counter(e for e in map(self._entry, (s.key for s in segs)) if e is not None)

    def source_of(self, key: str) -> Optional[str]:
        j = self.at.get(key)
        if j is None and self.form_of is not None:  # a plural form the source lacks: its entry's
            entry = self._entry(key)
            j = self.entry_source.get(entry) if entry is not None else None
        return None if j is None else self.texts[j]

    def move(self, gone: list[str], came: list[str]) -> bool:
        """Keys gone from the file, then keys come into it; whether a source segment's pairing may have changed."""
        at, used = self.at, self.used
        touched = [at[k] for k in gone if k in at]
        was = used[touched].tolist()
        used[touched] = False
        got = [at[k] for k in came if k in at]
        used[got] = True
        plural = False
        if self.form_of is not None:
            for keys, step in ((gone, -1), (came, 1)):
                for e in map(self._entry, keys):
                    if e is not None:
                        self.entries[e] += step
                        plural = True
        return bool(got) or any(was) or plural

    def missing(self, first: str) -> str:
        """:data:`SOURCE_MISSING` of the file whose first key is ``first`` (as :func:`fill_sources` writes it:
        a source form of a plural entry the file has in other forms is not missing)."""
        used, keys, texts = self.used, self.keys, self.texts
        entry_of, entries = self.entry_of, self.entries
        out: dict[str, list[list]] = {}
        after: Optional[str] = None  # the key of the nearest paired source segment above
        for j in np.flatnonzero(~used).tolist():
            if j == 0:
                after = None
            elif used[j - 1]:
                after = keys[j - 1]
            if entry_of and entry_of[j] is not None and entries[entry_of[j]] > 0:
                continue
            out.setdefault(first if after is None else after, []).append([keys[j], texts[j], after is None])
        return json.dumps(out, ensure_ascii=False)


class KeyedIndex(WholeIndex):
    """A :class:`WholeIndex` whose segments carry the source values of :attr:`source` (None: no source)."""

    def __init__(self, fmt: str, text: str) -> None:
        from ..read import parse  # the readers of every format

        self.source: Optional[SegmentDocument] = None
        self.source_name = ""

        def read(t: str) -> SegmentDocument:
            doc = self._parse(t) if self._parse is not None else parse(fmt, b"", "buffer", text=t)
            if self.source is not None:
                fill_sources(doc, self.source, self.source_name)
            return doc

        LiveIndex.__init__(self, fmt, text, reader=read)

    #: the index's own reader of a whole text (None: the format's)
    _parse: Optional[Callable[[str], SegmentDocument]] = None

    #: a value's closing quote is right after its target's end, always (the JSON family's readers and the
    #: splices above keep it: a value is read only once closed, a word typed in it is no quote)
    _closing_quote = True

    def quoted(self, which: np.ndarray) -> np.ndarray:
        """1 for each segment of ``which`` whose target's end is followed by its closing quote (where a
        quoted value's hint goes, after it: the server's ``hint_offsets``), else 0; no text read for the
        JSON family."""
        if self._closing_quote:
            return np.ones(len(which), np.int64)
        text = self._text
        return np.fromiter((text.startswith('"', e) for e in self.target_ends(which).tolist()), np.int64, len(which))

    #: every splice of an edit leaves each key of the file once (the splices' own condition) and the format
    #: pairs by the exact key alone: a key an edit adds or removes is paired alone (:class:`_SourceKeys`)
    _unique_keys = False
    _pairs: Optional[_SourceKeys] = None
    #: a key the format's fallback may pair otherwise than by the exact key (None: none does): while the
    #: file or its source has one, a key added or gone pairs the whole file again
    _odd_key: Optional[Callable[[str], bool]] = None
    #: how many of the file's keys are odd
    _odd = 0

    def set_source(self, source: Optional[SegmentDocument], name: str = "") -> None:
        """Pair with ``source`` (None: with none): the segments as read given their sources (no reading;
        with none, the text read again)."""
        self.source, self.source_name = source, name
        self._pairs = _SourceKeys(source, self._odd_key, PLURAL_FORMS.get(self.format)) if source is not None \
            and self._unique_keys \
            and self._by_key_alone(source) else None
        if source is None:
            self.reset(self.text)
            return
        fill_sources(SegmentDocument(self.format, self.segments(), header=self.header), source, name)
        if self._pairs is not None:
            self._pairs.start(self._segs)

    def _by_key_alone(self, source: SegmentDocument) -> bool:
        """The format's fallback pairs nothing with ``source`` that the exact key leaves (the formats with one
        that pairs by source text say so)."""
        return True

    def reset(self, text: str) -> None:
        super().reset(text)
        odd = self._odd_key
        self._odd = sum(1 for s in self._segs if odd(s.key)) if odd is not None else 0
        if self._pairs is not None:  # paired again by the read
            self._pairs.start(self._segs)

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._typed_in_value(start, end, new)
        return got if got is not None else super()._edit(start, end, new)

    def _typed_in_value(self, start: int, end: int, new: str) -> Optional[Change]:
        """The edit spliced into one value when it is typed inside it and leaves it plain, else None."""
        i = self.at_offset(start) if not self.problems else None
        if i is not None:
            a, b = self.target_span(i)
            if a <= start and end <= b and _INERT.match(new) and _INERT.match(self._text.slice(start, end)):
                seg = self.segment(i)
                if not seg.runs:  # the value's text is its characters in the file
                    return self._in_value(i, seg, a, b, start, end, new)
        return None

    def _splice_read(self, a: int, b: int, fresh: list[Segment], delta: int, line_delta: int) -> Change:
        """Segments ``[a, b)`` replaced by ``fresh``, read alone (the edit already made in the text): their
        sources those the old ones had when the keys are the same, else the file paired again (no reading)."""
        olds = [self.segment(k) for k in range(a, b)]
        same_keys = [s.key for s in fresh] == [s.key for s in olds]
        if self.source is not None and same_keys:
            for f, o in zip(fresh, olds):
                f.source = o.source
        count = len(fresh)
        odd, was_odd = self._odd_key, self._odd
        if odd is not None:
            self._odd += sum(1 for f in fresh if odd(f.key)) - sum(1 for o in olds if odd(o.key))
        pairs = self._pairs if self.source is not None and not same_keys else None
        if pairs is not None and (pairs.odd or self._odd):  # the fallback may pair them: the whole pairing
            pairs = None
        if pairs is not None:  # each key once, the exact key alone: the keys that came paired alone
            for f in fresh:
                f.source = pairs.source_of(f.key)
            first = self._segs[0].key if self._segs else ""
        self._replace(a, b, olds, fresh, delta, line_delta)
        if pairs is not None:
            repaired = pairs.move([o.key for o in olds], [f.key for f in fresh])
            now_first = self._segs[0].key if self._segs else ""
            if repaired or now_first != first or was_odd:  # (a flat key gone: the fallback had paired it)
                self.header[SOURCE_MISSING] = pairs.missing(now_first)
        elif self.source is not None and not same_keys:  # keys added or gone: the file paired again
            before = [s.source for s in self._segs]
            # the segments as kept (a pending move applied later keeps the source set here): no copy of each
            fill_sources(SegmentDocument(self.format, self._segs, header=self.header), self.source, self.source_name)
            if self._pairs is not None:
                self._pairs.start(self._segs)
            moved = [k for k, s in enumerate(self._segs) if (k < a or k >= a + count) and s.source != before[k]]
            if moved:  # sources of segments outside the splice changed: the change covers them
                lo, hi = min(moved[0], a), max(moved[-1] + 1, a + count)
                return Change("structure", lo, hi - count + (b - a), hi - lo, True, False, False, delta, line_delta)
        if count == b - a == 1 and fresh[0].key == olds[0].key and fresh[0].line == olds[0].line \
                and fresh[0].target_span[0] == olds[0].target_span[0]:
            return Change("text", a, b, 1, fresh[0].target != olds[0].target, False, False, delta, line_delta)
        if count == b - a == 0:
            return Change("none", a, b, 0, False, False, False, delta, line_delta)
        return Change("structure", a, b, count, True, False, False, delta, line_delta)

    def _in_value(self, i: int, seg: Segment, a: int, b: int, start: int, end: int, new: str) -> Change:
        """``new`` typed over ``[start, end)`` inside segment ``i``'s value ``[a, b)``: that segment only."""
        delta = len(new) - (end - start)
        self._text.replace(start, end, new)
        target = seg.target[: start - a] + new + seg.target[end - a:]
        fresh = Segment(key=seg.key, target=target, target_span=(a, b + delta), line=seg.line, source=seg.source,
                        draft=seg.draft, state=seg.state, state_qualifier=seg.state_qualifier, notes=seg.notes,
                        flags=seg.flags, extra=seg.extra)
        self._splice(i, i + 1, [fresh], delta, 0)
        return Change("text", i, i + 1, 1, target != seg.target, False, False, delta, 0)


class KeyedRereadIndex(KeyedIndex):
    """A :class:`KeyedIndex` that reads the whole text again after every edit: the key-value formats with no
    region read of their own yet (``.stringsdict``, YAML; Android, ``.properties`` and ``.strings`` have
    theirs above)."""

    _closing_quote = False

    def _edit(self, start: int, end: int, new: str) -> Change:
        return WholeIndex._edit(self, start, end, new)


def _kept(old: Segment, fresh: Segment, delta: int, line_delta: int) -> bool:
    """``fresh``, read again, is ``old`` moved by ``delta`` characters and ``line_delta`` lines (its source then ``old``'s)."""
    if old.key != fresh.key or old.target != fresh.target:
        return False
    fresh.source = old.source
    return shift_segment(old, delta, line_delta) == fresh


class AndroidIndex(KeyedIndex):
    """An Android ``strings.xml``: an edit reads again the elements of ``<resources>`` it touched (each
    ``<string>``, ``<plurals>``, ``<string-array>``… the edit's range reaches into), with what lies
    between them and the elements around it (white space, comments), from the end of the element before
    it to the start of the element after it; that text is read alone after the file's own text up to
    the end of the root's start tag (its declaration, DOCTYPE and namespaces) and before a
    ``</resources>``, by the reader of the whole file (:func:`~..android.read_android_live`, the safe
    expat layer: nothing fetched or expanded), and its segments and aapt2's refusals of their values
    spliced.  The whole text is read when the file has a problem other than those refusals (malformed
    XML, not a resource file) or a key twice, when the edit reaches into the text before the end of
    the root's start tag or from its end tag on, or when the text read alone is not whole elements
    read without a problem (an element or a comment left open, a ``</resources>`` typed…), names a
    key the rest of the file has, or a name the file gives twice (``product`` variants, numbered in
    file order: before the edit or after it)."""

    _closing_quote = False
    _unique_keys = True

    def _parse(self, t: str) -> SegmentDocument:
        from ..android import read_android_live

        doc, self._layout = read_android_live(t)
        return doc

    def reset(self, text: str) -> None:
        super().reset(text)
        lay = self._layout
        #: each top-level element's ``<`` and the end of its end tag, moved lazily as the segments' offsets
        self._el_start, self._el_end = Shifted(lay.starts), Shifted(lay.ends)
        #: the ``<`` of the root's end tag
        self._close = lay.close
        #: the text up to the end of the root's start tag (what a region is read after)
        self._prefix = text[: lay.root_end] if lay.clean else ""
        self._prefix_lines = self._prefix.count("\n")
        self._keys = {s.key for s in self._segs}
        self._plain = lay.clean and len(self._keys) == len(self._segs)

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._elements(start, end, new) if self._plain else None
        return got if got is not None else WholeIndex._edit(self, start, end, new)

    def _elements(self, start: int, end: int, new: str) -> Optional[Change]:
        """The edit of ``[start, end)`` read from the end of the element before it to the start of the
        element after it, and the segments there spliced; None: read the whole text."""
        from ..android import read_android_live

        root_end = len(self._prefix)
        if start < root_end or end > self._close:
            return None
        text, starts, ends = self._text, self._el_start, self._el_end
        m = len(starts)
        i = ends.searchsorted(start, "right") - 1  # the last element ending at or before the edit
        j = starts.searchsorted(end, "left")  # the first starting at or after it
        w0 = ends.get(i) if i >= 0 else root_end
        w1 = starts.get(j) if j < m else self._close
        old = text.slice(w0, w1)
        region = old[: start - w0] + new + old[end - w0:]
        doc, lay = read_android_live(self._prefix + region + "</resources>")
        if not lay.clean or lay.root_end != root_end or doc.header:
            return None
        # the segments of the elements read (a value's start is after its element's start tag, so a
        # segment starting at w0 is the element before's, an empty one: <string name="x"/>)
        a = self._tstart.searchsorted(w0, "right")
        b = self._tstart.searchsorted(w1, "right")
        keys = [s.key for s in doc.segments]
        gone = {self._segs[k].key for k in range(a, b)}
        if len(set(keys)) != len(keys) or any(k in self._keys and k not in gone for k in keys):
            return None
        # a name given twice in the file (``product`` variants: ``name``, ``name#2``…) is numbered in file
        # order: the elements read must hold none of them, before the edit as after it
        segs, have = self._segs, self._keys
        if "duplicate-keys" in self.header and any(
                "duplicate" in segs[k].extra or segs[k].key + "#2" in have for k in range(a, b)):
            return None

        # the edit holds: apply it
        base = w0 - root_end
        base_line = text.line_of(w0) - self._prefix_lines
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - old.count("\n", start - w0, end - w0)
        text.replace(start, end, new)
        self._keys.difference_update(gone)
        self._keys.update(keys)
        starts.splice(i + 1, j, [x + base for x in lay.starts], delta)
        ends.splice(i + 1, j, [x + base for x in lay.ends], delta)
        self._close += delta
        problems_changed = self._problems_spliced(w0, w1, doc.problems, base, delta, line_delta)
        fresh = [shift_segment(s, base, base_line) for s in doc.segments]
        # the segments the read left as they were (the other items of a <plurals>…) kept: the change is the rest
        olds = [self.segment(k) for k in range(a, b)]
        p, lim = 0, min(len(olds), len(fresh))
        while p < lim and _kept(olds[p], fresh[p], 0, 0):
            p += 1
        q = 0
        while q < lim - p and _kept(olds[-1 - q], fresh[-1 - q], delta, line_delta):
            q += 1
        change = self._splice_read(a + p, b - q, fresh[p: len(fresh) - q], delta, line_delta)
        return replace(change, problems_changed=True) if problems_changed else change

    def _problems_spliced(self, w0: int, w1: int, came: list[Finding], base: int, delta: int, line_delta: int) -> bool:
        """aapt2's refusals in the old text's ``[w0, w1)`` replaced by ``came`` (read at ``base``), those
        after moved (the text already edited); whether they changed."""
        probs = self.problems
        if not probs and not came:
            return False
        lo = bisect_left(probs, w0, key=lambda p: p.offset)
        hi = bisect_left(probs, w1, key=lambda p: p.offset)
        text = self._text
        fresh = []
        for p in came:
            off = p.offset + base
            ln = text.line_of(off)
            fresh.append(problem(off, ln, off - text.line_start(ln), p.message))
        later = probs[hi:]
        if later and (delta or line_delta):
            edge = text.line_of(w1 + delta)  # the line the region ends on: a problem after it there has moved along it
            moved = []
            for p in later:
                q = p.shifted(delta, line_delta)
                if q.line == edge:
                    q = replace(q, start_col=q.offset - text.line_start(edge))
                moved.append(q)
            later = moved
        self.problems = probs[:lo] + fresh + later
        return bool(hi > lo or fresh or (later and (delta or line_delta)))


class StringsIndex(KeyedIndex):
    """An Apple ``.strings`` file: an edit reads again the entries it touched, from the ``;`` of the last
    entry ending before it to the ``;`` of the first entry ending after it (so the comment before an
    entry, its note, is read with it), and splices their segments, when the file has no problem (a key
    defined twice is one) and the text read alone has none and names no key the rest of the file has;
    else it reads the whole text."""

    _closing_quote = False
    _unique_keys = True

    def _by_key_alone(self, source: SegmentDocument) -> bool:
        # the fallback (match._source_fallback) pairs segments whose source texts are the same: a source
        # document's segments have none (its reader sets none), so it pairs nothing
        return not any(s.source for s in source.segments)

    def reset(self, text: str) -> None:
        super().reset(text)
        self._keys = {s.key for s in self._segs}
        self._plain = not self.problems and len(self._keys) == len(self._segs)

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._entries(start, end, new) if self._plain else None
        return got if got is not None else WholeIndex._edit(self, start, end, new)

    def _entry_end(self, k: int) -> Optional[int]:
        """The offset after the ``;`` of segment ``k``'s entry (None: not found)."""
        from ..apple_strings import entry_end

        e = self._tend.get(k)
        stop = self._tstart.get(k + 1) if k + 1 < len(self._segs) else len(self._text)
        got = entry_end(self._text.slice(e, stop))
        return None if got is None else e + got

    def _entries(self, start: int, end: int, new: str) -> Optional[Change]:
        from ..apple_strings import read_strings

        n, text = len(self._segs), self._text
        i = self._tend.searchsorted(start, "left") - 1  # the last value ending before the edit
        w0 = 0
        while i >= 0:  # its entry's ";" may be after the edit's start: then the entry before
            e = self._entry_end(i)
            if e is None:
                return None
            if e <= start:
                w0 = e
                break
            i -= 1
        j = self._tend.searchsorted(end, "left")  # the first value ending at or after the edit's end
        if j - 1 > i:  # the entry before it may end after the edit's end (an edit before its ";")
            e = self._entry_end(j - 1)
            if e is None:
                return None
            if e > end:
                j -= 1
        if j < n:
            e = self._entry_end(j)
            if e is None:
                return None
            w1 = e
        else:
            w1 = len(text)
        old = text.slice(w0, w1)
        region = old[: start - w0] + new + old[end - w0:]
        doc = read_strings(region)
        a, b = i + 1, min(j + 1, n)
        keys = [s.key for s in doc.segments]
        gone = {self._segs[k].key for k in range(a, b)}
        if doc.problems or doc.header or len(set(keys)) != len(keys) or any(
                k in self._keys and k not in gone for k in keys):
            return None
        if j < n:  # the text read ends with an entry: a comment after it would be the next entry's note
            from ..apple_strings import entry_end

            last = doc.segments[-1].target_span[1] if doc.segments else 0
            tail = entry_end(region[last:]) if doc.segments else 0
            if tail is None or region[last + tail:].strip(" \t\r\n\f\v\ufeff"):
                return None
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - old.count("\n", start - w0, end - w0)
        base_line = text.line_of(w0)
        text.replace(start, end, new)
        self._keys.difference_update(gone)
        self._keys.update(keys)
        fresh = [shift_segment(s, w0, base_line) for s in doc.segments]
        return self._splice_read(a, b, fresh, delta, line_delta)


class JsonIndex(KeyedIndex):
    """A :class:`KeyedIndex` of localization JSON (i18next…) whose edits outside a value read the
    text between the values around them alone (the module's doc)."""

    #: each key once when an edit is spliced (no member twice); the fallback pairs a flat key (``a\\.b``)
    #: with a nested one: a key with an escaped dot is odd
    _unique_keys = True
    _odd_key = staticmethod(lambda key: "\\." in key)

    def __init__(self, fmt: str, text: str) -> None:
        #: the paths of every object member and every array of the file (kept while it has no problem)
        self._members: set[tuple[str, ...]] = set()
        self._arrays: set[tuple[str, ...]] = set()
        super().__init__(fmt, text)

    def _parse(self, t: str) -> SegmentDocument:
        doc, self._members, self._arrays = read_json_live(t)
        return doc

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._typed_in_value(start, end, new)
        if got is None and not self.problems:
            got = self._between_values(start, end, new)
        return got if got is not None else WholeIndex._edit(self, start, end, new)

    def _frames(self, key: str) -> Optional[list[Frame]]:
        """The containers open at the value of the segment keyed ``key`` (None: a key that does not say them)."""
        if not key:  # the file's one value, or a member named "": read the whole
            return None
        parts = tuple(split_key(key))
        out: list[Frame] = []
        for k in range(len(parts)):
            path = parts[:k]
            if path in self._arrays:
                if not parts[k].isdigit():
                    return None
                out.append(["a", path, int(parts[k]) + 1])
            else:
                out.append(["o", path, 0])
        return out

    def _between_values(self, start: int, end: int, new: str) -> Optional[Change]:
        """The edit of ``[start, end)`` read from the end of the last value before it to the start of
        the first value after it, and the values between spliced; None: read the whole text."""
        n = len(self._segs)
        if not n:
            return None
        i = int(self._tend.searchsorted(start, "left")) - 1  # the last value closed before the edit
        j = int(self._tstart.searchsorted(end, "right"))  # the first value opened after it
        text = self._text
        if i >= 0:
            w0 = self._tend.get(i) + 1  # after its closing quote
            frames = self._frames(self._segs[i].key)
            if frames is None:
                return None
            state, pending, skip = AFTER, (), 0
        else:
            w0, frames, state, pending = 0, [], VALUE, ()
        w1 = self._tstart.get(j) - 1 if j < n else len(text)  # its opening quote
        if j < n:
            want = self._frames(self._segs[j].key)
            if want is None:
                return None
            want_path = tuple(split_key(self._segs[j].key))
        old = text.slice(w0, w1)
        fresh_text = old[: start - w0] + new + old[end - w0:]
        regions = []
        for piece in (old, fresh_text):
            skip = 1 if w0 == 0 and piece.startswith("\ufeff") else 0
            r = scan_region(piece, skip, frames, state, pending)
            if r is None:
                return None
            if j < n:
                if r.state != VALUE or r.frames != want or r.pending != want_path:
                    return None
            elif r.state != AFTER or r.frames:
                return None
            regions.append(r)
        was, now = regions
        gone = set(was.members)
        if len(set(now.members)) != len(now.members):  # a member named twice: the whole read says it
            return None
        members = self._members
        if any(m in members and m not in gone for m in now.members):
            return None

        # the edit holds: apply it
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - text.count("\n", start, end)
        text.replace(start, end, new)
        members.difference_update(gone)
        members.update(now.members)
        self._arrays.difference_update(was.arrays)
        self._arrays.update(now.arrays)
        base_line = text.line_of(w0)
        fresh = [shift_segment(s, w0, base_line) for s in now.segments]
        return self._splice_read(i + 1, j, fresh, delta, line_delta)


def _continues(piece: str) -> bool:
    """The natural line ending ``piece`` (with its line break) goes on on the next one: it ends in an odd
    number of backslashes (a comment's too: the region read is then only longer, never wrong)."""
    body = piece[:-2] if piece.endswith("\r\n") else piece[:-1]
    return (len(body) - len(body.rstrip("\\"))) % 2 == 1


_LONE_CR = re.compile(r"\r(?!\n)")


class PropertiesIndex(KeyedIndex):
    """A ``.properties`` file: an edit reads again the logical lines it touched (from the natural line
    after one that does not end in a backslash to the next such line end, in the old text and the new),
    and splices their segments, when the file has no problem, no key twice and no lone ``\\r`` line
    break (which the reader counts as a line, the editor not), and the lines read have none either and
    none of their keys is a key of the rest of the file; else it reads the whole text."""

    _closing_quote = False
    _unique_keys = True

    def reset(self, text: str) -> None:
        super().reset(text)
        self._keys = {s.key for s in self._segs}
        self._plain = (not self.problems and "" not in self._keys and _LONE_CR.search(text) is None
                       and not any("duplicate" in s.extra for s in self._segs))

    def _edit(self, start: int, end: int, new: str) -> Change:
        got = self._lines(start, end, new) if self._plain else None
        return got if got is not None else WholeIndex._edit(self, start, end, new)

    def _lines(self, start: int, end: int, new: str) -> Optional[Change]:
        from ..properties import read_properties

        text = self._text
        n, lines = len(text), text.line_count
        first = text.line_of(start)
        while first > 0 and _continues(text.slice(text.line_start(first - 1), text.line_start(first))):
            first -= 1
        r0 = text.line_start(first)
        last = text.line_of(end)
        while True:  # to a line end that continues nothing, in the old text and the new alike
            e = text.line_start(last + 1) if last + 1 < lines else n
            old = text.slice(r0, e)
            region = old[: start - r0] + new + old[end - r0:]
            if e >= n or not (_continues(old) or _continues(region)):
                break
            last += 1
        if _LONE_CR.search(region) is not None or (e < n and region.endswith("\r")):
            return None
        doc = read_properties(region)
        a = self.anchors_from(first, "left")
        b = self.anchors_from(last, "right") if e < n else len(self._segs)
        gone = {self._segs[k].key for k in range(a, b)}
        keys = [s.key for s in doc.segments]
        if doc.problems or doc.header or "" in keys or len(set(keys)) != len(keys) or any(
                k in self._keys and k not in gone for k in keys):
            return None
        delta = len(new) - (end - start)
        line_delta = new.count("\n") - old.count("\n", start - r0, end - r0)
        text.replace(start, end, new)
        self._keys.difference_update(gone)
        self._keys.update(keys)
        fresh = [shift_segment(s, r0, first) for s in doc.segments]
        return self._splice_read(a, b, fresh, delta, line_delta)
