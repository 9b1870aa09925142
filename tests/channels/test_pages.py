"""What people see of chat hooks beyond their own pages: the admin lists them masked (and the
outbox rows' channel), and on the embedded default a post shows in its owner's local outbox."""

from __future__ import annotations

import pytest

from games.actions import channels, organise
from games.models import ChatHook, DeliveredMail, Notification

pytestmark = pytest.mark.django_db

SECRET = "https://discord.example/api/webhooks/1/abcdefSECRETwxyz"


def test_the_admin_lists_hooks_masked_and_the_outbox_by_channel(admin_client, make_game, settings):
    settings.CHAT_LOCAL = True
    game = make_game(start=False)
    hook = channels.add_hook(game=game, fmt="discord", url=SECRET)
    organise.start_game(game)
    page = admin_client.get("/admin/games/chathook/").content.decode()
    assert "https://discord.example/…wxyz" in page and "abcdefSECRET" not in page
    detail = admin_client.get(f"/admin/games/chathook/{hook.pk}/change/").content.decode()
    assert "abcdefSECRET" not in detail
    rows = admin_client.get("/admin/games/notification/?channel__exact=chat").content.decode()
    assert "Chat webhook" in rows
    row = Notification.objects.filter(channel="chat").first()
    shown = admin_client.get(f"/admin/games/notification/{row.pk}/change/").content.decode()
    at = shown.find("as the reader gets it")
    assert "move in Test table" in shown[at:] and "/watch/" in shown[at:], shown[at : at + 800]


def test_on_the_embedded_default_a_post_shows_in_its_owners_outbox(client, make_game, settings, django_user_model):
    settings.CHAT_LOCAL = True
    settings.MAILERS = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}
    game = make_game(start=False)
    ana = django_user_model.objects.get(email="ana@example.com")
    ChatHook.objects.create(owner=ana, format="slack", url="https://hooks.example/services/T/B/s3cretXYZ1")
    organise.start_game(game)
    from games.channels import outbox

    for row in Notification.objects.filter(channel="chat"):
        outbox.send(row.pk)
    post = DeliveredMail.objects.get(to=ana.email, subject__startswith="[chat")
    client.force_login(ana)
    listing = client.get("/outbox/").content.decode()
    assert "[chat: Slack, https://hooks.example/…XYZ1]" in listing and "s3cret" not in listing
    shown = client.get(f"/outbox/{post.pk}/").content.decode()
    assert "mail-text" in shown and "Your move, " in shown and "/play/" in shown, shown


def test_the_admin_lists_devices_and_stored_replies_without_their_secrets(admin_client, django_user_model):
    from games.models import InboundMail, PushDevice

    ben = django_user_model.objects.create_user("ben@example.com", name="Ben")
    PushDevice.objects.create(
        user=ben, endpoint="https://push.example/send/s3cretpath", p256dh="k" * 87, auth="a" * 22, label="Firefox"
    )
    InboundMail.objects.create(source="smtp", raw=b"Subject: hi\r\n\r\nmy private thread", status="handled")
    devices = admin_client.get("/admin/games/pushdevice/")
    assert devices.status_code == 200 and "Firefox" in devices.content.decode()
    device_page = admin_client.get(f"/admin/games/pushdevice/{PushDevice.objects.get().pk}/change/")
    assert device_page.status_code == 200 and "s3cretpath" not in device_page.content.decode()
    mails = admin_client.get("/admin/games/inboundmail/")
    assert mails.status_code == 200 and "handled" in mails.content.decode().lower()
    mail_page = admin_client.get(f"/admin/games/inboundmail/{InboundMail.objects.get().pk}/change/")
    assert mail_page.status_code == 200 and "private thread" not in mail_page.content.decode()
