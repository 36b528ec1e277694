"""The layout holds: imports point one way, no import circle, the output runtime stands alone.

The graph is read from the source (every ``import`` statement, also inside functions and under
``TYPE_CHECKING``: a circle that only lazy imports hide is still a circle), so a new module
cannot slip a cycle or a back edge in unnoticed.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO

ROOTS = {"codegen": REPO / "codegen", "maverick": REPO / "src" / "maverick"}

# Each layer of the generator and what it must never import (cli -> jobs -> core).
CLI = ("codegen.cli", "codegen.commands")
FORBIDDEN = {
    "codegen.core": ("codegen.generate", "codegen.lint", "codegen.breaking", *CLI),
    "codegen.generate": ("codegen.lint", "codegen.breaking", *CLI),
    # generate's rooms (codegen/generate/__init__.py): plan -> models | consumers -> files ->
    # contract, rules; the two rooms of the models one way, types below checks.
    **{shared: ("codegen.generate.files", "codegen.generate.models", "codegen.generate.consumers",
                "codegen.generate.plan", "codegen.generate.plan_tree")
       for shared in ("codegen.generate.contract", "codegen.generate.rules")},
    "codegen.generate.files": ("codegen.generate.models", "codegen.generate.consumers",
                               "codegen.generate.plan", "codegen.generate.plan_tree"),
    "codegen.generate.models": ("codegen.generate.consumers", "codegen.generate.plan",
                                "codegen.generate.plan_tree"),
    "codegen.generate.models.types": ("codegen.generate.models.checks",
                                      *(f"codegen.generate.models.{name}"
                                        for name in ("_dmcg", "modules", "assemble", "postprocess",
                                                     "deferred", "package"))),
    "codegen.generate.models.checks": tuple(f"codegen.generate.models.{name}"
                                            for name in ("_dmcg", "modules", "assemble",
                                                         "postprocess", "deferred", "package")),
    "codegen.generate.consumers": ("codegen.generate.models", "codegen.generate.plan",
                                   "codegen.generate.plan_tree"),
    "codegen.lint": ("codegen.breaking", *CLI),
    "codegen.breaking": ("codegen.lint", *CLI),
    "maverick.output": ("maverick.agents", "maverick.workflows", "claude_agent_sdk"),
    "maverick.contracts": ("maverick.agents", "maverick.output", "maverick.workflows",
                           "maverick.tools", "mcp", "mcp_types"),
    **{f"maverick.tools.{name}": ("mcp", "mcp_types", "maverick.agents",
                                  "maverick.tools.mcp_server")
       for name in ("results", "codebase", "base", "workspace", "policy", "search", "scan",
                    "searchers", "files", "patterns", "deps", "hard_mode")},
}  # fmt: skip


def _modules() -> dict[str, Path]:
    found = {}
    for top, root in ROOTS.items():
        for path in root.rglob("*.py"):
            parts = [top, *path.relative_to(root).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> Iterator[str]:
    """Every module ``name`` imports, relative imports resolved; outside ones included."""
    package = name if _is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield sub if sub in MODULES else base


def _graph() -> dict[str, set[str]]:
    return {name: {m for m in _imports(name) if m in MODULES and m != name} for name in MODULES}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph``, or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def test_the_graph_is_read_from_every_module() -> None:
    graph = _graph()
    assert "codegen.core.loader" in graph["codegen.generate.plan"]  # from-import
    assert "codegen.generate.plan" in graph["codegen.commands.check"]  # lazy, inside a function
    assert "maverick.contracts.agents.file_change" in graph["maverick.contracts.agents.fix_result"]


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_circle_in_codegen_or_src() -> None:
    assert _cycle(_graph()) is None


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_imports_point_one_way(layer: str) -> None:
    back_edges = sorted(
        f"{name} imports {target}"
        for name in MODULES
        if name == layer or name.startswith(layer + ".")
        for target in _imports(name)
        for banned in FORBIDDEN[layer]
        if target == banned or target.startswith(banned + ".")
    )
    assert back_edges == []


def test_output_runtime_imports_without_claude_agent_sdk() -> None:
    """``import maverick.output`` (and the contracts re-export) with the SDK's import blocked."""
    code = (
        "import sys\n"
        "sys.modules['claude_agent_sdk'] = None  # any import of it now raises ImportError\n"
        "import maverick.output, maverick.agents.contracts\n"
        "from maverick.output import validate_output\n"
        "from maverick.agents.contracts import FixerResult\n"
        'text = \'```json\\n{"success": true, "summary": "done"}\\n```\'\n'
        "print(validate_output(text, FixerResult).summary)\n"
        "import maverick.agents.base\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=REPO
    )
    assert done.stdout == "done\n"
    # The blocked import really was blocked: the agent layer itself needs the SDK.
    assert "ImportError" in done.stderr or "ModuleNotFoundError" in done.stderr
    assert "claude_agent_sdk" in done.stderr


def test_rejected_output_prints_nothing_unless_the_application_logs() -> None:
    """The library's logger has a NullHandler: no last-resort line on stderr per failure."""
    code = (
        "import logging, sys\n"
        "from maverick.output import validate_output\n"
        "from maverick.agents.contracts import FixerResult\n"
        "assert validate_output('no block', FixerResult, strict=False) is None\n"
        "if sys.argv[1] == 'configured':\n"
        "    logging.basicConfig(format='%(name)s %(levelname)s %(stage)s')\n"
        "    validate_output('no block', FixerResult, strict=False)\n"
    )
    configured = "maverick.agents.output WARNING extraction\n"
    for mode, expected in (("silent", ""), ("configured", configured)):
        done = subprocess.run(
            [sys.executable, "-c", code, mode], capture_output=True, text=True, check=True
        )
        assert done.stderr == expected


def test_contracts_and_tools_import_without_the_mcp_sdk() -> None:
    """The MCP SDK is an optional extra: only ``maverick.tools.mcp_server`` needs it."""
    code = (
        "import sys\n"
        "sys.modules['mcp'] = None  # any import of it now raises ImportError\n"
        "sys.modules['mcp_types'] = None\n"
        "import maverick.contracts, maverick.tools\n"
        "from maverick.tools import create_error_result\n"
        "from maverick.contracts import FileResult\n"
        "print(create_error_result(FileResult, 'get_file', 'nope').error)\n"
        "import maverick.tools.mcp_server\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=REPO
    )
    assert done.stdout == "nope\n"
    assert "ModuleNotFoundError" in done.stderr or "ImportError" in done.stderr
    assert "import of mcp" in done.stderr


def test_check_by_records_imports_only_what_a_comparison_of_records_needs() -> None:
    """``check`` on an unchanged tree reads records: the command line imports only the
    subcommand that runs, and nothing that generates, resolves references or renders
    (bench/bench_check.py times it against ``datamodel-codegen --check``)."""
    code = (
        "import sys, json\n"
        "from codegen.cli import main\n"
        "code = main(['check'])\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    exit_code, modules = json.loads(done.stdout.splitlines()[-1])
    assert exit_code == 0, done.stdout
    assert "codegen.commands.check" in modules
    heavy = ("pydantic", "datamodel_code_generator", "referencing", "jinja2", "jsonschema",
             "attrs", "pathspec", "codegen.generate.plan", "codegen.core.resolve",
             "codegen.commands.lint", "codegen.commands.generate")  # fmt: skip
    assert [m for m in modules if m.startswith(heavy)] == []
