"""Channels: how a notification reaches a person (email, web push, chat webhooks).

`CHANNELS` is the registry of channel kinds, one line each (as healthchecks' TRANSPORTS); adding a
channel is one module here and its line below. See base.py for the seam.
"""
