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

from games.engine.cards import TRANSLATIONS
from games.engine.messages import Msg, english, msg

from .kinds import SetKind

# yaml.safe_load's loader, in C when libyaml is there: the same safe constructor, many times faster
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_DIGITS = 18  # a whole number in card data; longer ones are refused before they are converted
_MAX_WRITTEN_DIGITS = 64  # digits read at all (a 64-bit binary number); the value is bounded after


class UploadError(ValueError):
    """A refused upload, for the person who sent it: `said` is a message (games.engine.messages),
    rendered in their language where it is shown; str() is its English."""

    def __init__(self, said: Msg) -> None:
        super().__init__(english(said))
        self.said = said


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
        raise UploadError(msg("Choose the set's files (%(files)s) or a zip of them.", files=_names(kind.files)))
    for name, blob in uploads:
        if len(blob) > limits.upload_bytes:
            raise UploadError(
                msg(
                    "%(file)s: larger than an upload may be (at most %(n)s bytes).",
                    file=_shown(name),
                    n=_bytes(limits.upload_bytes),
                )
            )
    if len(uploads) == 1 and (uploads[0][0].lower().endswith(".zip") or uploads[0][1][:4] == b"PK\x03\x04"):
        uploads = _unzip(kind, uploads[0][1], limits)
    files: dict[str, Any] = {}
    for name, blob in uploads:
        base = _member_name(kind, name)
        if base in files:
            raise UploadError(msg("%(file)s: given twice.", file=base))
        files[base] = parse_yaml(base, blob, limits)
    missing = [n for n in kind.files if n not in files]
    if missing:
        raise UploadError(
            msg(
                "%(missing)s: missing. A set of this game is the files %(files)s.",
                missing=_names(missing),
                files=_names(kind.files),
            )
        )
    return files


def _shown(name: str) -> str | Msg:
    """A file name as it may be shown back: printable and short."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in name)
    return clean[:80] or msg("(no name)")


def _names(names) -> str:
    """File names as a list to show: "cards.yaml, rules.yaml" (names, not words to translate)."""
    return ", ".join(names)


def _bytes(n: int) -> str:
    # grouped as the refusal's English groups it: this reader is pure and passes words, not numbers
    return f"{n:,}"


def _member_name(kind: SetKind, name: str) -> str:
    """The title's file a name stands for; anything else (other names, paths that climb) is refused."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or len(path.parts) > 2:
        raise UploadError(
            msg(
                "%(file)s: not a file name this set may hold; use %(files)s.",
                file=_shown(name),
                files=_names(kind.files),
            )
        )
    if path.name not in kind.files and path.name != TRANSLATIONS:
        raise UploadError(
            msg("%(file)s: not one of this game's files (%(files)s).", file=_shown(name), files=_names(kind.files))
        )
    return path.name


def _unzip(kind: SetKind, blob: bytes, limits: Limits) -> list[tuple[str, bytes]]:
    try:
        zf = zipfile.ZipFile(io.BytesIO(blob))
        infos = [i for i in zf.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError):
        raise UploadError(msg("The zip could not be read: it is damaged or not a zip.")) from None
    if len(infos) > limits.zip_members:
        raise UploadError(
            msg(
                "The zip holds %(n)s files; a set has %(files)s (at most %(most)s).",
                n=len(infos),
                files=len(kind.files),
                most=limits.zip_members,
            )
        )
    if sum(i.file_size for i in infos) > limits.zip_bytes:
        raise UploadError(
            msg("The zip unpacks to more than %(n)s bytes; a card set is far smaller.", n=_bytes(limits.zip_bytes))
        )
    out, total = [], 0
    for info in infos:
        _member_name(kind, info.filename)
        if info.file_size > limits.member_bytes:
            raise UploadError(
                msg(
                    "%(file)s: more than %(n)s bytes unpacked.",
                    file=_shown(info.filename),
                    n=_bytes(limits.member_bytes),
                )
            )
        try:
            with zf.open(info) as f:
                data = f.read(limits.member_bytes + 1)  # never trust the size the header claims
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError, EOFError, OSError):
            raise UploadError(
                msg("%(file)s: could not be unpacked (damaged or encrypted).", file=_shown(info.filename))
            ) from None
        total += len(data)
        if len(data) > limits.member_bytes or total > limits.zip_bytes:
            raise UploadError(msg("%(file)s: unpacks to more than the zip says; refused.", file=_shown(info.filename)))
        out.append((info.filename, data))
    return out


def parse_yaml(name: str, blob: bytes, limits: Limits) -> Any:
    """One file's data: UTF-8, plain YAML (no tags that make objects), plain JSON-like values."""
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadError(msg("%(file)s: not UTF-8 text; card data is YAML text.", file=name)) from None
    try:
        data = yaml.load(text, Loader=_CardLoader)  # the safe loader, stricter: see _CardLoader
    except _Refused as e:
        raise UploadError(msg("%(file)s, line %(line)s: %(why)s", file=name, line=e.line, why=e.words)) from None
    except ConstructorError as e:
        raise UploadError(_constructor_words(name, e)) from None
    except yaml.YAMLError as e:
        where = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or getattr(e, "reason", None) or "unreadable"  # a ReaderError: reason
        if where is not None:
            said = msg(
                "%(file)s: not valid YAML (line %(line)s): %(problem)s.",
                file=name,
                line=where.line + 1,
                problem=problem,
            )
        else:
            said = msg("%(file)s: not valid YAML: %(problem)s.", file=name, problem=problem)
        raise UploadError(said) from None
    except RecursionError:
        raise UploadError(msg("%(file)s: nested too deeply.", file=name)) from None
    plain(name, data, limits.nodes)
    return data


