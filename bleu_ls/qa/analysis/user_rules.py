"""The user's own rules (``[[rules]]`` in ``bleu-ls.toml``, the editors' ``bleuLs.rules``):
regular expressions on each segment's source and target, reported as ``rule:<code>``
(docs/diagnostics.md#your-own-rules).

A rule is read as an Xbench checklist entry (and as Trados's QA Checker regular expressions
and Okapi CheckMate's patterns):

- ``source`` only: the source matches and the target does not match the same pattern (a
  brand name, a unit, an ``%s`` kept in the target); the whole line is flagged;
- ``target`` only: the target matches (a forbidden form: ``"`` in French); each match is
  flagged;
- both: the source matches and the target does not (the whole line), and, when both patterns
  have capturing groups, both match but group k of the source's first match differs from
  group k of the target's (k = 1 … the fewer groups of the two); the target's match is flagged.

A rule with a source pattern does not run on a line file that has no source.

A pattern never holds the analysis up: every match runs with the ``regex`` package's
``timeout``, at most :data:`PER_SEGMENT` seconds of CPU time for one rule on one segment, and a rule's
matches over one pass cost at most :data:`PER_PASS`.  A rule over either limit is off until the
``rules`` setting changes (the rule set is compiled again then): said once, by one finding on the line
where it happened, in the document where it happened.  A pattern that does not compile is said
by the settings (``Settings.validate``) and left out.

What a line is found to have is memoised by (target, source) text while the rule set and the
rules that apply to the document are the same: an edit costs the edited lines, a settings change
has every line looked at again (the rules' ``params`` change).

``files``: the globs of a rule are matched against the document's path
(``names["path"]``, absolute; the settings made a glob with a ``/`` absolute against the
workspace root, see ``config.workspace.resolve_paths``); a glob without a ``/`` against the
file name, in any folder, as in .gitignore.  ``**`` crosses folders, ``*`` and ``?`` do not.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from pathlib import PurePath
from typing import Any, Iterator, NamedTuple, Optional

from ...config.settings import compile_rule_pattern
from ..findings import Finding
from .context import LineContext
from .text_rules import over_cap

#: One rule on one segment: its matches take at most this (seconds).
PER_SEGMENT = 0.020
#: One rule over one pass: its matches take at most this (seconds).
PER_PASS = 2.0
#: A search the wall clock stopped is tried again while the wall time is under this many
#: times the segment's budget and the CPU time under the budget (see :class:`_Clock`).
WALL_FACTOR = 10
#: Target-only rules: at most this many matches flagged on one line.
MAX_PER_LINE = 20
#: Rule sets kept compiled (one per distinct ``rules`` setting).
KEEP_SETS = 8


class Compiled(NamedTuple):
    position: int  # in the setting's list
    name: str  # the setting's code (its findings: rule:<name>)
    message: str
    severity: str
    source: Any  # compiled pattern or None
    target: Any
    files: tuple
    case_sensitive: bool
    groups: int  # groups both patterns have (0: not compared)


class Disabled(NamedTuple):
    message: str
    path: Optional[str]
    line: int


class RuleSet:
    """The compiled rules of one ``rules`` setting, and those switched off by a time limit."""

    def __init__(self, rules: tuple) -> None:
        self.rules: list[Compiled] = []
        for i, r in enumerate(rules):
            try:
                src = compile_rule_pattern(r.source, r.case_sensitive) if r.source else None
                tgt = compile_rule_pattern(r.target, r.case_sensitive) if r.target else None
            except Exception:  # said by the settings (Settings.validate)
                continue
            groups = min(src.groups, tgt.groups) if src is not None and tgt is not None else 0
            self.rules.append(Compiled(i, r.code, r.message, r.severity,
                                       src, tgt, tuple(r.files), r.case_sensitive, groups))
        #: name -> why it is off (set once, never cleared: a new setting is a new set)
        self.disabled: dict[str, Disabled] = {}
        self.lock = threading.Lock()
        #: names this set among those made in the process (the memo and ``params`` follow it)
        self.serial = next(_SERIAL)

    def disable(self, rule: Compiled, message: str, path: Optional[str], line: int) -> None:
        with self.lock:
            self.disabled.setdefault(rule.name, Disabled(message, path, line))


_SERIAL = itertools.count(1)
_SETS: dict[tuple, RuleSet] = {}
_SETS_LOCK = threading.Lock()


def _key(rules: list) -> tuple:
    return tuple((r.code, r.message, r.severity, r.source, r.target, tuple(r.files), r.case_sensitive) for r in rules)


def rule_set(settings: Any) -> RuleSet:
    """The compiled rule set of ``settings.rules`` (the same object while the setting is the same)."""
    key = _key(settings.rules)
    with _SETS_LOCK:
        got = _SETS.get(key)
        if got is None:
            if len(_SETS) >= KEEP_SETS:
                _SETS.pop(next(iter(_SETS)))
            got = _SETS[key] = RuleSet(tuple(settings.rules))
        return got


# -- files globs ---------------------------------------------------------------------------------
_GLOBS: dict[str, Any] = {}


def _glob_re(glob: str) -> Any:
    got = _GLOBS.get(glob)
    if got is None:
        out, i, n = [], 0, len(glob)
        while i < n:
            c = glob[i]
            if glob.startswith("**/", i):
                out.append("(?:.*/)?")
                i += 3
                continue
            if glob.startswith("**", i):
                out.append(".*")
                i += 2
                continue
            if c == "*":
                out.append("[^/]*")
            elif c == "?":
                out.append("[^/]")
            elif c == "[" and (j := glob.find("]", i + 2 if glob.startswith("[!", i) else i + 1)) != -1:
                body = glob[i + 1 : j]
                out.append("[" + ("^" + re.escape(body[1:]) if body.startswith("!") else re.escape(body)) + "]")
                i = j + 1
                continue
            else:
                out.append(re.escape(c))
            i += 1
        got = _GLOBS[glob] = re.compile("".join(out) + r"\Z")
    return got


def applies(files: tuple, path: Optional[str], name: Optional[str]) -> bool:
    """Does a rule with these ``files`` globs apply to the document at ``path`` (its name ``name``)?"""
    if not files:
        return True
    posix = PurePath(path).as_posix() if path else None
    base = PurePath(path).name if path else (name or "")
    for glob in files:
        g = glob.replace("\\", "/")
        if "/" in g:
            if posix is not None and _glob_re(g).match(posix):
                return True
        elif _glob_re(g).match(base):
            return True
    return False


# -- one segment ------------------------------------------------------------------------------------
class _Slow(Exception):
    """A rule's matches on one segment took longer than their share."""


