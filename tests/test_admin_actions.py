"""Organisers' actions in the admin: chosen on the changelist, explained on a page of their own, done by the service.

Every action asks why, is recorded as an event with who did it and why, shows a refusal as an
admin error with nothing changed, and reaches only the games the organiser runs.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games import links
from games.actions import organise, play, replay
from games.admin import short_time
from games.models import Event, Game, Notification, Seat

pytestmark = pytest.mark.django_db(transaction=True)

CHANGELIST = "admin:games_game_changelist"


@pytest.fixture
def staff_client(client, organiser):
    organiser.user_permissions.set(
        Permission.objects.filter(codename__in=["view_game", "change_game", "add_game", "view_event"])
    )
    client.force_login(organiser)
    return client


@pytest.fixture
def other_organiser(django_user_model):
    other = django_user_model.objects.create_user("other@example.com", "pw-other-12345", is_staff=True)
    other.user_permissions.set(Permission.objects.filter(codename__in=["view_game", "change_game"]))
    return other


def hide(game, index, value=1):
    game.refresh_from_db()
    play.submit(game.pk, index, value, game.version, via="web")
    game.refresh_from_db()


def snapshot(game):
    game = Game.objects.get(pk=game.pk)
    seats = [(s.player_id, s.is_bot, s.stand_in, s.deadline, s.nonce) for s in game.seats.all()]
    return game.version, game.status, game.state, game.events.count(), seats


def choose_action(client, action: str, *games, url=None):
    """Tick the games on the changelist, pick the action and press Go: the intermediate page."""
    url = url or reverse(CHANGELIST)
    page = client.get(url).content.decode()
    assert f'value="{action}"' in page, f"{action} is offered on the changelist"
    return client.post(url, {"action": action, "index": 0, "_selected_action": [g.pk for g in games]})


def confirm(client, action: str, *games, **fields):
    """Fill the intermediate page's form and send it, following back to the changelist."""
    data = {"action": action, "apply": "1", "_selected_action": [g.pk for g in games], **fields}
    return client.post(reverse(CHANGELIST), data, follow=True)


def admin_event(game, action):
    return Event.objects.filter(game=game, kind=Event.Kind.ADMIN, payload__action=action).last()


def timed_game(make_game, **seats):
    game = make_game(start=False, **seats)
    Game.objects.filter(pk=game.pk).update(decision_hours=24)
    organise.start_game(game)
    game.refresh_from_db()
    return game


# --- the changelist and the change page ----------------------------------------------------------


def test_changelist_shows_who_is_to_move_since_when_and_the_earliest_deadline(staff_client, make_game):
    game = timed_game(make_game)
    earliest = min(s.deadline for s in game.seats.all())
    html = staff_client.get(reverse(CHANGELIST)).content.decode()
    assert "ana, ben" in html and "Earliest deadline" in html and "Waiting since" in html
    assert short_time(earliest) in html, "the earliest deadline, short enough for a narrow column"
    r = staff_client.get(reverse(CHANGELIST) + "?o=6")  # sortable by the earliest deadline
    assert r.status_code == 200


def test_change_page_shows_seats_clock_and_the_log_with_voided_steps(staff_client, make_game, organiser):
    game = timed_game(make_game)
    hide(game, 0)
    hide(game, 1)
    organise.rewind(game, 0, organiser, "misdeal")
    html = staff_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    rewind = admin_event(game, "rewind")
    assert html.count(f"voided by #{rewind.seq}") == 2, "both voided steps stay visible, marked"
    assert "Misses" in html and "Stand in" in html and "Deadline" in html
    assert 'name="decision_hours"' in html and 'name="daily_deadline"' in html and 'name="timeout_policy"' in html
    assert "Table as ana" in html and "Table as ben" in html
    assert game.seed not in html


def _change_form_data(response) -> dict:
    """What the browser would send back from the change page unchanged (main form and inlines)."""
    data = {}
    form = response.context["adminform"].form
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None:
            continue
        data[name] = field.widget.format_value(value) if hasattr(field.widget, "format_value") else value
    for inline in response.context["inline_admin_formsets"]:
        fs = inline.formset
        for key, value in fs.management_form.initial.items():
            data[f"{fs.prefix}-{key}"] = value
        for f in fs.forms:
            for name in f.fields:
                value = f[name].value()
                if value is not None and value is not False:
                    data[f.add_prefix(name)] = value.pk if hasattr(value, "pk") else value
    return {k: v for k, v in data.items() if v is not None}


