"""YAML the safe loader parses but cannot build into values (a date that does not exist, a number
Python will not convert, bad base64, unhashable keys): a refusal in words naming the file and the
line, never a server error, nothing stored.

The named cases first (through read_upload, the upload page and the admin's card form), then a
Hypothesis fuzz that writes YAML text from every YAML 1.1 resolver kind, tag, anchor and shape.
Deterministic by default; FUZZ_SEED=<int> explores other examples, FUZZ_EXAMPLES=<factor> runs
that many times more.
"""

from __future__ import annotations

import io
import json
import math
import re
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from cardsets.forms import CardForm
from cardsets.forms import limits as service_limits
from cardsets.kinds import KINDS
from cardsets.models import CardSet
from cardsets.reading import MAX_DIGITS, Limits, UploadError, parse_yaml, read_upload
from cardsets.shipped import store_shipped
from tests.cardsets.helpers import as_uploads, baras_files
from tests.support import fuzzing

BARAS = KINDS["cafe_baras"]
LIMITS = Limits(upload_bytes=300_000, zip_bytes=400_000)


def refused_upload(name: str, blob: bytes) -> str:
    """The words read_upload refuses a set with when one of its files is `blob`."""
    uploads = [(n, blob if n == name else b) for n, b in as_uploads(baras_files())]
    with pytest.raises(UploadError) as e:
        read_upload(BARAS, uploads, LIMITS)
    return str(e.value)


# ------------------------------------------------------------------ the five uploads that were a 500


def test_a_date_that_does_not_exist_is_named_with_its_line():
    words = refused_upload("guests.yaml", b"# guests\n\nwhen: 2001-02-30\n")
    assert words == "guests.yaml, line 3: 2001-02-30 is not a date that exists; quote it if it is text."


def test_a_date_and_time_in_a_month_that_does_not_exist_is_named_with_its_line():
    words = refused_upload("counters.yaml", b"a: 2001-13-01 10:00:00")
    assert words == "counters.yaml, line 1: 2001-13-01 10:00:00 is not a date that exists; quote it if it is text."


def test_a_timezone_offset_out_of_range_is_named_with_its_line():
    words = refused_upload("counters.yaml", b"a: 1\nb:\n  - 2001-12-14t21:59:43.10-99:00")
    assert words == (
        "counters.yaml, line 3: 2001-12-14t21:59:43.10-99:00 is not a date that exists; quote it if it is text."
    )


def test_a_whole_number_of_5000_digits_is_refused_before_it_is_converted():
    words = refused_upload("cafe_cards.yaml", b"a: " + b"1" * 5000)
    assert words == (
        f"cafe_cards.yaml, line 1: a number of 5,000 digits is longer than card data may hold "
        f"(at most {MAX_DIGITS} digits)."
    )


@pytest.mark.django_db
def test_the_five_are_refused_on_the_upload_page_and_nothing_is_stored(client, django_user_model):
    store_shipped(CardSet)
    client.force_login(django_user_model.objects.create_user("host@example.org", None, name="Hana"))
    before = CardSet.objects.count()
    for blob, words in [
        (b"a: 2001-02-30", "line 1: 2001-02-30 is not a date that exists"),
        (b"a: 2001-13-01 10:00:00", "line 1: 2001-13-01 10:00:00 is not a date that exists"),
        (b"x: y\na: 2001-12-14t21:59:43.10-99:00", "line 2: 2001-12-14t21:59:43.10-99:00 is not a date that exists"),
        (b"a: " + b"1" * 5000, "line 1: a number of 5,000 digits is longer than card data may hold"),
        (b"a: !!binary '!!'", "line 1: a !!binary value is not plain data"),
    ]:
        uploads = [(n, blob if n == "guests.yaml" else b) for n, b in as_uploads(baras_files())]
        posted = []
        for n, b in uploads:
            f = io.BytesIO(b)
            f.name = n
            posted.append(f)
        r = client.post(
            reverse("cardsets:upload"), {"title": "cafe_baras", "name": "Bad dates", "provenance": "", "files": posted}
        )
        assert r.status_code == 400 and f"guests.yaml, {words}" in r.content.decode(), words
    assert CardSet.objects.count() == before


