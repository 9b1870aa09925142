"""Calendar files (games/calendar_files.py): written by icalendar, so a calendar app reads back
exactly what was meant, whatever a game is called and however long its link is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from icalendar import Calendar

from games.calendar_files import Deadline, deadline_file, feed_file, one_line, sequence

HOSTILE_NAME = "Back\\slash, comma; semi\nnew line\r\nand\ttab \x00 end"
LONG_URL = "https://turns.example.org/play/" + "a1B2-_" * 33 + "/"  # past 200 characters, no break in it
DUE = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
NOW = datetime(2026, 11, 27, 9, 30, 15, 500_000, tzinfo=UTC)


def lines_of(data: str | bytes) -> list[bytes]:
    raw = data.encode() if isinstance(data, str) else data
    assert raw.endswith(b"\r\n"), "every line ends with CRLF, the last one too"
    return raw[:-2].split(b"\r\n")


def assert_well_formed(data: str | bytes) -> Calendar:
    """Every line within 75 octets, and the whole file reads back with icalendar."""
    long = [line for line in lines_of(data) if len(line) > 75]
    assert long == [], f"lines past 75 octets: {long[:2]}"
    return Calendar.from_ical(data)


def test_a_game_name_with_backslash_comma_semicolon_and_line_breaks_reads_back_as_one_line():
    deadline = Deadline(7, HOSTILE_NAME, DUE, LONG_URL, question="Pick a card;\nany card, \\ really")
    calendar = assert_well_formed(deadline_file(deadline, "reply.example.org", NOW))
    [event] = calendar.walk("VEVENT")
    assert str(event["summary"]) == "Your move in Back\\slash, comma; semi new line and tab end"
    assert str(event["url"]) == LONG_URL
    assert str(event["description"]) == f"Pick a card; any card, \\ really\nAnswer here: {LONG_URL}"
    assert str(event["uid"]) == "seat-7@reply.example.org"
    assert event.decoded("dtstart") == DUE and event.decoded("dtend") == DUE
    raw = deadline_file(deadline, "reply.example.org", NOW)
    assert "SUMMARY:Your move in Back\\\\slash\\, comma\\; semi" in raw.replace("\r\n ", "")


def test_the_emails_file_is_one_published_event_stamped_when_it_is_sent():
    raw = deadline_file(Deadline(7, "Friday table", DUE, "https://x.example/play/t/"), "reply.example.org", NOW)
    calendar = assert_well_formed(raw)
    assert str(calendar["method"]) == "PUBLISH" and str(calendar["version"]) == "2.0"
    [event] = calendar.walk("VEVENT")
    stamp = NOW.replace(microsecond=0)
    assert event.decoded("dtstamp") == stamp and event.decoded("last-modified") == stamp
    assert event.decoded("sequence") == sequence(stamp)
    assert str(event["transp"]) == "TRANSPARENT", "a deadline does not make its player busy"


def test_a_deadline_given_in_another_timezone_is_written_in_utc():
    from zoneinfo import ZoneInfo

    lisbon = DUE.astimezone(ZoneInfo("America/Sao_Paulo"))
    raw = deadline_file(Deadline(1, "G", lisbon, "https://x.example/"), "d.example", NOW)
    assert "DTSTART:20261201T200000Z" in raw


def test_the_feed_holds_each_deadline_with_its_own_stamp_and_asks_to_be_read_again():
    later = NOW + timedelta(hours=1)
    body = feed_file(
        [
            (Deadline(1, "First, table", DUE, LONG_URL, "Hide a secret number"), NOW),
            (Deadline(2, "Second; table", DUE + timedelta(days=1), LONG_URL + "x", "Take pebbles"), later),
        ],
        "reply.example.org",
    )
    calendar = assert_well_formed(body)
    assert str(calendar["x-wr-calname"]) == "Café turns: my deadlines"
    assert "REFRESH-INTERVAL;VALUE=DURATION:PT15M" in body.decode() and "X-PUBLISHED-TTL:PT15M" in body.decode()
    first, second = calendar.walk("VEVENT")
    assert [str(e["uid"]) for e in (first, second)] == ["seat-1@reply.example.org", "seat-2@reply.example.org"]
    assert str(second["summary"]) == "Your move in Second; table"
    assert second.decoded("last-modified") == later.replace(microsecond=0)
    assert second.decoded("sequence") > first.decoded("sequence")


def test_an_empty_feed_is_still_a_calendar():
    calendar = assert_well_formed(feed_file([], "reply.example.org"))
    assert calendar.walk("VEVENT") == []


@pytest.mark.parametrize(
    ("text", "limit", "line"),
    [
        ("a\nb\r\nc", None, "a b c"),
        ("  spaced \t out  ", None, "spaced out"),
        ("x\u2028y\u2029z\x85w", None, "x y z w"),
        ("abcdef", 4, "abc…"),
    ],
)
def test_one_line_makes_any_text_one_line(text, limit, line):
    assert one_line(text, limit) == line


def test_sequence_grows_with_the_revision():
    assert sequence(NOW + timedelta(seconds=1)) == sequence(NOW) + 1
    assert sequence(datetime(2088, 1, 1, tzinfo=UTC)) < 2**31


@pytest.mark.django_db(transaction=True)
def test_the_your_move_emails_attachment_reads_back_whatever_the_name_and_link(organiser, settings):
    """The file a your-move email carries, for a game named to break a hand-written file and a
    link past 200 characters: every line within 75 octets, the name and link read back whole."""
    from django.core import mail as django_mail

    from accounts.models import User
    from games.actions import organise
    from games.models import Notification, Seat

    settings.SITE_URL = "https://turns.example.org/" + "p" * 180
    game = organise.create_game(
        organiser,
        "pebbles",
        "Back\\slash, comma; semi",
        {},
        ["ana@example.com", "ben@example.com"],
        decision_minutes=60,
    )
    organise.start_game(game)
    seat = Seat.objects.get(game=game, player=User.objects.get(email="ana@example.com"))
    row = Notification.objects.get(game=game, seat=seat, kind=Notification.Kind.YOUR_MOVE)
    sent = next(m for m in django_mail.outbox if m.extra_headers.get("X-Cafe-Notification") == str(row.pk))
    [(filename, attached, kind)] = sent.attachments
    assert (filename, kind) == ("deadline.ics", "text/calendar; method=PUBLISH")
    [event] = assert_well_formed(attached).walk("VEVENT")
    assert str(event["summary"]) == "Your move in Back\\slash, comma; semi"
    assert len(str(event["url"])) > 200 and str(event["url"]).startswith(settings.SITE_URL + "/play/")
    assert str(event["uid"]) == f"seat-{seat.pk}@{settings.REPLY_DOMAIN}", "the same event as in the feed"
    assert event.decoded("dtstart") == seat.deadline.replace(microsecond=0)
    assert str(event["description"]).startswith("Hide a secret number\nAnswer here: ")


@pytest.mark.django_db(transaction=True)
def test_a_game_name_with_line_breaks_makes_a_one_line_event_in_the_emails_file(organiser, settings, monkeypatch):
    """The admin takes any text as a name: line breaks and control characters make one line."""
    from games import notify, tasks
    from games.actions import organise
    from games.models import Notification

    monkeypatch.setattr(tasks.send_notification, "delay", lambda pk: None)  # written, not sent yet
    settings.SITE_URL = "https://turns.example.org/" + "p" * 180
    game = organise.create_game(
        organiser, "pebbles", HOSTILE_NAME, {}, ["ana@example.com", "ben@example.com"], decision_minutes=60
    )
    organise.start_game(game)
    row = Notification.objects.get(game=game, seat__index=0, kind=Notification.Kind.YOUR_MOVE)
    notify.finish(row)
    [event] = assert_well_formed(row.ics).walk("VEVENT")
    assert str(event["summary"]) == "Your move in Back\\slash, comma; semi new line and tab end"
    assert len(str(event["url"])) > 200
