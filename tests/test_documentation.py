"""The documentation site (docs/, mkdocs.yml) against the code it documents.

``make docs`` (and ``make test``) builds the site with ``--strict``: a broken link or anchor, or
a page the navigation leaves out, fails there. These tests hold what a build cannot see:

- docs/configuration.md documents exactly the keys of ``[tool.maverick-codegen]`` and its tables
  that the configuration loader reads (recorded while it loads the page's complete example);
- docs/cli.md documents exactly the subcommands, options and choices of the argparse parsers of
  ``maverick-codegen`` and ``maverick-tools-mcp``;
- docs/lint.md and docs/evolving.md list exactly the rules of ``maverick-codegen rules`` (the
  lint and breaking-change rule tables), with their categories;
- the README stays a front door: at most 150 lines, every relative link resolving.

Each failure names the page, the section and the key, option or rule to add or remove.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from codegen import cli
from codegen.breaking.table import BREAKING_RULES
from codegen.core.config import load_config
from codegen.lint.table import LINT_RULES
from maverick.tools import mcp_server
from tests.conftest import REPO

DOCS = REPO / "docs"
README = REPO / "README.md"
README_LIMIT = 150
TABLE = "tool.maverick-codegen"


# --- reading the pages ---------------------------------------------------------------------


@dataclass
class Section:
    """A level-2 section of a page: its heading, the body rows of its tables and its fences."""

    heading: str
    rows: list[list[str]] = field(default_factory=list)
    fences: list[tuple[str, str]] = field(default_factory=list)  # (info, content)


def sections(page: Path) -> list[Section]:
    tokens = MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8"))
    found = [Section("")]
    row: list[str] | None = None
    in_body = False
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            found.append(Section(tokens[index + 1].content))
        elif token.type == "tbody_open":
            in_body = True
        elif token.type == "tbody_close":
            in_body = False
        elif token.type == "tr_open" and in_body:
            row = []
        elif token.type == "tr_close" and row is not None:
            found[-1].rows.append(row)
            row = None
        elif token.type == "inline" and row is not None:
            row.append(token.content)
        elif token.type == "fence":
            found[-1].fences.append((token.info.strip(), token.content))
    return found


def first_code(cell: str) -> str | None:
    """The first code span of a table cell."""
    match = re.match(r"\s*`([^`]+)`", cell)
    return None if match is None else match.group(1)


def show(page: Path) -> str:
    return page.relative_to(REPO).as_posix()


# --- configuration -------------------------------------------------------------------------


Key = tuple[str, ...]  # a key's path below [tool.maverick-codegen]; "*" for a name of the user's


class _Recorded(dict[str, Any]):
    """A TOML table that records every key asked for by name, and where the code asked."""

    def __init__(self, data: dict[str, Any], path: Key, seen: dict[Key, str]) -> None:
        super().__init__({k: _recorded(v, (*path, k), seen) for k, v in data.items()})
        self._path = path
        self._seen = seen

    def _note(self, key: object) -> None:
        if isinstance(key, str):
            caller = sys._getframe(2)
            where = Path(caller.f_code.co_filename).resolve()
            shown = where.relative_to(REPO).as_posix() if where.is_relative_to(REPO) else where
            self._seen.setdefault((*self._path, key), f"{shown}:{caller.f_lineno}")

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self._note(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._note(key)
        return super().__contains__(key)

    def pop(self, key: str, *default: Any) -> Any:  # type: ignore[override]
        self._note(key)
        return super().pop(key, *default)


def _recorded(value: Any, path: Key, seen: dict[Key, str]) -> Any:
    if isinstance(value, dict):
        return _Recorded(value, path, seen)
    if isinstance(value, list):
        return [_recorded(v, path, seen) for v in value]
    return value


def _named(path: Key, by_name: set[Key]) -> Key:
    """``path`` with each part the code did not ask for by name (a user's name) as ``*``."""
    return tuple(p if path[: i + 1] in by_name else "*" for i, p in enumerate(path))


def _example_keys(data: dict[str, Any], path: Key = ()) -> Iterator[Key]:
    for key, value in data.items():
        yield (*path, key)
        if isinstance(value, dict):
            yield from _example_keys(value, (*path, key))


def _table_and_key(key: Key) -> tuple[str, str]:
    """``[tool.maverick-codegen.tools]`` and ``<name>.output`` for ``("tools", "*", "output")``."""
    cut = key.index("*") if "*" in key else len(key) - 1
    table = ".".join((TABLE, *key[:cut]))
    return f"[{table}]", ".".join("<name>" if p == "*" else p for p in key[cut:])


@dataclass
class ConfigPage:
    page: Path
    documented: dict[Key, str]  # key -> the section that documents it
    example: str


def config_page() -> ConfigPage:
    page = DOCS / "configuration.md"
    documented: dict[Key, str] = {}
    examples = []
    for section in sections(page):
        if section.heading == "A complete example":
            examples += [text for info, text in section.fences if info == "toml"]
        table = first_code(section.heading)
        if table is None or not table.startswith(f"[{TABLE}"):
            continue
        prefix = tuple(p for p in table.strip("[]").removeprefix(TABLE).split(".") if p)
        if prefix:
            documented[prefix] = section.heading
        for row in section.rows:
            name = first_code(row[0])
            if name is not None:
                parts = tuple("*" if re.fullmatch(r"<[^>]+>", p) else p for p in name.split("."))
                documented[(*prefix, *parts)] = section.heading
    assert len(examples) == 1, (
        f"{show(page)}: one complete example (```toml under 'A complete example'), "
        f"not {len(examples)}"
    )
    return ConfigPage(page, documented, examples[0])


def _load_recording(project: Path, text: str) -> tuple[dict[Key, str], dict[str, Any]]:
    """Load ``text`` as ``project``'s pyproject.toml; every key the loader asks for, where."""
    data = tomllib.loads(text)
    table = data["tool"]["maverick-codegen"]
    for folder in table.get("refs", {}).values():
        (project / folder).mkdir(parents=True, exist_ok=True)
    for entry in table.get("lint", {}).get("ignore", []):
        for path in entry if isinstance(entry, dict) else [entry]:
            target = project / path
            if target.suffix:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("{}\n")
            else:
                target.mkdir(parents=True, exist_ok=True)
    (project / "pyproject.toml").write_text(text, encoding="utf-8")
    seen: dict[Key, str] = {}
    real = tomllib.loads

    def loads(source: str, **kwargs: Any) -> Any:
        return _recorded(real(source, **kwargs), (), seen)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tomllib, "loads", loads)
        load_config(project / "pyproject.toml")
    inside = {k[2:]: where for k, where in seen.items() if k[:2] == ("tool", "maverick-codegen")}
    return {k: w for k, w in inside.items() if k}, table


