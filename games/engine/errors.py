"""Errors a title raises, in words a player (or organiser) understands."""


class IllegalMove(Exception):
    """An answer the rules do not allow now. The message is shown to the player as is."""


class OptionsError(ValueError):
    """Game options an organiser chose that the title cannot set up."""


class CardDataError(ValueError):
    """A card data file that does not validate; the message names the file, card and field."""
