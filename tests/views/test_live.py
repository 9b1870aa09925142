"""The live seat page's check (games/views/live.py): one query, nothing rendered when nothing is new,
"changed" after anything the page shows has moved, and nothing else: no game data, whoever asks."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from accounts.models import User
from games import links
from games.actions import organise, play, talk
from games.models import Game, Seat
from games.views.live import marker

pytestmark = pytest.mark.django_db(transaction=True)


def page_of(client, seat: Seat) -> str:
    r = client.get(reverse("seat", args=[links.token_for(seat)]))
    assert r.status_code == 200
    return r.content.decode()


def check_url(client, seat: Seat) -> str:
    """The check the seat's page polls, with the marker the page was drawn with (as seat.js builds it)."""
    page = page_of(client, seat)
    live = re.search(r'id="live" class="live-note" data-check="([^"]+)" data-v="([^"]+)"', page)
    assert live, "the seat page carries its check and marker"
    return f"{html.unescape(live.group(1))}?v={live.group(2)}"


def test_nothing_new_is_a_204_from_one_query_and_no_body(client, make_game, django_assert_num_queries):
    game = make_game()
    url = check_url(client, game.seats.get(index=0))
    with django_assert_num_queries(1):
        r = client.get(url)
    assert r.status_code == 204 and r.content == b""
    assert "no-store" in r["Cache-Control"]


def test_a_signed_in_player_checks_in_one_query_too(client, make_game, django_assert_num_queries):
    game = make_game()
    client.force_login(User.objects.get(email="ana@example.com"))
    url = check_url(client, game.seats.get(index=0))
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 204


def test_another_seats_answer_makes_the_check_say_changed(client, make_game):
    game = make_game()
    url = check_url(client, game.seats.get(index=0))
    play.submit(game.pk, 1, 2, game.version, via="web")
    r = client.get(url)
    assert r.status_code == 200 and r.content == b"changed", "the check says nothing but changed"


def test_the_page_drawn_again_is_current_again(client, make_game):
    game = make_game()
    ana = game.seats.get(index=0)
    play.submit(game.pk, 1, 2, game.version, via="web")
    assert client.get(check_url(client, ana)).status_code == 204


def test_table_talk_makes_the_check_say_changed_without_moving_the_version(client, make_game):
    game = make_game()
    url = check_url(client, game.seats.get(index=0))
    talk.post_message(game.seats.get(index=1), "Good luck, Ana")
    game.refresh_from_db()
    assert game.version == 0, "talk is not a move"
    assert client.get(url).status_code == 200


def test_a_pause_makes_the_check_say_changed(client, make_game, organiser):
    game = make_game()
    url = check_url(client, game.seats.get(index=0))
    organise.pause(game, organiser, "lunch")
    assert client.get(url).status_code == 200


def test_the_marker_moves_with_a_start_which_plays_no_event(make_game):
    draft = make_game(start=False)
    before = marker(draft.version, draft.last_message, draft.status)
    started = organise.start_game(draft)
    started.refresh_from_db()
    assert started.version == draft.version, "a start keeps version 0"
    assert marker(started.version, started.last_message, started.status) != before


def test_the_check_shows_a_seat_nothing_of_the_game(client, make_game):
    """Whatever the marker sent, the answer is one of two bodies, the same for every seat and game."""
    game = make_game()
    play.submit(game.pk, 0, 3, game.version, via="web")  # Ana's secret: 3
    bodies = set()
    for seat in game.seats.all():
        token = links.token_for(seat)
        for v in ("0.0.active", "1.0.active", "999.5.ended", "3.0.draft"):
            r = client.get(reverse("seat-live", args=[token]) + f"?v={v}")
            assert r.status_code in (200, 204)
            bodies.add(r.content)
            assert not r.cookies, "the check sets no cookie"
    assert bodies <= {b"", b"changed"}


@pytest.mark.parametrize(
    "v", ["", "1", "1.0", "1.0.active.x", "-1.0.active", "１.0.active", "1.0.ACTIVE", "1" * 11 + ".0.active"]
)
def test_a_marker_no_page_carries_is_refused_in_words(client, make_game, v):
    game = make_game()
    r = client.get(reverse("seat-live", args=[links.token_for(game.seats.get(index=0))]), {"v": v})
    assert r.status_code == 400 and b"version the page was drawn with" in r.content


def test_links_that_open_no_seat_are_refused_in_words(client, make_game, organiser, settings):
    game = make_game()
    ana = game.seats.get(index=0)
    token = links.token_for(ana)
    forged = token[:-3] + ("abc" if not token.endswith("abc") else "xyz")
    r = client.get(reverse("seat-live", args=[forged]), {"v": "0.0.active"})
    assert r.status_code == 403 and b"not valid" in r.content
    organise.replace_player(ana, "ava@example.com", organiser, "Ana left")
    r = client.get(reverse("seat-live", args=[token]), {"v": "0.0.active"})
    assert r.status_code == 403 and b"replaced" in r.content
    settings.SEAT_LINK_MAX_AGE = -1
    r = client.get(reverse("seat-live", args=[links.token_for(game.seats.get(index=1))]), {"v": "0.0.active"})
    assert r.status_code == 403 and b"expired" in r.content


def test_a_deleted_seats_link_is_refused(client, make_game):
    game = make_game(start=False)
    seat = game.seats.get(index=1)
    token = links.token_for(seat)
    Seat.objects.filter(pk=seat.pk).delete()
    r = client.get(reverse("seat-live", args=[token]), {"v": "0.0.draft"})
    assert r.status_code == 403 and b"no longer exists" in r.content


def test_the_check_only_answers_a_get(client, make_game):
    game = make_game()
    url = reverse("seat-live", args=[links.token_for(game.seats.get(index=0))])
    assert client.post(url, {"v": "0.0.active"}).status_code == 405
    assert Game.objects.get(pk=game.pk).version == 0


def test_the_tab_says_your_move_in_its_title_and_icon(client, make_game):
    game = make_game()
    play.submit(game.pk, 0, 2, game.version, via="web")
    ana, ben = game.seats.get(index=0), game.seats.get(index=1)
    mine = page_of(client, ben)
    assert re.search(r"<title>Your move · ", mine) and "favicon-move.svg" in mine
    theirs = page_of(client, ana)
    assert "<title>Your move" not in theirs and "favicon-move.svg" not in theirs and "favicon.svg" in theirs


def test_a_one_choice_question_is_marked_for_one_tap_and_keeps_send(client, make_game):
    from tests.support.play import take_pebbles

    game = make_game()
    take_pebbles(game, 0)
    [mover] = game.engine.prompts(game.state)
    page = page_of(client, game.seats.get(index=mover))
    assert 'data-kind="choose"' in page and "Tap an option to send it at once" in page
    assert '<button class="button" type="submit">Send</button>' in page, "Send stays for a page without script"
    other = page_of(client, make_game().seats.get(index=0))  # a number: Send, no one tap
    assert 'data-kind="number"' in other and "Tap an option" not in other
