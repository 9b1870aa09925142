"""Games, seats, the event log (the truth) and the mail outbox.

`Game.state` and `Game.version` are a projection of the log: only the write path (games/actions/) writes them,
or an Event.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.clock.calendar import Bank
from games.clock.rules import Clock
from games.clock.terms import clock_problems, stored_weekdays
from games.messages import say
from games.state_parts import SharedPart, StateField  # noqa: F401 - SharedPart lives beside its field
from games.titles import choices as title_choices
from games.titles import get_title

# the longest clock a game may set (60 days a decision): longer is a typo, and far dates overflow
MAX_CLOCK_HOURS = 24 * 60


OPEN_SEAT = "open"  # a seat left for whoever follows the game's join link (in create_game's seats)


def new_nonce() -> str:
    return secrets.token_urlsafe(12)


def default_vacation_days() -> int:
    """The site's yearly vacation allowance (settings.VACATION_DAYS); a game may lower it."""
    return settings.VACATION_DAYS


class Game(models.Model):
    # the fields that make a game's clock (the new-game form's clock part; a game played again keeps them)
    CLOCK_FIELDS = (
        "decision_hours",
        "decision_minutes",
        "daily_deadline",
        "timezone",
        "reminder_hours",
        "reminder_minutes",
        "timeout_policy",
        "bot_after_misses",
        "vacation_days",
        "bank_hours",
        "bank_increment_hours",
        "bank_cap_hours",
        "quiet_days",
        "auto_vacation",
    )

    class Status(models.TextChoices):
        DRAFT = "draft", _("Not started")
        ACTIVE = "active", _("In play")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Over")

    title = models.CharField(max_length=40, choices=title_choices)
    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_games")
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    # the clock (see games/clock/rules.py): empty decision_hours and daily_deadline = no deadlines
    decision_hours = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_CLOCK_HOURS)],
        help_text=_("Time per decision in hours (e.g. 12, 24, 48, 72). Empty: no clock."),
    )
    decision_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_CLOCK_HOURS * 60)],
        help_text=_("Or a short clock in minutes (for quick games and tests)."),
    )
    daily_deadline = models.TimeField(
        null=True, blank=True, help_text=_("Or a fixed time of day in the game's timezone, e.g. 20:00.")
    )
    timezone = models.CharField(
        max_length=64, default="UTC", help_text=_("For a fixed time of day, e.g. Europe/Lisbon.")
    )
    reminder_hours = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_CLOCK_HOURS)],
        help_text=_("Remind this many hours before."),
    )
    reminder_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_CLOCK_HOURS * 60)],
        help_text=_("Or this many minutes before."),
    )

    class TimeoutPolicy(models.TextChoices):
        DEFAULT = "default", _("Play the game's safe default answer")
        BOT = "bot", _("Let a bot answer")

    timeout_policy = models.CharField(max_length=10, choices=TimeoutPolicy.choices, default=TimeoutPolicy.DEFAULT)
    bot_after_misses = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(100)],
        help_text=_("After this many missed deadlines in a row a bot takes the seat."),
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=default_vacation_days,
        validators=[MaxValueValidator(366)],
        help_text=_("Vacation days each player may take a year (at most the site's allowance)."),
    )
    # a time bank (the third kind of clock): a reserve per seat, more per decision, up to a cap
    bank_hours = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_CLOCK_HOURS)],
        help_text=_("A time bank: each seat starts with this many hours (instead of a time per decision)."),
    )
    bank_increment_hours = models.PositiveIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(MAX_CLOCK_HOURS)], help_text=_("Hours added per decision.")
    )
    bank_cap_hours = models.PositiveIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(MAX_CLOCK_HOURS)], help_text=_("The most a bank may hold.")
    )
    quiet_days = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text=_("Days of the week on which no clock runs, in the game's timezone, e.g. sat, sun."),
    )
    auto_vacation = models.BooleanField(
        default=False,
        help_text=_("A seat about to time out draws its vacation allowance hour by hour instead, until it is used up."),
    )
    paused_at = models.DateTimeField(null=True, blank=True, editable=False)
    # the newest table-talk message id, so mail knows without a query whether there is news
    last_message = models.PositiveIntegerField(default=0, editable=False)
    # projection of the event log
    state = StateField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0, editable=False)
    # never leaves the server: it would let anyone predict every shuffle
    seed = models.CharField(max_length=64, blank=True, editable=False)
    cardset_hash = models.CharField(max_length=64, blank=True, editable=False)
    # the join link's nonce while the game has open seats to share (blank: no link, or revoked)
    join_nonce = models.CharField(max_length=32, blank=True, editable=False)
    # the spectators' read-only link's nonce (blank: none, or revoked)
    watch_nonce = models.CharField(max_length=32, blank=True, editable=False)
    # the finished game this one plays again (the same table, the first seat rotated)
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_game", editable=False
    )
    # denormalised for lists: who must decide now, and since when
    to_move = models.CharField(max_length=200, blank=True, editable=False)
    waiting_since = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.title_name})"

    def get_absolute_url(self) -> str:
        return reverse("game-detail", args=[self.pk])

    def clean(self) -> None:
        """The clock's cross-checks (games.clock.terms.clock_problems), for the admin's form."""
        from django.core.exceptions import ValidationError

        values = {name: getattr(self, name) for name in self.CLOCK_FIELDS}
        problems = clock_problems(values, settings.VACATION_DAYS)
        if problems:
            errors: dict[str, list[str]] = {}
            for name, message in problems:
                errors.setdefault(name, []).append(say(message))
            raise ValidationError(errors)

    @property
    def engine(self):
        return get_title(self.title)

    @property
    def clock(self) -> Clock:
        return _clock(
            self.decision_hours,
            self.decision_minutes,
            self.daily_deadline,
            self.timezone,
            self.reminder_hours,
            self.reminder_minutes,
            self.bank_hours,
            self.bank_increment_hours,
            self.bank_cap_hours,
            self.quiet_days,
        )

    @property
    def title_name(self) -> str:
        return self.engine.name


