from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class CardsetsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cardsets"
    verbose_name = _("Card sets")

    def ready(self) -> None:
        from .shipped import after_migrate

        # every `migrate` (scripts/serve, the release steps, a test database) ends by storing the
        # shipped set of every registered title that has none yet, so a new title needs no migration
        post_migrate.connect(after_migrate, sender=self, dispatch_uid="cardsets.shipped")
