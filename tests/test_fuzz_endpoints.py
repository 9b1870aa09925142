"""Issue 12, the class and not the instances: hostile values posted to every POST endpoint.

For each request the harness asserts three things:

1. never a server error (the client turns exceptions into 500 responses, which are counted and
   their traceback kept);
2. a refusal is told in words: a message on the page the request redirects to, a form error,
   or an error page a person can read;
3. nothing changes (the event log, game versions and states, seats, vacations, the board,
   people's preferences) unless the input is legal and current, and a legal, current input
   does change it, as it says.

What an input means is decided by the oracle in tests/support/hostile.py (LEGAL / UNSURE /
REFUSE), checked against the engine (`prompt.validate`) for answers. Problems are collected
rather than raised at the first one, so one run reports every class of failure it meets with
the smallest reproduction it saw; each test fails at its end if it found any.

Run: `.venv/bin/python -m pytest -q tests/test_fuzz_endpoints.py`. Deterministic by default;
FUZZ_SEED=<int> explores other examples, FUZZ_EXAMPLES=<factor> runs that many times more.
"""

from __future__ import annotations

import base64
import json
import random
import time
import traceback
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from email.utils import getaddresses
from pathlib import Path
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo, available_timezones

import pytest
from django.core import mail as django_mail
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from games import links
from games.actions import organise, play, replay, write
from games.admin import GameAdmin
from games.engine import IllegalMove
from games.engine.prompts import prompt_key
from games.forms.new_game import CLOCK_PRESETS
from games.models import DeliveredMail, Event, Game, Message, Notification, Seat, Vacation
from games.titles import get_title
from tests.support import hostile as h
from tests.support.fuzzing import fuzz
from tests.support.hostile import MultiDict, Reading, Verdict
from tests.test_inbound import SECRET, _inbound_settings, postmark_payload
from tests.test_inbound import URL as INBOUND_URL

pytestmark = pytest.mark.django_db(transaction=True)

__all__ = ["_inbound_settings"]  # the inbound tests' settings fixture, reused here (autouse)

ROOT = Path(__file__).resolve().parents[1]
FORM = "application/x-www-form-urlencoded"
PEOPLE = ["ana@example.com", "ben@example.com", None]


# --- counting and reporting --------------------------------------------------------------------


@dataclass
class Tally:
    requests: int = 0
    started: float = field(default_factory=time.monotonic)
    by_endpoint: dict[str, int] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    timings: list[str] = field(default_factory=list)


TALLY = Tally()


@pytest.fixture(scope="module", autouse=True)
def _report_the_count(request) -> Iterator[None]:
    """Print the number of hostile requests and their rate once the module is done."""
    TALLY.started = time.monotonic()
    yield
    took = time.monotonic() - TALLY.started
    lines = [
        f"fuzz: {TALLY.requests} hostile requests in {took:.1f} s ({TALLY.requests / max(took, 1e-9):.0f}/s)",
        *(f"  {n:6d}  {endpoint}" for endpoint, n in sorted(TALLY.by_endpoint.items())),
        "fuzz: per test, in order:",
        *(f"  {t}" for t in TALLY.timings),
        f"fuzz: {len(TALLY.findings)} finding(s)",
        *(f"  - {f}" for f in TALLY.findings),
    ]
    capman = request.config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled():
        print("\n" + "\n".join(lines))


@dataclass
class Finding:
    endpoint: str
    problem: str
    repro: str
    detail: str
    size: int
    count: int = 1


class Findings:
    """Problems met during a test, one per (endpoint, problem), keeping the smallest reproduction."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], Finding] = {}
        self.started, self.requests_at_start = time.monotonic(), TALLY.requests

    def add(self, endpoint: str, problem: str, repro: str, detail: str = "") -> None:
        key = (endpoint, problem)
        old = self.found.get(key)
        if old is None:
            self.found[key] = Finding(endpoint, problem, repro, detail, len(repro))
        else:
            old.count += 1
            if len(repro) < old.size:
                old.repro, old.detail, old.size = repro, detail, len(repro)

    def report(self) -> str:
        return "\n".join(
            f"[{f.endpoint}] {f.problem} (x{f.count})\n    repro: {f.repro}" + (f"\n    {f.detail}" if f.detail else "")
            for f in self.found.values()
        )

    def check(self) -> None:
        took = time.monotonic() - self.started
        TALLY.timings.append(f"{TALLY.requests - self.requests_at_start:6d} requests {took:6.1f} s")
        for f in self.found.values():
            TALLY.findings.append(f"[{f.endpoint}] {f.problem} (x{f.count}): {f.repro}")
        assert not self.found, "the fuzz found problems:\n" + self.report()


def tail_of(exc_info) -> str:
    """The last lines of a server error's traceback: where it failed, and why."""
    if not exc_info:
        return ""
    frames = traceback.extract_tb(exc_info[2])
    ours = [f for f in frames if "/site-packages/" not in f.filename] or frames
    where = ours[-1]
    path = _shown(where.filename)
    return f"{exc_info[0].__name__}: {str(exc_info[1])[:160]} at {path}:{where.lineno} ({where.name})"


def _shown(filename: str) -> str:
    """A traceback's file named from the project's root, as a reader of the test output knows it."""
    return filename.removeprefix(f"{ROOT}/")


def problem_of_500(exc_info) -> str:
    if not exc_info:
        return "server error (500)"
    frames = traceback.extract_tb(exc_info[2])
    ours = [f for f in frames if "/site-packages/" not in f.filename] or frames
    where = ours[-1]
    return f"server error: {exc_info[0].__name__} at {_shown(where.filename)}:{where.lineno}"


class Poster:
    """The test client, counting requests and turning every server error into a finding."""

    def __init__(self, findings: Findings, endpoint: str, client: Client | None = None):
        self.client = client or Client(raise_request_exception=False)
        self.client.raise_request_exception = False
        self.signed_in = client is not None
        self.findings = findings
        self.endpoint = endpoint

    def _count(self) -> None:
        TALLY.requests += 1
        TALLY.by_endpoint[self.endpoint] = TALLY.by_endpoint.get(self.endpoint, 0) + 1

    def _check(self, response: HttpResponse, repro: str) -> HttpResponse:
        if response.status_code >= 500:
            info = getattr(response, "exc_info", None)
            self.findings.add(self.endpoint, problem_of_500(info), repro, tail_of(info))
        return response

    def form(self, url: str, pairs: h.Pairs, repro: str, **extra) -> HttpResponse:
        self._count()
        # messages no page read would pile up; a signed-in organiser keeps the session
        self.client.cookies.pop("messages", None)
        if not self.signed_in:
            self.client.cookies.clear()
        body = h.form_body(pairs)
        return self._check(self.client.generic("POST", url, body, content_type=FORM, **extra), repro)

    def watched(self, url: str, pairs, repro: str, scope: list[int]) -> tuple[Any, HttpResponse, Any]:
        """(the world before, the response, the world after) of one form POST."""
        before = world(scope)
        response = self.form(url, pairs, repro)
        return before, response, world(scope)

    def raw(self, url: str, body: bytes, content_type: str, repro: str, **extra) -> HttpResponse:
        self._count()
        return self._check(self.client.generic("POST", url, body, content_type=content_type, **extra), repro)

    def get(self, url: str, repro: str) -> HttpResponse:
        self._count()
        return self._check(self.client.get(url), repro)


# --- what changed ------------------------------------------------------------------------------


