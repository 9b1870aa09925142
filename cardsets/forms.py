"""Forms for card sets: the upload, and one card's row in the card editor (fields generated from the
card list's own fields: text, whole numbers, yes/no, or nested data written as YAML)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.forms.fields import NumberField, PlainTextField
from games.messages import say
from games.titles import get_title

from .kinds import KINDS, SetKind
from .reading import Limits, UploadError, parse_yaml, read_upload

MAX_FILES = 10


def limits() -> Limits:
    """The upload bounds, from the settings: the one place a Limits is built for the service."""
    return Limits(upload_bytes=settings.CARDSET_UPLOAD_BYTES, zip_bytes=settings.CARDSET_ZIP_BYTES)


def title_choices() -> list[tuple[str, str]]:
    return [(slug, get_title(slug).name) for slug in KINDS]


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        items = data if isinstance(data, (list, tuple)) else [data]
        if len(items) > MAX_FILES:
            raise forms.ValidationError(_("At most %(n)s files: a set's YAML files, or one zip.") % {"n": MAX_FILES})
        return [super(MultipleFileField, self).clean(d, initial) for d in items]


class UploadForm(forms.Form):
    """A set's files (or a zip of them), with a name and where the values come from."""

    title = forms.ChoiceField(choices=title_choices, label=gettext_lazy("Game"))
    name = PlainTextField(max_length=100, label=gettext_lazy("Name"))
    provenance = PlainTextField(
        label=gettext_lazy("Provenance"),
        max_length=2000,
        multiline=True,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy(
            "Where the values come from, in words (e.g. “transcribed from my copy of the game, 2nd printing”)."
        ),
    )
    files = MultipleFileField(
        label=gettext_lazy("Files"),
        help_text=gettext_lazy("The game's YAML files, named as in the shipped set, or one zip of them."),
    )

    def clean(self):
        cleaned = super().clean()
        slug, uploads = cleaned.get("title"), cleaned.get("files")
        if not slug or not uploads:
            return cleaned
        lim = limits()
        blobs = []
        for f in uploads:  # one byte over the bound is enough for read_upload to refuse a file
            blobs.append((f.name or "", f.read(lim.upload_bytes + 1)))
        try:
            cleaned["parsed"] = read_upload(KINDS[slug], blobs, lim)
        except UploadError as e:
            self.add_error("files", say(e.said))
        return cleaned


# ------------------------------------------------------------------ one card's row

FIELD_IN_MESSAGE = re.compile(r"field '([^'.\[]+)")


def field_kinds(kind: SetKind, files: dict[str, Any], file: str) -> dict[str, str]:
    """Each field the cards of a file use, and how it is typed: text, number, yes/no or data (YAML)."""
    seen: dict[str, set[str]] = {}
    for entry in kind.entries(files, file):
        if isinstance(entry, dict):
            for key, value in entry.items():
                seen.setdefault(key, set()).add(_value_kind(value))
    out = {key: (kinds.pop() if len(kinds) == 1 else "data") for key, kinds in seen.items()}
    for key in sorted(kind.fields.get(file, ())):  # fields the title allows that no card uses yet
        out.setdefault(key, "data")
    return out


def _value_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "number"
    if isinstance(value, str) and "\n" not in value:
        return "text"
    return "data"


class CardForm(forms.Form):
    """One card: a field per field of the card list; an empty field leaves that field out."""

    def __init__(self, *args, fields: dict[str, str], entry: dict[str, Any] | None = None, **kwargs):
        from .exporting import dump_file

        initial = {}
        for key, how in fields.items():
            if entry is not None and key in entry:
                value = entry[key]
                initial[key] = (
                    dump_file(value).strip()
                    if how == "data"
                    else ("yes" if value else "no")
                    if how == "bool"
                    else value
                )
        super().__init__(*args, initial=initial, **kwargs)
        self.kinds = fields
        for key, how in fields.items():
            if how == "number":
                field: forms.Field = NumberField(required=False, min_value=-10_000, max_value=10_000)
            elif how == "bool":
                field = forms.ChoiceField(required=False, choices=[("", "(leave out)"), ("yes", "yes"), ("no", "no")])
            elif how == "text":
                field = PlainTextField(max_length=500, required=False)
            else:
                field = forms.CharField(
                    required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 2, "cols": 40})
                )
            field.label = key
            self.fields[key] = field

    def clean(self):
        cleaned = super().clean()
        entry: dict[str, Any] = {}
        for key, how in self.kinds.items():
            value = cleaned.get(key)
            if key in self.errors or value in (None, ""):
                continue
            if how == "bool":
                entry[key] = value == "yes"
            elif how == "data":
                try:
                    entry[key] = parse_yaml(key, value.encode(), limits())
                except UploadError as e:
                    self.add_error(key, say(e.said))
            else:
                entry[key] = value
        cleaned["entry"] = entry
        return cleaned

    def place_error(self, message: str) -> None:
        """A loader's message (file, card, field) shown at the field it names, else above the row."""
        m = FIELD_IN_MESSAGE.search(message)
        key = m.group(1) if m else None
        self.add_error(key if key in self.fields else None, message)
