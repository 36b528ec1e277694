"""The tables of ``[tool.maverick-codegen]`` past its paths, and where a key is written.

``[...lint]`` (:class:`LintSettings`), ``[...breaking]``, ``default_draft`` with ``exclude``,
``formats`` and ``[...refs]`` (how the schema files are read) and ``[...tools]``, each checked
for shape with an error at the key that is wrong (:func:`config_location`);
:func:`~codegen.core.config.load_config` reads the table and calls these.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from codegen.core.config_keys import check_keys
from codegen.core.drafts import DEFAULT_DRAFT, by_name, names
from codegen.core.errors import CodegenError, Location
from codegen.core.exclude import GLOB_CHARS, Exclude, pattern_of
from codegen.core.load_options import LoadOptions

__all__ = [
    "TABLE",
    "LintSettings",
    "config_location",
    "read_breaking",
    "read_lint",
    "read_loading",
    "read_tools",
]

TABLE = "tool.maverick-codegen"


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


def read_lint(path: Path, root: Path, schema_dir: Path, table: object) -> LintSettings:
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


def read_breaking(path: Path, table: object) -> tuple[str, ...] | None:
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


def read_loading(path: Path, root: Path, table: dict[str, object], schema_dir: Path) -> LoadOptions:
    """``default_draft``, ``exclude``, ``formats`` and ``[tool.maverick-codegen.refs]`` (URL
    prefix -> local folder)."""
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
    formats = _formats(path, table)
    return LoadOptions(draft, tuple(mappings), exclude=exclude, asserts_formats=formats)


FORMATS = ("annotate", "assert")


def _formats(path: Path, table: dict[str, object]) -> bool:
    """``formats``: ``"annotate"`` (the default: ``format`` is an annotation, as the
    specification says) or ``"assert"`` (a string not of its format is invalid)."""
    value = table.get("formats", "annotate")
    if value not in FORMATS:
        raise CodegenError(
            f"[{TABLE}] formats must be one of {', '.join(repr(v) for v in FORMATS)} in "
            f"{path.name}, not {value!r}",
            config_location(path, TABLE, "formats"),
            "CONFIG",
        )
    return value == "assert"


def _same(where: Location, _: str) -> Location:
    return where


def read_tools(
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