_cpu = time.thread_time
_wall = time.perf_counter


class _Clock:
    """A rule's time on one segment (at most PER_SEGMENT) within what is left of its pass.

    The time is this thread's CPU time: a pattern is judged by the work it does, not by the
    moments the machine gave to other processes (a busy machine would otherwise switch off a
    plain rule).  ``regex``'s own timeout counts wall time, so a search it stops while the CPU
    time is still within the budget is tried again (:func:`_search`), up to :data:`WALL_FACTOR`
    times the budget in wall time.  Made for every rule on every segment: slots, no call but
    the clocks'."""

    __slots__ = ("start", "wall", "budget")

    def __init__(self, left: float) -> None:
        self.start = _cpu()
        self.wall = _wall()
        self.budget = PER_SEGMENT if left >= PER_SEGMENT else (left if left > 0.0 else 0.0)

    def left(self) -> float:
        rest = self.budget - (_cpu() - self.start)
        if rest <= 0:
            raise _Slow
        return rest

    def spent(self) -> float:
        return _cpu() - self.start

    def may_retry(self) -> bool:
        """A wall-clock timeout came before the CPU budget was used up: preempted, try again."""
        return self.spent() < self.budget and _wall() - self.wall < WALL_FACTOR * self.budget


def _search(pattern: Any, text: str, clock: _Clock, pos: int = 0) -> Any:
    while True:
        try:
            return pattern.search(text, pos, timeout=clock.left())
        except TimeoutError:
            if not clock.may_retry():
                raise _Slow from None


def _same(a: Optional[str], b: Optional[str], case_sensitive: bool) -> bool:
    if a is None or b is None:
        return a is b
    return a == b if case_sensitive else a.casefold() == b.casefold()


def line_hits(rule: Compiled, target: str, source: Optional[str], clock: _Clock) -> list[tuple[int, Optional[int]]]:
    """(start, end) in the target of each finding of ``rule`` on this segment ((0, None): the
    whole line); raises _Slow past the clock's budget."""
    src, tgt = rule.source, rule.target
    if src is not None:
        if source is None:
            return []
        s = _search(src, source, clock)
        if s is None:
            return []
        t = _search(tgt if tgt is not None else src, target, clock)
        if t is None:
            return [(0, None)]  # (a) the source matches, the target does not
        if rule.groups:
            for k in range(1, rule.groups + 1):
                if not _same(s.group(k), t.group(k), rule.case_sensitive):
                    return [t.span()]  # (c) a group differs
        return []
    out: list[tuple[int, Optional[int]]] = []  # (b) the target matches
    pos = 0
    while pos <= len(target) and len(out) < MAX_PER_LINE:
        m = _search(tgt, target, clock, pos)
        if m is None:
            break
        out.append(m.span())
        pos = m.end() if m.end() > m.start() else m.end() + 1
    return out


