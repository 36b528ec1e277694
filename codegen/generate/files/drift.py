"""Compare the generated files on disk with what generation would write.

Two ways, the first one first:

* :func:`verify` reads records only, and generates nothing: the inputs of the generation
  (every schema file, the configuration, every file of the generator, the pinned tools'
  versions) must be those each target's manifest records, and every file must be listed there
  with a body that still matches its record (:mod:`codegen.generate.files.records`). A fresh clone
  is checked this way, with no cache anywhere.
* :func:`compare` diffs a plan with the files on disk: changed, missing and stale generated
  files, and hand-written ones in a generated folder. It never disagrees with ``generate``,
  and shows what drifted.

:func:`reasons` says why, from what the package's manifest records the last generation read
(:func:`made_from`: the configuration, the generator, each schema file).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from codegen.core.config import Config
from codegen.core.inputs import config_digest, schema_digests, tree_inputs
from codegen.generate.files.header import made_with
from codegen.generate.files.records import body_digest, carries_record, header_record, read_manifest
from codegen.generate.files.targets import PACKAGE_INDEX, Disk, Output, Target, targets_of

__all__ = ["Drift", "compare", "made_from", "reasons", "records_only", "verify"]

# A line that holds a record (a digest): headers, manifests.
_RECORD_LINE = re.compile(r"sha256:[0-9a-f]{12,64}")  # a record's digest


def made_from(config: Config, files: Iterable[tuple[str, bytes]]) -> dict[str, Any]:
    """What a generation read: the configuration's digest, the generator and tools, and each
    schema file's (and mapped file's) digest."""
    return {
        "configuration": f"sha256:{config_digest(config)}",
        "generator": made_with(),
        "schemas": {rel: f"sha256:{d}" for rel, d in sorted(schema_digests(config, files).items())},
    }


def reasons(config: Config, disk: Disk) -> list[str]:
    """Why the generated files differ from what generation would write now: which of the
    configuration, the generator and the schema files changed since the last generation (by
    the package manifest's ``made_from``)."""
    text = disk.files(targets_of(config)[0]).get(PurePosixPath(PACKAGE_INDEX), "")
    try:
        recorded = json.loads(text).get("made_from")
    except (ValueError, AttributeError):
        recorded = None
    if not isinstance(recorded, dict):
        return ["no record of the last generation (a first generation, or another generator)"]
    now = made_from(config, disk.schemas(config))
    found = []
    if recorded.get("configuration") != now["configuration"]:
        found.append(f"the configuration changed ([tool.maverick-codegen] of {config.path.name})")
    if recorded.get("generator") != now["generator"]:
        found.append(f"the generator changed ({recorded.get('generator')} -> {now['generator']})")
    found_before = recorded.get("schemas")
    before: dict[str, Any] = found_before if isinstance(found_before, dict) else {}
    edits = [f"{rel} (edited)" for rel in now["schemas"] if rel in before and before[rel] !=
             now["schemas"][rel]]  # fmt: skip
    edits += [f"{rel} (added)" for rel in now["schemas"] if rel not in before]
    edits += [f"{rel} (deleted)" for rel in before if rel not in now["schemas"]]
    if edits:
        shown = ", ".join(edits[:5]) + (f" and {len(edits) - 5} more" if len(edits) > 5 else "")
        found.append(f"{len(edits)} schema file{'s' if len(edits) > 1 else ''} changed: {shown}")
    return found or ["generated files were edited, added or removed by hand"]


def _masked(text: str) -> str:
    return _RECORD_LINE.sub("sha256:...", text)


def records_only(before: str, after: str) -> bool:
    """Whether two versions of a generated file differ only in their records (digests)."""
    strip = [line for line in before.splitlines() if not _RECORD_LINE.search(line)]
    return strip == [line for line in after.splitlines() if not _RECORD_LINE.search(line)]


@dataclass(frozen=True)
class Drift:
    """Differences between what ``generate`` would write and what is on disk.

    Paths are as shown to the user (relative to the project root for configured targets).
    """

    changed: Mapping[str, str] = field(default_factory=dict)  # path -> unified diff ("" when
    # the file differs in its records only)
    missing: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()
    foreign: tuple[str, ...] = ()  # hand-written files inside a generated folder

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.stale or self.foreign)


def compare(outputs: Iterable[Output]) -> Drift:
    """The drift between the plan's outputs and the files on disk."""
    changed: dict[str, str] = {}
    missing: list[str] = []
    stale: list[str] = []
    foreign: list[str] = []
    for output in outputs:
        target = output.target
        on_disk = output.current()
        ours = target.ownership.generated(on_disk)
        for rel, text in sorted(output.files.items()):
            shown = target.show(rel)
            current = on_disk.get(rel)
            if current is None:
                missing.append(shown)
            elif current != text and records_only(current, text):
                changed[shown] = ""
            elif current != text:  # shown with their record digests masked: the change itself
                diff = difflib.unified_diff(
                    _masked(current).splitlines(keepends=True),
                    _masked(text).splitlines(keepends=True),
                    fromfile=f"{shown} (on disk)",
                    tofile=f"{shown} (from schemas)",
                )
                changed[shown] = "".join(diff)
        for rel in sorted(set(on_disk) - set(output.files)):
            (stale if rel in ours else foreign).append(target.show(rel))
    return Drift(changed, tuple(missing), tuple(stale), tuple(foreign))


def verify(config: Config, disk: Disk | None = None) -> int | None:
    """The number of generated files when every target is what generation would write, by the
    records alone; None when something differs (or cannot be told without generating)."""
    disk = disk or Disk()
    inputs = tree_inputs(config, disk.schemas(config))
    count = 0
    for target in targets_of(config):
        on_disk = disk.files(target)
        if not _verified(target, on_disk, inputs):
            return None
        count += len(on_disk)
    return count


def _verified(target: Target, on_disk: Mapping[PurePosixPath, str], inputs: str) -> bool:
    if target.manifest is None:  # one file (the catalog), which records the generation itself
        if len(on_disk) != 1:
            return False
        ((rel, text),) = on_disk.items()
        record = header_record(text)
        return (
            record is not None
            and record.inputs == inputs
            and body_digest(text, own=True) == record.body
        )
    manifest = read_manifest(on_disk.get(target.manifest, ""))
    if manifest is None or not manifest.intact or manifest.inputs != inputs:
        return False
    if {rel.as_posix() for rel in on_disk} != manifest.files:  # missing, stale, hand-written
        return False
    for rel, text in on_disk.items():
        if rel == target.manifest:
            continue
        record = manifest.records.get(rel.as_posix())
        own = carries_record(text)
        if record is None or body_digest(text, own=own) != record.body:
            return False
        if own and header_record(text) != record:
            return False
    return True
