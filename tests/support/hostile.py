"""Hostile values for fuzzing the endpoints, and strict readers of what a value means to a person.

The strategies produce what an attacker, a broken mail program or a confused person could send:
text from every Unicode category (lone surrogates and control characters included), huge
strings, numbers in other scripts, superscripts and circled digits, doubled signs, floats,
far and impossible dates, garbled tokens. `form_body` encodes a posted form byte for byte, so
repeated fields, lone surrogates and invalid UTF-8 reach the server as a browser could send them.

The readers (`read_whole_number`, `read_date`, ...) are the oracle: they say what a value
plainly means (LEGAL), plainly does not mean (REFUSE), or could reasonably be read either way
(UNSURE, with the values it could mean). A server may take an UNSURE value or refuse it; it must
refuse a REFUSE value and take a LEGAL one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from html import unescape
from typing import Any
from urllib.parse import quote_from_bytes

from hypothesis import strategies as st

# --- text ------------------------------------------------------------------------------------

ALL_CATEGORIES = (
    "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
    "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn",
)  # fmt: skip

# digits a person might type that are not ASCII: other scripts' zeros (Nd), and look-alikes (No)
DIGIT_ZEROS = (0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0x0F20, 0x1040, 0xFF10, 0x1D7CE, 0x1D7D8, 0x1E950)
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
CIRCLED = "⓪①②③④⑤⑥⑦⑧⑨"
ROMAN = "ⅠⅡⅢⅣⅤ"

SPECIAL_TEXT = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\t",
    "\r\n",
    "\u2028",
    "\u2029",
    "\u200b",
    "\u202e",
    "\ufeff",
    "\ud800",
    "\udfff",
    "x\udc80y",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "null",
    "None",
    "true",
    "[]",
    "{}",
    '{"a": 1}',
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "{{ 7*7 }}",
    "%00",
    "%s%s%s",
    "../../etc/passwd",
    "=cmd|' /C calc'!A0",
    "Ελληνικά",
    "中文字符",
    "العربية",
    "🙂" * 3,
    "e\u0301" * 5,
)

SPECIAL_NUMBERS = (
    "",
    " ",
    "0",
    "-0",
    "+0",
    "00",
    "1",
    "2",
    "3",
    "-1",
    "+1",
    "--3",
    "+-1",
    "-+1",
    "- 1",
    "1-",
    "1 2",
    "1,2",
    "1.0",
    "1.5",
    "2.",
    ".5",
    "1e0",
    "1e9",
    "1E400",
    "1_0",
    "0x10",
    "0b1",
    "1j",
    "inf",
    "-inf",
    "Infinity",
    "NaN",
    "nan",
    "9" * 19,
    "9" * 20,
    "18446744073709551617",
    "-9223372036854775809",
    "9" * 4000,
    "9" * 4301,
    "-" + "9" * 5000,
    "1" + "0" * 10_000,
    "\x001",
    "1\x00",
    "\u20281",
    "1\u2029",
    "\x1c2\x1f",
    "\u00a02",
    "\u30002",
    "²",
    "¹²",
    "③",
    "⑳",
    "Ⅻ",
    "½",
    "٣",
    "۲",
    "३",
    "１",
    "𝟐",
    "-٣",
    "二",
    "two",
)

SPECIAL_DATES = (
    "",
    " ",
    "0001-01-01",
    "0001-01-02",
    "0000-01-01",
    "9999-12-30",
    "9999-12-31",
    "10000-01-01",
    "2026-02-30",
    "2026-02-29",
    "2028-02-29",
    "2026-13-01",
    "2026-00-10",
    "2026-12-32",
    "2026-1-1",
    "2026-01-01T00:00",
    "2026-01-01 25:00",
    "01/02/2027",
    "12/31/9999",
    "1/1/1",
    "31.12.2026",
    "2026/12/31",
    "Dec 31 2026",
    "-2026-01-01",
    "+2026-01-01",
    "٢٠٢٦-٠٥-٠١",
    "２０２６-０５-０１",
    "2026-05-01\x00",
    "2026-05-01\u2028",
    "9" * 5000,
    "now",
    "today",
)


def any_text(max_size: int = 40) -> st.SearchStrategy[str]:
    """Text from every Unicode category: controls, lone surrogates, private use, unassigned."""
    return st.text(st.characters(categories=ALL_CATEGORIES), max_size=max_size)


@st.composite
def huge_text(draw: st.DrawFn, low: int = 10_000, high: int = 1_000_000) -> str:
    """A long string (10 kB to 1 MB), built by repetition so it costs nothing to make."""
    unit = draw(st.sampled_from(("a", "9", "é", "\x00", "\u2028", " ", "🙂", "ab ", "\ud800")))
    size = draw(st.integers(low, high))  # characters for ASCII; fewer for wider characters
    return unit * max(1, size // len(unit.encode("utf-8", "surrogatepass")) // (1 if unit.isascii() else 2))


def hostile_text(max_size: int = 40) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(SPECIAL_TEXT),
        any_text(max_size),
        st.sampled_from(SPECIAL_NUMBERS),
        huge_text(),
    )


# --- numbers ---------------------------------------------------------------------------------


def in_script(n: int, zero: int) -> str:
    """The number written with another script's digits (zero = that script's digit zero)."""
    return ("-" if n < 0 else "") + "".join(chr(zero + int(d)) for d in str(abs(n)))


@st.composite
def number_in_other_script(draw: st.DrawFn, low: int = -5, high: int = 30) -> str:
    n = draw(st.integers(low, high))
    table = draw(st.sampled_from(("nd", "sup", "circled")))
    if table == "nd":
        return in_script(n, draw(st.sampled_from(DIGIT_ZEROS)))
    digits = SUPERSCRIPTS if table == "sup" else CIRCLED
    return ("-" if n < 0 else "") + "".join(digits[int(d)] for d in str(abs(n)))


@st.composite
def long_number(draw: st.DrawFn) -> str:
    digits = draw(st.integers(20, 12_000))
    sign = draw(st.sampled_from(("", "-", "+", "--")))
    return sign + draw(st.sampled_from("123456789")) + "0" * (digits - 1)


def hostile_number() -> st.SearchStrategy[str]:
    """Things typed into a number box: valid and invalid, in every way a person or a bot could."""
    return st.one_of(
        st.sampled_from(SPECIAL_NUMBERS),
        st.integers(-10, 40).map(str),
        st.integers().map(str),
        number_in_other_script(),
        long_number(),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.tuples(st.sampled_from(("--", "+-", "-+", "++", " -", "- ")), st.integers(0, 9)).map(
            lambda t: f"{t[0]}{t[1]}"
        ),
        any_text(6),
    )


# --- dates -----------------------------------------------------------------------------------


def hostile_date() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(SPECIAL_DATES),
        st.dates().map(date.isoformat),
        st.dates().map(lambda d: d.strftime("%m/%d/%Y")),
        st.tuples(st.integers(0, 20_000), st.integers(-1, 14), st.integers(-1, 33)).map(
            lambda t: f"{t[0]:04d}-{t[1]:02d}-{t[2]:02d}"
        ),
        any_text(12),
        huge_text(10_000, 100_000),
    )


# --- tokens and versions ---------------------------------------------------------------------
#
# Strategies never look at the game: a game moves on between examples, and Hypothesis needs the
# same draws to mean the same thing. So they draw plans (functions) applied to the state later.


def _garble(how: str, at: int, extra: str, genuine: str) -> str:
    n = len(genuine)
    i = at % (n + 1)
    if how == "cut":
        return genuine[: at % max(n, 1)]
    if how == "flip" and n:
        i = at % n
        c = extra[:1] or "Q"
        return genuine[:i] + (c if c != genuine[i] else "Q") + genuine[i + 1 :]
    if how == "append":
        return genuine + extra
    if how == "case":
        return genuine.swapcase()
    if how == "swap_halves":
        return genuine[n // 2 :] + genuine[: n // 2]
    if how == "insert":
        return genuine[:i] + extra + genuine[i:]
    return extra  # replaced outright


def garbling() -> st.SearchStrategy:
    """A way to damage a genuine token or address: cut short, tampered with, extended, re-cased, replaced."""
    return st.builds(
        lambda how, at, extra: lambda genuine: _garble(how, at, extra, genuine),
        st.sampled_from(("cut", "flip", "append", "case", "swap_halves", "replace", "insert")),
        st.integers(0, 2**16),
        st.one_of(
            st.sampled_from(("x", ":", "=", "%", "/", "\u2028", "..", "a" * 5000, "Q", "0", "\x00", "é")),
            any_text(8),
            st.sampled_from(SPECIAL_TEXT),
        ),
    )


def _version(plan: tuple, current: int) -> str | None:
    how, arg = plan
    if how == "current":
        return str(current)
    if how == "offset":
        return str(current + arg)
    if how == "script":
        return in_script(current, arg)
    if how == "format":
        return arg.format(current)
    return arg  # a literal hostile value, or None for a missing field


def version_field() -> st.SearchStrategy:
    """The hidden `version` field, as a function of the current version: right, old, future,
    negative, huge, written oddly, non-numeric, or missing (None)."""
    plans = st.one_of(
        st.just(("current", 0)),
        st.just(("current", 0)),
        st.tuples(st.just("offset"), st.integers(-4, 3)),
        st.tuples(st.just("offset"), st.integers(-(2**70), 2**70)),
        st.tuples(st.just("script"), st.sampled_from(DIGIT_ZEROS)),
        st.tuples(
            st.just("format"),
            st.sampled_from(("+{}", " {} ", "{}.0", "0{}", "{}\x00", "-{}", "{}e0", "--{}", "{}_0", "²{}")),
        ),
        st.tuples(st.just("literal"), st.one_of(st.none(), long_number(), hostile_number())),
    )
    return plans.map(lambda plan: lambda current: _version(plan, current))


# --- posting forms byte for byte -------------------------------------------------------------

Value = str | bytes
Pairs = list[tuple[str, Value]]


def _bytes(value: Value) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")


def form_body(pairs: Iterable[tuple[str, Value]]) -> bytes:
    """application/x-www-form-urlencoded, with lone surrogates sent as their (invalid) UTF-8 bytes."""
    return b"&".join(
        quote_from_bytes(_bytes(k), safe=b"").encode() + b"=" + quote_from_bytes(_bytes(v), safe=b"").encode()
        for k, v in pairs
    )


def as_received(value: Value) -> str:
    """The value as Django reads it back out of the body (invalid UTF-8 becomes U+FFFD)."""
    return _bytes(value).decode("utf-8", "replace")


class MultiDict:
    """The posted pairs as the server sees them: .get gives the last value, like a QueryDict."""

    def __init__(self, pairs: Iterable[tuple[str, Value]]):
        self.lists: dict[str, list[str]] = {}
        for k, v in pairs:
            self.lists.setdefault(as_received(k), []).append(as_received(v))

    def getlist(self, key: str) -> list[str]:
        return self.lists.get(key, [])

    def get(self, key: str) -> str | None:
        values = self.getlist(key)
        return values[-1] if values else None


# --- the oracle: what a value means ----------------------------------------------------------


class Verdict(Enum):
    LEGAL = "legal"  # plainly means exactly one acceptable value: must be taken
    UNSURE = "unsure"  # may be read as one of `values`, or refused
    REFUSE = "refuse"  # means nothing acceptable: must be refused, changing nothing


@dataclass(frozen=True)
class Reading:
    verdict: Verdict
    values: tuple[Any, ...] = field(default=())

    @staticmethod
    def refuse() -> Reading:
        return Reading(Verdict.REFUSE)


CANONICAL_INT = re.compile(r"[ \t]*(-?[0-9]+)[ \t]*")
LENIENT_INT = re.compile(r"\s*([+-]?)([0-9]+)(?:\.0*)?\s*")


def _digits_value(s: str) -> int | None:
    """The value of a run of decimal digits of any one script (Nd), superscripts or circled digits."""
    out = 0
    for c in s:
        d = unicodedata.digit(c, None)
        if d is None:
            return None
        out = out * 10 + d
    return out


def read_whole_number(raw: str, low: int | None = None, high: int | None = None) -> Reading:
    """A number typed by a person: ASCII digits with an optional minus are LEGAL (if in range);
    other scripts' digits, a plus sign, '3.0' or surrounding whitespace are UNSURE; the rest,
    including doubled signs, fractions and floats, is REFUSE."""

    def ranged(n: int, verdict: Verdict) -> Reading:
        if (low is not None and n < low) or (high is not None and n > high):
            return Reading.refuse()
        return Reading(verdict, (n,))

    m = CANONICAL_INT.fullmatch(raw)
    if m:
        text = m.group(1)
        if len(text.lstrip("-")) > 40:
            return Reading.refuse() if low is not None or high is not None else Reading(Verdict.UNSURE, ())
        return ranged(int(text), Verdict.LEGAL)
    s = raw.strip()
    sign = -1 if s[:1] == "-" else 1
    body = s[1:] if s[:1] in "+-" else s
    body = re.sub(r"\.0*$", "", body)
    if body and len(body) <= 40:
        value = _digits_value(body)
        if value is not None:
            return ranged(sign * value, Verdict.UNSURE)
    return Reading.refuse()


def read_date(raw: str) -> date | None:
    """A calendar date a person plainly means: YYYY-MM-DD in ASCII digits (surrounding spaces allowed)."""
    m = re.fullmatch(r"\s*([0-9]{4})-([0-9]{2})-([0-9]{2})\s*", raw)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def combine(readings: Sequence[Reading], build, limit: int = 256) -> Reading:
    """The reading of several fields at once: `build(values...)` for each combination of their values."""
    if any(r.verdict is Verdict.REFUSE or not r.values for r in readings):
        return Reading.refuse()
    combos: list[tuple] = [()]
    for r in readings:
        combos = [c + (v,) for c in combos for v in r.values][:limit]
    values = tuple(v for v in (build(*c) for c in combos) if v is not None)
    if not values:
        return Reading.refuse()
    legal = all(r.verdict is Verdict.LEGAL for r in readings) and len(values) == 1
    return Reading(Verdict.LEGAL if legal else Verdict.UNSURE, values)


# --- what a person reads ---------------------------------------------------------------------

WORD = re.compile(r"[^\W\d_]{2,}")
PYTHON_TALK = re.compile(r"Traceback|Exception\b|[A-Za-z]Error\b|<built-in|object at 0x|\bNoneType\b|\{'|\['")


def in_words(text: str) -> bool:
    """A message a person understands: a few real words, no traceback or Python repr (in its first 3000
    characters: a page that echoes a megabyte of input back is judged by how it begins)."""
    text = text[:3000]
    return len(WORD.findall(text)) >= 3 and not PYTHON_TALK.search(text)


def visible_text(html: str) -> str:
    """The text of a page a person sees (scripts, styles and tags removed)."""
    html = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", html[:5_000_000])
    return re.sub(r"\s+", " ", unescape(re.sub(r"(?s)<[^>]+>", " ", html))).strip()


def error_texts(html: str) -> list[str]:
    """Django form errors shown on a page (the errorlist items)."""
    html = html[:5_000_000]
    notes = re.findall(r'(?s)<p class="errornote">(.*?)</p>', html)
    lists = re.findall(r'(?s)<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html)
    return [visible_text(x) for x in notes + lists]


ALLOWED_CONTROLS = {"\n", "\t"}


def controls_in(text: str) -> list[str]:
    """Control characters (Cc) other than newline and tab, and lone surrogates, found in stored text."""
    return sorted({repr(c) for c in text if (unicodedata.category(c) in ("Cc", "Cs")) and c not in ALLOWED_CONTROLS})


def short(value: Any, limit: int = 80) -> str:
    """A value for a report: its repr, cut with its length when long."""
    if isinstance(value, str | bytes) and len(value) > limit:
        head = value[: limit // 2]
        return f"{head!r}…(len={len(value)})"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"…(len={len(text)})"
