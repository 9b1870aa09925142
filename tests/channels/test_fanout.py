"""Pings as a wait starts (games.notify.pings): one per wait per target, the digest and quiet hours
apply, unsubscribing from email leaves chat on, a bot seat gets nothing, a game's shared chat never
gets a seat link nor anything of a seat's own, and what each row says (games.channels.ping)."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import notify
from games.actions import channels, organise, play
from games.channels.ping import ping_of
from games.models import ChatHook, Notification

pytestmark = pytest.mark.django_db

CHAT = Notification.Channel.CHAT


def chat_rows(**kw):
    return Notification.objects.filter(channel=CHAT, **kw).order_by("pk")


@pytest.fixture
def table(make_game, settings):
    """A Pebbles game not started yet, Ana with her own webhook and the game with a shared one."""
    settings.CHAT_LOCAL = True

    def make(**ana):
        game = make_game(start=False)
        user = User.objects.get(email="ana@example.com")
        User.objects.filter(pk=user.pk).update(**ana)
        mine = ChatHook.objects.create(
            owner=user, format="discord", url="https://discord.example/api/webhooks/1/s3cret"
        )
        shared = ChatHook.objects.create(game=game, format="slack", url="https://hooks.example/services/T/B/gr0up")
        organise.set_watch_link(game, True)
        organise.start_game(game)
        game.refresh_from_db()
        return game, mine, shared

    return make


def test_a_wait_pings_the_person_and_the_game_once_each(table):
    game, mine, shared = table()
    ana = game.seats.get(player__email="ana@example.com")
    assert [(r.target_id, r.seat_id) for r in chat_rows(seat=ana)] == [(mine.pk, ana.pk), (shared.pk, ana.pk)]
    ben = game.seats.get(player__email="ben@example.com")
    assert [r.target_id for r in chat_rows(seat=ben)] == [shared.pk], "Ben has no webhook of his own"


def test_a_question_sent_again_in_the_same_wait_pings_nothing(table):
    game, mine, shared = table()
    ana = game.seats.get(player__email="ana@example.com")
    before = chat_rows().count()
    organise.resend_last(ana, reason="lost it")
    assert Notification.objects.filter(seat=ana, channel="email", kind="your_move").count() == 2, "mailed again"
    assert chat_rows().count() == before, "no second ping"


def test_a_turn_of_two_steps_pings_once(table):
    game, mine, shared = table()
    play.submit(game.pk, 0, 1, None, via="web")
    play.submit(game.pk, 1, 1, None, via="web")
    game.refresh_from_db()
    [turn] = game.engine.prompts(game.state)
    seat = game.seats.get(index=turn)
    before = chat_rows(seat=seat).count()
    assert before >= 1, "the turn's wait pinged"
    play.submit(game.pk, turn, "take1", None, via="web")
    assert chat_rows(seat=seat).count() == before, "the second step of the turn is the same wait"


def test_a_digest_reader_gets_no_ping_of_their_own_but_the_game_chat_still_hears(table):
    game, mine, shared = table(email_mode=User.EmailMode.DIGEST)
    ana = game.seats.get(player__email="ana@example.com")
    assert [r.target_id for r in chat_rows(seat=ana)] == [shared.pk]


def test_unsubscribing_from_email_leaves_chat_on(table):
    game, mine, shared = table(unsubscribed=True)
    ana = game.seats.get(player__email="ana@example.com")
    assert not Notification.objects.filter(seat=ana, channel=Notification.Channel.EMAIL).exists()
    assert mine.pk in [r.target_id for r in chat_rows(seat=ana)]


def test_a_ping_in_quiet_hours_waits_for_their_end(table, monkeypatch):
    from datetime import UTC, datetime

    import django.utils.timezone as tz

    monkeypatch.setattr(tz, "now", lambda: datetime(2026, 11, 27, 2, 0, tzinfo=UTC))
    game, mine, shared = table(quiet_hours="23:00-07:00", timezone="UTC")
    ana = game.seats.get(player__email="ana@example.com")
    own = chat_rows(seat=ana, target_id=mine.pk).get()
    assert own.not_before == datetime(2026, 11, 27, 7, 0, tzinfo=UTC) and own.next_attempt_at == own.not_before
    assert chat_rows(seat=ana, target_id=shared.pk).get().not_before is None, "the group's chat has no night"
    from games.channels import outbox

    assert outbox.send(own.pk) == outbox.HELD
    monkeypatch.setattr(tz, "now", lambda: datetime(2026, 11, 27, 7, 1, tzinfo=UTC))
    assert outbox.send(own.pk) == Notification.Status.SENT


def test_a_seat_may_turn_chat_off_for_one_game(table):
    game, mine, shared = table()
    ana = game.seats.get(player__email="ana@example.com")
    channels.set_muted_channels(ana, ["chat", "nonsense"])
    ana.refresh_from_db()
    assert ana.muted_channels == ["chat"]
    Notification.objects.filter(channel=CHAT).delete()
    from django.utils import timezone

    ana.waiting_since = timezone.now()
    notify.pings(game, ana, game.engine.prompts(game.state)[ana.index])
    assert [r.target_id for r in chat_rows(seat=ana)] == [shared.pk]


def test_a_bot_seat_gets_nothing(make_game, settings):
    settings.CHAT_LOCAL = True
    game = make_game(seats=("ana@example.com", None), start=False)
    ChatHook.objects.create(game=game, format="json", url="https://hooks.example/x")
    organise.start_game(game)
    bot = game.seats.get(is_bot=True)
    assert not chat_rows(seat=bot).exists()


def test_a_game_chat_never_carries_a_seat_link_nor_the_question(table):
    game, mine, shared = table()
    for row in chat_rows(target_id=shared.pk):
        ping = ping_of(row)
        assert "/play/" not in ping.url and ping.url.startswith("http://testserver/watch/")
        assert "/play/" not in ping.body and "Hide a secret number" not in ping.body
        assert ping.title == f"{row.seat.name}'s move in {game.name}"
        assert "seat" not in row.context


def test_a_persons_ping_has_their_link_the_question_and_the_deadline_in_their_zone(clocked, settings):
    settings.CHAT_LOCAL = True
    game = clocked()
    ana = game.seats.get(player__email="ana@example.com")
    User.objects.filter(pk=ana.player_id).update(timezone="Asia/Tokyo")
    ChatHook.objects.create(owner=ana.player, format="json", url="https://hooks.example/x")
    ana.refresh_from_db()
    Notification.objects.all().delete()
    notify.pings(game, ana, game.engine.prompts(game.state)[ana.index])
    ping = ping_of(chat_rows().get())
    assert ping.title == f"Your move in {game.name}"
    assert ping.url.startswith("http://testserver/play/")
    assert "Hide a secret number" in ping.body and "(Asia/Tokyo)" in ping.body and ping.deadline


def test_a_chat_message_never_shows_another_seats_secret(table):
    """Ana hid 3; what Ben's and the group's pings say never holds it, nor Ana's link."""
    game, mine, shared = table()
    play.submit(game.pk, 0, 3, None, via="web")
    play.submit(game.pk, 1, 2, None, via="web")
    game.refresh_from_db()
    ana = game.seats.get(index=0)
    from games import links

    for row in chat_rows().exclude(seat=ana):
        ping = ping_of(row)
        text = f"{ping.title} {ping.body} {ping.url}"
        assert "hid 3" not in text and links.token_for(ana) not in text
