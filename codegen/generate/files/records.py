"""The record every generated file carries: what it was made from, and a digest of its body.

A :class:`Record` is two SHA-256 digests, each written ``sha256:<hex>``:

* ``inputs``: what the file was made from (:mod:`codegen.core.inputs`): for a contract's
  files its closure, its part of the configuration and the generator;
* ``body``: the file's UTF-8 text without the one line that holds the body digest itself.

A file that holds comments carries its record in its header (Python, then Markdown)::

    # Inputs: sha256:<hex> (what went in)          <!-- Inputs: sha256:<hex> (...) -->
    # Body: sha256:<hex>                           <!-- Body: sha256:<hex> -->

A JSON file cannot: its folder's **manifest** (a JSON index, :func:`manifest_document`) lists
every generated file of the folder (``files``) with its record (``records``), the inputs of
the whole generation (``inputs``: :func:`~codegen.core.inputs.tree_inputs`) and, on its own
line ``  "body": "sha256:<hex>",``, the digest of its own body. ``check`` trusts a folder whose
manifest's inputs are current and whose every file matches its record, without generating;
``generate`` reuses a file whose record's inputs are current and whose body is intact.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

__all__ = [
    "BODY_PLACEHOLDER",
    "Manifest",
    "Record",
    "body_digest",
    "carries_record",
    "dump",
    "header_record",
    "manifest_document",
    "read_manifest",
    "seal",
]

BODY_PLACEHOLDER = "0" * 64
"""The body digest a file is rendered with; :func:`seal` replaces it once the text is final."""

_HEX = r"([0-9a-f]{64})"
# The line holding a body digest: in a Python or Markdown header, or in a manifest.
_BODY_LINE = re.compile(rf'^(?:# Body: |<!-- Body: |  "body": ")sha256:{_HEX}(?: -->|",)?\n', re.M)
_HEADER_INPUTS = re.compile(rf"^(?:# |<!-- )Inputs: sha256:{_HEX}", re.M)
_HEADER_LINES = 8  # a header record sits in the first lines of its file


@dataclass(frozen=True)
class Record:
    """What a generated file was made from, and the digest of its body (hex digests)."""

    inputs: str
    body: str

    def as_json(self) -> dict[str, str]:
        return {"body": f"sha256:{self.body}", "inputs": f"sha256:{self.inputs}"}


def dump(value: Any) -> str:
    """Deterministic JSON text: sorted keys, two-space indent, a final newline."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def body_digest(text: str, *, own: bool) -> str:
    """The digest of ``text``; with ``own``, without the line holding its own body digest."""
    return _body_digest(text, own)


@lru_cache(maxsize=32_768)  # generate --watch digests the same texts on every save
def _body_digest(text: str, own: bool) -> str:
    if own:
        match = _BODY_LINE.search(text)
        if match is not None:
            text = text[: match.start()] + text[match.end() :]
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(text: str) -> str:
    """``text`` with the placeholder of its body line replaced by its body digest."""
    match = _BODY_LINE.search(text)
    if match is None or match.group(1) != BODY_PLACEHOLDER:
        raise ValueError("the text holds no body placeholder to seal")
    start = match.start(1)
    return text[:start] + body_digest(text, own=True) + text[start + len(BODY_PLACEHOLDER) :]


def _head(text: str) -> str:
    """The first lines of ``text``, where a header holds its record."""
    end = 0
    for _ in range(_HEADER_LINES):
        end = text.find("\n", end) + 1
        if end == 0:
            return text
    return text[:end]


def carries_record(text: str) -> bool:
    """Whether ``text`` holds its own body digest in its header (or the placeholder for it);
    a file that does not is recorded by its folder's manifest."""
    return _BODY_LINE.search(_head(text)) is not None


def header_record(text: str) -> Record | None:
    """The record in the header of a Python or Markdown file, if it has one."""
    head = _head(text)
    inputs, body = _HEADER_INPUTS.search(head), _BODY_LINE.search(head)
    if inputs is None or body is None:
        return None
    return Record(inputs.group(1), body.group(1))


def _digest_of(value: Any) -> str | None:
    if isinstance(value, str) and re.fullmatch(f"sha256:{_HEX}", value):
        return value.removeprefix("sha256:")
    return None


@dataclass(frozen=True)
class Manifest:
    """A folder's manifest as read from disk: the inputs it was generated from, and the record
    of each file it lists. ``intact`` says whether its own body matches its digest."""

    inputs: str
    records: Mapping[str, Record]  # by POSIX path relative to the folder
    files: frozenset[str]
    intact: bool


def manifest_document(
    content: Mapping[str, Any],
    inputs: str,
    records: Mapping[PurePosixPath, Record],
    own: PurePosixPath,
) -> dict[str, Any]:
    """``content`` (which holds the ``$comment`` with the generated mark) with the manifest's
    fields; dump it, then :func:`seal` it."""
    return {
        **content,
        "body": f"sha256:{BODY_PLACEHOLDER}",
        "files": sorted(p.as_posix() for p in {*records, own}),
        "inputs": f"sha256:{inputs}",
        "records": {rel.as_posix(): records[rel].as_json() for rel in sorted(records)},
    }


@lru_cache(maxsize=8)
def read_manifest(text: str) -> Manifest | None:
    """The manifest in ``text``, or None when it is not one (or not readable); a run reads
    each manifest once, however many steps ask."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    inputs, body = _digest_of(data.get("inputs")), _digest_of(data.get("body"))
    listed, raw = data.get("files"), data.get("records")
    if inputs is None or body is None or not isinstance(listed, list):
        return None
    records: dict[str, Record] = {}
    for rel, record in (raw if isinstance(raw, dict) else {}).items():
        if isinstance(record, dict):
            digests = _digest_of(record.get("inputs")), _digest_of(record.get("body"))
            if digests[0] is not None and digests[1] is not None:
                records[rel] = Record(digests[0], digests[1])
    files = frozenset(f for f in listed if isinstance(f, str))
    return Manifest(inputs, records, files, body_digest(text, own=True) == body)
