"""End-game scoring (rulebook section 10): every VP rule, '?' conditions, chambermaid bonuses, ties."""

from __future__ import annotations

from games.titles.tanto_cuore_rv import TITLE

from .helpers import BEA, L1, SOFIA, fix_totals, say, table


def ended(houses: dict[int, dict[str, list[str]]], players: int = 2):
    s = table(players)
    for i in range(players):
        for zone in ("deck", "hand", "discard", "played", "quarters", "memories"):
            s["seats"][i][zone] = list(houses.get(i, {}).get(zone, []))
    fix_totals(s)
    s["over"] = True
    s["end_reason"] = "test"
    return TITLE.outcome(s)


def score(**zones) -> int:
    return ended({0: zones}).scores[0]


def test_sophia_scores_five_anywhere():
    assert score(deck=[SOFIA], hand=[SOFIA], discard=[SOFIA]) == 15


def test_beatrice_scores_two_only_as_a_chambermaid():
    assert score(quarters=[BEA, BEA], deck=[BEA, BEA]) == 4


def test_valencia_scores_one_anywhere():
    assert score(deck=["valencia_pretre"], quarters=["valencia_pretre"]) == 2


def test_hyacinth_needs_two_reminiscences_and_to_be_a_chambermaid():
    h = "hyacinth_arrow"
    assert score(quarters=[h, h], deck=[h], memories=["sand_castle"]) == 2  # sand castle 2, Hyacinth 0
    assert score(quarters=[h, h], deck=[h], memories=["sand_castle", "shell_necklace"]) == 4 + 3
    # four reminiscences do not double it
    four = ["sand_castle", "shell_necklace", "starry_sky", "starry_sky"]
    assert score(quarters=[h] * 4, memories=four) == 8 + 2 + 1 + 2 + 2


def test_florence_needs_seven_chambermaids_counting_herself():
    f = "florence_spring"
    assert score(quarters=[f] + [BEA] * 5) == 10  # six chambermaids: Florence gives 0
    assert score(quarters=[f] + [BEA] * 6) == 12 + 5
    assert score(quarters=[BEA] * 7, deck=[f]) == 14  # not a chambermaid: 0


def test_margareta_minus_one_each_from_three():
    m = "margareta_torrente"
    assert score(deck=[m, m]) == 0
    assert score(deck=[m, m], discard=[m]) == -3
    assert score(deck=[m] * 5) == -5


def test_clorinde_two_each_unless_seven_maid_chiefs():
    c = "clorinde_sea"
    assert score(deck=[c, c], hand=[BEA] * 6) == 4
    assert score(deck=[c, c], hand=[BEA] * 6, discard=[SOFIA]) == 5  # 7 chiefs: Clorinde 0, Sofia 5


def test_reminiscences_score_their_vp():
    assert score(memories=["scary_night", "farewell_party", "camp_fire"]) == 3 + 6 + 4


def test_love_and_zero_vp_maids_score_nothing():
    assert score(deck=[L1, "love_3", "fryda_viento", "lydia_leon"]) == 0


def test_most_vp_wins_with_a_breakdown():
    res = ended({0: {"deck": [SOFIA]}, 1: {"quarters": [BEA, BEA, BEA]}})
    assert res.scores == {0: 5, 1: 6} and res.winners == [1] and res.tiebreak == ""
    assert sum(p for _, p in res.breakdown[1]) == 6


def test_tie_broken_by_most_maids_that_give_no_vp():
    res = ended({0: {"deck": [SOFIA, "evita_catala"]}, 1: {"deck": [SOFIA, BEA, BEA]}})
    assert res.scores == {0: 5, 1: 5}
    assert res.winners == [1] and say(res.tiebreak) == "most maids that give no VP"  # 2 Beatrice not chambermaided


def test_tie_still_tied_is_shared():
    res = ended({0: {"deck": [SOFIA, "evita_catala"]}, 1: {"deck": [SOFIA, "lydia_leon"]}})
    assert res.winners == [0, 1] and say(res.tiebreak) == "shared win"


def test_no_outcome_while_the_game_goes_on():
    assert TITLE.outcome(table(3)) is None
