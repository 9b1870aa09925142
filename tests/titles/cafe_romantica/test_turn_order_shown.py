"""Café Romantica's turn order as the table shows it: during the sealed bids it is last turn's, said so."""

from __future__ import annotations

import random

from games.engine import step_rng
from games.engine.messages import english
from games.titles.cafe_romantica import TITLE, drawing


def test_cafe_romantica_during_the_bids_the_order_shown_is_labelled_last_turns():
    """While sealed bids decide this turn's order, the order held is last turn's: said so, and no club
    is placed in it; once the bids are in, it is this turn's order."""
    state = TITLE.setup(["Ana", "Ben", "Cy"], {}, step_rng("words", 0))
    rng = random.Random(5)
    seen = set()
    for step in range(1, 400):
        if state["phase"] in ("auction", "actions") and state["turn"] >= 2:
            view = TITLE.view(state, 0)
            pic = drawing.draw(view, drawing.catalogue(state), None, 0)
            header = english(view["panels"][0]["table"]["header"][4])
            if state["phase"] == "auction":
                assert pic["order_label"].startswith("Last turn's order") and header == "Last turn's order"
                assert all(c["position"] is None for c in pic["clubs"])
            else:
                assert pic["order_label"] == "Turn order" and header == "Turn order"
                assert any(c["position"] for c in pic["clubs"])
            seen.add(state["phase"])
            if seen == {"auction", "actions"}:
                return
        seat = min(TITLE.prompts(state))
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, rng), step_rng("words", step))
    raise AssertionError(f"saw only {seen}")
