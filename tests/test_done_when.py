"""Issue 4's whole story: a 4-seat game on a one-minute clock runs by itself.

Seat 0 never answers: it is reminded, timed out by the game's policy, and handed to a bot after two
misses. Seat 1 answers only by replying to its emails (a real posted inbound webhook). Seat 2
leaves its answers in advance. Seat 3 is a bot. Mid-game the organiser rewinds two steps, and the
game goes on to the end. Time is moved a minute at a time and the beat's sweep task runs each
minute, as Celery beat would. Every email the outbox wrote is accounted for at the end.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail as django_mail

from games import tasks
from games.actions import organise, play, replay
from games.models import Event, Game, Notification, Seat
from tests.test_inbound import SECRET, post, postmark_payload

pytestmark = pytest.mark.django_db(transaction=True)

ABSENT, MAILER, PLANNER = "absent@example.com", "mailer@example.com", "planner@example.com"


@pytest.fixture
def clock(monkeypatch):
    import django.utils.timezone as tz

    start = tz.now()
    minutes = {"n": 0}

    def tick():
        minutes["n"] += 1
        fake = start + timedelta(minutes=minutes["n"], seconds=1)
        monkeypatch.setattr(tz, "now", lambda: fake)

    return tick


def test_a_four_seat_game_with_a_one_minute_clock_runs_by_itself(client, organiser, settings, clock):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    settings.REPLY_DOMAIN = "reply.example.org"
    game = organise.create_game(
        organiser,
        "cafe_baras",
        "Clockwork",
        {},
        [ABSENT, MAILER, PLANNER, None],
        decision_minutes=1,
        reminder_minutes=1,
        timeout_policy="default",
        bot_after_misses=2,
    )
    organise.start_game(game)
    engine = game.engine
    answered_by_mail = planned = 0
    rewound = False
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        prompts = engine.prompts(game.state)
        if not rewound and game.version > 30:
            organise.rewind(game, game.version - 2, actor=organiser, reason="a misread card")
            rewound = True
            continue
        # the email player answers the newest question it was mailed, by replying with numbers
        if 1 in prompts:
            m = [m for m in django_mail.outbox if m.to == [MAILER] and m.subject.startswith("Your move")][-1]
            need = getattr(prompts[1], "min_count", 1) or 0
            text = ", ".join(str(i + 1) for i in range(need)) if need else "none"
            before = Event.objects.filter(game=game, via="email").count()
            body = f"{text}\n\n-- \nsent from my phone"
            assert post(client, postmark_payload(m.reply_to[0], MAILER, body)).status_code == 200
            answered_by_mail += Event.objects.filter(game=game, via="email").count() - before
            continue
        # the planner leaves its next turn's first two choices whenever it is waiting without a plan
        planner = Seat.objects.get(game=game, index=2)
        if 2 not in prompts and not planner.plan:
            upcoming = engine.upcoming(game.state, 2)
            if upcoming is not None:
                play.set_plan(planner, [o.id for o in upcoming.options[:2]])
        if 2 in prompts:  # a later step of its turn, or a plan that could not be played: answer on the page
            play.submit(game.pk, 2, engine.default_answer(game.state, 2), game.version, via="web")
            continue
        clock()
        tasks.sweep()
    game.refresh_from_db()
    planned = Event.objects.filter(game=game, via="conditional").count()
    absent = Seat.objects.get(game=game, index=0)

    assert game.status == Game.Status.ENDED, f"still {game.status} at version {game.version}"
    assert rewound and Event.objects.filter(game=game, payload__action="rewind").count() == 1
    assert not replay.rebuild_differs(game)
    # the absent seat: reminded, timed out by policy, then played by a bot, with everyone told
    assert Notification.objects.filter(recipient=ABSENT, kind="reminder").exists()
    assert Event.objects.filter(game=game, kind="timeout", seat=0, via="deadline").count() >= 2
    assert absent.is_bot and absent.stand_in
    assert Notification.objects.filter(kind="notice", subject__contains="A bot plays for").count() == 3
    # the email player played only by email; the planner's plans were played
    assert answered_by_mail > 0
    assert not Event.objects.filter(game=game, seat=1, via="web").exists()
    assert planned > 0
    # every email: one outbox row per message sent, all sent, each to a person at the table
    notes = Notification.objects.filter(game=game)
    assert notes.exclude(status=Notification.Status.SENT).count() == 0
    sent_for_game = [m for m in django_mail.outbox if m.extra_headers.get("X-Cafe-Notification")]
    assert sorted(int(m.extra_headers["X-Cafe-Notification"]) for m in sent_for_game) == sorted(
        Notification.objects.values_list("pk", flat=True)
    )
    assert set(notes.values_list("recipient", flat=True)) <= {ABSENT, MAILER, PLANNER}
    assert notes.filter(kind="final").count() == 3