def test_the_admins_card_form_refuses_them_at_the_field():
    form = CardForm(data={"customer": "wants: 2001-02-30"}, fields={"customer": "data"})
    assert not form.is_valid()
    assert form.errors["customer"] == [
        "customer, line 1: 2001-02-30 is not a date that exists; quote it if it is text."
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a: 1e999", None),  # YAML 1.1 floats need a dot: this is text
        ("a: 1.0e+999", "line 1: 1.0e+999 is not a number card data may hold."),
        ("a: .nan", "line 1: .nan is not a number card data may hold."),
        ("a: !!float 1e99999", "line 1: 1e99999 is not a number card data may hold."),
        ("a: !!float foo", "line 1: foo is not a number; quote it if it is text."),
        ("a: !!int foo", "line 1: foo is not a whole number; quote it if it is text."),
        ("a: !!int ''", 'line 1: "" is not a whole number'),
        ("a: 0x_", "line 1: 0x_ is not a whole number"),
        ("a: 0x" + "f" * 5000, "line 1: a number of 5,000 digits is longer"),
        ("a: 0b" + "1" * 20_000, "line 1: a number of 20,000 digits is longer"),
        ("a: 0" + "7" * 5000, "line 1: a number of 5,001 digits is longer"),
        ("a: 1" + "0" * 18, "line 1: a number of 19 digits is longer"),
        ("a: 1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18", "line 1: a number of 31 digits is longer"),
        ("a: " + ":".join(["0"] * 300) + ".5", "is not a number"),
        ("a: !!binary 'abc'", "line 1: a !!binary value is not plain data"),
        ("a: !!timestamp foo", "line 1: foo is not a date; quote it if it is text."),
        ("a: !!timestamp 2001-02-30", "line 1: 2001-02-30 is not a date that exists"),
        ("a: 0000-01-01", "line 1: 0000-01-01 is not a date that exists"),
        ("a: 2001-01-01 25:00:00", "line 1: 2001-01-01 25:00:00 is not a date that exists"),
        ("\n\nwhen: 2024-01-01", "line 3: the value '2024-01-01' is not plain data"),
        ("a: !!bool maybe", "line 1: maybe cannot be read as !!bool; quote it if it is text."),
        ("a: !!set {a, b}", "line 1: a !!set value is not plain data"),
        ("a: !!omap [{a: 1}]", "line 1: a !!omap value is not plain data"),
        ("a: !!pairs [1]", "line 1: a !!pairs value is not plain data"),
        ("a: {<<: 1}", "line 1: not card data (expected a mapping or list of mappings for merging"),
        ("a: 1\nb: {<<: [1]}", "line 2: not card data (expected a mapping for merging"),
        ("? [a]\n: b", "line 1: a key is a list or a mapping; keys are text."),
        ("{[1]: 2}", "line 1: a key is a list or a mapping; keys are text."),
        ("x: 1\n{a: 1}: 2", None),  # a block key may not be a flow mapping: a syntax error
        ("a: !!str [1]", "line 1: not card data (expected a scalar node, but found sequence)."),
        ("a: !!python/name:os.system", "uses a YAML tag that is not allowed"),
        ("a: 190:20:30", None),
        ("a: -0b1010_1010", None),
        ("a: 999_999_999_999_999_999", None),
    ],
)
def test_values_the_loader_cannot_build_are_told_with_their_line(text, words):
    if words is None:
        try:
            parse_yaml("cards.yaml", text.encode(), LIMITS)
        except UploadError as e:
            assert str(e).startswith("cards.yaml")
        return
    with pytest.raises(UploadError) as e:
        parse_yaml("cards.yaml", text.encode(), LIMITS)
    assert str(e.value).startswith("cards.yaml") and words in str(e.value), str(e.value)


