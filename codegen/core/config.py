"""Read the ``[tool.maverick-codegen]`` table of a project's ``pyproject.toml``."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from types import MappingProxyType
from urllib.parse import urlsplit

from codegen.core.config_keys import check_keys
from codegen.core.drafts import DEFAULT_DRAFT, by_name, names
from codegen.core.errors import CodegenError, Location
from codegen.core.exclude import GLOB_CHARS, Exclude, pattern_of
from codegen.core.npm_config import SECTION as NPM_SECTION
from codegen.core.npm_config import NpmSettings, npm_settings
from codegen.core.resolve import LoadOptions

__all__ = ["Config", "LintSettings", "config_location", "load_config"]

TABLE = "tool.maverick-codegen"
# Every key of [tool.maverick-codegen] (tables included), in the README's order.
KEYS = ("schema_dir", "output_dir", "package", "default_draft", "exclude", "refs", "agents",
        "tools", "docs_file", "export_dir", "export", "lint", "breaking")  # fmt: skip


@dataclass(frozen=True)
class LintSettings:
    """``[tool.maverick-codegen.lint]``, checked for shape, with buf's meaning.

    ``use`` (rule ids and categories; ``None``: every rule) less ``except``; no rule reports
    anything below a path of ``ignore``, nor a rule of ``ignore_only`` below its path. Paths
    are POSIX paths relative to the project root, inside the schema folder; the lint checks the
    rule ids and categories (the core does not know the table).
    """

    use: tuple[str, ...] | None = None
    except_: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    ignore_only: tuple[tuple[str, tuple[str, ...]], ...] = ()


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
    lint: LintSettings = LintSettings()
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


_HEADER = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]")


def config_location(path: Path, section: str, key: str, value: str | None = None) -> Location:
    """Where ``key`` of table ``[section]`` (and in it, the string ``value``) is written.

    TOML parsers give no positions: the text is searched, and the table's header (or the
    file alone) is the answer when the key is written some other way. A key that is a table
    of its own (``[section.key]``) is found at that header.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return Location(path)
    header_at: Location | None = None
    key_at: Location | None = None
    inside = False
    key_form = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*=")
    for number, line in enumerate(lines, 1):
        header = _HEADER.match(line)
        if header:
            if key_at is not None:
                break  # the table, and the key's value, ended
            name = header.group(1).replace(" ", "").strip("[]")
            if key_at is None and name in (f"{section}.{key}", f'{section}."{key}"'):
                return Location(path, number, line.index("[") + 1)
            inside = name == section
            if inside:
                header_at = Location(path, number, line.index("[") + 1)
            continue
        if not inside:
            continue
        if key_at is None:
            if not key_form.match(line):
                continue
            key_at = Location(path, number, len(line) - len(line.lstrip()) + 1)
            if value is None:
                return key_at
        for quoted in (f'"{value}"', f"'{value}'"):
            if quoted in line:
                return Location(path, number, line.index(quoted) + 1)
    return key_at or header_at or Location(path)


