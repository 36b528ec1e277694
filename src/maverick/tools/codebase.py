"""Bob's Brain's four tools, for real, on one root folder given at start-up.

``CodebaseTools(root)`` offers ``search_codebase``, ``get_file``, ``check_patterns`` and
``analyze_deps``: async functions returning their contract (SearchResult, FileResult,
ComplianceResult, DependencyResult) built by the factories of :mod:`maverick.tools.results`.

What they promise: they read files below the root only (see :mod:`maverick.tools.workspace`),
they never run a shell or touch the network, and they never raise: every bad input (a missing
path, a path outside the root, a symlink leaving it, a folder where a file is expected, an
invalid regular expression, a malformed manifest, an argument of the wrong type) comes back
as an error result whose ``error`` says what was wrong.
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
import os
import re
import time
import tomllib
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from maverick.contracts import (
    ComplianceResult,
    DependencyResult,
    DependencySummary,
    FileResult,
    NodeDependencies,
    PythonDependencies,
    SearchMatch,
    SearchResult,
    TerraformDependencies,
    ToolResult,
    Violation,
)
from maverick.tools.hard_mode import CRITICAL_RULES, HARD_MODE_RULES, RULES_BY_ID, HardModeRule
from maverick.tools.results import create_error_result, create_success_result
from maverick.tools.workspace import PathRefused, Workspace

__all__ = ["DEFAULT_MAX_RESULTS", "MAX_FILE_BYTES", "CodebaseTools", "ToolFailure"]

ResultT = TypeVar("ResultT", bound=ToolResult)

DEFAULT_MAX_RESULTS = 100
MAX_RESULTS_LIMIT = 1000
MAX_FILE_BYTES = 1024 * 1024  # get_file refuses larger files
MAX_SEARCH_FILE_BYTES = 16 * 1024 * 1024  # search_codebase skips larger files
MAX_TEXT = 200  # a match's or violation's line is cut to this many characters
BINARY_PROBE = 8192  # a NUL byte in the first bytes makes a file binary (as grep decides)
# get_file never hands these out: secrets are not source code.
SECRET_NAMES = (".env", ".env.*", "*.pem", "*.key", "id_rsa*", "id_ed25519*", "credentials*")
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


class ToolFailure(Exception):
    """Raised inside a tool for a bad input; the message becomes the error result's ``error``."""


def _text(line: str) -> str:
    return line.strip()[:MAX_TEXT]


def _is_binary(data: bytes) -> bool:
    return b"\0" in data[:BINARY_PROBE]


