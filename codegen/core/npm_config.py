"""Read ``[tool.maverick-codegen.export]``: the npm package made from the export.

```toml
[tool.maverick-codegen.export]
name = "maverick-contracts"   # the npm package name (required)
version = "1.2.0"             # its version, MAJOR.MINOR.PATCH (required)
npm_dir = "npm"               # optional: `generate` writes the package there, `check` guards it
description = "..."           # optional, for package.json
license = "MIT"               # optional, for package.json
ajv_strict = true             # optional: validate compiles with Ajv's strict mode (false)
```

``ajv_strict`` turns on Ajv's strict mode in the package's ``validate``: its style checks
(``strictTypes``, ``strictTuples``, ``strictRequired``, unknown keywords) refuse to compile
some valid schemas (``properties`` without ``type: object``...), so it is off unless a project
whose schemas keep them asks for it. It never changes a verdict.

``export --npm DIR`` writes the package anywhere; ``npm_dir`` makes it a generated folder of
the project like ``export_dir``: inside the project, apart from the other generated folders.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from codegen.core.config_keys import check_keys
from codegen.core.errors import CodegenError, Location

__all__ = ["Locate", "NpmSettings", "npm_settings", "parse_version"]

SECTION = "tool.maverick-codegen.export"
_KEYS = ("name", "version", "npm_dir", "description", "license", "ajv_strict")
# npm's rules for a new package name: lower case, URL-safe, at most 214 characters, optionally
# in a scope; not starting with a dot or an underscore.
_NAME = re.compile(r"(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*\Z")
Locate = Callable[[str], Location]
_VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\Z")


@dataclass(frozen=True)
class NpmSettings:
    """The package's name and version, and where ``generate`` writes it (if anywhere)."""

    name: str
    version: str
    npm_dir: Path | None = None
    description: str | None = None
    license: str | None = None
    ajv_strict: bool = False


def parse_version(text: str) -> tuple[int, int, int] | None:
    """``MAJOR.MINOR.PATCH`` as numbers; None for anything else (pre-releases included)."""
    match = _VERSION.match(text)
    return None if match is None else (int(match[1]), int(match[2]), int(match[3]))


def _string(where: Locate, table: dict[str, object], key: str) -> str | None:
    value = table.get(key)
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise CodegenError(f"[{SECTION}] {key} must be a non-empty string", where(key), "CONFIG")
    return value


def npm_settings(
    path: Path, root: Path, table: object, taken: dict[str, Path | None], where: Locate
) -> NpmSettings | None:
    """The table, checked. ``taken`` names the project's other folders and files, which
    ``npm_dir`` must stay apart from; ``where`` tells where a key of the table is written."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise CodegenError(f"[{SECTION}] must be a table", Location(path), "CONFIG")
    check_keys(f"[{SECTION}]", table, _KEYS, where)
    name, version = _string(where, table, "name"), _string(where, table, "version")
    if name is None or version is None:
        missing = "name" if name is None else "version"
        raise CodegenError(f"[{SECTION}] needs {missing}", where(missing), "CONFIG")
    if len(name) > 214 or not _NAME.match(name):
        raise CodegenError(
            f"[{SECTION}] name {name!r} is not an npm package name (lower case, digits and "
            "-._~, optionally @scope/, at most 214 characters)",
            where("name"),
            "CONFIG",
        )
    if parse_version(version) is None:
        raise CodegenError(
            f"[{SECTION}] version {version!r} must be MAJOR.MINOR.PATCH (e.g. 1.4.0)",
            where("version"),
            "CONFIG",
        )
    folder = _string(where, table, "npm_dir")
    strict = table.get("ajv_strict", False)
    if not isinstance(strict, bool):
        raise CodegenError(f"[{SECTION}] ajv_strict must be true or false", where("ajv_strict"),
                           "CONFIG")  # fmt: skip
    return NpmSettings(
        name,
        version,
        None if folder is None else _npm_dir(root, folder, taken, where("npm_dir")),
        _string(where, table, "description"),
        _string(where, table, "license"),
        strict,
    )


def _npm_dir(root: Path, value: str, taken: dict[str, Path | None], where: Location) -> Path:
    folder = root / value
    resolved = folder.resolve()
    if not resolved.is_relative_to(root.resolve()) or resolved == root.resolve():
        raise CodegenError(f"npm_dir {value} must be a folder below the project", where, "CONFIG")
    for key, other in taken.items():
        if other is None:
            continue
        mine, theirs = resolved, other.resolve()
        if mine.is_relative_to(theirs) or theirs.is_relative_to(mine):
            raise CodegenError(f"npm_dir and {key} must not be inside one another", where, "CONFIG")
    return folder
