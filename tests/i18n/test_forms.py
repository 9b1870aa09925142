"""Every form a person fills in says its labels, help and choices in the reader's language: each
field declared on every form class of the service is read in German and in Japanese, and holds no
English word (tests/i18n/english.py); a field with no label of its own (Django would show its
English field name) is refused unless it is hidden."""

from __future__ import annotations

import importlib
import inspect

import pytest
from django import forms
from django.utils import translation

from tests.i18n.english import english_words

# words a person types that the form reads as they are, in every language (a seat list's "open")
TYPED = ("open",)
MODULES = (
    "games.forms.channels",
    "games.forms.host",
    "games.forms.new_game",
    "games.forms.preferences",
    "games.forms.seat",
    "accounts.forms",
    "cardsets.forms",
)


def form_classes() -> list[type[forms.BaseForm]]:
    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__ == name:
                found.append(cls)
    return found


def test_there_are_forms_to_read():
    assert len(form_classes()) >= 12


def _words(field: forms.Field) -> list[str]:
    out = [str(field.label or ""), str(field.help_text or "")]
    choices = getattr(field, "choices", None)
    if isinstance(choices, list | tuple):
        out += [str(label) for _value, label in choices if not isinstance(label, list | tuple)]
    return out


@pytest.mark.parametrize("lang", ["de", "ja"])
@pytest.mark.parametrize("cls", form_classes(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_field_of_the_form_is_in_the_readers_language(cls, lang):
    with translation.override(lang):
        for name, field in cls.base_fields.items():
            if isinstance(field.widget, forms.HiddenInput):
                continue
            assert field.label is not None, f"{name}: no label of its own (Django would show {name!r} in English)"
            for words in _words(field):
                found = english_words(words, lang, ("Café turns", "UTC", "YAML", "zip", *TYPED))
                assert not found, f"{name} in {lang}: {words!r} has English words {found}"
