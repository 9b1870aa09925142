"""A game of each title with its seats in three languages (German, Japanese, Portuguese): each seat's
page, history and mail is entirely in its own language, in the same game at the same moment.

The players answer as bots would, through the write path, from the start to the end. Each seat's
page and history are read in the middle of the game and at its end, and every mail each was sent;
a check for English words (tests/i18n/english.py) finds none, and the page says its language.
"""

from __future__ import annotations

import random

import pytest
from django.core import mail as django_mail
from django.test import Client

from accounts.models import User
from games import links
from games.actions import organise, play
from games.models import Game
from games.titles import get_title, slugs
from tests.i18n.english import english_words, read_text

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = (("Anaïs", "de"), ("Kenji", "ja"), ("Zé", "pt"))
GAME_NAME = "Mesa 7"
MAX_STEPS = 3000


def _names(slug: str) -> tuple[str, ...]:
    return (*(name for name, _ in PLAYERS), GAME_NAME, get_title(slug).name, "Café turns")


def _seen(slug: str, text: str, lang: str, where: str) -> None:
    found = english_words(text, lang, _names(slug))
    assert not found, f"{where} ({lang}) has English words: {sorted(set(found))[:30]}\n{text[:3000]}"


def _read_seats(client: Client, game: Game, slug: str, moment: str) -> None:
    for seat in game.seats.select_related("player").order_by("index"):
        lang = seat.player.language
        token = links.token_for(seat)
        for path in (f"/play/{token}/", f"/play/{token}/history/"):
            r = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
            assert r.status_code == 200, path
            assert r.headers.get("Content-Language") == lang
            html = r.content.decode()
            assert f'lang="{lang}"' in html
            _seen(slug, read_text(html), lang, f"{moment}: {path.split('/')[-2] or 'seat page'}")


@pytest.mark.parametrize("slug", slugs())
def test_one_game_read_in_three_languages(slug, organiser):
    title = get_title(slug)
    seats = PLAYERS[: min(title.max_players, len(PLAYERS))]
    for name, lang in seats:
        User.objects.create_user(f"{name.lower()}@example.com", name=name, language=lang)
    game = organise.create_game(organiser, slug, GAME_NAME, {}, [f"{n.lower()}@example.com" for n, _ in seats])
    organise.start_game(game)
    client = Client()
    rng = random.Random(f"three-languages:{slug}")
    steps = 0
    read_middle = False
    while steps < MAX_STEPS:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        prompts = game.engine.prompts(game.state)
        if not prompts:
            break
        seat = sorted(prompts)[0]
        answer = game.engine.bot_answer(game.state, seat, rng)
        play.submit(game.pk, seat, answer, game.version, via="web")
        steps += 1
        if steps == 12 and not read_middle:
            read_middle = True
            _read_seats(client, game, slug, "mid-game")
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED, f"the game did not end in {MAX_STEPS} steps"
    _read_seats(client, game, slug, "the end")
    for name, lang in seats:
        address = f"{name.lower()}@example.com"
        mails = [m for m in django_mail.outbox if address in m.to]
        assert mails, f"{address} was sent no mail"
        for m in mails:
            assert m.extra_headers.get("Content-Language", lang) == lang
            _seen(slug, m.subject, lang, f"mail subject to {address}")
            _seen(slug, m.body, lang, f"mail body to {address}")
            for html, _type in getattr(m, "alternatives", []):
                _seen(slug, read_text(html), lang, f"mail HTML to {address}")