def test_the_clock_can_be_set_in_the_game_admin(staff_client, make_game):
    game = make_game()
    url = reverse("admin:games_game_change", args=[game.pk])
    data = _change_form_data(staff_client.get(url))
    data.update(decision_hours="48", reminder_hours="6", timezone="Europe/Lisbon", vacation_days="7", _save="Save")
    r = staff_client.post(url, data)
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    game.refresh_from_db()
    assert (game.decision_hours, game.reminder_hours, game.timezone, game.vacation_days) == (48, 6, "Europe/Lisbon", 7)
    data["timezone"] = "Mars/Olympus"
    r = staff_client.post(url, data)
    assert r.status_code == 200 and "is not a timezone name" in r.content.decode()
    game.refresh_from_db()
    assert game.timezone == "Europe/Lisbon"


def test_the_new_game_form_sets_the_clock(staff_client, organiser):
    html = staff_client.get(reverse("game-new") + "?title=pebbles").content.decode()
    assert 'name="decision_hours"' in html and 'name="vacation_days"' in html and 'type="time"' in html
    r = staff_client.post(
        reverse("game-new"),
        {
            "title": "pebbles",
            "name": "Clocked",
            "seats": "ana@example.com\nben@example.com",
            "daily_deadline": "20:00",
            "timezone": "Europe/Lisbon",
            "reminder_hours": "2",
            "timeout_policy": "bot",
            "bot_after_misses": "3",
            "vacation_days": "10",
        },
    )
    assert r.status_code == 302
    game = Game.objects.get(name="Clocked")
    assert str(game.daily_deadline) == "20:00:00" and game.timezone == "Europe/Lisbon"
    assert (game.reminder_hours, game.timeout_policy, game.bot_after_misses, game.vacation_days) == (2, "bot", 3, 10)


def test_the_new_game_form_refuses_a_bad_clock_and_creates_nothing(staff_client):
    base = {"title": "pebbles", "name": "Bad", "seats": "ana@example.com\nbot"}
    r = staff_client.post(reverse("game-new"), {**base, "timezone": "Nowhere/Atlantis"})
    assert "is not a timezone name" in r.content.decode()
    r = staff_client.post(reverse("game-new"), {**base, "decision_hours": "24", "decision_minutes": "5"})
    assert "in hours or in minutes, not both" in r.content.decode()
    r = staff_client.post(reverse("game-new"), {**base, "decision_hours": "2", "reminder_hours": "3"})
    assert "The reminder must come before the deadline" in r.content.decode()
    assert not Game.objects.exists()


# --- the table as any seat -----------------------------------------------------------------------


def test_view_the_table_as_any_seat_read_only(staff_client, make_game):
    game = make_game()
    hide(game, 0, 3)
    version = game.version
    url = reverse("admin:games_game_table", args=[game.pk])
    as_ana = staff_client.get(url + "?seat=0").content.decode()
    as_ben = staff_client.get(url + "?seat=1").content.decode()
    assert "You hid 3" in as_ana and "You hid 3" not in as_ben and "ana hid a number" in as_ben
    assert "Being asked: Hide a secret number" in as_ben and "not being asked anything" in as_ana
    assert '<label for="id_seat">See the table as</label>' in as_ana
    assert game.seed not in as_ana
    assert staff_client.get(url + "?seat=x").status_code == 200
    game.refresh_from_db()
    assert game.version == version


def test_the_table_page_is_for_staff_and_only_their_own_games(client, make_game, other_organiser):
    game = make_game()
    url = reverse("admin:games_game_table", args=[game.pk])
    r = client.get(url)
    assert r.status_code == 302 and "/login/" in r["Location"]
    client.force_login(other_organiser)
    assert client.get(url).status_code == 404


# --- the actions ---------------------------------------------------------------------------------


def test_pause_asks_why_then_pauses_and_records_who_and_why(staff_client, make_game, organiser):
    game = make_game()
    r = choose_action(staff_client, "pause_games", game)
    html = r.content.decode()
    assert r.status_code == 200 and 'name="reason"' in html and "Test table" in html
    assert snapshot(game)[1] == Game.Status.ACTIVE, "choosing the action changes nothing yet"
    before = snapshot(game)
    r = confirm(staff_client, "pause_games", game, reason="")
    assert "This field is required" in r.content.decode()
    assert snapshot(game) == before
    r = confirm(staff_client, "pause_games", game, reason="Ben is moving house")
    assert "Test table: paused" in r.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    event = admin_event(game, "pause")
    assert event.actor == organiser and event.payload["reason"] == "Ben is moving house"


def test_resume_and_its_refusal(staff_client, make_game, organiser):
    game = make_game()
    before = snapshot(game)
    r = confirm(staff_client, "resume_games", game, reason="go on")
    assert "This game is not paused" in r.content.decode() and 'class="error"' in r.content.decode()
    assert snapshot(game) == before
    organise.pause(game, organiser, "break")
    r = confirm(staff_client, "resume_games", game, reason="back from the break")
    assert "Test table: resumed" in r.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert admin_event(game, "resume").payload["reason"] == "back from the break"