def _rows(sql: str, params: list | tuple = ()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def world(game_ids: list[int] | None = None) -> dict[str, Any]:
    """Everything a request may change (within these games, if given), read in plain SQL to stay cheap:
    the event log, games (version, status, name), seats, vacations, the board, people's preferences."""
    t = {m.__name__: m._meta.db_table for m in (Event, Game, Seat, Vacation, Message, User)}
    if game_ids is None:
        where, params = "1=1", []
    else:
        where, params = f"game_id IN ({','.join(['%s'] * len(game_ids))})", list(game_ids)
    game_where = where.replace("game_id", "id")
    return {
        "events": _rows(f"SELECT COUNT(*), MAX(id) FROM {t['Event']} WHERE {where}", params),
        "games": _rows(
            f"SELECT id, version, status, paused_at, name, title FROM {t['Game']} WHERE {game_where} ORDER BY id",
            params,
        ),
        "seats": _rows(
            f"SELECT id, player_id, is_bot, stand_in, wants_pause, plan, nonce, away_until, deadline"
            f" FROM {t['Seat']} WHERE {where} ORDER BY id",
            params,
        ),
        "vacations": _rows(
            f"SELECT id, seat_id, starts, ends FROM {t['Vacation']} WHERE seat_id IN"
            f" (SELECT id FROM {t['Seat']} WHERE {where}) ORDER BY id",
            params,
        ),
        "messages": _rows(f"SELECT COUNT(*), MAX(id) FROM {t['Message']} WHERE {where}", params),
        "people": _rows(
            f"SELECT id, email, name, email_mode, digest_hour, timezone, unsubscribed, mail_refused_at"
            f" FROM {t['User']} ORDER BY id"
        ),
    }


def changes(before: dict, after: dict) -> list[str]:
    return [k for k in before if before[k] != after[k]]


def messages_of(response: HttpResponse) -> list[tuple[str, str]]:
    """(level, text) of the messages a view queued for the page it redirects to."""
    storage = getattr(getattr(response, "wsgi_request", None), "_messages", None)
    return [(m.level_tag, str(m)) for m in storage] if storage is not None else []


def told(response: HttpResponse) -> list[str]:
    """What the person is told: queued messages on a redirect, else the form errors or the page's text."""
    if response.status_code in (301, 302, 303):
        return [text for _, text in messages_of(response)]
    html = response.content.decode("utf-8", "replace")
    errors = h.error_texts(html)
    if errors:
        return errors
    if response.status_code >= 400:
        return [h.visible_text(html)]
    return []


@dataclass
class Case:
    """One request: where it went, what it carried (for the report), and what it means.

    `noop`: a legal input that leaves everything as it was (it must then say it was done);
    `quiet`: a refusal that need not explain itself (a form shown again, a machine endpoint)."""

    endpoint: str
    repro: str
    verdict: Verdict
    expect: str = ""
    noop: bool = False
    quiet: bool = False


def succeeded(response: HttpResponse) -> bool:
    """A redirect whose messages say it was done (no error among them)."""
    levels = [level for level, _ in messages_of(response)]
    return response.status_code in (301, 302, 303) and "error" not in levels and "warning" not in levels


def judge(
    findings: Findings,
    case: Case,
    response: HttpResponse,
    before: dict,
    after: dict,
    check_change: Callable[[], str | None] | None = None,
) -> None:
    """The three rules, for one request whose meaning is known."""
    if response.status_code >= 500:
        return  # already a finding
    changed = changes(before, after)
    if changed and case.verdict is Verdict.REFUSE:
        findings.add(case.endpoint, f"changed {'+'.join(changed)} on an input that must be refused", case.repro)
    if case.verdict is Verdict.LEGAL and not changed and not (case.noop and succeeded(response)):
        said = " | ".join(told(response))[:200]
        findings.add(
            case.endpoint, f"a legal, current input was not taken ({case.expect})", case.repro, f"said: {said}"
        )
    if changed and check_change is not None:
        problem = check_change()
        if problem:
            findings.add(case.endpoint, problem, case.repro)
    if not changed and not case.quiet and not (case.noop and succeeded(response)):
        words = [t for t in told(response) if h.in_words(t)]
        if not words:
            said = " | ".join(told(response))[:200]
            findings.add(
                case.endpoint,
                f"refused without a message in words (status {response.status_code})",
                case.repro,
                f"said: {said!r}",
            )


# --- tables: games kept at the question being fuzzed --------------------------------------------


def signature(prompt) -> str:
    """A prompt's kind, with its parts' kinds for a composite: composite(order,order)."""
    if prompt.kind == "composite":
        return f"composite({','.join(part.kind for _, part in prompt.parts)})"
    return prompt.kind


class Table:
    """A game of one title with a person asked a question of one kind; a fresh game when needed."""

    def __init__(self, make_game, slug: str, kind: str):
        self.make_game, self.slug, self.kind = make_game, slug, kind
        self.rng = random.Random(f"{slug}:{kind}")
        self.game: Game | None = None
        self.armed: tuple[Game, Seat, Any] | None = None
        self.rewinds = 0
        self.people = {i for i, email in enumerate(PEOPLE) if email}

    def _new(self) -> Game:
        return self.make_game(title=self.slug, seats=PEOPLE)

    def arm(self, max_steps: int = 400) -> tuple[Game, Seat, Any]:
        """The game, the seat asked and its question. Unchanged since last time: the same; moved on
        (a legal answer was played): rewound to that question, as an organiser would; else played on."""
        if self.armed is not None:
            game, seat, prompt = self.armed
            now = Game.objects.filter(pk=game.pk).values_list("version", "status").first()
            if now == (game.version, Game.Status.ACTIVE):
                return self.armed
            if now is not None and now[1] == Game.Status.ACTIVE and self.rewinds < 40:
                try:
                    organise.rewind(Game.objects.get(pk=game.pk), game.version, None, "fuzz: the same question again")
                    self.rewinds += 1
                except write.SubmitError:
                    pass
        self.armed = self._find(max_steps)
        return self.armed

    def _find(self, max_steps: int) -> tuple[Game, Seat, Any]:
        for _ in range(6):
            game = self.game = Game.objects.get(pk=self.game.pk) if self.game else self._new()
            engine = game.engine
            for _ in range(max_steps):
                if game.status != Game.Status.ACTIVE or engine.outcome(game.state):
                    break
                seats = {s.index: s for s in game.seats.select_related("player")}
                prompts = engine.prompts(game.state)
                people = [i for i in sorted(prompts) if i in self.people and not seats[i].stand_in]
                wanted = [i for i in people if signature(prompts[i]) == self.kind]
                if wanted:
                    return game, seats[wanted[0]], prompts[wanted[0]]
                if not people:
                    break
                i = people[0]
                play.submit(
                    game.pk,
                    i,
                    engine.bot_answer(game.state, i, self.rng),
                    game.version,
                    via="web",
                    prompt_key=prompt_key(prompts[i]),
                )
                game = Game.objects.get(pk=game.pk)
            self.game, self.rewinds = None, 0
        raise AssertionError(f"{self.slug} never asked a person a {self.kind} question")


def seat_url(token: str, suffix: str = "") -> str:
    return f"/play/{quote(token.encode('utf-8', 'surrogatepass'), safe='')}/{suffix}"


def token_choice() -> st.SearchStrategy:
    """A plan for the token in the URL: (how, pick, garble); resolved by `pick_token`."""
    return st.tuples(st.sampled_from(("own",) * 8 + ("other", "garbled", "garbled")), st.integers(0, 99), h.garbling())


def pick_token(plan: tuple, genuine: str, others: list[str]) -> tuple[str, str]:
    """(token, how): the seat's own, another seat's (one not asked now), or a garbled one."""
    how, pick, garble = plan
    if how == "other" and others:
        return others[pick % len(others)], how
    if how == "garbled":
        token = garble(genuine)
        return token, ("own" if token == genuine else "own?" if same_signature(token, genuine) else how)
    return genuine, "own"


def same_signature(token: str, genuine: str) -> bool:
    """A garbled token that may still carry the same bytes: only a segment's last base64 character
    differs (its low bits are padding), so the server may rightly accept it."""
    if len(token) != len(genuine) or token == genuine:
        return token == genuine
    diff = [i for i, (a, b) in enumerate(zip(token, genuine, strict=True)) if a != b]
    ends = {i for i, c in enumerate(genuine) if i + 1 == len(genuine) or genuine[i + 1] == ":"}
    return len(diff) == 1 and diff[0] in ends


def readable(pairs: h.Pairs) -> bool:
    """Whether Django reads the body at all (size and field-count limits give a 400 before any view)."""
    from django.conf import settings as django_settings

    return (
        len(h.form_body(pairs)) <= django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        and len(pairs) <= django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    )


# --- the seat's answer: every prompt kind of every title -----------------------------------------


def encode(p: dict, answer: Any, prefix: str = "answer") -> h.Pairs:
    """The form fields a browser posts for this answer (the shapes games/forms/prompts.py renders)."""
    kind = p["kind"]
    if kind == "choose":
        return [(prefix, answer)]
    if kind == "choose_many":
        return [(prefix, a) for a in answer]
    if kind == "number":
        return [(prefix, str(answer))]
    if kind == "order":
        return [(f"{prefix}.{a}", str(i + 1)) for i, a in enumerate(answer)]
    if kind == "composite":
        return [pair for part in p["parts"] for pair in encode(part, answer[part["name"]], f"{prefix}.{part['name']}")]
    raise ValueError(kind)


def _merge(readings: list[Reading]) -> Reading:
    """Repeated fields: a LEGAL reading only when every copy reads the same."""
    if len(readings) == 1:
        return readings[0]
    values = tuple(dict.fromkeys(v for r in readings for v in r.values))
    return Reading(Verdict.UNSURE, values) if values else Reading.refuse()


def read_answer(p: dict, post: MultiDict, prefix: str = "answer") -> Reading:
    """What the posted form means as an answer to the prompt, before the engine judges it."""
    kind = p["kind"]
    ids = [o["id"] for o in p.get("options", [])]
    if kind == "choose":
        values = list(dict.fromkeys(post.getlist(prefix)))
        if len(values) == 1 and values[0] in ids:
            return Reading(Verdict.LEGAL, (values[0],))
        maybe = tuple(dict.fromkeys([v for v in values if v in ids] + [v.strip() for v in values if v.strip() in ids]))
        return Reading(Verdict.UNSURE, maybe) if maybe else Reading.refuse()
    if kind == "choose_many":
        values = post.getlist(prefix)
        deduped = list(dict.fromkeys(values))
        if deduped != values:
            return Reading(Verdict.UNSURE, (tuple(values), tuple(deduped)))
        return Reading(Verdict.LEGAL, (tuple(values),))
    if kind == "number":
        values = list(dict.fromkeys(post.getlist(prefix)))
        if not values:
            return Reading.refuse()
        return _merge([h.read_whole_number(v, p["low"], p["high"]) for v in values])
    if kind == "order":
        fields = []
        for i in ids:
            values = list(dict.fromkeys(post.getlist(f"{prefix}.{i}")))
            if not values:
                return Reading.refuse()
            fields.append(_merge([h.read_whole_number(v, 1, len(ids)) for v in values]))

        def ordered(*ranks: int) -> tuple | None:
            if sorted(ranks) != list(range(1, len(ids) + 1)):
                return None
            return tuple(i for _, i in sorted(zip(ranks, ids, strict=True)))

        return h.combine(fields, ordered)
    if kind == "composite":
        names = [part["name"] for part in p["parts"]]
        parts = [read_answer(part, post, f"{prefix}.{part['name']}") for part in p["parts"]]
        return h.combine(parts, lambda *vs: tuple(zip(names, vs, strict=True)))
    raise ValueError(kind)


def as_answer(p: dict, value: Any) -> Any:
    """An oracle value (hashable tuples) as the JSON answer shape the engine takes."""
    kind = p["kind"]
    if kind in ("choose_many", "order"):
        return list(value)
    if kind == "composite":
        parts = {part["name"]: part for part in p["parts"]}
        return {name: as_answer(parts[name], v) for name, v in value}
    return value


def engine_reading(prompt, reading: Reading) -> Reading:
    """Keep only the readings the engine itself accepts (`prompt.validate`)."""
    p = prompt.to_dict()
    valid = []
    for value in reading.values:
        answer = as_answer(p, value)
        try:
            valid.append(prompt.validate(answer))
        except IllegalMove:
            continue
    if not valid:
        return Reading.refuse()
    if reading.verdict is Verdict.LEGAL and len(valid) == 1:
        return Reading(Verdict.LEGAL, tuple(valid))
    return Reading(Verdict.UNSURE, tuple(valid))


def read_currency(post: MultiDict, version: int, key: str, answered_since: Callable[[int], bool]) -> Verdict:
    """Whether the form is current: LEGAL for the version on the page; UNSURE for an older version
    of the same question (taken by design when the seat has not answered since); REFUSE else."""
    versions = list(dict.fromkeys(post.getlist("version")))
    if not versions:
        return Verdict.REFUSE
    readings = [h.read_whole_number(v) for v in versions]
    values = {v for r in readings for v in r.values}
    if not values:
        return Verdict.REFUSE
    if values == {version}:
        exact = len(readings) == 1 and readings[0].verdict is Verdict.LEGAL
        return Verdict.LEGAL if exact else Verdict.UNSURE
    posted_key = post.get("prompt_key") or ""
    older = [v for v in values if 0 <= v < version and not answered_since(v)]
    if version in values or (older and posted_key and key.startswith(posted_key)):
        return Verdict.UNSURE
    return Verdict.REFUSE


MUTATIONS = ("replace", "replace", "drop", "repeat", "extra", "version", "version", "key", "garbage")


def answer_plan() -> st.SearchStrategy:
    """How to post an answer: as the page would (None), or with one to three hostile changes."""
    value = st.one_of(h.hostile_number(), h.hostile_text())
    mutation = st.tuples(
        st.sampled_from(MUTATIONS),
        st.integers(0, 99),
        value,
        h.version_field(),
        st.one_of(st.none(), st.sampled_from(("first", "eight", "reversed")), h.hostile_text()),
        st.one_of(st.just(""), h.any_text(10), st.sampled_from(("answer.", "answer..", "answer.x", "version"))),
    )
    # one form in ten goes as the page sends it: legal answers must be played too
    return st.tuples(st.integers(0, 9), st.lists(mutation, min_size=1, max_size=3)).map(
        lambda t: t[1] if t[0] else None
    )


def answer_form(plan, p: dict, legal: Any, version: int, key: str) -> h.Pairs:
    """The posted fields: the legal answer as a browser sends it, then the plan's mutations."""
    pairs = encode(p, legal)
    meta: h.Pairs = [("version", str(version)), ("prompt_key", key)]
    names = sorted({k for k, _ in pairs}) or ["answer"]
    for how, at, value, version_of, key_plan, name in plan or ():
        if how == "replace" and pairs:
            i = at % len(pairs)
            pairs[i] = (pairs[i][0], value)
        elif how == "drop" and pairs:
            pairs.pop(at % len(pairs))
        elif how == "repeat":
            pairs.append((names[at % len(names)], value))
        elif how == "extra":
            pairs.append((name, value))
        elif how == "version":
            v = version_of(version)
            meta = [m for m in meta if m[0] != "version"] + ([("version", v)] if v is not None else [])
            if at % 3 == 0:
                meta.append(("version", str(version)))  # the field twice
        elif how == "key":
            k = {"first": key[:1], "eight": key[:8], "reversed": key[::-1]}.get(key_plan, key_plan)
            meta = [m for m in meta if m[0] != "prompt_key"] + ([("prompt_key", k)] if k is not None else [])
        elif how == "garbage":
            pairs = [(names[(at + j) % len(names)], value) for j in range(at % 4)]
    return pairs + meta


ANSWER_PLAN = answer_plan()  # strategies are built once: building them is not free
TOKEN_CHOICE = token_choice()

ANSWER_CASES = [
    ("pebbles", "number"),
    ("pebbles", "choose"),
    ("cafe", "choose"),
    ("cafe_baras", "choose"),
    ("cafe_baras", "choose_many"),
    ("cafe_romantica", "composite(order,order)"),
    ("cafe_romantica", "composite(number,number)"),
    ("cafe_romantica", "choose"),
    ("tanto_cuore_rv", "choose"),
    ("tanto_cuore_rv", "choose_many"),
]


@pytest.mark.parametrize(("slug", "kind"), ANSWER_CASES, ids=[f"{s}-{k}" for s, k in ANSWER_CASES])
def test_answers(make_game, slug: str, kind: str) -> None:
    """POST /play/<token>/: hostile answer forms for one prompt kind of one title."""
    findings = Findings()
    endpoint = f"POST /play/<token>/ {slug} {kind}"
    poster = Poster(findings, endpoint)
    table = Table(make_game, slug, kind)

    @fuzz(55)
    @given(data=st.data())
    def example(data: st.DataObject) -> None:
        game, seat, prompt = table.arm()
        p, key = prompt.to_dict(), prompt_key(prompt)
        legal = prompt.random_answer(random.Random(data.draw(st.integers(0, 2**32), label="legal")))
        pairs = answer_form(data.draw(ANSWER_PLAN, label="form"), p, legal, game.version, key)
        tokens = seats_tokens(game)
        asked = game.engine.prompts(game.state)
        others = [t for i, t in tokens.items() if i not in asked]  # seats not asked now: never theirs to answer
        token, how = pick_token(data.draw(TOKEN_CHOICE, label="token"), tokens[seat.index], others)
        post = MultiDict(pairs)

        def answered_since(v: int) -> bool:
            return Event.objects.filter(game=game, seq__gt=v, seat=seat.index, kind__in=replay.PLAYED).exists()

        meaning = engine_reading(prompt, read_answer(p, post))
        current = read_currency(post, game.version, key, answered_since)
        if how not in ("own", "own?") or not readable(pairs) or Verdict.REFUSE in (meaning.verdict, current):
            verdict = Verdict.REFUSE
        elif meaning.verdict is Verdict.LEGAL and current is Verdict.LEGAL and how == "own":
            verdict = Verdict.LEGAL
        else:
            verdict = Verdict.UNSURE
        repro = f"token={how} version={game.version} form={[(k, h.short(v, 40)) for k, v in pairs]}"
        case = Case(endpoint, repro, verdict, expect=f"answer {h.short(meaning.values[:1], 60)}")

        def recorded() -> str | None:
            first = Event.objects.filter(game=game, seq=game.version + 1).first()
            if first is None or first.kind != Event.Kind.ANSWER or first.seat != seat.index:
                return "the log changed, but not by this seat's answer"
            if first.payload.get("answer") not in list(meaning.values):
                return f"played {h.short(first.payload.get('answer'))}, which the form did not mean"
            return None

        scope = [game.pk]
        before, response, after = poster.watched(seat_url(token), pairs, repro, scope)
        judge(findings, case, response, before, after, recorded)

    example()
    findings.check()


# --- the seat's small controls ---------------------------------------------------------------------


def field_values(post: MultiDict, name: str) -> list[str]:
    return list(dict.fromkeys(post.getlist(name)))


def junk_fields() -> st.SearchStrategy:
    """Fields nobody asked for, with hostile names and values (and the odd known name)."""
    name = st.one_of(h.any_text(12), st.sampled_from(("version", "answer", "text", "agree", "clear", "key", "")))
    return st.lists(st.tuples(name, h.hostile_text()), max_size=3)


class Seats:
    """A started Pebbles game with two people and a bot; tokens read fresh, since links can be revoked."""

    def __init__(self, make_game, title: str = "pebbles"):
        self.make_game, self.title = make_game, title
        self.game = make_game(title=title, seats=PEOPLE)

    def fresh(self) -> Game:
        self.game = self.make_game(title=self.title, seats=PEOPLE)
        return self.game

    def refresh(self) -> Game:
        self.game = Game.objects.get(pk=self.game.pk)
        return self.game

    def seat(self, index: int) -> Seat:
        return Seat.objects.select_related("player", "game").get(game=self.game, index=index)

    def tokens(self) -> dict[int, str]:
        return seats_tokens(self.game)


def dated(plan: tuple, today: date) -> str | None:
    """A date field from a plan: near today (offset days), or a hostile value, or missing (None)."""
    how, offset, value = plan
    if how == "near":
        return (today + timedelta(days=offset)).isoformat()
    return value


def date_plan() -> st.SearchStrategy:
    return st.one_of(
        st.tuples(st.just("near"), st.integers(-3, 20), st.none()),
        st.tuples(st.just("near"), st.integers(-400, 4000), st.none()),
        st.tuples(st.just("hostile"), st.just(0), st.one_of(st.none(), h.hostile_date())),
    )


def test_vacation(make_game, settings) -> None:
    """POST /play/<token>/vacation/: far, impossible and garbled dates; nothing saved unless it is a
    real period in the allowance; every seat's page still opens afterwards."""
    findings = Findings()
    endpoint = "POST /play/<token>/vacation/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)
    Game.objects.filter(pk=seats.game.pk).update(vacation_days=14)

    @fuzz(170)
    @given(
        starts=date_plan(),
        ends=date_plan(),
        twice=st.one_of(st.none(), date_plan()),
        junk=junk_fields(),
        token=token_choice(),
        tz=st.sampled_from(("UTC", "UTC", "Pacific/Kiritimati", "Etc/GMT+12", "America/St_Johns")),
    )
    def example(starts, ends, twice, junk, token, tz) -> None:
        game = seats.refresh()
        Vacation.objects.filter(seat__game=game).delete()  # a fresh allowance for each example
        Seat.objects.filter(game=game).update(away_until=None)
        ana = seats.seat(0)
        User.objects.filter(pk=ana.player_id).update(timezone=tz)
        today = timezone.now().astimezone(ZoneInfo(tz)).date()
        pairs: h.Pairs = [
            (k, v) for k, v in (("starts", dated(starts, today)), ("ends", dated(ends, today))) if v is not None
        ]
        if twice is not None and (v := dated(twice, today)) is not None:
            pairs.append(("ends", v))
        pairs += junk
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[2]])  # the bot's seat takes no vacations
        post = MultiDict(pairs)
        s, e = field_values(post, "starts"), field_values(post, "ends")
        first = h.read_date(s[0]) if len(s) == 1 else None
        last = h.read_date(e[0]) if len(e) == 1 else None
        verdict = Verdict.UNSURE
        if how != "own" or not readable(pairs) or not s or not e:
            verdict = Verdict.REFUSE
        elif first and last:
            days = (last - first).days + 1
            if last < first or last < today - timedelta(days=1) or days > 14:
                verdict = Verdict.REFUSE
            elif first >= today and last <= today + timedelta(days=180):
                verdict = Verdict.LEGAL  # a near, short period ahead: any policy on far dates allows it
        repro = f"token={how} tz={tz} form={[(k, h.short(v, 40)) for k, v in pairs]}"
        case = Case(endpoint, repro, verdict, expect=f"vacation {first}..{last}")
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, "vacation/"), pairs, repro, scope)

        def saved() -> str | None:
            v = Vacation.objects.filter(seat__game=game).order_by("-id").first()
            if v is None:
                return "the log or seats changed, but no vacation was saved"
            if first and last and verdict is Verdict.LEGAL:
                if v.starts.astimezone(ZoneInfo(tz)).date() != first:
                    return "the vacation saved starts on another day than posted"
            return None

        judge(findings, case, response, before, after, saved)
        if changes(before, after):
            for index, t in tokens.items():  # every seat's page must still open with this vacation in it
                page = poster.get(seat_url(t), f"GET seat {index} page after {repro}")
                if page.status_code != 200:
                    findings.add(endpoint, f"seat page answers {page.status_code} after a vacation", repro)

    example()
    findings.check()


