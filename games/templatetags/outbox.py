"""{% local_outbox as local %}: whether this site keeps its mail in its own outbox (the embedded
default), for pages that tell people where their mail is."""

from __future__ import annotations

from django import template

from games.views.outbox import local_outbox as _local_outbox

register = template.Library()


@register.simple_tag
def local_outbox() -> bool:
    return _local_outbox()
