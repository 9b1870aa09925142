"""The rulebook's example of play (section 9), replayed step by step with the states it describes."""

from __future__ import annotations

import random

from games.titles.tanto_cuore_rv import TITLE

from .helpers import BEA, L1, L3, SOFIA, arrange, log_of, option_ids, play


def test_raoul_baron_and_claris():
    s = TITLE.setup(["Raoul", "Baron", "Claris"], {"selection": "recommended"}, random.Random(9))
    s = arrange(
        s,
        row=["scary_night", "sand_castle", "starry_sky"],
        hand={
            0: ["clorinde_sea", BEA, "evita_catala", "hyacinth_arrow", L3],
            1: [L1, L1, BEA, L1, BEA],
            2: [BEA, L1, L1, L1, L1],
        },
        deck={0: [L1, L1, L1, L1, L1, SOFIA], 1: [L1] * 5, 2: [L1] * 5},
        discard={0: [], 1: [], 2: []},
    )
    margareta_left = s["town"]["margareta_torrente"]

    # Starting phase: no Valencia chambermaid, so nothing happens: straight to serving.
    assert s["turn"]["phase"] == "serve" and s["turn"]["servings"] == 1

    # Served by Clorinde: 1 calling (Sofia, at once) and 2 servings.
    s = play(s, 0, "serve:clorinde_sea")
    assert s["turn"]["servings"] == 2
    assert SOFIA in s["seats"][0]["hand"]
    assert "You call Sophia Marfil." in log_of(s, 0)

    # Scary Night acquired by dismissing Evita (cost 3) and Hyacinth (cost 2) from his side.
    assert "remi:scary_night" in option_ids(s, 0)
    s = play(s, 0, "remi:scary_night")
    s = play(s, 0, ["evita_catala", "hyacinth_arrow"])  # Beatrice also costs 2: Raoul picks
    assert s["seats"][0]["memories"] == ["scary_night"]
    assert sorted(s["seats"][0]["discard"]) == sorted(["evita_catala", "hyacinth_arrow"])

    # Baron and Claris each keep only 3 staff by their side: both are asked at once.
    assert set(TITLE.prompts(s)) == {1, 2}
    s = play(s, 1, [L1, BEA, "beatrice_escudo#2"])
    s = play(s, 2, [BEA, L1, "love_1#2"])
    assert [len(s["seats"][i]["hand"]) for i in (1, 2)] == [3, 3]
    assert s["turn"]["servings"] == 2  # Raoul still has his 2 servings

    # Both servings chambermaid Beatrice; no servings left, so on to the employ phase.
    s = play(s, 0, f"chamber:{BEA}")
    assert s["seats"][0]["quarters"] == [BEA]
    assert s["turn"]["servings"] == 0 and s["turn"]["phase"] == "employ" and s["turn"]["employments"] == 1

    # One employment: the 3 Love employs Margareta, who goes to the kitchen entrance.
    s = play(s, 0, "employ:margareta_torrente")
    assert s["town"]["margareta_torrente"] == margareta_left - 1
    assert "Raoul plays 3 Love." in log_of(s, None)

    # The only employment is used: dismiss phase. Clorinde, the 3 Love and Sofia are dismissed;
    # Beatrice and Scary Night stay in the private quarters; five new staff are called.
    raoul = s["seats"][0]
    assert sorted(raoul["discard"]) == sorted(
        ["evita_catala", "hyacinth_arrow", "margareta_torrente", SOFIA, "clorinde_sea", L3]
    )
    assert raoul["quarters"] == [BEA] and raoul["memories"] == ["scary_night"]
    assert len(raoul["hand"]) == 5 and raoul["played"] == []
    assert s["turn"]["seat"] == 1 and s["turn"]["number"] == 2  # Baron's turn
