"""Forms of the sign-in pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .addresses import AddressField


class SignInForm(forms.Form):
    email = AddressField(label=_("Your email address"))