def test_the_configuration_page_documents_every_key_the_loader_reads(tmp_path: Path) -> None:
    page = config_page()
    seen, example = _load_recording(tmp_path, page.example)
    assert ("schema_dir",) in seen, "the loader was not recorded (does it still use tomllib?)"
    by_name = set(seen)
    read = {_named(key, by_name): where for key, where in seen.items()}
    given = {_named(key, by_name) for key in _example_keys(example)}
    problems = []
    for key, where in sorted(read.items()):
        if key not in page.documented:
            table, name = _table_and_key(key)
            problems.append(
                f"{show(page.page)} does not document `{name}` of {table}, which the "
                f"configuration loader reads ({where}): add a row to the section `{table}` "
                "(or a section of its own for a table)"
            )
        if key not in given:
            table, name = _table_and_key(key)
            problems.append(
                f"{show(page.page)}: the complete example (```toml) lacks `{name}` of {table}, "
                f"which the loader reads ({where})"
            )
    for key, heading in sorted(page.documented.items()):
        table, name = _table_and_key(key)
        # A row for a name of the user's (`<agent>`) documents what the code reads by
        # iterating the table, never by name: only the example holds it.
        if key[-1] != "*" and key not in read:
            problems.append(
                f"{show(page.page)}, section {heading}: `{name}` of {table} is documented, but "
                "the configuration loader never reads it (codegen/core/config.py): remove it"
            )
        if key not in given:
            problems.append(
                f"{show(page.page)}: the complete example (```toml) lacks `{name}` of {table}, "
                f"which section {heading} documents"
            )
    assert not problems, "\n".join(problems)


def test_the_complete_example_is_a_configuration_that_loads(tmp_path: Path) -> None:
    page = config_page()
    _load_recording(tmp_path, page.example)
    config = load_config(tmp_path / "pyproject.toml")
    assert config.npm is not None
    assert config.npm.ajv_strict
    assert config.tool_inputs == {"get_file": "GetFileInput"}
    assert config.lint.except_ == ("DESCRIPTION_DEF",)


def test_this_repositorys_configuration_uses_only_documented_keys() -> None:
    documented = config_page().documented
    table = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    keys = set(_example_keys(table["tool"]["maverick-codegen"]))
    for maps in ("agents", "tools", "refs"):  # names of the project's own
        keys = {(k[0], "*", *k[2:]) if k[0] == maps and len(k) > 1 else k for k in keys}
    assert keys <= set(documented), sorted(keys - set(documented))


