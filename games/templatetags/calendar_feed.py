"""{% calendar_feed_urls as feed %}: the signed-in person's calendar feed address (feed.url) and the
same as webcal:// (feed.subscribe), for the profile's Calendar feed section."""

from __future__ import annotations

from django import template

from games import calendar_feed

register = template.Library()


@register.simple_tag(takes_context=True)
def calendar_feed_urls(context) -> dict[str, str]:
    user = context["request"].user
    return {"url": calendar_feed.feed_url(user), "subscribe": calendar_feed.subscribe_url(user)}
