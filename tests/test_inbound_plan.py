"""Answers left in advance by email: an email player is offered their next question and replies to it."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail

from games.actions import play
from games.models import Event, Seat
from tests.test_inbound import SECRET, post, postmark_payload

pytestmark = pytest.mark.django_db(transaction=True)

ANA, BEN = "ana@example.com", "ben@example.com"


def latest(recipient: str, subject_start: str):
    return [m for m in django_mail.outbox if m.to == [recipient] and m.subject.startswith(subject_start)][-1]


def others_play_until(game, done) -> None:
    """Ben (on the page) and the bot play until `done()` holds; Ana is never answered for."""
    for _ in range(200):
        game.refresh_from_db()
        if done():
            return
        seat = min(game.engine.prompts(game.state))
        assert seat != 0, "Ana is asked: the test expected something else first"
        play.submit(game.pk, seat, game.engine.default_answer(game.state, seat), game.version, via="web")
    raise AssertionError("never reached")


def answer_turn_by_email(client, game, seat: int, email: str) -> None:
    """Reply to each step of the seat's turn with the first choice(s), until it is not asked."""
    for _ in range(10):
        game.refresh_from_db()
        prompt = game.engine.prompts(game.state).get(seat)
        if prompt is None:
            return
        need = getattr(prompt, "min_count", 1)
        text = ", ".join(str(i + 1) for i in range(need)) if need else "none"
        m = latest(email, "Your move")
        assert post(client, postmark_payload(m.reply_to[0], email, text)).status_code == 200
    raise AssertionError("the turn did not end")


def test_an_email_player_plans_the_next_turn_by_replying(client, make_game, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    settings.REPLY_DOMAIN = "reply.example.org"
    game = make_game(title="cafe_baras", seats=(ANA, BEN, None))
    game.refresh_from_db()
    others_play_until(game, lambda: 0 in game.engine.prompts(game.state))
    answer_turn_by_email(client, game, 0, ANA)
    offer = latest(ANA, "Plan ahead")
    assert "next question in" in offer.body and offer.reply_to[0].startswith("play+p-")
    assert post(client, postmark_payload(offer.reply_to[0], ANA, "1\n\n> quoted")).status_code == 200
    assert Seat.objects.get(game=game, index=0).plan, "the reply left an answer in advance"
    game.refresh_from_db()
    others_play_until(game, lambda: Event.objects.filter(game=game, via="conditional").exists())
    assert Event.objects.filter(game=game, seat=0, via="conditional").count() == 1


def test_a_plan_reply_with_a_number_not_offered_changes_nothing(client, make_game, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    settings.REPLY_DOMAIN = "reply.example.org"
    game = make_game(title="cafe_baras", seats=(ANA, BEN, None))
    game.refresh_from_db()
    others_play_until(game, lambda: 0 in game.engine.prompts(game.state))
    answer_turn_by_email(client, game, 0, ANA)
    offer = latest(ANA, "Plan ahead")
    post(client, postmark_payload(offer.reply_to[0], ANA, "99"))
    assert Seat.objects.get(game=game, index=0).plan == []
    assert latest(ANA, "Your reply could not be played")
