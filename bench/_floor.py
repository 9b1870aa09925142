"""The bench's own addition to the site it serves: /bench/floor/<game>/, the least an answer must do
to be durable (lock the game's row, update it, commit), behind the same middleware as every page.

bench/submit.py serves `bench._floor:application`; the site is otherwise the real one.
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from django.conf import settings  # noqa: E402 - after the application has configured Django
from django.db import transaction  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.urls import path  # noqa: E402
from django.utils import timezone  # noqa: E402

from config.urls import urlpatterns as site  # noqa: E402
from games.models import Game  # noqa: E402


def durable_write(request, game_id: int) -> HttpResponse:
    with transaction.atomic():
        game = Game.objects.select_for_update().only("pk", "version").get(pk=game_id)
        Game.objects.filter(pk=game_id, version=game.version).update(updated_at=timezone.now())
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/floor/<int:game_id>/", durable_write), *site]
settings.ROOT_URLCONF = __name__
