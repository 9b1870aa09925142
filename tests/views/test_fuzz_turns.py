"""Hostile posts to a queued turn (POST /play/<token>/turn/) and its preview (POST /play/<token>/preview/),
with the harness of tests/test_fuzz_endpoints.py: never a server error, a refusal in words, nothing
changed unless the input is legal and current.

A Café game of two people in the place-and-act phase, Ana asked to place her card: each example
posts a run of steps (legal ones walked on the pure engine, some replaced by hostile values, or no
list at all) with a version, a question key and a token that may be wrong. The oracle applies the
run with the engine itself: every step answers the question as it stands after the one before, and
every step but the last leaves Ana's turn going on. The preview must never write, and never tell
what the seat may not see: no card of the deck or of those removed face down, and not the seed.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.actions import organise
from games.engine import IllegalMove
from games.engine.prompts import prompt_key
from games.models import Event, Game
from tests.support import hostile as h
from tests.support.cafe_turns import to_play_phase
from tests.support.fuzzing import fuzz
from tests.support.hostile import MultiDict, Verdict
from tests.test_fuzz_endpoints import (
    TOKEN_CHOICE,
    Case,
    Findings,
    Poster,
    judge,
    pick_token,
    read_currency,
    readable,
    seat_url,
    seats_tokens,
    told,
)

pytestmark = pytest.mark.django_db(transaction=True)

PEOPLE = ["ana@example.com", "ben@example.com"]


class Table:
    """The Café game, kept at Ana's placement: rewound there (as an organiser would) when an example played."""

    def __init__(self, make_game):
        self.game = to_play_phase(make_game(title="cafe", seats=PEOPLE, options={"first_master": "first"}))
        assert self.game.state["seats"][0]["stage"] == "place"
        self.version = self.game.version

    def arm(self) -> Game:
        game = Game.objects.get(pk=self.game.pk)
        if game.version != self.version:
            organise.rewind(game, self.version, None, "fuzz: Ana's placement again")
            game = Game.objects.get(pk=self.game.pk)
            self.version = game.version  # the rewind is an event of its own
        self.game = game
        return game


def walk(game: Game, picks: list[int]) -> list[str]:
    """A legal run: at each step the option `pick` (mod their number) of Ana's question then."""
    engine, state, out = game.engine, game.state, []
    for pick in picks:
        prompt = engine.prompts(state).get(0)
        if prompt is None:
            break
        answer = prompt.options[pick % len(prompt.options)].id
        out.append(answer)
        state = engine.apply(state, 0, answer, random.Random(0))
    return out


def oracle(game: Game, answers: Any) -> Verdict:
    """LEGAL if the engine plays the run for Ana, each step but the last leaving her turn going on
    (still asked in the place-and-act phase, nobody else newly asked); REFUSE if a step cannot be played."""
    if not isinstance(answers, list) or not answers or len(answers) > 24:
        return Verdict.REFUSE
    engine, state = game.engine, game.state
    for i, answer in enumerate(answers):
        asked = engine.prompts(state)
        if 0 not in asked:
            return Verdict.REFUSE
        if len(answers) > 1 and not engine.queue_steps(state, 0):
            return Verdict.REFUSE
        try:
            after = engine.apply(state, 0, asked[0].validate(answer), random.Random(0))
        except (IllegalMove, TypeError, ValueError):
            return Verdict.REFUSE
        if i < len(answers) - 1:
            now = engine.prompts(after)
            if 0 not in now or set(now) - set(asked) or engine.outcome(after) is not None:
                return Verdict.REFUSE
        state = after
    return Verdict.LEGAL


HOSTILE = st.one_of(
    h.hostile_text(),
    h.hostile_number().map(str),
    st.integers(-(2**70), 2**70),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(st.text(max_size=8), max_size=3),
    st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2),
)


@st.composite
def steps_field(draw) -> tuple[list[int], list[tuple[int, Any]], str]:
    """(the picks of a legal run, hostile values put in at some steps, how the list is written)."""
    picks = draw(st.lists(st.integers(0, 999), min_size=1, max_size=5))
    swaps = draw(st.lists(st.tuples(st.integers(0, 5), HOSTILE), max_size=2))
    how = draw(st.sampled_from(("json",) * 6 + ("raw", "missing", "twice", "object", "empty", "deep", "long")))
    return picks, swaps, how


def steps_pairs(answers: list[Any], how: str, raw: str) -> h.Pairs:
    text = json.dumps(answers, allow_nan=True)
    if how == "raw":
        return [("steps", raw)]
    if how == "missing":
        return []
    if how == "twice":
        return [("steps", text), ("steps", raw)]
    if how == "object":
        return [("steps", json.dumps({"steps": answers}))]
    if how == "empty":
        return [("steps", "[]")]
    if how == "deep":
        return [("steps", "[" * 5000 + "]" * 5000)]
    if how == "long":
        return [("steps", json.dumps(answers * 20))]
    return [("steps", text)]


def hidden_cards(game: Game) -> set[str]:
    """The cards nobody at the table may see while the game goes on."""
    return set(game.state["deck"]) | set(game.state["removed"])


