"""Reading an uploaded card set: the title's YAML files, or a zip of them, into parsed plain data.

Everything here is bounded before it is read (upload size, each member, a zip's total and member
count, the number of YAML nodes, the digits of a whole number), parsed with a safe loader only
(yaml.safe_load's, whose constructors here refuse what card data never holds before building it:
dates, binary, sets, numbers too long or out of range), and never written to disk. Every refusal is
an UploadError whose message names the file, and the line where the loader knows it. No Django import.
"""

from __future__ import annotations

import io
import math
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import Node, ScalarNode

from .kinds import SetKind

# yaml.safe_load's loader, in C when libyaml is there: the same safe constructor, many times faster
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_DIGITS = 18  # a whole number in card data; longer ones are refused before they are converted
_MAX_WRITTEN_DIGITS = 64  # digits read at all (a 64-bit binary number); the value is bounded after


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
        data = yaml.load(text, Loader=_CardLoader)  # the safe loader, stricter: see _CardLoader
    except _Refused as e:
        raise UploadError(f"{name}, line {e.line}: {e.words}") from None
    except ConstructorError as e:
        raise UploadError(_constructor_words(name, e)) from None
    except yaml.YAMLError as e:
        where = getattr(e, "problem_mark", None)
        line = f" (line {where.line + 1})" if where is not None else ""
        problem = getattr(e, "problem", None) or getattr(e, "reason", None) or "unreadable"  # a ReaderError: reason
        raise UploadError(f"{name}: not valid YAML{line}: {problem}.") from None
    except RecursionError:
        raise UploadError(f"{name}: nested too deeply.") from None
    plain(name, data, limits.nodes)
    return data


class _Refused(Exception):
    """A value card data never holds, at a node: raised while constructing, with the node's line.
    Not a ValueError, so that _CardLoader.construct_object passes it through unchanged."""

    def __init__(self, node: Node, words: str) -> None:
        super().__init__(words)
        self.line = node.start_mark.line + 1
        self.words = words


def _constructor_words(name: str, e: ConstructorError) -> str:
    """The safe constructor's own refusals (unknown tags, bad merges, keys that are lists or mappings)."""
    problem = "".join(ch if ch.isprintable() else "?" for ch in (e.problem or "unreadable")[:120])
    if problem.startswith("could not determine a constructor"):
        return f"{name}: uses a YAML tag that is not allowed ({problem}); card data is plain YAML."
    mark = e.problem_mark or e.context_mark
    where = f", line {mark.line + 1}" if mark is not None else ""
    if problem == "found unhashable key":
        return f"{name}{where}: a key is a list or a mapping; keys are text."
    return f"{name}{where}: not card data ({problem})."


def _text(node: ScalarNode) -> str:
    """A scalar's source text as it may be shown back: printable and short."""
    value = str(node.value)
    clean = "".join(ch if ch.isprintable() else "?" for ch in value[:40])
    return clean + ("…" if len(value) > 40 else "") or '""'


def _tag(node: Node) -> str:
    return str(node.tag).replace("tag:yaml.org,2002:", "!!")[:60]


class _CardLoader(SAFE_LOADER):  # type: ignore[misc,valid-type] - CSafeLoader or SafeLoader
    """The safe loader (libyaml's parser and composer when present) whose constructors refuse,
    with the node's line, what card data never holds, instead of raising Python's own errors
    (a date that does not exist, a 5,000-digit number, bad base64) that would be a server error."""

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        """Every value is built here: an error a constructor did not foresee still names the line."""
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, ArithmeticError, LookupError, AttributeError):
            shown = f"{_text(node)} " if isinstance(node, ScalarNode) else ""
            raise _Refused(node, f"{shown}cannot be read as {_tag(node)}; quote it if it is text.") from None

    def construct_yaml_int(self, node: ScalarNode) -> int:
        """A whole number of at most MAX_DIGITS digits; the digits are counted before converting,
        as Python refuses (ValueError) or is slow with very long ones."""
        text = self.construct_scalar(node)
        body = text.replace("_", "").replace(":", "").lstrip("+-")
        written = len(body[2:] if body[:2] in ("0b", "0x") else body)
        if written > _MAX_WRITTEN_DIGITS:
            raise _Refused(node, _too_long(written))
        try:
            value = SafeConstructor.construct_yaml_int(self, node)
        except (ValueError, IndexError):
            raise _Refused(node, f"{_text(node)} is not a whole number; quote it if it is text.") from None
        if abs(value) >= 10**MAX_DIGITS:
            raise _Refused(node, _too_long(len(str(abs(value)))))
        return value

    def construct_yaml_float(self, node: ScalarNode) -> float:
        """A finite number: inf and nan (1e999, .nan) have no place in card data."""
        try:
            value = SafeConstructor.construct_yaml_float(self, node)
        except (ValueError, IndexError, OverflowError):
            raise _Refused(node, f"{_text(node)} is not a number; quote it if it is text.") from None
        if not math.isfinite(value):
            raise _Refused(node, f"{_text(node)} is not a number card data may hold.")
        return value

    def construct_yaml_timestamp(self, node: ScalarNode) -> Any:
        """Never a date: one that does not exist is told as such, one that does is not plain data."""
        text = self.construct_scalar(node)
        if not self.timestamp_regexp.match(text):
            raise _Refused(node, f"{_text(node)} is not a date; quote it if it is text.")
        try:
            SafeConstructor.construct_yaml_timestamp(self, node)
        except (ValueError, OverflowError):
            raise _Refused(node, f"{_text(node)} is not a date that exists; quote it if it is text.") from None
        raise _Refused(
            node, f"the value {_text(node)!r} is not plain data (text, number, list, mapping); quote it if it is text."
        )

    def construct_not_plain(self, node: Node) -> Any:
        """Binary, sets and ordered pairs: refused before they are built (no base64 decoding)."""
        raise _Refused(node, f"a {_tag(node)} value is not plain data (text, number, list, mapping).")


_CONSTRUCTORS: dict[str, Callable[..., Any]] = {
    "int": _CardLoader.construct_yaml_int,
    "float": _CardLoader.construct_yaml_float,
    "timestamp": _CardLoader.construct_yaml_timestamp,
    "binary": _CardLoader.construct_not_plain,
    "set": _CardLoader.construct_not_plain,
    "omap": _CardLoader.construct_not_plain,
    "pairs": _CardLoader.construct_not_plain,
}
for _suffix, _constructor in _CONSTRUCTORS.items():
    _CardLoader.add_constructor(f"tag:yaml.org,2002:{_suffix}", _constructor)


def _too_long(digits: int) -> str:
    return f"a number of {digits:,} digits is longer than card data may hold (at most {MAX_DIGITS} digits)."


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
