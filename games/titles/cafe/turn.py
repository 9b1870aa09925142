"""The flow of a game of Café: the draft, the simultaneous place-and-act phase, the end (a new
table is state.py's).

Round: the master reveals 3 cards; seats pick one each (left of the master first, master last),
the display refilled after every pick but the master's. Then every seat places its card and spends
its actions at the same time (each seat has its own prompt; nobody waits on anybody). When all are
done, the master token passes left. After round 8 the game is scored.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from games.engine import Choose, IllegalMove, Option, Prompt
from games.engine.log import entry
from games.engine.messages import list_ref, msg, nmsg, seat_ref

from . import actions as act_mod
from . import draft
from .memo import Memo
from .placement import Placement, check, legal_placements, parse_id, place
from .state import MAX_ACTIONS, ROUNDS, start_round
from .words import ROTATION, amounts, card, card_title, colour


def prompts(state: dict[str, Any]) -> dict[int, Prompt]:
    if state["phase"] == "draft":
        seat = state["to_pick"][0]
        return {seat: draft_prompt(state, seat)}
    if state["phase"] != "play":
        return {}
    out: dict[int, Prompt] = {}
    for i, seat in enumerate(state["seats"]):
        if seat["stage"] == "place":
            out[i] = placement_prompt(state, i)
        elif seat["stage"] == "act":
            out[i] = action_prompt(state, i)
    return out


def _pick_options(state: dict[str, Any], i: int) -> tuple[Option, ...]:
    cards = state["cards"]
    text = {cid: draft.card_text(cards[cid]) for cid in state["display"]}  # one card, up to 4 ways to pay
    return tuple(
        Option(p.id, p.label, text[p.card] if p.card else "")
        for p in draft.picks(state["seats"][i], state["display"], cards)
    )


def draft_prompt(state: dict[str, Any], i: int) -> Choose:
    if len(state["to_pick"]) == 1 and len(state["seats"]) > 1:
        text = msg("Round %(round)s: pick a plan card (you pick last, as master).", round=state["round"])
    else:
        text = msg("Round %(round)s: pick a plan card.", round=state["round"])
    return Choose(text, _pick_options(state, i))


def upcoming_prompt(state: dict[str, Any], i: int) -> Choose | None:
    """The draft pick of a seat still waiting for its turn to pick this round, or None.

    Offers the picks this seat could make from the display as it is now. The seat's own warehouse
    and ships are all that decide the price, and nobody else changes them during the draft, so
    each option is still offered when the pick reaches the seat unless that card was taken
    meanwhile (a pick refused, the next one in the list is tried). Cards refilled from the deck
    in between are not known yet, so they cannot be named in advance. None for the seat picking
    now, a seat that has picked (its placement waits on nobody), and outside the draft (the next
    round's cards are not revealed).
    """
    if state["phase"] != "draft" or i not in state["to_pick"][1:]:
        return None
    ahead = state["to_pick"][: state["to_pick"].index(i)]
    before = list_ref([seat_ref(j) for j in ahead])
    if i == state["master"] and len(state["seats"]) > 1:
        text = msg(
            "Round %(round)s: your pick after %(players)s, last as master. Cards they take are gone; "
            "cards refilled from the deck are not known yet.",
            round=state["round"],
            players=before,
        )
    else:
        text = msg(
            "Round %(round)s: your pick after %(players)s. Cards they take are gone; "
            "cards refilled from the deck are not known yet.",
            round=state["round"],
            players=before,
        )
    return Choose(text, _pick_options(state, i))


def placement_options(state: dict[str, Any], i: int) -> list[Any]:
    seat = state["seats"][i]
    return legal_placements(seat["area"], state["cards"][seat["hand"]])


_placement_prompts = Memo()
_action_prompts = Memo()


def placement_prompt(state: dict[str, Any], i: int) -> Choose:
    """One option per legal placement ("card17@r2c3:rot90"), or a discard if the card fits nowhere."""
    seat = state["seats"][i]
    memo_key = (seat, state["cards"], state["round"])  # all it depends on (the seat dict holds area and hand)
    hit = _placement_prompts.get(*memo_key)
    if hit is not None:
        return hit
    cid = seat["hand"]
    name = card(cid)
    places = placement_options(state, i)
    if not places:
        prompt = Choose(
            msg("Round %(round)s: %(card)s cannot be placed anywhere.", round=state["round"], card=name),
            (
                Option(
                    f"discard:{cid}",
                    msg("Discard %(card)s", card=name),
                    msg("No placement covers 2 to 4 squares and keeps a cup."),
                ),
            ),
        )
    else:
        prompt = Choose(
            msg(
                "Round %(round)s: place %(card)s so it covers 2, 3 or 4 of your visible squares.",
                round=state["round"],
                card=name,
            ),
            tuple(map(_placement_option, places)),
        )
    return _placement_prompts.put(memo_key, prompt)


def _placement_option(p: Placement) -> Option:
    return Option(p.id, _placement_label(p.row, p.col, p.rot), _covers(p.covered))


@lru_cache(maxsize=4096)
def _placement_label(r: int, c: int, rot: int) -> dict[str, Any]:
    return msg("Top-left at row %(row)s, col %(col)s, %(turn)s", row=r, col=c, turn=ROTATION[rot])


@lru_cache(maxsize=8)
def _covers(n: int) -> dict[str, Any]:
    return msg("covers %(n)s", n=n)


def action_prompt(state: dict[str, Any], i: int) -> Choose:
    seat = state["seats"][i]
    acts = act_mod.options(seat, state["cards"], state["supply"])
    hit = _action_prompts.get(acts, seat, state["round"])
    if hit is not None:
        return hit
    done = seat["actions"] - seat["left"] + 1
    text = msg("Round %(round)s: action %(done)s of %(all)s.", round=state["round"], done=done, all=seat["actions"])
    prompt = Choose(text, tuple(map(_act_option, acts)))
    return _action_prompts.put((acts, seat, state["round"]), prompt)


def _act_option(a: act_mod.Act) -> Option:
    """The option offering one action."""
    return Option(a.id, a.label, _cost_words(a.cost))


@lru_cache(maxsize=16)
def _cost_words(cost: int) -> Any:
    if cost == 0:
        return msg("free")
    if cost > 1:
        return nmsg("%(n)s action", "%(n)s actions", "n", n=cost)
    return ""


def apply(state: dict[str, Any], i: int, answer: Any, rng: random.Random) -> dict[str, Any]:
    if state["phase"] == "over":
        raise IllegalMove(msg("The game is over."))
    if not isinstance(i, int) or not 0 <= i < len(state["seats"]):
        raise IllegalMove(msg("There is no such seat."))
    if not isinstance(answer, str):
        raise IllegalMove(msg("That is not one of the choices offered."))
    if state["phase"] == "draft":
        if state["to_pick"][0] != i:
            raise IllegalMove(msg("It is not your turn to pick a card."))
        return _apply_pick(state, i, answer)
    stage = state["seats"][i]["stage"]
    if stage == "place":
        return _apply_place(state, i, answer)
    if stage == "act":
        return _apply_act(state, i, answer)
    raise IllegalMove(msg("You have nothing to do until the next round."))


def _apply_pick(state: dict[str, Any], i: int, answer: str) -> dict[str, Any]:
    seat = state["seats"][i]
    options = {p.id: p for p in draft.picks(seat, state["display"], state["cards"])}
    pick = options.get(answer)
    if pick is None:
        cid = answer.split(":")[0]
        if cid.startswith("card") and cid not in state["display"]:
            raise IllegalMove(msg("%(card)s is not on offer now.", card=card_title(cid)))
        raise IllegalMove(msg("That is not one of the choices offered."))
    new = dict(state)
    name = seat_ref(i)
    display = list(state["display"])
    seat = dict(seat)
    if pick.card is None:
        words = msg("%(seat)s cannot pay for a card with a cup and takes no card.", seat=name)
    else:
        display.remove(pick.card)
        seat["hand"] = pick.card
        if pick.pay:
            seat["warehouse"] = {**seat["warehouse"], pick.pay: seat["warehouse"][pick.pay] - 1}
            new["supply"] = {**state["supply"], pick.pay: state["supply"][pick.pay] + 1}
            words = msg(
                "%(seat)s takes %(card)s and pays 1 %(colour)s cube.",
                seat=name,
                card=card(pick.card),
                colour=colour(pick.pay),
            )
        else:
            words = msg("%(seat)s takes %(card)s for free.", seat=name, card=card(pick.card))
    seats = list(state["seats"])
    seats[i] = seat
    new["seats"] = seats
    new["to_pick"] = state["to_pick"][1:]
    new["log"] = [*state["log"], entry(words)]
    if new["to_pick"]:
        if pick.card is not None and new["deck"]:
            display.append(new["deck"][0])
            new["deck"] = new["deck"][1:]
        new["display"] = display
        return new
    new["discard"] = [*state["discard"], *display]
    new["display"] = []
    new["phase"] = "play"
    for j, s in enumerate(seats):
        s = dict(s) if j != i else s
        if s["hand"]:
            s["stage"] = "place"
        else:
            _begin_actions(s)
        seats[j] = s
    return new


def _begin_actions(seat: dict[str, Any]) -> None:
    """Actions = visible cups, at most 8 (mutates a seat copy)."""
    cups = sum(1 for code in seat["area"].values() if code == "cup")
    seat["actions"] = min(MAX_ACTIONS, cups)
    seat["left"] = seat["actions"]
    seat["stage"] = "act" if seat["left"] > 0 else "done"


def _apply_place(state: dict[str, Any], i: int, answer: str) -> dict[str, Any]:
    seat = state["seats"][i]
    cid = seat["hand"]
    plan = state["cards"][cid]
    name = seat_ref(i)
    if answer == f"discard:{cid}":
        if placement_options(state, i):
            raise IllegalMove(msg("That card can be placed: pick a placement."))
        new_seat = dict(seat)
        new_seat["hand"] = None
        back: dict[str, int] = {}
        placed = None
        discard = [*state["discard"], cid]
    else:
        pcid, r, c, rot = parse_id(answer)
        if pcid != cid:
            raise IllegalMove(msg("You are placing %(card)s, not %(other)s.", card=card(cid), other=card(pcid)))
        covered = check(seat["area"], plan, r, c, rot)
        new_seat, back = place(seat, plan, r, c, rot)
        new_seat["hand"] = None
        placed = (r, c, rot, covered)
        discard = state["discard"]
    _begin_actions(new_seat)
    actions = nmsg("%(n)s action", "%(n)s actions", "n", n=new_seat["actions"])
    if placed is None:
        words = msg(
            "%(seat)s cannot place %(card)s and discards it. %(actions)s.", seat=name, card=card(cid), actions=actions
        )
    else:
        r, c, rot, covered = placed
        where = {"seat": name, "card": card(cid), "row": r, "col": c, "turn": ROTATION[rot], "covered": covered}
        if back:
            words = msg(
                "%(seat)s places %(card)s at row %(row)s, col %(col)s, %(turn)s, covering %(covered)s; "
                "%(cubes)s back to the supply. %(actions)s.",
                **where,
                cubes=amounts(back),
                actions=actions,
            )
        else:
            words = msg(
                "%(seat)s places %(card)s at row %(row)s, col %(col)s, %(turn)s, covering %(covered)s. %(actions)s.",
                **where,
                actions=actions,
            )
    new = dict(state)
    seats = list(state["seats"])
    seats[i] = new_seat
    new["seats"] = seats
    new["discard"] = discard
    if back:
        supply = dict(state["supply"])
        for colour, n in back.items():
            supply[colour] += n
        new["supply"] = supply
    new["log"] = [*state["log"], entry(words)]
    return _maybe_end_round(new)


def _apply_act(state: dict[str, Any], i: int, answer: str) -> dict[str, Any]:
    seat = state["seats"][i]
    acts = {a.id: a for a in act_mod.options(seat, state["cards"], state["supply"])}
    act = acts.get(answer)
    if act is None:
        raise IllegalMove(msg("That action is not possible now: pick one from the list."))
    new_seat, supply, words = act_mod.perform(seat, act, state["cards"], state["supply"], seat_ref(i))
    if new_seat["left"] <= 0:
        new_seat["stage"] = "done"
    new = dict(state)
    seats = list(state["seats"])
    seats[i] = new_seat
    new["seats"] = seats
    new["supply"] = supply
    new["log"] = [*state["log"], entry(words)]
    return _maybe_end_round(new)


def _maybe_end_round(state: dict[str, Any]) -> dict[str, Any]:
    """When every seat is done: pass the master token left and start the next round, or end the game."""
    if any(s["stage"] != "done" for s in state["seats"]):
        return state
    state["seats"] = [{**s, "stage": "wait", "left": 0} for s in state["seats"]]
    if state["round"] >= ROUNDS:
        state["phase"] = "over"
        state["log"] = [*state["log"], entry(msg("The game ends after round %(round)s.", round=ROUNDS))]
        return state
    state["round"] += 1
    state["master"] = (state["master"] + 1) % len(state["seats"])
    state["phase"] = "draft"
    start_round(state)
    return state
