"""Card set pages and their writes: upload, bot check, preview, export, the new-game choice, who may."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.urls import reverse

from cardsets import store
from cardsets.models import CardSet
from cardsets.shipped import store_shipped
from games.models import Game
from tests.cardsets.helpers import as_uploads, as_zip, baras_files, card

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _shipped(settings):
    settings.CARDSET_CHECK_GAMES = 4
    store_shipped(CardSet)  # a transactional test before this one may have emptied the table


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host@example.org", None, name="Hana")


def edited_files():
    files = baras_files()
    card(files, "latte")["cost"] = 3
    return files


def upload(client, files=None, title="cafe_baras", name="My Baras", raw=None):
    uploads = raw if raw is not None else as_uploads(files or edited_files())
    posted = [io.BytesIO(blob) for _n, blob in uploads]
    for f, (n, _b) in zip(posted, uploads, strict=True):
        f.name = n
    return client.post(reverse("cardsets:upload"), {"title": title, "name": name, "provenance": "", "files": posted})


def test_a_host_uploads_a_private_set_checks_it_and_starts_a_game_with_it(client, host, organiser, django_user_model):
    client.force_login(host)
    r = upload(client)
    cs = CardSet.objects.get(name="My Baras")
    assert r.status_code == 302 and not cs.shared and not cs.usable and cs.added_by == host
    assert "Run the bot check" in client.get(cs.get_absolute_url()).content.decode()
    shipped = CardSet.objects.get(title="cafe_baras", shared=True)
    assert store.choices(host, "cafe_baras") == [(shipped.pk, shipped.name)]

    client.post(reverse("cardsets:check", args=[cs.pk]))
    cs.refresh_from_db()
    assert cs.check_status == "passed" and cs.usable and cs.check_done == 4
    page = client.get(cs.get_absolute_url()).content.decode()
    assert "Game length (turns)" in page and "spread" in page

    assert (cs.pk, "My Baras (yours)") in store.choices(host, "cafe_baras")
    other = django_user_model.objects.create_user("other@example.org", None)
    assert cs.pk not in dict(store.choices(other, "cafe_baras"))
    assert cs.pk not in dict(store.choices(organiser, "cafe_baras"))

    form = client.get(reverse("game-new") + "?title=cafe_baras").content.decode()
    assert "My Baras (yours)" in form
    r = client.post(
        reverse("game-new"),
        {"title": "cafe_baras", "name": "With my cards", "seats": "host@example.org\nbot", "cardset": cs.pk},
    )
    game = Game.objects.get(name="With my cards")
    assert game.options["cardset"]["hash"] == cs.content_hash
    client.post(reverse("game-start", args=[game.pk]))
    game.refresh_from_db()
    assert game.cardset_hash == cs.recorded_hash and store.name_for("cafe_baras", game.cardset_hash) == "My Baras"


def test_a_set_the_person_may_not_use_is_refused_on_the_new_game_form(client, host, organiser):
    client.force_login(organiser)
    upload(client, name="Staff set, unchecked")
    cs = CardSet.objects.get(name="Staff set, unchecked")
    client.force_login(host)
    r = client.post(
        reverse("game-new"),
        {"title": "cafe_baras", "name": "Sneaky", "seats": "host@example.org\nbot", "cardset": cs.pk},
    )
    assert r.status_code == 200 and "Select a valid choice" in r.content.decode()
    assert not Game.objects.filter(name="Sneaky").exists()


def test_bad_uploads_are_told_and_store_nothing(client, host):
    client.force_login(host)
    before = CardSet.objects.count()
    files = baras_files()
    card(files, "latte")["customer"]["decor"] = "Gothic"
    cases = [
        (upload(client, files), "cafe_cards.yaml: card &#x27;latte&#x27;, field &#x27;customer.decor&#x27;"),
        (upload(client, raw=[("set.yaml", b"!!python/name:os.system")]), "YAML tag that is not allowed"),
        (
            upload(client, raw=[("x.zip", as_zip([("../../etc/set.yaml", b"a: 1")]))]),
            "not a file name this set may hold",
        ),
        (upload(client, files=baras_files()), "already here, as “Café Baras, project set v1”"),
        (upload(client, title="pebbles"), "Select a valid choice"),
    ]
    for r, words in cases:
        assert r.status_code == 400 and words in r.content.decode(), words
    r = client.post(reverse("cardsets:upload"), {"title": "cafe_baras"}, CONTENT_LENGTH="99999999")
    assert r.status_code == 413 and "a card set&#x27;s files together" in r.content.decode()
    assert CardSet.objects.count() == before


def test_preview_draws_every_card_with_whose_values_and_export_round_trips(client, organiser):
    client.force_login(organiser)
    upload(client)
    cs = CardSet.objects.get(name="My Baras")
    page = client.get(reverse("cardsets:preview", args=[cs.pk])).content.decode()
    assert page.count('class="preview-card"') == 83 + 12 + 4 and page.count("<svg") >= 99
    assert "Authored: every value" in page and "cost 3" in page
    r = client.get(reverse("cardsets:export", args=[cs.pk]))
    assert r["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    assert sorted(names) == sorted(["set.yaml", "cafe_cards.yaml", "guests.yaml", "counters.yaml"])
    cs.delete()
    upload(client, raw=[("export.zip", r.content)], name="Again")
    assert CardSet.objects.get(name="Again").content_hash == cs.content_hash
    for shipped in CardSet.objects.filter(check_status="shipped").exclude(title="cafe_baras"):
        page = client.get(reverse("cardsets:preview", args=[shipped.pk])).content.decode()
        assert page.count('class="preview-card"') == sum(len(v) for v in shipped_lists(shipped)), shipped.title


def shipped_lists(cs: CardSet) -> list[list]:
    from cardsets.kinds import KINDS

    return [KINDS[cs.title].entries(cs.files, f) for f in KINDS[cs.title].lists]


def test_nobody_sees_a_set_that_is_not_theirs(client, host, organiser, django_user_model):
    client.force_login(organiser)
    upload(client, name="Staff set, unchecked")
    staff_set = CardSet.objects.get(name="Staff set, unchecked")
    client.force_login(host)
    for name in ("detail", "preview", "export"):
        assert client.get(reverse(f"cardsets:{name}", args=[staff_set.pk])).status_code == 404
    assert client.post(reverse("cardsets:check", args=[staff_set.pk])).status_code == 404
    assert "Staff set, unchecked" not in client.get(reverse("cardsets:list")).content.decode()
    shipped = CardSet.objects.get(title="cafe_baras", shared=True, check_status="shipped")
    assert client.get(reverse("cardsets:preview", args=[shipped.pk])).status_code == 200
    assert client.post(reverse("cardsets:check", args=[shipped.pk])).status_code == 404
    client.logout()
    assert client.get(reverse("cardsets:list")).status_code == 302
    assert client.get(reverse("cardsets:preview", args=[shipped.pk])).status_code == 302


def test_a_set_whose_bot_games_fail_is_never_usable_and_progress_is_stored_as_it_goes(
    client, organiser, monkeypatch, settings
):
    settings.CARDSET_CHECK_GAMES = 12
    client.force_login(organiser)
    upload(client)
    cs = CardSet.objects.get(name="My Baras")
    seen = []

    def broken(*args, **kwargs):
        seen.append(CardSet.objects.get(pk=cs.pk).check_done)
        if len(seen) == 7:  # the page while the check runs: a progress bar that refreshes itself
            page = client.get(cs.get_absolute_url()).content.decode()
            assert '<progress id="check-progress" max="12" value="5">' in page and 'http-equiv="refresh"' in page
        raise RuntimeError("the deck ran dry")

    monkeypatch.setattr("games.engine.simulate.play_one", broken)
    client.post(reverse("cardsets:check", args=[cs.pk]))
    cs.refresh_from_db()
    assert cs.check_status == "failed" and not cs.usable
    page = client.get(cs.get_absolute_url()).content.decode()
    assert seen == [0] * 5 + [5] * 5 + [10] * 2
    assert "12 of 12 bot games stopped with an error" in page and "the deck ran dry" in page
    assert cs.pk not in dict(store.choices(organiser, "cafe_baras"))
