from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # replies by email: connects the receiver of anymail's inbound signal
        # the tasks implement games.dispatch: mail and bots after commit, in web and worker alike
        from accounts import mailing

        from . import (
            inbound,  # noqa: F401
            notify,
            tasks,  # noqa: F401
        )

        # accounts asks for its sign-in links to be mailed; it imports nothing of games
        mailing.implement(sign_in=notify.sign_in)
