"""The sets shipped with the titles (seeds/<slug>/, or the folder a title's kind names), stored as
card sets. `after_migrate` runs at the end of every `migrate` (cardsets/apps.py connects it to
post_migrate), so every registered title's shipped set is there once the database is: a new
title needs no data migration. Storing is idempotent: a title that has its shipped set, or a set
with the same cards, is left alone. Tests whose database was emptied call `store_shipped` too.
Takes the model class, so the step can pass the migrated state's model."""

from __future__ import annotations

from typing import Any

from games.engine.cards import content_hash
from games.titles import get_title

from .kinds import KINDS, shipped_files

PROVENANCE = "Shipped with the service: seeds/{slug}/README.md says which values are the project's own."


def store_shipped(model: Any, using: str = "default") -> None:
    objects = model._default_manager.db_manager(using)
    for slug, kind in KINDS.items():
        if objects.filter(title=slug, check_status="shipped").exists():
            continue
        files = shipped_files(slug)
        data, warnings = kind.check(files)
        if objects.filter(title=slug, content_hash=data["hash"]).exists():
            continue
        objects.create(
            name=data.get("name") or f"{get_title(slug).name}: shipped set",
            title=slug,
            provenance=PROVENANCE.format(slug=slug),
            content_hash=data["hash"],
            recorded_hash=content_hash(data),
            files=files,
            data=data,
            warnings=warnings,
            shared=True,
            check_status="shipped",
        )


def after_migrate(sender: Any, using: str = "default", apps: Any = None, plan: Any = None, **kwargs: Any) -> None:
    """post_migrate: store the shipped sets, once the card set table is migrated to its current shape.

    Only after `migrate` (which sends its plan): `flush`, which a test uses to empty the database,
    sends post_migrate too, and a test that needs the shipped sets back stores them itself.
    """
    from .models import CardSet

    if plan is None or apps is None:
        return
    try:
        model = apps.get_model("cardsets", "CardSet")
    except LookupError:  # the card sets are not migrated (yet)
        return
    if {f.name for f in model._meta.concrete_fields} != {f.name for f in CardSet._meta.concrete_fields}:
        return  # migrated to an older shape (migrate cardsets <earlier>): nothing to store into
    store_shipped(model, using)
