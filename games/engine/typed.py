"""What people type, read one way everywhere: numbers, free text and date ranges.

A number typed on a page and a number at the top of an email reply go through `read_int`; every
text a person writes (table talk, names, reasons) through `clean_text`; every period a person
asks for through `check_period`. Each is bounded and refuses what it cannot read with words a
person understands, so no input can reach `int()`, the database or date arithmetic raw, and
SQLite and PostgreSQL see the same cleaned values. Pure Python: pages, replies and bots share it.
"""

from __future__ import annotations

import unicodedata
from datetime import date, timedelta

from .errors import IllegalMove

# a number a person types in these games has a few digits; longer is a mistake or an attack
MAX_DIGITS = 9
MAX_NUMBER_CHARS = 40
SIGNS = {"+": 1, "-": -1, "\u2212": -1, "\uff0b": 1, "\uff0d": -1}  # ASCII, minus sign, full-width


class Unreadable(IllegalMove):
    """Typed input that cannot be read; the message says why in words. An IllegalMove, so a
    refused answer reads the same whether the parser or the engine refused it."""


def read_int(text: object, low: int | None = None, high: int | None = None) -> int:
    """A whole number as a person means it: digits of any script (ASCII, Arabic-Indic, full-width...),
    one optional sign, spaces around. Superscripts, fractions, exponents and thousands separators
    are refused, as is anything over MAX_DIGITS digits."""
    if isinstance(text, bool) or not isinstance(text, str | int):
        raise Unreadable("Give a whole number.")
    raw = str(text).strip()
    if not raw:
        raise Unreadable("Give a whole number.")
    if len(raw) > MAX_NUMBER_CHARS:
        raise Unreadable(f"That is too long for a number: give at most {MAX_DIGITS} digits.")
    sign = SIGNS.get(raw[0])
    body = raw[1:].lstrip() if sign else raw
    digits = [unicodedata.decimal(ch, None) for ch in body]
    if not body or None in digits:
        shown = raw if len(raw) <= 12 else raw[:12] + "…"
        raise Unreadable(f"“{shown}” is not a whole number: write it with digits, like 3.")
    if len(digits) > MAX_DIGITS:
        raise Unreadable(f"That is too long for a number: give at most {MAX_DIGITS} digits.")
    value = (sign or 1) * int("".join(map(str, digits)))
    if (low is not None and value < low) or (high is not None and value > high):
        raise Unreadable(_range_words(low, high))
    return value


def _range_words(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"Give a number from {low} to {high}."
    if low is not None:
        return f"Give a number of at least {low}."
    return f"Give a number of at most {high}."


# control characters are dropped, except the two a person types on purpose
KEEP_CONTROLS = {"\n", "\t"}
# categories that show nothing on their own: spaces, separators, format marks
INVISIBLE = {"Zs", "Zl", "Zp", "Cf", "Cc"}
LINE_BREAKS = {"\r\n": "\n", "\r": "\n", "\u2028": "\n", "\u2029": "\n\n", "\x85": "\n"}


def plain(text: str) -> str:
    """Text with plain line breaks, without control characters (but newline and tab) or lone
    surrogates, NFC-normalised: what every database stores and every mail can carry."""
    for old, new in LINE_BREAKS.items():
        text = text.replace(old, new)
    kept = "".join(ch for ch in text if ch in KEEP_CONTROLS or unicodedata.category(ch) not in ("Cc", "Cs"))
    return unicodedata.normalize("NFC", kept)


def clean_text(text: object, limit: int, what: str = "Your text", multiline: bool = True) -> str:
    """Text as it will be stored and shown: line breaks made plain, control characters (but newline
    and tab) and lone surrogates dropped, NFC-normalised, trimmed. Longer than `limit` characters is
    refused with the limit in words, never cut silently. The same on every database: PostgreSQL
    refuses NUL and surrogates, SQLite would have stored them."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if len(text) > limit * 4 + 1000:  # far over: refuse before any work on it
        raise Unreadable(f"{what} is too long: at most {limit} characters.")
    kept = plain(text)
    if not multiline:
        kept = " ".join(kept.split())
    kept = kept.strip()
    if not any(ch != "\ufffd" and unicodedata.category(ch) not in INVISIBLE for ch in kept):
        return ""  # only spaces, format marks or undecodable bytes (U+FFFD): nothing a person wrote
    if len(kept) > limit:
        raise Unreadable(f"{what} is too long: at most {limit} characters (this has {len(kept)}).")
    return kept


# how far ahead a person may plan an absence; anything later is a typo (or year 9999)
HORIZON_DAYS = 366


def check_period(starts: date, ends: date, today: date, horizon_days: int = HORIZON_DAYS) -> None:
    """A period of whole days (both included) that a person asks for: it must not be over already,
    start no later than the horizon, and end after it starts. Refused in words, so no far date
    ever reaches date arithmetic (year 9999 plus a day overflows)."""
    if ends < starts:
        raise Unreadable("The last day away comes before the first: check the dates.")
    if ends < today:
        raise Unreadable("Those days are over already: give days from today on.")
    if starts < today - timedelta(days=1):  # a day's grace for timezones behind the server's
        raise Unreadable("The first day is in the past: start today or later.")
    last = today + timedelta(days=horizon_days)
    if ends > last:
        raise Unreadable(f"Give dates within a year from today (up to {last.isoformat()}).")
