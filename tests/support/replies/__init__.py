"""The reply corpus: real mail-client reply formats (manifest.yaml names each case and what was meant).

Shared by tests/test_reply_text.py (the kept reader reads every case as meant) and
bench/reply_corpus.py (the readers compared).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case:
    """One reply as a mail client sent it, and what its writer meant (None: nothing can be read)."""

    id: str
    client: str
    format: str
    kind: str  # "answer" or "talk"
    parts: int
    text: str
    html: str
    stripped: str
    meant: str | None


def _body(name: str | None) -> str:
    """A body part as the client sent it: newline="" keeps its own line endings (Outlook's CRLF)."""
    if not name:
        return ""
    with open(HERE / name, encoding="utf-8", newline="") as f:
        return f.read()


def load() -> list[Case]:
    """Every case of the manifest, with its body parts read from their files."""
    entries = yaml.safe_load((HERE / "manifest.yaml").read_text(encoding="utf-8"))
    return [
        Case(
            id=e["id"],
            client=e["client"],
            format=e["format"],
            kind=e["kind"],
            parts=e.get("parts", 1),
            text=_body(e.get("text")),
            html=_body(e.get("html")),
            stripped=e.get("stripped", ""),
            meant=None if e.get("refuse") else str(e["meant"]).rstrip("\n"),
        )
        for e in entries
    ]
