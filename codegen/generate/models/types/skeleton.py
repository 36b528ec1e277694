"""Split each schema into what the generated types enforce and what compiled predicates check.

datamodel-code-generator turns a schema into typed Pydantic classes, but it silently drops or
approximates much of JSON Schema. So it is given only a *skeleton* of each file: the keywords
whose Pydantic form decides exactly as JSON Schema does, with strict types:

* ``type`` (one type, a type and ``null``, or a union of types), and per type: ``minLength``
  and ``maxLength`` for strings (code points), the bounds of numbers (below 2**52, where
  Pydantic's comparisons are exact), ``minItems``, ``maxItems`` and ``items`` for arrays,
  and ``properties``, ``required`` (of declared names) and a boolean
  ``additionalProperties`` for objects (every object says whether it is open, so that no
  generated class ever drops unknown keys);
* ``enum`` and ``const`` of strings, not beside ``null`` (the generator makes an ``Enum`` or a
  ``Literal``, which take no length; a class node keeps an ``enum``, or an ``anyOf`` of
  strings, only when nothing else is said there, since an ``Enum`` class takes no
  validator); a ``$ref`` to a file of the schema folder or one of its ``$defs`` entries (a
  reference elsewhere, to a document outside the folder, or in a tree with dynamic references,
  is the predicates'); ``anyOf`` (a union: it holds when a branch holds); a ``oneOf`` whose
  branches are classes told apart by a string ``const`` (a discriminated union; any other
  ``oneOf`` is typed as a union and its matches counted by predicates, unless its branches
  exclude each other (:mod:`~codegen.generate.models.types.exclusive`): then it is an
  ``anyOf``); ``allOf`` entries
  that are only a ``$ref`` (the bases of a class), and ``unevaluatedProperties: false``
  beside them, which closes the subclass;
* an exact ``prefixItems`` array (``items: false``, ``minItems`` its length) of scalars or
  classes, as a ``tuple`` (:mod:`codegen.generate.models.types.fields`); an optional property
  without a default, as a field that defaults to ``pydantic.MISSING``: it carries a mark among its
  ``examples``, by which :mod:`codegen.generate.models.types.fields` finds its field in whatever
  class the generator makes;
* annotations (``title`` on the nodes that are classes only, since the generator makes a class
  of any titled node; ``description``, ``default``, ``examples``, ``deprecated``); a
  property's ``default`` is the field's only where filling it in never makes the schema refuse
  a document it accepted (:mod:`codegen.generate.models.types.defaults`), else the field is
  ``MISSING`` when absent.

Where a keyword's exact form is no type, the skeleton still gives the most specific type that
accepts a superset of what the schema accepts, and keeps nothing there (the predicates check the
node in full): ``properties`` without ``"type": "object"`` (a definition's class is its objects,
and each reference to it the union of the class and the other JSON types, kept when the
definition says nothing of those; inline or at a root, the union itself); ``allOf`` of one
reference alone (that reference); ``additionalProperties`` or ``patternProperties`` schemas of an
object without ``properties`` that say the value of every key (``dict[str, T]``, T the union of
their types); ``prefixItems`` with ``items`` saying the rest, or ``maxItems`` leaving none
(``list[T]``); an ``enum`` or ``const`` of values other than strings (the union of their JSON
types, its strings an ``Enum``); a union of types whose objects say their ``properties`` (arrays
their ``items``), the union with a class (a list) for them; and the types
:mod:`codegen.generate.models.types.skeleton_wider` copies from elsewhere (the target of a
reference into a node that is no definition, the ``allOf`` entry that says most, a property's
type in the branches or in another ``allOf`` entry, the classes of an object's branches).

A class node that may be an object or null keeps only its type (a class is never null), and
a nullable object without ``properties`` leaves ``additionalProperties: false`` to the
predicates (the generator types it ``dict | None``, open).

Every other keyword is left out of the skeleton, whose types then accept a superset of what the
schema accepts, and is checked after validation by
:mod:`codegen.generate.models.checks.predicates`, which skips exactly the keywords recorded here as
*kept* at each node.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.core.tree import objects_class
from codegen.generate.models.types.defaults import DefaultRule
from codegen.generate.models.types.exclusive import exclusive_branches
from codegen.generate.models.types.skeleton_data import Skeleton
from codegen.generate.models.types.skeleton_shapes import ANNOTATIONS, types
from codegen.generate.models.types.skeleton_types import TypedShapes

__all__ = ["Skeleton", "build_skeleton"]


def build_skeleton(tree: SchemaTree, files: Sequence[SchemaFile] | None = None) -> Skeleton:
    """The skeleton of ``files`` (which hold every file they reference), by default of every
    file of ``tree``."""
    files = tree.files if files is None else files
    skeleton = Skeleton()
    for schema in files:
        rel = schema.rel.as_posix()
        skeleton.classes.update((rel, pointer) for pointer in schema.classes)
    defaults = DefaultRule(tree)
    for schema in files:
        rel = schema.rel.as_posix()
        stripper = _Stripper(tree, schema, skeleton, defaults)
        document = stripper.node(schema.data, "")
        skeleton.documents[rel] = document if isinstance(document, dict) else {}
    return skeleton


class _Stripper(TypedShapes):
    def __init__(
        self, tree: SchemaTree, schema: SchemaFile, skeleton: Skeleton, defaults: DefaultRule
    ) -> None:
        self.tree = tree
        self.schema = schema
        self.rel = schema.rel.as_posix()
        self.skeleton = skeleton
        self.defaults = defaults
        self.refusing_null: dict[tuple[str, str], bool] = {}
        self.originals: dict[
            str, str
        ] = {}  # each reference as the generator reads it -> as written
        self.inlining: set[str] = set()  # the targets of references being copied in place
        self.copies: dict[str, dict[str, Any]] = {}  # each target's copy (TypedShapes.copied)
        self.beside: dict[str, dict[str, tuple[Any, str]]] = {}  # WiderShapes.declared_beside

    def node(self, node: Any, pointer: str) -> Any:
        if not isinstance(node, dict):
            return {}  # true and false: any value; the predicates refuse what false refuses
        # A title names a class: the generator makes one of any titled node, so a class node's
        # title is its class name and no other node keeps one.
        name = (
            self.schema.classes.get(pointer)
            if (self.rel, pointer) in self.skeleton.classes
            else None
        )
        # ``default`` and ``deprecated`` are a field's only: a root model's default makes the
        # generator's type nullable, and pydantic's deprecated root cannot be set (validating
        # one raises).
        field = pointer.rpartition("/")[0].endswith("/properties")
        out = {
            k: name if k == "title" else node[k]
            for k in ANNOTATIONS
            if (k in node or (k == "title" and name))
            and (k != "$id" or not pointer)
            and (k != "title" or name)
            and (k not in ("default", "deprecated") or field)
        }
        _format_said(node, out, self.tree.asserts_formats)
        kept: set[str] = set()
        defs = node.get("$defs")
        if isinstance(defs, dict):
            keys = self.skeleton.defs_keys(self.schema) if not pointer else {}
            out["$defs"] = {
                keys.get(name, name): self.node(sub, f"{pointer}/$defs/{escape_pointer(name)}")
                for name, sub in defs.items()
            }
        if isinstance(node.get("$ref"), str) and self.typed_ref(node["$ref"]):
            self.reference(node["$ref"], out, kept)
        elif self.single_base(node) and self.typed_ref(node["allOf"][0]["$ref"]):
            # ``allOf`` of one reference and nothing else: that reference's type, kept at the
            # entry (the predicates then skip the class, which validates itself).
            entry: set[str] = set()
            self.reference(node["allOf"][0]["$ref"], out, entry)
            self.skeleton.kept[(self.rel, f"{pointer}/allOf/0")] = frozenset(entry)
        elif types(node) is not None:
            self.typed(node, pointer, out, kept)
        elif isinstance(node.get("$ref"), str):
            # A reference the skeleton keeps no class for (into a node of this file that is no
            # definition): the target's type, copied in place; nothing is kept (the predicates
            # check the reference in full).
            out.update(self.copied(node["$ref"]))
        elif objects_class(node):
            self.objects(node, pointer, out, kept)
        elif self.several_entries(node):
            # ``allOf`` of several entries: the type of the one that says most (a superset of
            # what they all accept); the predicates check the node in full.
            self.best_entry(node, pointer, out)
        elif isinstance(node.get("anyOf"), list) and not self.enum_class(node, pointer, "anyOf"):
            out["anyOf"] = _flat(
                [self.node(sub, f"{pointer}/anyOf/{i}") for i, sub in enumerate(node["anyOf"])]
            )
            kept.add("anyOf")
        elif isinstance(node.get("oneOf"), list) and not self.enum_class(node, pointer, "oneOf"):
            self.one_of(node, pointer, out, kept)
        elif isinstance(node.get("const"), str):
            out["const"] = node["const"]
            kept.add("const")
        elif self.string_enum(node) and self.enum_alone(node, pointer):
            out["type"] = "string"
            out.update(self.enum_said(node, pointer))
            kept.add("enum")
        elif self.values_types(node) is not None:
            # An enum or const of other values than strings: the union of their JSON types (a
            # string enum of its strings), a superset the predicates narrow. A class node is
            # never an Enum class (which takes no validator): its strings are strings.
            said = self.values_types(node) or {}
            if "enum" in said and (self.rel, pointer) in self.skeleton.classes:
                said = {"type": "string"}
            out.update(said)
        self.skeleton.kept[(self.rel, pointer)] = frozenset(kept)
        return out

    def one_of(
        self, node: dict[str, Any], pointer: str, out: dict[str, Any], kept: set[str]
    ) -> None:
        branches = node["oneOf"]
        stripped = [self.node(sub, f"{pointer}/oneOf/{i}") for i, sub in enumerate(branches)]
        tag = self.tag(branches)
        if tag is None:
            out["anyOf"] = _flat(stripped)  # a union types it; predicates count matches
            if exclusive_branches(self.tree, self.schema, pointer):
                # No value satisfies two branches: the union holds exactly when one does
                # (the predicates check the branches only where one says more).
                kept.add("oneOf")
        else:
            # A tagged union: the branches exclude each other, so a discriminated union of
            # their classes holds exactly when one branch does.
            out["oneOf"], out["discriminator"] = stripped, {"propertyName": tag}
            kept.add("oneOf")


def _format_said(node: dict[str, Any], out: dict[str, Any], asserted: bool) -> None:
    """The format, in the description: an annotation the type does not say."""
    if not isinstance(node.get("format"), str):
        return
    said = f"Format: {node['format']}" + (" (asserted)." if asserted else ".")
    out["description"] = f"{node['description']} {said}" if "description" in out else said


def _flat(branches: list[Any]) -> list[Any]:
    """A union's branches with each branch that is only a union replaced by its members, and
    each member once (the same union, written once)."""
    members: list[Any] = []
    for branch in branches:
        alone = isinstance(branch, dict) and set(branch) == {"anyOf"}
        inner = branch["anyOf"] if alone else None
        for member in inner if isinstance(inner, list) else [branch]:
            if member not in members:
                members.append(member)
    return members
