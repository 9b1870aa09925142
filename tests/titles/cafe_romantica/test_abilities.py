"""One named test per card ability (host special rules and effects), on the real card data."""

from __future__ import annotations

from typing import Any

from games.titles.cafe_romantica import abilities
from games.titles.cafe_romantica.cards import EFFECTS, HOST_ABILITIES

from .helpers import CARDS

FLYER = CARDS["flyer"]["hearts"]  # the flyer shines on every roll


def me(club: dict[str, int] | None = None, **kw: Any) -> dict[str, Any]:
    seat = {"manager": None, "agendas": [], "done": [], "club": {}, "focus": [], "fave": None, "hearts": 0}
    seat["club"] = {b: [f"{b}-{i}" for i in range(1, k + 1)] for b, k in (club or {}).items()}
    seat.update(kw)
    return seat


def earn(seat: dict[str, Any], die: int, others: list[int] = (4,), max_done: int = 0) -> int:
    return abilities.earnings(CARDS, seat, die, list(others), max_done)[0]


def test_every_ability_kind_in_the_data_is_tested_here():
    names = [name for name in globals() if name.startswith("test_")]

    def tested(prefix: str, kind: str) -> bool:
        return any(name.startswith(f"test_{prefix}_{kind}_") for name in names)

    used = {h["ability"]["kind"] for h in CARDS["hosts"].values()}
    assert used <= set(HOST_ABILITIES)
    assert all(tested("host", kind) for kind in HOST_ABILITIES)
    used = {c["effect"]["kind"] for kind in ("focus", "managers", "agendas") for c in CARDS[kind].values()}
    assert used <= set(EFFECTS)
    assert all(tested("effect", kind) for kind in EFFECTS)


def test_flyer_shines_on_every_roll():
    assert all(earn(me(), d) == FLYER for d in range(1, 7))


def test_host_none_plain_hearts_on_his_faces():
    # Gentleman: 3 ♥ on a 4, nothing else
    assert earn(me({"gentleman": 1}), 4) == FLYER + 3
    assert earn(me({"gentleman": 1}), 5) == FLYER


def test_bond_earns_the_stacks_total():
    assert earn(me({"gentleman": 3}), 4) == FLYER + 9


def test_host_stack_bonus_energetic():
    # Energetic: 2 ♥ on a 2, +1 per copy bonded under him
    assert earn(me({"energetic": 1}), 2) == FLYER + 2
    assert earn(me({"energetic": 3}), 2) == FLYER + 6 + 2


def test_host_underdog_shy_and_little_brother():
    assert earn(me({"shy": 1}), 1, max_done=0) == FLYER + 2
    assert earn(me({"shy": 1}), 1, max_done=1) == FLYER + 2 + 2
    assert earn(me({"shy": 1}, done=["fan_club"]), 1, max_done=1) == FLYER + 2
    assert earn(me({"little_brother": 2}), 3, max_done=2) == FLYER + 2 + 1


def test_host_crowd_cool_shines_on_other_players_rolls():
    assert earn(me({"cool": 1}), 3, others=[5]) == FLYER + 2
    assert earn(me({"cool": 1}), 5, others=[3]) == FLYER + 2
    assert earn(me({"cool": 2}), 5, others=[3, 3]) == FLYER + 4  # shines once, not per die
    assert earn(me({"cool": 1}), 5, others=[6]) == FLYER


def test_host_favourite_bonus_prince():
    assert earn(me({"prince": 1}), 6) == FLYER + 3
    assert earn(me({"prince": 1}, fave="prince"), 6) == FLYER + 3 + 2


def test_host_buddy_bookworm_with_cool_and_chef_with_gentleman():
    assert earn(me({"bookworm": 1}), 4) == FLYER + 2
    assert earn(me({"bookworm": 1, "cool": 1}), 4, others=[5]) == FLYER + 2 + 2
    assert earn(me({"chef": 1}), 6) == FLYER + 2
    assert earn(me({"chef": 1, "gentleman": 1}), 6) == FLYER + 2 + 1


def test_host_doubles_athlete():
    assert earn(me({"athlete": 1}), 5, others=[2]) == FLYER + 2
    assert earn(me({"athlete": 1}), 5, others=[2, 5]) == FLYER + 2 + 2


def test_host_per_club_musician():
    assert earn(me({"musician": 1}), 2) == FLYER + 1
    assert earn(me({"musician": 2, "shy": 1, "cool": 1}), 2, others=[6]) == FLYER + 2 + 2


def test_host_rival_delinquent_reports_what_he_takes():
    total, rival, _ = abilities.earnings(CARDS, me({"delinquent": 2}), 1, [1], 0)
    assert (total, rival) == (FLYER + 2, 1)
    assert abilities.earnings(CARDS, me({"delinquent": 2}), 3, [3], 0)[1] == 0  # he did not shine


def test_mysterious_shines_on_every_roll():
    assert all(earn(me({"mysterious": 2}), d) == FLYER + 2 for d in range(1, 7))