INVISIBLE = {"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"}


def talk_reading(text: str | None) -> Verdict:
    """A board message: nothing visible = REFUSE; plain printable text within 2000 = LEGAL; text with
    control or format characters that a cleaner may drop or refuse = UNSURE."""
    if text is None or not text.strip():
        return Verdict.REFUSE
    printable = [c for c in text if c.isprintable()] if len(text) <= 5000 else None
    if printable is None:  # far too long whatever is cleaned away, unless it is almost all controls
        return Verdict.REFUSE if sum(1 for c in text[:3000] if c.isprintable()) > 2000 else Verdict.UNSURE
    if not [c for c in text if unicodedata.category(c) not in INVISIBLE]:
        return Verdict.REFUSE  # nothing but spaces, separators, controls and format characters
    if len(printable) > 2000 and len(text.strip()) > 2000:
        return Verdict.REFUSE
    plain = len(printable) == len(text) - text.count("\n") - text.count("\t") and "\ufffd" not in text
    return Verdict.LEGAL if plain and len(text.strip()) <= 2000 and text == text.strip() else Verdict.UNSURE


def talk_text() -> st.SearchStrategy:
    return st.one_of(
        h.hostile_text(),
        st.text(st.characters(categories=("L", "N", "P", "Zs")), min_size=1, max_size=60).map(str.strip),
        st.sampled_from(("gg", "Nice move, Ana!", "Ça va ? 🙂", "line one\nline two", "a" * 2000, "a" * 2001)),
    )


