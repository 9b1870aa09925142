"""The forms of a host's and an organiser's actions on a game (games.host_actions: the host's pages
and the admin share them): every one records who did it and why."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.addresses import AddressField
from games.forms.fields import PlainTextField


class ReasonForm(forms.Form):
    """Every organiser action is recorded with who did it and why."""

    reason = PlainTextField(
        label=gettext_lazy("Reason"),
        max_length=300,
        multiline=True,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text=gettext_lazy("Recorded in the game's log with your name."),
    )

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        # the reason comes last, after what the action needs
        self.order_fields([n for n in self.fields if n != "reason"] + ["reason"])


def _seat_choices(game, people_only: bool = False) -> list[tuple[str, str]]:
    seats = game.seats.select_related("player")
    out = []
    for s in seats:
        if people_only and (s.player_id is None or s.is_bot):
            continue
        who = f"{s.name} <{s.player.email}>" if s.player_id else s.name
        if s.stand_in:
            label = _("Seat %(n)s: %(who)s (a bot stands in)")
        elif s.is_bot:
            label = _("Seat %(n)s: %(who)s (bot)")
        else:
            label = _("Seat %(n)s: %(who)s")
        out.append((str(s.index), label % {"n": s.index + 1, "who": who}))
    return out


class ExtendForm(ReasonForm):
    hours = forms.FloatField(min_value=0.25, max_value=24 * 30, label=gettext_lazy("Hours to add"), initial=24)

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        if game is not None:
            waiting = [(str(s.index), s.name) for s in game.seats.select_related("player").exclude(deadline=None)]
            self.fields["seat"] = forms.ChoiceField(
                choices=[("", _("Every seat with a deadline"))] + waiting, required=False, label=_("Whose deadline")
            )
            self.order_fields(["hours", "seat", "reason"])


class SeatPickForm(ReasonForm):
    people_only = False

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.fields["seat"] = forms.ChoiceField(
            choices=_seat_choices(game, self.people_only), label=_("Seat"), widget=forms.RadioSelect
        )
        self.order_fields([n for n in self.fields if n != "reason"] + ["reason"])


class PeopleSeatForm(SeatPickForm):
    people_only = True


class ReplaceForm(SeatPickForm):
    email = AddressField(label=gettext_lazy("The new player's email address"))

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.order_fields(["seat", "email", "reason"])


class RewindForm(ReasonForm):
    """Pick the step to go back to; every later step is voided (and stays visible in the log)."""

    def __init__(self, *args, game=None, steps=(), **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.fields["step"] = forms.ChoiceField(
            choices=steps, label=_("Go back to the table as it was after"), widget=forms.RadioSelect
        )
        self.order_fields(["step", "reason"])
