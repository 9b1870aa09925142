"""A person's push devices: turned on from a browser, removed from the profile or from that browser,
turned off when the push service says the subscription is gone (kept, with why, for the profile)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.channels.push_input import Subscription
from games.models import PushDevice

MAX_DEVICES = 20  # a person's; the oldest is let go past it (each browser profile is a device)


def subscribe(user: Any, sub: Subscription, label: str) -> tuple[PushDevice, bool]:
    """Turn push on for this browser; the same endpoint again updates its row (and turns it back on).
    A browser another person turned on before is now this person's: the browser is theirs now."""
    with transaction.atomic():
        device, created = PushDevice.objects.select_for_update().update_or_create(
            endpoint=sub.endpoint,
            defaults={
                "user": user,
                "p256dh": sub.p256dh,
                "auth": sub.auth,
                "label": label,
                "disabled_at": None,
                "disabled_reason": "",
            },
        )
        extra = PushDevice.objects.filter(user=user).order_by("-created_at", "-id").values_list("pk", flat=True)
        stale = list(extra[MAX_DEVICES:])
        if stale:
            PushDevice.objects.filter(pk__in=stale).delete()
    return device, created


def remove(user: Any, device_id: int) -> bool:
    """The profile's Remove: only the person's own device; False if there was none."""
    return PushDevice.objects.filter(user=user, pk=device_id).delete()[0] > 0


def remove_endpoint(user: Any, endpoint: str) -> bool:
    """ "Turn off on this device": the browser unsubscribed and says which subscription it was."""
    return PushDevice.objects.filter(user=user, endpoint=endpoint).delete()[0] > 0


def turn_off(device: PushDevice, reason: str) -> None:
    """The push service refused the subscription for good; the first reason is kept."""
    PushDevice.objects.filter(pk=device.pk, disabled_at__isnull=True).update(
        disabled_at=timezone.now(), disabled_reason=reason[:300]
    )


def used(device: PushDevice) -> None:
    """A push was handed over: the profile's "last used"."""
    PushDevice.objects.filter(pk=device.pk).update(last_used_at=timezone.now())