def test_extend_deadline_by_hours_for_one_seat(staff_client, make_game, organiser):
    game = timed_game(make_game)
    ana, ben = (Seat.objects.get(game=game, index=i).deadline for i in (0, 1))
    html = choose_action(staff_client, "extend_deadlines", game).content.decode()
    assert 'name="hours"' in html and "Whose deadline" in html
    r = confirm(staff_client, "extend_deadlines", game, hours="0", seat="1", reason="x")
    assert "greater than or equal to 0.25" in r.content.decode()
    r = confirm(staff_client, "extend_deadlines", game, hours="6", seat="1", reason="Ben asked")
    assert "deadline extended by 6 h" in r.content.decode()
    assert Seat.objects.get(game=game, index=0).deadline == ana
    assert Seat.objects.get(game=game, index=1).deadline == ben + timedelta(hours=6)
    event = admin_event(game, "extend")
    assert (event.actor, event.payload["reason"], event.payload["hours"], event.seat) == (organiser, "Ben asked", 6, 1)


def test_extend_with_no_running_deadline_is_refused(staff_client, make_game):
    game = make_game()  # no clock
    before = snapshot(game)
    r = confirm(staff_client, "extend_deadlines", game, hours="6", reason="x")
    assert "No seat has a running deadline" in r.content.decode()
    assert snapshot(game) == before


def test_resend_the_last_notification_to_a_seat(staff_client, make_game, organiser):
    game = make_game()
    sent = Notification.objects.filter(seat__game=game, seat__index=1, kind="your_move").count()
    html = choose_action(staff_client, "resend_last", game).content.decode()
    assert "Seat 2: ben" in html
    r = confirm(staff_client, "resend_last", game, seat="1", reason="lost in spam")
    assert "sent again to ben" in r.content.decode()
    assert Notification.objects.filter(seat__game=game, seat__index=1, kind="your_move").count() == sent + 1
    assert admin_event(game, "resend").actor == organiser
    hide(game, 1)
    before = snapshot(game)
    r = confirm(staff_client, "resend_last", game, seat="1", reason="again")
    assert "not being asked anything now" in r.content.decode()
    assert snapshot(game) == before


def test_replace_a_seats_player_revokes_the_old_link(client, staff_client, make_game, organiser):
    game = make_game()
    old_url = reverse("seat", args=[links.token_for(Seat.objects.get(game=game, index=1))])
    html = choose_action(staff_client, "replace_player", game).content.decode()
    assert "The new player&#x27;s email address" in html or "The new player's email address" in html
    r = confirm(staff_client, "replace_player", game, seat="1", email="not-an-email", reason="x")
    assert "is not an email address" in r.content.decode()
    r = confirm(staff_client, "replace_player", game, seat="1", email="dee@example.com", reason="Ben left")
    assert "dee@example.com: a fresh link was sent" in r.content.decode()
    seat = Seat.objects.select_related("player").get(game=game, index=1)
    assert seat.player.email == "dee@example.com"
    event = admin_event(game, "replace_player")
    assert (event.actor, event.payload["reason"], event.payload["old"]) == (organiser, "Ben left", "ben@example.com")
    staff_client.logout()
    assert client.get(old_url).status_code == 403


def test_hand_a_seat_to_a_bot(staff_client, make_game, organiser):
    game = make_game(seats=("ana@example.com", "ben@example.com", "cy@example.com"))
    r = confirm(staff_client, "hand_to_bot", game, seat="2", reason="cy is unwell")
    assert "a bot plays for cy now" in r.content.decode()
    seat = Seat.objects.get(game=game, index=2)
    assert seat.is_bot and seat.stand_in
    assert admin_event(game, "hand_to_bot").payload["reason"] == "cy is unwell"
    game.refresh_from_db()
    assert 2 not in game.engine.prompts(game.state), "the bot answered for the seat"
    before = snapshot(game)
    r = confirm(staff_client, "hand_to_bot", game, seat="2", reason="again")
    assert "Select a valid choice" in r.content.decode(), "a bot seat is not offered"
    assert snapshot(game) == before


