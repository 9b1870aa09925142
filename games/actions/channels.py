"""Chat webhooks and a seat's channels: adding, testing, turning off and on, removing.

A hook belongs to a person (their pings) or a game (its group's shared chat, managed by the host);
the caller (a page) checks who may touch which. The URL was checked by the form (the SSRF guard);
it is checked again on every send.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.channels import pinging
from games.channels.base import ChannelError
from games.channels.chat import ChatChannel, post, trial_ping
from games.models import ChatHook, Game, Seat

from .organise import set_watch_link
from .write import SubmitError

MAX_HOOKS = 5  # per person, and per game


def add_hook(*, fmt: str, url: str, owner=None, game: Game | None = None) -> ChatHook:
    if (owner is None) == (game is None):
        raise SubmitError(_("A webhook belongs to a person or to a game."), "hook_owner")
    if fmt not in ChatHook.Format.values:
        raise SubmitError(_("Pick one of the formats offered."), "hook_format")
    with transaction.atomic():
        mine = ChatHook.objects.select_for_update().filter(owner=owner) if owner else ChatHook.objects.filter(game=game)
        if mine.count() >= MAX_HOOKS:
            raise SubmitError(_("At most %(n)s webhooks: remove one first.") % {"n": MAX_HOOKS}, "hook_limit")
        hook = ChatHook.objects.create(owner=owner, game=game, format=fmt, url=url)
    if game is not None and not game.watch_nonce:
        set_watch_link(game, True)  # the shared chat links to the game's public page
    return hook


def set_hook_enabled(hook: ChatHook, on: bool) -> None:
    """Off by hand, or on again (after its owner fixed what turned it off)."""
    ChatHook.objects.filter(pk=hook.pk).update(enabled=on, disabled_reason="", last_error="")


def remove_hook(hook: ChatHook) -> None:
    ChatHook.objects.filter(pk=hook.pk).delete()


def send_test(hook: ChatHook) -> str:
    """Send a test message now; what happened in words (never the response or the URL). A permanent
    refusal turns the hook off, as a real send would."""
    channel = ChatChannel()
    try:
        post(hook, trial_ping(hook), f"<test.{hook.pk}@cafe-turns>")
    except ChannelError as e:
        if e.permanent:
            channel.turn_off(hook, e.reason)
            return _("The test failed and the webhook is off: %(reason)s") % {"reason": e.reason}
        channel.failed(hook, e.reason)
        return _("The test failed: %(reason)s") % {"reason": e.reason}
    ChatHook.objects.filter(pk=hook.pk).update(last_error="")
    return sent_words()


def sent_words() -> str:
    """What send_test says when the message went (a page compares its answer with it)."""
    return _("The test message was sent.")


def set_muted_channels(seat: Seat, muted: list[str]) -> list[str]:
    """The channels (other than email) a person turns off for this seat only."""
    known = {c.kind for c in pinging()}
    chosen = sorted({m for m in muted if m in known})
    Seat.objects.filter(pk=seat.pk).update(muted_channels=chosen)
    return chosen