def test_numbers_within_bounds_and_sexagesimal_ones_are_kept():
    data = parse_yaml(
        "cards.yaml", b"a: 190:20:30\nb: -0b1010\nc: 0x1F\nd: 017\ne: 999_999_999_999_999_999\nf: 1.5e+3", LIMITS
    )
    assert data == {"a": 685230, "b": -10, "c": 31, "d": 15, "e": 10**18 - 1, "f": 1500.0}


# ------------------------------------------------------------------ the fuzz


def fuzz(examples: int):
    """Deterministic unless FUZZ_SEED is set; the examples' runtime is bounded, not each one's."""
    return fuzzing.fuzz(examples, shrink=True, health=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def digits(draw, low: int = 1, high: int = 30, alphabet: str = "0123456789") -> str:
    """Digits; one time in sixteen very many (past Python's 4,300-digit conversion limit)."""
    if draw(st.integers(0, 15)) == 0:
        return alphabet[-1] * draw(st.integers(4_000, 6_000))
    return draw(st.text(alphabet, min_size=low, max_size=high))


def underscored(text: str, where: int) -> str:
    return text[:where] + "_" + text[where:] if where < len(text) else text


SIGN = st.sampled_from(["", "-", "+"])
TWO = st.integers(0, 99).map(lambda n: f"{n:02d}")
SIXTY = st.integers(0, 59).map(lambda n: f"{n:02d}")


@st.composite
def timestamps(draw) -> str:
    """The resolver's timestamp shapes, each field in or out of range."""
    month, day = draw(st.one_of(st.tuples(st.integers(1, 12), st.integers(1, 31)), st.tuples(TWO, TWO)))
    date = f"{draw(st.integers(0, 9999)):04d}-{month}-{day}"
    if draw(st.booleans()):
        return date
    sep = draw(st.sampled_from(["T", "t", " ", "  "]))
    in_range = st.tuples(st.integers(0, 23).map(str), SIXTY, SIXTY)
    hour, minute, second = draw(st.one_of(in_range, st.tuples(st.integers(0, 99).map(str), TWO, TWO)))
    time = f"{hour}:{minute}:{second}"
    if draw(st.booleans()):
        time += "." + draw(st.text("0123456789", min_size=0, max_size=12))
    zone = draw(
        st.one_of(
            st.just(""),
            st.just("Z"),
            st.builds(lambda s, h, m: f"{s}{h}{m}", st.sampled_from(["+", "-", " +", " -"]), TWO, st.just("")),
            st.builds(lambda s, h, m: f"{s}{h}:{m}", st.sampled_from(["+", "-"]), TWO, TWO),
        )
    )
    return f"{date}{sep}{time}{zone}"


@st.composite
def integers(draw) -> str:
    """Every YAML 1.1 int form: decimal, binary, octal, hex, sexagesimal, with underscores."""
    form = draw(st.sampled_from(["dec", "bin", "oct", "hex", "sex", "zero"]))
    if form == "dec":
        body = draw(st.sampled_from("123456789")) + draw(digits(0))
    elif form == "bin":
        body = "0b" + draw(digits(0, 80, "01"))
    elif form == "oct":
        body = "0" + draw(digits(1, 30, "01234567"))
    elif form == "hex":
        body = "0x" + draw(digits(0, 30, "0123456789abcdefABCDEF"))
    elif form == "sex":
        parts = draw(st.lists(st.integers(0, 59), min_size=1, max_size=40))
        body = draw(st.sampled_from("123456789")) + draw(digits(0, 6)) + "".join(f":{p}" for p in parts)
    else:
        body = "0"
    if draw(st.booleans()):
        body = underscored(body, draw(st.integers(0, 40)))
    return draw(SIGN) + body


@st.composite
def floats(draw) -> str:
    """YAML 1.1 floats: a dot, an optional exponent (huge ones too), inf, nan, sexagesimal."""
    form = draw(st.sampled_from(["plain", "exp", "special", "sex"]))
    if form == "special":
        return draw(SIGN) + draw(st.sampled_from([".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"]))
    if form == "sex":
        parts = draw(st.lists(st.integers(0, 59), min_size=1, max_size=300))
        return draw(SIGN) + "1" + "".join(f":{p}" for p in parts) + "." + draw(digits(0, 5))
    text = draw(digits(1, 20)) + "." + draw(digits(0, 20))
    if form == "exp":
        text += draw(st.sampled_from(["e", "E"])) + draw(st.sampled_from(["+", "-"])) + draw(digits(1, 6))
    return draw(SIGN) + text


BOOLS = st.sampled_from("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF y n".split())
NULLS = st.sampled_from(["~", "null", "Null", "NULL", "''"])
TAGS = st.sampled_from(
    [
        "!!binary",
        "!!timestamp",
        "!!int",
        "!!float",
        "!!bool",
        "!!null",
        "!!str",
        "!!set",
        "!!omap",
        "!!pairs",
        "!!map",
        "!!seq",
        "!!merge",
        "!!value",
        "!local",
        "!<tag:yaml.org,2002:int>",
        "!!python/object/apply:os.system",
    ]
)
ANCHORS = range(4)  # an anchor or an alias draws a number; the text names anchors in order (see Writer)


def double_quoted(text: str) -> str:
    """Any text as a double-quoted YAML scalar: what is not printable as its \\U escape."""
    return '"' + "".join(ch if ch.isprintable() and ch not in '"\\' else f"\\U{ord(ch):08x}" for ch in text) + '"'


BARE = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)
SCALARS = st.one_of(
    timestamps(),
    integers(),
    floats(),
    BOOLS,
    NULLS,
    st.sampled_from(["<<", "=", "0b", "0x", "0o17", "1e999", "-", ".", "a b", "x:y", "2001-02-30x", ""]),
    st.text(max_size=30).map(double_quoted),
    BARE.map(lambda text: "'" + text.replace("'", "''") + "'"),
    BARE,
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=!", max_size=24),
)

