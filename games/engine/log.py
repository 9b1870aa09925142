"""Game log entries: the title's own words, each line filtered by who may read it.

An entry is {"text": public words, "private": {str(seat): words for that seat}}. A seat named in
"private" reads its own version (e.g. "You drew Latte"), everyone else reads "text"
("Ana drew a card"). When the game is over, `reveal` shows the private words to everyone.
"""

from typing import Any

Entry = dict[str, Any]


def entry(text: str, private: dict[int, str] | None = None) -> Entry:
    e: Entry = {"text": text}
    if private:
        e["private"] = {str(k): v for k, v in private.items()}
    return e


def read(log: list[Entry], seat: int | None) -> list[str]:
    """The log as `seat` may read it (None = spectator)."""
    key = None if seat is None else str(seat)
    out = []
    for e in log:
        private = e.get("private")
        out.append(private[key] if private and key in private else e["text"])
    return out
