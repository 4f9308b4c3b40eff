"""The table of file formats: one row per format, the line file included.

A row says everything the rest of the package asks about a format: its name
and family, how a file is recognised (extensions; for a shared extension such
as ``.xml``, the markers sniffed in its first bytes), how its bytes are
decoded, its reader (and the reader of an already decoded text), its prefix
reader for the first segments of a large file, the factory of its live index
(``formats/live/``), its workflow states (``formats/states.py``), whether its
target may itself be the MT draft, how its segments pair (by key, or by time
for subtitles) and the few facts of its text the server places hints by.

No code outside this table (and the checks' own table, ``qa/formats/table.py``)
tests a format's name: it asks the row (:func:`row`).  A new format is one row
here plus its reader module (and, when it has checks of its own, one row in
``qa/formats/table.py``).

Functions in reader modules are named by :class:`Ref` (``"module:function"``,
relative to this package) and imported on first use: reading a PO file does not
import the XML readers.  Imports nothing but the model.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Optional

from .model import (ANDROID, ARB, JSON, LINES, PO, PROPERTIES, SRT, STRINGS, STRINGSDICT, TMX, VTT, WEBEXT, XCSTRINGS,
                    XLIFF1, XLIFF2, YAML)

#: the states actions (``formats/states.py``): their ids, here so that a row may name them
MARK_TRANSLATED = "translated"
MARK_FINAL = "final"
REMOVE_FUZZY = "remove-fuzzy"


class Ref:
    """A function of a module of this package, named ``"module:function"`` and imported when first called."""

    __slots__ = ("spec", "_fn")

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self._fn: Optional[Callable[..., Any]] = None

    @property
    def module(self) -> str:
        return self.spec.partition(":")[0]

    @property
    def name(self) -> str:
        return self.spec.partition(":")[2]

    def resolve(self) -> Callable[..., Any]:
        if self._fn is None:
            mod = importlib.import_module(f"{__package__}.{self.module}")
            self._fn = getattr(mod, self.name)
        return self._fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return (self._fn or self.resolve())(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Ref({self.spec!r})"


@dataclass(frozen=True)
class FormatRow:
    """One file format."""

    #: the name readers put in ``SegmentDocument.format`` (``model.PO``…)
    name: str
    #: files of one family may be scored against each other (XLIFF 1.2 against 2.x)
    family: str
    #: the family in a sentence ("a gettext PO file")
    family_sentence: str
    #: the format in a sentence's "… files are not supported" ("gettext PO"); None: its name
    label: Optional[str]
    #: file name suffixes (lower case, with the dot) that are this format
    extensions: tuple[str, ...] = ()
    #: markers which, found in the first bytes of a file of a shared extension
    #: (:data:`SNIFFED`), make it this format (rows are tried in table order)
    sniff: tuple[bytes, ...] = ()
    #: ``path -> bool``: the file is this format by where it lies, before its extension counts (files of
    #: a shared extension such as .json or .xml: ``locales/de/app.json``, ``res/values-de/strings.xml``);
    #: rows are tried in table order; None: by extension / sniff
    paths: Optional[Ref] = None
    #: how the bytes become text: "utf-8" (``engine.text.decode_utf8``), "charset"
    #: (the PO header's charset), "xml" (the XML declaration; the reader decodes itself),
    #: "utf-8-or-latin-1" (UTF-8, ISO-8859-1 when the bytes are not UTF-8: Java .properties),
    #: "utf16-or-utf8" (a UTF-16 or UTF-8 byte-order mark, UTF-16 without one told by its NUL
    #: bytes, else UTF-8: Apple .strings; the reader takes the bytes and says a missing mark)
    decoding: str = "utf-8"
    #: the reader: module and the function names to try in order (the first that exists)
    reader_module: Optional[str] = None
    reader_names: tuple[str, ...] = ()
    #: what the reader takes: "text" (decoded) or "bytes" (it decodes them itself)
    reader_takes: str = "text"
    #: the reader of an already decoded text (``read_xliff_text``…; for a text reader, the reader itself)
    text_reader: Optional[Ref] = None
    #: ``(text, max_segments) -> SegmentDocument``: about the first segments, each as the full read
    #: gives them (``read.read_prefix``); None: the format is read whole
    prefix_reader: Optional[Ref] = None
    #: ``(fmt, text) -> LiveIndex``: the index the server keeps in step with edits (``formats/live/``)
    live_index: Optional[Ref] = None
    #: the live index reads blank-line separated blocks with the format's own reader (``live/index.py``)
    blocks: bool = False
    #: what a block read alone must be prefixed with when it is not the first (WebVTT: the header)
    head_block: Optional[str] = None
    #: the state actions the format's segments may offer (``states.actions``)
    state_actions: tuple[str, ...] = ()
    #: ``seg -> bool``: the segment needs review (``states.needs_review``); None: never
    needs_review: Optional[Ref] = None
    #: a flag whose presence makes the target itself the MT draft (PO ``fuzzy``)
    draft_flag: Optional[str] = None
    #: ``seg -> bool``: the target itself is the MT draft (PO fuzzy, XLIFF 1.2 MT-qualified)
    target_is_draft: Optional[Ref] = None
    #: "key" (exact key, then the fallback) or "time" (subtitles: cues covering the same time,
    #: partners being pieces of one text)
    pairing: str = "key"
    #: the fallback after the exact key (``match.FALLBACKS``): a function of ``match.py``
    fallback: Optional[Ref] = None
    #: which keys pair by equality (None: every key)
    keys_pair: Optional[Callable[[str], bool]] = None
    #: time pairing: when time links fewer than half of the cues, the cue ids decide instead
    ids_decide: bool = False
    #: the target's strings stand in quotes: a hint goes after the closing quote (PO)
    quoted_target: bool = False
    #: the header field that declares the target language, when the header is read as fields (PO ``Language``)
    header_language: Optional[str] = None
    #: ``key -> (entry, category) or None``: the key names a form of a plural entry (``plural_keys.py``),
    #: paired with the source's entry when the source lacks that form
    plural_form: Optional[Ref] = None
    #: the diagnostic code of a reading problem in the editor
    problem_code: str = "malformed"
    #: (path, lang) -> candidate source-language files, first existing wins (key-value localization files); None: the source is in the file
    source_files: Optional[Ref] = None
    #: a reading problem is a check finding with its own diagnostics row (severity from it,
    #: said as a sentence) and ``check`` reports it rather than stopping (PO ``po-syntax``)
    problems_checked: bool = False

    @property
    def timed(self) -> bool:
        return self.pairing == "time"

    @property
    def xml(self) -> bool:
        """An XML format (XLIFF, TMX): read by the XML scanner, its live index re-reads units (``live/xml_reread.py``)."""
        return self.decoding == "xml"

    @property
    def segmented(self) -> bool:
        """A file of segments (not a line file): the server opens it as a segment document."""
        return self.name != LINES


_XLIFF: dict[str, Any] = dict(
    family="xliff", family_sentence="an XLIFF file", label="XLIFF", decoding="xml",
    reader_module="xliff", reader_names=("read_xliff", "read_bytes", "read"), reader_takes="bytes",
    text_reader=Ref("xliff:read_xliff_text"), prefix_reader=Ref("xliff:read_xliff_text"),
    live_index=Ref("live.whole:XmlIndex"), state_actions=(MARK_TRANSLATED, MARK_FINAL),
    fallback=Ref("match:_source_fallback"),
)
_KEYED_JSON: dict[str, Any] = dict(
    decoding="utf-8", fallback=Ref("match:_flat_key_fallback"), live_index=Ref("live.keyed:KeyedIndex"),
    quoted_target=True,
)
_SUBTITLES: dict[str, Any] = dict(
    pairing="time", fallback=Ref("match:_time_fallback"), live_index=Ref("live.index:LiveIndex"),
    blocks=True, problem_code="timecode",
)

ROWS: tuple[FormatRow, ...] = (
    FormatRow(
        LINES, family=LINES, family_sentence="a line file", label=None,
        reader_module="lines", reader_names=("lines_document",), text_reader=Ref("lines:lines_document"),
        live_index=Ref("live.whole:WholeIndex"),
    ),
    FormatRow(
        PO, family=PO, family_sentence="a gettext PO file", label="gettext PO", extensions=(".po", ".pot"),
        decoding="charset", reader_module="po", reader_names=("read_po",), text_reader=Ref("po:read_po"),
        prefix_reader=Ref("po:read_po_prefix"), live_index=Ref("live.po:po_index"),
        state_actions=(REMOVE_FUZZY,), needs_review=Ref("states:po_needs_review"),
        draft_flag="fuzzy", target_is_draft=Ref("states:po_target_is_draft"),
        fallback=Ref("match:_po_fallback"), quoted_target=True, header_language="Language",
        problem_code="po-syntax", problems_checked=True,
    ),
    FormatRow(
        XLIFF1, extensions=(".xlf", ".xliff", ".sdlxliff", ".mxliff"), sniff=(b"<xliff",),
        needs_review=Ref("states:xliff1_needs_review"), target_is_draft=Ref("states:xliff1_target_is_draft"),
        **_XLIFF,
    ),
    # XLIFF 2.x shares 1.2's extensions and reader: the reader tells them apart by the version
    FormatRow(XLIFF2, needs_review=Ref("states:xliff2_needs_review"), **_XLIFF),
    FormatRow(
        TMX, family=TMX, family_sentence="a TMX file", label="TMX", extensions=(".tmx",), sniff=(b"<tmx",),
        decoding="xml", reader_module="tmx", reader_names=("read_tmx", "read_bytes", "read"), reader_takes="bytes",
        text_reader=Ref("tmx:read_tmx_text"), prefix_reader=Ref("tmx:read_tmx_text"),
        live_index=Ref("live.whole:XmlIndex"), fallback=Ref("match:_source_fallback"),
    ),
    FormatRow(
        SRT, family=SRT, family_sentence="a SubRip (SRT) file", label="SubRip (SRT)", extensions=(".srt",),
        reader_module="subtitles", reader_names=("read_srt",), text_reader=Ref("subtitles:read_srt"),
        prefix_reader=Ref("subtitles:read_srt"),
        keys_pair=lambda key: False,  # a cue number says nothing across two timings of a film
        **_SUBTITLES,
    ),
    FormatRow(
        VTT, family=VTT, family_sentence="a WebVTT file", label="WebVTT", extensions=(".vtt",),
        reader_module="subtitles", reader_names=("read_vtt",), text_reader=Ref("subtitles:read_vtt"),
        prefix_reader=Ref("subtitles:read_vtt"), head_block="WEBVTT\n\n",
        keys_pair=lambda key: not key.startswith("#"),  # a cue's place (``#n``) when it has no id: neither
        ids_decide=True,
        **_SUBTITLES,
    ),
    FormatRow(
        JSON, family=JSON, family_sentence="a localization JSON file", label="localization JSON",
        reader_module="l10n_json", reader_names=("read_json",), text_reader=Ref("l10n_json:read_json"),
        prefix_reader=Ref("l10n_json:read_json"),
        source_files=Ref("l10n_paths:json_sources"), paths=Ref("l10n_paths:is_json"),
        **{**_KEYED_JSON, "live_index": Ref("live.keyed:JsonIndex")},  # an edit between values reads them alone
        plural_form=Ref("plural_keys:i18next_form"),
    ),
    FormatRow(
        ARB, family=ARB, family_sentence="a Flutter ARB file", label="Flutter ARB", extensions=(".arb",),
        reader_module="l10n_json", reader_names=("read_arb",), text_reader=Ref("l10n_json:read_arb"),
        prefix_reader=Ref("l10n_json:read_arb_prefix"),
        source_files=Ref("l10n_paths:arb_sources"), **_KEYED_JSON,
    ),
    FormatRow(
        WEBEXT, family=WEBEXT, family_sentence="a WebExtension messages.json file", label="WebExtension messages.json",
        reader_module="l10n_json", reader_names=("read_webext",), text_reader=Ref("l10n_json:read_webext"),
        prefix_reader=Ref("l10n_json:read_webext_prefix"),
        source_files=Ref("l10n_paths:webext_sources"), paths=Ref("l10n_paths:is_webext"), **_KEYED_JSON,
    ),
    # Android string resources: a strings.xml under res/values*/ (other .xml files never), the source in values/
    FormatRow(
        ANDROID, family=ANDROID, family_sentence="an Android strings.xml file", label="Android strings.xml",
        paths=Ref("android:is_android_strings"), decoding="xml", reader_module="android",
        reader_names=("read_android",), reader_takes="bytes", text_reader=Ref("android:read_android_text"),
        prefix_reader=Ref("android:read_android_text"), live_index=Ref("live.keyed:AndroidIndex"),
        source_files=Ref("android:source_files"),
        plural_form=Ref("plural_keys:bracket_form"),
    ),
    # Java .properties (ResourceBundle): messages_de.properties, the source in messages.properties
    FormatRow(
        PROPERTIES, family=PROPERTIES, family_sentence="a Java .properties file", label="Java .properties",
        extensions=(".properties",), decoding="utf-8-or-latin-1", reader_module="properties",
        reader_names=("read_properties",), text_reader=Ref("properties:read_properties"),
        prefix_reader=Ref("properties:read_properties"), live_index=Ref("live.keyed:PropertiesIndex"),
        source_files=Ref("properties:source_files"),
    ),
    # Apple .strings ("key" = "value";), UTF-16 or UTF-8: the source in en.lproj/ (or Base.lproj/)
    FormatRow(
        STRINGS, family=STRINGS, family_sentence="an Apple .strings file", label="Apple .strings",
        extensions=(".strings",), decoding="utf16-or-utf8", reader_module="apple_strings",
        reader_names=("read_strings_bytes",), reader_takes="bytes", text_reader=Ref("apple_strings:read_strings"),
        prefix_reader=Ref("apple_strings:read_strings"), live_index=Ref("live.keyed:StringsIndex"),
        quoted_target=True, fallback=Ref("match:_source_fallback"), source_files=Ref("apple_strings:source_files"),
    ),
    # Apple .stringsdict (an XML plist of plural rules): the source in en.lproj/ (or Base.lproj/)
    FormatRow(
        STRINGSDICT, family=STRINGSDICT, family_sentence="an Apple .stringsdict file", label="Apple .stringsdict",
        extensions=(".stringsdict",), decoding="xml", reader_module="stringsdict", reader_names=("read_stringsdict",),
        reader_takes="bytes", text_reader=Ref("stringsdict:read_stringsdict_text"),
        prefix_reader=Ref("stringsdict:read_stringsdict_text"), live_index=Ref("live.keyed:KeyedRereadIndex"),
        fallback=Ref("match:_source_fallback"), source_files=Ref("apple_strings:source_files"),
        plural_form=Ref("plural_keys:bracket_form"),
    ),
    # Xcode String Catalogs: every language in one file, the source inside it (like a multilingual TMX)
    FormatRow(
        XCSTRINGS, family=XCSTRINGS, family_sentence="an Xcode String Catalog", label="Xcode String Catalog",
        extensions=(".xcstrings",), reader_module="xcstrings", reader_names=("read_xcstrings",),
        text_reader=Ref("xcstrings:read_xcstrings"), prefix_reader=Ref("xcstrings:read_xcstrings"),
        live_index=Ref("live.whole:WholeIndex"), needs_review=Ref("states:xcstrings_needs_review"),
        fallback=Ref("match:_source_fallback"), quoted_target=True,
    ),
    # Rails / Symfony translation YAML: known by its place only (config/locales/, translations/*.de.yaml)
    FormatRow(
        YAML, family=YAML, family_sentence="a translation YAML file", label="translation YAML",
        paths=Ref("l10n_yaml:is_translation_yaml"), reader_module="l10n_yaml", reader_names=("read_yaml",),
        text_reader=Ref("l10n_yaml:read_yaml"), prefix_reader=Ref("l10n_yaml:read_yaml"),
        live_index=Ref("live.keyed:KeyedRereadIndex"), fallback=Ref("match:_source_fallback"), source_files=Ref("l10n_yaml:source_files"),
        plural_form=Ref("plural_keys:dotted_form"),
    ),
)

#: name -> row
BY_NAME: dict[str, FormatRow] = {r.name: r for r in ROWS}
#: extensions whose files are told apart by their first bytes (:attr:`FormatRow.sniff`)
SNIFFED: tuple[str, ...] = (".xml",)
#: the line file's row: what a file of no known extension is
LINE_FILE = BY_NAME[LINES]


def row(fmt: str) -> FormatRow:
    """The row of format ``fmt`` (a name no row has: the line file's)."""
    return BY_NAME.get(fmt, LINE_FILE)


def by_extension() -> dict[str, str]:
    """Extension (lower case, with the dot) -> format name."""
    return {ext: r.name for r in ROWS for ext in r.extensions}


def by_path(path: str) -> Optional[str]:
    """The format whose localization convention the path ``path`` follows (:attr:`FormatRow.paths`), else None."""
    for r in ROWS:
        if r.paths is not None and r.paths(path):
            return r.name
    return None


def sniffed(head: bytes) -> Optional[str]:
    """The format whose marker the first bytes ``head`` of a file of a sniffed extension hold (UTF-16 read as ASCII)."""
    probe = head[:4096]
    if probe.startswith((b"\xff\xfe", b"\xfe\xff")):
        probe = probe.decode("utf-16", errors="ignore").encode("ascii", errors="ignore")
    probe = probe.replace(b"\x00", b"")
    for r in ROWS:
        if any(m in probe for m in r.sniff):
            return r.name
    return None


def names(**attrs: Any) -> tuple[str, ...]:
    """The formats whose rows have every attribute as given (``names(timed=True)``)."""
    return tuple(r.name for r in ROWS if all(getattr(r, k) == v for k, v in attrs.items()))
