"""Each class of bad input found by the hostile-sender review (issue 12), played out as people do it.

Numbers, dates, text, reply addresses, posted versions and worker races: each refused in words and
changing nothing, on the page and by email alike. tests/test_fuzz_endpoints.py keeps whole classes
out; these name one case of each so a reader sees what the class is.
"""

from __future__ import annotations

import pickle
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import links
from games.actions import deadlines, play, talk, write
from games.clock.shown import local_time
from games.engine.prompts import prompt_key
from games.models import Event, Game, Message, Seat, Vacation
from tests.test_inbound import ANA, _inbound_settings, both_hidden, problems, reply, reply_to_of  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def seat_url(game: Game, index: int, name: str = "seat") -> str:
    return reverse(name, args=[links.token_for(Seat.objects.get(game=game, index=index))])


def answer(client, game: Game, index: int, data: dict):
    """POST the seat's answer form as the page would, with the current version and question key."""
    game.refresh_from_db()
    prompt = game.engine.prompts(game.state)[index]
    form = {"version": str(game.version), "prompt_key": prompt_key(prompt), **data}
    return client.post(seat_url(game, index), form, follow=True)


def log_of(game: Game) -> tuple:
    game.refresh_from_db()
    return game.version, game.state, Event.objects.filter(game=game).count()


# --- 1. numbers typed by people --------------------------------------------------------------


@pytest.mark.parametrize("typed", ["²", "①", "9" * 5000, "--1", "+-1", "1e2", "½"])
def test_a_number_field_with_what_is_not_a_number_is_refused_in_words(client, make_game, typed):
    game = make_game()
    before = log_of(game)
    r = answer(client, game, 0, {"answer": typed})
    assert r.status_code == 200
    page = r.content.decode()
    assert "number" in page and "Nothing was played" in page
    assert log_of(game) == before


def test_a_number_in_another_scripts_digits_is_played_from_the_page(client, make_game):
    game = make_game()
    answer(client, game, 0, {"answer": "\u0662"})  # Arabic-Indic 2
    assert Event.objects.get(game=game, kind=Event.Kind.ANSWER).payload["answer"] == 2


@pytest.mark.parametrize("typed", ["²", "①", "9" * 3000, "--2"])
def test_a_reply_with_a_number_that_is_not_one_is_refused_by_email(client, make_game, typed):
    game = make_game()
    before = log_of(game)
    reply(client, reply_to_of(ANA), typed)
    assert log_of(game) == before
    [m] = problems(ANA)
    assert "number" in m.body


def test_reply_address_digits_are_ascii_only(client, make_game):
    game = make_game()
    address = reply_to_of(ANA)
    local, _, domain = address.partition("@")
    kind, seat, rest = local.split("-", 2)
    forged = f"{kind}-{seat.translate(str.maketrans('0123456789', '⁰¹²³⁴⁵⁶⁷⁸⁹'))}-{rest}@{domain}"
    assert links.read_reply_address(forged) is None
    before = log_of(game)
    reply(client, forged, "1")
    assert log_of(game) == before


# --- 2. dates --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("starts", "ends"), [("9999-12-30", "9999-12-31"), ("0001-01-01", "0001-01-02"), ("2030-01-01", "2031-06-01")]
)
def test_a_vacation_at_the_far_end_of_the_calendar_is_refused_in_words(client, make_game, starts, ends):
    game = make_game()
    Game.objects.filter(pk=game.pk).update(vacation_days=366)
    r = client.post(seat_url(game, 0, "seat-vacation"), {"starts": starts, "ends": ends}, follow=True)
    assert r.status_code == 200
    assert "Nothing was saved" in r.content.decode()
    assert not Vacation.objects.exists()


def test_a_stored_far_future_time_never_breaks_another_seats_page(client, make_game):
    """A row from before the horizon existed (or written by hand) must not take anyone's page down."""
    game = make_game()
    seat = Seat.objects.get(game=game, index=0)
    far = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
    Vacation.objects.create(seat=seat, starts=timezone.now(), ends=far)
    ben = Seat.objects.select_related("player").get(game=game, index=1)
    ben.player.timezone = "Pacific/Kiritimati"  # UTC+14: 9999-12-31 23:00 UTC is past the calendar's end there
    ben.player.save()
    r = client.get(seat_url(game, 1))
    assert r.status_code == 200
    assert "9999" in r.content.decode()
    assert local_time(far, "Pacific/Kiritimati").endswith("(UTC)")
    assert local_time(far, "no/such zone")


