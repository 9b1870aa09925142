"""Replies by email in every language: the words a reply may use are the player's own.

Option numbers read in any script (tests/test_reply_text.py, over the corpus of real clients' formats,
English, Portuguese, Japanese, Spanish, French and German among them); here, an option's name as the
player's mail showed it and the words for "none" are read in each of the six languages, and a reply
in a player's language plays through the real inbound webhook.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import mail as django_mail
from django.utils import translation

from accounts.models import User
from games import inbound
from games.engine.messages import msg
from games.engine.prompts import ChooseMany, Option
from games.messages import Reading, shown_prompt
from games.models import Event
from games.titles.cafe_baras.turn import PASS
from tests.support.replies import load
from tests.test_inbound import (  # noqa: F401 - _inbound_settings is an autouse fixture, used by being imported
    ANA,
    BEN,
    _inbound_settings,
    reply,
)

LANGUAGES = [code for code, _ in settings.LANGUAGES]
BARAS = Reading(title="cafe_baras")


def test_the_corpus_has_replies_from_clients_in_every_language():
    clients = " ".join(f"{c.id} {c.client}" for c in load())
    for tag in ("-en", "-pt", "-ja", "-es", "-fr", "-de"):
        assert tag in clients, f"no reply in {tag[1:]} in the corpus"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_reply_names_an_option_as_the_players_mail_did(lang):
    prompt = ChooseMany(msg("Pick up to two"), (PASS, Option("x", msg("Something else"))), 0, 1)
    with translation.override(lang):
        label = shown_prompt(prompt, BARAS).options[0].label
        if lang != "en":
            assert label != "Pass", f"{lang}: the option's name is not translated"
        assert inbound.read_in_language(prompt, label.lower(), BARAS) == ["pass"]
        assert inbound.read_in_language(prompt, "1", BARAS) == ["pass"], "a number reads in every language"
        assert inbound.read_in_language(prompt, "pass", BARAS) == ["pass"], "and English names still read"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_none_in_the_players_words_picks_nothing(lang):
    prompt = ChooseMany(msg("Pick up to two"), (PASS, Option("x", msg("Something else"))), 0, 2)
    with translation.override(lang):
        words = inbound.none_words()
        own = sorted(words - {"none", "nothing", "-"})
        if lang != "en":
            assert own, f"{lang}: no word of its own for none"
        for word in own or ["none"]:
            assert inbound.read_in_language(prompt, word, BARAS) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["de", "ja", "pt"])
def test_a_reply_in_the_players_language_plays_through_the_webhook(lang, make_game, client):
    for email in (ANA, BEN):
        User.objects.create_user(email, language=lang)
    game = make_game(title="cafe_baras")
    index = sorted(game.engine.prompts(game.state))[0]
    seat = game.seats.select_related("player").get(index=index)
    mailed = [m for m in django_mail.outbox if m.to == [seat.player.email] and m.reply_to][-1]
    assert mailed.extra_headers.get("Content-Language") == lang
    prompt = game.engine.prompts(game.state)[index]
    with translation.override(lang):
        words = shown_prompt(prompt, BARAS).options[0].label
        assert words in mailed.body, "the reply names the option as the mail did"
    before = Event.objects.filter(game=game).count()
    reply(client, mailed.reply_to[0], words, sender=seat.player.email)
    assert Event.objects.filter(game=game).count() == before + 1, f"the {lang} reply {words!r} was not played"
