"""Issue 14's endpoints under the fuzz of issue 12: sign-in links, the profile, the absence calendar, join links.

The same three rules as tests/test_fuzz_endpoints.py: never a server error; a refusal is told in
words; nothing changes on a refused input (no person made, no mail queued, nobody signed in), and
a legal input does what it says.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.core.cache import caches
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from games.models import Notification
from tests.support import hostile as h
from tests.support.hostile import MultiDict, Verdict
from tests.test_fuzz_endpoints import (
    BASELINE,
    Findings,
    Poster,
    fuzz,
    junk_fields,
    preference_fields,
    preference_reading,
    readable,
    same_signature,
    told,
)

pytestmark = pytest.mark.django_db(transaction=True)

GOOD = ("ana@example.com", "Ana@Example.COM", "  cy@example.org ", "d.e+tag@example.co.uk", "ana@exämple.com")
BAD = (
    "ana",
    "ana@",
    "@example.com",
    "ana@@example.com",
    "ana example.com",
    "a" * 300 + "@x.org",
    "ana\x00@x.org",
    "ana\u200b@x.org",
    "ana@x.org\nBcc: eve@x.org",
    "",
)


def people() -> list[tuple]:
    return list(User.objects.order_by("pk").values_list("pk", "email", "last_login", "name", "timezone"))


def mailed() -> int:
    return Notification.objects.filter(kind=Notification.Kind.SIGN_IN).count()


def test_asking_for_a_link() -> None:
    """POST /sign-in/: an address, hostile or not, with junk around it."""
    findings = Findings()
    endpoint = "POST /sign-in/"
    poster = Poster(findings, endpoint)
    User.objects.create_user("ana@example.com")

    @fuzz(240)
    @given(
        email=st.one_of(st.sampled_from(GOOD), st.sampled_from(BAD), h.hostile_text()),
        twice=st.one_of(st.none(), h.hostile_text()),
        junk=junk_fields(),
    )
    def example(email, twice, junk) -> None:
        caches["default"].clear()  # the rate limits are tested on their own
        pairs: h.Pairs = [("email", email), *junk] + ([("email", twice)] if twice is not None else [])
        verdict = (
            Verdict.LEGAL if email in GOOD and twice is None else Verdict.REFUSE if email in BAD else Verdict.UNSURE
        )
        if not readable(pairs) or any(k == "email" for k, _ in junk):
            verdict = Verdict.UNSURE if verdict is not Verdict.REFUSE else verdict
        repro = f"form={[(k, h.short(v, 40)) for k, v in pairs]}"
        before, sent = people(), mailed()
        response = poster.form("/sign-in/", pairs, repro)
        after = people()
        if response.status_code >= 500:
            return
        done = response.status_code == 200 and b"Check your email" in response.content
        if not done:
            if not told(response) or not any(h.in_words(t) for t in told(response)):
                findings.add(endpoint, "a refusal that says nothing", repro)
            if after != before or mailed() != sent:
                findings.add(endpoint, "a refused request changed something", repro)
        if verdict is Verdict.REFUSE and done:
            findings.add(endpoint, "an address that is not one was taken", repro)
        if verdict is Verdict.LEGAL:
            address = email.strip().lower()
            if not done or mailed() != sent + 1 or not User.objects.filter(email=address).exists():
                findings.add(endpoint, "a good address got no link", repro, f"said: {told(response)[:1]}")
        if done and verdict is not Verdict.LEGAL:
            # whatever was taken is one address, stored as typed (trimmed, lowercased), with one mail for it
            new = [p for p in after if p not in before]
            last = Notification.objects.filter(kind=Notification.Kind.SIGN_IN).order_by("-pk").first()
            if mailed() == sent + 1 and last is not None and not User.objects.filter(email=last.recipient).exists():
                findings.add(endpoint, "a link was mailed to an address nobody has", repro)
            if any(any(ch.isspace() or ord(ch) < 32 for ch in p[1]) for p in new):
                findings.add(endpoint, "stored an address with a space or control character", repro)

    example()
    findings.check()


def test_spending_a_link() -> None:
    """POST /sign-in/link/ (and its GET): only the genuine, unspent token signs its own person in."""
    findings = Findings()
    endpoint = "POST /sign-in/link/"
    ana = User.objects.create_user("ana@example.com")
    from django.core import signing
    from sesame.utils import get_token

    @fuzz(210)
    @given(
        how=st.sampled_from(("own", "own", "spent", "garbled", "garbled", "other-signature", "get")),
        garble=h.garbling(),
        junk=junk_fields(),
    )
    def example(how, garble, junk) -> None:
        User.objects.filter(pk=ana.pk).update(last_login=None)
        genuine = get_token(User.objects.get(pk=ana.pk))
        token = {
            "own": genuine,
            "spent": genuine,
            "get": genuine,
            "other-signature": signing.dumps({"s": 1}),
        }.get(how) or garble(genuine)
        if how == "garbled" and same_signature(token, genuine):
            how = "own?"
        client = Client(raise_request_exception=False)
        poster = Poster(findings, endpoint, client)
        poster.signed_in = True  # keep the session cookie between the two requests below
        if how == "spent":
            client.post("/sign-in/link/", {"sesame": genuine})
            client.post("/sign-out/")
        repro = f"how={how} token={h.short(token, 60)} junk={[(k, h.short(v, 20)) for k, v in junk]}"
        if how == "get":
            response = poster.get(f"/sign-in/link/?sesame={token}", repro)
            if client.session.get("_auth_user_id"):
                findings.add(endpoint, "a GET signed someone in", repro)
            return
        response = poster.form("/sign-in/link/", [("sesame", token), *junk], repro)
        if response.status_code >= 500:
            return
        signed = client.session.get("_auth_user_id")
        if how == "own" and not signed and not any(k == "sesame" for k, _ in junk):
            findings.add(endpoint, "the genuine link did not sign in", repro, f"said: {told(response)[:1]}")
        if how in ("spent", "garbled", "other-signature") and signed:
            findings.add(endpoint, "a spent or damaged link signed someone in", repro)
        if not signed and not any(h.in_words(t) for t in told(response)):
            findings.add(endpoint, "a refusal that says nothing", repro)

    example()
    findings.check()


def test_the_profile() -> None:
    """POST /me/: the same hostile preferences as a seat's settings, for the signed-in person only."""
    findings = Findings()
    endpoint = "POST /me/"
    ana = User.objects.create_user("ana@example.com", **{k: v for k, v in BASELINE.items()})
    client = Client(raise_request_exception=False)
    client.force_login(ana)
    poster = Poster(findings, endpoint, client)
    legal, hostile = preference_fields()

    @fuzz(150)
    @given(plan=st.fixed_dictionaries({k: st.one_of(st.none(), legal[k], legal[k], hostile[k]) for k in legal}))
    def example(plan) -> None:
        User.objects.filter(pk=ana.pk).update(**BASELINE)
        pairs: h.Pairs = [(k, v) for k, v in plan.items() if v is not None]
        verdict, fields = preference_reading(MultiDict(pairs))
        if not readable(pairs):
            verdict = Verdict.REFUSE
        repro = f"form={[(k, h.short(v, 40)) for k, v in pairs]}"
        before = people()
        response = poster.form("/me/", pairs, repro)
        if response.status_code >= 500:
            return
        after = people()
        if verdict is Verdict.REFUSE and after != before:
            findings.add(endpoint, "changed the profile on an input that must be refused", repro)
        if verdict is Verdict.REFUSE and not any(h.in_words(t) for t in told(response)):
            findings.add(endpoint, "a refusal that says nothing", repro)
        if verdict is Verdict.LEGAL and response.status_code != 302:
            findings.add(endpoint, "a legal profile was not saved", repro, f"said: {told(response)[:1]}")
        user = User.objects.get(pk=ana.pk)
        for name, allowed in fields.items():
            if response.status_code == 302 and allowed and getattr(user, name) not in allowed:
                findings.add(endpoint, f"saved {name} the form did not mean", repro)
        if re.search(r"[\x00-\x08\x0b-\x1f]", user.name):
            findings.add(endpoint, "stored a control character in the name", repro)

    example()
    findings.check()


