from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # replies by email: connects the receiver of anymail's inbound signal
        from . import inbound  # noqa: F401
