"""Read the ``[tool.maverick-codegen]`` table of a project's ``pyproject.toml``."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from codegen.errors import CodegenError, Location

__all__ = ["Config", "load_config"]


@dataclass(frozen=True)
class Config:
    """Where the schemas are, where generated code goes, and which agent returns what."""

    root: Path
    schema_dir: Path
    output_dir: Path
    package: str
    agents: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def display(self, path: Path) -> str:
        """``path`` relative to the project root, in POSIX form, for headers and messages."""
        return path.resolve().relative_to(self.root.resolve()).as_posix()


def _inside(root: Path, path: Path, what: str, where: Location) -> Path:
    if not path.resolve().is_relative_to(root.resolve()):
        raise CodegenError(f"{what} {path} is outside the project {root}", where, "PATH_INSIDE")
    return path


def load_config(path: Path) -> Config:
    """Load the configuration; paths in it are relative to the file's folder."""
    where = Location(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CodegenError(f"configuration file {path} not found", where, "CONFIG") from None
    except tomllib.TOMLDecodeError as exc:
        raise CodegenError(f"malformed TOML: {exc}", where, "CONFIG") from exc
    table = data.get("tool", {}).get("maverick-codegen")
    if not isinstance(table, dict):
        raise CodegenError("no [tool.maverick-codegen] table", where, "CONFIG")
    root = path.parent
    try:
        schema_dir = _inside(root, root / table["schema_dir"], "schema_dir", where)
        output_dir = _inside(root, root / table["output_dir"], "output_dir", where)
        package = str(table["package"])
    except KeyError as exc:
        raise CodegenError(
            f"[tool.maverick-codegen] needs {exc.args[0]}", where, "CONFIG"
        ) from None
    if output_dir.resolve().is_relative_to(schema_dir.resolve()):
        raise CodegenError("output_dir must not be inside schema_dir", where, "CONFIG")
    agents = table.get("agents", {})
    if not isinstance(agents, dict) or not all(isinstance(v, str) for v in agents.values()):
        raise CodegenError("[tool.maverick-codegen.agents] maps names to titles", where, "CONFIG")
    return Config(root, schema_dir, output_dir, package, MappingProxyType(dict(agents)))
