"""A title's rules in short: one page for every title, from the summary its package declares
(TITLE.rules_summary, an HTML fragment in its templates/), linked from every seat page and the front
page. Open to anyone: rules are no secret."""

from __future__ import annotations

import re
from functools import cache
from html import unescape

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.html import strip_tags
from django.utils.translation import gettext as _

from games.engine.protocol import Title
from games.titles import get_title, titles, when_changed

LEAD = re.compile(r'<p class="lead">(.*?)</p>', re.S)


def summary_template(title: Title) -> str | None:
    """The template name of a title's rules summary, or None when it declares none."""
    return f"titles/{title.slug}/{title.rules_summary}" if title.rules_summary else None


@cache
def lead(slug: str) -> str:
    """A title in one line: its rules summary's lead paragraph, as text ("" when it has none)."""
    name = summary_template(get_title(slug))
    found = LEAD.search(render_to_string(name)) if name else None
    return " ".join(unescape(strip_tags(found.group(1))).split()) if found else ""


when_changed(lead.cache_clear)


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules in short of the title `slug`; 404 for a slug that names no title with a summary."""
    try:
        title = get_title(slug)
    except KeyError:
        raise Http404(_("No such game.")) from None
    name = summary_template(title)
    if name is None:
        raise Http404(_("This game has no rules summary."))

    others = [t for t in titles() if t.slug != slug and t.rules_summary]
    return render(request, "games/rules.html", {"title": title, "summary": name, "others": others})