# -- the rule ---------------------------------------------------------------------------------------
def _applicable(ctx: LineContext, rules: RuleSet) -> tuple[Compiled, ...]:
    got = ctx.__dict__.get("_user_rules")
    if got is None or got[0] is not rules:
        names = ctx.names
        chosen = tuple(r for r in rules.rules if applies(r.files, names.get("path"), names.get("hypothesis")))
        got = ctx.__dict__["_user_rules"] = (rules, chosen)
    return got[1]


def rule_params(ctx: LineContext, c) -> tuple:
    """What every line's verdict depends on besides the line: the rule set, the rules that apply
    to this document, and those a time limit switched off."""
    rules = rule_set(ctx.settings)
    return rules.serial, tuple(r.position for r in _applicable(ctx, rules)), frozenset(rules.disabled)


def _said(rule: Compiled, end: Optional[int]) -> str:
    """The sentence of a rule that has no ``message``."""
    if rule.source is None:
        return f"The target matches the pattern of rule:{rule.name}."
    if end is None:
        return f"The source matches the pattern of rule:{rule.name} and the target does not."
    return f"The source and the target match the patterns of rule:{rule.name} with different groups."


def _slow_message(rule: Compiled, where: str, per_pass: bool) -> str:
    if per_pass:
        return (f"rule:{rule.name}: the pattern took longer than {PER_PASS:g} s over this document (by {where}); "
                "the rule is off until its settings change")
    return (f"rule:{rule.name}: the pattern took longer than {PER_SEGMENT * 1000:g} ms on {where}; "
            "the rule is off until its settings change")


def user_rules(ctx: LineContext, c) -> Iterator[Finding]:
    """``rule:<code>``: the user's own rules on the lines of ``ctx.span`` (see the module)."""
    rules = rule_set(ctx.settings)
    chosen = _applicable(ctx, rules)
    if not chosen:
        return
    path = ctx.names.get("path")
    token = (rules.serial, tuple(r.position for r in chosen))
    memo = ctx.text_memo("rule", token)
    state = ctx.state("rule")
    spent = state.setdefault("spent", {})
    if state.get("pass") != ctx.passes:
        state["pass"] = ctx.passes
        spent.clear()
    lo, hi = ctx.span
    hyp, source = ctx.hyp, ctx.source
    ns = len(source) if source is not None else 0
    cap = ctx.settings.max_line_bytes
    disabled = rules.disabled
    unit = "segment" if "line_languages" in ctx.names else "line"  # (a PO, XLIFF, TMX or subtitle file's lines are its segments)
    for r in chosen:
        spent.setdefault(r.name, 0.0)
    hits_of: list = []
    for i in range(lo, hi):
        line = hyp[i]
        src = source[i] if source is not None and i < ns else None
        key = (line, src)
        found = memo.get(key)
        if found is None:
            got: list = []
            complete = True
            if not (over_cap(line, cap) or (src is not None and over_cap(src, cap))):
                for r in chosen:
                    name = r.name
                    if name in disabled:
                        continue
                    clock = _Clock(PER_PASS - spent[name])
                    try:
                        hits = line_hits(r, line, src, clock)
                    except _Slow:
                        per_pass = clock.budget < PER_SEGMENT
                        rules.disable(r, _slow_message(r, f"{unit} {i + 1}", per_pass), path, i)
                        complete = False
                        continue
                    finally:
                        spent[name] += _cpu() - clock.start
                    if hits:
                        got.extend((r, a, b) for a, b in hits)
            found = tuple(got)
            if complete:
                memo[key] = found
        if found:
            hits_of.append((i, found))
    out: list[Finding] = []
    for i, found in hits_of:  # (a rule switched off during this pass says nothing more)
        for r, a, b in found:
            if r.name not in disabled:
                out.append(Finding(f"rule:{r.name}", r.severity or c.severity, r.message or _said(r, b), line=i, start_col=a,
                                   end_col=b, data={"rule": r.name}))
    for name, why in list(disabled.items()):  # said once: where it happened
        if why.path == path and lo <= why.line < hi and any(r.name == name for r in chosen):
            out.append(Finding(f"rule:{name}", "warning", why.message, line=why.line))
    out.sort(key=lambda f: f.line)
    yield from out