@lru_cache(maxsize=1024)
def _clock(
    decision_hours: int | None,
    decision_minutes: int | None,
    daily_deadline,
    timezone: str,
    reminder_hours: int | None,
    reminder_minutes: int | None,
    bank_hours: int | None,
    bank_increment_hours: int | None,
    bank_cap_hours: int | None,
    quiet_days: str,
) -> Clock:
    """A game's clock from its fields (kept per distinct clock: the sweep asks for it at every step)."""
    per = None
    if decision_minutes:
        per = timedelta(minutes=decision_minutes)
    elif decision_hours:
        per = timedelta(hours=decision_hours)
    remind = None
    if reminder_minutes:
        remind = timedelta(minutes=reminder_minutes)
    elif reminder_hours:
        remind = timedelta(hours=reminder_hours)
    bank = None
    if bank_hours:
        bank = Bank(
            start=timedelta(hours=bank_hours),
            increment=timedelta(hours=bank_increment_hours or 0),
            cap=timedelta(hours=bank_cap_hours) if bank_cap_hours else None,
        )
    return Clock(
        per_decision=None if bank else per,
        daily_at=None if bank else daily_deadline,
        tz=timezone,
        remind_before=remind,
        bank=bank,
        quiet_days=stored_weekdays(quiet_days),
    )


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)
    # false while a "play again" offer waits for this person's yes; the game starts once all say yes
    accepted = models.BooleanField(default=True)
    # taken through the join link: the host did not invite this address, so pages never show it to them
    joined = models.BooleanField(default=False)
    # rotating the nonce revokes every link sent for this seat
    nonce = models.CharField(max_length=32, default=new_nonce, editable=False)
    # set when the seat starts waiting on a decision; the "one email per wait" rule keys on it
    waiting_since = models.DateTimeField(null=True, blank=True, editable=False)
    # how many log lines this seat had seen at its last visit (to mark what is new since)
    seen_log = models.PositiveIntegerField(default=0, editable=False)
    # the clock
    deadline = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True, editable=False)
    reminded_for = models.DateTimeField(
        null=True, blank=True, editable=False, help_text=_("The deadline last reminded of.")
    )
    misses = models.PositiveSmallIntegerField(default=0, editable=False, help_text=_("Missed deadlines in a row."))
    # a bot plays for an absent player, who may take the seat back with their link
    stand_in = models.BooleanField(default=False, editable=False)
    wants_pause = models.BooleanField(default=False, editable=False)
    # answers left in advance for the next question (conditional answers), tried in order
    plan = models.JSONField(default=list, blank=True, editable=False)
    seen_message = models.PositiveIntegerField(
        default=0, editable=False, help_text=_("Last table-talk message mailed.")
    )
    # the end of this seat's latest vacation, so deadlines look vacations up only when there are some
    away_until = models.DateTimeField(null=True, blank=True, editable=False)
    # a time bank: what is left (whole seconds) as of clock_since, when its time last started running
    bank_seconds = models.PositiveIntegerField(null=True, blank=True, editable=False)
    clock_since = models.DateTimeField(null=True, blank=True, editable=False)
    # channels (games.channels kinds other than email) this person turned off for this game only
    muted_channels = models.JSONField(default=list, blank=True, help_text=_("Channels not used for this seat."))

    class Meta:
        # by the column: ordering by "game" would follow Game's own ordering, joining games_game
        # and sorting by its updated_at in every seat query (the answer path's among them)
        ordering = ["game_id", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="one_seat_per_index")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        """Nobody has taken this seat yet (a join link fills it; a bot takes it if the game starts)."""
        return self.player_id is None and not self.is_bot

    @property
    def name(self) -> str:
        if self.is_bot and not self.stand_in:
            return f"Bot {self.index + 1}"
        return self.player.display_name if self.player else f"Seat {self.index + 1}"

    @property
    def email(self) -> str:
        return self.player.email if self.player and not self.is_bot else ""


