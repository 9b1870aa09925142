"""The embedded outbox (games/views/outbox.py): an organiser reads every message; anyone else signed
in reads the mail sent to their own address and nothing else; someone not signed in is told where
their sign-in mail is and shown none."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import DeliveredMail

pytestmark = pytest.mark.django_db

LOCAL = {"default": {"BACKEND": "games.mail.LocalMailboxBackend"}}


@pytest.fixture
def mails(settings) -> dict[str, DeliveredMail]:
    settings.MAILERS = LOCAL
    made = {
        "ana": ("ana@example.com", "For ana"),
        "ana_named": ("Ana <ANA@example.com>", "For Ana by name"),
        "both": ("ana@example.com, ben@example.com", "For both"),
        "ben": ("ben@example.com", "For ben"),
        "hana": ("hana@example.com", "For hana"),  # a lookalike: "ana@example.com" is inside it
    }
    return {
        key: DeliveredMail.objects.create(to=to, subject=subject, body_text=f"secret {key}", body_html=f"<p>{key}</p>")
        for key, (to, subject) in made.items()
    }


def as_person(email: str, staff: bool = False) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(email, is_staff=staff))
    return client


def test_a_signed_in_person_reads_their_own_mail_and_nothing_else(mails):
    ana = as_person("ana@example.com")
    page = ana.get(reverse("outbox")).content.decode()
    assert {"For ana", "For Ana by name", "For both"} <= {
        s for s in ("For ana", "For Ana by name", "For both") if s in page
    }
    assert "For ben" not in page and "For hana" not in page
    for key in ("ana", "ana_named", "both"):
        assert ana.get(reverse("outbox-mail", args=[mails[key].pk])).status_code == 200
        assert ana.get(reverse("outbox-html", args=[mails[key].pk])).status_code == 200
    for key in ("ben", "hana"):
        for name in ("outbox-mail", "outbox-html"):
            response = ana.get(reverse(name, args=[mails[key].pk]))
            assert response.status_code == 404 and f"secret {key}" not in response.content.decode()
    assert ana.get(reverse("outbox-mail", args=[999999])).status_code == 404, "missing reads as someone else's"


def test_an_organiser_reads_every_message(mails):
    staff = as_person("org@example.com", staff=True)
    page = staff.get(reverse("outbox")).content.decode()
    assert all(m.subject in page for m in mails.values())
    assert staff.get(reverse("outbox-mail", args=[mails["ben"].pk])).status_code == 200


def test_someone_not_signed_in_is_told_where_their_sign_in_mail_is_and_shown_none(mails, client):
    page = client.get(reverse("outbox")).content.decode()
    assert "Waiting for a sign-in link?" in page and "scripts/serve" in page
    assert not any(m.subject in page for m in mails.values())
    assert client.get(reverse("outbox-mail", args=[mails["ana"].pk]))["Location"].startswith("/sign-in/")
    assert client.get(reverse("outbox-html", args=[mails["ana"].pk])).status_code == 404
    sent = client.post(reverse("sign-in"), {"email": "newcomer@example.org"}).content.decode()
    assert "your link is in its" in sent and reverse("outbox") in sent
    assert "newcomer@example.org" not in client.get(reverse("outbox")).content.decode()


def test_with_a_real_mail_service_the_pages_say_nothing_of_an_outbox(settings, client):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    assert client.get(reverse("outbox"))["Location"].startswith("/sign-in/")
    sent = client.post(reverse("sign-in"), {"email": "newcomer@example.org"}).content.decode()
    assert "local outbox" not in sent and "spam folder" in sent
