"""A card set may carry its own translations of its card words (translations.yaml): checked on
upload with a refusal naming the file and the entry, kept with a game started with the set, and
read by each seat in its own language before the title's catalogue."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import pgettext
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from cardsets import store
from cardsets.exporting import dump_file, export_zip
from cardsets.kinds import shipped_files
from cardsets.models import CardSet
from cardsets.reading import Limits, read_upload
from games import links
from games.actions import organise
from games.engine.cards import TRANSLATIONS, CardDataError, card_words
from games.engine.messages import card_ref
from games.messages import reading_for, say

LIMITS = Limits(upload_bytes=2_000_000, member_bytes=1_000_000, zip_bytes=4_000_000, zip_members=8)
OWN = {"de": {"Espresso": "Kleiner Brauner"}, "ja": {"Espresso": "エスプレッソ（特製）"}}


def test_a_sets_translations_are_read_as_given():
    assert card_words(OWN) == OWN
    assert card_words(None) == {}


@pytest.mark.parametrize(
    ("parsed", "says"),
    [
        (["de"], "a mapping of languages"),
        ({"Deutsch": {"A": "B"}}, "'Deutsch' is not a language code"),
        ({"de": ["A"]}, "de: a mapping of at most"),
        ({"de": {"A": 3}}, "de: 'A': each card word and its translation is text"),
        ({"de": {"A": ""}}, "de: 'A': each card word"),
        ({"de": {"A": "x" * 200}}, "de: 'A': each card word"),
        ({f"l{i:02d}": {} for i in range(20)}, "at most 12 languages"),
    ],
    ids=["list", "language-name", "words-list", "number", "empty", "too-long", "too-many-languages"],
)
def test_a_wrong_translation_is_refused_naming_the_file_and_the_entry(parsed, says):
    with pytest.raises(CardDataError) as refused:
        card_words(parsed)
    assert str(refused.value).startswith(f"{TRANSLATIONS}: ") and says in str(refused.value)


@given(
    st.recursive(
        st.none() | st.text(max_size=30) | st.integers(),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=8), c),
        max_leaves=20,
    )
)
def test_any_translations_file_is_read_or_refused_in_words(parsed):
    try:
        card_words(parsed)
    except CardDataError as e:
        assert str(e).startswith(TRANSLATIONS)


@pytest.mark.django_db(transaction=True)
def test_a_game_with_the_set_says_its_card_words_in_each_seats_language(organiser):
    shipped = shipped_files("cafe_baras")
    own = {
        "de": {card["name"]: f"Hauskarte {card['name']}" for card in shipped["cafe_cards.yaml"]["cards"]},
        "ja": OWN["ja"],
    }
    cs = store.add_set(
        organiser, "cafe_baras", "Translated", "the project's, with translations", {**shipped, TRANSLATIONS: own}
    )
    CardSet.objects.filter(pk=cs.pk).update(check_status=CardSet.Check.PASSED)  # as its bot check ends
    options = store.chosen(organiser, "cafe_baras", cs.pk)
    assert options["card_words"] == own
    User.objects.create_user("de@example.com", language="de")
    User.objects.create_user("fr@example.com", language="fr")
    game = organise.create_game(organiser, "cafe_baras", "Mesa", options, ["de@example.com", "fr@example.com"])
    organise.start_game(game)
    game.refresh_from_db()
    first = game.events.get(seq=0).payload
    assert first["card_words"] == own and "card_words" not in first["options"], "kept beside the title's options"
    reading = reading_for(game)
    for lang, words in (("de", "Hauskarte Espresso"), ("ja", "エスプレッソ（特製）"), ("en", "Espresso")):
        with translation.override(lang):
            assert say(card_ref("Espresso"), reading) == words, lang
    with translation.override("fr"):  # a language the set does not translate: the title's catalogue
        assert say(card_ref("Oak Counter"), reading) == pgettext("cafe_baras:card", "Oak Counter") != "Oak Counter"
    german = Client().get(f"/play/{links.token_for(game.seats.get(index=0))}/").content.decode()
    french = Client().get(f"/play/{links.token_for(game.seats.get(index=1))}/").content.decode()
    assert "Hauskarte " in german and "Hauskarte " not in french


def test_an_upload_may_hold_translations_and_the_export_gives_them_back():
    kind = store.kind_of("cafe_baras")
    shipped = shipped_files("cafe_baras")
    uploads = [(name, dump_file(data).encode()) for name, data in shipped.items()]
    uploads.append((TRANSLATIONS, b"de:\n  Espresso: Kleiner Brauner\n"))
    files = read_upload(kind, uploads, LIMITS)
    assert files[TRANSLATIONS] == {"de": {"Espresso": "Kleiner Brauner"}}
    with zipfile.ZipFile(io.BytesIO(export_zip(kind, files, "Mine", "mine"))) as zf:
        assert TRANSLATIONS in zf.namelist()
        again = read_upload(kind, [(n, zf.read(n)) for n in zf.namelist()], LIMITS)
    assert again[TRANSLATIONS] == files[TRANSLATIONS]
    uploads[-1] = (TRANSLATIONS, b"Deutsch:\n  Espresso: X\n")
    with pytest.raises(CardDataError, match="not a language code"):
        store.kind_of("cafe_baras").check(read_upload(kind, uploads, LIMITS))
