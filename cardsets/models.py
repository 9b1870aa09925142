"""Card sets kept in the database: the title's data files (parsed), the set built from them, and
the bot check that makes a set usable. A game keeps its own copy of the set in its first event, so
nothing here ever changes a game once it has started.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class CardSet(models.Model):
    class Check(models.TextChoices):
        PENDING = "pending", _("not checked yet")
        RUNNING = "running", _("bot games running")
        PASSED = "passed", _("passed")
        FAILED = "failed", _("failed")
        SHIPPED = "shipped", _("shipped with the service")

    name = models.CharField(max_length=100)
    title = models.CharField(max_length=40, db_index=True)
    provenance = models.TextField(blank=True, help_text=_("Where the values come from, in words."))
    content_hash = models.CharField(max_length=64, editable=False, help_text=_("The title's hash of the set's cards."))
    # what a game started with this set records as Game.cardset_hash (the hash of the data with its
    # "hash"), so a seat page can name the set its game holds
    recorded_hash = models.CharField(max_length=64, editable=False, db_index=True)
    files = models.JSONField(editable=False, help_text=_("The title's data files, parsed: file name -> data."))
    data = models.JSONField(editable=False, help_text=_("The set the title's loader built (what a game gets)."))
    warnings = models.JSONField(default=list, blank=True, editable=False)
    shared = models.BooleanField(
        default=False, help_text=_("Offered to everyone who may host; otherwise only to the person who added it.")
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="cardsets"
    )
    added_at = models.DateTimeField(default=timezone.now, editable=False)
    check_status = models.CharField(max_length=10, choices=Check.choices, default=Check.PENDING, editable=False)
    check_done = models.PositiveIntegerField(default=0, editable=False)
    check_total = models.PositiveIntegerField(default=0, editable=False)
    check_results = models.JSONField(default=dict, blank=True, editable=False)
    # one id per run of the bot check: a task from an earlier run (a message redelivered after its
    # worker died, say) matches no row and writes nothing
    check_run = models.CharField(max_length=32, blank=True, default="", editable=False)
    # when the running check last saved its progress: a run silent for CARDSET_CHECK_STALL_MINUTES
    # has lost its worker, and the organiser may start it again
    check_beat = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["title", "-shared", "name"]
        constraints = [models.UniqueConstraint(fields=["title", "content_hash"], name="cardset_unique_per_title")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("cardsets:detail", args=[self.pk])

    @property
    def usable(self) -> bool:
        """Only a set that passed its bot check (or shipped with the service) can be chosen for games."""
        return self.check_status in USABLE

    @property
    def check_stalled(self) -> bool:
        """A running check that has saved no progress for the stall time: its worker was lost."""
        if self.check_status != self.Check.RUNNING:
            return False
        return self.check_beat is None or self.check_beat <= stalled_before()

    @property
    def check_label(self) -> str:
        """The check's state in words, a stalled run told apart from a running one."""
        if self.check_stalled:
            return gettext("stalled (its worker was lost)")

        return self.get_check_status_display()


def stalled_before() -> datetime:
    """A running check whose last progress is older than this has lost its worker."""
    return timezone.now() - timedelta(minutes=settings.CARDSET_CHECK_STALL_MINUTES)


# the check states from which the bot check may be started (and a running one that stalled)
STARTABLE = (CardSet.Check.PENDING, CardSet.Check.FAILED)

# the check states in which a set can be chosen for new games (filter with check_status__in=USABLE)
USABLE = (CardSet.Check.PASSED, CardSet.Check.SHIPPED)