def _string(value: object, what: str, *, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise ToolFailure(f"{what} must be a string, not {type(value).__name__}")
    if not empty and not value:
        raise ToolFailure(f"{what} is required")
    return value


@dataclass(frozen=True)
class _Searcher:
    """One compiled query: literal (``str.find``) or a regular expression (``re``)."""

    query: str
    regex: re.Pattern[str] | None

    def lines(self, text: str) -> Iterable[tuple[int, str]]:
        """``(line number, line)`` of every line holding at least one match, in order."""
        line_no, line_start, position = 1, 0, 0
        while position < len(text) or (position == 0 and not text):
            if self.regex is None:
                at = text.find(self.query, position)
                if at < 0:
                    return
            else:
                found = self.regex.search(text, position)
                if found is None:
                    return
                at = found.start()
            line_no += text.count("\n", line_start, at)
            newline = text.rfind("\n", line_start, at)
            line_start = newline + 1 if newline >= 0 else line_start
            line_end = text.find("\n", at)
            line_end = len(text) if line_end < 0 else line_end
            yield line_no, text[line_start:line_end]
            # Search on from the next line: one match per line, as grep counts them.
            position = line_start = line_end + 1
            line_no += 1


class CodebaseTools:
    """The four tools on the folder ``root`` (resolved once; it must exist)."""

    def __init__(self, root: str | Path) -> None:
        self.workspace = Workspace.at(root)

    @property
    def root(self) -> Path:
        return self.workspace.root

    async def _run(
        self, cls: type[ResultT], tool: str, work: Callable[[], dict[str, Any]]
    ) -> ResultT:
        """Run ``work`` in a thread, timed; any failure becomes an error result of ``cls``."""
        started = time.perf_counter()

        def elapsed() -> int:
            return round((time.perf_counter() - started) * 1000)

        try:
            fields = await asyncio.to_thread(work)
        except (ToolFailure, PathRefused) as exc:
            return create_error_result(cls, tool, str(exc), execution_time_ms=elapsed())
        except Exception as exc:  # the promise: nothing raises out of a tool
            message = f"Internal error in {tool}: {type(exc).__name__}: {exc}"
            return create_error_result(cls, tool, message, execution_time_ms=elapsed())
        try:
            return create_success_result(cls, tool, execution_time_ms=elapsed(), **fields)
        except Exception as exc:
            message = f"Internal error in {tool}: its result is not a valid {cls.__name__}: {exc}"
            return create_error_result(cls, tool, message, execution_time_ms=elapsed())

    # -- search_codebase ---------------------------------------------------------------------

    def search_codebase(
        self,
        query: str,
        path: str = ".",
        file_pattern: str = "*.py",
        regex: bool = False,
        max_results: int = DEFAULT_MAX_RESULTS,
    ) -> Awaitable[SearchResult]:
        """Lines of the files below ``path`` whose name matches ``file_pattern`` holding ``query``.

        ``query`` is literal text, or a Python regular expression when ``regex`` is true.
        At most ``max_results`` matches are returned (``truncated`` says when there were
        more); ``match_count`` counts them all, one per matching line. Binary files and
        ``.git``, ``node_modules`` and virtual environments are skipped.
        """
        return self._run(
            SearchResult,
            "search_codebase",
            lambda: self._search(query, path, file_pattern, regex, max_results),
        )

    def _search(
        self, query: object, path: object, file_pattern: object, regex: object, limit: object
    ) -> dict[str, Any]:
        query = _string(query, "Query")
        path = _string(path, "path")
        file_pattern = _string(file_pattern, "file_pattern")
        if not isinstance(regex, bool):
            raise ToolFailure(f"regex must be true or false, not {regex!r}")
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise ToolFailure(f"max_results must be an integer, not {limit!r}")
        if not 1 <= limit <= MAX_RESULTS_LIMIT:
            raise ToolFailure(f"max_results must be between 1 and {MAX_RESULTS_LIMIT}, not {limit}")
        compiled = None
        if regex:
            try:
                compiled = re.compile(query, re.MULTILINE)
            except re.error as exc:
                raise ToolFailure(f"Invalid regular expression {query!r}: {exc}") from None
        searcher = _Searcher(query, compiled)
        needle = None if regex else query.encode("utf-8")
        folder = self.workspace.resolve(path)
        paths = [str(folder)] if folder.is_file() else self.workspace.walk_paths(str(folder))
        by_path = "/" in file_pattern
        name_matches = re.compile(fnmatch.translate(file_pattern)).match
        skip = len(str(self.root)) + 1
        matches: list[SearchMatch] = []
        match_count = 0
        files_matched = 0
        for file in paths:
            if not name_matches(file[skip:] if by_path else os.path.basename(file)):
                continue
            try:
                with open(file, "rb") as stream:
                    if os.fstat(stream.fileno()).st_size > MAX_SEARCH_FILE_BYTES:
                        continue
                    data = stream.read()
            except OSError:
                continue
            if _is_binary(data):
                continue
            if needle is not None and needle not in data:  # literal: bytes first, fast
                continue
            found = False
            for line_no, line in searcher.lines(data.decode("utf-8", errors="replace")):
                found = True
                match_count += 1
                if len(matches) < limit:
                    rel = file[skip:]
                    matches.append(SearchMatch(file=rel, line_number=line_no, text=_text(line)))
            files_matched += found
        return {
            "query": query,
            "path": str(folder),
            "file_pattern": file_pattern,
            "matches": matches,
            "match_count": match_count,
            "file_count": files_matched,
            "truncated": match_count > len(matches),
        }

    # -- get_file ----------------------------------------------------------------------------

    def get_file(self, path: str) -> Awaitable[FileResult]:
        """The UTF-8 text of the file ``path``, its size in bytes and its number of lines.

        Refused: folders, files over 1 MiB, binary or non-UTF-8 files, and secrets (``.env``,
        keys, credentials).
        """
        return self._run(FileResult, "get_file", lambda: self._get_file(path))

    def _get_file(self, path: object) -> dict[str, Any]:
        path = _string(path, "path")
        file = self.workspace.resolve(path)
        if file.is_dir():
            raise ToolFailure(f"Path is a directory, not a file: {path}")
        if not file.is_file():
            raise ToolFailure(f"Path is not a regular file: {path}")
        if any(fnmatch.fnmatchcase(file.name, p) for p in SECRET_NAMES):
            raise ToolFailure(f"Access denied: {path} may hold secrets")
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ToolFailure(f"File too large: {path} is {size} bytes (limit {MAX_FILE_BYTES})")
        data = file.read_bytes()
        if _is_binary(data):
            raise ToolFailure(f"Binary file refused: {path}")
        try:
            content = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToolFailure(
                f"Not UTF-8 text: {path} ({exc.reason} at byte {exc.start})"
            ) from None
        lines = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
        return {
            "path": str(file),
            "content": content,
            "size": len(data),
            "lines": lines,
            "encoding": "utf-8",
        }

    # -- check_patterns ----------------------------------------------------------------------

    def check_patterns(
        self, path: str = ".", rules: Sequence[str] | None = None
    ) -> Awaitable[ComplianceResult]:
        """Check the code below ``path`` against the ADK Hard Mode rules (default: all).

        Unknown rule ids become warnings; the score is the percentage of the known rules
        checked that passed, and any R1 or R2 violation makes the risk CRITICAL.
        """
        return self._run(ComplianceResult, "check_patterns", lambda: self._check(path, rules))

    def _check(self, path: object, rules: object) -> dict[str, Any]:
        path = _string(path, "path")
        if rules is None:
            requested = [rule.id for rule in HARD_MODE_RULES]
        elif isinstance(rules, list | tuple) and all(isinstance(r, str) for r in rules):
            requested = list(dict.fromkeys(rules))
        else:
            raise ToolFailure(f"rules must be a list of rule ids, not {rules!r}")
        folder = self.workspace.resolve(path)
        if not folder.is_dir():
            raise ToolFailure(f"Path is not a directory: {path}")
        known = [RULES_BY_ID[r] for r in requested if r in RULES_BY_ID]
        if not known:
            raise ToolFailure(
                f"No known rule among {requested}; the rules are "
                + ", ".join(r.id for r in HARD_MODE_RULES)
            )
        warnings = [f"Unknown rule: {r}" for r in requested if r not in RULES_BY_ID]
        violations: list[Violation] = []
        passed: list[str] = []
        for rule in known:
            found = self._violations(folder, rule)
            violations.extend(found)
            if not found:
                passed.append(rule.id)
        return {
            "status": "VIOLATIONS_FOUND" if violations else "COMPLIANT",
            "violations": violations,
            "warnings": warnings,
            "passed": passed,
            "compliance_score": round(len(passed) / len(known) * 100, 1),
            "risk_level": _risk_level(violations),
            "path": str(folder),
            "rules_checked": requested,
        }

    def _violations(self, folder: Path, rule: HardModeRule) -> list[Violation]:
        scope = Path(folder, rule.scope)
        if not scope.is_dir() or not scope.resolve().is_relative_to(self.root):
            if not rule.scope_required:
                return []
            return [self._violation(rule, rule.patterns[0], scope, 0, f"{rule.scope}/ is missing")]
        violations: list[Violation] = []
        missing = dict.fromkeys(range(len(rule.patterns)), True)
        for file in self.workspace.walk(scope):
            if not any(fnmatch.fnmatchcase(file.name, p) for p in rule.files):
                continue
            try:
                data = file.read_bytes()
            except OSError:
                continue
            if _is_binary(data):
                continue
            for line_no, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
                if line.lstrip().startswith("#"):
                    continue
                for index, regex in enumerate(rule.regexes):
                    if not regex.search(line):
                        continue
                    missing[index] = False
                    if rule.check != "required_name":
                        pattern = rule.patterns[index]
                        violations.append(self._violation(rule, pattern, file, line_no, line))
        if rule.check == "required_name":
            for index, absent in missing.items():
                if absent:
                    pattern = rule.patterns[index]
                    where = f"{' or '.join(rule.files)} below {self.workspace.relative(scope)}"
                    text = f"{pattern} not found in {where}"
                    violations.append(self._violation(rule, pattern, scope, 0, text))
        return violations

    def _violation(
        self, rule: HardModeRule, pattern: str, where: Path, line: int, text: str
    ) -> Violation:
        file = where.relative_to(self.root).as_posix() or "."
        return Violation(
            rule=rule.id,
            rule_name=rule.name,
            type=rule.violation_type,
            pattern=pattern,
            file=file,
            line=line,
            text=_text(text),
        )

    # -- analyze_deps ------------------------------------------------------------------------

    def analyze_deps(self, path: str = ".") -> Awaitable[DependencyResult]:
        """The dependencies the project at ``path`` declares.

        Python: every ``requirements*.txt`` and ``pyproject.toml`` (PEP 621 ``dependencies``
        and ``optional-dependencies``, Poetry dependency tables) in ``path``; Node:
        ``package.json`` ``dependencies`` and ``devDependencies``; Terraform: the
        ``required_providers`` of every ``*.tf`` file below ``path``. ``issues`` lists
        duplicates and requirements without any version constraint.
        """
        return self._run(DependencyResult, "analyze_deps", lambda: self._deps(path))

    def _deps(self, path: object) -> dict[str, Any]:
        path = _string(path, "path")
        folder = self.workspace.resolve(path)
        if not folder.is_dir():
            raise ToolFailure(f"Path is not a directory: {path}")
        issues: list[str] = []
        requirements: list[str] = []
        python_names: dict[str, list[str]] = {}
        for file in sorted(folder.glob("requirements*.txt")):
            for line_no, requirement in self._requirements(folder, file):
                requirements.append(requirement)
                where = f"{file.name}:{line_no}"
                self._note_requirement(requirement, where, python_names, issues)
        pyproject: list[str] = []
        manifest = folder / "pyproject.toml"
        if manifest.is_file():
            for requirement, where in self._pyproject(folder, manifest):
                pyproject.append(requirement)
                self._note_requirement(requirement, where, python_names, issues)
        for name, places in python_names.items():
            if len(places) > 1:
                issues.append(f"Duplicate Python requirement {name}: {', '.join(places)}")
        node = self._package_json(folder, issues)
        providers = self._terraform(folder)
        node_packages = set(node["dependencies"]) | set(node["dev_dependencies"])
        return {
            "path": str(folder),
            "python": PythonDependencies(requirements_txt=requirements, pyproject_toml=pyproject),
            "node": NodeDependencies(**node),
            "terraform": TerraformDependencies(providers=providers),
            "summary": DependencySummary(
                python_packages=len(python_names),
                node_packages=len(node_packages),
                terraform_providers=len(providers),
            ),
            "issues": issues,
        }

    def _read_manifest(self, folder: Path, file: Path) -> str:
        rel = self.workspace.relative(file)
        real = self.workspace.resolve(rel)  # a linked manifest must stay inside the root
        try:
            return real.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ToolFailure(f"Malformed manifest {rel}: not UTF-8 ({exc.reason})") from None

    def _requirements(self, folder: Path, file: Path) -> Iterable[tuple[int, str]]:
        for line_no, raw in enumerate(self._read_manifest(folder, file).splitlines(), 1):
            line = raw.split(" #", 1)[0].strip()
            if not line or line.startswith(("#", "-")):  # comments, -r/-c/--index-url options
                continue
            if not _REQUIREMENT_NAME.match(line):
                rel = self.workspace.relative(file)
                raise ToolFailure(f"Malformed manifest {rel}:{line_no}: {raw.strip()!r}")
            yield line_no, line

    @staticmethod
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

    def _pyproject(self, folder: Path, file: Path) -> list[tuple[str, str]]:
        rel = self.workspace.relative(file)
        try:
            data = tomllib.loads(self._read_manifest(folder, file))
        except tomllib.TOMLDecodeError as exc:
            raise ToolFailure(f"Malformed manifest {rel}: {exc}") from None
        found: list[tuple[str, str]] = []

        def strings(value: object, where: str) -> None:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ToolFailure(f"Malformed manifest {rel}: {where} must be a list of strings")
            for item in value:
                if not _REQUIREMENT_NAME.match(item):
                    raise ToolFailure(f"Malformed manifest {rel}: {where} holds {item!r}")
                found.append((item.strip(), f"{rel} {where}"))

        project = data.get("project", {})
        if isinstance(project, dict):
            strings(project.get("dependencies", []), "project.dependencies")
            extras = project.get("optional-dependencies", {})
            if not isinstance(extras, dict):
                raise ToolFailure(f"Malformed manifest {rel}: project.optional-dependencies")
            for extra, items in sorted(extras.items()):
                strings(items, f"project.optional-dependencies.{extra}")
        poetry = (
            data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
        )
        if isinstance(poetry, dict):
            tables = [("tool.poetry.dependencies", poetry.get("dependencies", {}))]
            tables.append(("tool.poetry.dev-dependencies", poetry.get("dev-dependencies", {})))
            groups = poetry.get("group", {})
            if isinstance(groups, dict):
                for group, table in sorted(groups.items()):
                    deps = table.get("dependencies", {}) if isinstance(table, dict) else None
                    tables.append((f"tool.poetry.group.{group}.dependencies", deps))
            for where, table in tables:
                if not isinstance(table, dict):
                    raise ToolFailure(f"Malformed manifest {rel}: {where} must be a table")
                for name, spec in table.items():
                    if name.lower() == "python":
                        continue
                    found.append((_poetry_requirement(name, spec), f"{rel} {where}"))
        return found

    def _package_json(self, folder: Path, issues: list[str]) -> dict[str, dict[str, str]]:
        manifest = folder / "package.json"
        node: dict[str, dict[str, str]] = {"dependencies": {}, "dev_dependencies": {}}
        if not manifest.is_file():
            return node
        rel = self.workspace.relative(manifest)
        try:
            data = json.loads(self._read_manifest(folder, manifest))
        except json.JSONDecodeError as exc:
            raise ToolFailure(f"Malformed manifest {rel}: {exc}") from None
        if not isinstance(data, dict):
            raise ToolFailure(f"Malformed manifest {rel}: not a JSON object")
        for key, field_name in (
            ("dependencies", "dependencies"),
            ("devDependencies", "dev_dependencies"),
        ):
            table = data.get(key, {})
            if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
                raise ToolFailure(f"Malformed manifest {rel}: {key} must map names to versions")
            node[field_name] = dict(table)
        for name in sorted(set(node["dependencies"]) & set(node["dev_dependencies"])):
            issues.append(f"Duplicate Node package {name}: dependencies and devDependencies")
        return node

    def _terraform(self, folder: Path) -> list[str]:
        import hcl2  # noqa: PLC0415 - a parser only analyze_deps needs

        providers: set[str] = set()
        for file in self.workspace.walk(folder):
            if file.suffix != ".tf":
                continue
            rel = self.workspace.relative(file)
            try:
                document = hcl2.loads(self._read_manifest(folder, file))
            except Exception as exc:  # lark's parse errors have no common public base
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise ToolFailure(f"Malformed manifest {rel}: {first}") from None
            for block in document.get("terraform", []):
                for required in (
                    block.get("required_providers", []) if isinstance(block, dict) else []
                ):
                    if isinstance(required, dict):
                        providers.update(k for k in required if not k.startswith("__"))
        return sorted(providers)


def _poetry_requirement(name: str, spec: object) -> str:
    """A Poetry dependency as one string: ``name``, or ``name <constraint>``."""
    version = spec.get("version") if isinstance(spec, dict) else spec
    if isinstance(version, str) and version.strip() not in ("", "*"):
        return f"{name} {version.strip()}"
    return name


def _risk_level(violations: Sequence[Violation]) -> str:
    """CRITICAL for any R1/R2 violation, else by count: 10+ HIGH, 3+ MEDIUM, otherwise LOW."""
    if any(v.rule in CRITICAL_RULES for v in violations):
        return "CRITICAL"
    if len(violations) >= 10:
        return "HIGH"
    if len(violations) >= 3:
        return "MEDIUM"
    return "LOW"
