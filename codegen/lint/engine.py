"""The machinery of ``maverick-codegen lint``: permissive reading, shared views, collection.

The rules are rows of a table (:data:`codegen.lint.table.LINT_RULES`): a stable id, a category,
a purpose and a small function from a :class:`LintContext` to findings. Lint reads the tree as
every job does (:func:`codegen.core.loader.load_tree`: each file by its draft, every reference
resolved, the internal form), but permissively: only unreadable files are errors (exit 2); every
problem the loader would raise is kept (:attr:`LintContext.problems`) and reported by its rule,
all of them, and the tree is read on without what each concerns.

The generator's own checks (:mod:`codegen.generate.models.checks.support`,
:mod:`codegen.generate.rules`) raise at their first problem. :func:`collect` reuses them unchanged:
after each error it neutralizes the node the error points at in a private copy of the document and
runs the check again, so one run reports every problem with its position in the original text.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema
from referencing import Registry
from referencing.exceptions import Unresolvable

from codegen.core.ecma import tree_registry, validator_at
from codegen.core.errors import Location, SchemaError
from codegen.core.jsonpos import escape_pointer, pointer_tokens, resolve_pointer
from codegen.core.loader import (
    SCHEMA_LIST,
    SCHEMA_MAP,
    SCHEMA_ONE,
    LoadOptions,
    SchemaFile,
    SchemaTree,
    load_tree,
)
from codegen.core.report import Finding
from codegen.core.resolve import Problem
from codegen.generate.consumers.bundle import structured_output_schema

__all__ = [
    "HOUSE",
    "PROBLEM_RULES",
    "LintContext",
    "LintRule",
    "collect",
    "iter_schema_nodes",
    "read_tree",
]

# Positions below which a schema is a rule (a constraint), not the definition of a value.
RULE_KEYS = frozenset({"if", "then", "else", "not", "dependentSchemas"})


HOUSE = "HOUSE"  # the category of this repository's conventions, off unless selected


@dataclass(frozen=True)
class LintRule:
    """One lint rule: its stable id, category, purpose and check; ``house``: one of this
    repository's conventions (category ``HOUSE`` too), which a project turns on explicitly."""

    id: str
    category: str
    purpose: str
    check: Callable[[LintContext], Iterator[Finding]]
    house: bool = False

    @property
    def categories(self) -> tuple[str, ...]:
        return (self.category, HOUSE) if self.house else (self.category,)


def iter_schema_nodes(
    node: Any, pointer: str = "", *, in_rule: bool = False
) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """Every schema object below ``node``, keyword-aware: ``(pointer, node, inside a rule)``.

    As :func:`codegen.core.loader.iter_subschemas`, property names are never taken for
    keywords; ``allOf`` entries without a ``$ref`` and ``if``/``then``/``else``/``not``/
    ``dependentSchemas`` are rule positions.
    """
    if not isinstance(node, dict):
        return
    yield pointer, node, in_rule
    for key, value in node.items():
        here = f"{pointer}/{escape_pointer(key)}"
        inner = in_rule or key in RULE_KEYS
        if key in SCHEMA_ONE:
            yield from iter_schema_nodes(value, here, in_rule=inner)
        elif key in SCHEMA_MAP and isinstance(value, dict):
            for name, sub in value.items():
                yield from iter_schema_nodes(sub, f"{here}/{escape_pointer(name)}", in_rule=inner)
        elif key in SCHEMA_LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                rule = inner or (key == "allOf" and not (isinstance(sub, dict) and "$ref" in sub))
                yield from iter_schema_nodes(sub, f"{here}/{index}", in_rule=rule)


