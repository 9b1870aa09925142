"""REPLY_IMAP_URL read by one bounded parser, and the two forms of a reply address (games.mailin.addresses)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.mailin.addresses import MailboxURLError, canonical_form, parse_mailbox_url, plus_form
from tests.support import hostile as h
from tests.support.fuzzing import fuzz


def test_a_full_url_is_read():
    box = parse_mailbox_url(
        "imaps://turns%40example.org:p%40ss:w0rd@imap.example.org:994/Replies?processed=Done&batch=20"
    )
    assert (box.scheme, box.host, box.port, box.user, box.password) == (
        "imaps",
        "imap.example.org",
        994,
        "turns@example.org",
        "p@ss:w0rd",
    )
    assert (box.folder, box.processed, box.address, box.batch) == ("Replies", "Done", "turns@example.org", 20)
    assert "p@ss" not in repr(box), "the password never shows in a log or a traceback"


def test_defaults_and_a_login_that_is_not_an_address():
    box = parse_mailbox_url("imap+starttls://turns:pw@mail.example.org?address=Turns@Example.org")
    assert (box.port, box.folder, box.processed, box.address, box.batch) == (
        143,
        "INBOX",
        "Processed",
        "turns@example.org",
        50,
    )
    assert parse_mailbox_url("imaps://a%40b.example:pw@[::1]/INBOX").host == "::1"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("", "empty"),
        ("pop3://a%40b.example:pw@host/INBOX", "must start with imaps://"),
        ("imaps://host/INBOX", "needs a login"),
        ("imaps://a%40b.example:pw@/INBOX", "names no IMAP server"),
        ("imaps://a%40b.example:pw@host:99999/INBOX", "port"),
        ("imaps://a%40b.example:pw@host/INBOX?processed=INBOX", "must not be the folder it reads"),
        ("imaps://turns:pw@host/INBOX", "mailbox's own address"),
        ("imaps://a%40b.example:pw@host/INBOX?address=a+b@example.org", "no + in it"),
        ("imaps://a%40b.example:pw@host/INBOX?batch=0", "batch"),
        ("imaps://a%40b.example:pw@host/INBOX?batch=9999", "batch"),
        ("imaps://a%40b.example:pw@host/INBOX?proccessed=Done", "does not know"),
        ("imaps://a%40b.example:pw@host/IN%0ABOX", "plain name"),
        ("imaps://a%40b.example:pw@ho\nst/INBOX", "one line"),
        ("imaps://a%40b.example:pw@host/" + "x" * 300, "plain name"),
        ("imaps://a%40b.example:pw@host/INBOX?" + "&".join(["address=a@b.example"] * 9), "too many options"),
        ("imaps://" + "a" * 3000, "at most 2000"),
    ],
)
def test_a_url_that_cannot_be_read_is_refused_in_words(url, words):
    with pytest.raises(MailboxURLError, match=words.replace("+", r"\+").replace("(", r"\(")):
        parse_mailbox_url(url)


@fuzz(400)
@given(
    url=st.one_of(
        h.hostile_text(300), st.builds(lambda a, b: f"imaps://{a}@{b}", h.hostile_text(40), h.hostile_text(80))
    )
)
def test_any_text_is_a_mailbox_or_a_refusal_in_words(url):
    try:
        box = parse_mailbox_url(url)
    except MailboxURLError as e:
        assert str(e).startswith("REPLY_IMAP_URL") and "\n" not in str(e)
        return
    assert box.host and box.user and "@" in box.address and 1 <= box.batch <= 500


def test_the_plus_form_carries_the_same_token_and_reads_back():
    address = "play+a-12-3-abcdef12-0123456789abcdef0123@reply.example.org"
    plus = plus_form(address, "turns@example.org", "play+")
    assert plus == "turns+a-12-3-abcdef12-0123456789abcdef0123@example.org"
    assert canonical_form(plus, "turns@example.org", "play+", "reply.example.org") == address
    assert canonical_form(plus.upper(), "turns@example.org", "play+", "reply.example.org") == address
    for other in ("turns@example.org", "other+x@example.org", "turns+x@evil.example", "turns+@example.org", "x" * 400):
        assert canonical_form(other, "turns@example.org", "play+", "reply.example.org") == other
    assert canonical_form(plus, "", "play+", "reply.example.org") == plus, "no mailbox: no plus form"
