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

Chinese and Japanese numbers are read too: digits with a multiplier
(``140亿`` = 14,000,000,000, ``5万`` = 50,000) count as numbers like any
other, and a number a line writes with a scale word (``14 billion``,
``2 Millionen``) also reads as its full value, so the two match.  Numbers
written in CJK numerals alone (``十万``, ``两百万``, ``一``) are used only to
match: they excuse the line's number of the same value, but are never
reported missing, because the same characters are ordinary words too
(``一些`` "some", ``十分`` "very", ``万一`` "in case").  Full-width digits
(``１２``) are digits like any other script's.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Optional, Sequence

from . import Finding, finding
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


def find_numbers(text: str) -> list[tuple]:
    """(as written, start, end, readings[, True]) for each number in ``text``,
    leaving out digits inside placeholders, tags, URLs and addresses (``{0}``:
    the markup check's business).  A fifth element marks a number in CJK
    numerals alone (*soft*): it may match, it is never reported missing or added."""
    if _DIGIT_RE.search(text) is None and _CJK_DIGIT_RE.search(text) is None:
        return []
    return list(_numbers(text))


#: CJK numerals: digits, units, myriads
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
               "六": 6, "七": 7, "八": 8, "九": 9}
_CJK_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_MYRIADS = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12}
_CJK_CHARS = "".join([*_CJK_DIGITS, *_CJK_UNITS, *_CJK_MYRIADS])
_CJK_DIGIT_RE = re.compile(f"[{_CJK_CHARS}]")
#: digits followed by a multiplier (``140亿``, ``1.5万``), or CJK numerals alone
_CJK_NUMBER_RE = re.compile(
    rf"(?<![\d.,])(\d+(?:\.\d+)?)\s?([{''.join([*_CJK_UNITS, *_CJK_MYRIADS])}]+)|[{_CJK_CHARS}]+"
)
#: a number followed by a scale word: "14 billion", "2 Millionen", "3 Mrd."
_SCALE_RE = re.compile(
    r"\s?(thousand|million|billion|trillion|Tausend|Millionen|Million|Milliarden|Milliarde|Billionen|Billion|Mio\.|Mrd\.)(?!\w)",
    re.IGNORECASE,
)
_SCALES = {"thousand": (10**3,), "tausend": (10**3,), "million": (10**6,), "millionen": (10**6,), "mio.": (10**6,),
           "billion": (10**9, 10**12), "trillion": (10**12,), "milliarde": (10**9,), "milliarden": (10**9,),
           "mrd.": (10**9,), "billionen": (10**12,)}


def _decimal_text(value: Decimal) -> str:
    """A value as :func:`readings` writes it: "1000", "1.5"."""
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def cjk_value(text: str, lead: Optional[str] = None) -> Optional[Decimal]:
    """The value of CJK numerals (``十万`` 100000, ``三十亿`` 3e9, ``二〇一九``
    2019), after the Arabic digits ``lead`` when given (``140`` + ``亿``); None when
    the characters do not form a number."""
    try:
        num = Decimal(lead) if lead else Decimal(0)
    except InvalidOperation:
        return None
    if not any(ch in _CJK_UNITS or ch in _CJK_MYRIADS for ch in text):
        if lead:
            return None
        return Decimal("".join(str(_CJK_DIGITS[ch]) for ch in text))  # digit by digit: 二〇一九
    total = section = Decimal(0)
    seen_digit = lead is not None
    for ch in text:
        if ch in _CJK_DIGITS:
            num, seen_digit = Decimal(_CJK_DIGITS[ch]), True
        elif ch in _CJK_UNITS:
            section += (num if seen_digit else Decimal(1)) * _CJK_UNITS[ch]
            num, seen_digit = Decimal(0), False
        else:
            big = _CJK_MYRIADS[ch]
            if big >= 10**8:
                total = (total + section + num) * big
            else:
                total += (section + num) * big
            section, num, seen_digit = Decimal(0), Decimal(0), False
    return total + section + num


def _cjk_numbers(text: str) -> tuple[str, list[tuple]]:
    """The CJK numbers of ``text``, and the text with them blanked out."""
    found = []
    for m in _CJK_NUMBER_RE.finditer(text):
        soft = m.group(1) is None
        value = cjk_value(m.group()) if soft else cjk_value(m.group(2), m.group(1))
        if value is None:
            continue
        item = (m.group(), m.start(), m.end(), frozenset({_decimal_text(value)}))
        found.append(item + (True,) if soft else item)
        text = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end():]
    return text, found


def _scaled(item: tuple, text: str) -> tuple:
    """``item`` with the full values of a scale word after it ("14 billion")."""
    m = _SCALE_RE.match(text, item[2])
    if m is None:
        return item
    extra = set()
    for reading in item[3]:
        for scale in _SCALES[m.group(1).lower()]:
            extra.add(_decimal_text(Decimal(reading) * scale))
    return (item[0], item[1], item[2], item[3] | extra)


