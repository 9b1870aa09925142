"""{{ moment|ago }}: how long ago, as people say it ("just now", "5 minutes ago"), never "0 minutes ago"
(an absolute time in the reader's language: games.reader_time)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

register = template.Library()

JUST_NOW = timedelta(minutes=1)  # under a minute, timesince says "0 minutes"


@register.filter
def ago(moment: datetime | None, now: datetime | None = None) -> str:
    """ "just now" under a minute, else Django's "3 hours, 5 minutes ago"; nothing for no moment."""
    if not isinstance(moment, datetime):
        return ""
    now = now or timezone.now()
    if now - moment < JUST_NOW:
        return _("just now")
    return _("%(delta)s ago") % {"delta": timesince(moment, now)}
