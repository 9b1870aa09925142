"""Card sets kept in the database: the title's data files (parsed), the set built from them, and
the bot check that makes a set usable. A game keeps its own copy of the set in its first event, so
nothing here ever changes a game once it has started.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class CardSet(models.Model):
    class Check(models.TextChoices):
        PENDING = "pending", "not checked yet"
        RUNNING = "running", "bot games running"
        PASSED = "passed", "passed"
        FAILED = "failed", "failed"
        SHIPPED = "shipped", "shipped with the service"

    name = models.CharField(max_length=100)
    title = models.CharField(max_length=40, db_index=True)
    provenance = models.TextField(blank=True, help_text="Where the values come from, in words.")
    content_hash = models.CharField(max_length=64, editable=False, help_text="The title's hash of the set's cards.")
    # what a game started with this set records as Game.cardset_hash (the hash of the data with its
    # "hash"), so a seat page can name the set its game holds
    recorded_hash = models.CharField(max_length=64, editable=False, db_index=True)
    files = models.JSONField(editable=False, help_text="The title's data files, parsed: file name -> data.")
    data = models.JSONField(editable=False, help_text="The set the title's loader built (what a game gets).")
    warnings = models.JSONField(default=list, blank=True, editable=False)
    shared = models.BooleanField(
        default=False, help_text="Offered to everyone who may host; otherwise only to the person who added it."
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="cardsets"
    )
    added_at = models.DateTimeField(default=timezone.now, editable=False)
    check_status = models.CharField(max_length=10, choices=Check.choices, default=Check.PENDING, editable=False)
    check_done = models.PositiveIntegerField(default=0, editable=False)
    check_total = models.PositiveIntegerField(default=0, editable=False)
    check_results = models.JSONField(default=dict, blank=True, editable=False)

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


# the check states in which a set can be chosen for new games (filter with check_status__in=USABLE)
USABLE = (CardSet.Check.PASSED, CardSet.Check.SHIPPED)
