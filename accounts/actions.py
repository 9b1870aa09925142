"""Writes about people rather than games: asking for a sign-in link, a new calendar feed address."""

from __future__ import annotations

from django.db import transaction

from . import mailing
from .models import User, new_calendar_nonce


def send_sign_in_link(address: str) -> None:
    """Mail a one-time sign-in link to the address, making the person known here if they were not.

    A new address gets an account without a password, as an invitation would give it: a person
    may sign in before anyone invites them, to host a game of their own. A deactivated account
    gets nothing, and the page says the same thing either way.
    """
    with transaction.atomic():
        user = User.objects.for_email(address)
        if user.is_active:
            mailing.mail_sign_in(user)


# --- the calendar feed's address ----------------------------------------------------------------


def new_calendar_address(user: User) -> None:
    """A new nonce for the person's calendar feed: the old address opens nothing from now on."""
    user.calendar_nonce = new_calendar_nonce()
    User.objects.filter(pk=user.pk).update(calendar_nonce=user.calendar_nonce)
