"""{% log_items %}: the game log's lines as list items, lines new since the seat's last visit marked.

A page shows up to 60 lines; building them here rather than with two template conditions per line
keeps a long game's page as quick to render as a short one's.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def log_items(log, new_from=None) -> SafeString:
    """`log`: (number in the whole log, line) pairs; a line numbered from `new_from` on is new
    (pages without a last visit, such as the history, pass none)."""
    # each line carries its own number (its place in the whole game), so the newest 60 of 124 read 124
    # down to 65, not 60 down to 1
    new = escape(_("new"))
    items = [
        f'<li value="{i + 1}" class="new"><span class="badge">{new}</span> {escape(line)}</li>'
        if isinstance(new_from, int) and i >= new_from
        else f'<li value="{i + 1}">{escape(line)}</li>'
        for i, line in log
    ]
    return mark_safe("".join(items))  # noqa: S308 - every line is escaped above
