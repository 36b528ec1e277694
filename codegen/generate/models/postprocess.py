"""Edit the modules datamodel-code-generator returns, before they are formatted.

Every edit is located through the module's syntax tree, never by searching text:

* each class whose schema says more than its field types gets its validator method
  (:mod:`codegen.generate.models.checks.validators`), and the module the predicates it calls, with
  the imports they need;
* ``StrictInt`` becomes ``JsonInt`` and ``StrictFloat`` becomes ``JsonNumber`` (both from the
  generated ``_types`` module), in field annotations, aliases and class bases alike. JSON
  Schema's ``integer`` accepts ``1.0``, which ``StrictInt`` refuses; its ``number`` keeps
  integers exact, which ``StrictFloat`` would round to a float;
* every model's configuration says ``defer_build=True``: Pydantic builds its validator on
  first use, not when its module is imported; and ``serialize_by_alias=True`` where a field's
  JSON name is not its Python name, so that every dump writes the JSON names, and
  ``protected_namespaces=()`` where a field's name starts as pydantic's methods do;
* an enumeration a field's default names moves above the class of that field.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator, Mapping

from codegen.core.errors import CodegenError, Location
from codegen.generate.models.checks.predicate_runtime import ANNEX_B
from codegen.generate.models.checks.validators import ModuleChecks
from codegen.generate.models.types.fields import (
    TYPES_MODULE,
    add_imports,
    json_name,
    validate_default_keywords,
    validates_default,
)

__all__ = ["TYPES_MODULE", "edit_module", "hoist_enums", "is_enum"]

_CHECK_IMPORTS = ("from pydantic_core import PydanticCustomError",)
# The asserted formats typed (formats = "assert"): the package's types that keep the text.
_FORMAT_TYPES = {"UUID": "JsonUUID", "IPv4Address": "JsonIPv4Address",
                 "IPv6Address": "JsonIPv6Address"}  # fmt: skip
_RENAMES = {"StrictInt": "JsonInt", "StrictFloat": "JsonNumber", **_FORMAT_TYPES}
# draft-04's integer is a number written without a fraction: 1.0 is none, as StrictInt says.
_STRICT_INTEGERS = {"StrictFloat": "JsonNumber", **_FORMAT_TYPES}
_RENAMED_FROM = ("pydantic", "uuid", "ipaddress")  # the modules the renamed names come from
_ENUMS = frozenset({"Enum", "StrEnum", "IntEnum"})
_PROTECTED = ("model_validate", "model_dump")  # pydantic's protected_namespaces by default


def is_enum(node: ast.ClassDef) -> bool:
    """Whether a generated class is an enumeration (a base named ``Enum``, ``StrEnum``...)."""
    return any(isinstance(b, ast.Name) and b.id in _ENUMS for b in node.bases)


def edit_module(
    code: str,
    checks: ModuleChecks,
    depth: int,
    where: Location,
    *,
    strict_integers: bool = False,
    tuples: Mapping[str, Mapping[str, str]] | None = None,
) -> tuple[str, str]:
    """Insert each validator into its class, rename ``StrictInt`` / ``StrictFloat`` and defer
    every model's build: one parse, every edit applied from the bottom up. Returns the module
    and, apart, the predicates that go after its classes (``""`` when none): the later edits
    read the classes only, and a parse of a large schema's predicates would be most of the
    memory a generation takes. ``tuples``: class name -> JSON names of the fields that
    :func:`~codegen.generate.models.types.fields.use_tuples` types later."""
    tree = ast.parse(code)
    lines = code.split("\n")
    imports: list[str] = []
    # (line, order, edit): applied in descending line order, so no edit moves another's line.
    edits: list[tuple[int, int, Callable[[], None]]] = []
    tail = ""
    if checks.functions:
        tail = "\n\n\n# The predicates the validators call: JSON Schema, compiled.\n\n"
        if "_AnnexB(" in checks.functions:  # a pattern read without the u flag: its class
            tail += ANNEX_B + "\n\n"
            imports.append("import regress")
        tail += checks.functions
        imports.append("from typing import Any")
    edits += _empty_defaults(tree, lines)
    for owner, call in _config_calls(tree):
        row, aliased = call.end_lineno or call.lineno, _aliased(owner)
        protected = _protected(owner)
        edits.append((row, 0, functools.partial(_defer_build, lines, call, aliased, protected)))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    written = [checks.functions]  # the names the methods chosen use, for the imports
    for check in checks.classes:
        node = classes.get(check.class_name)
        if node is None or node.end_lineno is None:
            raise CodegenError(f"generated code lacks class {check.class_name}", where)
        if is_enum(node):
            # an Enum would ignore the validator: the skeleton must never make one here
            raise CodegenError(f"generated class {check.class_name} is an Enum", where)
        chosen = check.lines_for(node, frozenset((tuples or {}).get(check.class_name, {})))
        written += chosen
        method = ["", *("    " + line if line else "" for line in chosen)]
        edits.append(
            (node.end_lineno, 1, functools.partial(_insert, lines, node.end_lineno, method))
        )
    if checks.classes:
        imports += _CHECK_IMPORTS
    chosen_text = "\n".join(written)
    signatures = [n for n in checks.pydantic if re.search(rf"\b{n}\b", chosen_text)]
    # A wrap validator's signature, an after validator's info, or its view built in place.
    imports += _signature_imports(signatures, chosen_text)
    helpers = sorted(n for n in checks.helpers if re.search(rf"\b{n}\b", chosen_text))
    renames = _STRICT_INTEGERS if strict_integers else _RENAMES
    renamed = [n for n in _type_names(tree) if n.id in renames]
    for name in renamed:
        edits.append((name.lineno, 2, functools.partial(_rename, lines, name)))
    if renamed:
        helpers = sorted({*helpers, *(renames[n.id] for n in renamed)})
        for statement in tree.body:
            if isinstance(statement, ast.ImportFrom) and statement.module in _RENAMED_FROM:
                kept = [alias for alias in statement.names if alias.name not in renames]
                if len(kept) != len(statement.names):
                    first, last = statement.lineno, statement.end_lineno or statement.lineno
                    text = [ast.unparse(ast.ImportFrom(statement.module, kept, 0))] if kept else []
                    edits.append((first, 3, functools.partial(_replace, lines, first, last, text)))
    if helpers:
        imports.append(f"from {'.' * depth}{TYPES_MODULE} import {', '.join(helpers)}")
    for _, _, edit in sorted(edits, key=lambda item: (-item[0], item[1])):
        edit()
    if imports:
        add_imports(lines, imports)
    return "\n".join(lines), tail


def _empty_defaults(
    tree: ast.Module, lines: list[str]
) -> list[tuple[int, int, Callable[[], None]]]:
    """The edits that take ``validate_default=True`` off a field whose default is an empty
    array or object (each instance would validate it, to the same empty value)."""
    found: list[tuple[int, int, Callable[[], None]]] = []
    for node in tree.body:
        for field in node.body if isinstance(node, ast.ClassDef) else []:
            if isinstance(field, ast.AnnAssign) and not validates_default(field):
                for keyword in validate_default_keywords(field):
                    row = keyword.lineno - 1
                    found.append((keyword.lineno, 0, functools.partial(_unkeyword, lines, row)))
    return found


def _unkeyword(lines: list[str], row: int) -> None:
    """``validate_default=True`` off the line ``row`` (the line itself when it is alone)."""
    if lines[row].strip() in ("validate_default=True,", "validate_default=True"):
        del lines[row]
        return
    for written in (", validate_default=True", "validate_default=True, ", "validate_default=True"):
        if written in lines[row]:
            lines[row] = lines[row].replace(written, "", 1)
            return


def _signature_imports(signatures: list[str], text: str) -> list[str]:
    """The imports the validators' signatures and views (``text``) need."""
    found = [f"from pydantic import {', '.join(signatures)}"] if signatures else []
    if re.search(r"\bSelf\b", text):  # a model validator's
        found.append("from typing import Self")
    if signatures or "dict[str, Any]" in text:
        found.append("from typing import Any")
    return found


