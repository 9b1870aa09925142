"""Pebbles: a tiny title for testing the service, not the rules of a real game.

Everyone first hides a secret number (a simultaneous, sealed decision). Then seats take turns
taking 1-3 pebbles from a pile of 9; each turn is two steps (take, then say "done"), to test
runs of prompts to one seat. When the pile is empty the game ends; score = pebbles taken +
secret, ties shared.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Choose, IllegalMove, Number, Option, Outcome, TitleBase, entry
from games.engine.log import read


class Pebbles(TitleBase):
    slug = "pebbles"
    name = "Pebbles"
    min_players = 2
    max_players = 4
    options_schema: list = []

    def setup(self, players: list[str], options: dict[str, Any], rng: random.Random) -> dict:
        return {
            "names": players,
            "pile": int(options.get("pile", 9)),
            "secret": [None] * len(players),
            "taken": [0] * len(players),
            "turn": rng.randrange(len(players)),
            "step": "take",
            "log": [entry(f"The pile has {options.get('pile', 9)} pebbles.")],
        }

    def prompts(self, state: dict) -> dict[int, Any]:
        if state["pile"] == 0:
            return {}
        hidden = [i for i, s in enumerate(state["secret"]) if s is None]
        if hidden:
            return {i: Number("Hide a secret number", 0, 3) for i in hidden}
        t = state["turn"]
        if state["step"] == "take":
            n = min(3, state["pile"])
            return {t: Choose("Take pebbles", tuple(Option(f"take{k}", f"Take {k}") for k in range(1, n + 1)))}
        return {t: Choose("End your turn", (Option("done", "Done"),))}

    def apply(self, state: dict, seat: int, answer: Any, rng: random.Random) -> dict:
        prompt = self.prompts(state).get(seat)
        if prompt is None:
            raise IllegalMove("It is not your move.")
        answer = prompt.validate(answer)
        s = {**state, "secret": list(state["secret"]), "taken": list(state["taken"]), "log": list(state["log"])}
        name = s["names"][seat]
        if isinstance(prompt, Number):
            s["secret"][seat] = answer
            s["log"].append(entry(f"{name} hid a number.", {seat: f"You hid {answer}."}))
        elif answer == "done":
            s["turn"], s["step"] = (seat + 1) % len(s["names"]), "take"
        else:
            k = int(answer[4:])
            s["pile"] -= k
            s["taken"][seat] += k
            s["step"] = "done"
            s["log"].append(entry(f"{name} took {k}."))
        return s

    def view(self, state: dict, seat: int | None) -> dict:
        over = state["pile"] == 0
        rows = [
            [
                n,
                str(state["taken"][i]),
                str(state["secret"][i]) if (over or i == seat) and state["secret"][i] is not None else "?",
            ]
            for i, n in enumerate(state["names"])
        ]
        return {
            "status": "Game over" if over else f"{state['pile']} pebbles left",
            "panels": [{"title": "Players", "table": {"header": ["Player", "Taken", "Secret"], "rows": rows}}],
            "log": read(state["log"], None if over else seat) if not over else [e.get("text") for e in state["log"]],
            "data": {},
        }

    def outcome(self, state: dict) -> Outcome | None:
        if state["pile"]:
            return None
        scores = {i: state["taken"][i] + state["secret"][i] for i in range(len(state["names"]))}
        best = max(scores.values())
        return Outcome(
            scores=scores,
            breakdown={i: [("pebbles", state["taken"][i]), ("secret", state["secret"][i])] for i in scores},
            winners=[i for i, v in scores.items() if v == best],
            tiebreak="ties share the win",
        )

    def default_answer(self, state: dict, seat: int) -> Any:
        p = self.prompts(state)[seat]
        return 0 if isinstance(p, Number) else p.options[0].id

    def bot_answer(self, state: dict, seat: int, rng: random.Random) -> Any:
        return self.prompts(state)[seat].random_answer(rng)


TITLE = Pebbles()
