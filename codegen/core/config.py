"""Read the ``[tool.maverick-codegen]`` table of a project's ``pyproject.toml``."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

from codegen.core.config_keys import check_keys
from codegen.core.config_tables import (
    TABLE,
    LintSettings,
    config_location,
    read_breaking,
    read_lint,
    read_loading,
    read_tools,
)
from codegen.core.errors import CodegenError, Location
from codegen.core.load_options import LoadOptions
from codegen.core.npm_config import SECTION as NPM_SECTION
from codegen.core.npm_config import NpmSettings, npm_settings

__all__ = ["Config", "load_config"]

# Every key of [tool.maverick-codegen] (tables included), in the README's order.
KEYS = ("schema_dir", "output_dir", "package", "default_draft", "exclude", "refs", "agents",
        "tools", "docs_file", "export_dir", "export", "lint", "breaking", "formats")  # fmt: skip


@dataclass(frozen=True)
class Config:
    """Where the schemas are, where generated files go, which agent and tool returns what.

    ``docs_file`` (the Markdown catalog) and ``export_dir`` (the export for consumers that
    are not Python) are optional: ``None`` when the project does not want them.
    """

    root: Path
    schema_dir: Path
    output_dir: Path
    package: str
    agents: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    docs_file: Path | None = None
    export_dir: Path | None = None
    path: Path = Path("pyproject.toml")
    lint: LintSettings = field(default_factory=LintSettings)
    breaking_use: tuple[str, ...] | None = None
    # MCP tool name -> the contract it returns, and (optional) the contract of its arguments.
    tools: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    tool_inputs: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # [tool.maverick-codegen.export]: the npm package (export --npm, and npm_dir when set).
    npm: NpmSettings | None = None
    # default_draft and [tool.maverick-codegen.refs]: how the schema files are read.
    loading: LoadOptions = field(default_factory=LoadOptions)

    def display(self, path: Path) -> str:
        """``path`` relative to the project root, in POSIX form, for headers and messages."""
        return path.resolve().relative_to(self._resolved_root).as_posix()

    @cached_property
    def _resolved_root(self) -> Path:
        return self.root.resolve()

    @cached_property
    def shown_schema_dir(self) -> str:
        """The schema folder as :meth:`display` shows it (asked for once per contract)."""
        return self.display(self.schema_dir)


def _inside(root: Path, path: Path, what: str, where: Location) -> Path:
    if not path.resolve().is_relative_to(root.resolve()):
        raise CodegenError(f"{what} {path} is outside the project {root}", where, "PATH_INSIDE")
    return path


def _within(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _optional_paths(
    root: Path, table: dict[str, object], schema_dir: Path, output_dir: Path, where: Location
) -> tuple[Path | None, Path | None]:
    """``docs_file`` and ``export_dir``: inside the project and apart from the other folders."""
    found: dict[str, Path | None] = {}
    for key in ("docs_file", "export_dir"):
        value = table.get(key)
        if value is not None and (not isinstance(value, str) or not value):
            raise CodegenError(f"[tool.maverick-codegen] {key} must be a path", where, "CONFIG")
        found[key] = None if value is None else _inside(root, root / value, key, where)
    docs_file, export_dir = found["docs_file"], found["export_dir"]
    if docs_file is not None:
        if docs_file.suffix != ".md" or any(c in docs_file.name for c in "*?["):
            raise CodegenError("docs_file must name a Markdown (.md) file", where, "CONFIG")
        for folder, name in ((schema_dir, "schema_dir"), (output_dir, "output_dir")):
            if _within(docs_file, folder):
                raise CodegenError(f"docs_file must not be inside {name}", where, "CONFIG")
    if export_dir is not None:
        if export_dir.resolve() == root.resolve():
            raise CodegenError("export_dir must be a folder below the project", where, "CONFIG")
        for folder, name in ((schema_dir, "schema_dir"), (output_dir, "output_dir")):
            if _within(export_dir, folder) or _within(folder, export_dir):
                raise CodegenError(
                    f"export_dir and {name} must not be inside one another", where, "CONFIG"
                )
        if docs_file is not None and _within(docs_file, export_dir):
            raise CodegenError("docs_file must not be inside export_dir", where, "CONFIG")
    return docs_file, export_dir


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
    check_keys(f"[{TABLE}]", table, KEYS, lambda key: config_location(path, TABLE, key))
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
    tools, tool_inputs = read_tools(table, lambda key: config_location(path, f"{TABLE}.tools", key))
    docs_file, export_dir = _optional_paths(root, table, schema_dir, output_dir, where)
    taken = {"schema_dir": schema_dir, "output_dir": output_dir, "export_dir": export_dir,
             "docs_file": docs_file}  # fmt: skip
    npm = npm_settings(
        path, root, table.get("export"), taken, lambda k: config_location(path, NPM_SECTION, k)
    )
    return Config(
        root,
        schema_dir,
        output_dir,
        package,
        MappingProxyType(dict(agents)),
        docs_file=docs_file,
        export_dir=export_dir,
        path=path,
        lint=read_lint(path, root, schema_dir, table.get("lint")),
        breaking_use=read_breaking(path, table.get("breaking")),
        tools=MappingProxyType(tools),
        tool_inputs=MappingProxyType(tool_inputs),
        npm=npm,
        loading=read_loading(path, root, table, schema_dir),
    )
