"""A stored set back to the title's files, zipped, so an owner can load it on another instance.

The files are the parsed data as uploaded (comments are not kept), so uploading the zip again gives
the same content hash. No Django import.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import yaml

from games.engine.cards import TRANSLATIONS

from .kinds import SetKind

HEADER = "# {name}: card set for {slug}, exported by the café turn service.\n# {provenance}\n"


def dump_file(data: Any) -> str:
    return yaml.dump(
        data,
        Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )


def export_zip(kind: SetKind, files: dict[str, Any], name: str, provenance: str) -> bytes:
    """The zip: one YAML file per data file, named as in seeds/<slug>/, and its translations if any."""
    buf = io.BytesIO()
    head = HEADER.format(name=name, slug=kind.slug, provenance=" ".join(provenance.split()) or "No provenance given.")
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for file in kind.files:
            zf.writestr(file, head + dump_file(files[file]))
        if files.get(TRANSLATIONS):  # the set's own translations travel with it
            zf.writestr(TRANSLATIONS, head + dump_file(files[TRANSLATIONS]))
    return buf.getvalue()
