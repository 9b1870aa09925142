"""Replies by email with no provider: an SMTP listener and an IMAP mailbox.

`listener.py` is the SMTP listener `manage.py smtpd` runs (aiosmtpd): it refuses at RCPT every
address that is not a genuine reply address, bounds sizes, recipients and rates per peer, and
stores each message (`InboundMail`) before it answers 250. `mailbox.py` reads the IMAP mailbox
REPLY_IMAP_URL names (imap-tools): store, handle, then move to the processed folder. `store.py`
stores and handles: each stored message is handed to the one reply reader the provider webhook
uses (games.inbound.read), once. `addresses.py` reads REPLY_IMAP_URL and turns a mailbox's
plus-address into the reply address it carries (pure).
"""