def test_saying_my_mail_works(organiser) -> None:
    """POST /me/mail-works/: clears only the signed-in person's own refusal, whatever is posted;
    a visitor who is not signed in is sent to sign in, and nothing changes."""
    from accounts import bounces

    findings = Findings()
    endpoint = "POST /me/mail-works/"
    ana = User.objects.create_user("ana@example.com")
    ben = User.objects.create_user("ben@example.com")
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(ana)
    posters = {True: Poster(findings, endpoint, signed_in), False: Poster(findings, endpoint)}

    def refusals() -> list[tuple]:
        return list(User.objects.order_by("pk").values_list("pk", "mail_refused_at"))

    @fuzz(60)
    @given(
        refused=st.booleans(),
        as_ana=st.booleans(),
        junk=st.lists(st.tuples(st.sampled_from(["email", "user", "next", "pk"]), h.hostile_text()), max_size=3),
    )
    def example(refused, as_ana, junk) -> None:
        User.objects.update(mail_refused_at=None, mail_refused_reason="")
        bounces.mark_refused("ben@example.com", "550 5.1.1 no such mailbox")
        if refused:
            bounces.mark_refused("ana@example.com", "550 5.1.1 no such mailbox")
        repro = f"refused={refused} signed_in={as_ana} form={[(k, h.short(v, 30)) for k, v in junk]}"
        before = refusals()
        response = posters[as_ana].form("/me/mail-works/", junk, repro)
        if response.status_code >= 500:
            return
        after = dict(refusals())
        if after[ben.pk] is None:
            findings.add(endpoint, "cleared another person's refusal", repro)
        if not as_ana and after != dict(before):
            findings.add(endpoint, "changed something for a visitor who is not signed in", repro)
        if as_ana and refused and after[ana.pk] is not None:
            findings.add(endpoint, "did not clear the person's own refusal", repro)
        if as_ana and not any(h.in_words(t) for t in told(response)):
            findings.add(endpoint, "said nothing", repro)

    example()
    findings.check()