# --- the command line ----------------------------------------------------------------------


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Each option (``--format``) and positional (its metavar, ``FILES``), help left out."""
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.option_strings:
            found.update(dict.fromkeys(action.option_strings, action))
        else:
            found[str(action.metavar or action.dest.upper())] = action
    return found


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def parsers() -> dict[str, argparse.ArgumentParser]:
    """Every command line documented on docs/cli.md, by the heading of its section."""
    main = cli._parser()
    found = {"maverick-codegen": main}
    for name, sub in _subcommands(main).items():
        found[f"maverick-codegen {name}"] = sub
    found["maverick-tools-mcp"] = mcp_server.options()
    return found


def test_the_command_line_page_documents_every_subcommand_option_and_choice() -> None:
    page = DOCS / "cli.md"
    documented: dict[str, dict[str, str]] = {}  # command -> option -> its value, as written
    for section in sections(page):
        command = first_code(section.heading)
        if command is None or not command.startswith("maverick-"):
            continue
        rows = documented.setdefault(command, {})
        for row in section.rows:
            usage = first_code(row[0])
            if usage is None:
                continue
            name, _, value = usage.partition(" ")
            for alias in name.split(","):
                rows[alias] = value
    problems = []
    code = parsers()
    for command, parser in code.items():
        if command not in documented:
            problems.append(f"{show(page)} has no section `{command}` (the parser has one)")
            continue
        rows = documented[command]
        for name, action in _options(parser).items():
            if name not in rows:
                problems.append(
                    f"{show(page)}, section `{command}`: `{name}` is an option of the parser, "
                    "but no row of the section's table documents it"
                )
                continue
            choices = sorted(str(c) for c in action.choices or ())
            given = rows[name].removeprefix("{").removesuffix("}").split(",")
            if choices and sorted(given) != choices:
                problems.append(
                    f"{show(page)}, section `{command}`: `{name}` takes {{{','.join(choices)}}}, "
                    f"its row says `{name} {rows[name]}`"
                )
        for name in sorted(set(rows) - set(_options(parser))):
            problems.append(
                f"{show(page)}, section `{command}`: `{name}` is documented, but the parser has "
                "no such option: remove its row"
            )
    for command in sorted(set(documented) - set(code)):
        problems.append(f"{show(page)}: section `{command}` names a command no parser has")
    assert not problems, "\n".join(problems)


# --- the rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "rules"),
    [("lint.md", LINT_RULES), ("evolving.md", BREAKING_RULES)],
    ids=["lint", "breaking"],
)
def test_the_rule_tables_list_every_rule_of_maverick_codegen_rules(
    page: str, rules: tuple[Any, ...]
) -> None:
    path = DOCS / page
    found = [s for s in sections(path) if s.heading == "The rules"]
    assert len(found) == 1, f"{show(path)}: one section 'The rules'"
    listed = {}
    for row in found[0].rows:
        rule = first_code(row[0])
        if rule is not None:
            listed[rule] = tuple(re.findall(r"`([A-Z_0-9]+)`", row[1]))
    problems = []
    for rule in rules:
        if rule.id not in listed:
            problems.append(
                f"{show(path)}, section 'The rules': no row for {rule.id} "
                f"({', '.join(rule.categories)}: {rule.purpose})"
            )
        elif listed[rule.id] != tuple(rule.categories):
            problems.append(
                f"{show(path)}, section 'The rules': {rule.id} is in "
                f"{', '.join(rule.categories)}, the row says {', '.join(listed[rule.id])}"
            )
    problems += [
        f"{show(path)}, section 'The rules': {rule} is no rule of `maverick-codegen rules`"
        for rule in sorted(set(listed) - {r.id for r in rules})
    ]
    order = [r.id for r in rules if r.id in listed]
    if not problems and list(listed) != order:
        problems.append(f"{show(path)}: list the rules in the order `rules` prints them: {order}")
    assert not problems, "\n".join(problems)


# --- the README ----------------------------------------------------------------------------


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.count("\n")
    assert lines <= README_LIMIT, (
        f"README.md has {lines} lines, over {README_LIMIT}: move the detail to a page of docs/"
    )
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    links = [
        str(child.attrs["href"])
        for token in tokens
        if token.type == "inline"
        for child in token.children or []
        if child.type == "link_open"
    ]
    local = [h for h in links if "://" not in h and not h.startswith(("#", "mailto:"))]
    assert local, "the README links the pages of docs/"
    missing = [h for h in local if not (REPO / h.split("#")[0]).exists()]
    assert not missing, f"README.md links files that do not exist: {missing}"
    pages = {p.relative_to(REPO).as_posix() for p in DOCS.glob("*.md")}
    assert pages <= {h.split("#")[0] for h in local}, (
        f"README.md does not point to {sorted(pages - {h.split('#')[0] for h in local})}"
    )
