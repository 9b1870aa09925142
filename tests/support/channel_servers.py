"""A push service and a webhook server on 127.0.0.1 with every person given a device and a
Discord-format hook on them: what bench/notify_latency.py times beside email (the settings
PUSH_LOCAL_HOSTS and CHANNEL_ALLOWED_HOSTS must list 127.0.0.1, and CHAT_LOCAL be off)."""

from __future__ import annotations

from games.models import ChatHook, PushDevice
from tests.support.push_service import Browser, PushService
from tests.support.webhooks import HookServer, serve


class LocalChannels:
    def __init__(self) -> None:
        self.push = PushService()
        self.hooks = HookServer()
        self.httpd = serve(self.hooks)

    def add_targets(self, user) -> None:
        sub = Browser().subscription(self.push.endpoint())
        PushDevice.objects.create(
            user=user, endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"], auth=sub["keys"]["auth"], label="bench"
        )
        ChatHook.objects.create(owner=user, format="discord", url=self.hooks.url(f"/api/webhooks/{user.pk}/t"))

    def stop(self) -> None:
        self.push.close()
        self.hooks.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
