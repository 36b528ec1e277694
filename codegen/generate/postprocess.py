"""Edit the modules datamodel-code-generator returns, before they are formatted.

Two edits, both located through the module's syntax tree, never by searching text:

* the compiled cross-field rules of a contract are appended to its class body
  (see :mod:`codegen.generate.rules`), with the imports they need;
* a class whose schema leaves its content model open (an ``allOf`` base such as ToolResult)
  keeps unknown keys (``extra="allow"``), so that what the schema accepts round-trips;
* ``StrictInt`` becomes ``JsonInt`` (from the generated ``_types`` module). JSON Schema's
  ``integer`` accepts a number with a zero fraction such as ``1.0``; ``StrictInt`` refuses it,
  ``JsonInt`` accepts exactly what the schema accepts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from codegen.core.errors import CodegenError, Location
from codegen.generate.rules import RuleSet

__all__ = ["TYPES_MODULE", "insert_rules", "keep_unknown_keys", "use_json_int"]

TYPES_MODULE = "_types"
_RULE_IMPORTS = (
    "from typing import Self",
    "from pydantic import model_validator",
    "from pydantic_core import PydanticCustomError",
)
_FUTURE = "from __future__ import annotations"


def _add_imports(lines: list[str], imports: Sequence[str]) -> None:
    """Add import lines after the future import; ruff's isort merges and sorts them later."""
    future = lines.index(_FUTURE)
    lines[future + 1 : future + 1] = ["", *imports]


def insert_rules(code: str, rule_sets: Sequence[RuleSet], where: Location) -> str:
    """Append each rule set's validator method to its class."""
    lines = code.split("\n")
    classes = {node.name: node for node in ast.parse(code).body if isinstance(node, ast.ClassDef)}
    ends = []
    for rule_set in rule_sets:
        node = classes.get(rule_set.class_name)
        if node is None or node.end_lineno is None:
            raise CodegenError(f"generated code lacks class {rule_set.class_name}", where)
        ends.append((node.end_lineno, rule_set))
    for end, rule_set in sorted(ends, key=lambda pair: -pair[0]):
        lines[end:end] = ["", *("    " + line if line else "" for line in rule_set.method_lines())]
    _add_imports(lines, _RULE_IMPORTS)
    return "\n".join(lines)


def _type_names(tree: ast.Module) -> Iterator[ast.Name]:
    """The names used in type expressions: field annotations and module-level aliases.

    Calls (``Field(...)``) and constants hold no types and are not entered, which keeps this
    cheap on modules with long descriptions.
    """
    pending: list[ast.AST] = []
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            pending += [m.annotation for m in statement.body if isinstance(m, ast.AnnAssign)]
        elif isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            pending.append(statement.value)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name):
            yield node
        elif not isinstance(node, ast.Call | ast.Constant):
            pending.extend(ast.iter_child_nodes(node))


def use_json_int(code: str, depth: int) -> str:
    """Replace every ``StrictInt`` by ``JsonInt``; ``depth`` is the module's package depth."""
    if "StrictInt" not in code:
        return code
    tree = ast.parse(code)
    names = [name for name in _type_names(tree) if name.id == "StrictInt"]
    if not names:
        return code
    lines = code.split("\n")
    for node in sorted(names, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        raw = lines[node.lineno - 1].encode("utf-8")  # offsets count UTF-8 bytes
        start, end = node.col_offset, node.end_col_offset or node.col_offset
        lines[node.lineno - 1] = (raw[:start] + b"JsonInt" + raw[end:]).decode("utf-8")
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "pydantic":
            kept = [alias for alias in statement.names if alias.name != "StrictInt"]
            if len(kept) != len(statement.names):
                first, last = statement.lineno - 1, (statement.end_lineno or statement.lineno)
                replacement = [ast.unparse(ast.ImportFrom("pydantic", kept, 0))] if kept else []
                lines[first:last] = replacement
    _add_imports(lines, [f"from {'.' * depth}{TYPES_MODULE} import JsonInt"])
    return "\n".join(lines)


def keep_unknown_keys(code: str, class_name: str, where: Location) -> str:
    """Make ``class_name`` keep unknown keys: ``extra="allow"`` in its ``model_config``."""
    for node in ast.parse(code).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and [getattr(t, "id", None) for t in statement.targets] == ["model_config"]
                    and isinstance(statement.value, ast.Call)
                ):
                    call = statement.value
                    call.keywords = [k for k in call.keywords if k.arg != "extra"]
                    call.keywords.insert(0, ast.keyword("extra", ast.Constant("allow")))
                    lines = code.split("\n")
                    first, last = statement.lineno - 1, statement.end_lineno or statement.lineno
                    lines[first:last] = ["    " + ast.unparse(statement)]
                    return "\n".join(lines)
    raise CodegenError(f"generated class {class_name} has no model_config to open", where)