def leak(text: str, game: Game) -> str | None:
    if game.seed in text:
        return "the game's seed"
    found = sorted(c for c in hidden_cards(game) if re.search(rf"\b{c}\b", text))
    return f"hidden cards {found[:3]}" if found else None


@pytest.mark.parametrize("endpoint", ["turn", "preview"])
def test_queued_turns_and_their_preview(make_game, endpoint: str) -> None:
    findings = Findings()
    name = f"POST /play/<token>/{endpoint}/"
    poster = Poster(findings, name)
    table = Table(make_game)
    seen: dict[Verdict, int] = dict.fromkeys(Verdict, 0)

    @fuzz(45)
    @given(
        plan=steps_field(),
        version=h.version_field(),
        key=st.sampled_from(("page", "page", "page", "none", "other")),
        token=TOKEN_CHOICE,
        raw=h.hostile_text(),
    )
    def example(plan, version, key, token, raw) -> None:
        game = table.arm()
        picks, swaps, how = plan
        answers: list[Any] = walk(game, picks)
        for at, value in swaps:
            if at < len(answers):
                answers[at] = value
        pairs = steps_pairs(answers, how, raw)
        page_key = prompt_key(game.engine.prompts(game.state)[0])
        v = version(game.version)
        meta: h.Pairs = [("version", v)] if v is not None else []
        meta += {"page": [("prompt_key", page_key)], "none": [], "other": [("prompt_key", "0" * 16)]}[key]
        pairs = pairs + meta
        tokens = seats_tokens(game)
        url_token, whose = pick_token(token, tokens[0], [tokens[1]])
        post = MultiDict(pairs)
        sent = [json.loads(x) if _json(x) else None for x in post.getlist("steps")]
        meaning = oracle(game, sent[0]) if len(sent) == 1 and how in ("json", "long") else Verdict.REFUSE
        if len(set(post.getlist("steps"))) > 1:
            meaning = Verdict.UNSURE if any(oracle(game, s) is Verdict.LEGAL for s in sent) else Verdict.REFUSE
        current = read_currency(post, game.version, page_key, lambda _v: False)
        if whose not in ("own", "own?") or not readable(pairs) or Verdict.REFUSE in (meaning, current):
            verdict = Verdict.REFUSE
        elif meaning is Verdict.LEGAL and current is Verdict.LEGAL and whose == "own":
            verdict = Verdict.LEGAL
        else:
            verdict = Verdict.UNSURE
        repro = f"token={whose} version={game.version} form={[(k, h.short(x, 60)) for k, x in pairs]}"
        seen[verdict] += 1
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, f"{endpoint}/"), pairs, repro, scope)
        if response.status_code >= 500:
            return
        if endpoint == "turn":

            def played() -> str | None:
                mine = list(Event.objects.filter(game=game, seq__gt=game.version).order_by("seq"))
                if [e.payload.get("answer") for e in mine] != sent[0] or any(e.seat != 0 for e in mine):
                    return "the log changed, but not by this seat's steps as sent"
                return None

            judge(findings, Case(name, repro, verdict, expect=f"{len(answers)} steps"), response, before, after, played)
            return
        # the preview: never a write, an answer in words, and nothing the seat may not see
        if before != after:
            findings.add(name, "a preview changed the game", repro)
        body = response.content.decode("utf-8", "replace")
        if leak(body, game):
            findings.add(name, f"a preview told {leak(body, game)}", repro)
        try:
            said = json.loads(body)
        except ValueError:
            if not any(h.in_words(t) for t in told(response)):
                findings.add(name, f"refused without words (status {response.status_code})", repro)
            return
        if said.get("ok"):
            if verdict is Verdict.REFUSE:
                findings.add(name, "a preview of a run that must be refused was drawn", repro)
        else:
            if verdict is Verdict.LEGAL:
                findings.add(name, "a legal, current run was not previewed", repro, said.get("message", ""))
            if not h.in_words(said.get("message", "")):
                findings.add(name, "a refusal without words", repro, str(said)[:200])

    example()
    findings.check()
    assert seen[Verdict.LEGAL] >= 5 and seen[Verdict.REFUSE] >= 10, f"the examples were too one-sided: {seen}"


def _json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def test_the_preview_of_a_round_end_draws_nothing_of_the_next_round(make_game, client) -> None:
    """Ana's last action ends the round (Ben is done): the next round's cards come from the deck,
    so the preview draws no table and names no card the deck still hides."""
    from games.actions import play
    from tests.support.cafe_turns import queued_run

    game = to_play_phase(make_game(title="cafe", seats=PEOPLE, options={"first_master": "first"}))
    play.submit_steps(game.pk, 1, queued_run(game, 1), game.version, via="web")
    game.refresh_from_db()
    run = queued_run(game, 0)
    tokens = seats_tokens(game)
    response = client.post(
        seat_url(tokens[0], "preview/"),
        {"version": game.version, "steps": json.dumps(run)},
    )
    said = response.json()
    assert said["ok"] and said["table"] == "" and said["prompt"] is None, said
    assert "it shows you a card that was hidden" in said["note"], said["note"]
    assert leak(response.content.decode(), game) is None
    assert game.version == Game.objects.get(pk=game.pk).version