class _Repair:
    """A private copy of a document in which nodes are removed one at a time."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = copy.deepcopy(data)
        self._removed: list[tuple[str, int]] = []  # (list pointer, index), oldest first

    def original(self, pointer: str) -> str:
        """``pointer`` (in the repaired copy) as a pointer into the original document."""
        for list_pointer, index in reversed(self._removed):
            prefix = list_pointer + "/"
            if pointer.startswith(prefix):
                head, _, rest = pointer[len(prefix) :].partition("/")
                if head.isdigit() and int(head) >= index:
                    pointer = f"{prefix}{int(head) + 1}" + (f"/{rest}" if rest else "")
        return pointer

    def neutralize(self, pointer: str) -> bool:
        """Remove the node at ``pointer``; False when there is nothing (left) to remove."""
        if not pointer:
            return False
        parent_pointer, _, token = pointer.rpartition("/")
        try:
            parent = resolve_pointer(self.data, parent_pointer)
        except LookupError:
            return False
        key = pointer_tokens("/" + token)[0]
        if isinstance(parent, dict) and key in parent:
            del parent[key]
            return True
        if isinstance(parent, list) and key.isdigit() and int(key) < len(parent):
            target = parent[int(key)]
            if isinstance(target, dict) and "$ref" in target and set(target) != {"$ref"}:
                parent[int(key)] = {"$ref": target["$ref"]}  # keep a base entry, drop extras
            else:
                del parent[int(key)]
                self._removed.append((parent_pointer, int(key)))
            return True
        return False


def collect(
    schema: SchemaFile, check: Callable[[SchemaFile], object], limit: int = 500
) -> tuple[list[SchemaError], SchemaFile]:
    """Every :class:`SchemaError` that ``check`` raises on ``schema``, and the repaired file.

    Errors carry locations in the original text. The repaired file holds the original text
    and positions, and a document from which every node an error pointed at was removed.
    """
    repair = _Repair(schema.data)
    errors: list[SchemaError] = []
    current = schema
    for _ in range(limit):
        try:
            check(current)
        except SchemaError as exc:
            pointer = exc.location.pointer if exc.location else ""
            where = schema.loc(repair.original(pointer))
            errors.append(SchemaError(exc.message, where, exc.rule))
            if not repair.neutralize(pointer):
                break
            current = dataclasses.replace(schema, data=repair.data)
        else:
            break
    return errors, current


def read_tree(root: Path, options: LoadOptions | None = None) -> tuple[SchemaTree, list[Problem]]:
    """Every ``*.json`` file below ``root``, read as every job reads it, and every problem the
    loader would raise (permissive: :func:`codegen.core.loader.load_tree` with ``problems``).

    Raises :class:`SchemaError` (exit 2) for a missing folder, no files, or a file that is not
    a readable JSON object: lint reports everything else as findings.
    """
    problems: list[Problem] = []
    tree = load_tree(root, options=options, problems=problems)
    return tree, problems


# The lint rule that reports each kind of problem the loader raises (Problem.rule).
PROBLEM_RULES = {
    "NO_REMOTE_REF": "NO_REMOTE_REF",
    "REF_INSIDE_TREE": "REF_INSIDE_TREE",
    "REF_RESOLVES": "REF_RESOLVES",
    "REF": "REF_RESOLVES",  # a reference that is not a string, a $recursiveRef not "#"
    "ID_MIRRORS_PATH": "REF_RESOLVES",  # a relative $ref that the file's $id leads nowhere
    "DRAFT": "DRAFT_KNOWN",  # an unknown $schema, an embedded resource of another draft
    "JSON": "METASCHEMA_VALID",  # a value its draft cannot read as a schema
}


@dataclass
class LintContext:
    """What the rules read: the loaded tree, the loader's problems, the agents, shared views."""

    tree: SchemaTree
    agents: Mapping[str, str]
    config_path: Path | None = None
    display_root: str | None = None
    problems: tuple[Problem, ...] = ()

    def shown(self, schema: SchemaFile) -> str:
        """The path of ``schema`` as findings show it."""
        if schema.external:  # a document a URL mapping leads to: from the project's root
            root = self.tree.root.resolve()
            for _ in filter(None, (self.display_root or "").split("/")):
                root = root.parent  # the schema folder is display_root below the project's root
            path = schema.path.resolve()
            if self.display_root is not None and path.is_relative_to(root):
                return path.relative_to(root).as_posix()
            return str(schema.path)
        if self.display_root is None:
            return str(schema.path)
        return f"{self.display_root}/{schema.rel}" if self.display_root else str(schema.rel)

    def finding(self, schema: SchemaFile, pointer: str, rule: str, message: str) -> Finding:
        """A finding at internal ``pointer`` of ``schema``, placed in the file as written."""
        return Finding.at(schema.loc(pointer), rule, message, path=self.shown(schema))

    def finding_in_file(self, schema: SchemaFile, pointer: str, rule: str, message: str) -> Finding:
        """A finding at ``pointer`` of the file as written."""
        return Finding.at(schema.loc_in_file(pointer), rule, message, path=self.shown(schema))

    def error_finding(self, schema: SchemaFile, error: SchemaError, rule: str) -> Finding:
        """A finding of lint rule ``rule`` from an error of one of the generator's checks."""
        where = error.location or schema.loc()
        return Finding.at(where, rule, error.message, path=self.shown(schema))

    def problem_findings(self, rule: str) -> Iterator[tuple[Problem, Finding]]:
        """The loader's problems that lint rule ``rule`` reports, as findings."""
        for problem in self.problems:
            if PROBLEM_RULES.get(problem.rule, "REF_RESOLVES") != rule:
                continue
            schema = self.tree.by_rel.get(problem.rel)
            if schema is None:  # a document that could not be read at all
                where = Location(self.tree.root / problem.rel, pointer=problem.pointer)
                yield problem, Finding.at(where, rule, problem.message)
            else:
                yield problem, self.finding_in_file(schema, problem.pointer, rule, problem.message)

    @cached_property
    def agent_files(self) -> tuple[SchemaFile, ...]:
        """The agent contracts and every file they reference (what the Claude CLI sees)."""
        by_title = self.tree.by_title
        seen: dict[PurePosixPath, SchemaFile] = {}
        for title in self.agents.values():
            if title in by_title:
                for schema in self.tree.closure(by_title[title]):
                    seen[schema.rel] = schema
        return tuple(seen[rel] for rel in sorted(seen))

    @cached_property
    def bundles(self) -> Mapping[str, dict[str, Any] | SchemaError]:
        """Each agent contract's ``output_format`` schema, or why it cannot be built."""
        result: dict[str, dict[str, Any] | SchemaError] = {}
        for title in sorted(set(self.agents.values()) & set(self.tree.by_title)):
            try:
                result[title] = structured_output_schema(self.tree, self.tree.by_title[title])
            except SchemaError as exc:
                result[title] = exc
        return result

    @cached_property
    def registry(self) -> Registry[Any]:
        """Every document as written, by its URI (:func:`codegen.core.ecma.tree_registry`)."""
        return tree_registry(self.tree)

    def invalid(self, schema: SchemaFile, pointer: str, instance: Any) -> list[str]:
        """Why ``instance`` is invalid under the subschema at internal ``pointer`` of ``schema``,
        judged by the file's own draft, as written (empty when valid): ``does not validate:
        ...`` for each error, or ``could not be checked ...``."""
        try:
            validator = validator_at(self.registry, schema, pointer)
            errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
        except Exception as exc:  # a malformed schema, a reference to nothing: other rules say why
            return [_unchecked(exc)]
        return [f"does not validate: {_error_text(e)}" for e in errors]

    def agent_location(self, agent: str) -> Location:
        """Where ``agent`` is declared in the configuration file (its line, when found)."""
        if self.config_path is None:
            return Location(Path("pyproject.toml"))
        try:
            lines = self.config_path.read_text(encoding="utf-8").splitlines()
        except OSError:
            return Location(self.config_path)
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped.startswith((f"{agent} ", f"{agent}=", f'"{agent}"')):
                return Location(self.config_path, number, line.index(stripped[0]) + 1)
        return Location(self.config_path)


def _unchecked(exc: Exception) -> str:
    cause = exc if isinstance(exc, Unresolvable) else exc.__cause__
    if isinstance(cause, Unresolvable):
        return (
            f"could not be checked: a reference it reaches ({cause.ref}) resolves to nothing "
            "(REF_RESOLVES or NO_REMOTE_REF says why)"
        )
    text = f"{type(exc).__name__}: {exc}"
    return "could not be checked (" + (text if len(text) <= 160 else text[:157] + "...") + ")"


def _error_text(error: jsonschema.ValidationError) -> str:
    where = "/" + "/".join(escape_pointer(p) for p in error.absolute_path)
    message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
    return f"at {where}: {message}" if error.absolute_path else message
