"""Reading an uploaded card set: the title's YAML files, or a zip of them, into parsed plain data.

Everything here is bounded before it is read (upload size, each member, a zip's total and member
count, the number of YAML nodes), parsed with yaml.safe_load only, and never written to disk. Every
refusal is an UploadError whose message names the file. No Django import.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import yaml

from .kinds import SetKind

# yaml.safe_load's loader, in C when libyaml is there: the same safe constructor, many times faster
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class UploadError(ValueError):
    """A refused upload, in words for the person who sent it."""


@dataclass(frozen=True)
class Limits:
    """The bounds of one upload; cardsets.forms.limits() builds them from the settings."""

    upload_bytes: int  # one uploaded file (a YAML file or the zip): settings.CARDSET_UPLOAD_BYTES
    zip_bytes: int  # all files inside the zip, uncompressed: settings.CARDSET_ZIP_BYTES
    member_bytes: int = 500_000  # one file inside the zip, uncompressed
    zip_members: int = 20
    nodes: int = 50_000  # values in one parsed file, aliases counted each time they are used


def read_upload(kind: SetKind, uploads: list[tuple[str, bytes]], limits: Limits) -> dict[str, Any]:
    """{file name: parsed data} from uploaded (name, bytes): YAML files of the title, or one zip.
    A blob may be cut at upload_bytes + 1 by whoever read it: it is refused here either way."""
    if not uploads:
        raise UploadError(f"Choose the set's files ({', '.join(kind.files)}) or a zip of them.")
    for name, blob in uploads:
        if len(blob) > limits.upload_bytes:
            raise UploadError(f"{_shown(name)}: larger than an upload may be (at most {limits.upload_bytes:,} bytes).")
    if len(uploads) == 1 and (uploads[0][0].lower().endswith(".zip") or uploads[0][1][:4] == b"PK\x03\x04"):
        uploads = _unzip(kind, uploads[0][1], limits)
    files: dict[str, Any] = {}
    for name, blob in uploads:
        base = _member_name(kind, name)
        if base in files:
            raise UploadError(f"{base}: given twice.")
        files[base] = parse_yaml(base, blob, limits)
    missing = [n for n in kind.files if n not in files]
    if missing:
        raise UploadError(f"{', '.join(missing)}: missing. A set of this game is the files {', '.join(kind.files)}.")
    return files


def _shown(name: str) -> str:
    """A file name as it may be shown back: printable and short."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in name)
    return clean[:80] or "(no name)"


def _member_name(kind: SetKind, name: str) -> str:
    """The title's file a name stands for; anything else (other names, paths that climb) is refused."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or len(path.parts) > 2:
        raise UploadError(f"{_shown(name)}: not a file name this set may hold; use {', '.join(kind.files)}.")
    if path.name not in kind.files:
        raise UploadError(f"{_shown(name)}: not one of this game's files ({', '.join(kind.files)}).")
    return path.name


def _unzip(kind: SetKind, blob: bytes, limits: Limits) -> list[tuple[str, bytes]]:
    try:
        zf = zipfile.ZipFile(io.BytesIO(blob))
        infos = [i for i in zf.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError):
        raise UploadError("The zip could not be read: it is damaged or not a zip.") from None
    if len(infos) > limits.zip_members:
        raise UploadError(
            f"The zip holds {len(infos)} files; a set has {len(kind.files)} (at most {limits.zip_members})."
        )
    if sum(i.file_size for i in infos) > limits.zip_bytes:
        raise UploadError(f"The zip unpacks to more than {limits.zip_bytes:,} bytes; a card set is far smaller.")
    out, total = [], 0
    for info in infos:
        _member_name(kind, info.filename)
        if info.file_size > limits.member_bytes:
            raise UploadError(f"{_shown(info.filename)}: more than {limits.member_bytes:,} bytes unpacked.")
        try:
            with zf.open(info) as f:
                data = f.read(limits.member_bytes + 1)  # never trust the size the header claims
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError, EOFError, OSError):
            raise UploadError(f"{_shown(info.filename)}: could not be unpacked (damaged or encrypted).") from None
        total += len(data)
        if len(data) > limits.member_bytes or total > limits.zip_bytes:
            raise UploadError(f"{_shown(info.filename)}: unpacks to more than the zip says; refused.")
        out.append((info.filename, data))
    return out


def parse_yaml(name: str, blob: bytes, limits: Limits) -> Any:
    """One file's data: UTF-8, plain YAML (no tags that make objects), plain JSON-like values."""
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadError(f"{name}: not UTF-8 text; card data is YAML text.") from None
    try:
        data = yaml.load(text, Loader=SAFE_LOADER)  # noqa: S506 - a safe loader (libyaml's when present)
    except yaml.constructor.ConstructorError as e:
        tag = getattr(e, "problem", "") or ""
        raise UploadError(
            f"{name}: uses a YAML tag that is not allowed ({tag[:120]}); card data is plain YAML."
        ) from None
    except yaml.YAMLError as e:
        where = getattr(e, "problem_mark", None)
        line = f" (line {where.line + 1})" if where is not None else ""
        raise UploadError(f"{name}: not valid YAML{line}: {getattr(e, 'problem', None) or 'unreadable'}.") from None
    except RecursionError:
        raise UploadError(f"{name}: nested too deeply.") from None
    plain(name, data, limits.nodes)
    return data


def plain(name: str, data: Any, limit: int) -> None:
    """Refuse values JSON cannot keep as they are (dates, binary, non-text keys) and alias bombs."""
    seen = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > limit or depth > 50:
            raise UploadError(f"{name}: too many values (or aliases) for a card set.")
        if isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise UploadError(f"{name}: the key {str(k)[:40]!r} is not text; quote it.")
                stack.append((v, depth + 1))
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif not (value is None or isinstance(value, (str, int, float, bool))):
            raise UploadError(f"{name}: the value {str(value)[:40]!r} is not plain data (text, number, list, mapping).")
        elif isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
            raise UploadError(f"{name}: {value!r} is not a number card data may hold.")