def test_rewind_shows_what_will_be_voided_and_keeps_it_in_the_log(staff_client, make_game, organiser):
    game = make_game()
    hide(game, 0)
    hide(game, 1)
    mover = game.state["turn"]
    game.refresh_from_db()
    play.submit(game.pk, mover, "take2", game.version, via="web")
    game.refresh_from_db()
    html = choose_action(staff_client, "rewind_game", game).content.decode()
    assert "#0 the deal" in html and "voids 3 steps: #1, #2, #3" in html
    assert "#1 ana: 1" in html and "voids 2 steps: #2, #3" in html
    assert 'value="3"' not in html, "rewinding to the last step would void nothing"
    r = confirm(staff_client, "rewind_game", game, step="1", reason="Ben misclicked")
    assert "voided #2, #3 (still in the log)" in r.content.decode()
    game.refresh_from_db()
    assert game.state["secret"][1] is None and game.state["taken"] == [0, 0]
    event = admin_event(game, "rewind")
    assert event.payload["voids"] == [2, 3] and event.actor == organiser and event.payload["reason"] == "Ben misclicked"
    assert Event.objects.filter(game=game, seq__in=[2, 3]).count() == 2, "nothing is deleted"
    assert not replay.rebuild_differs(game)


def test_rewind_needs_one_game_and_something_played(staff_client, make_game):
    one, two = make_game(), make_game()
    r = staff_client.post(
        reverse(CHANGELIST), {"action": "rewind_game", "index": 0, "_selected_action": [one.pk, two.pk]}, follow=True
    )
    assert "Pick exactly one game for this action" in r.content.decode()
    r = staff_client.post(
        reverse(CHANGELIST), {"action": "rewind_game", "index": 0, "_selected_action": [one.pk]}, follow=True
    )
    assert "nothing has been played yet to rewind" in r.content.decode()
    assert one.events.count() == 1 and two.events.count() == 1


def test_end_the_game_and_ending_it_again_is_refused(staff_client, make_game, organiser):
    game = make_game()
    r = confirm(staff_client, "end_games", game, reason="we ran out of time")
    assert "Test table: ended" in r.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert admin_event(game, "end").payload["reason"] == "we ran out of time"
    before = snapshot(game)
    r = confirm(staff_client, "end_games", game, reason="again")
    assert "This game is over already" in r.content.decode()
    assert snapshot(game) == before


def test_actions_from_the_change_page(staff_client, make_game):
    game = make_game()
    url = reverse("admin:games_game_change", args=[game.pk])
    html = staff_client.get(url).content.decode()
    assert 'name="CHANGE_FORM-action"' in html and 'value="pause_games"' in html
    r = staff_client.post(url, {"CHANGE_FORM-action": "pause_games", "_selected_action": game.pk})
    page = r.content.decode()
    assert r.status_code == 200 and 'name="CHANGE_FORM-action" value="pause_games"' in page
    data = {"CHANGE_FORM-action": "pause_games", "_selected_action": game.pk, "apply": "1", "reason": "tea break"}
    r = staff_client.post(url, data, follow=True)
    assert "Test table: paused" in r.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.PAUSED


# --- who may act on which game -------------------------------------------------------------------


def test_another_organiser_cannot_act_on_my_game(client, make_game, other_organiser):
    game = make_game()
    before = snapshot(game)
    client.force_login(other_organiser)
    for action, fields in [
        ("pause_games", {"reason": "x"}),
        ("end_games", {"reason": "x"}),
        ("hand_to_bot", {"seat": "0", "reason": "x"}),
        ("rewind_game", {"step": "0", "reason": "x"}),
    ]:
        r = client.post(reverse(CHANGELIST), {"action": action, "index": 0, "_selected_action": [game.pk]})
        assert r.status_code in (200, 302) and "Test table" not in r.content.decode()
        confirm(client, action, game, **fields)
    assert snapshot(game) == before
    assert client.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 302  # "does not exist"
    r = client.post(reverse("admin:games_game_change", args=[game.pk]), {"CHANGE_FORM-action": "end_games"})
    assert r.status_code in (302, 400, 403, 404)
    assert snapshot(game) == before
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_player_who_is_not_staff_cannot_reach_the_actions(client, make_game):
    game = make_game()
    before = snapshot(game)
    client.force_login(Seat.objects.get(game=game, index=0).player)
    r = client.post(
        reverse(CHANGELIST), {"action": "end_games", "apply": "1", "_selected_action": [game.pk], "reason": "x"}
    )
    assert r.status_code == 302 and "/login/" in r["Location"]
    assert snapshot(game) == before


def test_a_superuser_manages_every_game(client, make_game, django_user_model):
    game = make_game()
    boss = django_user_model.objects.create_superuser("boss@example.com", "pw-boss-123456")
    client.force_login(boss)
    assert "Test table" in client.get(reverse(CHANGELIST)).content.decode()
    r = confirm(client, "pause_games", game, reason="site maintenance")
    assert "Test table: paused" in r.content.decode()
    assert admin_event(game, "pause").actor == boss
    assert re.search(
        r"You hid|ana hid|pile", client.get(reverse("admin:games_game_table", args=[game.pk])).content.decode()
    )
