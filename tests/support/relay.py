"""Relay: a tiny title for testing turns of several steps, not the rules of a real game.

Everyone first hides a number at once (a sealed, simultaneous decision: not queued). Then seats take
turns; a turn is a run of steps by one seat: add 1 or add 2 to your sum (open, and queueable), draw
a card from the hidden deck at random (it shows in your hand), and end your turn (the next seat is
asked). Adding past 9 is refused by the rules even though it is offered, so a run can be refused
half way. The game ends when every sum reaches 9.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Choose, IllegalMove, Number, Option, Outcome, TitleBase, entry
from games.engine.log import read

CAP = 9


class Relay(TitleBase):
    slug = "relay"
    name = "Relay"
    min_players = 2
    max_players = 3
    options_schema: list = []

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> dict:
        deck = [f"card{i}" for i in range(12)]
        rng.shuffle(deck)
        return {
            "names": list(players),
            "secret": [None] * len(players),
            "sums": [0] * len(players),
            "hands": [[] for _ in players],
            "deck": deck,
            "turn": 0,
            "log": [entry("Relay begins.")],
        }

    def prompts(self, state: dict) -> dict[int, Any]:
        if all(s >= CAP for s in state["sums"]):
            return {}
        hidden = [i for i, s in enumerate(state["secret"]) if s is None]
        if hidden:
            return {i: Number("Hide a number", 0, 3) for i in hidden}
        t = state["turn"]
        options = [Option("add1", "Add 1"), Option("add2", "Add 2")]
        if state["deck"]:
            options.append(Option("draw", "Draw a card"))
        options.append(Option("end", "End my turn"))
        return {t: Choose(f"Your sum is {state['sums'][t]}", tuple(options))}

    def apply(self, state: dict, seat: int, answer: Any, rng: random.Random) -> dict:
        prompt = self.prompts(state).get(seat)
        if prompt is None:
            raise IllegalMove("It is not your move.")
        answer = prompt.validate(answer)
        s = {
            **state,
            "secret": list(state["secret"]),
            "sums": list(state["sums"]),
            "hands": [list(h) for h in state["hands"]],
            "deck": list(state["deck"]),
            "log": list(state["log"]),
        }
        name = s["names"][seat]
        if isinstance(prompt, Number):
            s["secret"][seat] = answer
            s["log"].append(entry(f"{name} hid a number.", {seat: f"You hid {answer}."}))
        elif answer == "end":
            n = len(s["names"])
            s["turn"] = next((seat + k) % n for k in range(1, n + 1) if s["sums"][(seat + k) % n] < CAP)
            s["log"].append(entry(f"{name} ends their turn."))
        elif answer == "draw":
            card = s["deck"].pop(rng.randrange(len(s["deck"])))
            s["hands"][seat].append(card)
            s["log"].append(entry(f"{name} draws a card.", {seat: f"You draw {card}."}))
        else:
            k = int(answer[3:])
            if s["sums"][seat] + k > CAP:
                raise IllegalMove(f"Your sum cannot pass {CAP}.")
            s["sums"][seat] += k
            s["log"].append(entry(f"{name} adds {k}."))
        return s

    def view(self, state: dict, seat: int | None) -> dict:
        over = not self.prompts(state)
        panels = [
            {
                "title": "Sums",
                "table": {
                    "header": ["Player", "Sum"],
                    "rows": [[n, str(state["sums"][i])] for i, n in enumerate(state["names"])],
                },
            }
        ]
        if seat is not None:
            panels.append(
                {
                    "title": "Your hand",
                    "cards": [{"id": c, "name": c, "kind": "card", "lines": []} for c in state["hands"][seat]],
                }
            )
        return {
            "status": "Over" if over else f"{state['names'][state['turn']]} to play",
            "panels": panels,
            "log": read(state["log"], None if over else seat),
            "data": {"sums": list(state["sums"])},
        }

    def outcome(self, state: dict) -> Outcome | None:
        if self.prompts(state):
            return None
        scores = {i: state["sums"][i] + len(state["hands"][i]) for i in range(len(state["names"]))}
        best = max(scores.values())
        return Outcome(
            scores=scores,
            breakdown={i: [("sum", v)] for i, v in scores.items()},
            winners=[i for i, v in scores.items() if v == best],
        )

    def queue_steps(self, state: dict, seat: int) -> bool:
        """The open run of a seat's turn (not the sealed numbers)."""
        return all(s is not None for s in state["secret"]) and seat == state["turn"]

    def default_answer(self, state: dict, seat: int) -> Any:
        p = self.prompts(state)[seat]
        return 0 if isinstance(p, Number) else "end"

    def bot_answer(self, state: dict, seat: int, rng: random.Random) -> Any:
        p = self.prompts(state)[seat]
        if isinstance(p, Number):
            return p.random_answer(rng)
        return "add1" if state["sums"][seat] < CAP else "end"


TITLE = Relay()
