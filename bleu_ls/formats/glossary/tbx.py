"""TBX glossaries: ISO 30042:2019 ``<tbx>`` (TBX-Basic, DCA and DCT styles) and TBX 2008 ``<martif>``.

Read over the safe expat layer (:mod:`bleu_ls.formats.xmlscan`): no DTD is
read, a declared entity stops the read (entity bombs, ``SYSTEM`` entities),
nothing is fetched — a ``DOCTYPE`` with a URL, an ``xml-model`` processing
instruction or a schema location is never followed.

Structure read (element names compared by local name, so the 2019 namespace,
none, or a module's namespace alike)::

    tbx / martif (xml:lang: the source language)
      conceptEntry / termEntry                  one Concept (id)
        langSec / langSet (xml:lang)            the language of its terms
          termSec / tig / ntig (termGrp)        one Term
            term                                its text; inline markup (<hi>…) gives its text;
                                                white space normalised

Status of a term (inside its termSec/tig/ntig): the administrative status,
DCA ``<termNote type="administrativeStatus">`` or DCT
``<basic:administrativeStatus>`` / ``<min:administrativeStatus>`` (any
namespace), and the older ``<termNote type="normativeAuthorization">``:

* ``preferredTerm-admn-sts`` → preferred, ``admittedTerm-admn-sts`` →
  admitted, ``deprecatedTerm-admn-sts`` and ``supersededTerm-admn-sts`` →
  forbidden (normativeAuthorization: ``preferredTerm``, ``admittedTerm``,
  ``deprecatedTerm``, ``supersededTerm``, and ``standardizedTerm``,
  ``legalTerm``, ``regulatedTerm`` → preferred); the bare words
  (``preferred``, ``deprecated``, ``forbidden``, ``obsolete``…) that some
  exports write are read the same way;
* no status → preferred; a value not in this list → the term is skipped with
  a sentence (a misspelt "deprecated" must not make a term preferred).

Do-not-translate.  TBX has no standard data category for it; bleu-ls reads
the two conventions of Weblate and the Translate Toolkit, the tools that
read and write it in the open:

* ``<descrip type="Translation needed">No</descrip>`` — Weblate's
  documentation of its TBX format ("Terms with <descrip type="Translation
  needed">No</descrip> are imported as read-only strings, see Untranslatable
  terms"), as the Translate Toolkit's ``tbx`` store reads it
  (``istranslatable``).  At concept level it applies to every term of the
  concept, in a language or term section to the terms there;
* ``<termNote type="translationNote">no</termNote>`` in a term section — the
  form Weblate 5.12 to 5.16 documented.

The value is compared without case; ``no``/``false`` mean do not translate.
A term with an explicit forbidden status keeps it; every other term under
such a mark is do-not-translate.

Notes.  ``Concept.note``: the concept-level ``<descrip type="definition">``
(DCT: ``<basic:definition>``) and ``<note>`` (directly in the entry or in its ``descripGrp``), in file
order, one per line.  ``Term.note``: the term section's ``<note>`` and
``usageNote`` (``<termNote type="usageNote">`` or a module's
``usageNote`` element), one per line.  Notes of a language section are not
read.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..xmlscan import NS_SEP, XML_NS, Scanner
from .model import ADMITTED, DO_NOT_TRANSLATE, FORBIDDEN, PREFERRED, Concept, Glossary, Term
from .problems import NOT_USED, Skips, clean, place

_LANG = XML_NS + NS_SEP + "lang"
_ENTRY = frozenset({"conceptEntry", "termEntry"})
_LANGSEC = frozenset({"langSec", "langSet"})
_TERMSEC = frozenset({"termSec", "tig", "ntig"})
#: the element names that carry a term's status as their text (DCT style, any namespace)
_STATUS_ELEMENTS = frozenset({"administrativeStatus", "normativeAuthorization"})
_STATUS_TYPES = frozenset({"administrativeStatus", "normativeAuthorization"})

_STATUS_WORDS = {
    "preferred": PREFERRED, "standardized": PREFERRED, "legal": PREFERRED, "regulated": PREFERRED,
    "admitted": ADMITTED,
    "deprecated": FORBIDDEN, "superseded": FORBIDDEN, "forbidden": FORBIDDEN, "obsolete": FORBIDDEN,
}
_NO = frozenset({"no", "false"})

_MALFORMED = re.compile(r"^The XML is not well-formed at line \d+, column \d+: (.*?)\.?$", re.S)


def status_of(value: str) -> Optional[str]:
    """The status an administrativeStatus / normativeAuthorization value says, or None for an unknown value."""
    w = value.strip().lower()
    if w.endswith("-admn-sts"):
        w = w[: -len("-admn-sts")]
    if w.endswith("term"):
        w = w[: -len("term")]
    return _STATUS_WORDS.get(w)


class _Reader:
    """The expat handler: builds the concepts as the events come (no tree)."""

    pos: Callable[[], int]

    def __init__(self, text: str, path: str):
        self.src = text
        self.path = path
        self.skips = Skips(path, "term")
        self.concepts: list[Concept] = []
        self.languages: list[str] = []
        self._seen_langs: set[str] = set()
        self.root: Optional[str] = None
        self.root_lang: Optional[str] = None
        self.root_line = 1
        # the line of the last offset asked (offsets only grow: counted forward)
        self._off = 0
        self._line = 1
        # where we are
        self.depth = 0
        self.entry_depth = 0  # depth of the open conceptEntry (0: none)
        self.lang_depth = 0
        self.sec_depth = 0
        self.lang: Optional[str] = None
        # the entry being read
        self.entry_id: Optional[str] = None
        self.entry_line = 0
        self.entry_notes: list[str] = []
        self.entry_terms: list[Term] = []
        self.entry_dnt = False
        self.lang_dnt = False
        # the term section being read
        self.term_text: Optional[str] = None
        self.term_line = 0
        self.term_status: Optional[str] = None
        self.term_bad_status: Optional[str] = None
        self.term_notes: list[str] = []
        self.term_dnt = False
        # the text being captured: (what, its depth)
        self.buf: Optional[list[str]] = None
        self.capture: Optional[str] = None
        self.capture_depth = 0
        self.inner = 0

    # --- positions --------------------------------------------------------
    def line(self) -> int:
        off = self.pos()
        if off >= self._off:
            self._line += self.src.count("\n", self._off, off)
        else:  # cannot happen in one scan; be right anyway
            self._line = self.src.count("\n", 0, off) + 1
        self._off = off
        return self._line

    # --- expat callbacks --------------------------------------------------
    def start(self, name: str, attrs: dict) -> None:
        self.depth += 1
        if self.buf is not None:
            self.inner += 1  # inline markup inside a captured element: its text is kept
            return
        local = name.rpartition(NS_SEP)[2]
        if self.depth == 1:
            self.root = local
            if local not in ("tbx", "martif"):
                self.root_line = self.line()
                raise _NotTbx()
            lang = attrs.get(_LANG)
            if lang:
                self.root_lang = lang
                self._language(lang)
            return
        if local in _ENTRY:
            self._open_entry(attrs)
        elif not self.entry_depth:
            return
        elif local in _LANGSEC:
            self.lang_depth = self.depth
            self.lang = attrs.get(_LANG) or None
            self.lang_dnt = False
            if self.lang:
                self._language(self.lang)
        elif local in _TERMSEC:
            if not self.sec_depth:  # a termGrp inside an ntig is part of it
                self._open_section()
        elif local == "term":
            if not self.sec_depth:  # a <term> straight in a language section: a section of its own
                self._open_section()
                self.sec_depth = -1
            self.term_line = self.line()
            self._capture("term")
        elif local == "termNote":
            t = attrs.get("type", "")
            if t in _STATUS_TYPES or t == "usageNote" or t == "translationNote":
                self._capture("termNote:" + t)
        elif local == "definition":  # DCT style: <basic:definition>
            self._capture("descrip:definition")
        elif local in _STATUS_ELEMENTS or local == "usageNote":
            self._capture("termNote:" + ("administrativeStatus" if local in _STATUS_ELEMENTS else local))
        elif local == "note":
            self._capture("note")
        elif local == "descrip":
            t = attrs.get("type", "")
            if t == "definition" or t == "Translation needed":
                self._capture("descrip:" + t)

    def end(self, name: str) -> None:
        depth = self.depth
        self.depth -= 1
        if self.buf is not None:
            if self.inner:
                self.inner -= 1
                return
            self._captured("".join(self.buf))
            return
        if depth == self.entry_depth:
            self._close_entry()
        elif depth == self.lang_depth:
            self.lang_depth = 0
            self.lang = None
            self.lang_dnt = False
        elif depth == self.sec_depth:
            self._close_section()

    def text(self, data: str) -> None:
        buf = self.buf
        if buf is not None:
            buf.append(data)

    # --- captured text ----------------------------------------------------
    def _capture(self, what: str) -> None:
        self.buf = []
        self.capture = what
        self.inner = 0

    def _captured(self, raw: str) -> None:
        what = self.capture
        self.buf = None
        self.capture = None
        if what == "term":
            self.term_text = clean(raw)
            if self.sec_depth == -1:  # no section around it: the term is the section
                self._close_section()
            return
        value = clean(raw)
        in_sec = self.sec_depth != 0
        in_lang = self.lang_depth != 0
        if what == "termNote:administrativeStatus" or what == "termNote:normativeAuthorization":
            if in_sec and value:
                st = status_of(value)
                if st is None:
                    self.term_bad_status = value
                else:
                    self.term_status = st
        elif what == "termNote:usageNote":
            if in_sec and value:
                self.term_notes.append(value)
        elif what == "termNote:translationNote":
            if in_sec and value.lower() in _NO:
                self.term_dnt = True
        elif what == "note":
            if in_sec:
                if value:
                    self.term_notes.append(value)
            elif not in_lang and value:
                self.entry_notes.append(value)
        elif what == "descrip:definition":
            if not in_sec and not in_lang and value:
                self.entry_notes.append(value)
        elif what == "descrip:Translation needed":
            if value.lower() in _NO:
                if in_sec:
                    self.term_dnt = True
                elif in_lang:
                    self.lang_dnt = True
                else:
                    self.entry_dnt = True

    # --- entries, languages, term sections --------------------------------
    def _language(self, lang: str) -> None:
        key = lang.strip().replace("_", "-").lower()
        if key not in self._seen_langs:
            self._seen_langs.add(key)
            self.languages.append(lang)

    def _open_entry(self, attrs: dict) -> None:
        self.entry_depth = self.depth
        self.entry_id = attrs.get("id")
        self.entry_line = self.line()
        self.entry_notes = []
        self.entry_terms = []
        self.entry_dnt = False

    def _close_entry(self) -> None:
        self.entry_depth = 0
        terms = self.entry_terms
        if not terms:
            return
        if self.entry_dnt:
            terms = [t if t.status in (FORBIDDEN, DO_NOT_TRANSLATE) else _with_status(t, DO_NOT_TRANSLATE)
                     for t in terms]
        note = "\n".join(self.entry_notes) or None
        self.concepts.append(Concept(tuple(terms), self.entry_id, note, self.entry_line))

    def _open_section(self) -> None:
        self.sec_depth = self.depth
        self.term_text = None
        self.term_line = 0
        self.term_status = None
        self.term_bad_status = None
        self.term_notes = []
        self.term_dnt = False

    def _close_section(self) -> None:
        self.sec_depth = 0
        text = self.term_text
        if not text:
            return
        line = self.term_line
        if self.term_bad_status is not None:
            self.skips.add(line, f'the term "{text}" has an unknown administrative status '
                                 f'"{self.term_bad_status}" (expected preferredTerm-admn-sts, admittedTerm-admn-sts, '
                                 f"deprecatedTerm-admn-sts or supersededTerm-admn-sts)")
            return
        if not self.lang:
            self.skips.add(line, f'the term "{text}" is in a language section without xml:lang')
            return
        status = self.term_status or PREFERRED
        if (self.term_dnt or self.lang_dnt) and status != FORBIDDEN:
            status = DO_NOT_TRANSLATE
        note = "\n".join(self.term_notes) or None
        self.entry_terms.append(Term(text, self.lang, status, note, line))


class _NotTbx(Exception):
    """The root element is not <tbx> nor <martif>: stop at once."""


def _with_status(t: Term, status: str) -> Term:
    return Term(t.text, t.lang, status, t.note, t.line)


def read_tbx_text(text: str, path: str) -> Glossary:
    """A TBX glossary from its decoded text."""
    reader = _Reader(text, path)
    sc = Scanner(text)
    try:
        finding = sc.run(reader)
    except _NotTbx:
        return Glossary(path, (), [], [f"{place(path, reader.root_line)}the root element is <{reader.root}>, not <tbx> "
                                       f"(TBX 2019) or <martif> (TBX 2008): this is not a TBX glossary; {NOT_USED}"])
    except Exception as e:  # a bug of the reader: one sentence, never a traceback
        return Glossary(path, (), [], [f"{path}: bleu-ls could not read this TBX file (an internal error: "
                                       f"{type(e).__name__}: {e}); {NOT_USED}"])
    if finding is not None:
        m = _MALFORMED.match(finding.message)
        if m:
            what = f"not well-formed XML ({m.group(1)})"
        elif "declares an entity" in finding.message:
            name = re.search(r"<!ENTITY (\S+)", finding.message)
            what = (f"the file declares an entity (<!ENTITY {name.group(1) if name else ''} …>); "
                    f"entities are never expanded nor fetched")
        else:
            what = finding.message.rstrip(".")
            what = what[:1].lower() + what[1:]
        line, col = finding.line + 1, finding.start_col + 1
        if "declares an entity" in finding.message and finding.span is not None:
            # expat tells the declaration's place loosely: say where its "<!ENTITY" starts
            at = text.rfind("<!ENTITY", 0, finding.span[0] + 1)
            if at >= 0:
                line = text.count("\n", 0, at) + 1
                col = at - text.rfind("\n", 0, at)
        return Glossary(path, (), [], [f"{place(path, line, col)}{what}; {NOT_USED}"])
    if reader.root is None:
        return Glossary(path, (), [], [f"{path}: the file has no root element; {NOT_USED}"])
    problems = reader.skips.sentences()
    if not reader.concepts:
        problems.append(f"{path}: no terms found (no <term> inside a <conceptEntry> or <termEntry>)")
    return Glossary(path, tuple(reader.languages), reader.concepts, problems, reader.root_lang)
