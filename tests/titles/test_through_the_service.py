"""Every title, played to the end through the one write path: people answer like bots would.

Checks what only the service can: the log replays to the projection, every email a seat got is
made from that seat's own view, and the game ends with a final email to every person.
"""

from __future__ import annotations

import random

import pytest
from django.core import mail

from games.actions import play, replay
from games.engine.prompts import prompt_key
from games.models import Game, Notification
from games.titles import get_title, slugs

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("slug", slugs())
def test_a_game_with_two_people_and_a_bot_plays_to_the_end(slug, make_game):
    title = get_title(slug)
    seats = ["ana@example.com", "ben@example.com", None][: max(title.min_players, 3)]
    game = make_game(title=slug, seats=seats)
    rng = random.Random(slug)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        prompts = title.prompts(game.state)
        people = [i for i in prompts if not game.seats.get(index=i).is_bot]
        assert people, "only people may be waiting once bots have moved"
        seat = people[0]
        answer = title.bot_answer(game.state, seat, rng)
        play.submit(game.pk, seat, answer, game.version, via="web", prompt_key=prompt_key(prompts[seat]))
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    assert not replay.rebuild_differs(game)
    finals = Notification.objects.filter(game=game, kind="final")
    assert sorted(finals.values_list("recipient", flat=True)) == ["ana@example.com", "ben@example.com"]
    assert all(n.status == "sent" for n in Notification.objects.filter(game=game))
    assert len(mail.outbox) == Notification.objects.filter(game=game).count()
