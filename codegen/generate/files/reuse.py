"""What the previous generation left on disk, and the files of a target as a plan builds them.

Incremental ``generate`` renders a file only when what it is made from changed: every
generated file carries a record (:mod:`codegen.generate.files.records`), and :class:`Previous`
keeps the records of a target's files whose body still matches. :class:`FileSet` takes such a
file as it is when its recorded inputs equal the inputs it would be made from now, and
renders it otherwise, so that the result is byte for byte what a full generation writes; it
then seals the new files (their body digests) and renders the target's manifest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from codegen.generate.files.records import (
    Manifest,
    Record,
    body_digest,
    carries_record,
    dump,
    header_record,
    manifest_document,
    read_manifest,
    seal,
)
from codegen.generate.files.targets import Disk, Target

__all__ = ["FileSet", "Previous"]


@dataclass(frozen=True)
class Previous:
    """The generated files of one target on disk, and the records of those that are intact."""

    texts: Mapping[PurePosixPath, str] = field(default_factory=dict)
    records: Mapping[PurePosixPath, Record] = field(default_factory=dict)
    manifest: Manifest | None = None

    @classmethod
    def read(cls, target: Target, disk: Disk | None = None) -> Previous:
        on_disk = (disk or Disk()).files(target)
        generated = target.ownership.generated(on_disk)
        manifest = None
        if target.manifest is not None and target.manifest in generated:
            manifest = read_manifest(on_disk[target.manifest])
        trusted = manifest.records if manifest is not None and manifest.intact else {}
        records = {}
        for rel in generated:
            text = on_disk[rel]
            own = carries_record(text)
            record = header_record(text) if own else trusted.get(rel.as_posix())
            if record is not None and body_digest(text, own=own) == record.body:
                records[rel] = record
        return cls({rel: on_disk[rel] for rel in generated}, records, manifest)

    def reuse(self, rel: PurePosixPath, inputs: str) -> str | None:
        """The file's text when it was made from ``inputs`` and is intact, else None."""
        record = self.records.get(rel)
        return self.texts[rel] if record is not None and record.inputs == inputs else None


class FileSet:
    """The files of one target: each reused from :class:`Previous` or rendered."""

    def __init__(self, previous: Previous | None = None) -> None:
        self.previous = previous or Previous()
        self.texts: dict[PurePosixPath, str] = {}
        self.records: dict[PurePosixPath, Record] = {}
        self._fresh: dict[PurePosixPath, str] = {}  # rendered, by path -> inputs

    def add(self, rel: PurePosixPath, inputs: str, render: Callable[[], str]) -> bool:
        """Take ``rel`` from the previous generation, or render it; True when rendered."""
        text = self.previous.reuse(rel, inputs)
        if text is not None:
            self.texts[rel] = text
            self.records[rel] = self.previous.records[rel]
            return False
        self.texts[rel] = render()
        self._fresh[rel] = inputs
        return True

    def reused(self, rel: PurePosixPath, inputs: str) -> bool:
        """Whether ``rel`` can be taken as it is (without adding it)."""
        return self.previous.reuse(rel, inputs) is not None

    def fresh(self, suffix: str) -> dict[PurePosixPath, str]:
        """The files rendered so far whose name ends with ``suffix``."""
        return {rel: self.texts[rel] for rel in self._fresh if rel.suffix == suffix}

    def seal(self) -> None:
        """Give every rendered file its record (a header's body digest is filled in)."""
        for rel, inputs in self._fresh.items():
            own = carries_record(self.texts[rel])
            text = seal(self.texts[rel]) if own else self.texts[rel]
            self.texts[rel] = text
            self.records[rel] = Record(inputs, body_digest(text, own=own))
        self._fresh.clear()

    def with_manifest(
        self, manifest: PurePosixPath, content: Mapping[str, Any], inputs: str
    ) -> dict[PurePosixPath, str]:
        """Every file, sealed, and the manifest listing them with their records."""
        self.seal()
        records = {rel: record for rel, record in self.records.items() if rel != manifest}
        document = manifest_document(content, inputs, records, manifest)
        texts = {rel: text for rel, text in self.texts.items() if rel != manifest}
        texts[manifest] = seal(dump(document))
        return dict(sorted(texts.items()))