def test_declaring_an_absence(clocked) -> None:
    """POST /me/away/: hostile dates; only a period from today to within a year is saved, once."""
    from datetime import date, timedelta

    from django.utils import timezone

    from games.models import Absence, Vacation

    findings = Findings()
    endpoint = "POST /me/away/"
    clocked()
    ana = User.objects.get(email="ana@example.com")
    client = Client(raise_request_exception=False)
    client.force_login(ana)
    poster = Poster(findings, endpoint, client)
    today = timezone.localdate()
    good = st.integers(0, 30).map(lambda n: str(today + timedelta(days=n)))

    @fuzz(120)
    @given(
        starts=st.one_of(good, good, h.hostile_date()), ends=st.one_of(good, good, h.hostile_date()), junk=junk_fields()
    )
    def example(starts, ends, junk) -> None:
        Absence.objects.all().delete()
        Vacation.objects.all().delete()
        pairs: h.Pairs = [("starts", starts), ("ends", ends), *junk]
        try:
            first, last = date.fromisoformat(starts), date.fromisoformat(ends)
        except ValueError:
            first = last = None
        legal = (
            first is not None
            and today <= first <= last <= today + timedelta(days=365)
            and starts.isascii()
            and ends.isascii()
            and not any(k in ("starts", "ends") for k, _ in junk)
        )
        repro = f"form={[(k, h.short(v, 40)) for k, v in pairs]}"
        response = poster.form("/me/away/", pairs, repro)
        if response.status_code >= 500:
            return
        saved = Absence.objects.count()
        if response.status_code != 302:
            if saved or Vacation.objects.exists():
                findings.add(endpoint, "a refused absence was saved", repro)
            if not any(h.in_words(t) for t in told(response)):
                findings.add(endpoint, "a refusal that says nothing", repro)
        elif saved != 1:
            findings.add(endpoint, f"said saved but {saved} absences stored", repro)
        if legal and readable(pairs) and saved != 1:
            findings.add(endpoint, "a good period was not saved", repro, f"said: {told(response)[:1]}")

    example()
    findings.check()


