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
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path, PurePosixPath

from codegen import __version__
from codegen.config import Config
from codegen.plan import is_generated
from codegen.writer import generated_on_disk

__all__ = ["Drift", "compare", "fast_check_key", "outputs_digest"]

CACHE_FILE = Path(".codegen-cache") / "check.json"


@dataclass(frozen=True)
class Drift:
    """Differences between what ``generate`` would write and what is on disk."""

    changed: Mapping[PurePosixPath, str] = field(default_factory=dict)  # path -> unified diff
    missing: tuple[PurePosixPath, ...] = ()
    stale: tuple[PurePosixPath, ...] = ()
    foreign: tuple[PurePosixPath, ...] = ()  # hand-written files inside the generated folder

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.stale or self.foreign)


def compare(output_dir: Path, files: Mapping[PurePosixPath, str], display: str) -> Drift:
    """The drift between ``files`` (the plan) and ``output_dir``; ``display`` prefixes paths."""
    on_disk = generated_on_disk(output_dir)
    changed = {}
    for rel, text in sorted(files.items()):
        current = on_disk.get(rel)
        if current is not None and current != text:
            diff = difflib.unified_diff(
                current.splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile=f"{display}/{rel} (on disk)",
                tofile=f"{display}/{rel} (from schemas)",
            )
            changed[rel] = "".join(diff)
    return Drift(
        changed=changed,
        missing=tuple(sorted(rel for rel in files if rel not in on_disk)),
        stale=tuple(
            sorted(rel for rel, t in on_disk.items() if rel not in files and is_generated(t))
        ),
        foreign=tuple(
            sorted(rel for rel, t in on_disk.items() if rel not in files and not is_generated(t))
        ),
    )


def fast_check_key(config: Config) -> str:
    """A hash of every input of generation: schemas, configuration, generator, tool versions."""
    sha = hashlib.sha256()
    sha.update(f"{__version__}|{version('datamodel-code-generator')}|{version('ruff')}".encode())
    sha.update(repr((sorted(config.agents.items()), config.package)).encode())
    generator = Path(__file__).parent
    sources = [*sorted(generator.glob("*.py")), *sorted(generator.glob("templates/*"))]
    for root, paths in (
        (generator, sources),
        (config.schema_dir, sorted(config.schema_dir.rglob("*.json"))),
    ):
        for path in paths:
            sha.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0")
            sha.update(path.read_bytes())
    return sha.hexdigest()


def outputs_digest(output_dir: Path) -> str:
    """A hash of every file below the generated folder, generated or not."""
    sha = hashlib.sha256()
    for rel, text in sorted(generated_on_disk(output_dir).items()):
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
