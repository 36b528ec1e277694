"""Edit the modules datamodel-code-generator returns, before they are formatted.

Every edit is located through the module's syntax tree, never by searching text:

* each class whose schema says more than its field types gets its validator method
  (:mod:`codegen.generate.validators`), and the module the predicates it calls, with the
  imports they need;
* ``StrictInt`` becomes ``JsonInt`` and ``StrictFloat`` becomes ``JsonNumber`` (both from the
  generated ``_types`` module), in field annotations, aliases and class bases alike. JSON
  Schema's ``integer`` accepts ``1.0``, which ``StrictInt`` refuses; its ``number`` keeps
  integers exact, which ``StrictFloat`` would round to a float;
* every model's configuration says ``defer_build=True``: Pydantic builds its validator on
  first use, not when its module is imported.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence

from codegen.core.errors import CodegenError, Location
from codegen.generate.validators import ModuleChecks

__all__ = ["TYPES_MODULE", "edit_module", "nested_classes", "rebuild_forward_references",
           "use_missing", "use_tuples"]  # fmt: skip

TYPES_MODULE = "_types"
_CHECK_IMPORTS = (
    "from typing import Self",
    "from pydantic import model_validator",
    "from pydantic_core import PydanticCustomError",
)
_FUTURE = "from __future__ import annotations"
_RENAMES = {"StrictInt": "JsonInt", "StrictFloat": "JsonNumber"}
# draft-04's integer is a number written without a fraction: 1.0 is none, as StrictInt says.
_STRICT_INTEGERS = {"StrictFloat": "JsonNumber"}
_ENUMS = frozenset({"Enum", "StrEnum", "IntEnum"})


def _add_imports(lines: list[str], imports: Sequence[str]) -> None:
    """Add import lines after the future import; ruff's isort merges and sorts them later."""
    future = lines.index(_FUTURE)
    lines[future + 1 : future + 1] = ["", *imports]


def edit_module(
    code: str, checks: ModuleChecks, depth: int, where: Location, *, strict_integers: bool = False
) -> str:
    """Insert each validator into its class and the predicates after the classes, rename
    ``StrictInt`` / ``StrictFloat`` and defer every model's build: one parse, every edit
    applied from the bottom up."""
    tree = ast.parse(code)
    lines = code.split("\n")
    imports: list[str] = []
    # (line, order, edit): applied in descending line order, so no edit moves another's line.
    edits: list[tuple[int, int, Callable[[], None]]] = []
    if checks.functions:
        functions = ["", "", "# The predicates the validators call: JSON Schema, compiled.", ""]
        functions += checks.functions.split("\n")
        edits.append((len(lines), 0, lambda: lines.extend(functions)))
        imports.append("from typing import Any")
    for call in _config_calls(tree):
        row = call.end_lineno or call.lineno
        edits.append((row, 0, functools.partial(_defer_build, lines, call)))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for check in checks.classes:
        node = classes.get(check.class_name)
        if node is None or node.end_lineno is None:
            raise CodegenError(f"generated code lacks class {check.class_name}", where)
        if any(isinstance(b, ast.Name) and b.id in _ENUMS for b in node.bases):
            # an Enum would ignore the validator: the skeleton must never make one here
            raise CodegenError(f"generated class {check.class_name} is an Enum", where)
        method = ["", *("    " + line if line else "" for line in check.lines)]
        edits.append(
            (node.end_lineno, 1, functools.partial(_insert, lines, node.end_lineno, method))
        )
    if checks.classes:
        imports += _CHECK_IMPORTS
    helpers = sorted({*checks.helpers, "_json_view"} if checks.classes else set(checks.helpers))
    renames = _STRICT_INTEGERS if strict_integers else _RENAMES
    renamed = [n for n in _type_names(tree) if n.id in renames]
    for name in renamed:
        edits.append((name.lineno, 2, functools.partial(_rename, lines, name)))
    if renamed:
        helpers = sorted({*helpers, *(renames[n.id] for n in renamed)})
        for statement in tree.body:
            if isinstance(statement, ast.ImportFrom) and statement.module == "pydantic":
                kept = [alias for alias in statement.names if alias.name not in renames]
                if len(kept) != len(statement.names):
                    first, last = statement.lineno, statement.end_lineno or statement.lineno
                    text = [ast.unparse(ast.ImportFrom("pydantic", kept, 0))] if kept else []
                    edits.append((first, 3, functools.partial(_replace, lines, first, last, text)))
    if helpers:
        imports.append(f"from {'.' * depth}{TYPES_MODULE} import {', '.join(helpers)}")
    for _, _, edit in sorted(edits, key=lambda item: (-item[0], item[1])):
        edit()
    if imports:
        _add_imports(lines, imports)
    return "\n".join(lines)


def _insert(lines: list[str], after: int, new: list[str]) -> None:
    lines[after:after] = new


