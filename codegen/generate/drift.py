"""Compare the generated files on disk with what generation would write.

Two ways, the first one first:

* :func:`verify` reads records only, and generates nothing: the inputs of the generation
  (every schema file, the configuration, every file of the generator, the pinned tools'
  versions) must be those each target's manifest records, and every file must be listed there
  with a body that still matches its record (:mod:`codegen.generate.records`). A fresh clone
  is checked this way, with no cache anywhere.
* :func:`compare` diffs a plan with the files on disk: changed, missing and stale generated
  files, and hand-written ones in a generated folder. It never disagrees with ``generate``,
  and shows what drifted.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from codegen.core.config import Config
from codegen.core.inputs import tree_inputs
from codegen.generate.records import body_digest, carries_record, header_record, read_manifest
from codegen.generate.targets import Disk, Output, Target, targets_of

__all__ = ["Drift", "compare", "verify"]


@dataclass(frozen=True)
class Drift:
    """Differences between what ``generate`` would write and what is on disk.

    Paths are as shown to the user (relative to the project root for configured targets).
    """

    changed: Mapping[str, str] = field(default_factory=dict)  # path -> unified diff
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
            elif current != text:
                diff = difflib.unified_diff(
                    current.splitlines(keepends=True),
                    text.splitlines(keepends=True),
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
    inputs = tree_inputs(config, disk.schemas(config.schema_dir))
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
