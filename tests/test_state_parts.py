"""Game states stored without their card catalogues (games/state_parts.py)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from games import state_parts
from games.models import Game, SharedPart

pytestmark = pytest.mark.django_db


def stored(game: Game) -> dict:
    """The state column as the database holds it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM games_game WHERE id = %s", [game.pk])
        raw = cursor.fetchone()[0]
    return json.loads(raw) if isinstance(raw, str) else raw


@pytest.mark.parametrize(
    ("slug", "key"),
    [("cafe_baras", "cardset"), ("tanto_cuore_rv", "cards"), ("cafe_romantica", "cards"), ("cafe", "cards")],
)
def test_a_saved_state_holds_its_catalogue_by_hash_and_loads_whole(make_game, slug, key):
    game = make_game(slug)
    raw = stored(game)
    assert key not in raw and key in raw[state_parts.MARK]
    part = SharedPart.objects.get(digest=raw[state_parts.MARK][key])
    state_parts.forget()  # a fresh process: the part comes from the table
    loaded = Game.objects.get(pk=game.pk).state
    assert loaded[key] == part.data
    assert {k: v for k, v in loaded.items() if k != key} == {k: v for k, v in raw.items() if k != state_parts.MARK}
    assert len(json.dumps(raw)) < len(json.dumps(loaded)) / 3, "the catalogue was most of the state"


def test_games_of_one_title_share_one_stored_catalogue(make_game):
    first, second = make_game("cafe_baras"), make_game("cafe_baras")
    assert stored(first)[state_parts.MARK] == stored(second)[state_parts.MARK]
    assert SharedPart.objects.count() == 1


def test_a_changed_part_is_a_new_part_and_the_old_games_keep_theirs(make_game):
    game = make_game("cafe_baras")
    before = stored(game)[state_parts.MARK]["cardset"]
    state = game.state
    changed = {**state, "cardset": {**state["cardset"], "note": "edited"}}
    Game.objects.filter(pk=game.pk).update(state=changed)
    after = stored(game)[state_parts.MARK]["cardset"]
    assert after != before and SharedPart.objects.filter(digest__in=[before, after]).count() == 2
    state_parts.forget()
    assert Game.objects.get(pk=game.pk).state["cardset"]["note"] == "edited"


def test_a_missing_part_is_an_error_that_names_it(make_game):
    game = make_game("cafe_baras")
    SharedPart.objects.all().delete()
    state_parts.forget()
    with pytest.raises(LookupError, match="cardset"):
        Game.objects.get(pk=game.pk).state  # noqa: B018 - loading is the test


def test_states_without_shared_parts_are_stored_as_they_are(make_game):
    game = make_game("pebbles")
    assert state_parts.MARK not in stored(game) and stored(game) == game.state


def test_a_transaction_that_saves_many_states_sends_the_catalogue_once(make_game):
    from django.db import transaction
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        for _ in range(3):
            make_game("cafe_baras")
    inserts = [q for q in queries.captured_queries if q["sql"].startswith("INSERT") and "games_sharedpart" in q["sql"]]
    assert len(inserts) == 1 and SharedPart.objects.count() == 1


def test_a_rolled_back_catalogue_is_stored_again_by_the_next_transaction(make_game):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        make_game("cafe_baras")
        raise RuntimeError("the organiser's request failed")
    assert SharedPart.objects.count() == 0
    game = make_game("cafe_baras")
    state_parts.forget()
    assert Game.objects.get(pk=game.pk).state["cardset"]["hash"]
