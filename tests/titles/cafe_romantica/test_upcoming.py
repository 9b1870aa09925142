"""upcoming(): the action question of a seat that acts later this turn, offered for conditional answers.

Its options are the actions the seat could take from the field and its own ♥ as they are now. No
other seat's action changes this seat's ♥, club, focus cards or agendas, and the field neither
shifts nor refills before the end of the turn, so when the question arrives an option is refused
only if another seat took that field card first ("recruit gentleman-1; if gone, cool-1; else pass").
The draft and the auction are sealed and simultaneous: nothing to answer ahead there.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.titles.cafe_romantica import TITLE

from .helpers import acting, drafted, give, log_of, put_in_field, rng, said


def ids(prompt) -> list[str]:
    return [o.id for o in prompt.options]


def two_cards(hearts=(5, 5, 5)):
    """Three seats acting in order 0, 1, 2; Gentleman (3 ♥) and Cool (2 ♥) in the bottom row; P2 has Shy."""
    state = put_in_field(put_in_field(drafted(3), 4, "gentleman-1"), 5, "cool-1")
    return give(acting(state, [0, 1, 2], hearts=list(hearts)), 2, {"shy": 1})


def play_plan(state, seat, plan):
    """What the service does when the seat's question arrives: the first answer the prompt and apply accept."""
    prompt = TITLE.prompts(state)[seat]
    for answer in plan:
        try:
            prompt.validate(answer)
            return answer, TITLE.apply(state, seat, answer, rng())
        except IllegalMove:
            continue
    return None, state


# ---------------------------------------------------------------- when there is none


def test_upcoming_is_none_for_the_seat_acting_now_and_seats_that_have_acted():
    state = two_cards()
    assert TITLE.upcoming(state, 0) is None  # asked now
    assert TITLE.upcoming(state, 1) is not None and TITLE.upcoming(state, 2) is not None
    assert said(TITLE.upcoming(state, 2).text, state).startswith(
        "Your action this turn, after P0 and P1 (you have 5 ♥)"
    )
    for bad in (3, -1, True, "1", None):
        assert TITLE.upcoming(state, bad) is None
    state = TITLE.apply(state, 0, "pass", rng())
    assert TITLE.upcoming(state, 0) is None  # acted: its next question is next turn's sealed bids
    assert TITLE.upcoming(state, 1) is None  # asked now
    assert said(TITLE.upcoming(state, 2).text, state).startswith("Your action this turn, after P1 (you have 5 ♥)")


def test_upcoming_is_none_for_a_seat_that_will_pass_without_being_asked():
    state = two_cards(hearts=(5, 0, 5))
    assert TITLE.upcoming(state, 1) is None  # no ♥: passes unasked, so no email and nothing to leave
    assert TITLE.upcoming(state, 2) is not None
    state = TITLE.apply(state, 0, "pass", rng())
    assert state["order"][state["acting"]] == 2  # P1 was indeed skipped


def test_upcoming_is_none_in_the_sealed_draft_and_auction():
    state = TITLE.setup(["A", "B", "C"], {}, rng())
    assert state["phase"] == "draft" and set(TITLE.prompts(state)) == {0, 1, 2}
    assert [TITLE.upcoming(state, i) for i in range(3)] == [None, None, None]
    state = TITLE.apply(state, 0, TITLE.default_answer(state, 0), rng())  # 0 has answered, 1 and 2 not yet
    assert [TITLE.upcoming(state, i) for i in range(3)] == [None, None, None]
    for seed in range(20):  # a drafted table whose first turn opens with sealed bids
        state = drafted(3, seed=seed)
        if state["phase"] == "auction" and len(TITLE.prompts(state)) >= 2:
            break
    assert state["phase"] == "auction"
    assert [TITLE.upcoming(state, i) for i in range(3)] == [None, None, None]
    first = min(TITLE.prompts(state))
    state = TITLE.apply(state, first, TITLE.default_answer(state, first), rng())
    if state["phase"] == "auction":
        assert [TITLE.upcoming(state, i) for i in range(3)] == [None, None, None]


def test_upcoming_is_none_after_the_game_ends():
    r = random.Random("upcoming-over")
    state = TITLE.setup(["A", "B", "C"], {}, r)
    while TITLE.outcome(state) is None:
        seat = min(TITLE.prompts(state))
        state = TITLE.apply(state, seat, TITLE.bot_answer(state, seat, r), r)
    assert state["phase"] == "over"
    assert [TITLE.upcoming(state, i) for i in range(3)] == [None, None, None]


# ---------------------------------------------------------------- what it offers


def test_upcoming_is_the_action_question_the_seat_gets_when_nobody_takes_its_cards():
    state = give(two_cards(), 1, {"cool": 1})
    up = TITLE.upcoming(state, 2)
    assert {"gentleman-1", "cool-1", "pass"} <= set(ids(up))
    assert "fave:shy" in ids(up)  # Shy costs 1 ♥ to fave
    assert all(not i.startswith("fave:cool") for i in ids(up))  # P1's club, not P2's
    assert ids(up) == ids(TITLE.prompts(acting(state, [2, 0, 1]))[2])  # as if P2 acted now
    state = TITLE.apply(state, 0, "pass", rng())
    state = TITLE.apply(state, 1, "fave:cool", rng())  # spends P1's ♥, takes no card
    assert state["seats"][1]["hearts"] == 5 - 2
    real = TITLE.prompts(state)[2]
    assert real.options == up.options
    for answer in ids(up):
        assert real.validate(answer) == answer
        after = TITLE.apply(state, 2, answer, rng())  # apply accepts it too
        assert after["turns_done"] == 1  # P2 was last: the turn ended


