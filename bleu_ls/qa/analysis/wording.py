"""Every sentence a finding says, in one place."""

from __future__ import annotations

from typing import Optional, Sequence


def num(x: float) -> str:
    """A threshold as a person writes it: 10, 2.5, 0.25."""
    return f"{x:g}"


def times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def plural(n: int, word: str) -> str:
    return f"{word}{'s' if n != 1 else ''}"


# -- score rules ---------------------------------------------------------------
def low_score(parts: Sequence[tuple[str, float, float]]) -> str:
    """parts: (metric name, line score, threshold) for each metric under its threshold."""
    return "; ".join(f"{name} {v:.1f} is under the threshold {num(thr)}" for name, v, thr in parts) + "."


def outlier(name: str, value: float, rule: str, rule_value: float, median: float) -> str:
    why = {
        "bottom-percent": f"among the weakest {num(rule_value)}% of lines in this document",
        "robust-z": "far below the typical line of this document",
        "below-median": f"more than {num(rule_value)} points below this document's median",
    }.get(rule, "an outlier")
    return f"{name} {value:.1f} is {why} (median {median:.1f})."


# -- text rules -----------------------------------------------------------------
EMPTY_HYPOTHESIS = "This line is empty but the reference has a translation here."
UNTRANSLATED = "This line is the same as the source line: it looks untranslated."


def repetition(phrase: str, run: int, ref_count: int, has_reference: bool = True) -> str:
    if not has_reference:
        where = ""
    elif ref_count == 0:
        where = " and not in the reference"
    else:
        where = f" but occurs only {times(ref_count)} in the reference"
    return f"\u201c{phrase}\u201d repeats {run} times in a row here{where}: the output may be looping."


def doubled_word(first: str, second: str, count: int) -> str:
    more = f" ({count} doubled words in this line)" if count > 1 else ""
    return f"\u201c{first} {second}\u201d: the same word twice in a row{more}."


# -- file-level -----------------------------------------------------------------
def line_count(hyp_name: str, ref_name: str, n_hyp: int, n_ref: int) -> str:
    if n_hyp > n_ref:
        tail = f"lines {n_ref + 1}\u2013{n_hyp} have no reference line and are not scored"
        if n_hyp == n_ref + 1:
            tail = f"line {n_hyp} has no reference line and is not scored"
    else:
        missing = n_ref - n_hyp
        tail = (
            f"the last {missing} reference line{'s are' if missing > 1 else ' is'} not scored; "
            "a line may be missing or merged"
        )
    return f"{hyp_name} has {n_hyp} {plural(n_hyp, 'line')} but {ref_name} has {n_ref}: {tail}."


def reference_name(names: Sequence[str], k: int, n_refs: int) -> str:
    if k < len(names):
        return names[k]
    return "the reference" if n_refs == 1 else f"reference {k + 1}"


def unpaired(hyp_name: str, suggested_ref: Optional[str], command_title: Optional[str]) -> str:
    if suggested_ref is not None:
        create = f"create {suggested_ref} next to it"
    else:
        create = "create a reference file named after it (NAME.hyp pairs with NAME.ref)"
    tail = (
        f", add a [[pairs]] rule to bleu-ls.toml, or run the \u201c{command_title}\u201d command."
        if command_title
        else " or add a [[pairs]] rule to bleu-ls.toml."
    )
    return f"No reference found for {hyp_name or 'this file'}, so nothing is scored. To pair it, {create}{tail}"


def reference_error(problem: str) -> str:
    return problem[:1].upper() + problem[1:]


def internal_error(exc: Exception) -> str:
    return f"bleu-ls could not analyse this file: {exc}"


# -- spelling ------------------------------------------------------------------
def spelling(word: str, language: str) -> str:
    return f"“{word}” is not in the {language} dictionary (nor in your word list)."


def spelling_off(problem: str) -> str:
    return f"Spelling not checked: {problem}."
