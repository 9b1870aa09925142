"""Each chat format, as the far end receives it (a server on 127.0.0.1), and how its answers read."""

from __future__ import annotations

import json

import pytest

from games.channels.base import ChannelError, Ping
from games.channels.chat import ChatChannel, classify
from games.models import ChatHook, DeliveredMail

pytestmark = pytest.mark.django_db

PING = Ping(
    title="Your move in Friday café",
    body="Your move, Ana: Pick a card. Due Sat 28 Nov 2026, 18:00 (Europe/Paris).",
    url="http://testserver/play/tok/",
    game_name="Friday café",
    whose_move="Ana",
    deadline="Sat 28 Nov 2026, 18:00 (Europe/Paris)",
)
KEY = "<cafe-turns.1.abc@localhost>"


@pytest.fixture
def hook_for(hook_server, organiser):
    def make(fmt: str, path: str = "/hook/s3cret") -> ChatHook:
        return ChatHook.objects.create(owner=organiser, format=fmt, url=hook_server.url(path))

    return make


def sent(hook_server):
    assert len(hook_server.received) == 1
    got = hook_server.received[0]
    assert got.method == "POST" and got.headers["Content-Type"] == "application/json"
    return got


def test_discord_gets_content_and_no_mentions(hook_server, hook_for):
    ChatChannel().send_ping(PING, hook_for("discord"), KEY)
    got = sent(hook_server)
    assert got.path == "/hook/s3cret"
    assert got.json() == {"content": f"{PING.body}\n{PING.url}", "allowed_mentions": {"parse": []}}


def test_slack_gets_text(hook_server, hook_for):
    ChatChannel().send_ping(PING, hook_for("slack"), KEY)
    assert sent(hook_server).json() == {"text": f"{PING.body}\n{PING.url}"}


def test_matrix_hookshot_gets_text_and_escaped_html(hook_server, hook_for):
    ping = Ping(title="<b>Café</b>", body="Ana & Ben", url="http://testserver/w/")
    ChatChannel().send_ping(ping, hook_for("matrix"), KEY)
    body = sent(hook_server).json()
    assert body["text"] == "Ana & Ben\nhttp://testserver/w/"
    assert (
        "<b>Café" not in body["html"] and "&lt;b&gt;Café&lt;/b&gt;" in body["html"] and "Ana &amp; Ben" in body["html"]
    )


def test_telegram_gets_its_chat_id_and_text(hook_server, hook_for):
    ChatChannel().send_ping(PING, hook_for("telegram", "/bot123:ABC/sendMessage?chat_id=-10042"), KEY)
    got = sent(hook_server)
    assert got.path == "/bot123:ABC/sendMessage?chat_id=-10042"
    assert got.json() == {"chat_id": "-10042", "text": f"{PING.body}\n{PING.url}", "disable_web_page_preview": True}


def test_ntfy_publishes_json_to_the_root_with_the_topic(hook_server, hook_for):
    ChatChannel().send_ping(PING, hook_for("ntfy", "/cafe-turns-ana"), KEY)
    got = sent(hook_server)
    assert got.path == "/"
    assert got.json() == {"topic": "cafe-turns-ana", "title": PING.title, "message": PING.body, "click": PING.url}


def test_gotify_gets_title_message_and_click(hook_server, hook_for):
    ChatChannel().send_ping(PING, hook_for("gotify", "/message?token=AbC"), KEY)
    got = sent(hook_server)
    assert got.path == "/message?token=AbC"
    body = got.json()
    assert body["title"] == PING.title and body["priority"] == 5
    assert body["extras"] == {"client::notification": {"click": {"url": PING.url}}}


def test_plain_json_gets_every_field_and_the_idempotency_key(hook_server, hook_for):
    ChatChannel().send_ping(PING, hook_for("json"), KEY)
    got = sent(hook_server)
    assert got.headers["Idempotency-Key"] == KEY
    assert got.json() == {
        "title": PING.title,
        "body": PING.body,
        "url": PING.url,
        "game": "Friday café",
        "whose_move": "Ana",
        "deadline": PING.deadline,
        "key": KEY,
    }


@pytest.mark.parametrize(
    "status, permanent",
    [
        (401, True),
        (403, True),
        (404, True),
        (410, True),
        (400, True),
        (301, True),
        (429, False),
        (500, False),
        (503, False),
    ],
)
def test_answers_read_as_permanent_or_temporary(status, permanent):
    error = classify(status)
    assert isinstance(error, ChannelError) and error.permanent is permanent
    assert str(status) in error.reason


def test_a_2xx_is_delivered():
    assert classify(200) is None and classify(204) is None


def test_a_failing_answer_shows_no_response_body_and_no_url(hook_server, hook_for):
    hook_server.plan = [(404, {})]
    hook_server.body = b"Unknown Webhook: token s3cret-in-body"
    with pytest.raises(ChannelError) as failed:
        ChatChannel().send_ping(PING, hook_for("discord"), KEY)
    assert failed.value.permanent and "s3cret" not in failed.value.reason


def test_the_local_setting_records_the_post_in_the_outbox_and_sends_nothing(hook_server, hook_for, settings):
    settings.CHAT_LOCAL = True
    hook = hook_for("discord")
    ChatChannel().send_ping(PING, hook, KEY)
    assert hook_server.received == []
    mail = DeliveredMail.objects.get()
    assert mail.to == hook.owner.email, "in its owner's own outbox"
    assert mail.subject == f"[chat: Discord, {hook.masked_url}] {PING.title}" and "s3cret" not in mail.subject
    assert json.loads(mail.body_text)["content"].startswith("Your move, Ana")
    assert mail.headers["X-Channel"] == "chat"
