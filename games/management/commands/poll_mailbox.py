"""Read replies from the IMAP mailbox REPLY_IMAP_URL names, once (beat does it each minute): games.mailin.mailbox."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.mailin import mailbox


class Command(BaseCommand):
    help = "Read one batch of replies from the IMAP mailbox REPLY_IMAP_URL names: store, handle, move each."

    def handle(self, **_):
        if mailbox.configured() is None:
            raise CommandError("REPLY_IMAP_URL is not set: there is no mailbox to read.")
        try:
            counts = mailbox.run()
        except (OSError, *mailbox.IMAP_ERRORS) as e:
            raise CommandError(f"The mailbox could not be read: {type(e).__name__}: {e}") from None
        self.stdout.write(", ".join(f"{name} {n}" for name, n in counts.items()))
