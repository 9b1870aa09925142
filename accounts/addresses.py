"""Email addresses typed by people: one parser for every form (sign-in, seats, invitations, joins).

An address is trimmed and NFC-normalised; one with an invisible or control character in it is
refused (dropping the character would make it another address); it is validated by Django's
validator, bounded by the 254 characters a mailbox address may have, and lowercased: the service
knows a person by one spelling of their address.
"""

from __future__ import annotations

import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

MAX_LENGTH = 254


class BadAddress(ValueError):
    """An address refused, with the reason in words."""


def read_address(text: object) -> str:
    if not isinstance(text, str):
        raise BadAddress(_("Give an email address."))
    if len(text) > MAX_LENGTH * 4:  # far over: refuse before any work on it
        raise BadAddress(_("That is too long for an email address (at most %(n)s characters).") % {"n": MAX_LENGTH})
    address = unicodedata.normalize("NFC", text.strip())
    if not address:
        raise BadAddress(_("Give an email address."))
    if len(address) > MAX_LENGTH:
        raise BadAddress(_("That is too long for an email address (at most %(n)s characters).") % {"n": MAX_LENGTH})
    if any(ch.isspace() for ch in address):
        raise BadAddress(_("That is not an email address: it has a space in it."))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in address):
        raise BadAddress(_("That is not an email address: it has an invisible or control character in it."))
    try:
        validate_email(address)
    except ValidationError:
        raise BadAddress(_("“%(address)s” is not an email address.") % {"address": address[:80]}) from None

    return address.lower()


class AddressField(forms.CharField):
    """A form field for one address, read by read_address."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", MAX_LENGTH)
        kwargs.setdefault("widget", forms.EmailInput(attrs={"autocomplete": "email"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return ""
        try:
            return read_address(value)
        except BadAddress as e:
            raise forms.ValidationError(str(e), code="invalid") from None

    def run_validators(self, value):  # read_address has checked the length and the form
        return None
