"""Numbers in the source that the line loses or changes.

A number is a run of digits (any script's decimal digits) with optional
group separators and a decimal part: ``1,000.5``, ``1.000,5``, ``1 000``
(with a no-break or thin space), ``3.14``, ``12,5``.  Each number is read
in every way its separators allow: ``1.000`` is one thousand in German and
one in English, so it matches either ``1000`` or ``1``; ``1,000.5`` and
``1.000,5`` are the same number.  Source and line numbers are matched one to
one on a shared reading.

A source number the line does not have is forgiven when the line spells
it out (the whole numbers 0-20, the tens, 100 and 1000 in English, German,
French, Spanish, Italian, Portuguese and Dutch: "zehnmal" for "10 times"),
or when the reference does not have it either (it spells it out in another
way, or drops it as the line does); a number only the line has is forgiven
when the reference has it.  So a line is flagged for what it does differently from both the source
and the reference.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional, Sequence

from . import Issue
from .markup import find_markup

#: group separators: comma, full stop, apostrophes, no-break / narrow / thin spaces
_GROUP = ".,'\u2019\u00a0\u202f\u2009"
_NUMBER_RE = re.compile(
    rf"(?<!\d)\d+(?:[{re.escape(_GROUP)}]\d{{3}}(?!\d))*(?:[.,]\d+)?(?!\d)"
)

#: any decimal digit (what a number needs): lines without one are skipped at C speed
_DIGIT_RE = re.compile(r"\d")


def _canon(int_part: str, frac: str = "") -> str:
    whole = str(int(int_part)) if int_part else "0"
    frac = "".join(str(int(ch)) for ch in frac).rstrip("0")
    return f"{whole}.{frac}" if frac else whole


@lru_cache(maxsize=1 << 14)
def readings(token: str) -> frozenset[str]:
    """Every value ``token`` can stand for, as canonical strings ("1000", "1.5")."""
    parts = re.split(rf"([{re.escape(_GROUP)}])", token)
    digits, seps = parts[0::2], parts[1::2]
    if not seps:
        return frozenset({_canon(token)})
    digits = ["".join(str(int(ch)) for ch in d) for d in digits]
    last = seps[-1]
    if last in ".," and any(s != last for s in seps[:-1]):
        # mixed: the last separator is the decimal point
        return frozenset({_canon("".join(digits[:-1]), digits[-1])})
    if last not in ".,":
        return frozenset({_canon("".join(digits))})
    if len(seps) > 1:
        if all(len(d) == 3 for d in digits[1:]):
            return frozenset({_canon("".join(digits))})
        return frozenset({last.join(digits)})
    # one comma or full stop: thousands if three digits follow, else decimal
    if len(digits[1]) == 3:
        return frozenset({_canon("".join(digits)), _canon(digits[0], digits[1])})
    return frozenset({_canon(digits[0], digits[1])})


def find_numbers(text: str) -> list[tuple[str, int, int, frozenset[str]]]:
    """(as written, start, end, readings) for each number in ``text``, leaving
    out digits inside placeholders, tags, URLs and addresses (``{0}``: the
    markup check's business)."""
    if _DIGIT_RE.search(text) is None:
        return []
    return list(_numbers(text))


@lru_cache(maxsize=1 << 14)
def _numbers(text: str) -> tuple:
    """:func:`find_numbers` of a line with a digit (remembered: source and
    reference lines are read again for every hypothesis line they meet)."""
    if any(ch in text for ch in "{%<@/"):
        for _kind, _value, start, end in find_markup(text):
            text = text[:start] + " " * (end - start) + text[end:]
    return tuple((m.group(), m.start(), m.end(), readings(m.group())) for m in _NUMBER_RE.finditer(text))


#: number words 0-20, tens, hundred, thousand: en, de, fr, es, it, pt, nl
_WORDS = {
    0: "zero null zéro cero nul", 1: "one eins un uno um één", 2: "two zwei deux dos due dois twee",
    3: "three drei trois tres tre três drie", 4: "four vier quatre cuatro quattro quatro",
    5: "five fünf cinq cinco cinque vijf", 6: "six sechs seis sei zes", 7: "seven sieben sept siete sette sete zeven",
    8: "eight acht huit ocho otto oito", 9: "nine neun neuf nueve nove negen", 10: "ten zehn dix diez dieci dez tien",
    11: "eleven elf onze once undici", 12: "twelve zwölf douze doce dodici doze twaalf",
    13: "thirteen dreizehn treize trece tredici treze dertien", 14: "fourteen vierzehn quatorze catorce quattordici veertien",
    15: "fifteen fünfzehn quinze quince quindici vijftien", 16: "sixteen sechzehn seize dieciséis sedici dezesseis zestien",
    17: "seventeen siebzehn diecisiete diciassette zeventien", 18: "eighteen achtzehn dieciocho diciotto achttien",
    19: "nineteen neunzehn diecinueve diciannove negentien", 20: "twenty zwanzig vingt veinte venti vinte twintig",
    30: "thirty dreißig trente treinta trenta trinta dertig", 40: "forty vierzig quarante cuarenta quaranta veertig",
    50: "fifty fünfzig cinquante cincuenta cinquanta vijftig", 60: "sixty sechzig soixante sesenta sessanta zestig",
    70: "seventy siebzig soixante-dix setenta settanta zeventig", 80: "eighty achtzig quatre-vingts ochenta ottanta tachtig",
    90: "ninety neunzig nonante noventa novanta negentig", 100: "hundred hundert cent cien cento honderd",
    1000: "thousand tausend mille mil duizend",
}
_SPELLED = {str(k): v.split() for k, v in _WORDS.items()}


def spelled_out(item, text: str) -> bool:
    """Does ``text`` spell out the number ``item`` (a whole number with a word
    in the table)?  Words of four letters or more count at the start of a
    compound ("zehnmal", not "Nacht"); shorter ones only as whole words."""
    folded = text.casefold()
    for value in item[3]:
        for word in _SPELLED.get(value, ()):
            tail = "" if len(word) >= 4 else r"(?!\w)"
            if re.search(rf"(?<!\w){re.escape(word)}{tail}", folded):
                return True
    return False


def _unmatched(left: list, right: list) -> tuple[list, list]:
    """Match numbers one to one on a shared reading; (unmatched left, unmatched right)."""
    free = list(right)
    lost = []
    for item in left:
        for k, other in enumerate(free):
            if item[3] & other[3]:
                del free[k]
                break
        else:
            lost.append(item)
    return lost, free


def _in_refs(item, ref_numbers: list[list]) -> bool:
    return any(any(item[3] & r[3] for r in nums) for nums in ref_numbers)


def check_numbers(source: str, hypothesis: str, references: Sequence[str] = ()) -> Optional[Issue]:
    """An issue when the line loses, changes or adds a number against the source."""
    src = find_numbers(source)
    hyp = find_numbers(hypothesis)
    if not src and not hyp:
        return None
    missing, extra = _unmatched(src, hyp)
    missing = [m for m in missing if not spelled_out(m, hypothesis)]
    if references:
        ref_numbers = [find_numbers(r) for r in references]
        missing = [m for m in missing if _in_refs(m, ref_numbers)]
        extra = [e for e in extra if not _in_refs(e, ref_numbers)]
    if not missing and not extra:
        return None
    data = {"missing": [m[0] for m in missing], "added": [e[0] for e in extra]}
    if len(missing) == 1 and len(extra) == 1:
        e = extra[0]
        return Issue(f"The source has {missing[0][0]} where this line has {e[0]}: a number may have changed.", e[1], e[2], data)
    parts = []
    if missing:
        parts.append(f"{_listing(missing)} from the source {'is' if len(missing) == 1 else 'are'} missing here")
    if extra:
        parts.append(f"{_listing(extra)} {'is' if len(extra) == 1 else 'are'} not in the source")
    start, end = (extra[0][1], extra[0][2]) if len(extra) == 1 and not missing else (0, None)
    return Issue("Numbers differ from the source: " + "; ".join(parts) + ".", start, end, data)


def _listing(items: list) -> str:
    return ", ".join(i[0] for i in items[:5]) + (", \u2026" if len(items) > 5 else "")
