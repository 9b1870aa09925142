"""A chat webhook as typed (format and URL, refused in words at the form), and a seat's channels."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from django import forms
from django.utils.translation import gettext_lazy as _

from games.channels import pinging
from games.channels.safe_http import MAX_URL_LENGTH, UnsafeURL, check
from games.models import ChatHook

HINTS = {
    ChatHook.Format.DISCORD: "https://discord.com/api/webhooks/…",
    ChatHook.Format.SLACK: "https://hooks.slack.com/services/…",
    ChatHook.Format.MATRIX: _("your hookshot's https://…/webhook/…"),
    ChatHook.Format.TELEGRAM: "https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>",
    ChatHook.Format.NTFY: "https://ntfy.sh/<topic>",
    ChatHook.Format.GOTIFY: "https://<server>/message?token=<app token>",
    ChatHook.Format.JSON: _("any https:// address that takes a JSON POST"),
}


class ChatHookForm(forms.Form):
    format = forms.ChoiceField(choices=ChatHook.Format.choices, label=_("Kind of chat"))
    url = forms.CharField(
        max_length=MAX_URL_LENGTH,
        label=_("Webhook address"),
        help_text=_("Kept secret: shown masked from now on, never mailed."),
        widget=forms.URLInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )

    def clean_url(self) -> str:
        url = self.cleaned_data["url"].strip()
        try:
            check(url)
        except UnsafeURL as e:
            raise forms.ValidationError(str(e)) from None
        return url

    def clean(self):
        data = super().clean()
        if data.get("format") == ChatHook.Format.TELEGRAM and data.get("url"):
            parts = urlsplit(data["url"])
            if not parse_qs(parts.query).get("chat_id") or not parts.path.endswith("/sendMessage"):
                self.add_error("url", _("A Telegram address is the bot's …/sendMessage URL with ?chat_id=<chat>."))
        if data.get("format") == ChatHook.Format.GOTIFY and data.get("url"):
            if not parse_qs(urlsplit(data["url"]).query).get("token"):
                self.add_error("url", _("A Gotify address ends with /message?token=<the app's token>."))
        return data


def channel_choices() -> list[tuple[str, str]]:
    return [(c.kind, c.label) for c in pinging()]


class SeatChannelsForm(forms.Form):
    """Per game: the channels (other than email) this seat stays quiet on."""

    muted = forms.MultipleChoiceField(
        choices=channel_choices, required=False, widget=forms.CheckboxSelectMultiple, label=_("Not for this game")
    )