# a node: (kind, body, block?, anchor number or None, tag or ""); kind is scalar, alias, seq or map
MAYBE_ANCHOR = st.one_of(st.none(), st.none(), st.none(), st.sampled_from(ANCHORS))
MAYBE_TAG = st.one_of(st.just(""), st.just(""), st.just(""), TAGS)
LEAVES = st.one_of(
    st.tuples(st.just("scalar"), SCALARS, st.just(False), MAYBE_ANCHOR, MAYBE_TAG),
    st.tuples(st.just("scalar"), SCALARS, st.just(False), MAYBE_ANCHOR, MAYBE_TAG),
    st.tuples(st.just("alias"), st.sampled_from(ANCHORS), st.just(False), st.none(), st.just("")),
)
KEYS = st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True).map(lambda s: ("scalar", s, False, None, ""))


def trees(leaves: st.SearchStrategy[tuple]) -> st.SearchStrategy[tuple]:
    """Lists and mappings, flow or block, keys of every kind (complex keys and merges too)."""

    def extend(children: st.SearchStrategy[tuple]) -> st.SearchStrategy[tuple]:
        keys = st.one_of(KEYS, KEYS, st.just(("scalar", "<<", False, None, "")), children)
        return st.one_of(
            st.tuples(st.just("seq"), st.lists(children, max_size=5), st.booleans(), MAYBE_ANCHOR, MAYBE_TAG),
            st.tuples(
                st.just("map"), st.lists(st.tuples(keys, children), max_size=5), st.booleans(), MAYBE_ANCHOR, MAYBE_TAG
            ),
        )

    return st.recursive(leaves, extend, max_leaves=15)