def _insert(lines: list[str], after: int, new: list[str]) -> None:
    lines[after:after] = new


def _replace(lines: list[str], first: int, last: int, new: list[str]) -> None:
    lines[first - 1 : last] = new


def _rename(lines: list[str], node: ast.Name) -> None:
    raw = lines[node.lineno - 1].encode("utf-8")  # offsets count UTF-8 bytes
    start, end = node.col_offset, node.end_col_offset or node.col_offset
    lines[node.lineno - 1] = (raw[:start] + _RENAMES[node.id].encode() + raw[end:]).decode()


def hoist_enums(code: str, tree: ast.Module | None = None) -> str:
    """Move each enumeration that a field's default names (``status: Status = Status.A``)
    above the first class whose default names it: a default is evaluated when its class is
    created, unlike an annotation. An enumeration names no other class, so it can go first
    (``code`` itself when none moves). ``tree``: its classes, by name."""
    tree = tree or ast.parse(code)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    enums = {node.name: index for index, node in enumerate(classes) if is_enum(node)}
    first_user: dict[str, int] = {}
    for index, node in enumerate(classes):
        defaults = [s.value for s in node.body if isinstance(s, ast.AnnAssign) and s.value]
        for name in (n.id for d in defaults for n in ast.walk(d) if isinstance(n, ast.Name)):
            if enums.get(name, -1) > index:
                first_user.setdefault(name, index)
    if not first_user:
        return code
    # ``tree`` may predate edits that kept every name but not every line: spans read afresh.
    lines = code.split("\n")
    fresh = [node for node in ast.parse(code).body if isinstance(node, ast.ClassDef)]
    spans = [(n.lineno - 1, n.end_lineno or n.lineno) for n in fresh]
    moved = {enums[name] for name in first_user}
    out = lines[: spans[0][0]]
    for index, (start, end) in enumerate(spans):
        for name in sorted(first_user, key=lambda n: enums[n]):
            if first_user[name] == index:
                first, last = spans[enums[name]]
                out += [*lines[first:last], "", ""]
        after = spans[index + 1][0] if index + 1 < len(spans) else len(lines)
        out += lines[end:after] if index in moved else lines[start:after]
    return "\n".join(out)


