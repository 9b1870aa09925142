"""Errors a title raises, in words a player (or organiser) understands."""

from typing import Any

from .messages import english


class IllegalMove(Exception):
    """An answer the rules do not allow now. Its `message` (words, or a message of
    games/engine/messages.py) is shown to the player in their language (games.messages.refusal);
    str() is the English."""

    def __init__(self, message: Any = "") -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return english(self.message)


class OptionsError(ValueError):
    """Game options an organiser chose that the title cannot set up."""


class CardDataError(ValueError):
    """A card data file that does not validate; the message names the file, card and field."""
