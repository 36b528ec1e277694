"""Compare a plan with the files on disk: changed, missing and stale generated files.

``check`` regenerates in memory and diffs, so it can never disagree with ``generate``. When a
content hash of every input (schemas, configuration, generator source, tool versions) and of
every output on disk matches the one recorded by the last clean check, regeneration is
skipped; a hand edit to any generated file changes the output hash and forces the full check.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

import codegen
from codegen import __version__
from codegen.core.config import Config
from codegen.core.inputs import generator_sources
from codegen.generate.targets import Output, Target

__all__ = ["Drift", "compare", "fast_check_key", "outputs_digest"]

CACHE_FILE = Path(".codegen-cache") / "check.json"


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
        on_disk = target.on_disk()
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


def fast_check_key(config: Config, targets: Iterable[Target]) -> str:
    """A hash of every input of generation: schemas, configuration, generator, tool versions."""
    sha = hashlib.sha256()
    sha.update(f"{__version__}|{version('datamodel-code-generator')}|{version('ruff')}".encode())
    sha.update(repr((sorted(config.agents.items()), config.package, config.npm)).encode())
    sha.update(repr([(t.name, t.display, t.ownership) for t in targets]).encode())
    generator = Path(codegen.__file__).parent
    sources = sorted(generator_sources(generator))
    for root, paths in (
        (generator, sources),
        (config.schema_dir, sorted(config.schema_dir.rglob("*.json"))),
    ):
        for path in paths:
            sha.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0")
            sha.update(path.read_bytes())
    return sha.hexdigest()


def outputs_digest(targets: Iterable[Target]) -> str:
    """A hash of every file of every target on disk, generated or not."""
    sha = hashlib.sha256()
    for target in targets:
        sha.update(b"\0\0" + target.name.encode())
        for rel, text in sorted(target.on_disk().items()):
            sha.update(b"\0" + rel.as_posix().encode() + b"\0" + text.encode("utf-8"))
    return sha.hexdigest()


def read_stamp(config: Config) -> dict[str, str]:
    try:
        data = json.loads((config.root / CACHE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_stamp(config: Config, stamp: dict[str, str]) -> None:
    path = config.root / CACHE_FILE
    try:
        path.parent.mkdir(exist_ok=True)
        (path.parent / ".gitignore").write_text("*\n", encoding="utf-8")
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(stamp, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # the cache only saves time; a read-only checkout still gets a full check