@lru_cache(maxsize=1 << 14)
def _numbers(text: str) -> tuple:
    """:func:`find_numbers` of a line with a digit (remembered: source and
    reference lines are read again for every hypothesis line they meet)."""
    if any(ch in text for ch in "{%<@/"):
        for _kind, _value, start, end in find_markup(text):
            text = text[:start] + " " * (end - start) + text[end:]
    cjk: list[tuple] = []
    if _CJK_DIGIT_RE.search(text) is not None:
        text, cjk = _cjk_numbers(text)
    out = [(m.group(), m.start(), m.end(), readings(m.group())) for m in _NUMBER_RE.finditer(text)]
    if _SCALE_RE.search(text) is not None:
        out = [_scaled(item, text) for item in out]
    if cjk:
        out = sorted(out + cjk, key=lambda item: item[1])
    return tuple(out)


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


#: scale words after a spelled-out count: "two million", "half a million", "zwei Millionen"
_SCALE_WORDS = {
    10**3: "thousand tausend mille mil duizend",
    10**6: "million millions millionen millón millones milione milioni miljoen",
    10**9: "billion billions milliarde milliarden milliard milliards",
}


def spelled_out(item, text: str) -> bool:
    """Does ``text`` spell out the number ``item`` (a whole number with a word
    in the table, or one of them, or a half, times thousand / million /
    billion)?  Words of four letters or more count at the start of a
    compound ("zehnmal", not "Nacht"); shorter ones only as whole words."""
    folded = text.casefold()
    for value in item[3]:
        for word in _SPELLED.get(value, ()):
            tail = "" if len(word) >= 4 else r"(?!\w)"
            if re.search(rf"(?<!\w){re.escape(word)}{tail}", folded):
                return True
        if len(value) >= 3 and _spelled_scaled(value, folded):
            return True
    return False


def _spelled_scaled(value: str, folded: str) -> bool:
    """``value`` as a count and a scale word in ``folded``: "half a million" for 500000."""
    try:
        v = Decimal(value)
    except InvalidOperation:
        return False
    for scale, words in _SCALE_WORDS.items():
        count = v / scale
        if count == Decimal("0.5"):
            counts = ["half a", "half", "eine halbe", "halbe"]
        elif count == count.to_integral_value() and 1 <= count <= 1000:
            counts = list(_SPELLED.get(str(int(count)), ())) + [str(int(count))] + (["a", "one", "eine", "ein"] if count == 1 else [])
        else:
            continue
        alternatives = "|".join(re.escape(c) for c in counts)
        if re.search(rf"(?<!\w)(?:{alternatives})[\s-]+(?:{'|'.join(words.split())})(?!\w)", folded):
            return True
    return False


def _unmatched(left: list, right: list) -> tuple[list, list]:
    """Match numbers one to one on a shared reading; (unmatched left, unmatched right)."""
    free = list(right)
    lost = []
    for item in sorted(left, key=len):  # numbers in digits first, CJK numerals alone last
        for k, other in enumerate(free):
            if item[3] & other[3]:
                del free[k]
                break
        else:
            lost.append(item)
    return lost, free


def _in_refs(item, ref_numbers: list[list]) -> bool:
    return any(any(item[3] & r[3] for r in nums) for nums in ref_numbers)


def check_numbers(source: str, hypothesis: str, references: Sequence[str] = ()) -> Optional[Finding]:
    """An issue when the line loses, changes or adds a number against the source."""
    src = find_numbers(source)
    hyp = find_numbers(hypothesis)
    if not src and not hyp:
        return None
    missing, extra = _unmatched(src, hyp)
    missing = [m for m in missing if len(m) < 5 and not spelled_out(m, hypothesis)]
    extra = [e for e in extra if len(e) < 5]
    if references:
        ref_numbers = [find_numbers(r) for r in references]
        missing = [m for m in missing if _in_refs(m, ref_numbers)]
        extra = [e for e in extra if not _in_refs(e, ref_numbers)]
    if not missing and not extra:
        return None
    data = {"missing": [m[0] for m in missing], "added": [e[0] for e in extra]}
    if len(missing) == 1 and len(extra) == 1:
        e = extra[0]
        return finding("number-mismatch", f"The source has {missing[0][0]} where this line has {e[0]}: a number may have changed.", e[1], e[2], data)
    parts = []
    if missing:
        parts.append(f"{_listing(missing)} from the source {'is' if len(missing) == 1 else 'are'} missing here")
    if extra:
        parts.append(f"{_listing(extra)} {'is' if len(extra) == 1 else 'are'} not in the source")
    start, end = (extra[0][1], extra[0][2]) if len(extra) == 1 and not missing else (0, None)
    return finding("number-mismatch", "Numbers differ from the source: " + "; ".join(parts) + ".", start, end, data)


def _listing(items: list) -> str:
    return ", ".join(i[0] for i in items[:5]) + (", \u2026" if len(items) > 5 else "")
