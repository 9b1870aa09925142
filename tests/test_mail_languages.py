"""Mail, pings, the calendar and replies in their recipient's language (issue 26).

Until the catalogues have the words, every msgid reads in English: these tests check the mechanism
(what is active while a row is written and sent, the page's lang, the Content-Language header, the
times in the reader's locale, the reply words read through the reader's language), not the words.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core import mail as django_mail
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from games import calendar_feed, inbound, notify
from games.channels import ping as ping_module
from games.engine import IllegalMove
from games.engine.messages import msg
from games.engine.prompts import Choose, ChooseMany, Option
from games.models import Notification
from games.reader_time import local_time
from games.reply_text import answer_text

ANA = "ana@example.com"


def spy(monkeypatch, module) -> list[str]:
    """`module`'s gettext marks each text with the language active when it was said."""
    seen: list[str] = []

    def said(text: str) -> str:
        seen.append(translation.get_language())
        return f"[{translation.get_language()}]{text}"

    monkeypatch.setattr(module, "_", said)
    return seen


@pytest.fixture
def german_ana(make_game):
    """A Pebbles table whose first player, Ana, reads German."""

    def make(**kw):
        game = make_game(start=False, **kw)
        User.objects.filter(email=ANA).update(language="de")
        from games.actions import organise

        organise.start_game(game)
        game.refresh_from_db()
        return game

    return make


@pytest.mark.django_db(transaction=True)
def test_a_mail_to_a_german_player_is_written_and_rendered_in_german(monkeypatch, german_ana):
    seen = spy(monkeypatch, notify)
    game = german_ana()
    to_ana = Notification.objects.filter(recipient=ANA, kind=Notification.Kind.YOUR_MOVE).latest("pk")
    to_ben = Notification.objects.filter(recipient="ben@example.com", kind=Notification.Kind.YOUR_MOVE).latest("pk")
    assert to_ana.subject == f"[de]Your move in {game.name}", "the subject is written in her language"
    assert to_ben.subject == f"[en]Your move in {game.name}", "Ben has no language: the site's"
    assert "de" in seen
    # sent at once: rendered from the frozen context inside her language
    assert '<html lang="de">' in to_ana.body_html and to_ana.headers.get("Content-Language") == "de"
    sent = [m for m in django_mail.outbox if m.to == [ANA]]
    assert sent and sent[-1].extra_headers.get("Content-Language") == "de"
    assert '<html lang="en">' in to_ben.body_html


@pytest.mark.django_db(transaction=True)
def test_a_deadline_in_a_mail_is_in_the_readers_locale(monkeypatch, organiser):
    from games.actions import organise

    game = organise.create_game(
        organiser, "pebbles", "Clocked", {}, [ANA, "ben@example.com"], decision_minutes=60, reminder_minutes=10
    )
    User.objects.filter(email=ANA).update(language="de", timezone="Europe/Berlin")
    organise.start_game(game)
    seat = game.seats.select_related("player").get(index=0)
    note = Notification.objects.filter(recipient=ANA, kind=Notification.Kind.YOUR_MOVE).latest("pk")
    with translation.override("de"):
        german = local_time(seat.deadline, "Europe/Berlin")
    assert german.endswith("(Europe/Berlin)") and german != local_time(seat.deadline, "Europe/Berlin")
    assert german in note.body_text and german in note.body_html


def test_times_are_said_in_each_language_and_english_keeps_its_words():
    when = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    assert local_time(when, "Europe/Lisbon") == "Tue 24 Nov 2026, 20:00 (Europe/Lisbon)"
    with translation.override("de"):
        assert local_time(when, "Europe/Lisbon").startswith("Di.")
    with translation.override("ja"):
        assert local_time(when, "Asia/Tokyo").startswith("2026年11月25日")
    with translation.override("fr"):
        assert local_time(when, "Not/AZone").endswith("(UTC)")


