"""The webhook server on 127.0.0.1 for every channel test (tests/support/webhooks.py)."""

from tests.support.webhooks import hook_server, other_server  # noqa: F401 - fixtures
