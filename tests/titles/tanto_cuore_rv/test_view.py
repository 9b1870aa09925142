"""Open and hidden information (rule note 11): no seat's page or log shows another seat's hand
or its kitchen entrance below the top card; everything is shown once the game is over."""

from __future__ import annotations

import json
import random
import re

from games.engine.rng import step_rng
from games.titles.tanto_cuore_rv import TITLE

from .helpers import arrange, play, say, table

STAFF_NAMES = sorted(
    {c["name"] for c in TITLE.setup(["a", "b"], {}, random.Random(0))["cards"].values() if c["type"] != "reminiscence"},
    key=len,
    reverse=True,
)


def bot_states(players: int, seed: str, steps: int):
    s = TITLE.setup([f"P{i}" for i in range(players)], {"selection": "random"}, step_rng(seed, 0))
    for seq in range(1, steps):
        if TITLE.outcome(s) is not None:
            return
        yield s
        seat = min(TITLE.prompts(s))
        s = TITLE.apply(s, seat, TITLE.bot_answer(s, seat, step_rng(seed, seq)), step_rng(seed, seq))
    yield s


def disguise(s, seat: int, rng: random.Random):
    """The same table with `seat`'s hidden cards (hand, waiting room, kitchen below the top) swapped."""
    fake = json.loads(json.dumps(s))
    pool = ["love_1", "love_2", "beatrice_escudo", "sophia_marfil", "fryda_viento"]
    z = fake["seats"][seat]
    z["hand"] = [rng.choice(pool) for _ in z["hand"]]
    z["deck"] = [rng.choice(pool) for _ in z["deck"]]
    if z["discard"]:
        z["discard"] = [rng.choice(pool) for _ in z["discard"][:-1]] + [z["discard"][-1]]
    fake["remi_deck"] = list(reversed(fake["remi_deck"]))
    return fake


def test_own_hand_shown_other_hands_only_counted():
    s = table(3)
    v = TITLE.view(s, 1)
    houses = v["data"]["houses"]
    assert houses[1]["hand"] == s["seats"][1]["hand"]
    assert "hand" not in houses[0] and "hand" not in houses[2]
    assert houses[2]["hand_size"] == len(s["seats"][2]["hand"])
    assert say(v["panels"][0]["title"]) == "Your hand"
    assert "hand" not in json.dumps(TITLE.view(s, None)["data"]["houses"][0]).replace("hand_size", "")


def test_kitchen_entrance_shows_only_its_top_card():
    s = arrange(table(3), seat=0, discard={1: ["fryda_viento", "sophia_marfil", "love_2"]})
    v = TITLE.view(s, 0)
    house = v["data"]["houses"][1]
    assert house["kitchen_top"] == "love_2" and house["kitchen_size"] == 3
    text = json.dumps(v)
    assert "fryda_viento" not in text and "Fryda Viento" not in text  # the card under the top stays hidden
    assert "kitchen_cards" not in house and "waiting_room_cards" not in house


def test_views_do_not_change_when_another_seats_hidden_cards_do():
    rng = random.Random(5)
    checked = 0
    for players in (2, 3, 4):
        for s in bot_states(players, f"view-{players}", 120):
            if s["over"]:
                continue  # once the game is over everything is shown
            for looker in [None, *range(players)]:
                for other in range(players):
                    if other == looker:
                        continue
                    fake = disguise(s, other, rng)
                    if s["stage"]["kind"] == "reveal" and s["turn"]["seat"] == other:
                        continue  # Lydia's revealed cards are public, not hidden
                    assert TITLE.view(s, looker) == TITLE.view(fake, looker)
                    checked += 1
    assert checked > 500


def test_log_lines_with_private_words_name_no_staff_publicly():
    for players in (2, 3, 5):
        *_, s = bot_states(players, f"log-{players}", 400)  # the last state holds the whole log
        privates = [e for e in s["log"] if e.get("private")]
        assert privates
        for e in privates:
            public = re.sub(r"\s*\([^)]*\)", "", say(e["text"]))  # "(Cynthia Lakes)" names the public cause
            for staff in STAFF_NAMES:
                assert staff not in public, e
        # each seat reads its own private words and only the public words of the others
        for seat in range(players):
            lines = TITLE.view(s, seat)["log"]
            for e, line in zip(s["log"], lines, strict=True):
                private = e.get("private", {})
                assert line == private.get(str(seat), e["text"])


def test_everything_is_shown_once_the_game_is_over():
    s = arrange(
        table(3),
        row=["camp_fire", "sand_castle", "starry_sky"],
        hand={0: ["lydia_leon", "riya_naragashi", "evita_catala", "love_1"]},
    )
    s = play(s, 0, "remi:camp_fire")
    v = TITLE.view(s, 2)
    for i, house in enumerate(v["data"]["houses"]):
        assert house["hand"] == s["seats"][i]["hand"]
        assert house["kitchen_cards"] == sorted(s["seats"][i]["discard"])
        assert house["waiting_room_cards"] == sorted(s["seats"][i]["deck"])
    assert say(v["panels"][0]["title"]) == "Final scores"
    assert say(v["status"]).startswith("Game over")


def test_view_is_json_and_follows_the_shared_shape():
    for s in bot_states(3, "shape", 60):
        for seat in (None, 0, 1, 2):
            v = TITLE.view(s, seat)
            assert set(v) == {"status", "panels", "log", "data"}
            assert json.loads(json.dumps(v)) == v
            for p in v["panels"]:
                assert "title" in p and set(p) <= {"title", "cards", "lines", "table"}
