"""Forms of the sign-in pages."""

from __future__ import annotations

from django import forms

from .addresses import AddressField


class SignInForm(forms.Form):
    email = AddressField(label="Your email address")
