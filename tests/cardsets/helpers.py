"""Card set files for tests: the shipped Café Baras set as uploaded bytes, edited as a test needs."""

from __future__ import annotations

import copy
import io
import zipfile
from typing import Any

from cardsets.exporting import dump_file
from cardsets.kinds import shipped_files

_SHIPPED: dict[str, Any] = {}


def baras_files() -> dict[str, Any]:
    """A fresh copy of the shipped Café Baras files, parsed."""
    if not _SHIPPED:
        _SHIPPED.update(shipped_files("cafe_baras"))
    return copy.deepcopy(_SHIPPED)


def card(files: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in files["cafe_cards.yaml"]["cards"] if c["id"] == card_id)


def as_uploads(files: dict[str, Any]) -> list[tuple[str, bytes]]:
    return [(name, dump_file(data).encode()) for name, data in files.items()]


def as_zip(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, blob in members:
            zf.writestr(name, blob)
    return buf.getvalue()