def stored_text_problem(text: str) -> str | None:
    bad = h.controls_in(text)
    return f"stored text keeps control characters {', '.join(bad[:4])}" if bad else None


def test_talk(make_game) -> None:
    """POST /play/<token>/talk/: hostile text; posted only when it has something to say, and stored
    without control characters (other than newline and tab)."""
    findings = Findings()
    endpoint = "POST /play/<token>/talk/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)

    @fuzz(250)
    @given(text=st.one_of(st.none(), talk_text()), extra=st.one_of(st.none(), talk_text()), token=token_choice())
    def example(text, extra, token) -> None:
        game = seats.game
        # the board's rate limit would refuse legal messages: earlier ones are moved a day back
        Message.objects.filter(game=game).update(created_at=timezone.now() - timedelta(days=1))
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[2]])  # a bot's seat cannot talk
        pairs: h.Pairs = ([("text", text)] if text is not None else []) + (
            [("text", extra)] if extra is not None else []
        )
        post = MultiDict(pairs)
        said = post.get("text")
        verdict = talk_reading(said)
        if how != "own" or not readable(pairs):
            verdict = Verdict.REFUSE
        elif len(field_values(post, "text")) > 1 and verdict is Verdict.LEGAL:
            verdict = Verdict.UNSURE
        repro = f"token={how} form={[(k, h.short(v, 40)) for k, v in pairs]}"
        case = Case(endpoint, repro, verdict, expect="a message on the board")
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, "talk/"), pairs, repro, scope)

        def stored() -> str | None:
            m = Message.objects.filter(game=game).order_by("-id").first()
            if m is None:
                return "changed, but no message on the board"
            if len(m.text) > 2000:
                return f"stored a message of {len(m.text)} characters"
            return stored_text_problem(m.text)

        judge(findings, case, response, before, after, stored)

    example()
    findings.check()


def test_plan(make_game) -> None:
    """POST /play/<token>/plan/: answers left in advance, with stale keys and hostile choices."""
    findings = Findings()
    endpoint = "POST /play/<token>/plan/"
    poster = Poster(findings, endpoint)
    state = {"game": None}
    rng = random.Random(7)

    def upcoming_seat() -> tuple[Game, Seat, Any]:
        """A cafe_baras game where a person not asked now has a next question to plan for."""
        for _ in range(200):
            game = state["game"] = (
                Game.objects.get(pk=state["game"].pk) if state["game"] else make_game(title="cafe_baras", seats=PEOPLE)
            )
            if game.status != Game.Status.ACTIVE:
                state["game"] = None
                continue
            prompts = game.engine.prompts(game.state)
            for i in (0, 1):
                nxt = game.engine.upcoming(game.state, i) if i not in prompts else None
                if nxt is not None and getattr(nxt, "kind", "") == "choose":
                    return game, Seat.objects.select_related("player").get(game=game, index=i), nxt
            asked = [i for i in sorted(prompts) if i in (0, 1)]
            if not asked:
                state["game"] = None
                continue
            i = asked[0]
            play.submit(game.pk, i, game.engine.bot_answer(game.state, i, rng), game.version, via="web")
        raise AssertionError("no seat ever had a question to plan for")

    choice = st.one_of(st.none(), st.integers(0, 9), h.hostile_text())

    @fuzz(130)
    @given(
        clear=st.one_of(st.none(), st.none(), st.sampled_from(("1", "", "yes", "\x00")), h.hostile_text()),
        key=st.one_of(st.just("right"), st.just("right"), st.just("stale"), st.none(), h.hostile_text()),
        first=choice,
        second=choice,
        third=choice,
        junk=junk_fields(),
        token=token_choice(),
    )
    def example(clear, key, first, second, third, junk, token) -> None:
        game, seat, nxt = upcoming_seat()
        ids = [o.id for o in nxt.options]
        Seat.objects.filter(pk=seat.pk).update(plan=[ids[0]])  # something to clear, or to replace
        pairs: h.Pairs = [("clear", clear)] if clear is not None else []
        real_key = prompt_key(nxt)
        if key is not None:
            pairs.append(("key", {"right": real_key, "stale": real_key[::-1]}.get(key, key)))
        picked = []
        for name, value in (("first", first), ("second", second), ("third", third)):
            if value is None:
                continue
            v = (
                ids[value % len(ids)]
                if isinstance(value, int) and value < 7
                else str(value)
                if isinstance(value, int)
                else value
            )
            picked.append((name, v))
        pairs += picked + junk
        tokens = seats_tokens(game)
        url_token, how = pick_token(token, tokens[seat.index], [tokens[2]])
        post = MultiDict(pairs)
        clear_now = bool(post.get("clear"))
        if how != "own" or not readable(pairs):
            verdict, expect = Verdict.REFUSE, None
        elif clear_now:
            verdict, expect = Verdict.LEGAL, []
        else:
            verdict, expect = plan_reading(post, ids, real_key)
        repro = f"token={how} form={[(k, h.short(v, 30)) for k, v in pairs]}"
        case = Case(endpoint, repro, verdict, expect=f"plan {expect}", noop=expect == [ids[0]])
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, "plan/"), pairs, repro, scope)

        def planned() -> str | None:
            now = Seat.objects.get(pk=seat.pk).plan
            if expect is not None and now != expect:
                return f"saved the plan {h.short(now)}, not {expect}"
            return None

        judge(findings, case, response, before, after, planned)

    example()
    findings.check()


_TOKENS: dict[tuple[int, str], str] = {}


def seats_tokens(game: Game) -> dict[int, str]:
    """Each seat's genuine link token (made once per seat and nonce: signing is not free)."""
    out = {}
    for seat in Seat.objects.filter(game=game).only("id", "index", "nonce"):
        key = (seat.pk, seat.nonce)
        if key not in _TOKENS:
            _TOKENS[key] = links.token_for(seat)
        out[seat.index] = _TOKENS[key]
    return out


def plan_reading(post: MultiDict, ids: list[str], key: str) -> tuple[Verdict, list[str] | None]:
    """What a plan form means: the ranked choices, if the key is the current one and each is offered."""
    keys = field_values(post, "key")
    if keys != [key]:
        return Verdict.REFUSE, None
    ranked = []
    for name in ("first", "second", "third"):
        values = field_values(post, name)
        if len(values) > 1:
            return Verdict.UNSURE, None
        value = values[0] if values else ""
        if value and value not in ids:
            return Verdict.REFUSE, None
        ranked.append(value)
    chosen = [r for r in ranked if r]
    if not ranked[0] or len(set(chosen)) != len(chosen) or (ranked[2] and not ranked[1]):
        return Verdict.REFUSE, None
    return Verdict.LEGAL, chosen


def test_undo(make_game) -> None:
    """POST /play/<token>/undo/: the version field, hostile; an undo only while it is allowed."""
    findings = Findings()
    endpoint = "POST /play/<token>/undo/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)

    def armed() -> Game:
        """Ana has just hidden her number and Ben has not: her answer can be taken back."""
        game = seats.refresh()
        if game.status != Game.Status.ACTIVE or game.state["secret"][1] is not None:
            game = seats.fresh()
        if game.state["secret"][0] is None:
            play.submit(game.pk, 0, 1, game.version, via="web")
        return seats.refresh()

    @fuzz(130)
    @given(version=h.version_field(), twice=st.booleans(), junk=junk_fields(), token=token_choice())
    def example(version, twice, junk, token) -> None:
        game = armed()
        v = version(game.version)
        pairs: h.Pairs = ([("version", v)] if v is not None else []) + (
            [("version", str(game.version))] if twice else []
        )
        pairs += junk
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[1], tokens[2]])  # ben has nothing to undo
        post = MultiDict(pairs)
        versions = [h.read_whole_number(x) for x in field_values(post, "version")]
        allowed = not play.undo_refusal(game, seats.seat(0))
        values = {x for r in versions for x in r.values}
        if how != "own" or not readable(pairs) or not allowed or game.version not in values:
            verdict = Verdict.REFUSE
        elif len(versions) == 1 and versions[0].verdict is Verdict.LEGAL:
            verdict = Verdict.LEGAL
        else:
            verdict = Verdict.UNSURE  # written oddly, or the field twice with the right one among them
        repro = f"token={how} version={game.version} form={[(k, h.short(x, 40)) for k, x in pairs]}"
        case = Case(endpoint, repro, verdict, expect="undo")
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, "undo/"), pairs, repro, scope)
        judge(findings, case, response, before, after)

    example()
    findings.check()


