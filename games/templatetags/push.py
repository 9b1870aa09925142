"""Template tags for web push: the public VAPID key a browser subscribes with, and a person's devices
(so the profile's part is one include, whatever view renders the profile)."""

from __future__ import annotations

from typing import Any

from django import template

from games.channels import vapid
from games.models import PushDevice

register = template.Library()


@register.simple_tag
def vapid_public_key() -> str:
    return vapid.public_key()


@register.simple_tag
def push_devices_of(user: Any) -> list[PushDevice]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(PushDevice.objects.filter(user=user).order_by("-created_at", "-id"))
