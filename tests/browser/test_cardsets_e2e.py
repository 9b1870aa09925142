"""Issue 17's "done when": an organiser loads a Café Baras set with one edited card, sees a broken one
refused, fixes the card in the admin, runs the bot check, previews and exports the set, and starts a
game with it; the game's seat page shows the edited card and names the set."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from cardsets.exporting import dump_file
from cardsets.forms import limits
from cardsets.kinds import KINDS
from cardsets.models import CardSet
from cardsets.reading import read_upload
from cardsets.shipped import store_shipped
from games.actions import organise
from games.engine import step_rng
from games.models import Game
from games.titles import get_title
from tests.browser.flows import newest_link, submit
from tests.browser.test_pictures import check_axe
from tests.cardsets.helpers import baras_files, card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SEED = "cardset-e2e"
NEW_NAME = "Capybara Special"


def first_display_card() -> str:
    """The first card of the display the game will deal (the deal follows ids and the seed, not names)."""
    title = get_title("cafe_baras")
    shipped = KINDS["cafe_baras"].check(baras_files())[0]
    state = title.setup(["A", "B"], {"cardset": shipped}, step_rng(SEED, 0))
    return title.view(state, 0)["data"]["display"][0]


def write_set(folder, files) -> list[str]:
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_text(dump_file(data), encoding="utf-8")
    return [str(folder / name) for name in files]


def upload(page, base: str, name: str, paths: list[str]) -> None:
    page.goto(f"{base}/cardsets/upload/")
    page.select_option("#id_title", "cafe_baras")
    page.fill("#id_name", name)
    page.fill("#id_provenance", "Transcribed from the box, one card renamed for the test.")
    page.set_input_files("#id_files", paths)
    page.click("main button.button")


def test_an_organiser_loads_checks_previews_exports_and_plays_an_edited_set(
    browser, live_server, organiser, settings, monkeypatch, tmp_path
):
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    settings.SITE_URL = live_server.url
    settings.CARDSET_CHECK_GAMES = 6
    monkeypatch.setattr(organise, "new_seed", lambda: SEED)
    organiser.is_superuser = True
    organiser.save()
    store_shipped(CardSet)  # an earlier transactional test may have emptied the table
    base = live_server.url
    edited_id = first_display_card()

    good = baras_files()
    card(good, edited_id)["name"] = NEW_NAME
    broken = baras_files()
    card(broken, edited_id)["name"] = NEW_NAME
    card(broken, edited_id)["cost"] = "three"

    page = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True).new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "org@example.com")
    page.fill("#id_password", "pw-organiser-1")
    page.click("button.button")

    # the broken set is refused, naming file, card and field; nothing is stored
    upload(page, base, "Broken Baras", write_set(tmp_path / "broken", broken))
    assert f"cafe_cards.yaml: card '{edited_id}', field 'cost'" in page.inner_text(".errorlist")
    assert not CardSet.objects.filter(name="Broken Baras").exists()
    check_axe(page)

    upload(page, base, "Capybara Baras", write_set(tmp_path / "good", good))
    cs = CardSet.objects.get(name="Capybara Baras")
    assert "not checked yet" in page.inner_text("#check-status")

    # the broken set's other change (the cost), made in the admin's card editor: a bad value first
    index = next(i for i, c in enumerate(cs.files["cafe_cards.yaml"]["cards"]) if c["id"] == edited_id)
    page.goto(f"{base}/admin/cardsets/cardset/{cs.pk}/cards/?file=cafe_cards.yaml&page={index // 20}")
    row = page.locator(f"#card-{index}")
    row.locator(f"#id_c{index}-cost").fill("25")
    submit(page, row.locator("button"))
    assert f"card '{edited_id}', field 'cost': 25 is outside 0..20" in page.locator(f"#card-{index}").inner_text()
    page.locator(f"#card-{index} #id_c{index}-cost").fill("3")
    submit(page, page.locator(f"#card-{index} button"))
    assert "saved" in page.inner_text(".messagelist")
    cs.refresh_from_db()
    assert card(cs.files, edited_id)["cost"] == 3 and not cs.usable

    # the bot check (eager Celery here), then the set is usable
    page.goto(f"{base}/cardsets/{cs.pk}/")
    submit(page, "text=Run the bot check")
    assert "passed" in page.inner_text("#check-status")
    assert "Game length (turns)" in page.content()
    check_axe(page)
    cs.refresh_from_db()
    assert cs.usable

    page.click("text=Preview the cards")
    drawn = page.locator(f'.preview-card[data-card="{edited_id}"]')
    assert drawn.locator("svg").get_attribute("aria-label").startswith(NEW_NAME) and "Authored" in drawn.inner_text()
    assert page.locator(".preview-card svg").count() == 83 + 12 + 4

    page.goto(f"{base}/cardsets/{cs.pk}/")
    with page.expect_download() as download:
        page.click("text=Export as a zip")
    blob = Path(download.value.path()).read_bytes()
    assert sorted(zipfile.ZipFile(io.BytesIO(blob)).namelist()) == sorted(KINDS["cafe_baras"].files)
    again = read_upload(KINDS["cafe_baras"], [("export.zip", blob)], limits())
    assert KINDS["cafe_baras"].check(again)[0]["hash"] == cs.content_hash

    # a game with the set; the seat page shows the edited card and names the set
    page.goto(f"{base}/games/new/?title=cafe_baras")
    page.fill("#id_name", "Capybara night")
    page.fill("#id_seats", "ana@example.com\nbot")
    page.select_option("#id_cardset", str(cs.pk))
    page.click("text=Create game")
    page.click("text=Start the game")
    game = Game.objects.get(name="Capybara night")
    assert game.cardset_hash == cs.recorded_hash
    seat = browser.new_context(viewport={"width": 390, "height": 800}).new_page()
    seat.goto(newest_link("ana@example.com"))
    assert seat.inner_text(".cardset-name") == "Capybara Baras"
    assert seat.locator(f'svg[aria-label^="{NEW_NAME}"]').count() >= 1