def test_take_back(make_game) -> None:
    """POST /play/<token>/take-back/: only a seat a bot stands in for can be taken back."""
    findings = Findings()
    endpoint = "POST /play/<token>/take-back/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)

    @fuzz(110)
    @given(stand_in=st.booleans(), junk=junk_fields(), token=token_choice())
    def example(stand_in, junk, token) -> None:
        game = seats.refresh()
        if game.status != Game.Status.ACTIVE:
            game = seats.fresh()
        ana = seats.seat(0)
        if stand_in and not ana.stand_in:
            organise.hand_to_bot(ana, None, "fuzz: a bot stands in")
        game = seats.refresh()
        ana = seats.seat(0)
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[1], tokens[2]])
        legal = how == "own" and ana.stand_in and game.status == Game.Status.ACTIVE  # the body is never read
        repro = f"token={how} stand_in={ana.stand_in} form={[(k, h.short(x, 30)) for k, x in junk]}"
        case = Case(endpoint, repro, Verdict.LEGAL if legal else Verdict.REFUSE, expect="seat taken back")
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, "take-back/"), junk, repro, scope)
        judge(findings, case, response, before, after)

    example()
    findings.check()


def test_mail_works(make_game) -> None:
    """POST /play/<token>/mail-works/: only the seat's own player clears their address's refusal."""
    from accounts import bounces

    findings = Findings()
    endpoint = "POST /play/<token>/mail-works/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)

    @fuzz(80)
    @given(refused=st.booleans(), junk=junk_fields(), token=token_choice())
    def example(refused, junk, token) -> None:
        game = seats.refresh()
        ana = seats.seat(0)
        User.objects.filter(pk=ana.player_id).update(mail_refused_at=None, mail_refused_reason="")
        if refused:
            bounces.mark_refused(ana.player.email, "550 5.1.1 no such mailbox")
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[1], tokens[2]])
        legal = how == "own" and refused  # the body is never read
        repro = f"token={how} refused={refused} form={[(k, h.short(x, 30)) for k, x in junk]}"
        case = Case(endpoint, repro, Verdict.LEGAL if legal else Verdict.REFUSE, expect="address cleared")
        before, response, after = poster.watched(seat_url(url_token, "mail-works/"), junk, repro, [game.pk])
        judge(findings, case, response, before, after)

    example()
    findings.check()


def test_pause_vote(make_game) -> None:
    """POST /play/<token>/pause/: `agree` in every shape; the game pauses only when every person agrees."""
    findings = Findings()
    endpoint = "POST /play/<token>/pause/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)

    @fuzz(160)
    @given(
        agree=st.one_of(
            st.none(),
            st.just("yes"),
            st.just("yes"),
            st.just("no"),
            st.sampled_from(("YES", " yes", "yes\x00", "1", "on")),
            h.hostile_text(),
        ),
        mine=st.booleans(),
        bens=st.booleans(),
        junk=junk_fields(),
        token=token_choice(),
    )
    def example(agree, mine, bens, junk, token) -> None:
        game = seats.refresh()
        if game.status == Game.Status.PAUSED:
            organise.resume(game, None, "fuzz: go on")
        elif game.status != Game.Status.ACTIVE:
            seats.fresh()
        game = seats.refresh()
        Seat.objects.filter(game=game, index=0).update(wants_pause=mine)
        Seat.objects.filter(game=game, index=1).update(wants_pause=bens)
        pairs: h.Pairs = ([("agree", agree)] if agree is not None else []) + junk
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[2]])  # a bot's seat has no vote
        post = MultiDict(pairs)
        values = field_values(post, "agree")
        yes = values == ["yes"]
        exact = yes or not values or all(v.strip().lower() not in ("yes", "y", "1", "on", "true") for v in values)
        if how != "own" or not readable(pairs):
            verdict = Verdict.REFUSE
        else:
            verdict = Verdict.LEGAL if exact else Verdict.UNSURE
        repro = f"token={how} mine={mine} bens={bens} form={[(k, h.short(x, 30)) for k, x in pairs]}"
        case = Case(
            endpoint, repro, verdict, expect=f"vote {'yes' if yes else 'no'}", noop=mine == yes and not (yes and bens)
        )
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, "pause/"), pairs, repro, scope)

        def voted() -> str | None:
            g = Game.objects.get(pk=game.pk)
            if verdict is Verdict.LEGAL:
                paused = g.status == Game.Status.PAUSED  # pausing clears every vote
                if not paused and Seat.objects.get(game=game, index=0).wants_pause != yes:
                    return f"the vote saved is not {yes}"
                if (g.status == Game.Status.PAUSED) != (yes and bens):
                    return f"the game is {g.status} after every person's vote was yes={yes and bens}"
            return None

        judge(findings, case, response, before, after, voted)

    example()
    findings.check()


def test_fresh_link(make_game, settings) -> None:
    """POST /play/<token>/fresh-link/: only a genuine, expired link mails a fresh one, to its own seat."""
    findings = Findings()
    endpoint = "POST /play/<token>/fresh-link/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)
    max_age = settings.SEAT_LINK_MAX_AGE

    @fuzz(200)
    @given(expired=st.booleans(), junk=junk_fields(), token=token_choice(), which=st.integers(0, 2))
    def example(expired, junk, token, which) -> None:
        settings.SEAT_LINK_MAX_AGE = -1 if expired else max_age
        game = seats.game
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[which], [])
        mails = Notification.objects.count()
        repro = f"token={how} seat={which} expired={expired}"
        scope = [game.pk]
        before, response, after = poster.watched(seat_url(url_token, "fresh-link/"), junk, repro, scope)
        sent = Notification.objects.filter(kind=Notification.Kind.FRESH_LINK).order_by("-id")[
            : Notification.objects.count() - mails
        ]
        case = Case(endpoint, repro, Verdict.REFUSE, quiet=how == "own")  # a page of its own, checked below
        judge(findings, case, response, before, after)
        if how != "own" or not expired or which == 2:
            if Notification.objects.count() != mails:
                findings.add(endpoint, "mailed on a link that is not a genuine expired person's link", repro)
        else:
            if not any(n.recipient == seats.seat(which).player.email for n in sent):
                findings.add(endpoint, "no fresh link mailed to the seat's own address", repro)
        if response.status_code != 302 and not h.in_words(h.visible_text(response.content.decode("utf-8", "replace"))):
            findings.add(endpoint, "the page says nothing in words", repro)

    example()
    settings.SEAT_LINK_MAX_AGE = max_age
    findings.check()


# --- mail preferences and unsubscribing ----------------------------------------------------------

