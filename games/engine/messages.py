"""What an engine says, as a message id with parameters, never as rendered words. Pure, no Django.

Every seat reads the same game in its own language (Board Game Arena's pattern): a title says
`msg("%(seat)s drew %(card)s.", seat=seat_ref(1), card=card_ref("Latte"))`; the log, prompts, options,
errors and views hold that as plain JSON, and the service renders it in the reader's language when
it is shown (games/messages.py). The id is the English sentence with named placeholders, so a
message untranslated in some language still reads, in English.

JSON shapes (they are stored in game states, so they never change meaning):
  a message   {"$m": id, "$p": {name: param}}           plural: {..., "$pl": plural id, "$n": name}
  a seat      {"$seat": index}                           read as the player's name of now
  a card      {"$card": English name}                    read as the card's name in the language
  a list      {"$list": [param, ...]}                    joined as the language joins a list
  a param is also a message, a number (shown in the language's digits and separators) or a string
  (shown as is: a name the player typed, a card id).
"""

from __future__ import annotations

from typing import Any

Msg = dict[str, Any]


def msg(text: str, /, **params: Any) -> Msg:
    """A message: `text` is the English id with %(name)s placeholders, one per keyword."""
    m: Msg = {"$m": text}
    if params:
        m["$p"] = params
    return m


def nmsg(one: str, many: str, n: str, /, **params: Any) -> Msg:
    """A message whose words agree with the number `params[n]` ("1 card", "2 cards"), in each
    language's own plural rules (Japanese has one form, Polish three)."""
    m = msg(one, **params)
    m["$pl"] = many
    m["$n"] = n
    return m


def seat_ref(index: int) -> dict[str, int]:
    return {"$seat": index}


def card_ref(name: str) -> dict[str, str]:
    return {"$card": name}


def list_ref(items: list[Any]) -> dict[str, list[Any]]:
    return {"$list": list(items)}


def is_msg(value: Any) -> bool:
    return isinstance(value, dict) and "$m" in value


def english(value: Any, names: dict[int, str] | None = None) -> str:
    """A message in the English it was written in, with seats by `names` ("Seat 2" without): for
    tests, bots and logs outside any reader. The service renders through games/messages.py."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, dict):
        if "$seat" in value:
            i = value["$seat"]
            return (names or {}).get(i, f"Seat {i + 1}") if isinstance(i, int) else str(i)
        if "$card" in value:
            return str(value["$card"])
        if "$list" in value:
            items = [english(v, names) for v in value["$list"]]
            return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""
        if "$m" in value:
            params = value.get("$p") or {}
            text = value["$m"]
            if "$pl" in value and params.get(value.get("$n")) != 1:
                text = value["$pl"]
            return fill(text, {k: english(v, names) for k, v in params.items()})
    return str(value)


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return f"%({key})s"


def fill(text: str, params: dict[str, str]) -> str:
    """`text` % params, where a placeholder with no value stays as written rather than failing (a
    translation naming a parameter the message lacks must not break a page)."""
    try:
        return text % _Missing(params)
    except (TypeError, ValueError, KeyError):
        return text
