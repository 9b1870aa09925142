"""The sets shipped in seeds/<slug>/, stored as card sets (by the first data migration, and by tests
whose database was emptied). Takes the model class, so a migration can pass its historical model."""

from __future__ import annotations

from typing import Any

from games.engine.cards import content_hash
from games.titles import get_title

from .kinds import KINDS, shipped_files

PROVENANCE = "Shipped with the service: seeds/{slug}/README.md says which values are the project's own."


def store_shipped(model: Any) -> None:
    for slug, kind in KINDS.items():
        if model.objects.filter(title=slug, check_status="shipped").exists():
            continue
        files = shipped_files(slug)
        data, warnings = kind.check(files)
        if model.objects.filter(title=slug, content_hash=data["hash"]).exists():
            continue
        model.objects.create(
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
