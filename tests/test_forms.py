"""Prompts as HTML forms and back: every kind renders and reads."""

from __future__ import annotations

from django.http import QueryDict

from games.engine import Choose, ChooseMany, Composite, Number, Option, Order
from games.forms import answer_from_post, render_prompt

OPTS = (Option("a", "Alpha <b>", "first"), Option("b", "Beta", ""))


def post(data: str) -> QueryDict:
    return QueryDict(data)


def test_choose_renders_radios_escaped_and_reads_back():
    p = Choose("Pick", OPTS).to_dict()
    html = render_prompt(p)
    assert 'type="radio" name="answer" value="a"' in html and "Alpha &lt;b&gt;" in html
    assert answer_from_post(p, post("answer=b")) == "b"


def test_choose_many_reads_every_ticked_box():
    p = ChooseMany("Keep", OPTS, 0, 2).to_dict()
    assert 'type="checkbox"' in render_prompt(p)
    assert answer_from_post(p, post("answer=a&answer=b")) == ["a", "b"]


def test_number_and_order_and_composite_read_back():
    assert answer_from_post(Number("n", 0, 9).to_dict(), post("answer=7")) == 7
    o = Order("o", OPTS).to_dict()
    assert answer_from_post(o, post("answer.a=2&answer.b=1")) == ["b", "a"]
    c = Composite("c", (("x", Number("x", 0, 3)), ("y", Choose("y", OPTS)))).to_dict()
    html = render_prompt(c)
    assert 'name="answer.x"' in html and 'name="answer.y"' in html
    assert answer_from_post(c, post("answer.x=2&answer.y=a")) == {"x": 2, "y": "a"}