class _Refused(Exception):
    """A value card data never holds, at a node: raised while constructing, with the node's line.
    Not a ValueError, so that _CardLoader.construct_object passes it through unchanged."""

    def __init__(self, node: Node, words: Msg) -> None:
        super().__init__(english(words))
        self.line = node.start_mark.line + 1
        self.words = words


def _constructor_words(name: str, e: ConstructorError) -> Msg:
    """The safe constructor's own refusals (unknown tags, bad merges, keys that are lists or mappings)."""
    problem = "".join(ch if ch.isprintable() else "?" for ch in (e.problem or "unreadable")[:120])
    if problem.startswith("could not determine a constructor"):
        return msg(
            "%(file)s: uses a YAML tag that is not allowed (%(problem)s); card data is plain YAML.",
            file=name,
            problem=problem,
        )
    mark = e.problem_mark or e.context_mark
    if mark is None:
        if problem == "found unhashable key":
            return msg("%(file)s: a key is a list or a mapping; keys are text.", file=name)
        return msg("%(file)s: not card data (%(problem)s).", file=name, problem=problem)
    if problem == "found unhashable key":
        return msg(
            "%(file)s, line %(line)s: a key is a list or a mapping; keys are text.", file=name, line=mark.line + 1
        )
    return msg("%(file)s, line %(line)s: not card data (%(problem)s).", file=name, line=mark.line + 1, problem=problem)


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
            if isinstance(node, ScalarNode):
                said = msg(
                    "%(value)s cannot be read as %(tag)s; quote it if it is text.", value=_text(node), tag=_tag(node)
                )
            else:
                said = msg("cannot be read as %(tag)s; quote it if it is text.", tag=_tag(node))
            raise _Refused(node, said) from None

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
            raise _Refused(
                node, msg("%(value)s is not a whole number; quote it if it is text.", value=_text(node))
            ) from None
        if abs(value) >= 10**MAX_DIGITS:
            raise _Refused(node, _too_long(len(str(abs(value)))))
        return value

    def construct_yaml_float(self, node: ScalarNode) -> float:
        """A finite number: inf and nan (1e999, .nan) have no place in card data."""
        try:
            value = SafeConstructor.construct_yaml_float(self, node)
        except (ValueError, IndexError, OverflowError):
            raise _Refused(node, msg("%(value)s is not a number; quote it if it is text.", value=_text(node))) from None
        if not math.isfinite(value):
            raise _Refused(node, msg("%(value)s is not a number card data may hold.", value=_text(node)))
        return value

    def construct_yaml_timestamp(self, node: ScalarNode) -> Any:
        """Never a date: one that does not exist is told as such, one that does is not plain data."""
        text = self.construct_scalar(node)
        if not self.timestamp_regexp.match(text):
            raise _Refused(node, msg("%(value)s is not a date; quote it if it is text.", value=_text(node)))
        try:
            SafeConstructor.construct_yaml_timestamp(self, node)
        except (ValueError, OverflowError):
            raise _Refused(
                node, msg("%(value)s is not a date that exists; quote it if it is text.", value=_text(node))
            ) from None
        raise _Refused(
            node,
            msg(
                "the value %(value)s is not plain data (text, number, list, mapping); quote it if it is text.",
                value=repr(_text(node)),
            ),
        )

    def construct_not_plain(self, node: Node) -> Any:
        """Binary, sets and ordered pairs: refused before they are built (no base64 decoding)."""
        raise _Refused(node, msg("a %(tag)s value is not plain data (text, number, list, mapping).", tag=_tag(node)))


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


def _too_long(digits: int) -> Msg:
    return msg(
        "a number of %(n)s digits is longer than card data may hold (at most %(most)s digits).",
        n=_bytes(digits),
        most=MAX_DIGITS,
    )


def plain(name: str, data: Any, limit: int) -> None:
    """Refuse values JSON cannot keep as they are (dates, binary, non-text keys) and alias bombs."""
    seen = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > limit or depth > 50:
            raise UploadError(msg("%(file)s: too many values (or aliases) for a card set.", file=name))
        if isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise UploadError(
                        msg("%(file)s: the key %(key)s is not text; quote it.", file=name, key=repr(str(k)[:40]))
                    )
                stack.append((v, depth + 1))
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif not (value is None or isinstance(value, (str, int, float, bool))):
            raise UploadError(
                msg(
                    "%(file)s: the value %(value)s is not plain data (text, number, list, mapping).",
                    file=name,
                    value=repr(str(value)[:40]),
                )
            )
        elif isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
            raise UploadError(
                msg("%(file)s: %(value)s is not a number card data may hold.", file=name, value=repr(value))
            )