def test_declare_vacation_refuses_dates_beyond_the_horizon_whoever_calls_it(make_game):
    game = make_game()
    Game.objects.filter(pk=game.pk).update(vacation_days=366)
    seat = Seat.objects.get(game=game, index=0)
    now = timezone.now()
    with pytest.raises(write.SubmitError, match="a year from now"):
        deadlines.declare_vacation(seat, now + timedelta(days=400), now + timedelta(days=401))
    assert not Vacation.objects.exists()


# --- 3. text ---------------------------------------------------------------------------------


def test_table_talk_drops_control_characters_the_same_on_every_database(client, make_game):
    game = make_game()
    client.post(seat_url(game, 0, "seat-talk"), {"text": "hi\x00 there\x07\r\nsecond line"}, follow=True)
    [m] = Message.objects.all()
    assert m.text == "hi there\nsecond line"


def test_table_talk_by_reply_with_a_nul_byte_is_stored_clean(client, make_game):
    make_game()
    reply(client, reply_to_of(ANA), "hello\x00 table")  # an answer address: read as an answer, refused
    assert not Message.objects.exists()
    seat = Seat.objects.get(game__isnull=False, index=0)
    talk.post_message(seat, "hello\x00 table\x1b[31m", via="email")
    assert Message.objects.get().text == "hello table[31m"


def test_a_message_over_the_limit_says_the_limit(client, make_game):
    game = make_game()
    r = client.post(seat_url(game, 0, "seat-talk"), {"text": "x" * 2001}, follow=True)
    assert "at most 2000 characters" in r.content.decode()
    assert not Message.objects.exists()


# --- 4. reply addresses ----------------------------------------------------------------------


@pytest.mark.parametrize("domain", ["evil.example", "reply.example.org.evil.example", "example.org"])
def test_a_genuine_reply_local_part_at_another_domain_plays_nothing(client, make_game, domain):
    game = make_game()
    local = reply_to_of(ANA).split("@")[0]
    before = log_of(game)
    reply(client, f"{local}@{domain}", "1")
    assert log_of(game) == before
    assert links.read_reply_address(f"{local}@{domain}") is None


def test_the_reply_domain_is_matched_without_case(client, make_game):
    game = make_game()
    local = reply_to_of(ANA).split("@")[0]
    reply(client, f"{local}@REPLY.Example.ORG", "1")
    assert Event.objects.filter(game=game, kind=Event.Kind.ANSWER).count() == 1


# --- 5. the posted version -------------------------------------------------------------------


@pytest.mark.parametrize("version", ["-1", "-5", "99", "1000000"])
def test_a_version_outside_the_games_is_refused_before_anything_else(client, make_game, version):
    game = make_game()
    game.refresh_from_db()
    prompt = game.engine.prompts(game.state)[0]
    before = log_of(game)
    r = client.post(
        seat_url(game, 0),
        {"version": version, "prompt_key": prompt_key(prompt), "answer": "1"},
        follow=True,
    )
    assert r.status_code == 200
    assert "Nothing was played" in r.content.decode() or "incomplete" in r.content.decode()
    assert log_of(game) == before
    with pytest.raises(write.SubmitError) as e:
        play.submit(game.pk, 0, 1, int(version), via="web", prompt_key=prompt_key(prompt))
    assert e.value.code == "bad_version"


# --- 6. races in the worker ------------------------------------------------------------------


def test_submit_error_survives_pickling_as_a_celery_result_must():
    e = pickle.loads(pickle.dumps(write.SubmitError("Nothing was played.", "already_answered")))
    assert (e.message, e.code, str(e)) == ("Nothing was played.", "already_answered", "Nothing was played.")


