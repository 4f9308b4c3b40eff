"""ICU MessageFormat: a message read into its arguments, and the checks of a translated one.

The syntax is ICU's ``MessagePattern`` (ICU 4.8 and later, the apostrophe mode
``DOUBLE_OPTIONAL`` every ICU library and FormatJS use):

* ``{name}`` an argument; ``{name, type}`` / ``{name, type, style}`` with a type
  ``number``, ``date``, ``time``, ``spellout``, ``ordinal`` or ``duration``;
* ``{name, plural, [offset:N] selector {message} …}``, ``selectordinal`` likewise
  (selectors are category keywords or ``=N``), ``{name, select, keyword {message} …}``;
  each needs an ``other`` message and no selector twice; ``#`` in a plural message
  stands for the number; ``{name, choice, …}`` (the old form) is read as a style;
* an apostrophe before ``{``, ``}`` (and ``#`` inside a plural message) starts quoted
  text up to the next single apostrophe; ``''`` is one apostrophe; any other
  apostrophe is itself (``don't`` needs no doubling).

One deviation, on purpose: ICU lets quoted text run to the end of the message when it
is never closed; here that is a problem, because in a translation it is nearly always an
apostrophe of the language swallowing an argument (French ``l'{count}``, Italian
``dell'{app}``).  The reader never raises: a message that is not well-formed gives the
first problem with its offset, and the arguments read before it.

The checks of a translated message (:func:`check_message`), each a finding at the
target's columns: ``icu-syntax`` (the target is not a well-formed message where its
source is one), ``icu-arguments`` (an argument of the source missing, or one the source
does not have) and ``plural-categories`` (a plural's forms against the target language's
CLDR categories, :mod:`.plurals`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import Finding, finding
from .plurals import compare, sentence

#: argument types of a simple argument (``{n, number}``)
SIMPLE_TYPES = frozenset({"number", "date", "time", "spellout", "ordinal", "duration"})
#: argument types with sub-messages
PLURAL_TYPES = frozenset({"plural", "selectordinal"})
COMPLEX_TYPES = PLURAL_TYPES | {"select", "choice"}
#: deeper nesting than this is refused (a hostile file cannot exhaust the stack)
MAX_DEPTH = 40
_WS = " \t\n\r\f\v\u0085\u200e\u200f\u2028\u2029"
#: characters that cannot be part of an argument name or keyword (Pattern_Syntax, in the ASCII range)
_SYNTAX = set("{}#,='|\"!$%&()*+-./:;<>?@[\\]^`~") | set(_WS)


@dataclass(frozen=True)
class Argument:
    """One argument: its name, its type (``""`` for ``{name}``), where ``{…}`` stands."""

    name: str
    type: str
    start: int
    end: int


@dataclass(frozen=True)
class Selector:
    """One selector of a plural / select / selectordinal argument: the argument's name and type,
    the keyword (``one``, ``other``, ``=0``, ``female``…) and where the keyword stands."""

    argument: str
    type: str
    keyword: str
    start: int
    end: int


@dataclass
class Message:
    """A message read: its arguments and selectors in order, and the first problem (offset and a
    sentence) when it is not well-formed."""

    arguments: list[Argument] = field(default_factory=list)
    selectors: list[Selector] = field(default_factory=list)
    problem: Optional[tuple[int, str]] = None

    @property
    def names(self) -> dict[str, str]:
        """Argument name -> its type (the first seen; a plural's ``#`` is not an argument)."""
        out: dict[str, str] = {}
        for a in self.arguments:
            out.setdefault(a.name, a.type)
        return out

    def categories(self) -> dict[tuple[str, str], set[str]]:
        """(argument, plural type) -> the category keywords of each plural / selectordinal
        argument (``=N`` selectors left out), merged over its occurrences."""
        out: dict[tuple[str, str], set[str]] = {}
        for s in self.selectors:
            if s.type in PLURAL_TYPES and not s.keyword.startswith("="):
                out.setdefault((s.argument, s.type), set()).add(s.keyword)
        return out


class _Stop(Exception):
    def __init__(self, at: int, message: str) -> None:
        self.at, self.message = at, message


class _Reader:
    def __init__(self, text: str) -> None:
        self.t = text
        self.n = len(text)
        self.m = Message()

    def ws(self, i: int) -> int:
        t, n = self.t, self.n
        while i < n and t[i] in _WS:
            i += 1
        return i

    def name(self, i: int, what: str) -> tuple[str, int]:
        t, n = self.t, self.n
        j = i
        while j < n and t[j] not in _SYNTAX:
            j += 1
        if j == i:
            found = "the end of the message" if i >= n else f"“{t[i]}”"
            raise _Stop(i, f"{what} expected at {found}")
        return t[i:j], j

    def message(self, i: int, depth: int, in_plural: bool, nested: bool) -> int:
        """Text and arguments from ``i`` to the ``}`` closing a sub-message (``nested``) or the end."""
        t, n = self.t, self.n
        if depth > MAX_DEPTH:
            raise _Stop(i, f"messages nested more than {MAX_DEPTH} deep")
        while i < n:
            c = t[i]
            if c == "'":
                if i + 1 < n and t[i + 1] == "'":
                    i += 2
                    continue
                if i + 1 < n and (t[i + 1] in "{}" or (in_plural and t[i + 1] == "#")):
                    end = i + 1
                    while True:  # quoted text: up to the next single apostrophe
                        end = t.find("'", end)
                        if end < 0:
                            raise _Stop(i, "an apostrophe before “" + t[i + 1] + "” starts quoted text that is never "
                                        "closed (write '' for an apostrophe)")
                        if end + 1 < n and t[end + 1] == "'":
                            end += 2
                            continue
                        break
                    i = end + 1
                    continue
                i += 1
            elif c == "{":
                i = self.argument(i, depth)
            elif c == "}":
                if nested:
                    return i
                raise _Stop(i, "“}” closes no argument (write '}' for a brace)")
            else:
                i += 1
        if nested:
            raise _Stop(n, "a sub-message is not closed with “}”")
        return i

    def argument(self, start: int, depth: int) -> int:
        t, n = self.t, self.n
        i = self.ws(start + 1)
        name, i = self.name(i, "an argument name")
        if name[0].isdigit() and (not name.isdigit() or (len(name) > 1 and name[0] == "0")):
            raise _Stop(start + 1, f"“{name}” is neither a name nor a number")
        i = self.ws(i)
        if i < n and t[i] == "}":
            self.m.arguments.append(Argument(name, "", start, i + 1))
            return i + 1
        if i >= n or t[i] != ",":
            raise _Stop(i, f"“,” or “}}” expected after the argument name “{name}”")
        i = self.ws(i + 1)
        kind, j = self.name(i, "an argument type")
        i = self.ws(j)
        at = len(self.m.arguments)
        self.m.arguments.append(Argument(name, kind, start, start))  # (its end when read)
        if kind in COMPLEX_TYPES:
            if i >= n or t[i] != ",":
                raise _Stop(i, f"“,” expected after “{kind}”")
            i = self.choice(i + 1) if kind == "choice" else self.styled(name, kind, i + 1, depth)
        elif kind in SIMPLE_TYPES:
            if i < n and t[i] == ",":
                i = self.style(i + 1)
        else:
            raise _Stop(j - len(kind), f"“{kind}” is not an argument type (number, date, time, plural, select…)")
        i = self.ws(i)
        if i >= n or t[i] != "}":
            raise _Stop(i, f"the argument “{name}” is not closed with “}}”")
        self.m.arguments[at] = Argument(name, kind, start, i + 1)
        return i + 1

    def style(self, i: int) -> int:
        """A simple argument's style: text with balanced braces, up to the closing ``}``."""
        t, n = self.t, self.n
        level = 0
        while i < n:
            c = t[i]
            if c == "'":
                end = t.find("'", i + 1)
                i = n if end < 0 else end + 1
                continue
            if c == "{":
                level += 1
            elif c == "}":
                if level == 0:
                    return i
                level -= 1
            i += 1
        raise _Stop(n, "an argument's style is not closed with “}”")

    def choice(self, i: int) -> int:
        return self.style(i)

    def styled(self, name: str, kind: str, i: int, depth: int) -> int:
        """The selectors and sub-messages of a plural, selectordinal or select argument."""
        t, n = self.t, self.n
        i = self.ws(i)
        plural = kind in PLURAL_TYPES
        if plural and t.startswith("offset:", i):
            j = self.ws(i + 7)
            k = j
            while k < n and (t[k].isdigit() or t[k] in ".-"):
                k += 1
            if k == j:
                raise _Stop(j, "a number expected after “offset:”")
            i = self.ws(k)
        seen: set[str] = set()
        while True:
            i = self.ws(i)
            if i >= n:
                raise _Stop(n, f"the {kind} argument “{name}” is not closed with “}}”")
            if t[i] == "}":
                break
            at = i
            if t[i] == "=":
                if not plural:
                    raise _Stop(i, "an explicit value (=N) in a select argument")
                k = i + 1
                while k < n and (t[k].isdigit() or t[k] in ".-"):
                    k += 1
                if k == i + 1:
                    raise _Stop(i, "a number expected after “=”")
                keyword, i = t[at:k], k
            else:
                keyword, i = self.name(i, "a selector")
            if keyword in seen:
                raise _Stop(at, f"the selector “{keyword}” comes twice in “{name}”")
            seen.add(keyword)
            self.m.selectors.append(Selector(name, kind, keyword, at, at + len(keyword)))
            i = self.ws(i)
            if i >= n or t[i] != "{":
                raise _Stop(i, f"“{{” expected after the selector “{keyword}”")
            i = self.message(i + 1, depth + 1, plural, True) + 1
        if "other" not in seen:
            raise _Stop(i, f"the {kind} argument “{name}” has no “other” message")
        return i


def parse(text: str) -> Message:
    """``text`` read as an ICU message (never raises: see :attr:`Message.problem`)."""
    r = _Reader(text)
    try:
        r.message(0, 0, False, False)
    except _Stop as stop:
        r.m.problem = (min(stop.at, len(text)), stop.message)
    except RecursionError:  # (MAX_DEPTH keeps far from it)
        r.m.problem = (0, "messages nested too deep")
    return r.m


def looks_like_icu(text: str) -> bool:
    """Does ``text`` use the ICU syntax beyond plain ``{name}`` arguments (a plural, a select, a
    typed argument)?  Formats whose values are ICU only by convention check those."""
    if "{" not in text or "," not in text:
        return False
    return any(a.type for a in parse(text).arguments)


def argument_differences(source: Message, target: Message) -> tuple[list[str], list[str]]:
    """(arguments of the source missing from the target, arguments of the target the source does
    not have), by name, in the order they appear."""
    src, tgt = source.names, target.names
    return [a for a in src if a not in tgt], [a for a in tgt if a not in src]


def check_message(source: str, target: str, language: Optional[str] = None,
                  source_message: Optional[Message] = None) -> list[Finding]:
    """The findings of ``target`` translating the ICU message ``source`` into ``language``
    (columns of the target; no severity: the rule's).  A source that is not itself a
    well-formed message is not the translator's to fix: nothing is said then."""
    src = source_message if source_message is not None else parse(source)
    if src.problem is not None or not target.strip():
        return []
    tgt = parse(target)
    if tgt.problem is not None:
        at, why = tgt.problem
        return [finding("icu-syntax", f"ICU message: {why}.", at, min(at + 1, len(target)) if at < len(target) else None,
                        {"offset": at})]
    out = []
    missing, extra = argument_differences(src, tgt)
    if missing or extra:
        said = []
        if missing:
            said.append("no " + ", ".join("{" + a + "}" for a in missing) + " as in the source")
        if extra:
            said.append(", ".join("{" + a + "}" for a in extra) + " not in the source")
        where = next((a for a in tgt.arguments if a.name in extra), None)
        out.append(finding("icu-arguments", "ICU arguments: " + "; ".join(said) + ".",
                           where.start if where else 0, where.end if where else None,
                           {"missing": missing, "extra": extra}))
    for (name, kind), have in tgt.categories().items():
        explicit = [s.keyword for s in tgt.selectors if s.argument == name and s.keyword.startswith("=")]
        got = compare(language, [*have, *explicit], ordinal=kind == "selectordinal")
        if got is None:
            continue
        lacking, dead = got
        if lacking or dead:
            first = next(s for s in tgt.selectors if s.argument == name and s.type == kind)
            bad = next((s for s in tgt.selectors if s.argument == name and s.keyword in dead), first)
            out.append(finding("plural-categories", sentence(lacking, dead, language or "the language"),
                               bad.start, bad.end, {"argument": name, "missing": lacking, "extra": dead}))
    return out
