"""Hostile values for the front page's one-click game against bots (POST /games/try/) and the rules
pages (GET /rules/<slug>/), judged by the harness of tests/test_fuzz_endpoints.py: never a server
error, a refusal told in words, nothing changed unless the input is legal (a title: a game against
bots starts, or the one already on reopens, saying so)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from games.models import Game
from games.titles import get_title
from tests.support import hostile as h
from tests.support.fuzzing import fuzz
from tests.support.hostile import MultiDict, Verdict
from tests.test_fuzz_endpoints import Case, Findings, Poster, judge, junk_fields, world

pytestmark = pytest.mark.django_db(transaction=True)

# quick titles to start for real (a game against bots plays its bots' first moves at once)
STARTABLE = ("pebbles", "cafe_baras")


def known(value: str | None) -> bool:
    try:
        get_title(value or "")
    except KeyError:
        return False
    return True


def test_try_a_game_against_bots() -> None:
    """POST /games/try/ with `title` in every shape, signed in or not."""
    findings = Findings()
    endpoint = "POST /games/try/"
    ana = User.objects.for_email("ana@example.com")
    client = Client(raise_request_exception=False)
    client.force_login(ana)
    signed = Poster(findings, endpoint, client)
    visitor = Poster(findings, endpoint)

    @fuzz(60)
    @given(
        titles=st.lists(st.one_of(st.sampled_from(STARTABLE), h.hostile_text()), max_size=3),
        junk=junk_fields(),
        anonymous=st.booleans(),
    )
    def example(titles, junk, anonymous) -> None:
        pairs: h.Pairs = [("title", t) for t in titles] + junk
        post = MultiDict(pairs)
        title = post.get("title")
        on = {g.title for g in Game.objects.filter(organiser=ana, status=Game.Status.ACTIVE)}
        if anonymous:
            case = Case(endpoint, f"visitor {pairs!r}"[:300], Verdict.REFUSE, quiet=True)
        elif known(title):
            case = Case(endpoint, repr(pairs)[:300], Verdict.LEGAL, expect="a game against bots", noop=title in on)
        else:
            case = Case(endpoint, repr(pairs)[:300], Verdict.REFUSE)
        poster = visitor if anonymous else signed
        before, response, after = poster.watched("/games/try/", pairs, case.repro, scope=None)
        judge(findings, case, response, before, after)
        if case.verdict is Verdict.LEGAL and response.status_code == 302:
            assert response["Location"].startswith("/play/"), "the player's seat opens"

    example()
    findings.check()


def test_rules_pages() -> None:
    """GET /rules/<slug>/ with hostile slugs: a title's page, else a page saying there is none."""
    findings = Findings()
    poster = Poster(findings, "GET /rules/<slug>/")

    @fuzz(80)
    @given(slug=st.one_of(st.sampled_from(("cafe", "tanto_cuore_rv", "pebbles")), h.hostile_text()))
    def example(slug) -> None:
        before = world()
        path = quote(slug.encode("utf-8", "surrogatepass"), safe="")
        response = poster.get(f"/rules/{path}/", h.short(slug, 60))
        assert world() == before, "reading the rules changes nothing"
        if response.status_code == 200:
            assert known(slug) and get_title(slug).rules_summary, slug
        elif response.status_code < 500:
            assert response.status_code == 404, (slug, response.status_code)
            assert h.in_words(h.visible_text(response.content.decode("utf-8", "replace")))

    example()
    findings.check()
