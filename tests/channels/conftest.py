"""The servers on 127.0.0.1 the channel tests deliver to: the webhook server
(tests/support/webhooks.py) and a push service (tests/support/push_service.py)."""

import pytest

from tests.support.push_service import PushService
from tests.support.webhooks import hook_server, other_server  # noqa: F401 - fixtures


@pytest.fixture
def service(settings):
    """A push service the site may post to (PUSH_LOCAL_HOSTS lists 127.0.0.1 alone)."""
    settings.PUSH_LOCAL_HOSTS = ["127.0.0.1"]
    settings.PUSH_TIMEOUT_SECONDS = 1.0
    s = PushService()
    yield s
    s.close()