class Writer:
    """A node tree as YAML text. Anchors are named in the order the text gives them (a0, a1, ...),
    and an alias names one already given, so that most aliases resolve and none is given twice."""

    def __init__(self) -> None:
        self.anchors = 0

    def props(self, node: tuple) -> str:
        _kind, _body, _block, anchor, tag = node
        out = []
        if anchor is not None:
            out.append(f"&a{self.anchors}")
            self.anchors += 1
        if tag:
            out.append(tag)
        return " ".join(out)

    def alias(self, number: int) -> str:
        return f"*a{number % self.anchors}" if self.anchors else "~"  # none given yet

    def flow(self, node: tuple) -> str:
        kind, body = node[0], node[1]
        if kind == "alias":
            return self.alias(body)
        props = self.props(node)
        head = props + " " if props else ""
        if kind == "scalar":
            return head + body
        if kind == "seq":
            return head + "[" + ", ".join(self.flow(c) for c in body) + "]"
        return head + "{" + ", ".join(f"? {self.flow(k)} : {self.flow(v)}" for k, v in body) + "}"

    def block(self, node: tuple, indent: int) -> str:
        """The text after `key:`, `- `, `? ` or `:`: inline (scalars, flow) or an indented block."""
        kind, body, is_block = node[0], node[1], node[2]
        if not (is_block and body):
            return " " + self.flow(node)
        props = self.props(node)
        pad = " " * indent
        head = " " + props if props else ""
        if kind == "seq":
            return head + "".join(f"\n{pad}-{self.block(c, indent + 2)}" for c in body)
        lines = []
        for k, v in body:
            if k[0] == "scalar" and k[3] is None and not k[4]:
                lines.append(f"\n{pad}{k[1]}:{self.block(v, indent + 2)}")
            else:
                lines.append(f"\n{pad}?{self.block(k, indent + 2)}\n{pad}:{self.block(v, indent + 2)}")
        return head + "".join(lines)


@st.composite
def documents(draw) -> str:
    """A file: a block mapping of trees (as most card files are), or one tree, flow or block."""
    writer = Writer()
    if draw(st.booleans()):
        items = draw(st.lists(st.tuples(st.from_regex(r"[a-z]{1,6}", fullmatch=True), trees(LEAVES)), max_size=6))
        return "".join(f"{k}:{writer.block(v, 2)}\n" for k, v in items)
    tree = draw(trees(LEAVES))
    return (writer.flow(tree) if draw(st.booleans()) else writer.block(tree, 0).lstrip(" \n")) + "\n"


def assert_plain(value: Any) -> None:
    """What parse_yaml gives back is JSON's: text keys, finite numbers of bounded digits."""
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str)
            assert_plain(v)
    elif isinstance(value, list):
        for v in value:
            assert_plain(v)
    elif isinstance(value, bool) or value is None or isinstance(value, str):
        pass
    elif isinstance(value, int):
        assert abs(value) < 10**MAX_DIGITS
    else:
        assert isinstance(value, float) and math.isfinite(value)


def read_or_refused(text: str) -> None:
    """parse_yaml gives plain data or refuses in words that start with the file's name: nothing else."""
    try:
        data = parse_yaml("cards.yaml", text.encode(), LIMITS)
    except UploadError as e:
        assert re.match(r"cards\.yaml[:,]", str(e)), str(e)
        return
    assert_plain(data)
    json.dumps(data)  # what is stored: fails on ints past the conversion limit


@fuzz(400)
@given(scalar=SCALARS, tag=st.one_of(st.just(""), st.just(""), TAGS.map(lambda t: t + " ")), line=st.integers(0, 3))
def test_fuzz_every_scalar_kind_and_tag(scalar, tag, line):
    text = "\n" * line + f"a: {tag}{scalar}\n"
    read_or_refused(text)


@fuzz(200)
@given(text=documents())
def test_fuzz_generated_yaml_documents(text):
    read_or_refused(text)


@fuzz(150)
@given(text=st.text(alphabet=st.sampled_from(list("ab01:-.!&*?[]{},<# \n'\"|>_eE+xo~")), max_size=80))
def test_fuzz_yaml_punctuation_soup(text):
    read_or_refused(text)


def test_the_service_limits_read_every_shipped_file_unchanged():
    for name, blob in as_uploads(baras_files()):
        assert parse_yaml(name, blob, service_limits()) == baras_files()[name]
