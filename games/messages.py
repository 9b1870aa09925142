"""The engines' messages (games/engine/messages.py) in the reader's language: the one place they
become words.

A page, a mail or a ping renders inside the reader's active language (a request's, or
`translation.override(accounts.languages.for_user(person))`); `render` turns every message in a
view or a prompt into words there. A title's messages and card names are looked up in its own
catalogue (msgctxt: the slug; card names: "<slug>:card"), the engine's common ones in the games
app's; a message with no translation reads in English, as it was written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.numbers import format_decimal
from django.utils import translation
from django.utils.translation import gettext, ngettext, npgettext, pgettext

from games.engine.errors import IllegalMove
from games.engine.messages import fill, is_msg

# looked up by a name the extractor does not read: these ids are variables, extracted at their source
_lookup = pgettext


@dataclass(frozen=True)
class Reading:
    """Who is read about: the players' names of now by seat, and the title whose words these are."""

    names: Mapping[int, str] = field(default_factory=dict)
    title: str = ""
    # the game's card set's own translations of its card words ({language: {English: theirs}})
    card_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


NOBODY = Reading()


def reading_for(game: Any, names: Mapping[int, str] | None = None) -> Reading:
    """How a game's words are read: its players by their names of now, its title's catalogue, and
    the translations its card set brought (kept with the game when it started)."""
    options = getattr(game, "options", None)
    own = options.get("card_words") if isinstance(options, dict) else None
    return Reading(names or {}, getattr(game, "title", "") or "", own if isinstance(own, dict) else {})


@lru_cache(maxsize=32)
def _locale(code: str) -> Locale:
    try:
        return Locale.parse(translation.to_locale(code))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def _here() -> Locale:
    return _locale(translation.get_language() or "en")


def _text(context: str, one: str, many: str | None = None, n: int | float | None = None) -> str:
    """The title's translation, else the engine's common one, else the English id."""
    if not one:
        return ""  # gettext("") is a catalogue's header, never words
    if _english():  # the ids are the English: nothing to look up (most pages, every test)
        return one if many is None or n == 1 else many
    if many is None:
        found = _lookup(context, one) if context else one
        return found if found != one else gettext(one)
    count = n if isinstance(n, int) else 2
    found = npgettext(context, one, many, count) if context else None
    english = one if count == 1 else many
    return found if found and found != english else ngettext(one, many, count)


def number(n: int | float) -> str:
    """A number in the reader's digits and separators (a small whole number reads the same in all six)."""
    if isinstance(n, int) and -1000 < n < 1000:
        return str(n)
    return format_decimal(n, locale=_here())


def _english() -> bool:
    code = translation.get_language()
    return code is None or code == "en" or code.startswith("en-")


def seat_name(index: Any, reading: Reading) -> str:
    if isinstance(index, int) and not isinstance(index, bool) and index in reading.names:
        return str(reading.names[index])
    shown = number(index + 1) if isinstance(index, int) and not isinstance(index, bool) else str(index)
    return pgettext("seat", "Seat %(number)s") % {"number": shown}


def card_name(name: str, reading: Reading) -> str:
    """A card word as the game's set translates it, else as the title's catalogue does, else English."""
    if reading.card_words:
        code = translation.get_language() or "en"
        own = reading.card_words.get(code) or reading.card_words.get(code.split("-")[0]) or {}
        if isinstance(own, Mapping) and isinstance(own.get(name), str):
            return own[name]
    if _english():
        return name
    return _lookup(f"{reading.title}:card", name) if reading.title else name


def say(value: Any, reading: Reading = NOBODY) -> str:
    """One message (or a plain value) as words in the active language."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, dict):
        if "$seat" in value:
            return seat_name(value["$seat"], reading)
        if "$card" in value:
            return card_name(str(value["$card"]), reading)
        if "$list" in value and isinstance(value["$list"], list):
            items = [say(v, reading) for v in value["$list"]]
            return format_list(items, locale=_here()) if items else ""
        if is_msg(value):
            params = value.get("$p") if isinstance(value.get("$p"), dict) else {}
            n = params.get(value.get("$n")) if "$pl" in value else None
            text = _text(reading.title, str(value["$m"]), value.get("$pl"), n)
            return fill(text, {str(k): say(v, reading) for k, v in params.items()})
    if isinstance(value, list):
        return format_list([say(v, reading) for v in value], locale=_here())
    return str(value)


def sayer(title: str = "", names: Mapping[int, str] | None = None) -> Callable[[Any], str]:
    """`say` for a pure drawing to call as it builds its pictures: a title's words, in the active language."""
    reading = Reading(names or {}, title)
    return lambda value: say(value, reading)


def render(tree: Any, reading: Reading = NOBODY) -> Any:
    """`tree` (a view, a prompt's dict, a log) with every message in it as words; all else kept."""
    if isinstance(tree, dict):
        if is_msg(tree) or "$seat" in tree or "$card" in tree or "$list" in tree:
            return say(tree, reading)
        return {k: render(v, reading) for k, v in tree.items()}
    if isinstance(tree, list):
        return [render(v, reading) for v in tree]
    if isinstance(tree, tuple):
        return tuple(render(v, reading) for v in tree)
    return tree


def shown_prompt(prompt: Any, reading: Reading = NOBODY) -> Any:
    """A prompt (games/engine/prompts.py) with its question, labels and details in words, so the
    form, the mail's option list and a reply's option names all read in the reader's language."""
    if prompt is None or not dataclasses.is_dataclass(prompt):
        return prompt
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(prompt):
        if not f.init:
            continue
        value = getattr(prompt, f.name)
        if f.name in ("text", "label", "detail"):
            changes[f.name] = say(value, reading)
        elif f.name == "options":
            changes[f.name] = tuple(shown_prompt(o, reading) for o in value)
        elif f.name == "parts":
            changes[f.name] = tuple((name, shown_prompt(part, reading)) for name, part in value)
    return dataclasses.replace(prompt, **changes)


def refusal(error: IllegalMove, reading: Reading = NOBODY) -> str:
    """An IllegalMove's reason as the player reads it."""
    return say(getattr(error, "message", str(error)), reading)
