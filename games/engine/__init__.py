"""The pure kit every title is built on. No Django import anywhere under games/engine/ or games/titles/."""

from .errors import CardDataError, IllegalMove, OptionsError
from .log import entry
from .prompts import Choose, ChooseMany, Composite, Number, Option, Order, Prompt
from .protocol import OptionField, Outcome, State, Title, TitleBase
from .rng import step_rng

__all__ = [
    "CardDataError",
    "Choose",
    "ChooseMany",
    "Composite",
    "IllegalMove",
    "Number",
    "Option",
    "OptionField",
    "OptionsError",
    "Order",
    "Outcome",
    "Prompt",
    "State",
    "Title",
    "TitleBase",
    "entry",
    "step_rng",
]
