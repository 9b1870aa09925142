"""Prompts as plain HTML forms, and form posts back into answers.

Generated from the prompt's data, so every title's every question works in a browser without
JavaScript, and a post can only ever name options that were offered (the engine checks again).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.engine import IllegalMove
from games.titles import choices as title_choices


def render_prompt(p: dict[str, Any], prefix: str = "answer") -> SafeString:
    """The form fields for one prompt (the <form> and its buttons are the template's)."""
    kind = p["kind"]
    if kind == "choose":
        return _options(p, prefix, "radio", required=True)
    if kind == "choose_many":
        hint = (
            f"Pick exactly {p['min_count']}."
            if p["min_count"] == p["max_count"]
            else f"Pick {p['min_count']} to {p['max_count']}."
        )
        return format_html('<p class="hint">{}</p>{}', hint, _options(p, prefix, "checkbox", required=False))
    if kind == "number":
        return format_html(
            '<label class="number">Your number ({}–{}) <input type="number" name="{}" min="{}" max="{}" required></label>',
            p["low"],
            p["high"],
            prefix,
            p["low"],
            p["high"],
        )
    if kind == "order":
        n = len(p["options"])
        rows = format_html_join(
            "",
            '<li><label>{} <input type="number" name="{}.{}" min="1" max="{}" value="{}" required></label>'
            '<span class="detail">{}</span></li>',
            ((o["label"], prefix, o["id"], n, i + 1, o["detail"]) for i, o in enumerate(p["options"])),
        )
        return format_html('<p class="hint">Number them 1 (first) to {}.</p><ol class="order">{}</ol>', n, rows)
    if kind == "composite":
        parts = [
            format_html(
                "<fieldset><legend>{}</legend>{}</fieldset>",
                part["text"],
                render_prompt(part, f"{prefix}.{part['name']}"),
            )
            for part in p["parts"]
        ]
        return mark_safe("".join(parts))  # noqa: S308 - every part was built with format_html
    raise ValueError(f"unknown prompt kind {kind}")


def _options(p: dict[str, Any], name: str, input_type: str, required: bool) -> SafeString:
    req = " required" if required else ""
    items = format_html_join(
        "",
        '<li><label class="option"><input type="{}" name="{}" value="{}"' + req + ">"
        '<span class="label">{}</span> <span class="detail">{}</span></label></li>',
        ((input_type, name, o["id"], o["label"], o["detail"]) for o in p["options"]),
    )
    return format_html('<ul class="options {}">{}</ul>', input_type, items)


def answer_from_post(p: dict[str, Any], post, prefix: str = "answer") -> Any:
    """Read a posted form into the answer shape of the prompt; IllegalMove if it cannot be read."""
    kind = p["kind"]
    if kind == "choose":
        value = post.get(prefix)
        if not value:
            raise IllegalMove("Pick one of the choices before sending.")
        return value
    if kind == "choose_many":
        return post.getlist(prefix)
    if kind == "number":
        raw = (post.get(prefix) or "").strip()
        if not raw.lstrip("-").isdigit():
            raise IllegalMove("Give a whole number.")
        return int(raw)
    if kind == "order":
        ranks = {}
        for o in p["options"]:
            raw = (post.get(f"{prefix}.{o['id']}") or "").strip()
            if not raw.isdigit():
                raise IllegalMove("Give every choice a number.")
            ranks[o["id"]] = int(raw)
        if sorted(ranks.values()) != list(range(1, len(ranks) + 1)):
            raise IllegalMove(f"Use each number from 1 to {len(ranks)} once.")
        return sorted(ranks, key=ranks.get)
    if kind == "composite":
        return {part["name"]: answer_from_post(part, post, f"{prefix}.{part['name']}") for part in p["parts"]}
    raise IllegalMove("This question cannot be answered from a form.")


class NewGameForm(forms.Form):
    """Step one of a new game: the title, a name and the seats."""

    title = forms.ChoiceField(choices=title_choices)
    name = forms.CharField(max_length=100)
    seats = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="One line per seat, in seat order: an email address, or the word bot.",
    )

    def __init__(self, *args, schema=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.schema = list(schema)
        for f in self.schema:
            if f.kind == "choice":
                field = forms.ChoiceField(choices=f.choices, initial=f.default)
            elif f.kind == "bool":
                field = forms.BooleanField(required=False, initial=f.default)
            else:
                field = forms.IntegerField(min_value=f.low, max_value=f.high, initial=f.default)
            field.label, field.help_text = f.label, f.help
            self.fields[f"opt_{f.name}"] = field

    def options(self) -> dict[str, Any]:
        return {f.name: self.cleaned_data[f"opt_{f.name}"] for f in self.schema}

    def clean_seats(self) -> list[str | None]:
        lines = [ln.strip() for ln in self.cleaned_data["seats"].splitlines() if ln.strip()]
        seats: list[str | None] = []
        field = forms.EmailField()
        for ln in lines:
            if ln.lower() == "bot":
                seats.append(None)
                continue
            try:
                seats.append(field.clean(ln).lower())
            except forms.ValidationError:
                raise forms.ValidationError(f"“{ln}” is neither an email address nor the word bot.") from None
        emails = [s for s in seats if s]
        if len(set(emails)) != len(emails):
            raise forms.ValidationError("Each person can take only one seat.")
        if not emails:
            raise forms.ValidationError("At least one seat must be a person.")
        return seats


class PreferencesForm(forms.ModelForm):
    """How a player wants to hear from the service; their games go on whatever they pick."""

    class Meta:
        from accounts.models import User

        model = User
        fields = ["name", "email_mode", "digest_hour", "timezone", "unsubscribed"]
        labels = {"unsubscribed": "No email at all (I will check my games myself)"}

    def clean_timezone(self) -> str:
        from zoneinfo import ZoneInfo

        tz = self.cleaned_data["timezone"].strip()
        try:
            ZoneInfo(tz)
        except (KeyError, ValueError):
            raise forms.ValidationError(f"“{tz}” is not a timezone name, e.g. Europe/Lisbon.") from None
        return tz

    def clean_digest_hour(self) -> int:
        hour = self.cleaned_data["digest_hour"]
        if not 0 <= hour <= 23:
            raise forms.ValidationError("An hour from 0 to 23.")
        return hour
