"""Hostile SMTP into the listener: bad addresses, huge lines, malformed MIME, binary, many recipients.

Whatever a client sends, the listener answers in SMTP's words (a three-digit reply, or a closed
connection after a 421), keeps answering the next client, and changes no game: a message it takes
is handled by the reader as a problem or ignored (never a bug: no row FAILED), unless the reader
genuinely finds a legal answer from the seat's own player at the top of it.
"""

from __future__ import annotations

import itertools
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import links, reply_text
from games.mailin import store
from games.mailin.listener import PeerLimits
from games.models import Event, Game, InboundMail, Seat
from tests.mailin.conftest import REPLY_DOMAIN
from tests.mailin.replies import ANA, reply_mime
from tests.support import hostile as h
from tests.support.fuzzing import fuzz

pytestmark = pytest.mark.django_db(transaction=True)
SERIAL = itertools.count()


class Dialogue:
    """A raw SMTP client: sends bytes as they are, reads each reply's code (None once the line is closed)."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("rb")
        self.greeting = self.reply()

    def reply(self) -> int | None:
        code = None
        try:
            while True:
                line = self.file.readline(4096)
                if not line:
                    return None
                assert line[:3].isdigit(), f"a reply is a three-digit code: {line[:80]!r}"
                code = int(line[:3])
                if line[3:4] != b"-":
                    return code
        except (ConnectionResetError, TimeoutError):
            return None

    def send(self, data: bytes) -> int | None:
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            return None
        return self.reply()

    def close(self) -> None:
        try:
            self.sock.sendall(b"QUIT\r\n")
        except OSError:
            pass
        self.file.close()
        self.sock.close()


def nested(depth: int) -> bytes:
    head = b"".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode() for i in range(depth))
    tail = b"".join(f"\r\n--b{i}--\r\n".encode() for i in reversed(range(depth)))
    return head + b"Content-Type: text/plain\r\n\r\nhello" + tail


def malformed(to: str) -> dict[str, bytes]:
    """Messages no mail program writes, from the seat's own player to its genuine address."""
    top = f"From: {ANA}\r\nTo: {to}\r\nSubject: Re: Your move\r\nMessage-ID: <{next(SERIAL)}@x>\r\n".encode()
    return {
        "no boundary": top + b"Content-Type: multipart/alternative\r\n\r\n--x\r\nhello\r\n",
        "boundary never met": top + b'Content-Type: multipart/mixed; boundary="zz"\r\n\r\nno parts here\r\n',
        "nested deep": top + nested(1200),
        "bad base64": top + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!*&^%$\r\n",
        "unknown charset": top + b"Content-Type: text/plain; charset=x-klingon\r\n\r\n\xff\xfe\xfd hello\r\n",
        "broken headers": top + b"this line has no colon\r\nX-\x00: nul\r\n\r\nhello\r\n",
        "8-bit from": f"From: \xff\xfe <{ANA}>\r\nTo: {to}\r\n\r\nhello\r\n".encode("latin-1"),
        "bad encoded word": f"From: =?utf-8?b?!!!?= <{ANA}>\r\nTo: {to}\r\n\r\nhello\r\n".encode(),
        "huge to header": f"From: {ANA}\r\nTo: {to}, {'ab ' * 2500}\r\n\r\nhello\r\n".encode(),
        "bad quoted-printable": top + b"Content-Transfer-Encoding: quoted-printable\r\n\r\n=ZZ=\r\nhello=\r\n",
        "rfc822 in rfc822": top + b"Content-Type: message/rfc822\r\n\r\nContent-Type: message/rfc822\r\n\r\nhi\r\n",
        "empty": b"\r\n",
        "headers only": top,
        "html with script": top + b"Content-Type: text/html\r\n\r\n<script>alert(1)</script><b>hello</b>\r\n",
        "binary": top + bytes(range(256)) * 4 + b"\r\n",
        "bad date and dup from": top + b"From: mallory@example.net\r\nDate: 99 Foo 99999\r\n\r\nhello\r\n",
    }


def stuffed(raw: bytes) -> bytes:
    """The message as DATA carries it: CRLF line endings, leading dots doubled, the end marker."""
    lines = raw.replace(b"\r\n", b"\n").split(b"\n")
    return b"".join((b"." + line if line.startswith(b".") else line) + b"\r\n" for line in lines) + b".\r\n"


