"""What every page's top bar tells a signed-in person about their games."""

from __future__ import annotations

from django.http import HttpRequest

from .waiting import WaitingOnMe


def waiting_on_me(request: HttpRequest) -> dict[str, WaitingOnMe]:
    """How many games wait on the signed-in person: counted in one query, and only by a page that
    shows it (base.html's top bar), so the admin's pages and the live check pay nothing."""
    return {"waiting_on_me": WaitingOnMe(getattr(request, "user", None))}
