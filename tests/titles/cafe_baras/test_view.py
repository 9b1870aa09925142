"""A seat's view never holds another seat's hidden hand, the deck order, or the unused guests."""

from __future__ import annotations

import json

from games.engine.rng import step_rng
from games.titles.cafe_baras import TITLE
from games.titles.cafe_baras.state import cardset_of

from .helpers import arrange, one_serve_from_the_end, rng, said, table


def _text(view: dict) -> str:
    return json.dumps(view, ensure_ascii=False)


class Knowledge:
    """Which café cards each seat has been able to see so far (public cards plus its own draws)."""

    def __init__(self, state):
        self.cs = cardset_of(state)
        self.public: set[str] = set()
        self.seen = [set() for _ in state["seats"]]
        self.update(state)

    def update(self, state):
        self.public |= set(state["display"]) | set(state["discard"])
        for i, s in enumerate(state["seats"]):
            self.public |= set(s["cafe"]) | set(s["regulars"])
            self.seen[i] |= set(s["hand"])

    def hidden_from(self, seat):
        known = self.public | (self.seen[seat] if seat is not None else set())
        return [c for c in self.cs.order if c not in known]


def assert_hides(state, seat, knowledge):
    view = TITLE.view(state, seat)
    text = _text(view)
    cs = cardset_of(state)
    for cid in knowledge.hidden_from(seat):
        assert f'"{cid}"' not in text, f"seat {seat} sees hidden card id {cid}"
        assert cs.cards[cid].name not in text, f"seat {seat} sees hidden card {cs.cards[cid].name}"
    for gid in state["box"]:
        assert cs.guests[gid]["name"] not in text, f"seat {seat} sees a guest left in the box"
    assert "deck" not in view["data"] or not isinstance(view["data"]["deck"], list)
    assert "seed" not in text


def test_hidden_cards_never_reach_another_seats_view():
    for players in (2, 3, 4):
        for g in range(15):
            seed = f"view-{players}-{g}"
            state = TITLE.setup([f"Bot {i}" for i in range(players)], {}, step_rng(seed, 0))
            knowledge = Knowledge(state)
            seq = 0
            while not state["over"]:
                for seat in [None, *range(players)]:
                    assert_hides(state, seat, knowledge)
                (who,) = TITLE.prompts(state)
                seq += 1
                state = TITLE.apply(state, who, TITLE.bot_answer(state, who, step_rng(seed, seq)), step_rng(seed, seq))
                knowledge.update(state)


def test_view_shape_and_own_hand():
    s = arrange(table(3), s0={"hand": ["latte", "oolong", "bagel", "mocha"]}, s1={"hand": ["matcha", "quiche"]})
    view = said(TITLE.view(s, 0), s)
    assert isinstance(view["status"], str) and view["status"].startswith("Your turn")
    assert all(isinstance(line, str) for line in view["log"])
    titles = [p["title"] for p in view["panels"]]
    assert titles[0] == "Your hand" and "Display" in titles and "Special guests" in titles
    assert "Your café" in titles and "P1's café" in titles and "P2's café" in titles
    hand = view["panels"][0]["cards"]
    assert [c["id"] for c in hand] == ["latte", "oolong", "bagel", "mocha"]
    assert all(c["lines"] and c["name"] for c in hand)
    assert view["data"]["hand"] == ["latte", "oolong", "bagel", "mocha"]
    assert view["data"]["seats"][1]["hand_count"] == 2
    text = _text(view)
    assert "Matcha" not in text and "Quiche" not in text
    other = said(TITLE.view(s, 1), s)
    assert other["status"].startswith("P0's turn")
    assert "Latte" not in _text(other)


def test_spectator_sees_no_hand():
    s = table(3)
    view = said(TITLE.view(s, None), s)
    assert "hand" not in view["data"]
    assert not any(p["title"].endswith("hand") for p in view["panels"])
    for seat in s["seats"]:
        for cid in seat["hand"]:
            assert cardset_of(s).cards[cid].name not in _text(view)


def test_a_draw_is_named_only_to_the_drawer():
    s = arrange(table(3), s0={"hand": ["chamomile", "espresso", "donut", "bagel"]})
    top = s["deck"][-1]
    name = cardset_of(s).cards[top].name
    after = TITLE.apply(s, 0, "add:chamomile", rng())
    assert f"You drew {name}." in said(TITLE.view(after, 0), after)["log"]
    assert "P0 drew 1 card from the deck." in said(TITLE.view(after, 1), after)["log"]
    assert name not in _text(TITLE.view(after, 1))
    assert name not in _text(TITLE.view(after, None))


def test_the_finished_game_shows_everything():
    seed = "over-1"
    state = TITLE.setup(["Ana", "Ben", "Cy"], {}, step_rng(seed, 0))
    seq = 0
    while not state["over"]:
        (who,) = TITLE.prompts(state)
        seq += 1
        state = TITLE.apply(state, who, TITLE.bot_answer(state, who, step_rng(seed, seq)), step_rng(seed, seq))
    view = said(TITLE.view(state, None), state)
    assert view["status"].startswith("Game over")
    titles = [p["title"] for p in view["panels"]]
    assert {"Ana's hand", "Ben's hand", "Cy's hand", "Scores"} <= set(titles)
    scores = next(p for p in view["panels"] if p["title"] == "Scores")["table"]
    assert scores["header"][1:-1] == [said(label) for label, _ in TITLE.outcome(state).breakdown[0]]
    assert len(scores["rows"]) == 3
    cs = cardset_of(state)
    dealt = [cs.cards[c].name for c in TITLE.setup(["Ana", "Ben", "Cy"], {}, step_rng(seed, 0))["seats"][1]["hand"]]
    assert all(name in _text(view) for name in dealt)  # the opening hands are revealed in the log
    assert view["data"]["hands"] and view["data"]["scores"]


def test_status_tells_of_the_last_round():
    s = one_serve_from_the_end(["tinkerer", "food-critic", "interior-critic", "cafe-hopper"])
    s = TITLE.apply(s, 0, "serve:lemonade", rng())
    s = TITLE.apply(s, 0, TITLE.default_answer(s, 0), rng())
    assert "Last round" in said(TITLE.view(s, 1), s)["status"]