def test_a_card_another_seat_recruits_first_is_refused_and_the_next_answer_is_played():
    state = two_cards()
    up1, up2 = TITLE.upcoming(state, 1), TITLE.upcoming(state, 2)
    assert "gentleman-1" in ids(up1) and "gentleman-1" in ids(up2) and "cool-1" in ids(up2)
    state = TITLE.apply(state, 0, "gentleman-1", rng())  # P0 takes it first
    real1 = TITLE.prompts(state)[1]
    assert real1.options == tuple(o for o in up1.options if o.id != "gentleman-1")
    with pytest.raises(IllegalMove):
        real1.validate("gentleman-1")
    with pytest.raises(IllegalMove, match="no longer in the field"):
        TITLE.apply(state, 1, "gentleman-1", rng())
    played, state = play_plan(state, 1, ["gentleman-1", "cool-1", "pass"])
    assert played == "cool-1" and state["seats"][1]["club"]["cool"] == ["cool-1"]
    # P2 hoped for either card: both are gone, so its third answer is played
    real2 = TITLE.prompts(state)[2]
    assert real2.options == tuple(o for o in up2.options if o.id not in {"gentleman-1", "cool-1"})
    played, state = play_plan(state, 2, ["gentleman-1", "cool-1", "fave:shy"])
    assert played == "fave:shy" and state["seats"][2]["fave"] == "shy"


def test_a_seat_whose_only_affordable_card_is_taken_passes_unasked():
    """Upcoming offered Cool to P1 (2 ♥); P0 takes him first, P1 can afford nothing else and is not asked."""
    state = acting(put_in_field(drafted(2), 4, "cool-1"), [0, 1], hearts=[5, 2])
    rest = [c for c in state["field"] if c is not None and c != "cool-1"]
    state["field"] = [c if c == "cool-1" else None for c in state["field"]]
    state["deck"] = state["deck"] + rest
    up = TITLE.upcoming(state, 1)
    assert ids(up) == ["cool-1", "pass"]
    after = TITLE.apply(state, 0, "cool-1", rng())
    assert after["turns_done"] == 1  # P1 passed without a question and the turn ended
    assert "P1 has 2 ♥, too few for anything on offer, and passes (unspent ♥ are lost)." in log_of(after, 1)


# ---------------------------------------------------------------- random games


def _answer(state, seat, prompt, r):
    """Mostly random picks in the action phase, so seats take field cards others were counting on."""
    if state["phase"] == "actions" and r.random() < 0.6:
        return prompt.random_answer(r)
    return TITLE.bot_answer(state, seat, r)


def _step(state, r):
    prompts = TITLE.prompts(state)
    seat = min(prompts) if state["phase"] != "actions" else state["order"][state["acting"]]
    return seat, TITLE.apply(state, seat, _answer(state, seat, prompts[seat], r), r)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(n=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 90), pooling=st.booleans())
def test_every_upcoming_option_is_legal_when_asked_or_was_taken_by_another_seat(n, seed, steps, pooling):
    """Random games stopped anywhere: in sealed phases and after the end upcoming is None; in the
    action phase, each waiting seat's question, when it comes, offers exactly the upcoming options
    minus field cards other seats took meanwhile (every one accepted by validate and apply); a seat
    that passes unasked lost every affordable card to others; a seat with no upcoming is not asked."""
    r = random.Random(seed)
    state = TITLE.setup([f"P{i}" for i in range(n)], {"pooling": pooling}, r)
    for _ in range(steps):
        if state["phase"] == "over":
            break
        _, state = _step(state, r)
    while state["phase"] not in ("actions", "over"):
        assert all(TITLE.upcoming(state, i) is None for i in range(n))
        _, state = _step(state, r)
    if state["phase"] == "over":
        assert all(TITLE.upcoming(state, i) is None for i in range(n))
        return
    turn = state["turn"]
    now = state["order"][state["acting"]]
    ahead = {i: TITLE.upcoming(state, i) for i in range(n)}
    assert ahead[now] is None
    field_then = {c for c in state["field"] if c is not None}
    asked: set[int] = set()
    while state["phase"] == "actions" and state["turn"] == turn:
        seat = state["order"][state["acting"]]
        if seat != now:
            asked.add(seat)
            up = ahead[seat]
            assert up is not None, "the seat is asked, but upcoming offered nothing"
            gone = {i for i in ids(up) if i in field_then and i not in state["field"]}
            for i in gone:  # taken by another seat: in its club or focus cards
                assert any(i in s["focus"] or i in s["club"].get(i.rsplit("-", 1)[0], []) for s in state["seats"])
                with pytest.raises(IllegalMove):
                    TITLE.prompts(state)[seat].validate(i)
            real = TITLE.prompts(state)[seat]
            assert real.options == tuple(o for o in up.options if o.id not in gone)
            for i in ids(real):
                assert real.validate(i) == i
                TITLE.apply(state, seat, i, random.Random(0))
        _, state = _step(state, r)
    for seat, up in ahead.items():
        if up is not None and seat not in asked:  # passed unasked: every affordable card was taken
            assert all(i == "pass" or (i in field_then and i not in state["field"]) for i in ids(up))