def test_a_ping_is_said_in_the_language_its_row_keeps(monkeypatch):
    seen = spy(monkeypatch, ping_module)
    note = Notification(
        kind=Notification.Kind.YOUR_MOVE,
        context={
            "lang": "de",
            "audience": "person",
            "game": {"name": "Tisch"},
            "whose": "Ana",
            "question": msg("Take pebbles"),
            "deadline_at": datetime(2026, 11, 24, 20, 0, tzinfo=UTC).isoformat(),
            "tz": "Europe/Berlin",
        },
    )
    said = ping_module.ping_of(note)
    assert said.title == "[de]Your move in Tisch"
    assert "Take pebbles" in said.body and said.deadline.startswith("Di.")
    assert set(seen) == {"de"}
    note.context["lang"] = "xx"  # not one of ours (or a row from before languages): the site's
    assert ping_module.ping_of(note).title == "[en]Your move in Tisch"


def test_a_reply_reads_the_readers_words_for_none_and_the_english_option_names(monkeypatch):
    many = ChooseMany(msg("Pick cards"), (Option("a", msg("Latte")), Option("b", "Mocha")), 0, 2)
    with translation.override("de"):
        assert inbound.read_in_language(many, "none") == [], "English's words are always read"
        assert inbound.read_in_language(many, "Latte, 2") == ["a", "b"], "English names when no other"
        assert inbound.read_in_language(many, "Keine") == [], "and German's words for none, from its catalogue"
    with translation.override("fr"):
        with pytest.raises(IllegalMove):
            inbound.read_in_language(many, "keine")


def test_a_reply_reads_option_names_as_the_reader_was_shown_them(monkeypatch):
    one = Choose(msg("Pick"), (Option("a", msg("Latte")), Option("b", msg("Mocha"))))
    import games.messages as messages

    monkeypatch.setattr(
        messages, "gettext", lambda s: {"Latte": "Milchkaffee"}.get(s, s) if translation.get_language() == "de" else s
    )
    with translation.override("de"):
        assert inbound.read_in_language(one, "milchkaffee") == "a"
        assert inbound.read_in_language(one, "Latte") == "a", "English's names are read too"
        assert inbound.read_in_language(one, "２") == "b", "numbers in any script"


@pytest.mark.django_db(transaction=True)
def test_a_german_players_refused_reply_is_answered_in_german(client, monkeypatch, german_ana, settings):
    from tests.test_inbound import SECRET, gmail, reply, reply_to_of

    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    settings.REPLY_DOMAIN = "reply.example.org"
    settings.DEFAULT_FROM_EMAIL = "Café turns <turns@example.org>"
    seen = spy(monkeypatch, notify)
    german_ana()
    reply(client, reply_to_of(ANA, "[de]Your move"), gmail("9"))
    [m] = [m for m in django_mail.outbox if m.to == [ANA] and "Your reply could not be played" in m.subject]
    assert m.subject == "[de]Your reply could not be played" and "de" in seen
    assert m.extra_headers.get("Content-Language") == "de"
    with translation.override("de"):
        question = gettext("A number from %(low)s to %(high)s.") % {"low": 0, "high": 3}
    assert question != "A number from 0 to 3." and question in m.body, "the question again, said when sent"
    assert answer_text(m.body)


@pytest.mark.django_db(transaction=True)
def test_the_calendar_feed_is_in_its_persons_language(monkeypatch, clocked):
    seen = spy(monkeypatch, calendar_feed)
    clocked()
    user = User.objects.get(email=ANA)
    User.objects.filter(pk=user.pk).update(language="de")
    from django.utils import timezone

    seen.clear()
    body = calendar_feed.feed_for(user.pk, timezone.now()).body.decode()
    assert "[de]Your move in Clocked" in body.replace("\r\n ", "") and set(seen) == {"de"}
    body = calendar_feed.feed_for(user.pk, timezone.now(), language="fr").body.decode()
    assert "[fr]Your move in Clocked" in body.replace("\r\n ", "")
