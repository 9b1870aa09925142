from django.apps import AppConfig


class CardsetsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cardsets"
    verbose_name = "Card sets"
