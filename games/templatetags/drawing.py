"""{% draw_table %}: a title's table as pictures (the drawing its TITLE offers), for its table templates."""

from __future__ import annotations

from typing import Any

from django import template

from games.messages import reading_for, render, say
from games.titles import get_title

register = template.Library()


@register.simple_tag(takes_context=True)
def draw_table(context, game, view, prompt=None) -> dict[str, Any]:
    """The drawing of `view` (one seat's view, the only table data used) for `game`'s title.

    Its words are in the reader's language. The card list comes from the title's public catalogue; whose seat it is comes from the page
    (history pages look through `as_seat`), so "your" hand and café are drawn as yours.
    """
    drawing = get_title(game.title).drawing
    seat = context.get("as_seat")
    if seat is None and context.get("seat") is not None and hasattr(context["seat"], "index"):
        seat = context["seat"].index
    names = context.get("names")
    if not isinstance(names, dict):
        names = {s.index: s.name for s in game.seats.select_related("player")}
    reading = reading_for(game, names)
    # words the drawing builds into its pictures are said in the reader's language as it draws them;
    # the rest of what it returns are messages, rendered here
    drawn = drawing.draw(
        view, drawing.catalogue(game.state), prompt or None, seat, say=lambda value: say(value, reading)
    )
    return render(drawn, reading)


@register.filter
def chunks(items, size: int):
    """Rows of `size` for an email's HTML table (mail clients have no flex wrapping)."""
    items = list(items or [])
    size = max(1, int(size))
    return [items[i : i + size] for i in range(0, len(items), size)]


@register.simple_tag
def trophy(label: str = ""):
    """The winner's cup as an inline SVG (no emoji font needed), named in the reader's language."""
    from django.utils.safestring import mark_safe
    from django.utils.translation import pgettext

    from games.engine.svg import trophy_svg

    return mark_safe(trophy_svg(label or pgettext("trophy", "winner")))  # noqa: S308 - the label is escaped by trophy_svg
