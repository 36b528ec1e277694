"""analyze_deps: the dependencies a project declares, manifest by manifest.

Python: every ``requirements*.txt`` and the ``pyproject.toml`` of the folder (PEP 621
``dependencies`` and ``optional-dependencies``, Poetry dependency tables); Node: the
``package.json`` ``dependencies`` and ``devDependencies``; Terraform: the providers every
``*.tf`` file below the folder names, in ``required_providers`` and in ``provider`` blocks.

A manifest that does not parse is one line of ``issues`` (``Malformed manifest FILE: why``)
and adds nothing; the other manifests are still reported. ``issues`` also lists duplicates
and requirements without any version constraint. Manifests the secrets policy denies are
never read (``secret_files_skipped`` counts them).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from maverick.contracts import (
    DependencySummary,
    NodeDependencies,
    PythonDependencies,
    TerraformDependencies,
)
from maverick.tools.base import Budget, ToolFailure, read_file, string
from maverick.tools.workspace import PathRefused, SecretRefused, Tally, Workspace

__all__ = ["analyze_deps"]

T = TypeVar("T")
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


class Malformed(Exception):
    """A manifest that does not parse; the message says where and why."""


def analyze_deps(workspace: Workspace, budget: Budget, path: object = ".") -> dict[str, Any]:
    """The fields of the DependencyResult for one call."""
    path = string(path, "path")
    folder = workspace.resolve(path)
    if not folder.is_dir():
        raise ToolFailure(f"Path is not a directory: {path}")
    manifests = _Manifests(workspace, budget)
    requirements: list[tuple[str, str]] = []
    for file in sorted(folder.glob("requirements*.txt")):
        requirements += manifests.read(file, _requirements) or []
    pyproject = manifests.read(folder / "pyproject.toml", _pyproject) or []
    node = manifests.read(folder / "package.json", _package_json) or {}
    providers: set[str] = set()
    for rel, _ in list(workspace.walk(folder, manifests.tally, _terraform_file, budget)):
        providers.update(manifests.read(workspace.root / rel, _terraform) or ())
    issues = manifests.issues
    python_names: dict[str, list[str]] = {}
    for requirement, where in requirements + pyproject:
        _note_requirement(requirement, where, python_names, issues)
    for name, places in python_names.items():
        if len(places) > 1:
            issues.append(f"Duplicate Python requirement {name}: {', '.join(places)}")
    dependencies = node.get("dependencies", {})
    dev_dependencies = node.get("dev_dependencies", {})
    for name in sorted(set(dependencies) & set(dev_dependencies)):
        issues.append(f"Duplicate Node package {name}: dependencies and devDependencies")
    return {
        "path": str(folder),
        "python": PythonDependencies(
            requirements_txt=[r for r, _ in requirements], pyproject_toml=[r for r, _ in pyproject]
        ),
        "node": NodeDependencies(dependencies=dependencies, dev_dependencies=dev_dependencies),
        "terraform": TerraformDependencies(providers=sorted(providers)),
        "summary": DependencySummary(
            python_packages=len(python_names),
            node_packages=len(set(dependencies) | set(dev_dependencies)),
            terraform_providers=len(providers),
        ),
        "issues": issues,
        "secret_files_skipped": manifests.tally.secret_files,
    }


class _Manifests:
    """Reads manifests through the workspace; what fails goes to ``issues``, never raises."""

    def __init__(self, workspace: Workspace, budget: Budget) -> None:
        self.workspace = workspace
        self.budget = budget
        self.tally = Tally()
        self.issues: list[str] = []

    def read(self, file: Path, parse: Callable[[str, str], T]) -> T | None:
        """``parse(text, relative path)`` of the manifest ``file``; None when it is absent,
        denied or malformed (a line in ``issues`` then says which and why)."""
        if not file.is_file():
            return None
        rel = self.workspace.relative(file)
        self.budget.check()
        try:
            real = self.workspace.resolve(rel)  # a linked manifest must stay inside the root
        except SecretRefused:
            self.tally.denied.add(rel)
            return None
        except PathRefused as exc:  # a link that leaves the root, say
            self.issues.append(f"Skipped manifest {rel}: {exc}")
            return None
        data = read_file(str(real), self.budget)
        try:
            if data is None:
                raise Malformed(": cannot be read (too large, or not a regular file)")
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise Malformed(f": not UTF-8 ({exc.reason} at byte {exc.start})") from None
            return parse(text, rel)
        except Malformed as exc:
            self.issues.append(f"Malformed manifest {rel}{exc}")
            return None


def _requirements(text: str, rel: str) -> list[tuple[str, str]]:
    found = []
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):  # comments, -r/-c/--index-url options
            continue
        if not _REQUIREMENT_NAME.match(line):
            raise Malformed(f":{line_no}: not a requirement: {raw.strip()!r}")
        found.append((line, f"{Path(rel).name}:{line_no}"))
    return found


def _note_requirement(
    requirement: str, where: str, names: dict[str, list[str]], issues: list[str]
) -> None:
    found = _REQUIREMENT_NAME.match(requirement)
    assert found is not None  # checked when read
    name = re.sub(r"[-_.]+", "-", found.group(1)).lower()
    names.setdefault(name, []).append(where)
    rest = re.sub(r"^\s*\[[^\]]*\]", "", requirement[found.end() :].split(";", 1)[0])
    if not rest.strip():
        issues.append(f"Unpinned Python requirement {requirement} ({where})")


def _pyproject(text: str, rel: str) -> list[tuple[str, str]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Malformed(f": {exc}") from None
    found: list[tuple[str, str]] = []

    def strings(value: object, where: str) -> None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Malformed(f": {where} must be a list of strings")
        for item in value:
            if not _REQUIREMENT_NAME.match(item):
                raise Malformed(f": {where} holds {item!r}")
            found.append((item.strip(), f"{rel} {where}"))

    project = data.get("project", {})
    if isinstance(project, dict):
        strings(project.get("dependencies", []), "project.dependencies")
        extras = project.get("optional-dependencies", {})
        if not isinstance(extras, dict):
            raise Malformed(": project.optional-dependencies must be a table")
        for extra, items in sorted(extras.items()):
            strings(items, f"project.optional-dependencies.{extra}")
    tool = data.get("tool", {})
    poetry = tool.get("poetry", {}) if isinstance(tool, dict) else {}
    if isinstance(poetry, dict):
        for where, table in _poetry_tables(poetry):
            if not isinstance(table, dict):
                raise Malformed(f": {where} must be a table")
            for name, spec in table.items():
                if name.lower() != "python":
                    found.append((_poetry_requirement(name, spec), f"{rel} {where}"))
    return found


def _poetry_tables(poetry: dict[str, Any]) -> list[tuple[str, object]]:
    tables = [
        ("tool.poetry.dependencies", poetry.get("dependencies", {})),
        ("tool.poetry.dev-dependencies", poetry.get("dev-dependencies", {})),
    ]
    groups = poetry.get("group", {})
    if isinstance(groups, dict):
        for group, table in sorted(groups.items()):
            deps = table.get("dependencies", {}) if isinstance(table, dict) else None
            tables.append((f"tool.poetry.group.{group}.dependencies", deps))
    return tables


def _poetry_requirement(name: str, spec: object) -> str:
    """A Poetry dependency as one string: ``name``, or ``name <constraint>``."""
    version = spec.get("version") if isinstance(spec, dict) else spec
    if isinstance(version, str) and version.strip() not in ("", "*"):
        return f"{name} {version.strip()}"
    return name


def _package_json(text: str, rel: str) -> dict[str, dict[str, str]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Malformed(f": {exc}") from None
    if not isinstance(data, dict):
        raise Malformed(": not a JSON object")
    node: dict[str, dict[str, str]] = {}
    for key, field_name in (
        ("dependencies", "dependencies"),
        ("devDependencies", "dev_dependencies"),
    ):
        table = data.get(key, {})
        if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
            raise Malformed(f": {key} must map names to versions")
        node[field_name] = dict(table)
    return node


def _terraform_file(rel: str, name: str) -> bool:
    return name.endswith(".tf")


def _unquote(label: str) -> str:
    return label[1:-1] if len(label) >= 2 and label[0] == label[-1] == '"' else label


def _terraform(text: str, rel: str) -> set[str]:
    """The providers a Terraform file names: ``required_providers`` keys, ``provider`` labels."""
    import hcl2  # noqa: PLC0415 - a parser only analyze_deps needs (the mcp extra brings it)

    try:
        document = hcl2.loads(text)
    except Exception as exc:  # lark's parse errors have no common public base
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Malformed(f": {first}") from None
    providers: set[str] = set()
    for block in document.get("terraform", []):
        for required in block.get("required_providers", []) if isinstance(block, dict) else []:
            if isinstance(required, dict):
                providers.update(_unquote(k) for k in required if not k.startswith("__"))
    for block in document.get("provider", []):
        if isinstance(block, dict):
            providers.update(_unquote(k) for k in block if not k.startswith("__"))
    return providers