def _strings(value: object, where: Location, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise CodegenError(f"{name} must be a list of rule ids and categories", where, "CONFIG")
    return tuple(value)


def _lint_settings(path: Path, root: Path, schema_dir: Path, table: object) -> LintSettings:
    section = f"{TABLE}.lint"
    if table is None:
        return LintSettings()
    if not isinstance(table, dict):
        raise CodegenError(f"[{section}] must be a table", Location(path), "CONFIG")
    check_keys(f"[{section}]", table, ("use", "except", "ignore"),
               lambda key: config_location(path, section, key))  # fmt: skip
    where = {key: config_location(path, section, key) for key in table}
    use = table.get("use")
    except_ = table.get("except", [])
    ignore: list[str] = []
    ignore_only: list[tuple[str, tuple[str, ...]]] = []

    def inside(entry: object) -> str:
        if not isinstance(entry, str) or not entry:
            raise CodegenError(
                f"[{section}] ignore holds paths, or tables of path = [rule ids]",
                where["ignore"],
                "CONFIG",
            )
        here = config_location(path, section, "ignore", entry)
        target = root / entry
        if not target.exists():
            raise CodegenError(f"[{section}] ignore: {entry} does not exist", here, "CONFIG")
        if not target.resolve().is_relative_to(schema_dir.resolve()):
            raise CodegenError(
                f"[{section}] ignore: {entry} is not inside schema_dir", here, "CONFIG"
            )
        return target.resolve().relative_to(root.resolve()).as_posix()

    entries = table.get("ignore", [])
    if not isinstance(entries, list):
        raise CodegenError(f"[{section}] ignore must be a list", where["ignore"], "CONFIG")
    for entry in entries:
        if isinstance(entry, dict):
            for name, rules in entry.items():
                here = config_location(path, section, "ignore", name)
                ignore_only.append((inside(name), _strings(rules, here, f"ignore {name!r}")))
        else:
            ignore.append(inside(entry))
    return LintSettings(
        None if use is None else _strings(use, where["use"], f"[{section}] use"),
        _strings(except_, where.get("except", Location(path)), f"[{section}] except"),
        tuple(ignore),
        tuple(ignore_only),
    )


def _breaking_use(path: Path, table: object) -> tuple[str, ...] | None:
    section = f"{TABLE}.breaking"
    if table is None:
        return None
    if not isinstance(table, dict):
        raise CodegenError(f"[{section}] must be a table", Location(path), "CONFIG")
    check_keys(f"[{section}]", table, ("use",), lambda key: config_location(path, section, key))
    use = table.get("use")
    where = config_location(path, section, "use")
    return None if use is None else _strings(use, where, f"[{section}] use")


def _exclude(path: Path, root: Path, schema_dir: Path, entries: object) -> Exclude:
    """``exclude``: paths and globs relative to the configuration file, inside ``schema_dir``
    (:mod:`codegen.core.exclude`); a path that names nothing is an error."""
    if entries is None:
        return Exclude()
    shape = (
        f"[{TABLE}] exclude must be a list of paths or globs (relative to {path.name}, inside "
        "schema_dir)"
    )
    if not isinstance(entries, list):
        raise CodegenError(shape, config_location(path, TABLE, "exclude"), "CONFIG")
    patterns = []
    for entry in entries:
        if not isinstance(entry, str) or not entry.strip() or entry.startswith("!"):
            raise CodegenError(shape, config_location(path, TABLE, "exclude"), "CONFIG")
        here = config_location(path, TABLE, "exclude", entry)
        pattern = pattern_of(root, schema_dir, entry)
        if pattern is None:
            shown = os.path.relpath(schema_dir.resolve(), root.resolve())
            raise CodegenError(
                f"[{TABLE}] exclude: {entry} is not below schema_dir ({shown}/)", here, "CONFIG"
            )
        if not GLOB_CHARS & set(entry) and not (root / entry).exists():
            raise CodegenError(
                f"[{TABLE}] exclude: {entry} does not exist (remove it from the list)",
                here,
                "CONFIG",
            )
        patterns.append(pattern)
    return Exclude(tuple(entries), tuple(patterns))


def _loading(path: Path, root: Path, table: dict[str, object], schema_dir: Path) -> LoadOptions:
    """``default_draft``, ``exclude`` and ``[tool.maverick-codegen.refs]`` (URL prefix -> local
    folder)."""
    name = table.get("default_draft", DEFAULT_DRAFT.name)
    draft = by_name(name) if isinstance(name, str) else None
    if draft is None:
        raise CodegenError(
            f"default_draft must be one of {', '.join(names())}",
            config_location(path, TABLE, "default_draft"),
            "CONFIG",
        )
    refs = table.get("refs", {})
    section = f"{TABLE}.refs"
    if not isinstance(refs, dict):
        raise CodegenError(f"[{section}] maps URL prefixes to folders", Location(path), "CONFIG")
    mappings = []
    for prefix, folder in refs.items():
        where = config_location(path, section, prefix)
        parts = urlsplit(prefix)
        if not parts.scheme or not (parts.netloc or parts.path) or parts.scheme == "file":
            raise CodegenError(
                f'[{section}] {prefix!r} is not a URL prefix (such as "https://example.com/")',
                where,
                "CONFIG",
            )
        if not isinstance(folder, str) or not (root / folder).is_dir():
            raise CodegenError(
                f"[{section}] {prefix!r} must map to a folder (relative to {path.name})",
                where,
                "CONFIG",
            )
        mappings.append((prefix, (root / folder).resolve()))
    mappings.sort(key=lambda m: len(m[0]), reverse=True)  # the longest prefix wins
    exclude = _exclude(path, root, schema_dir, table.get("exclude"))
    return LoadOptions(draft, tuple(mappings), exclude=exclude)


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
    tools, tool_inputs = _tools(table, lambda key: config_location(path, f"{TABLE}.tools", key))
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
        lint=_lint_settings(path, root, schema_dir, table.get("lint")),
        breaking_use=_breaking_use(path, table.get("breaking")),
        tools=MappingProxyType(tools),
        tool_inputs=MappingProxyType(tool_inputs),
        npm=npm,
        loading=_loading(path, root, table, schema_dir),
    )


def _same(where: Location, _: str) -> Location:
    return where


def _tools(
    table: dict[str, object], locate: Callable[[str], Location]
) -> tuple[dict[str, str], dict[str, str]]:
    """``[tool.maverick-codegen.tools]``: ``name = "Output"`` or ``name = {output, input}``."""
    section = f"{TABLE}.tools"
    value = table.get("tools", {})
    shape = (
        f"[{section}] maps tool names to a contract title, or to a table "
        '{output = "Title", input = "Title"}'
    )
    if not isinstance(value, dict):
        raise CodegenError(shape, locate(""), "CONFIG")
    outputs: dict[str, str] = {}
    inputs: dict[str, str] = {}
    for name, given in value.items():
        entry = {"output": given} if isinstance(given, str) else given
        if isinstance(entry, dict):
            check_keys(f"tool {name!r} of [{section}]", entry, ("output", "input"),
                       partial(_same, locate(name)))  # fmt: skip
        if (
            not name
            or not isinstance(entry, dict)
            or not all(isinstance(v, str) and v for v in entry.values())
            or "output" not in entry
        ):
            raise CodegenError(shape, locate(name), "CONFIG")
        outputs[name] = entry["output"]
        if "input" in entry:
            inputs[name] = entry["input"]
    return outputs, inputs
