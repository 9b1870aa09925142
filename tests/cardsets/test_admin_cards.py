"""The admin's card editor: one form per card, each field validated, then the whole set; a held or
shipped set is copied, never changed; a refused edit changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cardsets.forms import CardForm, field_kinds
from cardsets.kinds import KINDS
from cardsets.models import CardSet
from cardsets.shipped import store_shipped

pytestmark = pytest.mark.django_db
BARAS = KINDS["cafe_baras"]


@pytest.fixture
def staff(client, organiser):
    organiser.is_superuser = True
    organiser.save()
    client.force_login(organiser)
    store_shipped(CardSet)
    return client


def row(cs: CardSet, card_id: str, **changes) -> dict[str, str]:
    """The POST of one card's row as the page shows it, with `changes` typed over it."""
    file = "cafe_cards.yaml"
    entries = BARAS.entries(cs.files, file)
    index = next(i for i, c in enumerate(entries) if c["id"] == card_id)
    form = CardForm(fields=field_kinds(BARAS, cs.files, file), entry=entries[index], prefix=f"c{index}")
    data = {f"c{index}-{k}": v for k, v in form.initial.items()}
    data.update({f"c{index}-{k}": v for k, v in changes.items()})
    return {"file": file, "index": str(index), **data}


def test_editing_a_shipped_card_makes_an_edited_copy_and_bad_values_are_named(staff):
    shipped = CardSet.objects.get(title="cafe_baras", check_status="shipped")
    url = reverse("admin:cardsets_cardset_cards", args=[shipped.pk])
    page = staff.get(url).content.decode()
    assert page.count('class="card-row"') == 20 and 'name="c0-customer"' in page

    before = CardSet.objects.count()
    r = staff.post(url, row(shipped, "latte", cost="a lot"))
    assert r.status_code == 400 and "whole number" in r.content.decode()
    r = staff.post(url, row(shipped, "latte", customer="wants: [{food: Sushi}]\ndecor: Rustic"))
    body = r.content.decode()
    assert r.status_code == 400 and "card &#x27;latte&#x27;, field &#x27;customer.wants[1].food&#x27;" in body
    r = staff.post(url, row(shipped, "latte", customer="!!python/object/apply:os.system [ls]"))
    assert r.status_code == 400 and "YAML tag that is not allowed" in r.content.decode()
    assert CardSet.objects.count() == before

    r = staff.post(url, row(shipped, "latte", cost="3"))
    copy = CardSet.objects.get(name=f"{shipped.name} (edited)")
    assert r.status_code == 302 and r["Location"].startswith(reverse("admin:cardsets_cardset_cards", args=[copy.pk]))
    assert next(c for c in copy.data["cards"] if c["id"] == "latte")["cost"] == 3
    assert not copy.usable and copy.check_status == "pending"
    shipped.refresh_from_db()
    assert next(c for c in shipped.data["cards"] if c["id"] == "latte")["cost"] == 2

    # the copy is nobody's game yet: a further edit changes it in place
    r = staff.post(reverse("admin:cardsets_cardset_cards", args=[copy.pk]), row(copy, "latte", note="hand made"))
    copy.refresh_from_db()
    assert CardSet.objects.count() == before + 1 and copy.files["cafe_cards.yaml"]["cards"][2]["note"] == "hand made"


def test_copy_this_set_stores_a_copy_only_when_a_card_changes(staff):
    shipped = CardSet.objects.get(title="cafe_baras", check_status="shipped")
    url = reverse("admin:cardsets_cardset_cards", args=[shipped.pk])
    change = staff.get(reverse("admin:cardsets_cardset_change", args=[shipped.pk])).content.decode()
    assert "Copy this set" in change and "Edit the cards" in change
    r = staff.post(url, {**row(shipped, "latte"), "copy": "1"})
    assert r.status_code == 400 and "already here" in r.content.decode()
    r = staff.post(url, {**row(shipped, "latte", name="Latte Grande"), "copy": "1"})
    assert CardSet.objects.filter(name=f"Copy of {shipped.name}").exists()


def test_the_admins_game_form_offers_usable_sets_and_puts_the_chosen_one_in_the_options(staff, organiser, rf):
    from django.contrib.admin.sites import site

    from games.models import Game

    shipped = CardSet.objects.get(title="cafe_baras", check_status="shipped")
    unchecked = CardSet.objects.create(
        name="Unchecked", title="cafe_baras", content_hash="0" * 64, recorded_hash="1" * 64, files={}, data={}
    )
    page = staff.get(reverse("admin:games_game_add")).content.decode()
    assert f"Café Baras: {shipped.name}" in page and "Unchecked" not in page
    request = rf.get("/")
    request.user = organiser
    admin = site._registry[Game]
    form_class = admin.get_form(request, None)
    assert unchecked.pk not in dict(form_class.base_fields["cardset"].choices)
    form = form_class(data={"name": "x", "title": "cafe_romantica", "options": "{}", "cardset": shipped.pk})
    form.is_valid()
    assert "not a usable set of this game" in str(form.errors["cardset"])


def test_the_admins_game_form_shows_a_drafts_set_and_clearing_it_gives_the_draft_the_shipped_set(staff, organiser, rf):
    import json

    from django.contrib.admin.sites import site

    from games.actions.organise import create_game
    from games.models import Game

    shipped = CardSet.objects.get(title="cafe_baras", check_status="shipped")
    game = create_game(organiser, "cafe_baras", "Draft", {"cardset": shipped.data}, [None, None])
    page = staff.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert f'<option value="{shipped.pk}" selected>' in page

    request = rf.post("/")
    request.user = organiser
    admin = site._registry[Game]
    form_class = admin.get_form(request, game, change=True, fields=("name", "title", "cardset", "options"))
    kept = form_class(
        data={"name": "Draft", "title": "cafe_baras", "options": json.dumps(game.options), "cardset": shipped.pk},
        instance=game,
    )
    assert kept.is_valid(), kept.errors
    admin.save_model(request, kept.save(commit=False), kept, True)
    game.refresh_from_db()
    assert game.options["cardset"]["hash"] == shipped.content_hash

    cleared = form_class(
        data={"name": "Draft", "title": "cafe_baras", "options": json.dumps(game.options), "cardset": ""},
        instance=game,
    )
    assert cleared.is_valid(), cleared.errors
    admin.save_model(request, cleared.save(commit=False), cleared, True)
    game.refresh_from_db()
    assert "cardset" not in game.options
    page = staff.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert '<option value="" selected>' in page