class Event(models.Model):
    """One step of a game's history. Append-only: nothing is ever updated or deleted."""

    class Kind(models.TextChoices):
        CREATED = "created"
        ANSWER = "answer"
        TIMEOUT = "timeout"
        ADMIN = "admin"
        ENDED = "ended"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    via = models.CharField(max_length=20, blank=True, help_text=_("web, email, bot, deadline, admin, conditional"))
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "seq"]  # the column, not Game's ordering (see Seat)
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_event_per_seq")]
        # a long game's page asks for its last answer and its few admin events, not its whole log
        indexes = [models.Index(fields=["game", "kind", "seq"], name="event_game_kind_seq")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def public_payload(self) -> dict[str, Any]:
        """The payload with the game's secrets left out (for the admin)."""
        return {k: (gettext("(hidden)") if k in {"seed", "cardset"} else v) for k, v in self.payload.items()}


class Notification(models.Model):
    """An email in the outbox: written with its cause, sent after commit, retried until sent.

    The row is written with a frozen, JSON-only context (the seat's view and question as they were);
    the sender renders it into body_text/body_html, so the write path never pays for templates.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to send")
        SENDING = "sending", _("Sending (or its sender was lost: sent again once its lease ends)")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed (will retry)")
        GAVE_UP = "gave_up", _("Gave up")

    class Channel(models.TextChoices):
        EMAIL = "email", _("Email")
        PUSH = "push", _("Web push")
        CHAT = "chat", _("Chat webhook")

    class Kind(models.TextChoices):
        YOUR_MOVE = "your_move", _("Your move")
        INVITE = "invite", _("Invitation")
        FINAL = "final", _("Final scores")
        FRESH_LINK = "fresh_link", _("Fresh link")
        REMINDER = "reminder", _("Reminder")
        NOTICE = "notice", _("Notice to the table")
        MESSAGE = "message", _("Table talk")
        REPLY_PROBLEM = "reply_problem", _("Reply not played")
        DIGEST = "digest", _("Daily digest")
        PLAN = "plan", _("Plan ahead")
        SIGN_IN = "sign_in", _("Sign-in link")
        JOIN = "join", _("Join confirmation")
        REMATCH = "rematch", _("Play again")

    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL)
    recipient = models.EmailField(blank=True)
    # every channel shares this outbox (games.channels.outbox): claiming, lease, backoff, giving up
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    target_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text=_("The push device or chat hook this row goes to (none for email).")
    )
    not_before = models.DateTimeField(
        null=True, blank=True, help_text=_("Held until then (the person's quiet hours), then sent.")
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    subject = models.CharField(max_length=200)
    body_text = models.TextField(blank=True)
    body_html = models.TextField(blank=True)
    template = models.CharField(max_length=40, blank=True, help_text=_("The email's template, rendered when sent."))
    context = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("What the email shows, frozen when it was written; emptied once rendered."),
    )
    headers = models.JSONField(default=dict, blank=True)
    ics = models.TextField(blank=True, help_text=_("A calendar file of the deadline, attached."))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    message_id = models.CharField(max_length=200, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True, help_text=_("When a failed send is tried again."))
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        if self.channel != self.Channel.EMAIL:
            return gettext("%(kind)s by %(channel)s #%(target)s") % {
                "kind": self.get_kind_display(),
                "channel": self.get_channel_display(),
                "target": self.target_id,
            }
        return gettext("%(kind)s to %(recipient)s") % {"kind": self.get_kind_display(), "recipient": self.recipient}


class ChatHook(models.Model):
    """A chat webhook (games.channels.chat): a person's own, or a game's shared channel (its host's).

    The URL is a secret (it lets anyone post): shown masked, never logged, mailed or put in an
    error; a permanent refusal turns the hook off and keeps why for its owner's page."""

    class Format(models.TextChoices):
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"
        MATRIX = "matrix", _("Matrix (hookshot webhook)")
        TELEGRAM = "telegram", _("Telegram (bot sendMessage URL with chat_id)")
        NTFY = "ntfy", "ntfy"
        GOTIFY = "gotify", "Gotify"
        JSON = "json", _("Plain JSON")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="chat_hooks"
    )
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="chat_hooks")
    format = models.CharField(max_length=10, choices=Format.choices)
    url = models.CharField(max_length=500)
    enabled = models.BooleanField(default=True)
    last_error = models.CharField(max_length=300, blank=True)
    disabled_reason = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(owner__isnull=False, game__isnull=True)
                | models.Q(owner__isnull=True, game__isnull=False),
                name="chat_hook_owner_or_game",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_format_display()} {self.masked_url}"

    @property
    def masked_url(self) -> str:
        from games.channels.safe_http import masked

        return masked(self.url)


