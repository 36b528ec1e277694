"""Edits of the generated classes' fields, located through the module's syntax tree.

* :func:`use_missing`: an optional property without a default is ``pydantic.MISSING`` when
  absent (absent stays absent, never written back as null). The skeleton marks each such
  property, wherever the generator makes its class (a contract, a ``$defs`` entry, an inline
  object at any depth, a branch of a union), and the field is found by its mark.
* :func:`use_tuples`: an exact ``prefixItems`` array is a ``tuple[...]``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Mapping, Sequence

from codegen.core.errors import CodegenError, Location

__all__ = [
    "MISSING_MARK",
    "MISSING_OR_NULL_MARK",
    "TYPES_MODULE",
    "add_imports",
    "json_name",
    "rewrite_fields",
    "use_missing",
    "use_tuples",
    "validate_default_keywords",
    "validates_default",
]

TYPES_MODULE = "_types"
# What the skeleton adds to the ``examples`` of a property whose field defaults to MISSING
# (null refused, or kept among its values): never seen past use_missing.
MISSING_MARK = "@@maverick-codegen: MISSING@@"
MISSING_OR_NULL_MARK = "@@maverick-codegen: MISSING, null@@"
_MARKS = frozenset({MISSING_MARK, MISSING_OR_NULL_MARK})
_FUTURE = "from __future__ import annotations"


def add_imports(lines: list[str], imports: Sequence[str]) -> None:
    """Add import lines after the future import; ruff's isort merges and sorts them later."""
    future = lines.index(_FUTURE)
    lines[future + 1 : future + 1] = ["", *imports]


def json_name(statement: ast.AnnAssign) -> str:
    """The JSON name of a field: its ``Field(alias=...)``, else its own name."""
    for call in _field_calls(statement):
        for keyword in call.keywords:
            if keyword.arg == "alias" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return statement.target.id if isinstance(statement.target, ast.Name) else ""


def _field_calls(statement: ast.AnnAssign) -> list[ast.Call]:
    """The ``Field(...)`` calls of a field: its value, or in its ``Annotated`` type."""
    calls = [statement.value] if isinstance(statement.value, ast.Call) else []
    annotation = statement.annotation
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple):
        calls += [e for e in annotation.slice.elts[1:] if isinstance(e, ast.Call)]
    return calls


def validates_default(statement: ast.AnnAssign) -> bool:
    """Whether a field validates its default (``Field(validate_default=True)``), which is no
    empty array or object: an empty one is its own value whatever the type of its items
    (:func:`~codegen.generate.models.postprocess.edit_module` turns its validation off)."""
    empty = isinstance(statement.value, ast.List | ast.Dict) and not (
        statement.value.elts if isinstance(statement.value, ast.List) else statement.value.keys
    )
    return not empty and bool(validate_default_keywords(statement))


def validate_default_keywords(statement: ast.AnnAssign) -> list[ast.keyword]:
    """The field's ``validate_default=True`` keywords."""
    return [
        k
        for call in _field_calls(statement)
        for k in call.keywords
        if k.arg == "validate_default" and isinstance(k.value, ast.Constant) and k.value.value
    ]


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
    if not (has_none or anything):
        return None
    if has_none and (keep_none or not kept):
        # Also a field whose only value is null: None | MISSING (where the schema refuses
        # null there too, no value is valid: the predicates refuse it).
        kept = members
    result: ast.expr = kept[0]
    for member in [*kept[1:], ast.Name("MISSING", ast.Load())]:
        result = ast.BinOp(result, ast.BitOr(), member)
    return result


def rewrite_fields(
    code: str,
    fields: Mapping[str, Collection[str]],
    rewrite: Callable[[str, ast.AnnAssign, str], None],
    where: Location,
    tree: ast.Module | None = None,
) -> list[str]:
    """The lines of ``code`` with ``rewrite(class, statement, JSON name)`` applied to each field
    named in ``fields`` (class name -> JSON names); every one must be found. ``tree``: the
    syntax tree of ``code``, when parsed already (its fields are rewritten in place)."""
    lines = code.split("\n")
    edits: list[tuple[int, int, str]] = []
    for node in (tree or ast.parse(code)).body:
        if not (isinstance(node, ast.ClassDef) and node.name in fields):
            continue
        found = set()
        for statement in node.body:
            if isinstance(statement, ast.AnnAssign) and json_name(statement) in fields[node.name]:
                name = json_name(statement)
                rewrite(node.name, statement, name)
                last = statement.end_lineno or statement.lineno
                edits.append((statement.lineno, last, "    " + ast.unparse(statement)))
                found.add(name)
        if found != set(fields[node.name]):
            lacking = sorted(set(fields[node.name]) - found)
            raise CodegenError(f"generated class {node.name} lacks fields {lacking}", where)
    out: list[str] = []  # one pass: splicing each edit in would move the rest every time
    done = 0
    for first, last, text in sorted(edits):
        out += lines[done : first - 1]
        out.append(text)
        done = last
    return out + lines[done:]


