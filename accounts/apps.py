from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # an ESP's bounce webhook marks addresses that refuse mail: connects anymail's tracking signal
        from . import bounces  # noqa: F401
