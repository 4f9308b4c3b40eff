"""Rails and Symfony translation YAML read into segments (one per string value).

Rails (``config/locales/de.yml``)::

    de:
      active_admin:
        batch_actions:
          successfully_destroyed:
            one: Erfolgreich 1 %{model} gelöscht
            other: Erfolgreich %{count} %{plural_model} gelöscht

Symfony (``translations/messages.de.yaml``), flat or nested, ICU values::

    form.login.title: Anmelden
    cart:
      items: "{count, plural, one {# Artikel} other {# Artikel}}"

* ``Segment.key``: the mapping keys from the root joined by ``.`` (``active_admin.batch_actions.
  successfully_destroyed.one``); a Rails file's root language key (a single root key that is a
  language code, over a mapping) is not part of it and is the document's ``target_lang``.  Keys
  are joined as Rails and Symfony flatten them, without an escape: a key holding a ``.`` (a flat
  Symfony key ``form.title``) reads as its nested spelling would, which is what both frameworks
  take it for; two spellings of one key are a duplicate (one problem, the second not read).
  Sequence items are ``key[0]``, ``key[1]``… (Rails' ``date.day_names``).
* Only string values are segments: a plain ``3``, ``true`` or ``~`` (what YAML resolves to a
  number, a boolean, a null) is not text, nor anything under an application's own tag
  (``!ruby/object:Foo``, ``!!python/…``: skipped, never constructed).
* ``target_span``: the value's characters (between the quotes of a quoted scalar; the
  content lines of a block scalar, from the first character of its first line to the last of its
  last); ``Segment.runs`` map the value back to the file: escapes of double-quoted scalars
  (``\\n``, ``\\u00e9``…) map to their backslash, ``''`` of single-quoted ones to its first quote,
  folded line breaks and a block scalar's line breaks to the break in the file.  Where this module's
  alignment of PyYAML's value with the file text fails (not seen on real files), the whole value maps
  to its first character (``extra["approximate"]``).  Line breaks are folded to spaces in the scored
  text (``extra["value"]`` keeps them).
* ``Segment.source`` is None: the source text is in the source-language file
  (:func:`source_files`).

Safety: the text is *composed* (``yaml.compose`` over ``SafeLoader``: nodes with their positions),
never constructed: no tag is constructed, no code runs.  An alias (``*name``) is not expanded: its
value is skipped, and the file's aliases are one problem ("aliases are not read"), so a
"billion laughs" file is one problem and nothing grows.  A syntax error is one problem at its
place; the values before the line it is on are kept (the text before that line is read again).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path, PurePath
from typing import Optional, Union

import yaml

from .finding import problem
from .model import Run, Segment, SegmentDocument, line_col
from .xmlcontent import LineCounter

FORMAT = "yaml"
_FOLD = {ord("\n"): " ", ord("\r"): " "}


def _fold(s: str) -> str:
    """Line breaks as spaces (one for one: the runs hold)."""
    return s.translate(_FOLD) if "\n" in s or "\r" in s else s
_LANG = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*\Z")
_STR = "tag:yaml.org,2002:str"
#: the tags whose nodes are read: mappings, sequences, strings (others: numbers, booleans, an application's own)
_PLAIN_TAGS = frozenset({"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", _STR})
#: the source language when the settings name none
DEFAULT_SOURCE = "en"


# --- where the files are ----------------------------------------------------------------------
def is_lang(name: str) -> bool:
    return bool(_LANG.match(name))


def _yaml_name(name: str) -> bool:
    return name.lower().endswith((".yml", ".yaml"))


def is_translation_yaml(path: Union[str, PurePath]) -> bool:
    """A translation YAML by its place: under ``config/locales/`` (any depth), directly in a
    ``locales/`` folder, or ``translations/NAME.<lang>.yaml|yml`` (Symfony).  No other ``.yml``
    (``docker-compose.yml``, ``.github/workflows/*.yml``) is one."""
    p = PurePath(path).parts
    if not p or not _yaml_name(p[-1]):
        return False
    dirs = p[:-1]
    for k in range(len(dirs) - 1):
        if dirs[k] == "config" and dirs[k + 1] == "locales":
            return True
    if dirs and dirs[-1] == "locales":
        return True
    if dirs and dirs[-1] == "translations":
        parts = p[-1].split(".")
        return len(parts) >= 3 and is_lang(parts[-2])
    return False


def source_files(path: Path, source_lang: Optional[str] = None) -> list[Path]:
    """The source-language file (``source_lang``, the ``[terms] sourceLanguage`` setting, else
    ``en``): ``config/locales/de.yml`` → ``en.yml``; ``config/locales/de/*.yml`` → ``en/*.yml``;
    ``*.de.yml`` → ``*.en.yml`` (Symfony's ``messages.de.yaml`` → ``messages.en.yaml``).  No I/O."""
    p = Path(path)
    src = source_lang or DEFAULT_SOURCE
    name = p.name
    stem, dot, ext = name.rpartition(".")
    out: list[Path] = []
    if is_lang(stem):  # de.yml
        out.append(p.with_name(f"{src}.{ext}"))
    else:
        head, dot2, lang = stem.rpartition(".")
        if dot2 and is_lang(lang):  # messages.de.yaml, devise.de.yml
            out.append(p.with_name(f"{head}.{src}.{ext}"))
    if is_lang(p.parent.name):  # config/locales/de/models.yml
        out.append(p.parent.parent / src / name)
    return [c for c in dict.fromkeys(out) if c != p]


# --- composing without expanding ---------------------------------------------------------------
class _Alias(yaml.Node):
    """An alias met while composing: kept as itself, never replaced by the node it names."""

    id = "alias"

    def __init__(self, anchor: str, start_mark, end_mark) -> None:
        super().__init__("alias", anchor, start_mark, end_mark)


class _Loader(yaml.SafeLoader):
    """``SafeLoader`` composing only: an alias is an :class:`_Alias` node (not the anchored node)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            return _Alias(event.anchor, event.start_mark, event.end_mark)
        return super().compose_node(parent, index)


def _compose(text: str) -> tuple[Optional[yaml.Node], Optional[tuple[int, str]]]:
    """(the first document's node, the error (offset, sentence) or None)."""
    loader = _Loader(text)
    try:
        return loader.get_single_node(), None
    except yaml.MarkedYAMLError as e:
        marks = [m.index for m in (e.context_mark, e.problem_mark) if m is not None]
        off = min(marks) if marks else 0  # where the construct that fails starts (an unclosed quote)
        what = (e.problem or "not valid YAML").rstrip(".")
        if e.context:
            what += f" ({e.context})"
        return None, (off, f"The YAML is not valid here: {what}.")
    except yaml.YAMLError as e:
        return None, (0, f"The YAML is not valid: {e}.")
    except RecursionError:
        return None, (0, "The YAML nests too deeply to be read.")
    finally:
        loader.dispose()


# --- values and their places ------------------------------------------------------------------
_DQ_ESC_LEN = {"x": 4, "u": 6, "U": 10}
#: YAML's line breaks (1.1: NEL, LS and PS too) and white space
_BREAKS = "\r\n\x85\u2028\u2029"
_WHITE = " \t" + _BREAKS


def _content_span(text: str, node: yaml.ScalarNode) -> tuple[int, int]:
    a, b = node.start_mark.index, node.end_mark.index
    if node.style in ('"', "'"):
        return a + 1, max(a + 1, b - 1)
    if node.style in ("|", ">"):
        nl = text.find("\n", a, b)
        return (b, b) if nl < 0 else (nl + 1, b)
    return a, b


def _align(text: str, value: str, start: int, end: int, style: Optional[str]) -> Optional[list[Run]]:
    """Runs mapping ``value`` (PyYAML's) to ``text[start:end]``: literal characters as runs, an
    escape or a folded break as a zero-length run at its place; None when they cannot be aligned."""
    runs: list[list[int]] = []
    fp = start
    for i, c in enumerate(value):
        while True:
            if fp >= end:
                return None
            f = text[fp]
            if style == "'" and c == "'" and text.startswith("''", fp):  # a quote written twice
                runs.append([i, fp, 0])
                fp += 2
                break
            if f == c and not (style == '"' and f == "\\"):
                if runs and runs[-1][0] + runs[-1][2] == i and runs[-1][1] + runs[-1][2] == fp:
                    runs[-1][2] += 1
                else:
                    runs.append([i, fp, 1])
                fp += 1
                break
            if style == '"' and f == "\\":
                nxt = text[fp + 1 : fp + 2]
                if nxt and nxt in _BREAKS:  # an escaped line break: no character, then the next line's indentation
                    fp += 2
                    while fp < end and text[fp] in _WHITE:
                        fp += 1
                    continue
                runs.append([i, fp, 0])
                fp += _DQ_ESC_LEN.get(nxt, 2)
                break
            if f in _WHITE:
                k = fp
                while k < end and text[k] in " \t":
                    k += 1
                if c in " \n" and k < end and text[k] in _BREAKS:
                    # a folded line break (with the spaces before it): the character maps to its place
                    runs.append([i, fp, 0])
                    while k < end and text[k] in _WHITE:
                        k += 1
                    fp = k
                    break
                fp += 1  # indentation, or a space the value does not keep
                continue
            return None
    return [Run(a, b, n) for a, b, n in runs]


def _scalar(text: str, key: str, node: yaml.ScalarNode, lines: LineCounter) -> Segment:
    full = node.value
    # a block scalar's final line breaks (its chomping) are not text a translator types
    value = full.rstrip("\n") if node.style in ("|", ">") else full
    start, end = _content_span(text, node)
    if node.style not in ("|", ">") and text.startswith(value, start) and start + len(value) == end:
        runs: Optional[list[Run]] = []  # the value is the file's characters (most values: one line, no escape)
    else:
        runs = _align(text, value, start, end, node.style) if value else []
    extra: dict[str, object] = {}
    if runs is None:
        runs = [Run(0, start, 0)]
        extra["approximate"] = True
        span = (start, start)
    elif node.style in ("|", ">") and runs:
        span = (runs[0].file_start, max(r.file_start + r.length for r in runs))
    elif node.style in ("|", ">"):
        span = (start, start)
    else:
        span = (start, end)
    if runs and runs[-1].length == 0:  # the value ends in an escape or a break: its end is the span's
        runs.append(Run(len(value), span[1], 0))
    runs = _relative(runs, span[0], len(value), span[1])
    folded = _fold(value)
    if full != folded:
        extra["value"] = full
    return Segment(key=key, target=folded, target_span=span, line=lines(span[0]), runs=runs,
                   extra=extra or None)


def _relative(runs: list[Run], start: int, n: int, end: int) -> list[Run]:
    """No runs when the value is the span's text character for character (one run covering it)."""
    if len(runs) == 1 and runs[0].text_start == 0 and runs[0].file_start == start and runs[0].length == n == end - start:
        return []
    return runs


# --- reading ----------------------------------------------------------------------------------
class _Read:
    def __init__(self, text: str, doc: SegmentDocument, max_segments: Optional[int]) -> None:
        self.text = text
        self.doc = doc
        self.max = max_segments
        self.seen: dict[str, int] = {}
        self.aliases: list[_Alias] = []
        self.lines = LineCounter(text)  # the values' lines, counted as the read goes forward

    def walk(self, node: yaml.Node, key: str) -> None:
        if self.max is not None and len(self.doc.segments) >= self.max:
            self.doc.header["partial"] = "true"
            return
        if isinstance(node, _Alias):
            self.aliases.append(node)
        elif node.tag not in _PLAIN_TAGS:
            return  # an object of an application's own tag (``!ruby/object``…): not a translation, never constructed
        elif isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                name = k.value if isinstance(k, yaml.ScalarNode) else None
                if name is None:  # a complex key (a mapping or an alias as a key): not a translation key
                    if isinstance(k, _Alias):
                        self.aliases.append(k)
                    continue
                if name == "<<" and k.tag == "tag:yaml.org,2002:merge":
                    if isinstance(v, _Alias):
                        self.aliases.append(v)
                    continue
                self.walk(v, f"{key}.{name}" if key else name)
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                self.walk(v, f"{key}[{i}]")
        elif isinstance(node, yaml.ScalarNode):
            if node.tag != _STR or not key:
                return
            at = node.start_mark.index
            if key in self.seen:
                ln, col = line_col(self.text, at)
                self.doc.problems.append(problem(at, ln, col, f"The key {key!r} is defined again (first on line "
                                                               f"{self.seen[key] + 1}); this definition is not read."))
                return
            self.seen[key] = node.start_mark.line
            self.doc.segments.append(_scalar(self.text, key, node, self.lines))


def read_yaml(text: str, max_segments: Optional[int] = None) -> SegmentDocument:
    """A translation YAML file's decoded text read into segments (see the module's docstring)."""
    doc = SegmentDocument(format=FORMAT, segments=[], text=text)
    node, error = _compose(text)
    if error is not None:
        # keep what stands before the error's line: compose that much again (a few times at most)
        cut = error[0]
        for _ in range(3):
            before = text.rfind("\n", 0, max(0, min(cut, len(text)))) + 1
            if before >= cut:
                before = text.rfind("\n", 0, max(0, before - 1)) + 1
            cut = before
            if cut <= 0:
                break
            node, again = _compose(text[:cut])
            if again is None:
                break
            cut = again[0]
            node = None
    if isinstance(node, yaml.MappingNode) and len(node.value) == 1:  # Rails: the root key is the language
        k, v = node.value[0]
        if isinstance(k, yaml.ScalarNode) and is_lang(str(k.value)) and isinstance(v, yaml.MappingNode):
            doc.target_lang = str(k.value)
            node = v
    reader = _Read(text, doc, max_segments)
    if node is not None:
        reader.walk(node, "")
    if reader.aliases:
        first = reader.aliases[0]
        at = first.start_mark.index
        ln, col = line_col(text, at)
        n = len(reader.aliases)
        more = f" ({n} aliases in the file, none read)" if n > 1 else ""
        doc.problems.append(replace(problem(at, ln, col, f"The alias *{first.value} is not read: aliases are not "
                                                         f"read, their values are skipped{more}."), severity="warning"))
    if error is not None:
        off = min(error[0], len(text))
        ln, col = line_col(text, off)
        doc.problems.append(problem(off, ln, col, error[1]))
    doc.problems.sort(key=lambda f: f.offset)
    return doc