def use_missing(code: str, where: Location, tree: ast.Module | None = None) -> str:
    """Optional fields without a default default to ``MISSING``: the skeleton marks each such
    property (:data:`MISSING_MARK`, :data:`MISSING_OR_NULL_MARK` when null stays one of its
    values) among its ``examples``, which the generator writes into the field's ``Field()``,
    whatever class it makes the field in. The mark is taken out again here, also from the
    ``root`` of a class the generator wraps a member of a union in (it copies the examples
    there: that field is no property). ``tree``: the syntax tree of ``code``, when parsed
    already (it is edited in place)."""
    fields: dict[str, dict[str, bool | None]] = {}  # None: a copy of the mark, taken out
    tree = tree or ast.parse(code)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    for node in classes:
        wrapper = any(
            isinstance(b, ast.Subscript) and isinstance(b.value, ast.Name)
            and b.value.id == "RootModel" for b in node.bases
        )  # fmt: skip
        for statement in node.body:
            if isinstance(statement, ast.AnnAssign):
                marks = [n.value for n in ast.walk(statement.annotation)
                         if isinstance(n, ast.Constant) and _is_mark(n)]  # fmt: skip
                if marks:
                    name = json_name(statement)
                    keeps_null = marks[0] == MISSING_OR_NULL_MARK
                    fields.setdefault(node.name, {})[name] = (
                        None if wrapper and name == "root" else keeps_null
                    )
    if not fields:
        return code

    def rewrite(owner: str, statement: ast.AnnAssign, name: str) -> None:
        _unmark(statement)
        keeps_null = fields[owner][name]
        if keeps_null is None:
            return
        annotation = _without_none(statement.annotation, keeps_null)
        # A default the plain generator took from a referenced schema is dropped: the field
        # has none of its own, so the absent property stays absent.
        if annotation is None or statement.value is None:
            raise CodegenError(f"field {name!r} is not optional", where)
        statement.annotation, statement.value = annotation, ast.Name("MISSING", ast.Load())

    lines = rewrite_fields(code, fields, rewrite, where, tree)
    if any(mark in line for line in lines for mark in _MARKS):
        raise CodegenError("the generator wrote a MISSING mark outside a field's Field()", where)
    if any(v is not None for names in fields.values() for v in names.values()):
        add_imports(lines, ["from pydantic import MISSING"])
    return "\n".join(lines)


def _unmark(statement: ast.AnnAssign) -> None:
    """Take the mark out of the field's ``Annotated[..., Field(examples=[...])]``: out of the
    list, the keyword when the list is left empty, ``Field()`` when it is left bare and
    ``Annotated`` when nothing is left beside the type."""
    annotation = statement.annotation
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple)):
        return
    kept: list[ast.expr] = []
    for meta in annotation.slice.elts[1:]:
        if isinstance(meta, ast.Call):
            for keyword in list(meta.keywords):
                if keyword.arg == "examples" and isinstance(keyword.value, ast.List):
                    keyword.value.elts = [e for e in keyword.value.elts if not _is_mark(e)]
                    if not keyword.value.elts:
                        meta.keywords.remove(keyword)
            if not meta.args and not meta.keywords:
                continue
        kept.append(meta)
    first = annotation.slice.elts[0]
    annotation.slice.elts[1:] = kept
    if not kept:
        statement.annotation = first


def _is_mark(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in _MARKS


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

    lines = rewrite_fields(code, fields, rewrite, where)
    used = " ".join(wanted for names in fields.values() for wanted in names.values())
    imports = [f"from pydantic import {n}" for n in ("StrictBool", "StrictStr") if n in used]
    ours = [n for n in ("JsonInt", "JsonNumber") if n in used]
    if ours:
        imports.append(f"from {'.' * depth}{TYPES_MODULE} import {', '.join(ours)}")
    add_imports(lines, imports)
    return "\n".join(lines)
