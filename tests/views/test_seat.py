"""Seat pages: GET changes nothing, POST plays, bad input explained, nothing hidden leaks."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from games import links
from games.actions import play
from games.models import DeliveredMail, Game
from tests.support.play import take_pebbles

pytestmark = pytest.mark.django_db(transaction=True)


def seat_url(game, index):
    return reverse("seat", args=[links.token_for(game.seats.get(index=index))])


def test_opening_a_link_changes_nothing(client, make_game):
    game = make_game()
    for _ in range(3):
        r = client.get(seat_url(game, 0))
        assert r.status_code == 200
    game.refresh_from_db()
    assert game.version == 0 and game.events.count() == 1


def test_the_page_shows_the_decision_as_a_form(client, make_game):
    game = make_game()
    html = client.get(seat_url(game, 0)).content.decode()
    assert "Hide a secret number" in html
    assert 'name="version" value="0"' in html and 'name="prompt_key"' in html


def _post(client, url, answer, game):
    html = client.get(url).content.decode()
    key = re.search(r'name="prompt_key" value="([^"]+)"', html).group(1)
    return client.post(url, {"answer": answer, "version": game.version, "prompt_key": key}, follow=True)


def test_posting_the_form_plays_and_shows_the_next_state(client, make_game):
    game = make_game()
    url = seat_url(game, 0)
    r = _post(client, url, "2", game)
    assert "Played." in r.content.decode()
    game.refresh_from_db()
    assert game.state["secret"][0] == 2


def test_an_illegal_answer_is_explained_and_changes_nothing(client, make_game):
    game = make_game()
    r = _post(client, seat_url(game, 0), "9", game)
    assert "from 0 to 3" in r.content.decode() and "Nothing was played" in r.content.decode()
    game.refresh_from_db()
    assert game.version == 0


def test_a_malformed_form_is_explained_and_changes_nothing(client, make_game):
    game = make_game()
    r = client.post(seat_url(game, 0), {"answer": "1", "version": "x"}, follow=True)
    assert "incomplete" in r.content.decode()
    game.refresh_from_db()
    assert game.version == 0


def test_posting_twice_applies_once(client, make_game):
    game = make_game()
    url = seat_url(game, 0)
    html = client.get(url).content.decode()
    key = re.search(r'name="prompt_key" value="([^"]+)"', html).group(1)
    client.post(url, {"answer": "1", "version": 0, "prompt_key": key})
    r = client.post(url, {"answer": "1", "version": 0, "prompt_key": key}, follow=True)
    assert "already answered" in r.content.decode()
    assert game.events.filter(kind="answer").count() == 1


def test_a_seat_not_being_asked_gets_no_form(client, make_game):
    game = make_game()
    play.submit(game.pk, 0, 1, 0, via="web")
    html = client.get(seat_url(game, 0)).content.decode()
    assert "Nothing to decide right now" in html and 'name="prompt_key"' not in html


def test_a_forged_link_page_says_why(client, make_game):
    game = make_game()
    r = client.get(seat_url(game, 0)[:-4] + "zzzz/")
    assert r.status_code == 403 and "not valid" in r.content.decode()


def test_an_expired_link_offers_a_fresh_one_by_email_to_the_seat_only(client, make_game, settings):
    game = make_game()
    url = seat_url(game, 0)
    settings.SEAT_LINK_MAX_AGE = -1
    r = client.get(url)
    assert r.status_code == 403 and "expired" in r.content.decode()
    before = len(mail.outbox)
    client.post(url + "fresh-link/")
    sent = mail.outbox[before:]
    assert [m.to for m in sent] == [["ana@example.com"]]


def test_no_page_or_email_shows_another_seats_secret(client, make_game):
    game = make_game()
    play.submit(game.pk, 0, 3, 0, via="web")
    html_b = client.get(seat_url(game, 1)).content.decode()
    assert "You hid 3" not in html_b and "ana hid a number" in html_b
    html_a = client.get(seat_url(game, 0)).content.decode()
    assert "You hid 3" in html_a
    for m in mail.outbox:
        if m.to == ["ben@example.com"]:
            assert "You hid 3" not in m.body and "You hid 3" not in m.alternatives[0][0]


def test_history_steps_show_only_what_the_seat_saw_then(client, make_game):
    game = make_game()
    play.submit(game.pk, 0, 3, 0, via="web")
    hist = reverse("seat-history", args=[links.token_for(game.seats.get(index=1))])
    html = client.get(hist + "?step=1").content.decode()
    assert "ana hid a number" in html and "You hid 3" not in html
    assert "Step 1 of 1" in html


def test_after_the_game_the_history_shows_every_hand(client, make_game):
    game = make_game(seats=("ana@example.com", None))
    while Game.objects.get(pk=game.pk).status != Game.Status.ENDED:
        game.refresh_from_db()
        answer = game.engine.bot_answer(game.state, 0, __import__("random").Random(1))
        play.submit(game.pk, 0, answer, game.version, via="web")
    game.refresh_from_db()
    hist = reverse("seat-history", args=[links.token_for(game.seats.get(index=0))])
    html = client.get(hist + "?step=2&as=1").content.decode()
    assert "see it as" in html


def test_organiser_creates_starts_and_reads_the_outbox(client, organiser, settings):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    client.force_login(organiser)
    r = client.post(
        reverse("game-new"),
        {"title": "pebbles", "name": "Friday table", "seats": "ana@example.com\nbot\nben@example.com"},
    )
    game = Game.objects.get(name="Friday table")
    assert r.status_code == 302 and [s.is_bot for s in game.seats.all()] == [False, True, False]
    client.post(reverse("game-start", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page = client.get(reverse("outbox")).content.decode()
    assert "Your move in Friday table" in page
    mail_pk = DeliveredMail.objects.filter(subject__startswith="Your move").first().pk
    detail = client.get(reverse("outbox-mail", args=[mail_pk])).content.decode()
    assert "/play/" in detail


def test_new_game_form_refuses_a_bad_seat_list(client, organiser):
    client.force_login(organiser)
    r = client.post(reverse("game-new"), {"title": "pebbles", "name": "x", "seats": "not-an-address\nbot"})
    assert "neither an email address nor one of the words open and bot" in r.content.decode()
    assert not Game.objects.exists()


def test_players_cannot_reach_organiser_pages(client, make_game):
    game = make_game()
    assert client.get(reverse("game-detail", args=[game.pk])).status_code == 302
    assert client.get(reverse("outbox")).status_code == 302


def test_a_long_games_page_shows_the_newest_lines_and_marks_what_is_new(client, make_game):
    game = make_game(options={"pile": 200})
    take_pebbles(game, 70)
    url = seat_url(game, 0)
    client.get(url)  # the seat has now seen everything
    total = len(game.state["log"])
    take_pebbles(game, 2)

    html = client.get(url).content.decode()
    items = re.findall(r"<li value=\"(\d+)\"( class=\"new\")?>(?:<span class=\"badge\">new</span> )?([^<]*)</li>", html)
    lines = game.engine.view(game.state, 0)["log"]
    assert [text for _, _, text in items] == lines[-60:][::-1], "the newest 60 lines, newest first"
    assert [bool(new) for _, new, _ in items[:3]] == [True, True, False], "the two lines since the last visit"
    # each line is numbered by its place in the whole game, not from 1 under the earlier entries
    assert [int(n) for n, _, _ in items] == list(range(len(lines), len(lines) - 60, -1))
    hidden = len(lines) - 60
    assert f"{hidden} earlier entries" in html and hidden == total + 2 - 60


def test_the_fault_tests_players_can_fill_the_form_as_it_is_drawn(client, make_game):
    """The production fault tests answer by reading this page's HTML; a change to how a prompt is
    drawn must not leave them sending nothing (they would still pass their other counts)."""
    from tests.production.service import answer_form

    game = make_game()
    url = seat_url(game, 0)
    form = answer_form(client.get(url).content.decode())
    assert form is not None and form["answer"] == "0" and form["version"] == "0"
    r = client.post(url, form, follow=True)
    assert "Played." in r.content.decode()
