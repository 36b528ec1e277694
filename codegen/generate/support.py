"""Refuse every schema construct the generator cannot reproduce faithfully.

datamodel-code-generator silently ignores keywords it does not understand, and Pydantic
cannot express some of those it does (``oneOf``'s "exactly one", ECMA-262 ``pattern``...).
A contract that says more than the generated model enforces would let Python accept what
TypeScript or the Claude CLI reject, so each such construct is an error naming the file, the
JSON pointer and the keyword. Cross-field rules (``if``/``then``/``else``, ``allOf`` rule
entries, ``dependentRequired``, ``dependentSchemas``) are checked by :mod:`codegen.generate.rules`.
"""

from __future__ import annotations

from typing import Any

from codegen.core.errors import SchemaError
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile

__all__ = ["RULE_KEYWORDS", "check_supported"]

ANNOTATIONS = frozenset({"$comment", "title", "description", "examples", "default", "deprecated"})
TYPE_KEYWORDS = frozenset(
    {
        "type", "enum", "const", "properties", "required", "additionalProperties", "items",
        "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "$ref", "$defs", "anyOf",
    }
)  # fmt: skip
ROOT_ONLY = frozenset({"$schema", "$id", "allOf", "unevaluatedProperties"})
RULE_KEYWORDS = frozenset({"if", "then", "else", "dependentRequired", "dependentSchemas"})

WHY = {
    "oneOf": "a Python union cannot enforce 'exactly one branch': use anyOf with disjoint branches",
    "not": "negation is only supported inside a cross-field rule",
    "pattern": "regular-expression dialects differ between consumers (ECMA-262 vs Python)",
    "patternProperties": "regular-expression dialects differ between consumers",
    "format": "format checks differ between validators; describe the format instead",
    "uniqueItems": "the generated model would turn the array into a set",
    "readOnly": "it changes how the model is generated (request/response split)",
    "writeOnly": "it changes how the model is generated (request/response split)",
    "prefixItems": "tuple arrays are not part of the supported subset",
    "contains": "not part of the supported subset",
    "propertyNames": "not part of the supported subset",
    "minProperties": "not part of the supported subset",
    "maxProperties": "not part of the supported subset",
    "unevaluatedItems": "not part of the supported subset",
    "$anchor": "anchors are not supported: reference $defs by JSON pointer",
    "$dynamicRef": "dynamic references are not supported",
    "$dynamicAnchor": "dynamic references are not supported",
    "discriminator": "an OpenAPI keyword the Claude CLI rejects",
}


def _refuse(schema: SchemaFile, pointer: str, keyword: str, why: str) -> SchemaError:
    return SchemaError(
        f"{keyword!r} cannot be reproduced by the generated model: {why}",
        schema.loc(pointer),
        "SUPPORTED_CONSTRUCT",
    )


def check_supported(schema: SchemaFile) -> None:
    """Raise :class:`SchemaError` at the first keyword the generator cannot reproduce."""
    _check_node(schema, schema.data, "", root=True)


def _check_node(schema: SchemaFile, node: Any, pointer: str, *, root: bool = False) -> None:
    if isinstance(node, bool):
        return
    if not isinstance(node, dict):
        raise SchemaError("a schema must be an object or a boolean", schema.loc(pointer), "JSON")
    for key, value in node.items():
        here = f"{pointer}/{escape_pointer(key)}"
        if key in ANNOTATIONS:
            continue
        if key in RULE_KEYWORDS:
            if not root:
                raise _refuse(schema, here, key, "cross-field rules belong at the contract's root")
            continue  # compiled and checked by codegen.generate.rules
        if key in ROOT_ONLY and not root:
            raise _refuse(schema, here, key, "only allowed at the root of a contract")
        if key == "unevaluatedProperties":
            if value is not False or not _has_ref_base(node):
                raise _refuse(
                    schema, here, key,
                    "only 'unevaluatedProperties: false' beside an allOf $ref base is supported",
                )  # fmt: skip
            continue
        if key == "type" and isinstance(value, list):
            _check_type_union(schema, node, here)
        if key not in TYPE_KEYWORDS and key not in ROOT_ONLY:
            why = WHY.get(key) or (
                "extension keywords are not passed to every consumer"
                if key.startswith("x-")
                else "unknown keyword (a typo?)"
            )
            raise _refuse(schema, here, key, why)
        _check_children(schema, key, value, here)
    _check_optional_properties(schema, node, pointer)


_PER_TYPE = frozenset(
    {"minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
     "multipleOf", "minItems", "maxItems", "items"}
)  # fmt: skip


def _check_type_union(schema: SchemaFile, node: dict[str, Any], here: str) -> None:
    kinds = [t for t in node["type"] if t != "null"]
    constrained = sorted(_PER_TYPE & set(node))
    if len(kinds) > 1 and constrained:
        raise _refuse(
            schema, here.rsplit("/", 1)[0] + "/" + constrained[0], constrained[0],
            f"constraints beside the type union {node['type']} would generate untyped "
            "constr()/conint() annotations: drop the constraint or use a single type",
        )  # fmt: skip


def _allows_null(node: Any) -> bool:
    if not isinstance(node, dict):
        return node is True
    kinds = node.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_allows_null(branch) for branch in node.get("anyOf", []))


def _check_optional_properties(schema: SchemaFile, node: dict[str, Any], pointer: str) -> None:
    """An optional property needs a default, or the generated field would accept null."""
    required = node.get("required", [])
    for name, sub in (node.get("properties") or {}).items():
        if name in required or not isinstance(sub, dict) or "default" in sub:
            continue
        if not _allows_null(sub):
            here = f"{pointer}/properties/{escape_pointer(name)}"
            raise SchemaError(
                f"optional property {name!r} has no default: its generated field would default "
                "to None and accept null, which the schema refuses; give it a default (or "
                "allow null, or make it required)",
                schema.loc(here),
                "SUPPORTED_CONSTRUCT",
            )


def _has_ref_base(node: dict[str, Any]) -> bool:
    entries = node.get("allOf")
    return isinstance(entries, list) and any(isinstance(e, dict) and "$ref" in e for e in entries)


def _check_children(schema: SchemaFile, key: str, value: Any, here: str) -> None:
    if key in ("properties", "$defs"):
        if not isinstance(value, dict):
            raise SchemaError(f"{key} must be an object", schema.loc(here), "JSON")
        for name, sub in value.items():
            _check_node(schema, sub, f"{here}/{escape_pointer(name)}")
    elif key in ("items", "additionalProperties"):
        _check_node(schema, value, here)
    elif key == "anyOf":
        for index, sub in enumerate(value):
            _check_node(schema, sub, f"{here}/{index}")
    elif key == "allOf":
        for index, sub in enumerate(value):
            entry = f"{here}/{index}"
            if isinstance(sub, dict) and "$ref" in sub:
                extra = set(sub) - {"$ref", "$comment", "description"}
                if extra:
                    raise _refuse(
                        schema, entry, sorted(extra)[0],
                        "an allOf base entry holds only a $ref; put fields in the contract's "
                        "own properties",
                    )  # fmt: skip
            # Other entries are cross-field rules: codegen.generate.rules checks them.
