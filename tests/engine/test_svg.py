"""The drawing kit (games/engine/svg.py): text is measured and wrapped, never cut; a card grows
taller rather than drop a word, and its accessible name carries every word."""

from __future__ import annotations

import re
from html import unescape

from hypothesis import given
from hypothesis import strategies as st

from games.engine.svg import (
    PX,
    READABLE,
    Face,
    H,
    W,
    back_svg,
    card_svg,
    empty_svg,
    fit,
    text_width,
    wrap,
)
from tests.support.fuzzing import fuzz


def texts_of(svg: str) -> list[str]:
    """Every line of text drawn (each <tspan>, or a <text> without one), unescaped."""
    lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)
    lines += re.findall(r"<text[^>]*>([^<]+)</text>", svg)
    return [unescape(t) for t in lines]


def sizes_of(svg: str) -> list[float]:
    return [float(s) for s in re.findall(r'<text[^>]*font-size="([\d.]+)"', svg)]


def view_box(svg: str) -> tuple[float, float]:
    w, h = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups()
    return float(w), float(h)


def test_wrap_keeps_every_word_in_lines_that_fit():
    text = "Customer wants Drink, Drink, Soup, Sweet ♥; likes Retro decor."
    lines = wrap(text, 108, READABLE)
    assert " ".join(lines).split() == text.split()
    assert all(text_width(line, READABLE) <= 108 for line in lines)
    assert len(lines) > 1


def test_a_word_longer_than_a_line_is_broken_over_lines_not_cut():
    word = "Supercalifragilisticexpialidocious"
    lines = wrap(word, 50, READABLE)
    assert "".join(lines) == word
    assert all(text_width(line, READABLE) <= 50 for line in lines)


def test_widths_follow_the_font_bold_wider_and_capitals_wider():
    assert text_width("Mmmm", 10) > text_width("iiii", 10) * 2
    assert text_width("Roast", 10, bold=True) > text_width("Roast", 10)
    assert text_width("é", 10) == text_width("e", 10)  # an accent on its letter's width
    assert text_width("茶", 10) >= 10  # a wide character takes a whole em


def test_fit_never_cuts_when_nothing_fits():
    text = "word " * 60
    size, lines = fit(text, 100, 20, sizes=(10, 9))
    assert size == 9
    assert " ".join(lines).split() == text.split()
    assert "…" not in "".join(lines)


@fuzz(60)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=120), st.integers(20, 200))
def test_wrap_loses_no_character_but_spaces(text, width):
    lines = wrap(text, width, READABLE)
    assert "".join("".join(lines).split()) == "".join(text.split())


def long_face(words: int) -> Face:
    body = " ".join(["Gain one coin for every Snack your café serves"] * words)
    return Face(
        name="Very Long Card Name Here",
        label=f"Very Long Card Name Here: {body}. Customer wants Coffee, Tea, Drink, Snack, Sweet, Soup.",
        corner="3",
        tag="★ pts",
        kind="Coffee · food",
        chips=["+1 call", "+2 servings", "+1 employment"],
        body=body,
        foot="Customer wants Coffee, Tea, Drink, Snack, Sweet, Soup.",
        count=4,
    )


def test_a_card_with_many_words_grows_taller_and_shows_every_word():
    short, tall = card_svg(long_face(1)), card_svg(long_face(6))
    assert view_box(short)[0] == W and view_box(short)[1] >= H
    assert view_box(tall)[1] > view_box(short)[1] > 0
    drawn = " ".join(texts_of(tall)).split()
    for word in long_face(6).body.split() + long_face(6).foot.split():
        assert word in drawn
    assert "…" not in tall


def test_a_card_is_sized_for_a_page_without_the_tables_css():
    svg = card_svg(long_face(1))
    w, h = view_box(svg)
    assert f'width="{w * PX:.0f}"' in svg and f'height="{h * PX:.0f}"' in svg


def test_card_text_is_never_under_the_readable_size():
    for svg in (card_svg(long_face(3)), back_svg("Deck: 40 cards", ["Deck", "40 cards"], count=40), empty_svg("Empty")):
        assert min(sizes_of(svg)) >= READABLE


def test_the_accessible_name_is_the_whole_label_escaped():
    face = long_face(2)
    face.label = 'Latte "special" <b>: & more'
    svg = card_svg(face)
    assert 'aria-label="Latte &quot;special&quot; &lt;b&gt;: &amp; more"' in svg
    assert "<title>Latte &quot;special&quot; &lt;b&gt;: &amp; more</title>" in svg


def test_a_kind_too_long_to_sit_beside_the_tag_goes_under_it_in_whole_words():
    face = Face(name="Beatrice Escudo", label="x", corner="2", tag="2 VP", kind="Chambermaid Chief")
    lines = texts_of(card_svg(face))
    assert "Chambermaid Chief" in lines  # whole words ("Chambermai" / "d Chief" beside the tag before)
    assert not any(line.startswith("d ") for line in lines)
