"""Calendar files: a deadline as an iCalendar event, for the your-move email's attachment and for a
player's private feed of all their deadlines. Both are written here, the same way.

Written with icalendar: it escapes text (backslashes, commas, semicolons, line breaks) and folds
every line at 75 octets as RFC 5545 asks; a file written by hand did neither, and a calendar app
that met a game named "A, B; C" or a long seat link read a broken event.

A deadline is one event per seat, its UID `seat-<pk>@<domain>` in every file (the feed and each
email): a calendar app moves the event when the deadline moves rather than adding another, and
the feed drops it once the seat has answered. `revised` (when the event last changed) is its
DTSTAMP and LAST-MODIFIED, and gives its SEQUENCE, so apps that keep events by UID take the change.

Pure (no Django): the caller passes the site's domain, the links and the times, and the words
(`Words`) in the reader's language (games.calendar_feed, games.notify: `words()` there).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from icalendar import Calendar, Event, vDuration

from games.engine.messages import fill

PRODID = "-//Cafe turns//Deadlines//EN"
FEED_NAME = "Café turns: my deadlines"
FEED_REFRESH = timedelta(minutes=15)  # how often a feed asks to be read again (apps may poll less often)
SEQUENCE_EPOCH = datetime(2020, 1, 1, tzinfo=UTC)  # SEQUENCE counts seconds from here: it fits 31 bits until 2088
QUESTION_CHARS = 300  # of the question in an event's description


@dataclass(frozen=True)
class Words:
    """What an event and a feed say around the game's name, the question and the link: English,
    unless the caller passes the reader's own (named placeholders, as a translation gives them)."""

    summary: str = "Your move in %(game)s"
    answer_here: str = "Answer here: %(url)s"
    feed_name: str = FEED_NAME


ENGLISH = Words()


@dataclass(frozen=True)
class Deadline:
    """What an event says of one seat's deadline: nothing from any other seat."""

    seat_pk: int
    game_name: str
    due: datetime
    url: str  # the seat's own signed link: the file goes only to that seat's person
    question: str = ""
    words: Words = ENGLISH

    def uid(self, domain: str) -> str:
        return f"seat-{self.seat_pk}@{domain}"

    @property
    def summary(self) -> str:
        return fill(self.words.summary, {"game": one_line(self.game_name)})

    @property
    def description(self) -> str:
        question = one_line(self.question, QUESTION_CHARS)
        return (f"{question}\n" if question else "") + fill(self.words.answer_here, {"url": self.url})


def one_line(text: str, limit: int | None = None) -> str:
    """Text as one line: control characters and line breaks become spaces, runs of space one."""
    cleaned = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text)
    line = " ".join(cleaned.split())
    if limit is not None and len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    return line


def sequence(revised: datetime) -> int:
    """An event's SEQUENCE: grows with every revision, whatever the revisions in between."""
    return max(0, int((revised - SEQUENCE_EPOCH).total_seconds()))


def _event(deadline: Deadline, domain: str, revised: datetime) -> Event:
    due = deadline.due.astimezone(UTC).replace(microsecond=0)  # to the second: never later than it is
    revised = revised.astimezone(UTC).replace(microsecond=0)
    event = Event()
    event.add("uid", deadline.uid(domain))
    event.add("dtstamp", revised)
    event.add("last-modified", revised)
    event.add("sequence", sequence(revised))
    event.add("dtstart", due)
    event.add("dtend", due)  # a moment, not a meeting
    event.add("transp", "TRANSPARENT")  # it does not make the person busy
    event.add("summary", deadline.summary)
    event.add("description", deadline.description)
    event.add("url", deadline.url)
    return event


def _calendar() -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    return calendar


def deadline_file(deadline: Deadline, domain: str, now: datetime) -> str:
    """The email's attachment: the one deadline it asks about, revised as of now (when it is sent)."""
    calendar = _calendar()
    calendar.add_component(_event(deadline, domain, now))
    return calendar.to_ical().decode()


def feed_file(events: list[tuple[Deadline, datetime]], domain: str, words: Words = ENGLISH) -> bytes:
    """A person's feed: each (deadline, when its event last changed), in the order given."""
    calendar = _calendar()
    calendar.add("name", words.feed_name)
    calendar.add("x-wr-calname", words.feed_name)
    calendar.add("refresh-interval", FEED_REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(FEED_REFRESH))  # what Outlook reads
    for deadline, revised in events:
        calendar.add_component(_event(deadline, domain, revised))
    return calendar.to_ical()