def test_joining_by_link(organiser) -> None:
    """POST /join/<token>/ and POST /join/confirm/: hostile names, addresses and tokens take no seat;
    only a genuine confirmation takes one, once, for its own address."""
    from games import links
    from games.actions import organise
    from games.models import Game, Seat

    findings = Findings()
    game = organise.create_game(organiser, "pebbles", "Open table", {}, ["host@example.org", "open", "open"])
    genuine = links.join_token(game)

    def seated() -> list[tuple]:
        return list(Seat.objects.filter(game=game).order_by("index").values_list("index", "player_id", "is_bot"))

    @fuzz(150)
    @given(
        how=st.sampled_from(("own", "own", "garbled", "revoked")),
        garble=h.garbling(),
        name=st.one_of(st.sampled_from(("Bea", "Zoë", "")), h.hostile_text()),
        email=st.one_of(st.sampled_from(GOOD), st.sampled_from(BAD), h.hostile_text()),
        junk=junk_fields(),
    )
    def ask(how, garble, name, email, junk) -> None:
        caches["default"].clear()
        Game.objects.filter(pk=game.pk).update(join_nonce="" if how == "revoked" else game.join_nonce)
        token = genuine if how in ("own", "revoked") else garble(genuine)
        if how == "garbled" and same_signature(token, genuine):
            how = "own?"
        pairs: h.Pairs = [("name", name), ("email", email), *junk]
        repro = f"how={how} token={h.short(token, 40)} form={[(k, h.short(v, 30)) for k, v in pairs]}"
        poster = Poster(findings, "POST /join/<token>/")
        before, sent = seated(), Notification.objects.filter(kind=Notification.Kind.JOIN).count()
        response = poster.form(f"/join/{quote(token.encode('utf-8', 'surrogatepass'), safe='')}/", pairs, repro)
        if response.status_code >= 500:
            return
        if seated() != before:
            findings.add(poster.endpoint, "asking took a seat (only the mailed confirmation may)", repro)
        mailed = Notification.objects.filter(kind=Notification.Kind.JOIN).count() - sent
        if how in ("revoked", "garbled") and mailed:
            findings.add(poster.endpoint, "a dead or damaged link mailed a confirmation", repro)
        if mailed == 0 and not any(h.in_words(t) for t in told(response)) and response.status_code != 200:
            findings.add(poster.endpoint, "a refusal that says nothing", repro)

    ask()
    Game.objects.filter(pk=game.pk).update(join_nonce=game.join_nonce)

    @fuzz(120)
    @given(how=st.sampled_from(("own", "garbled", "garbled", "other")), garble=h.garbling(), junk=junk_fields())
    def confirm(how, garble, junk) -> None:
        Seat.objects.filter(game=game, index__gt=0).update(player=None, is_bot=False)
        Game.objects.filter(pk=game.pk).update(join_nonce=game.join_nonce)
        game.refresh_from_db()
        real = links.confirm_token(game, "bea@example.org", "Bea")
        token = {"own": real, "other": links.join_token(game)}.get(how) or garble(real)
        if how == "garbled" and same_signature(token, real):
            how = "own?"
        repro = f"how={how} token={h.short(token, 60)}"
        poster = Poster(findings, "POST /join/confirm/")
        before = seated()
        response = poster.form("/join/confirm/", [("t", token), *junk], repro)
        if response.status_code >= 500:
            return
        after = seated()
        taken = [s for s in after if s not in before]
        if how in ("garbled", "other") and taken:
            findings.add(poster.endpoint, "a damaged confirmation took a seat", repro)
        if how == "own" and not any(k == "t" for k, _ in junk) and len(taken) != 1:
            findings.add(poster.endpoint, "a genuine confirmation took no seat", repro, f"said: {told(response)[:1]}")
        if taken and User.objects.get(pk=taken[0][1]).email != "bea@example.org":
            findings.add(poster.endpoint, "a seat went to another address", repro)
        if not taken and not any(h.in_words(t) for t in told(response)):
            findings.add(poster.endpoint, "a refusal that says nothing", repro)

    confirm()
    findings.check()
