"""The live page's check, fuzzed (beside tests/test_fuzz_endpoints.py, with its harness):
GET /play/<token>/live/?v=<marker> with forged, garbled, expired, replaced and other seats'
tokens, and hostile markers (other scripts' digits, huge numbers, controls, lone surrogates,
repeated fields), while the game moves on and the board fills between requests.

Each request: never a server error; nothing changes (it is a GET, and it writes not even a read
marker); a genuine link with the page's own marker gets 204 and any other readable marker 200
"changed", and nothing else in the body, ever; every refusal is a few words (403 for the link,
400 for a marker no page carries).
"""

from __future__ import annotations

import random
from urllib.parse import quote

import pytest
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from games.actions import organise, play, talk, write
from games.models import Game, Seat
from games.views.live import _MARKER, marker
from tests.support import hostile as h
from tests.support.fuzzing import fuzz
from tests.support.hostile import Verdict
from tests.test_fuzz_endpoints import Findings, Poster, Seats, pick_token, seat_url, token_choice, world

pytestmark = pytest.mark.django_db(transaction=True)

ENDPOINT = "GET /play/<token>/live/"


def marker_plan() -> st.SearchStrategy:
    """The marker sent, as a function of the current one: itself, an older or newer one, its parts
    written oddly, or something no page ever carried (None: no v at all)."""
    return st.one_of(
        st.just(("current", None)),
        st.just(("current", None)),
        st.tuples(st.just("version"), h.version_field()),
        st.tuples(st.just("talk"), st.integers(-2, 2)),
        st.tuples(st.just("status"), st.sampled_from(("draft", "active", "paused", "ended", "Active", "", "x" * 11))),
        st.tuples(st.just("literal"), st.one_of(st.none(), h.any_text(30), st.sampled_from(h.SPECIAL_TEXT))),
        st.tuples(st.just("long"), st.integers(9, 40)),
    )


def sent_marker(plan: tuple, game: Game) -> str | None:
    how, arg = plan
    if how == "current":
        return marker(game.version, game.last_message, game.status)
    if how == "version":
        return f"{arg(game.version)}.{game.last_message}.{game.status}"
    if how == "talk":
        return marker(game.version, game.last_message + arg, game.status)
    if how == "status":
        return marker(game.version, game.last_message, arg)
    if how == "long":
        return f"{'9' * arg}.0.{game.status}"
    return arg


def query(values: list[str | None]) -> str:
    """The query string, byte for byte (lone surrogates sent as their invalid UTF-8)."""
    parts = [f"v={quote(v.encode('utf-8', 'surrogatepass'), safe='')}" for v in values if v is not None]
    return ("?" + "&".join(parts)) if parts else ""


def read_markers(game_pk: int) -> list[tuple]:
    """What a GET must not write, the seats' read markers among it."""
    return list(Seat.objects.filter(game_id=game_pk).order_by("pk").values_list("seen_log", "seen_message"))


def test_the_live_check(make_game, organiser) -> None:
    findings = Findings()
    poster = Poster(findings, ENDPOINT)
    seats = Seats(make_game)
    rng = random.Random("live")
    seen: set[tuple[str, int]] = set()

    def move_on(step: int) -> Game:
        """Between requests the table moves: an answer, a word on the board, or a pause and resume."""
        game = seats.refresh()
        if game.status == Game.Status.ENDED or step == 7:
            game = seats.fresh()
        elif step in (1, 2) and game.status == Game.Status.ACTIVE:
            i = min(game.engine.prompts(game.state))
            play.submit(game.pk, i, game.engine.bot_answer(game.state, i, rng), None, via="web")
        elif step == 3:
            try:
                talk.post_message(seats.seat(rng.randrange(2)), "hello")
            except write.SubmitError:
                pass  # the board's rate limit: the table stays as it is
        elif step == 4 and game.status == Game.Status.ACTIVE:
            organise.pause(game, organiser, "fuzz")
        elif step == 5 and game.status == Game.Status.PAUSED:
            organise.resume(game, organiser, "fuzz")
        return seats.refresh()

    @fuzz(300)
    @given(
        step=st.integers(0, 9),
        token=token_choice(),
        plan=marker_plan(),
        twice=st.one_of(st.none(), marker_plan()),
        expired=st.integers(0, 15),
        replaced=st.integers(0, 20),
    )
    def example(step, token, plan, twice, expired, replaced) -> None:
        game = move_on(step)
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[1], tokens[2]])
        if replaced == 0 and how == "own":
            organise.replace_player(seats.seat(0), f"ana{rng.randrange(10**6)}@example.com", organiser, "fuzz")
            how = "replaced"  # the token in hand is the old one
            game = seats.refresh()
        values = [sent_marker(plan, game)] + ([sent_marker(twice, game)] if twice else [])
        # Django reads the last v of a repeated field; none at all reads as empty
        read = next((v for v in reversed(values) if v is not None), "")
        url = seat_url(url_token, "live/") + query(values)
        current = marker(game.version, game.last_message, game.status)
        readable = bool(_MARKER.fullmatch(read.encode("utf-8", "surrogatepass").decode("utf-8", "replace")))
        if expired == 0:
            how = "expired" if how in ("own", "other") else how
        if how in ("garbled", "expired", "replaced"):
            want = {403}
        elif how == "own?":
            want = {403, 400} if not readable else {403, 200, 204}
        elif not readable:
            want = {400}
        else:
            want = {204} if read == current else {200}
        verdict = Verdict.REFUSE if want <= {400, 403} else Verdict.LEGAL
        repro = f"token={how} v={[h.short(v, 40) for v in values]} current={current}"
        before, marks = world([game.pk]), read_markers(game.pk)
        with override_settings(SEAT_LINK_MAX_AGE=-1 if expired == 0 else 60 * 60 * 24 * 90):
            response = poster.get(url, repro)
        if response.status_code >= 500:
            return
        seen.add((how, response.status_code))
        if world([game.pk]) != before or read_markers(game.pk) != marks:
            findings.add(ENDPOINT, "a check changed something", repro)
        if response.status_code not in want:
            findings.add(ENDPOINT, f"answered {response.status_code}, expected one of {sorted(want)}", repro)
        body = response.content
        if response.status_code in (200, 204) and body not in (b"", b"changed"):
            findings.add(ENDPOINT, "a check carried more than changed / not changed", repro, h.short(body))
        if response.status_code == 204 and body:
            findings.add(ENDPOINT, "a 204 with a body", repro)
        if verdict is Verdict.REFUSE and response.status_code >= 400 and not h.in_words(body.decode("utf-8")):
            findings.add(ENDPOINT, "refused without words", repro, h.short(body))
        if response.cookies:
            findings.add(ENDPOINT, "a check set a cookie", repro)

    example()
    findings.check()
    answered = {status for _, status in seen}
    assert answered >= {200, 204, 400, 403}, f"the fuzz reached every answer: {sorted(seen)}"
    assert {"own", "garbled", "expired", "replaced"} <= {how for how, _ in seen}, sorted(seen)
