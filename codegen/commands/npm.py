"""``export --npm DIR``: the npm package, at a version the changes since the last release allow.

The package is the plan's (:mod:`codegen.generate.consumers.npm`), the same bytes ``generate``
writes to ``npm_dir``; before anything is generated, the configured version is judged against the
last release (:mod:`codegen.breaking.release`), and a version that understates the changes is
refused (exit 2).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codegen.core.config import Config
from codegen.core.config_tables import config_location
from codegen.core.errors import CodegenError, Location
from codegen.core.npm_config import SECTION

if TYPE_CHECKING:
    from codegen.breaking.release import VersionCheck
    from codegen.generate.files.targets import Target

__all__ = ["NpmExport", "npm_option", "prepare_npm"]


def npm_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--npm",
        type=Path,
        metavar="DIR",
        help="also write the npm package ([tool.maverick-codegen.export]) to DIR, refusing a "
        "version that understates the changes since the last release (git tag v<version>)",
    )


@dataclass(frozen=True)
class NpmExport:
    """Where the package goes, and how its version was judged."""

    target: Target
    version: VersionCheck


def prepare_npm(folder: Path, config: Config, export_folder: Path | None = None) -> NpmExport:
    """Check the folder (apart from the project's and from ``export_folder``, where the export
    is written) and the version; raises :class:`CodegenError` (exit 2)."""
    settings = config.npm
    if settings is None:
        raise CodegenError(
            f"export --npm needs a [{SECTION}] table with the package's name and version",
            Location(config.path),
            "CONFIG",
        )
    resolved = folder.resolve()
    apart = {name: getattr(config, name) for name in ("schema_dir", "output_dir", "export_dir")}
    apart.update({"docs_file": config.docs_file, "the export folder": export_folder})
    for name, other in apart.items():
        if other is None:
            continue
        if resolved.is_relative_to(other.resolve()) or other.resolve().is_relative_to(resolved):
            raise CodegenError(
                f"npm folder {folder} and {name} must not be inside one another", rule="CONFIG"
            )
    # The breaking-change engine and the targets are imported only when a package is exported
    # (the CLI imports this module for every command, before generate starts its worker).
    from codegen.breaking.release import check_version  # noqa: PLC0415
    from codegen.generate.files.targets import npm_target  # noqa: PLC0415

    try:
        judged = check_version(
            config.root,
            config.schema_dir,
            config.display(config.schema_dir),
            settings.version,
            config_location(config.path, SECTION, "version"),
            options=config.loading,
        )
    except CodegenError as exc:
        if exc.rule != "GIT":
            raise
        raise CodegenError(
            f"export --npm reads the last release from the git tags v<version>: {exc.message}",
            exc.location,
            exc.rule,
        ) from exc
    return NpmExport(npm_target(folder, folder.as_posix()), judged)
