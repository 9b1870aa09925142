"""Prompts as HTML forms and back: every kind renders and reads."""

from __future__ import annotations

from django.http import QueryDict

from games.actions.answers import answer_from_post
from games.engine import Choose, ChooseMany, Composite, Number, Option, Order
from games.forms.prompts import kept_picks, render_prompt

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


def test_a_ranking_is_rank_boxes_each_labelled_with_no_list_numbers_beside_them():
    """Café Romantica's draft ranks eight cards: printed list numbers 1–8 beside the rank boxes read as
    ranks too, so the list is unnumbered and each box comes first in its own label, then the name."""
    p = Order("Rank them", tuple(Option(f"c{i}", f"Card {i}", "") for i in range(8))).to_dict()
    html = render_prompt(p)
    assert "<ol" not in html and '<ul class="ranks">' in html
    rows = html.split('<li class="rank">')[1:]
    assert len(rows) == 8
    for i, row in enumerate(rows):
        assert (
            row.startswith(f'<label><input type="number" name="answer.c{i}"')
            and f'<span class="label">Card {i}</span>' in row
        )
    assert answer_from_post(p, post("&".join(f"answer.c{i}={8 - i}" for i in range(8)))) == [
        f"c{i}" for i in range(7, -1, -1)
    ]


def test_a_refused_forms_picks_are_ticked_again_and_only_there():
    p = ChooseMany("Pick exactly 2", (*OPTS, Option("c", "Gamma", "")), 2, 2).to_dict()
    kept = kept_picks(post("answer=a&prompt_key=k&version=3&csrfmiddlewaretoken=x"))
    assert kept == {"answer": ["a"]}, "only the answer's own fields are kept"
    html = render_prompt(p, picked=kept)
    assert 'value="a" checked' in html and 'value="b" checked' not in html and 'value="c" checked' not in html
    assert "checked" not in render_prompt(p), "a fresh question starts blank"


def test_kept_picks_fill_numbers_and_ranks_escaped_and_bounded():
    assert 'value="7"' in render_prompt(Number("n", 0, 9).to_dict(), picked={"answer": ["7"]})
    ranks = render_prompt(Order("o", OPTS).to_dict(), picked={"answer.a": ["2"], "answer.b": ['"><b>']})
    assert 'name="answer.a" min="1" max="2" value="2"' in ranks and "&quot;&gt;&lt;b&gt;" in ranks
    many = kept_picks(post("&".join(f"answer.{i}={'x' * 500}" for i in range(100))))
    assert len(many) <= 64 and all(len(v[0]) <= 200 for v in many.values())


def test_a_number_is_a_box_between_minus_and_plus_starting_at_its_lowest():
    """A bid is stepped with − and + (shown by the page's script; without it, the box alone), and
    starts at its lowest number, so sending it as it is bids nothing."""
    p = Number("Most you would pay for turn order 1", 0, 5).to_dict()
    html = render_prompt(p, "answer.1")
    assert 'name="answer.1" min="0" max="5" value="0" required' in html
    assert html.count('class="step"') == 2 and html.count(" hidden>") == 2
    assert 'aria-label="One less: Most you would pay for turn order 1"' in html
    assert 'aria-label="One more: Most you would pay for turn order 1"' in html
    assert answer_from_post(p, post("answer.1=3"), "answer.1") == 3
