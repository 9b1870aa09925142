"""WSGI entry point for the gunicorn process the production fault tests start.

Like worker_app.py: the web process must know the test title "pebbles" too. Run as
`gunicorn tests.production.web_app:application`.
"""

from games.titles import register
from tests.support.pebbles import TITLE as PEBBLES

register(PEBBLES)

from config.wsgi import application  # noqa: E402  (after the title is registered)

__all__ = ["application"]
