"""Prompts: stable ids, friendly exact labels, and a deterministic deadline answer."""

from __future__ import annotations

from games.titles.cafe_baras import TITLE

from .helpers import arrange, rng, said, table


def test_main_prompt_offers_adds_you_can_pay_for_and_every_serve():
    s = arrange(table(), s0={"hand": ["latte", "matcha", "espresso", "cold-brew"], "cafe": ["croissant"], "coins": 2})
    prompt = said(TITLE.prompts(s)[0])
    assert prompt.kind == "choose"
    ids = [o.id for o in prompt.options]
    assert ids == ["add:latte", "add:espresso", "serve:latte", "serve:matcha", "serve:espresso", "serve:cold-brew"]
    by_id = {o.id: o for o in prompt.options}
    assert by_id["add:latte"].label == "Add Latte for 2 coins"
    assert by_id["add:latte"].detail == "Coffee, cost 2, scores 1 point; when added: gain 1 coin"
    assert by_id["serve:latte"].label == "Serve the Latte customer: +1 coin"
    assert by_id["serve:latte"].detail == "Wants 2 Coffee, Drink and Snack; likes Rustic decor"
    assert prompt.text == "Your turn (2 coins): add a card to your café, or serve its customer."


def test_serve_label_says_when_the_customer_becomes_a_regular():
    s = arrange(table(), s0={"hand": ["lemonade"], "cafe": ["croissant", "wooden-bench"]})
    (option,) = [o for o in said(TITLE.prompts(s)[0]).options if o.id == "serve:lemonade"]
    assert option.label == "Serve the Lemonade customer: +3 coins, becomes a regular"


def test_a_typed_reply_picks_by_number():
    s = arrange(table(), s0={"hand": ["latte", "matcha", "espresso", "cold-brew"], "coins": 0})
    prompt = said(TITLE.prompts(s)[0])
    assert prompt.parse_text("2") == "serve:matcha"
    after = TITLE.apply(s, 0, prompt.parse_text("2"), rng())
    assert "matcha" in after["discard"]


def test_refill_prompt_lists_the_display_by_card_id():
    s = arrange(
        table(), s0={"hand": ["oolong", "espresso", "donut", "bagel"]}, display=["matcha", "quiche", "oven", "tip-jar"]
    )
    s = TITLE.apply(s, 0, "serve:oolong", rng())
    prompt = said(TITLE.prompts(s)[0])
    assert prompt.text == "Refill your hand: take 1 card from the display."
    assert [o.id for o in prompt.options] == ["matcha", "quiche", "oven", "tip-jar"]
    assert prompt.options[0].label == "Matcha"
    assert prompt.options[0].detail.startswith("Tea, cost 3, scores 3 points. Customer: wants Tea, Sweet and Soup")


def test_only_the_seat_to_move_is_asked():
    s = arrange(table(4), turn=2)
    assert list(TITLE.prompts(s)) == [2]


def test_deadline_answer_is_deterministic_and_legal():
    s = table(3)
    seat = s["turn"]
    a, b = TITLE.default_answer(s, seat), TITLE.default_answer(s, seat)
    assert a == b
    TITLE.prompts(s)[seat].validate(a)
    TITLE.apply(s, seat, a, rng())
