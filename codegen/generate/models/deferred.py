"""Deferred references: every class of a module whose classes nest deeply is built alone.

Pydantic builds a model's validator with every model it reaches inside it, recursing through
each one not yet built: as deep as the longest chain of classes, each naming the next, that it
walks. In a module of a few hundred definitions that reference each other (as the
configuration schemas of CI systems do), that recursion passes Python's limit
(``RecursionError`` on import or first use), and each of the N validators holds the whole
graph: time and memory grow as N squared.

So, in a module where a chain of more than :data:`DEPTH` classes may be walked (bounded by the
longest path through its groups of classes that reach each other, each group counting all its
classes), every field type that names a class of the module names it through ``_Deferred``:
the field is validated, when a document reaches it, by that class's own validator. Each
class's validator then holds its own fields only. What a document decides is unchanged: the
nested value is the same Python value the field would have been given (a document read as
JSON is validated as the Python value JSON parsing gives, where every generated type decides
as in JSON), the nested errors keep their locations (labelled by the class's name in a union),
and an instance of the class is kept as it is; below a field of a validation in JSON mode,
the classes' validators read the values as parsed (``_validate_parsed``), as in JSON mode.
The validation's ``context`` is passed on; its ``strict`` and ``from_attributes`` flags are
not (pydantic shows a validator neither). A
tagged union's ``discriminator`` is dropped: its branches exclude each other by the tag, so
the plain union of them holds exactly when the tagged one does. ``model_json_schema()``
refuses such a field (a contract's JSON Schema is its schema file). Other modules, however
many classes they hold, are written as before, byte for byte, and validate faster: a deferred
field costs a call of Python per value (and reads its value in Python mode).

Classes of different modules are still built together: the files of a tree that reference
each other in a circle share one module, so only a chain of files hundreds long, each
referencing the next, could still pass the limit.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from codegen.core.errors import Location
from codegen.core.graphs import components
from codegen.generate.models.postprocess import is_enum
from codegen.generate.models.types.fields import (
    TYPES_MODULE,
    add_imports,
    json_name,
    rewrite_fields,
)

__all__ = ["DEPTH", "defer_references"]

# Pydantic spends about 17 frames on each class it recurses into: a chain of 24 classes (a
# field of each an optional list of the next) builds at a recursion limit of 425, well under
# Python's default of 1,000 wherever a module is first used.
DEPTH = 24
_NAME = "_Deferred"
# Imported as modules under private names: a generated class may be called Tag or Any.
_IMPORTS = (
    "import typing as _typing",
    "import pydantic as _pydantic",
    "import pydantic_core as _pydantic_core",
)
_HELPER = f'''

class _Defer:
    """A field type naming a class of this module, validated by that class's own validator
    when a document reaches it: pydantic builds each class of this large module alone."""

    def __get_pydantic_core_schema__(
        self, source: _typing.Any, handler: _pydantic.GetCoreSchemaHandler
    ) -> _pydantic_core.CoreSchema:
        def validate(value: _typing.Any, info: _pydantic.ValidationInfo) -> _typing.Any:
            return _validate_parsed(source.__pydantic_validator__, value, info)

        schema = _pydantic_core.core_schema.with_info_plain_validator_function(validate)
        # Labelled by the class's name in a union, as the class itself would be.
        inner = _typing.cast(_pydantic.GetCoreSchemaHandler, lambda _: schema)
        return _pydantic.Tag(source.__name__).__get_pydantic_core_schema__(source, inner)

    def __get_pydantic_json_schema__(
        self, schema: _pydantic_core.CoreSchema, handler: _pydantic.GetJsonSchemaHandler
    ) -> _typing.Any:
        raise _pydantic.PydanticInvalidForJsonSchema(
            "a deferred reference has no JSON Schema of its own: the contract's JSON Schema "
            "is the schema file it was generated from"
        )


_T = _typing.TypeVar("_T")
{_NAME} = _typing.Annotated[_T, _Defer()]
'''


def defer_references(code: str, tree: ast.Module, where: Location, depth: int) -> str:
    """``code`` with its references deferred when a chain of more than :data:`DEPTH`
    classes may be walked, else ``code`` itself. ``tree``: the names of ``code``'s classes and
    of their fields' types (positions need not match: the module is parsed again to edit).
    ``depth``: the module's package depth (where the package's ``_types`` is)."""
    graph = _class_graph(tree)
    if chain_bound(graph) <= DEPTH:
        return code
    fields = {
        node.name: [json_name(s) for s in node.body if isinstance(s, ast.AnnAssign)]
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name in graph
    }

    deferring = _Deferring(graph)

    def rewrite(owner: str, statement: ast.AnnAssign, name: str) -> None:
        statement.annotation = deferring.visit(statement.annotation)

    lines = rewrite_fields(code, {k: v for k, v in fields.items() if v}, rewrite, where)
    first = next(i for i, line in enumerate(lines) if line.startswith("class "))
    lines[first:first] = [*_HELPER.split("\n")[1:], ""]
    add_imports(lines, [*_IMPORTS, f"from {'.' * depth}{TYPES_MODULE} import _validate_parsed"])
    return "\n".join(lines)


def _class_graph(tree: ast.Module) -> dict[str, set[str]]:
    """Each model class (not an enumeration) -> the model classes its bases and its fields'
    types name (not its fields' ``Field()`` arguments)."""
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and not is_enum(node)]
    names = {node.name for node in classes}
    graph: dict[str, set[str]] = {}
    for node in classes:
        types = [s.annotation for s in node.body if isinstance(s, ast.AnnAssign)]
        named = {n.id for t in [*node.bases, *types] for n in _type_names(t)}
        graph[node.name] = named & names
    return graph


def _type_names(node: ast.expr) -> Iterable[ast.Name]:
    """The names in a type, not in the calls among its metadata (``Field(...)``)."""
    if isinstance(node, ast.Name):
        yield node
    elif not isinstance(node, ast.Call):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                yield from _type_names(child)


def chain_bound(graph: Mapping[str, set[str]]) -> int:
    """An upper bound of the longest chain of distinct classes, each naming the next: the
    longest path through the graph's strongly connected components, each weighing its size
    (a component comes after every one it leads to, so their weights are known)."""
    component: dict[str, int] = {}
    weight: list[int] = []  # per component: its size plus the heaviest path it leads to
    for members in components(sorted(graph), {n: sorted(graph[n]) for n in graph}):
        for member in members:
            component[member] = len(weight)
        after = {component[s] for m in members for s in graph[m]} - {len(weight)}
        weight.append(len(members) + max((weight[c] for c in after), default=0))
    return max(weight, default=0)


class _Deferring(ast.NodeTransformer):
    """Each class of the graph named in a type -> ``_Deferred[Class]``; a ``Field()``'s
    ``discriminator`` dropped."""

    def __init__(self, graph: Mapping[str, set[str]]) -> None:
        self.graph = graph

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id not in self.graph:
            return node
        return ast.Subscript(ast.Name(_NAME, ast.Load()), node, ast.Load())

    def visit_Call(self, node: ast.Call) -> ast.expr:
        node.keywords = [k for k in node.keywords if k.arg != "discriminator"]
        return node