class DeliveredMail(models.Model):
    """Mail 'delivered' by the embedded backend: the local outbox page reads these."""

    to = models.TextField()
    subject = models.CharField(max_length=200)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    headers = models.JSONField(default=dict)
    delivered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-delivered_at", "-id"]

    def __str__(self) -> str:
        return f"{self.subject} → {self.to}"


class Absence(models.Model):
    """A person away from every game at once (their absence calendar); each game grants its part
    as a Vacation, up to that game's yearly allowance, including games they join during it."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences")
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts"]

    def __str__(self) -> str:
        return gettext("%(who)s away %(starts)s to %(ends)s") % {
            "who": self.player,
            "starts": f"{self.starts:%Y-%m-%d}",
            "ends": f"{self.ends:%Y-%m-%d}",
        }


class Vacation(models.Model):
    """A player's declared absence from one game: their clocks there stop for its length."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="vacations")
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    # the calendar absence this is that game's part of (none: declared in this game alone)
    absence = models.ForeignKey(Absence, null=True, blank=True, on_delete=models.SET_NULL, related_name="grants")
    # drawn by the sweep, an hour at a time, to keep a seat waiting instead of timing out
    automatic = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts"]

    def __str__(self) -> str:
        return gettext("%(who)s away %(starts)s to %(ends)s") % {
            "who": self.seat,
            "starts": f"{self.starts:%Y-%m-%d}",
            "ends": f"{self.ends:%Y-%m-%d}",
        }