ZONES = frozenset(available_timezones())  # walking the tz database is slow: once
TIMEZONES = ("UTC", "Europe/Lisbon", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Etc/GMT-14")
BASELINE = {"name": "Ana", "email_mode": "each", "digest_hour": 8, "timezone": "UTC", "unsubscribed": False}


def preference_reading(post: MultiDict) -> tuple[Verdict, dict[str, tuple]]:
    """What a preferences form means, field by field: the values each could be saved as."""
    fields: dict[str, tuple] = {}
    verdicts = []

    def one(name: str) -> str | None:
        values = field_values(post, name)
        if len(values) > 1:
            verdicts.append(Verdict.UNSURE)
        return post.get(name)

    name = one("name") or ""
    if "\x00" in name or len(name.strip()) > 80:
        verdicts.append(Verdict.REFUSE)
    else:
        clean = all(c.isprintable() for c in name) and "\ufffd" not in name
        verdicts.append(Verdict.LEGAL if clean else Verdict.UNSURE)
    fields["name"] = (name.strip(),) if verdicts[-1] is Verdict.LEGAL else ()
    mode = one("email_mode")
    verdicts.append(Verdict.LEGAL if mode in ("each", "digest") else Verdict.REFUSE)
    fields["email_mode"] = (mode,)
    hour = h.read_whole_number(one("digest_hour") or "", 0, 23)
    verdicts.append(hour.verdict)
    fields["digest_hour"] = hour.values
    tz = one("timezone") or ""
    if tz in ZONES:
        verdicts.append(Verdict.LEGAL)
    elif tz.strip() in ZONES or (len(tz) <= 64 and tz.isprintable() and "/" in tz):
        verdicts.append(Verdict.UNSURE)
    else:
        verdicts.append(Verdict.REFUSE)
    fields["timezone"] = (tz.strip(),)
    unsub = one("unsubscribed")
    if unsub in (None, "", "false", "0"):
        fields["unsubscribed"] = (False,)
        verdicts.append(Verdict.LEGAL)
    elif unsub == "on":
        fields["unsubscribed"] = (True,)
        verdicts.append(Verdict.LEGAL)
    else:
        fields["unsubscribed"] = (True, False)
        verdicts.append(Verdict.UNSURE)
    if Verdict.REFUSE in verdicts:
        return Verdict.REFUSE, fields
    return (Verdict.LEGAL if all(v is Verdict.LEGAL for v in verdicts) else Verdict.UNSURE), fields


def preference_fields() -> tuple[dict, dict]:
    """(legal, hostile) strategies per field of a preferences form (a seat's settings, the profile)."""
    legal = {
        "name": st.sampled_from(("Ana", "Ana Lima", "Zoë", "")),
        "email_mode": st.sampled_from(("each", "digest")),
        "digest_hour": st.integers(0, 23).map(str),
        "timezone": st.sampled_from(TIMEZONES),
        "unsubscribed": st.sampled_from(("", "on")),
    }
    hostile = {
        "name": st.one_of(h.hostile_text(), st.just("a" * 81)),
        "email_mode": st.one_of(st.sampled_from(("EACH", " each", "never", "")), h.hostile_text()),
        "digest_hour": h.hostile_number(),
        "timezone": st.one_of(
            st.sampled_from(("utc", " UTC", "Europe/../UTC", "../../etc/passwd", "Mars/Base")), h.hostile_text()
        ),
        "unsubscribed": h.hostile_text(),
    }
    return legal, hostile


def test_settings(make_game) -> None:
    """POST /play/<token>/settings/: name, email mode, digest hour, timezone, unsubscribed, all hostile."""
    findings = Findings()
    endpoint = "POST /play/<token>/settings/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)
    legal, hostile = preference_fields()

    @fuzz(210)
    @given(
        plan=st.fixed_dictionaries(
            {k: st.one_of(st.none(), legal[k], legal[k], hostile[k]) for k in legal}  # None: the field is missing
        ),
        repeat=st.one_of(st.none(), st.tuples(st.sampled_from(sorted(legal)), h.hostile_text())),
        token=token_choice(),
    )
    def example(plan, repeat, token) -> None:
        game = seats.game
        User.objects.filter(email="ana@example.com").update(**BASELINE)
        pairs: h.Pairs = [(k, v) for k, v in plan.items() if v is not None]
        if repeat is not None:
            pairs.append(repeat)
        tokens = seats.tokens()
        url_token, how = pick_token(token, tokens[0], [tokens[1]])
        post = MultiDict(pairs)
        verdict, fields = preference_reading(post)
        if how != "own" or not readable(pairs):
            verdict = Verdict.REFUSE
        expected = {k: v[0] for k, v in fields.items() if v} if verdict is Verdict.LEGAL else None
        noop = expected == BASELINE
        repro = f"token={how} form={[(k, h.short(v, 40)) for k, v in pairs]}"
        case = Case(endpoint, repro, verdict, expect=f"save {expected}", noop=noop)
        before, response, after = poster.watched(seat_url(url_token, "settings/"), pairs, repro, [game.pk])

        def saved() -> str | None:
            user = User.objects.get(email="ana@example.com")
            for name, allowed in fields.items():
                if allowed and getattr(user, name) not in allowed:
                    return f"saved {name}={h.short(getattr(user, name))}, which the form did not mean"
            return stored_text_problem(user.name)

        judge(findings, case, response, before, after, saved)

    example()
    findings.check()


def test_unsubscribe(make_game) -> None:
    """POST /unsubscribe/<token>/: only a genuine token unsubscribes its own person."""
    findings = Findings()
    endpoint = "POST /unsubscribe/<token>/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)
    ana = User.objects.get(email="ana@example.com")
    genuine = links.unsubscribe_url(ana.pk).rstrip("/").rsplit("/", 1)[1]
    seat_token = seats.tokens()[0]  # a genuine signature, for another purpose

    @fuzz(270)
    @given(
        how=st.sampled_from(("own", "own", "seat-token", "garbled", "garbled")), garble=h.garbling(), junk=junk_fields()
    )
    def example(how, garble, junk) -> None:
        User.objects.filter(pk=ana.pk).update(unsubscribed=False)
        token = {"own": genuine, "seat-token": seat_token}.get(how) or garble(genuine)
        how = "own" if token == genuine else "own?" if same_signature(token, genuine) else how
        repro = f"token={how} {h.short(token, 60)}"
        legal = how == "own"  # the view never reads the body, so its size does not matter
        verdict = Verdict.LEGAL if legal else Verdict.UNSURE if how == "own?" else Verdict.REFUSE
        case = Case(endpoint, repro, verdict, expect="unsubscribed")
        before, response, after = poster.watched(
            f"/unsubscribe/{quote(token.encode('utf-8', 'surrogatepass'), safe='')}/", junk, repro, [seats.game.pk]
        )
        judge(findings, case, response, before, after)

    example()
    findings.check()


# --- the embedded outbox: each person their own mail ------------------------------------------------

OUTBOX_TO = (
    "ana@example.com",
    "ANA@Example.com",
    "Ana Lima <ana@example.com>",
    "ana@example.com, ben@example.com",
    "ben@example.com",
    "hana@example.com",
    "ana@example.com.evil.org",
    '"ana@example.com" <eve@example.org>',
    "eve@example.org, ana@example.comx",
)


def test_outbox_shows_each_person_only_their_own_mail(settings, organiser) -> None:
    """GET /outbox/, /outbox/<pk>/ and /outbox/<pk>/html/ as nobody, as ana, as ben, as an organiser:
    a message shows only to an organiser or to a person it was sent to; every other request (another's,
    a missing or hostile id) shows none of it and no server error."""
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    findings = Findings()
    endpoint = "GET /outbox/"
    mails = [
        DeliveredMail.objects.create(
            to=to, subject=f"Subject {i}", body_text=f"text-{i}-secret", body_html=f"<p>html-{i}-secret</p>"
        )
        for i, to in enumerate(OUTBOX_TO)
    ]
    people = {"ana": "ana@example.com", "ben": "ben@example.com"}
    clients: dict[str, Client] = {"nobody": Client(raise_request_exception=False), "organiser": staff(organiser)}
    for who, address in people.items():
        clients[who] = Client(raise_request_exception=False)
        clients[who].force_login(User.objects.for_email(address))
    allowed = {
        "nobody": set(),
        "organiser": set(range(len(mails))),
        # the addresses each message went to, read strictly (a display name is not an address)
        "ana": {0, 1, 2, 3},
        "ben": {3, 4},
    }

    @fuzz(160)
    @given(
        who=st.sampled_from(sorted(clients)),
        page=st.sampled_from(("list", "mail", "html")),
        target=st.one_of(st.integers(0, len(mails) - 1), st.integers(0, len(mails) - 1), h.hostile_number()),
    )
    def example(who, page, target) -> None:
        poster = Poster(findings, endpoint, clients[who])
        known = isinstance(target, int)
        pk = mails[target].pk if known else quote(str(target).encode("utf-8", "surrogatepass"), safe="")
        url = "/outbox/" if page == "list" else f"/outbox/{pk}/" + ("html/" if page == "html" else "")
        repro = f"{who} GET {url}" + (f" (to {OUTBOX_TO[target]!r})" if known else "")
        response = poster.get(url, repro)
        if response.status_code >= 500:
            return
        shown = response.content.decode(errors="replace") if response.status_code == 200 else ""
        for i in range(len(mails)):
            seen = f"Subject {i}<" in shown or f"text-{i}-secret" in shown or f"html-{i}-secret" in shown
            if seen and i not in allowed[who]:
                findings.add(endpoint, f"showed {who} a message sent to {OUTBOX_TO[i]!r}", repro)
        if page != "list" and known and target in allowed[who] and response.status_code != 200:
            findings.add(endpoint, f"refused {who} their own message ({response.status_code})", repro)
        if page == "list" and who != "nobody":
            missing = [i for i in allowed[who] if f"Subject {i}<" not in shown]
            if missing:
                findings.add(endpoint, f"the list left out {who}'s own messages {missing}", repro)

    example()
    findings.check()


# --- organisers: a new game, starting it, and the admin's actions -----------------------------------


def staff(organiser) -> Client:
    from django.contrib.auth.models import Permission

    organiser.user_permissions.set(
        Permission.objects.filter(codename__in=["view_game", "change_game", "add_game", "view_event"])
    )
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    return client


def seats_text() -> st.SearchStrategy:
    line = st.one_of(
        st.sampled_from(
            ("ana@example.com", "ben@example.com", "cy@example.org", "bot", "BOT", " bot ", "open", "Open")
        ),
        st.sampled_from(("ana@@example.com", "ana@example", "@example.com", "ana example.com", "ANA@EXAMPLE.COM")),
        st.sampled_from(("ana+tag@example.com", "ünï@exämple.com", '"a b"@example.com', "a" * 300 + "@example.com")),
        h.hostile_text(),
    )
    return st.lists(line, max_size=8).map("\n".join)


def seats_reading(text: str, slug: str) -> Verdict:
    """The seats box: one line per seat, an email address or 'bot'; at least one person, nobody twice."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    emails, plain = [], True
    opened = any(ln.lower() == "open" for ln in lines)
    for ln in lines:
        if ln.lower() in ("bot", "open"):
            continue
        try:
            validate_email(ln)
        except ValidationError:
            return Verdict.REFUSE
        emails.append(ln.lower())
        plain = plain and ln.isascii()
    try:
        title = get_title(slug)
    except KeyError:
        return Verdict.REFUSE
    if (
        (not emails and not opened)
        or len(set(emails)) != len(emails)
        or not title.min_players <= len(lines) <= title.max_players
    ):
        return Verdict.REFUSE
    return Verdict.LEGAL if plain and text.isascii() and "\r" not in text else Verdict.UNSURE


CLOCK_LEGAL = {
    "decision_hours": st.sampled_from(("", "24", "48")),
    "decision_minutes": st.just(""),
    "daily_deadline": st.sampled_from(("", "20:00")),
    "timezone": st.sampled_from(("", "UTC", "Europe/Lisbon")),
    "reminder_hours": st.just(""),
    "reminder_minutes": st.just(""),
    "timeout_policy": st.sampled_from(("", "default", "bot")),
    "bot_after_misses": st.sampled_from(("", "2")),
    "vacation_days": st.sampled_from(("", "14")),
    # a preset sets the other clock fields (the timezone and vacation days stay as posted)
    "clock_preset": st.sampled_from(("", "", "day", "three_days", "bank", "quick")),
}
PRESETS_POSTED = {"", "day", "three_days", "bank", "quick"}


def test_new_game_and_start(make_game, organiser) -> None:
    """POST /games/new/ (title, name, seats, the title's options, the clock), then POST /games/<pk>/start/
    on whatever was created: nothing created from a bad form, and a created game starts or says why."""
    from games.titles import slugs

    findings = Findings()
    endpoint = "POST /games/new/"
    poster = Poster(findings, endpoint, staff(organiser))
    starter = Poster(findings, "POST /games/<pk>/start/", poster.client)
    titles = ["pebbles", *slugs()]
    clock_hostile = st.one_of(
        h.hostile_number(), st.sampled_from(("25:00", "24:00", "-1:00", "20:00:00.5", "9" * 30)), h.hostile_text()
    )

    @fuzz(100)
    @given(
        title=st.one_of(st.sampled_from(titles), st.sampled_from(titles), h.hostile_text()),
        name=st.one_of(st.just("Friday table"), st.just("Friday table"), h.hostile_text(), st.just("n" * 101)),
        seats=st.one_of(st.just("ana@example.com\nbot"), st.just("ana@example.com\nben@example.com"), seats_text()),
        options=st.lists(
            st.tuples(
                st.integers(0, 40),
                st.one_of(st.sampled_from(("on", "", "0", "500", "501", "random", "first")), h.hostile_number()),
            ),
            max_size=3,
        ),
        clock=st.fixed_dictionaries({k: st.one_of(v, v, v, clock_hostile) for k, v in CLOCK_LEGAL.items()}),
        junk=junk_fields(),
    )
    def example(title, name, seats, options, clock, junk) -> None:
        pairs: h.Pairs = [("title", title), ("name", name), ("seats", seats)]
        try:
            schema = get_title(title).options_schema
        except KeyError:
            schema = []
        for f in schema:  # each option at its default, then some hostile ones
            if f.kind == "bool":
                pairs += [(f"opt_{f.name}", "on")] if f.default else []
            else:
                pairs.append((f"opt_{f.name}", str(f.default)))
        hostile_options = bool(options) and bool(schema)
        for at, value in options:
            if schema:
                pairs.append((f"opt_{schema[at % len(schema)].name}", value))
        pairs += [(k, v) for k, v in clock.items()] + junk
        post = MultiDict(pairs)
        bad_name = not (name.strip() and len(name.strip()) <= 100 and "\x00" not in name)
        legal_clock = all(
            v in {"", "24", "48", "20:00", "UTC", "Europe/Lisbon", "default", "bot", "2", "14", *PRESETS_POSTED}
            for v in clock.values()
        )
        bad_preset = clock["clock_preset"] not in PRESETS_POSTED  # a ChoiceField: exactly one of the presets
        if (
            title not in titles
            or bad_name
            or bad_preset
            or seats_reading(seats, title) is Verdict.REFUSE
            or not readable(pairs)
        ):
            verdict = Verdict.REFUSE
        elif (
            legal_clock
            and not hostile_options
            and not junk
            and name.isascii()
            and seats_reading(seats, title) is Verdict.LEGAL
            and len(field_values(post, "title")) == 1
            and not (clock["decision_hours"] and clock["daily_deadline"])
        ):
            verdict = Verdict.LEGAL
        else:
            verdict = Verdict.UNSURE
        repro = f"form={[(k, h.short(v, 40)) for k, v in pairs if v]}"
        case = Case(endpoint, repro, verdict, expect="a new game")
        last = Game.objects.order_by("-id").values_list("id", flat=True).first() or 0
        before = world([last])
        games_before = Game.objects.count()
        response = poster.form("/games/new/", pairs, repro)
        after = world([last])
        created = Game.objects.filter(id__gt=last).first()
        if created is not None:
            after = {**after, "games": after["games"] + [("new", created.pk)]}
        if verdict is not Verdict.REFUSE and created is None and response.status_code == 302:
            findings.add(endpoint, "redirected as if created, but no game was made", repro)

        def made() -> str | None:
            if Game.objects.count() != games_before + 1:
                return f"{Game.objects.count() - games_before} games made by one form"
            preset = CLOCK_PRESETS.get(clock["clock_preset"])
            if preset is not None:
                differs = [k for k, v in preset[1].items() if getattr(created, k) != v]
                if differs:
                    return f"the preset {clock['clock_preset']} did not set {differs}"
            return stored_text_problem(created.name)

        judge(findings, case, response, before, after, made)
        if created is not None:
            start_repro = f"start after {repro}"
            before = world([created.pk])
            r = starter.form(f"/games/{created.pk}/start/", [], start_repro)
            if r.status_code < 500:
                started = Game.objects.get(pk=created.pk).status == Game.Status.ACTIVE
                if not started and not any(h.in_words(t) for _, t in messages_of(r)):
                    findings.add("POST /games/<pk>/start/", "not started, and no message in words", start_repro)
                for t in seats_tokens(created).values():  # every seat's page opens on the new game
                    page = starter.get(seat_url(t), f"GET seat page of {start_repro}")
                    if page.status_code != 200:
                        findings.add(
                            "GET /play/<token>/", f"seat page answers {page.status_code} on a new game", start_repro
                        )
                        break
            Game.objects.filter(pk=created.pk).delete()  # keep the table small for the next examples

    example()
    findings.check()


ADMIN_ACTIONS = tuple(GameAdmin.actions)


def reason_reading(post: MultiDict) -> Verdict:
    values = field_values(post, "reason")
    if len(values) != 1:
        return Verdict.REFUSE if not values else Verdict.UNSURE
    r = values[0]
    if not [c for c in r if unicodedata.category(c) not in INVISIBLE] or len(r.strip()) > 300 + len(r) - len(
        [c for c in r if c.isprintable()]
    ):
        return Verdict.REFUSE
    return Verdict.LEGAL if all(c.isprintable() for c in r) and "\ufffd" not in r else Verdict.UNSURE


def hours_reading(raw: str | None) -> Verdict:
    import math
    import re

    if raw is None:
        return Verdict.REFUSE
    if re.fullmatch(r"[0-9]{1,4}(\.[0-9]{1,4})?", raw.strip()) and raw == raw.strip():
        return Verdict.LEGAL if 0.25 <= float(raw) <= 720 else Verdict.REFUSE
    try:
        value = float(raw)
    except (ValueError, OverflowError):
        return Verdict.REFUSE
    return Verdict.UNSURE if math.isfinite(value) and 0.25 <= value <= 720 else Verdict.REFUSE


def test_admin_actions(make_game, organiser) -> None:
    """POST /admin/games/game/ (the changelist's actions, and the change page's): every organiser action
    with a hostile reason, hours, seat, email, step and selection; it acts only when it may."""
    from games.host_actions import rewind_steps

    findings = Findings()
    endpoint = "POST /admin/games/game/ (actions)"
    poster = Poster(findings, endpoint, staff(organiser))
    state: dict[str, Game | None] = {"game": None}

    def armed() -> Game:
        game = Game.objects.filter(pk=state["game"].pk).first() if state["game"] else None
        if game is None or game.status == Game.Status.ENDED:
            game = make_game(start=False, seats=PEOPLE)
            Game.objects.filter(pk=game.pk).update(decision_hours=24)
            organise.start_game(game)
        state["game"] = Game.objects.get(pk=game.pk)
        return state["game"]

    text = st.one_of(st.just("tea break"), st.just("tea break"), h.hostile_text(), st.just("r" * 301))

    @fuzz(170)
    @given(
        action=st.one_of(st.sampled_from(ADMIN_ACTIONS), st.sampled_from(ADMIN_ACTIONS), h.hostile_text()),
        on_page=st.booleans(),
        apply=st.sampled_from(("1", "1", "1", None)),
        selected=st.one_of(
            st.just("game"),
            st.just("game"),
            st.sampled_from(("", "0", "-1", "abc", "1e3", "9" * 30, "9" * 5000)),
            h.hostile_number(),
        ),
        reason=st.one_of(st.none(), text),
        hours=st.one_of(
            st.none(),
            st.sampled_from(("24", "0.25", "720", "721", "0.1", "1e2", "nan", "inf", "-1")),
            h.hostile_number(),
        ),
        seat=st.one_of(st.none(), st.integers(0, 3).map(str), h.hostile_number()),
        email=st.one_of(
            st.none(), st.sampled_from(("cy@example.org", "ben@example.com", "no-at-sign", "a@b")), h.hostile_text()
        ),
        step=st.one_of(st.none(), st.just("valid"), st.integers(-2, 12).map(str), h.hostile_number()),
        pause_first=st.booleans(),
    )
    def example(action, on_page, apply, selected, reason, hours, seat, email, step, pause_first) -> None:
        game = armed()
        if pause_first and game.status == Game.Status.ACTIVE and action == "resume_games":
            organise.pause(game, organiser, "fuzz: paused to resume")
            game = armed()
        steps = [s for s, _ in rewind_steps(game)]
        step_value = steps[0] if step == "valid" and steps else (None if step == "valid" else step)
        field = "CHANGE_FORM-action" if on_page else "action"
        pairs: h.Pairs = [(field, action), ("index", "0")]
        pairs.append(("_selected_action", str(game.pk) if selected == "game" else selected))
        for name, value in (
            ("apply", apply),
            ("reason", reason),
            ("hours", hours),
            ("seat", seat),
            ("email", email),
            ("step", step_value),
        ):
            if value is not None:
                pairs.append((name, value))
        post = MultiDict(pairs)
        url = f"/admin/games/game/{game.pk}/change/" if on_page else "/admin/games/game/"
        seats_now = {s.index: s for s in Seat.objects.filter(game=game).select_related("player")}
        ok_seat = seat is not None and seat in {str(i) for i in seats_now}
        person = ok_seat and seats_now[int(seat)].player_id is not None and not seats_now[int(seat)].is_bot
        verdict = Verdict.UNSURE
        quiet = False
        if not readable(pairs) or selected != "game" or action not in ADMIN_ACTIONS:
            verdict = Verdict.REFUSE
        elif action == "start_games":
            verdict = Verdict.REFUSE  # the game has started already
        elif apply is None:
            verdict, quiet = Verdict.REFUSE, True  # the action's own page, asking why
        elif reason_reading(post) is Verdict.REFUSE:
            verdict = Verdict.REFUSE
        else:
            legal_reason = reason_reading(post) is Verdict.LEGAL
            if action == "pause_games":
                verdict = Verdict.LEGAL if game.status == Game.Status.ACTIVE else Verdict.REFUSE
            elif action == "resume_games":
                verdict = Verdict.LEGAL if game.status == Game.Status.PAUSED else Verdict.REFUSE
            elif action == "end_games":
                verdict = Verdict.LEGAL
            elif action == "extend_deadlines":
                deadlines = {str(i) for i, s in seats_now.items() if s.deadline}
                hv = hours_reading(hours)
                if hv is Verdict.REFUSE or (seat not in (None, "") and seat not in deadlines) or not deadlines:
                    verdict = Verdict.REFUSE
                else:
                    verdict = hv
            elif action == "resend_last":
                asked = game.engine.prompts(game.state) if game.state else {}
                if not person:
                    verdict = Verdict.REFUSE
                else:
                    verdict = Verdict.LEGAL if int(seat) in asked else Verdict.REFUSE
            elif action == "replace_player":
                from django.core.validators import validate_email

                try:
                    validate_email((email or "").strip())
                    good_email = email is not None and email.isascii() and email == email.strip()
                except Exception:  # noqa: BLE001 - any refusal of the address
                    good_email = None
                if not ok_seat or good_email is None or email is None:
                    verdict = Verdict.REFUSE
                else:
                    verdict = Verdict.UNSURE  # the same person twice at a table, a finished game: the service says
            elif action == "hand_to_bot":
                verdict = Verdict.LEGAL if person else Verdict.REFUSE
            elif action == "rewind_game":
                verdict = Verdict.LEGAL if step_value in steps and step_value is not None else Verdict.REFUSE
            if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED) and action != "start_games":
                verdict = Verdict.UNSURE if verdict is not Verdict.REFUSE else verdict
            if verdict is Verdict.LEGAL and (not legal_reason or len(field_values(post, field)) != 1):
                verdict = Verdict.UNSURE
            for name in ("hours", "seat", "email", "step"):
                if verdict is Verdict.LEGAL and len(field_values(post, name)) > 1:
                    verdict = Verdict.UNSURE
        if apply is None and verdict is Verdict.REFUSE:
            quiet = True  # no "apply": the action's own page asks why, whatever else the form holds
        repro = f"{url} form={[(k, h.short(v, 40)) for k, v in pairs]} status={game.status}"
        case = Case(endpoint, repro, verdict, expect=action, quiet=quiet)
        before, response, after = poster.watched(url, pairs, repro, [game.pk])
        if response.status_code == 200 and apply and verdict is Verdict.REFUSE and not told(response):
            pass  # judged below: a form shown again must say what is wrong
        judge(findings, case, response, before, after)

    example()
    findings.check()


# --- replies by email: the inbound webhook -------------------------------------------------------


def reply_body_plan() -> st.SearchStrategy:
    """The reply's text: the legal answer on the first line (as a mail program quotes it), or hostile text."""
    quoted = "\n\nOn Tue, 5 May 2026 at 10:00, Café turns <turns@example.org> wrote:\n> Hide a secret number\n"
    return st.one_of(
        st.tuples(
            st.just("legal"), st.sampled_from(("{}", "{}\n", "  {}  " + quoted, "{}" + quoted, "{}\r\n-- \nAna"))
        ),
        st.tuples(st.just("hostile"), h.hostile_text()),
        st.tuples(st.just("hostile"), st.sampled_from(("", " ", "> 2", quoted, "2\x00", "²", "③", "٣", "--3", "1e9"))),
    )


def reply_candidates(texts: list[str]) -> bool:
    """Whether any line of the reply could be read as an answer or a message (ASCII digits, a letter)."""
    return any(any(c.isalnum() for c in t) for t in texts)


def test_inbound_replies(make_game, settings) -> None:
    """POST /anymail/postmark/inbound/: replies with hostile bodies, addresses (forged, at other domains,
    garbled), senders, encodings, sizes, wrong JSON types and non-JSON bodies."""
    findings = Findings()
    endpoint = "POST /anymail/postmark/inbound/"
    poster = Poster(findings, endpoint)
    seats = Seats(make_game)
    people = {"ana@example.com", "ben@example.com", "org@example.com"}

    @fuzz(750)
    @given(
        kind=st.sampled_from(("a", "a", "a", "t")),
        to=st.sampled_from(
            ("genuine",) * 5
            + ("garbled", "evil-domain", "sub-domain", "other-seat", "stranger", "several", "old-version")
        ),
        garble=h.garbling(),
        sender=st.sampled_from(("own",) * 5 + ("own-named", "own-upper", "ben", "stranger", "ours", "hostile")),
        hostile_sender=h.hostile_text(),
        body=reply_body_plan(),
        where=st.sampled_from(("TextBody", "TextBody", "StrippedTextReply", "HtmlBody")),
        envelope=st.sampled_from(
            ("json",) * 8 + ("no-auth", "bad-auth", "not-json", "latin-1", "array", "wrong-types")
        ),
        wrong=st.sampled_from(("ToFull", "FromFull", "Headers", "TextBody", "Attachments", "Subject")),
        wrong_value=st.sampled_from((5, None, "x", [1], {"a": 1}, [{"Name": 5}], True)),
    )
    def example(kind, to, garble, sender, hostile_sender, body, where, envelope, wrong, wrong_value) -> None:
        game = seats.refresh()
        if game.status != Game.Status.ACTIVE or not game.engine.prompts(game.state).keys() & {0, 1}:
            game = seats.fresh()
        Message.objects.filter(game=game).update(created_at=timezone.now() - timedelta(days=1))
        prompts = game.engine.prompts(game.state)
        index = min(prompts.keys() & {0, 1})
        seat = seats.seat(index)
        prompt = prompts[index]
        key = prompt_key(prompt)
        genuine = links.reply_address(seat, game.version, key, kind=kind)
        other = links.reply_address(seats.seat(1 - index), game.version, key, kind=kind)
        local, _, domain = genuine.partition("@")
        address = {
            "genuine": genuine,
            "garbled": garble(genuine),
            "evil-domain": f"{local}@evil.example",
            "sub-domain": f"{local}@mx.{domain}",
            "other-seat": other,
            "stranger": "someone@example.net",
            "old-version": links.reply_address(seat, max(game.version - 1, 0), key, kind=kind),
        }.get(to, genuine)
        if to == "several":
            address = f"someone@example.net, {local}@evil.example"
        own = seat.player.email
        from_ = {
            "own": own,
            "own-named": f"Ana Lima <{own}>",
            "own-upper": own.upper(),
            "ben": seats.seat(1 - index).player.email,
            "stranger": "stranger@example.net",
            "ours": "turns@example.org",
            "hostile": hostile_sender,
        }[sender]
        legal_text = str(prompt.random_answer(random.Random(game.version))) if prompt.kind == "number" else "1"
        text = body[1].format(legal_text) if body[0] == "legal" else body[1]
        if kind == "t" and body[0] == "legal":
            text = "Nice move!" + text[len(legal_text) :]
        payload = postmark_payload(address, from_, "")
        payload[where] = text
        if where == "HtmlBody":
            payload["HtmlBody"] = f"<div>{text}</div>"
        if envelope == "wrong-types":
            payload[wrong] = wrong_value
        raw = json.dumps(payload).encode()
        auth = {"no-auth": None, "bad-auth": "postmark:wrong"}.get(envelope, SECRET)
        if envelope == "not-json":
            raw = text.encode("utf-8", "surrogatepass")[:5000] + b"{"
        elif envelope == "latin-1":
            utf8 = json.dumps(payload, ensure_ascii=False).encode("utf-8", "surrogatepass")
            raw = utf8.replace(b"\xc3", b"\xe9")
            if raw == utf8:  # nothing to mis-encode: send it as the ESP would, as valid JSON
                envelope, raw = "json", json.dumps(payload).encode()
        elif envelope == "array":
            raw = json.dumps([payload]).encode()
        # mail systems may fold the case of local parts, and a To header is read by the header grammar
        # (which drops ASCII space around an address, or an empty group name before it)
        is_genuine = genuine.lower() in {a.lower() for _, a in getaddresses([address.strip(" \t\r\n")])}
        any_genuine = is_genuine or address in (
            other,
            links.reply_address(seat, max(game.version - 1, 0), key, kind=kind),
        )
        same_sender = sender in ("own", "own-named", "own-upper") or (sender == "hostile" and hostile_sender == own)
        verdict = Verdict.REFUSE
        if envelope == "json" and is_genuine and same_sender:
            if body[0] == "legal" and sender == "own" and where != "HtmlBody" and address == genuine:
                verdict = Verdict.LEGAL
            elif reply_candidates([text]) or (kind == "t" and talk_reading(text) is not Verdict.REFUSE):
                verdict = Verdict.UNSURE
        if envelope == "wrong-types" and is_genuine and same_sender:
            verdict = Verdict.UNSURE  # a field of the right type after all (Subject="x") leaves a readable reply
        if to == "other-seat" and sender == "ben" and envelope in ("json", "wrong-types"):
            verdict = Verdict.UNSURE  # Ben replying to his own seat's address: genuine, just not Ana's
        if to == "old-version" and envelope == "json" and same_sender and reply_candidates([text]):
            verdict = Verdict.UNSURE  # an older email of the same question may still be answered
        if to == "old-version" and kind == "t" and envelope in ("json", "wrong-types") and same_sender:
            verdict = Verdict.UNSURE  # a reply to an older table-talk email still posts to the board
        repro = (
            f"envelope={envelope}{'/' + wrong + '=' + repr(wrong_value) if envelope == 'wrong-types' else ''} "
            f"kind={kind} to={to}:{h.short(address, 50)} from={sender}:{h.short(from_, 30)} {where}={h.short(text, 50)}"
        )
        mails = len(django_mail.outbox)
        extra = {}
        if auth is not None:
            extra["HTTP_AUTHORIZATION"] = "Basic " + base64.b64encode(auth.encode()).decode()
        before = world([game.pk])
        response = poster.raw(INBOUND_URL, raw, "application/json", repro, **extra)
        after = world([game.pk])
        case = Case(endpoint, repro, verdict, expect="played" if kind == "a" else "posted", quiet=True)

        def played() -> str | None:
            if kind == "t":
                m = Message.objects.filter(game=game).order_by("-id").first()
                return stored_text_problem(m.text) if m else "changed, but no message on the board"
            first = Event.objects.filter(game=game, seq=game.version + 1).first()
            # a reply to the other seat's address from that seat's own player answers for that seat
            answering = 1 - index if to == "other-seat" and sender == "ben" else index
            if first is None or first.seat != answering or first.via != "email":
                return "the log changed, but not by this seat's emailed answer"
            return None

        judge(findings, case, response, before, after, played)
        sent = django_mail.outbox[mails:]
        for m in sent:
            strangers = [r for r in m.to if r.lower() not in people]
            if strangers and not any_genuine:
                findings.add(endpoint, "mailed someone the service does not know (backscatter)", repro, f"to {m.to}")
            if m.subject == "Your reply could not be played" and not h.in_words(m.body):
                findings.add(endpoint, "a refusal email without a message in words", repro)
        # a 400 is an envelope the ESP's parser cannot read (say, a To header with an empty group
        # before the address): like any header no mail program writes, nobody is told (inbound.py)
        refused = response.status_code == 200 and not changes(before, after)
        if refused and envelope == "json" and is_genuine and same_sender and sender == "own" and kind == "a":
            if not any(m.subject == "Your reply could not be played" and own in m.to for m in sent):
                findings.add(endpoint, "the seat's own player was not told why the reply was not played", repro)
        if response.status_code not in (200, 400, 403) and response.status_code < 500:
            findings.add(endpoint, f"answered {response.status_code}", repro)

    example()
    findings.check()
