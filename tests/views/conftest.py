"""The webhook server on 127.0.0.1 for the chat hook pages (tests/support/webhooks.py)."""

from tests.support.webhooks import hook_server  # noqa: F401 - a fixture