class Message(models.Model):
    """Table talk: plain text, shown escaped, mailed with each seat's next email."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL)
    author = models.CharField(max_length=80)
    text = models.TextField(max_length=2000)
    via = models.CharField(max_length=10, default="web")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


# --- Web push (issue 25; games/channels/push.py) -------------------------------------------------


class PushDevice(models.Model):
    """One browser a person turned push on in (its push subscription): one row per endpoint, so
    subscribing again from the same browser updates it. The push service's word that a
    subscription is gone turns it off, and the profile shows why."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices")
    endpoint = models.CharField(max_length=1000, unique=True)  # a secret of the device: never shown, never logged
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    label = models.CharField(max_length=60, blank=True)  # from the User-Agent ("Firefox on Android")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        if self.label:
            return gettext("%(label)s of %(user)s") % {"label": self.label, "user": self.user}
        return gettext("a device of %(user)s") % {"user": self.user}

    @property
    def working(self) -> bool:
        return self.disabled_at is None


# --- replies by email with no provider (games/mailin/) -----------------------------------------


class InboundMail(models.Model):
    """A reply received by the SMTP listener or read from the IMAP mailbox, stored before it is
    acknowledged (SMTP's 250) or moved out of the inbox, so a crash loses nothing; handled once
    (the claim is leased, the handling and its result commit together) by games.mailin.store."""

    class Source(models.TextChoices):
        SMTP = "smtp", _("SMTP listener")
        IMAP = "imap", _("IMAP mailbox")

    class Status(models.TextChoices):
        RECEIVED = "received", _("Stored, not handled yet")
        HANDLING = "handling", _("Being handled (or its handler was lost: handled again once its lease ends)")
        HANDLED = "handled", _("Handled")
        FAILED = "failed", _("Failed (will retry)")
        GAVE_UP = "gave_up", _("Gave up")
        DUPLICATE = "duplicate", _("A copy of a message already received")

    source = models.CharField(max_length=4, choices=Source.choices)
    raw = models.BinaryField(help_text=_("The message as received, bounded by REPLY_MAIL_MAX_BYTES."))
    envelope_from = models.CharField(max_length=512, blank=True)
    envelope_to = models.JSONField(default=list, blank=True)
    peer = models.CharField(max_length=100, blank=True, help_text=_("The SMTP client's address, or the mailbox."))
    message_id = models.CharField(max_length=250, blank=True, db_index=True)
    # the IMAP mailbox's (account and folder hash, UIDVALIDITY, UID): a message is stored once
    mailbox_key = models.CharField(max_length=100, null=True, blank=True, unique=True)
    received_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED, db_index=True)
    result = models.CharField(max_length=40, blank=True, help_text=_("What the reply reader made of it."))
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_until = models.DateTimeField(null=True, blank=True, help_text=_("A lease, or when a failure is retried."))
    handled_at = models.DateTimeField(null=True, blank=True)
    moved_at = models.DateTimeField(null=True, blank=True, help_text=_("When it left the IMAP inbox."))
    last_error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-received_at", "-id"]

    def __str__(self) -> str:
        return gettext("%(source)s mail %(pk)s (%(status)s)") % {
            "source": self.get_source_display(),
            "pk": self.pk,
            "status": self.status,
        }
