"""The seat page's controls, used as a person would: open the page, press the button, read what it says.

Each control POSTs to its own small view and comes back to the page with a message; a refusal
is explained there and changes nothing.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import links
from games.actions import organise, play, talk
from games.clock.shown import local_time
from games.engine import Choose, ChooseMany, Option
from games.models import Event, Game, Message, Seat, Vacation
from games.titles import register
from tests.support.pebbles import Pebbles

pytestmark = pytest.mark.django_db(transaction=True)


class PebblesAhead(Pebbles):
    """Pebbles with the optional upcoming() hook: a seat waiting for its turn may plan its take."""

    slug = "pebbles_ahead"
    name = "Pebbles ahead"

    def upcoming(self, state, seat):
        if state["pile"] == 0 or None in state["secret"] or seat in self.prompts(state):
            return None
        n = min(3, state["pile"])
        return Choose("Take pebbles", tuple(Option(f"take{k}", f"Take {k}") for k in range(1, n + 1)))


register(PebblesAhead())


class PickThree(Pebbles):
    """Pebbles whose every turn is one "pick exactly 3 of 5", to play a refused pick out."""

    slug = "pick_three"
    name = "Pick three"

    def prompts(self, state):
        if state["pile"] == 0:
            return {}
        return {state["turn"]: ChooseMany("Pick exactly 3", tuple(Option(c, c.upper()) for c in "abcde"), 3, 3)}

    def apply(self, state, seat, answer, rng):
        self.prompts(state)[seat].validate(answer)
        return {**state, "pile": 0, "secret": [0] * len(state["names"]), "log": [*state["log"]]}


register(PickThree())


def token(game, index):
    return links.token_for(Seat.objects.get(game=game, index=index))


def page(client, game, index) -> str:
    r = client.get(reverse("seat", args=[token(game, index)]))
    assert r.status_code == 200
    return r.content.decode()


def post(client, game, index, name, data=None):
    """POST a control and follow the redirect back to the seat page, as a browser would."""
    r = client.post(reverse(name, args=[token(game, index)]), data or {}, follow=True)
    assert r.redirect_chain and r.redirect_chain[0][1] == 302
    return r.content.decode()


def hide(game, index, value=1):
    game.refresh_from_db()
    play.submit(game.pk, index, value, game.version, via="web")
    game.refresh_from_db()


def hide_all(game):
    for i in sorted(game.engine.prompts(game.state)):
        hide(game, i)


def snapshot(game):
    game = Game.objects.get(pk=game.pk)
    seats = [(s.is_bot, s.stand_in, s.wants_pause, tuple(s.plan), s.deadline) for s in game.seats.all()]
    return game.version, game.status, game.state, game.events.count(), seats, Vacation.objects.count()


# --- the deadline, vacations and stand-ins on the page -------------------------------------------


def test_the_page_states_my_deadline_in_my_own_timezone(client, make_game, organiser):
    game = make_game(start=False)
    Game.objects.filter(pk=game.pk).update(decision_hours=48)
    organise.start_game(game)
    seat = Seat.objects.select_related("player").get(game=game, index=0)
    seat.player.timezone = "America/New_York"
    seat.player.save()
    seat.refresh_from_db()
    html = page(client, game, 0)
    expected = local_time(seat.deadline, "America/New_York")
    assert "(America/New_York)" in expected and f"Answer by <strong>{expected}</strong>" in html
    assert "Times are shown in America/New_York" in html


def test_other_players_see_who_is_on_vacation_until_when_and_who_a_bot_stands_in_for(client, make_game):
    game = make_game(seats=("ana@example.com", "ben@example.com", "cy@example.com"))
    ana = Seat.objects.get(game=game, index=0)
    now = timezone.now()
    Vacation.objects.create(seat=ana, starts=now - timedelta(days=1), ends=now + timedelta(days=3))
    Vacation.objects.create(seat=ana, starts=now - timedelta(days=9), ends=now - timedelta(days=5))  # over
    organise.hand_to_bot(Seat.objects.get(game=game, index=2), None, "away")
    html = page(client, game, 1)
    until = local_time(now + timedelta(days=3), "UTC")
    assert f"on vacation until {until}" in html
    assert html.count("on vacation until") == 1, "a vacation that is over is not shown"
    assert "a bot is standing in" in html


def test_a_finished_games_page_offers_no_seat_back_and_no_away_tags(client, make_game):
    from tests.support.play import finish

    game = make_game(seats=("ana@example.com", "ben@example.com", "cy@example.com"))
    ana = Seat.objects.get(game=game, index=0)
    now = timezone.now()
    Vacation.objects.create(seat=ana, starts=now - timedelta(days=1), ends=now + timedelta(days=3))
    organise.hand_to_bot(Seat.objects.get(game=game, index=2), None, "away")
    assert "Take my seat back" in page(client, game, 2) and "on vacation until" in page(client, game, 1)
    finish(game)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ENDED
    for index in range(3):
        html = page(client, game, index)
        assert "Final scores" in html
        assert "Take my seat back" not in html and "A bot is playing for you" not in html
        assert "on vacation until" not in html and "a bot is standing in" not in html


def test_boxes_ticked_before_a_refused_pick_exactly_3_stay_ticked(client, make_game):
    game = make_game(title="pick_three")
    turn = game.state["turn"]
    url = reverse("seat", args=[token(game, turn)])
    form = {"version": game.version, "prompt_key": _prompt_key(game, turn), "answer": ["a", "c"]}
    back = client.post(url, form, follow=True).content.decode()
    assert "Pick exactly 3" in back and Game.objects.get(pk=game.pk).version == game.version, "refused"
    ticked = re.findall(r'value="(\w)" checked', back)
    assert ticked == ["a", "c"], "the two boxes ticked come back ticked"
    assert "checked" not in page(client, game, turn), "once shown, a reload starts afresh"
    # a refused form for a question no longer asked brings nothing back
    form["prompt_key"] = "stale"
    back = client.post(url, form, follow=True).content.decode()
    assert "checked" not in back


def _prompt_key(game, index):
    from games.engine.prompts import prompt_key

    return prompt_key(game.engine.prompts(game.state)[index])


# --- undo ----------------------------------------------------------------------------------------


def test_undo_takes_back_my_last_answer(client, make_game):
    game = make_game()
    hide(game, 0, 3)
    html = page(client, game, 0)
    assert "Undo my last answer" in html
    version = re.search(r'action="[^"]*/undo/".*?name="version" value="(\d+)"', html, re.S).group(1)
    out = post(client, game, 0, "seat-undo", {"version": version})
    assert "Your last answer was taken back" in out
    game.refresh_from_db()
    assert game.state["secret"][0] is None and 0 in game.engine.prompts(game.state)
    undo = game.events.filter(kind=Event.Kind.ADMIN).last()
    assert undo.payload["action"] == "undo" and undo.payload["voids"] == [1]
    assert "Hide a secret number" in out, "the page asks again at once"


def test_no_undo_and_no_nagging_once_someone_else_has_acted(client, make_game):
    game = make_game()
    hide(game, 0)
    hide(game, 1)
    html = page(client, game, 0)
    assert "Undo my last answer" not in html and "take back" not in html.lower()


def test_undo_refused_says_why_and_changes_nothing(client, make_game, organiser):
    game = make_game(start=False)
    Game.objects.filter(pk=game.pk).update(decision_hours=24)
    organise.start_game(game)
    hide(game, 0)
    organise.extend_deadline(game, 2, organiser, "slow week")
    html = page(client, game, 0)
    assert "Undo my last answer" not in html
    assert "changed by the organiser since your answer" in html
    game.refresh_from_db()
    before = snapshot(game)
    out = post(client, game, 0, "seat-undo", {"version": game.version})
    assert "changed by the organiser since your answer" in out and 'role="alert"' in out
    assert snapshot(game) == before


def test_undo_from_a_stale_page_changes_nothing(client, make_game):
    game = make_game()
    hide(game, 0)
    before = snapshot(game)
    out = post(client, game, 0, "seat-undo", {"version": game.version - 1})
    assert "The table changed since you opened this page" in out
    assert snapshot(game) == before
    out = post(client, game, 0, "seat-undo", {})
    assert "incomplete" in out
    assert snapshot(game) == before


# --- taking a seat back from a bot ---------------------------------------------------------------


def test_take_my_seat_back_from_the_bot(client, make_game):
    game = make_game(seats=("ana@example.com", "ben@example.com", "cy@example.com"))
    hide(game, 0)
    hide(game, 1)
    organise.hand_to_bot(Seat.objects.get(game=game, index=2), None, "missed deadlines")
    seat = Seat.objects.get(game=game, index=2)
    assert seat.is_bot and seat.stand_in
    html = page(client, game, 2)
    assert "Take my seat back" in html
    out = post(client, game, 2, "seat-take-back")
    assert "Your seat is yours again" in out and "Take my seat back" not in out
    seat.refresh_from_db()
    assert not seat.is_bot and not seat.stand_in
    # pressing again (an old tab) is refused, and nothing changes
    game.refresh_from_db()
    before = snapshot(game)
    out = post(client, game, 2, "seat-take-back")
    assert "Your seat is yours already" in out
    assert snapshot(game) == before


# --- vacations -----------------------------------------------------------------------------------


def test_declare_a_vacation_moves_my_deadline(client, make_game):
    game = make_game(start=False)
    Game.objects.filter(pk=game.pk).update(decision_hours=48, vacation_days=10)
    organise.start_game(game)
    seat = Seat.objects.get(game=game, index=0)
    old_deadline = seat.deadline
    html = page(client, game, 0)
    assert "10 vacation days a year" in html and 'name="starts"' in html and 'type="date"' in html
    today = timezone.now().date()
    out = post(
        client,
        game,
        0,
        "seat-vacation",
        {"starts": (today + timedelta(days=1)).isoformat(), "ends": (today + timedelta(days=2)).isoformat()},
    )
    assert "Vacation saved" in out
    v = Vacation.objects.get(seat=seat)
    assert v.ends - v.starts == timedelta(days=2), "both days are included"
    seat.refresh_from_db()
    assert seat.deadline > old_deadline
    assert "away from" in page(client, game, 1)


def test_a_vacation_over_the_allowance_is_refused_and_nothing_is_saved(client, make_game):
    game = make_game(start=False)
    Game.objects.filter(pk=game.pk).update(decision_hours=48, vacation_days=2)
    organise.start_game(game)
    before = snapshot(game)
    today = timezone.now().date()
    out = post(
        client,
        game,
        0,
        "seat-vacation",
        {"starts": (today + timedelta(days=1)).isoformat(), "ends": (today + timedelta(days=6)).isoformat()},
    )
    assert "This game allows 2 vacation days a year" in out
    assert snapshot(game) == before
    out = post(client, game, 0, "seat-vacation", {"starts": "2030-05-03", "ends": "2030-05-01"})
    assert "The last day away comes before the first" in out and "Nothing was saved" in out
    out = post(client, game, 0, "seat-vacation", {"starts": "someday", "ends": ""})
    assert "Enter a valid date" in out
    assert snapshot(game) == before


# --- agreeing to pause ---------------------------------------------------------------------------


def test_the_game_pauses_when_every_player_agrees(client, make_game):
    game = make_game()
    html = page(client, game, 0)
    assert "Agree to pause" in html and "Nobody has agreed yet" in html
    out = post(client, game, 0, "seat-pause", {"agree": "yes"})
    assert "You agreed to pause" in out and "Agreed so far: ana" in out
    assert "I no longer agree to pause" in out
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert "Agreed so far: ana" in page(client, game, 1)
    out = post(client, game, 1, "seat-pause", {"agree": "yes"})
    assert "Everyone agreed: the game is paused" in out
    assert Game.objects.get(pk=game.pk).status == Game.Status.PAUSED


def test_withdrawing_agreement_and_a_vote_on_a_paused_game(client, make_game, organiser):
    game = make_game()
    post(client, game, 0, "seat-pause", {"agree": "yes"})
    out = post(client, game, 0, "seat-pause", {"agree": "no"})
    assert "You no longer agree to pause" in out
    assert not Seat.objects.get(game=game, index=0).wants_pause
    organise.pause(game, organiser, "holiday")
    before = snapshot(game)
    out = post(client, game, 1, "seat-pause", {"agree": "yes"})
    assert "Only a game in play can be paused" in out
    assert snapshot(game) == before


# --- planning ahead ------------------------------------------------------------------------------


def _planning_game(make_game):
    game = make_game(title="pebbles_ahead")
    hide_all(game)
    waiting = 1 - game.state["turn"]
    return game, waiting


def test_plan_ahead_is_played_when_the_question_arrives(client, make_game):
    game, waiting = _planning_game(make_game)
    html = page(client, game, waiting)
    assert "Plan ahead" in html and "Coming up: Take pebbles" in html
    assert '<label for="id_first">First choice</label>' in html and "Third choice" in html
    key = re.search(r'name="key" value="([^"]+)"', html).group(1)
    out = post(client, game, waiting, "seat-plan", {"key": key, "first": "take3", "second": "take1"})
    assert "Saved" in out
    assert Seat.objects.get(game=game, index=waiting).plan == ["take3", "take1"]
    assert re.search(r"<ol class=\"plan-now\"><li>Take 3</li><li>Take 1</li></ol>", out)
    # the player on turn takes 1 and ends the turn: the plan is played at once
    mover = game.state["turn"]
    game.refresh_from_db()
    play.submit(game.pk, mover, "take1", game.version, via="web")
    game.refresh_from_db()
    play.submit(game.pk, mover, "done", game.version, via="web")
    game.refresh_from_db()
    assert game.state["taken"][waiting] == 3
    assert game.events.filter(seat=waiting, via="conditional").count() == 1
    assert Seat.objects.get(game=game, index=waiting).plan == []


def test_a_plan_can_be_cleared(client, make_game):
    game, waiting = _planning_game(make_game)
    key = re.search(r'name="key" value="([^"]+)"', page(client, game, waiting)).group(1)
    post(client, game, waiting, "seat-plan", {"key": key, "first": "take2"})
    html = page(client, game, waiting)
    assert "Clear my plan" in html
    out = post(client, game, waiting, "seat-plan", {"clear": "1"})
    assert "cleared" in out and "Clear my plan" not in out
    assert Seat.objects.get(game=game, index=waiting).plan == []


def test_a_bad_or_stale_plan_is_refused_and_nothing_is_saved(client, make_game):
    game, waiting = _planning_game(make_game)
    key = re.search(r'name="key" value="([^"]+)"', page(client, game, waiting)).group(1)
    before = snapshot(game)
    out = post(client, game, waiting, "seat-plan", {"key": key, "first": "take2", "second": "take2"})
    assert "Each choice can be ranked only once" in out and "Nothing was saved" in out
    out = post(client, game, waiting, "seat-plan", {"key": key, "first": "take9"})
    assert "Select a valid choice" in out
    out = post(client, game, waiting, "seat-plan", {"key": "0000", "first": "take2"})
    assert "The choices changed since you opened the page" in out
    assert snapshot(game) == before
    # the seat being asked now answers the question instead
    mover = game.state["turn"]
    out = post(client, game, mover, "seat-plan", {"key": key, "first": "take2"})
    assert "no question to answer in advance" in out
    assert snapshot(game) == before


def test_no_plan_ahead_when_the_title_has_no_upcoming_hook(client, make_game):
    game = make_game()
    hide_all(game)
    waiting = 1 - game.state["turn"]
    assert "Plan ahead" not in page(client, game, waiting)
    out = post(client, game, waiting, "seat-plan", {"key": "x", "first": "take1"})
    assert "no question to answer in advance" in out


# --- table talk ----------------------------------------------------------------------------------


def test_table_talk_posts_escaped_newest_first(client, make_game):
    game = make_game()
    html = page(client, game, 0)
    assert '<label for="id_talk_text">Your message</label>' in html and "No messages yet" in html
    post(client, game, 0, "seat-talk", {"text": "Hello <b>all</b>"})
    out = post(client, game, 1, "seat-talk", {"text": "Hi ana"})
    assert "Your message is on the board" in out
    assert "Hello &lt;b&gt;all&lt;/b&gt;" in out and "<b>all</b>" not in out
    assert out.index("Hi ana") < out.index("Hello &lt;b&gt;"), "newest first"
    assert Message.objects.filter(game=game).count() == 2


def test_table_talk_refusals_are_shown_and_keep_the_draft(client, make_game):
    game = make_game()
    out = post(client, game, 0, "seat-talk", {"text": "   "})
    assert "The message is empty" in out
    for i in range(talk.TALK_LIMIT):
        post(client, game, 0, "seat-talk", {"text": f"note {i}"})
    out = post(client, game, 0, "seat-talk", {"text": "one too many"})
    assert "messages every 10 minutes" in out and 'role="alert"' in out
    assert ">one too many</textarea>" in out, "what they wrote is kept for another try"
    assert Message.objects.filter(game=game).count() == talk.TALK_LIMIT
    assert not Message.objects.filter(text="one too many").exists()


# --- the page as a whole -------------------------------------------------------------------------


def test_every_control_is_a_post_and_a_get_changes_nothing(client, make_game):
    game = make_game()
    hide(game, 0)
    before = snapshot(game)
    for _ in range(2):
        html = page(client, game, 0)
    assert Message.objects.count() == 0 and snapshot(game) == before
    for name in ("seat-undo", "seat-take-back", "seat-pause", "seat-vacation", "seat-plan", "seat-talk"):
        r = client.get(reverse(name, args=[token(game, 0)]))
        assert r.status_code == 405, name
    assert snapshot(game) == before
    # the page's link carries a token signed when the page was drawn (a second earlier, maybe)
    settings_url = re.escape(reverse("seat-settings", args=["TOKEN"])).replace("TOKEN", r"[\w:.-]+")
    assert re.search(settings_url, html)
    # every form on the page posts, and every control has a label or is a labelled button
    assert not re.search(r'<form(?![^>]*method="(post|get)")', html)
    for control in re.findall(r'<(?:input|select|textarea)[^>]*id="([^"]+)"', html):
        assert f'for="{control}"' in html, control


def test_a_forged_link_cannot_use_the_controls(client, make_game):
    game = make_game()
    before = snapshot(game)
    bad = token(game, 0)[:-4] + "zzzz"
    r = client.post(reverse("seat-talk", args=[bad]), {"text": "hi"})
    assert r.status_code == 403 and "not valid" in r.content.decode()
    r = client.post(reverse("seat-pause", args=[bad]), {"agree": "yes"})
    assert r.status_code == 403
    assert snapshot(game) == before and Message.objects.count() == 0