def test_effect_income_seasonal_menu_and_tea_ceremony():
    assert earn(me(focus=["seasonal_menu-1"]), 3) == FLYER + 1
    assert earn(me(focus=["seasonal_menu-1"], agendas=["tea_ceremony"], done=["tea_ceremony"]), 3) == FLYER + 1 + 2


def test_effect_no_host_income_school_newspaper():
    paper = {"agendas": ["school_newspaper"], "done": ["school_newspaper"]}
    assert earn(me(**paper), 3) == FLYER + 3
    assert earn(me({"cool": 1}, **paper), 3) == FLYER + 2  # Cool shone: no consolation
    assert earn(me({"cool": 1}, **paper), 4, others=[1]) == FLYER + 3


def test_effect_fave_shine_bonus_rose_bouquet():
    seat = me({"gentleman": 1}, focus=["rose_bouquet-1"], fave="gentleman")
    assert earn(seat, 4) == FLYER + 3 + 2
    assert earn(seat, 5) == FLYER


def test_effect_bond_bonus_kaho():
    assert earn(me({"gentleman": 2, "shy": 2}, manager="kaho"), 4) == FLYER + 6 + 1


def test_effect_bond_bonus_cosplay_day():
    seat = me({"gentleman": 2, "energetic": 1}, agendas=["cosplay_day"], done=["cosplay_day"])
    assert earn(seat, 4) == FLYER + 6 + 1
    seat2 = me({"gentleman": 1}, agendas=["cosplay_day"], done=["cosplay_day"])
    assert earn(seat2, 4) == FLYER + 3


def test_effect_face_bonus_hana():
    assert earn(me(manager="hana"), 6) == FLYER + 3
    assert earn(me(manager="hana"), 5) == FLYER


def test_effect_face_bonus_lucky_charm_and_sports_festival():
    assert earn(me(focus=["lucky_charm-1"]), 1) == FLYER + 2
    assert earn(me(focus=["lucky_charm-1"]), 2) == FLYER
    assert earn(me(agendas=["sports_festival"], done=["sports_festival"]), 6) == FLYER + 3


def test_effect_discount_on_hosts_new_hosts_focus_and_agendas():
    poster = me({"cool": 1}, focus=["recruitment_poster-1"])
    assert abilities.recruit_cost(CARDS, poster, "gentleman") == 2
    rin = me({"cool": 1}, manager="rin")
    assert abilities.recruit_cost(CARDS, rin, "gentleman") == 2  # new boy
    assert abilities.recruit_cost(CARDS, rin, "cool") == 2  # already in the club: no scout discount
    assert abilities.focus_cost(CARDS, me(manager="nana"), "rose_bouquet") == 1
    assert abilities.focus_cost(CARDS, me(manager="nana"), "agenda_planner") == 2
    aoi = me(manager="aoi", agendas=["tea_ceremony", "student_council"], done=["student_council"])
    assert abilities.agenda_cost(CARDS, aoi, "tea_ceremony") == CARDS["agendas"]["tea_ceremony"]["cost"] - 3


def test_discounts_never_below_one():
    seat = me(manager="rin", focus=["recruitment_poster-1"], agendas=["summer_camp"], done=["summer_camp"])
    assert abilities.recruit_cost(CARDS, seat, "shy") == 1


def test_effect_catch_up_yuki():
    assert earn(me(manager="yuki"), 3, max_done=0) == FLYER
    assert earn(me(manager="yuki"), 3, max_done=1) == FLYER + 2
    ahead = me(manager="yuki", agendas=["fan_club"], done=["fan_club"])
    assert earn(ahead, 3, max_done=1) == FLYER


def test_effect_fave_discount_bonus_valentines():
    plain = me({"gentleman": 1}, fave="gentleman")
    assert abilities.recruit_cost(CARDS, plain, "gentleman") == 3 - 1
    val = me({"prince": 1}, fave="prince", agendas=["valentines_day"], done=["valentines_day"])
    assert abilities.recruit_cost(CARDS, val, "prince") == 4 - 3


def test_effect_auction_priority_mei():
    seat = me(manager="mei")
    assert abilities.has_effect(CARDS, seat, "auction_priority")
    assert not abilities.has_effect(CARDS, me(manager="hana"), "auction_priority")


def test_effect_reroll_sora():
    assert abilities.has_effect(CARDS, me(manager="sora"), "reroll")
    assert abilities.host_shines(CARDS, me({"cool": 1}), 5, [3])
    assert not abilities.host_shines(CARDS, me({"cool": 1}), 5, [4])


def test_hidden_agenda_benefit_does_nothing_until_completed():
    seat = me(agendas=["tea_ceremony"], done=[])
    assert earn(seat, 3) == FLYER


def test_club_value_counts_flyer_and_every_host_card():
    assert abilities.club_value(CARDS, me({"gentleman": 2, "shy": 1})) == FLYER + 6 + 2