def test_hostile_smtp_is_answered_in_words_and_changes_no_game(listener, make_game, settings):
    settings.REPLY_MAIL_MAX_BYTES = 200_000
    listener.handler.limits = PeerLimits(100_000, 100_000, 100)
    state: dict = {"game": make_game()}

    def seat_asked() -> tuple[Game, Seat]:
        game = Game.objects.get(pk=state["game"].pk)
        if game.status != Game.Status.ACTIVE or 0 not in game.engine.prompts(game.state):
            game = state["game"] = make_game()
        return game, Seat.objects.select_related("player").get(game=game, index=0)

    @fuzz(120)
    @given(
        hello=st.sampled_from((b"EHLO mx.example.net\r\n",) * 6 + (b"HELO x\r\n", b"EHLO\r\n", b"", b"\x00\xff\r\n")),
        sender=st.one_of(
            st.sampled_from((ANA,) * 8 + ("", "<>", "a@b@c", "@", "x" * 600, "ana@example.com SIZE=99999999999")),
            h.hostile_text(60),
        ),
        first_genuine=st.sampled_from((True, True, True, False)),
        recipients=st.lists(
            st.one_of(
                st.sampled_from(("genuine", "genuine", "forged", "other", "bare", "quoted", "long", "utf8")),
                h.hostile_text(60),
            ),
            max_size=12,
        ),
        garble=h.garbling(),
        body=st.one_of(
            st.sampled_from(sorted(malformed("x"))).map(lambda k: ("malformed", k)),
            st.tuples(st.just("text"), h.hostile_text(300)),
            st.tuples(st.just("bytes"), st.binary(max_size=3000)),
            st.sampled_from((("line", ""), ("huge", ""), ("none", ""))),
        ),
    )
    def example(hello, sender, first_genuine, recipients, garble, body) -> None:
        game, seat = seat_asked()
        genuine = links.reply_address(seat, game.version, "k", kind="a")
        local = genuine.partition("@")[0]
        named = {
            "genuine": genuine,
            "forged": garble(genuine),
            "other": "someone@example.net",
            "bare": "postmaster",
            "quoted": f'"{local} x"@{REPLY_DOMAIN}',
            "long": f"{'a' * 5000}@{REPLY_DOMAIN}",
            "utf8": f"pläy+{local}@{REPLY_DOMAIN}",
        }
        addresses = [genuine] * first_genuine + [named.get(r, r) for r in recipients]
        version_before, events_before = game.version, Event.objects.filter(game=game).count()
        rows_before = InboundMail.objects.count()

        talk = Dialogue(listener.port)
        assert talk.greeting == 220
        if hello:
            talk.send(hello)
        talk.send(f"MAIL FROM:<{sender}>\r\n".encode("utf-8", "surrogatepass"))
        for address in addresses:
            code = talk.send(f"RCPT TO:<{address}>\r\n".encode("utf-8", "surrogatepass"))
            assert code is None or 200 <= code < 600
        kind, value = body
        if kind == "malformed":
            raw = malformed(genuine)[value]
        elif kind == "text":
            raw = reply_mime(genuine, ANA, value.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
        elif kind == "bytes":
            raw = value
        elif kind == "line":
            raw = b"Subject: x\r\n\r\n" + b"y" * 5000 + b"\r\n"
        else:
            raw = b"Subject: x\r\n\r\n" + (b"z" * 900 + b"\r\n") * 300  # over the 200 kB bound
        if kind != "none":
            code = talk.send(b"DATA\r\n")
            if code == 354:
                code = talk.send(stuffed(raw))
                assert code in (250, 451, 500, 552, None), code
        talk.close()
        listener.handler.wait_idle()

        again = Dialogue(listener.port)  # the listener still answers
        assert again.greeting == 220 and again.send(b"NOOP\r\n") == 250
        again.close()
        assert not InboundMail.objects.filter(status__in=["failed", "gave_up"]).exists(), "no bug while reading"
        game.refresh_from_db()
        changed = game.version != version_before or Event.objects.filter(game=game).count() != events_before
        if changed:  # only the seat's own player's legal answer, read at the top of the message, plays
            mail = InboundMail.objects.order_by("-pk").first()
            assert mail.pk > rows_before and mail.result == "played"
            assert reply_text.answer_text(reply_text.body_of(store.message_of(mail))).strip()

    example()
    results = set(InboundMail.objects.values_list("result", flat=True))
    assert {"malformed", "illegal"} <= results, "hostile messages reached the reader, and were refused"


def test_a_message_nested_deeper_than_python_walks_is_refused_as_malformed(listener, make_game):
    game = make_game()
    seat = Seat.objects.get(game=game, index=0)
    address = links.reply_address(seat, game.version, "k")
    mail = store.store(malformed(address)["nested deep"], "smtp", ANA, [address], "127.0.0.1")
    assert store.handle(mail.pk) == "malformed"
    assert InboundMail.objects.get().status == "handled" and not Event.objects.filter(game=game, kind="answer")
