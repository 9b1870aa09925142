"""A game keeps the card set it was created with: editing a data file never changes it."""

from __future__ import annotations

import pytest

from games.actions import replay
from games.engine.cards import content_hash
from games.titles import get_title

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_first_event_records_the_card_set_and_its_hash(make_game):
    game = make_game(title="cafe_baras", seats=("ana@example.com", None, None))
    first = game.events.get(seq=0)
    cardset = first.payload["options"]["cardset"]
    assert first.payload["cardset_hash"] == content_hash(cardset) == game.cardset_hash
    assert first.public_payload()["seed"] == "(hidden)"


def test_replay_uses_the_recorded_set_even_after_the_data_files_change(make_game, monkeypatch):
    game = make_game(title="cafe_baras", seats=("ana@example.com", None, None))
    title = get_title("cafe_baras")
    monkeypatch.setattr(type(title), "load_cardset", lambda self, *a, **k: {"broken": True}, raising=False)
    monkeypatch.setattr(title, "load_cardset", lambda *a, **k: {"broken": True}, raising=False)
    game.refresh_from_db()
    assert not replay.rebuild_differs(game)