def test_advance_that_loses_a_race_is_a_quiet_no_op(make_game, monkeypatch):
    """Two advance() runs at once: the loser's submit is refused ("already answered", or anything
    else); it must return quietly, not fail the task."""
    game = make_game(seats=("ana@example.com", None))
    game.refresh_from_db()
    real_submit = play.submit
    calls = []

    def racing_submit(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise write.SubmitError("You have already answered this. Nothing more was played.", "already_answered")
        return real_submit(*args, **kwargs)

    monkeypatch.setattr(play, "submit", racing_submit)
    before = log_of(game)
    assert play.advance(game.pk) == 0  # nothing moved: it stops rather than repeat the refusal
    assert log_of(game) == before


def test_an_advance_task_that_loses_a_race_does_not_fail(make_game, monkeypatch):
    from games import tasks

    game = make_game(seats=("ana@example.com", None))
    monkeypatch.setattr(
        play, "submit", lambda *a, **k: (_ for _ in ()).throw(write.SubmitError("Lost.", "not_your_turn"))
    )
    result = tasks.advance_bots.apply(args=[game.pk])
    assert result.successful() and result.result == 0


# --- what the fuzz found (tests/test_fuzz_endpoints.py), one named case each ----------------


def test_a_message_with_nothing_visible_is_refused(client, make_game):
    game = make_game()
    r = client.post(seat_url(game, 0, "seat-talk"), {"text": "\u202e \u200b"}, follow=True)
    assert "The message is empty" in r.content.decode()
    assert not Message.objects.exists()


def test_an_empty_settings_post_says_what_is_missing(client, make_game):
    game = make_game()
    r = client.post(seat_url(game, 0, "seat-settings"), {})
    assert r.status_code == 200 and "This field is required" in r.content.decode()


@pytest.mark.parametrize("selected", ["--6", "999999999999999999999999999999", "১২", "\x00"])
def test_an_admin_action_on_a_garbled_selection_is_refused_in_words(client, make_game, organiser, selected):
    from django.contrib.auth.models import Permission

    game = make_game()
    organiser.user_permissions.set(Permission.objects.filter(codename__in=["view_game", "change_game"]))
    client.force_login(organiser)
    before = log_of(game)
    r = client.post(
        "/admin/games/game/", {"action": "pause_games", "_selected_action": selected, "apply": "1"}, follow=True
    )
    assert r.status_code == 200
    assert "does not name games" in r.content.decode() or "None of the selected games" in r.content.decode()
    assert log_of(game) == before


@pytest.mark.parametrize("body", [b"not json {", b'["a list"]', b'{"TextBody": 1' + b"9" * 5000 + b"}", b"\xff\xfe{"])
def test_a_webhook_body_no_esp_sends_is_answered_400_and_changes_nothing(client, make_game, body):
    import base64

    from tests.test_inbound import SECRET, URL

    game = make_game()
    before = log_of(game)
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    r = client.post(URL, data=body, content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert r.status_code == 400
    assert log_of(game) == before


def test_a_reply_whose_body_is_a_lone_surrogate_is_refused_by_email(client, make_game):
    import base64
    import json

    from tests.test_inbound import SECRET, URL, postmark_payload

    game = make_game()
    before = log_of(game)
    payload = postmark_payload(reply_to_of(ANA), ANA, "")
    payload["HtmlBody"] = "<div>\ud800</div>"
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    r = client.post(URL, data=json.dumps(payload), content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert r.status_code == 200
    assert log_of(game) == before
    assert problems(ANA), "the player is told the reply could not be played"


@pytest.mark.parametrize("junk", ["\u2028", "\x85", "\x1e"])
def test_a_reply_address_with_junk_around_it_is_not_ours(make_game, junk):
    make_game()
    genuine = reply_to_of(ANA)
    assert links.read_reply_address(genuine) is not None
    assert links.read_reply_address(genuine + junk) is None
    assert links.read_reply_address(junk + genuine) is None


def test_an_address_field_too_long_to_parse_is_refused_at_once(client, make_game):
    """The standard library's address parser is quadratic: 300,000 characters took 100 s."""
    import base64
    import json
    import time

    from tests.test_inbound import SECRET, URL, postmark_payload

    game = make_game()
    before = log_of(game)
    payload = postmark_payload(reply_to_of(ANA), "ab " * 100_000, "1")
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    started = time.monotonic()
    r = client.post(URL, data=json.dumps(payload), content_type="application/json", HTTP_AUTHORIZATION=auth)
    assert r.status_code == 400 and time.monotonic() - started < 5
    assert log_of(game) == before