def _aliased(node: ast.ClassDef) -> bool:
    """Whether a class has a field whose JSON name is not its Python name."""
    return any(
        isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        and json_name(s) != s.target.id for s in node.body
    )  # fmt: skip


def _config_calls(tree: ast.Module) -> Iterator[tuple[ast.ClassDef, ast.Call]]:
    """Each class with the ``ConfigDict(...)`` call of its ``model_config``."""
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
                yield node, statement.value


def _protected(node: ast.ClassDef) -> bool:
    """Whether a field's Python name starts as pydantic's own methods do (``model_dump_`` for
    a property ``model_dump``): pydantic warns of such a field unless told otherwise."""
    return any(
        isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        and s.target.id.startswith(_PROTECTED) for s in node.body
    )  # fmt: skip


def _defer_build(lines: list[str], call: ast.Call, aliased: bool, protected: bool) -> None:
    """Add ``defer_build=True`` to a ``ConfigDict(...)`` call, before its closing parenthesis,
    ``serialize_by_alias=True`` to a class with aliased fields (every dump, also
    ``model_dump_json()``, then writes the JSON names the schema knows) and
    ``protected_namespaces=()`` to a class with a field :func:`_protected` finds."""
    row, end = (call.end_lineno or call.lineno) - 1, (call.end_col_offset or 1) - 1  # ")"
    items = [*call.args, *(k.value for k in call.keywords)]
    added = "defer_build=True, serialize_by_alias=True" if aliased else "defer_build=True"
    added += ", protected_namespaces=()" if protected else ""
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

    Calls (``Field(...)``) and constants hold no types and are not entered (but the type of a
    ``TypeAliasType``), which keeps this cheap on modules with long descriptions.
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
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "TypeAliasType"
        ):
            pending.extend(node.args[1:])  # TypeAliasType("Name", type): the type
        elif not isinstance(node, ast.Call | ast.Constant):
            pending.extend(ast.iter_child_nodes(node))