def _replace(lines: list[str], first: int, last: int, new: list[str]) -> None:
    lines[first - 1 : last] = new


def _rename(lines: list[str], node: ast.Name) -> None:
    raw = lines[node.lineno - 1].encode("utf-8")  # offsets count UTF-8 bytes
    start, end = node.col_offset, node.end_col_offset or node.col_offset
    lines[node.lineno - 1] = (raw[:start] + _RENAMES[node.id].encode() + raw[end:]).decode()


def _json_name(statement: ast.AnnAssign) -> str:
    """The JSON name of a field: its ``Field(alias=...)``, else its own name."""
    calls = [statement.value] if isinstance(statement.value, ast.Call) else []
    annotation = statement.annotation
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple):
        calls += [e for e in annotation.slice.elts[1:] if isinstance(e, ast.Call)]
    for call in calls:
        for keyword in call.keywords:
            if keyword.arg == "alias" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return statement.target.id if isinstance(statement.target, ast.Name) else ""


def _members(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return [*_members(node.left), *_members(node.right)]
    return [node]


def _without_none(annotation: ast.expr, keep_none: bool = False) -> ast.expr | None:
    """``annotation`` with ``MISSING`` in place of its ``None`` member (beside it when
    ``keep_none``; beside ``Any``, which holds None), or None if it has neither."""
    if (
        isinstance(annotation, ast.Subscript)
        and isinstance(annotation.value, ast.Name)
        and annotation.value.id == "Annotated"
        and isinstance(annotation.slice, ast.Tuple)
    ):
        inner = _without_none(annotation.slice.elts[0], keep_none)
        if inner is None:
            return None
        elts = [inner, *annotation.slice.elts[1:]]
        return ast.Subscript(annotation.value, ast.Tuple(elts, ast.Load()), ast.Load())
    members = _members(annotation)
    kept = [m for m in members if not (isinstance(m, ast.Constant) and m.value is None)]
    has_none = len(kept) != len(members)
    anything = any(isinstance(m, ast.Name) and m.id == "Any" for m in members)  # holds None
    if not (has_none or anything) or not (kept or keep_none):
        return None
    if keep_none and has_none:
        kept = members  # also a field whose only value is null: None | MISSING
    result: ast.expr = kept[0]
    for member in [*kept[1:], ast.Name("MISSING", ast.Load())]:
        result = ast.BinOp(result, ast.BitOr(), member)
    return result


@functools.lru_cache(maxsize=4)
def _classes(code: str) -> dict[str, ast.ClassDef]:
    """The classes of a module by name (one parse per module, however many fields ask)."""
    return {n.name: n for n in ast.parse(code).body if isinstance(n, ast.ClassDef)}


def nested_classes(code: str, owner: str, path: tuple[str, ...]) -> str | None:
    """The generated class of the inline object reached from class ``owner`` through the
    properties of ``path`` (a field's annotation names it), or None when it is not one class."""
    classes = _classes(code)
    current = owner
    for name in path:
        node = classes.get(current)
        fields = [
            s
            for s in (node.body if node is not None else [])
            if isinstance(s, ast.AnnAssign) and _json_name(s) == name
        ]
        if len(fields) != 1:
            return None
        named = {n.id for n in ast.walk(fields[0].annotation) if isinstance(n, ast.Name)} & set(
            classes
        )
        if len(named) != 1:
            return None
        current = named.pop()
    return current


def _rewrite_fields(
    code: str,
    fields: Mapping[str, Collection[str]],
    rewrite: Callable[[str, ast.AnnAssign, str], None],
    where: Location,
) -> list[str]:
    """The lines of ``code`` with ``rewrite(class, statement, JSON name)`` applied to each field
    named in ``fields`` (class name -> JSON names); every one must be found."""
    lines = code.split("\n")
    edits: list[tuple[int, int, str]] = []
    for node in ast.parse(code).body:
        if not (isinstance(node, ast.ClassDef) and node.name in fields):
            continue
        found = set()
        for statement in node.body:
            if isinstance(statement, ast.AnnAssign) and _json_name(statement) in fields[node.name]:
                name = _json_name(statement)
                rewrite(node.name, statement, name)
                last = statement.end_lineno or statement.lineno
                edits.append((statement.lineno, last, "    " + ast.unparse(statement)))
                found.add(name)
        if found != set(fields[node.name]):
            lacking = sorted(set(fields[node.name]) - found)
            raise CodegenError(f"generated class {node.name} lacks fields {lacking}", where)
    for first, last, text in sorted(edits, reverse=True):
        lines[first - 1 : last] = [text]
    return lines


def use_missing(code: str, fields: dict[str, dict[str, bool]], where: Location) -> str:
    """Optional fields without a default default to ``MISSING``: ``fields`` maps class names
    to the JSON names of those fields and whether null stays one of their values."""
    if not fields:
        return code

    def rewrite(owner: str, statement: ast.AnnAssign, name: str) -> None:
        annotation = _without_none(statement.annotation, fields[owner][name])
        # A default taken from a referenced schema is dropped: the absent property stays absent.
        if annotation is None or statement.value is None:
            raise CodegenError(f"field {name!r} is not optional", where)
        statement.annotation, statement.value = annotation, ast.Name("MISSING", ast.Load())

    lines = _rewrite_fields(code, fields, rewrite, where)
    _add_imports(lines, ["from pydantic import MISSING"])
    return "\n".join(lines)


def use_tuples(code: str, fields: dict[str, dict[str, str]], depth: int, where: Location) -> str:
    """Give exact tuple fields their ``tuple[...]`` type: ``fields`` maps class names to JSON
    names to annotations (the generator typed them ``list[Any]``)."""
    if not fields:
        return code

    def rewrite(owner: str, statement: ast.AnnAssign, name: str) -> None:
        new = ast.parse(fields[owner][name], mode="eval").body
        annotation = statement.annotation
        if (
            isinstance(annotation, ast.Subscript)
            and isinstance(annotation.value, ast.Name)
            and annotation.value.id == "Annotated"
            and isinstance(annotation.slice, ast.Tuple)
        ):
            annotation.slice.elts[0] = new
        else:
            statement.annotation = new

    lines = _rewrite_fields(code, fields, rewrite, where)
    used = " ".join(wanted for names in fields.values() for wanted in names.values())
    imports = [f"from pydantic import {n}" for n in ("StrictBool", "StrictStr") if n in used]
    ours = [n for n in ("JsonInt", "JsonNumber") if n in used]
    if ours:
        imports.append(f"from {'.' * depth}{TYPES_MODULE} import {', '.join(ours)}")
    _add_imports(lines, imports)
    return "\n".join(lines)


def rebuild_forward_references(code: str) -> str:
    """Complete each model that names a class defined after it in its module.

    Pydantic completes such a model lazily, on first use, in its own module; a subclass in
    another module created before that re-reads the inherited annotations in its own module,
    where the later class is not imported, and is never complete. A ``model_rebuild()`` at the
    end of the module completes the model before any other module can subclass it.
    """
    if code.count("\nclass ") < 2:  # one class names no later one
        return code
    tree = ast.parse(code)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    order = {node.name: index for index, node in enumerate(classes)}
    late = []
    for index, node in enumerate(classes):
        if any(isinstance(b, ast.Name) and b.id in _ENUMS for b in node.bases):
            continue
        annotations = [s.annotation for s in node.body if isinstance(s, ast.AnnAssign)]
        named = {n.id for a in annotations for n in ast.walk(a) if isinstance(n, ast.Name)}
        if any(order.get(name, -1) > index for name in named):
            late.append(node.name)
    if not late:
        return code
    rebuilds = "\n".join(f"{name}.model_rebuild()" for name in late)
    return f"{code.rstrip()}\n\n\n# Models that name a class defined after them.\n{rebuilds}\n"


def _config_calls(tree: ast.Module) -> Iterator[ast.Call]:
    """The ``ConfigDict(...)`` call of each class's ``model_config``."""
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            if (
                isinstance(statement, ast.Assign)
                and [t.id for t in statement.targets if isinstance(t, ast.Name)] == ["model_config"]
                and isinstance(statement.value, ast.Call)
                and isinstance(statement.value.func, ast.Name)
                and statement.value.func.id == "ConfigDict"
            ):
                yield statement.value


def _defer_build(lines: list[str], call: ast.Call) -> None:
    """Add ``defer_build=True`` to a ``ConfigDict(...)`` call, before its closing parenthesis."""
    row, end = (call.end_lineno or call.lineno) - 1, (call.end_col_offset or 1) - 1  # ")"
    items = [*call.args, *(k.value for k in call.keywords)]
    added = "defer_build=True"
    if items:
        last = items[-1]
        text = "\n".join(lines[(last.end_lineno or 1) - 1 : row + 1]).encode()
        start = last.end_col_offset or 0
        tail = text[start : len(text) - len(lines[row].encode()) + end]
        added = f"{added}," if b"," in tail else f", {added}"
    raw = lines[row].encode("utf-8")  # offsets count UTF-8 bytes
    lines[row] = (raw[:end] + added.encode() + raw[end:]).decode()


def _type_names(tree: ast.Module) -> Iterator[ast.Name]:
    """The names used in type expressions: field annotations, aliases and class bases.

    Calls (``Field(...)``) and constants hold no types and are not entered, which keeps this
    cheap on modules with long descriptions.
    """
    pending: list[ast.AST] = []
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            pending += statement.bases
            pending += [m.annotation for m in statement.body if isinstance(m, ast.AnnAssign)]
        elif isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            pending.append(statement.value)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name):
            yield node
        elif not isinstance(node, ast.Call | ast.Constant):
            pending.extend(ast.iter_child_nodes(node))
