"""The engines' messages in words (games/messages.py): seats by their names of now, cards and lists
and numbers in the reader's language, plurals by each language's rule, plain strings (a log stored
before messages) as they are, and a bad translation never breaking a page."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import IllegalMove
from games.engine.messages import card_ref, english, list_ref, msg, nmsg, seat_ref
from games.engine.prompts import Choose, ChooseMany, Composite, Option, prompt_key
from games.messages import Reading, refusal, render, say, shown_prompt

ANA_BEN = Reading({0: "Ana", 1: "Ben"})


def test_a_message_names_seats_by_their_names_of_now():
    m = msg("%(seat)s passes.", seat=seat_ref(1))
    assert say(m, ANA_BEN) == "Ben passes."
    assert say(m, Reading({1: "Benedita"})) == "Benedita passes."
    assert say(m) == "Seat 2 passes.", "a seat nobody names is told by its number"


@pytest.mark.parametrize(
    ("lang", "joined", "thousands"),
    [
        ("en", "A, B, and C", "1,234"),
        ("de", "A, B und C", "1.234"),
        ("ja", "A、B、C", "1,234"),
        ("fr", "A, B et C", "1\u202f234"),
    ],
)
def test_lists_and_numbers_read_as_the_language_writes_them(lang, joined, thousands):
    m = msg("%(cards)s: %(n)s", cards=list_ref([card_ref("A"), card_ref("B"), card_ref("C")]), n=1234)
    with translation.override(lang):
        assert say(m) == f"{joined}: {thousands}"


def test_a_plural_agrees_with_its_count():
    for n, words in ((1, "1 card"), (2, "2 cards"), (0, "0 cards")):
        assert say(nmsg("%(n)s card", "%(n)s cards", "n", n=n)) == words
        assert english(nmsg("%(n)s card", "%(n)s cards", "n", n=n)) == words


def test_a_message_may_hold_a_message():
    inner = nmsg("%(n)s coin", "%(n)s coins", "n", n=3)
    assert say(msg("%(seat)s gained %(what)s.", seat=seat_ref(0), what=inner), ANA_BEN) == "Ana gained 3 coins."


def test_a_log_stored_as_words_still_reads_and_a_view_is_rendered_whole():
    view = {"log": ["Ana drew a card.", msg("%(seat)s passes.", seat=seat_ref(0))], "panels": [{"id": "x", "n": 2}]}
    assert render(view, ANA_BEN) == {"log": ["Ana drew a card.", "Ana passes."], "panels": [{"id": "x", "n": 2}]}


def test_a_placeholder_a_message_lacks_stays_as_written():
    assert say(msg("%(seat)s took %(card)s.", seat=seat_ref(0)), ANA_BEN) == "Ana took %(card)s."


def test_a_prompt_is_shown_in_words_but_keyed_by_its_ids():
    prompt = Composite(
        msg("Plan %(seat)s's turn", seat=seat_ref(0)),
        (
            ("a", Choose(msg("Pick one"), (Option("x", msg("Take %(card)s", card=card_ref("Latte")), msg("Now")),))),
            ("b", ChooseMany(msg("Pick some"), (Option("y", msg("Pass")),), 0, 1)),
        ),
    )
    shown = shown_prompt(prompt, ANA_BEN)
    assert shown.text == "Plan Ana's turn"
    assert shown.parts[0][1].options[0].label == "Take Latte" and shown.parts[0][1].options[0].detail == "Now"
    assert shown.parts[1][1].text == "Pick some"
    assert shown.parts[0][1].parse_text("take latte") == "x", "a reply names the option in the reader's words"
    with translation.override("ja"):
        in_japanese = prompt_key(prompt)
    assert prompt_key(prompt) == in_japanese, "a question's key is the same in every language"
    assert render(prompt.to_dict(), ANA_BEN)["text"] == "Plan Ana's turn"


def test_a_refusal_is_words():
    error = IllegalMove(msg("Give a number from %(low)s to %(high)s.", low=1, high=5))
    assert refusal(error) == "Give a number from 1 to 5." == str(error)
    assert refusal(IllegalMove("Plain words.")) == "Plain words."
