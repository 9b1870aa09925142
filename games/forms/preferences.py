"""A player's preferences: how they want to hear from the service, in their own timezone."""

from __future__ import annotations

from django import forms

from games.forms.fields import NumberField, PlainTextField, QuietHoursField, ReminderPointsField, check_timezone


class PreferencesForm(forms.ModelForm):
    """How a player wants to hear from the service; their games go on whatever they pick."""

    name = PlainTextField(max_length=80, required=False)

    class Meta:
        from accounts.models import User

        model = User
        fields = ["name", "email_mode", "digest_hour", "timezone", "quiet_hours", "reminder_points", "unsubscribed"]
        field_classes = {
            "digest_hour": NumberField,
            "quiet_hours": QuietHoursField,
            "reminder_points": ReminderPointsField,
        }
        labels = {
            "unsubscribed": "No email at all (I will check my games myself)",
            "quiet_hours": "Quiet hours (no deadline of mine falls in them)",
            "reminder_points": "Remind me before a deadline",
        }

    def clean_timezone(self) -> str:
        return check_timezone(self.cleaned_data["timezone"])

    def clean_digest_hour(self) -> int:
        hour = self.cleaned_data["digest_hour"]
        if not 0 <= hour <= 23:
            raise forms.ValidationError("An hour from 0 to 23.")
        return hour
