"""Derive the structured-output form of a contract from its canonical schema.

The Claude CLI validates an ``output_format`` schema with Ajv (draft-07, strict mode) and the
Anthropic API judges it as draft 2020-12 (see docs/claude-cli-structured-output.md), without
our files. So the form is one self-contained object schema in the vocabulary both accept:

* every referenced file, and every ``$defs`` entry of any file, becomes one entry of a single
  top-level ``$defs`` (named by its title), and each ``$ref`` becomes ``#/$defs/<Title>``;
* ``$schema``, ``$id`` and ``$comment`` are dropped (``$schema`` 2020-12 is fatal to the CLI);
* the keywords the CLI's draft-07 Ajv refuses are translated where draft-07 has a form
  (``dependentRequired`` and ``dependentSchemas`` become ``dependencies``) and left out where
  it has none (:data:`LEFT_OUT`), together with any keyword whose meaning they change, so that
  the form is never stricter than the contract: the CLI then accepts a superset of what the
  contract accepts, and the generated model, which enforces everything, decides;
* it must stay well under the 128 KiB a single command-line argument may hold.

Unknown keywords never reach this point: :mod:`codegen.generate.models.checks.support` refuses them.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from codegen.core.errors import SchemaError
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, SchemaTree, iter_subschemas
from codegen.generate.consumers.export_ids import fragment

__all__ = ["LEFT_OUT", "MAX_OUTPUT_SCHEMA_BYTES", "structured_output_schema"]

_DROPPED = ("$schema", "$id", "$comment")
# Keywords the CLI refuses, left out of the form; beside them, the keywords whose draft-07
# reading would be stricter than the contract's (items after prefixItems, contains beside
# minContains) go too.
LEFT_OUT = {
    "unevaluatedProperties": (),
    "unevaluatedItems": (),
    "prefixItems": ("items",),
    "minContains": ("contains", "maxContains"),
    "maxContains": ("contains", "minContains"),
}
# The SDK passes the schema as one argv entry; Linux refuses one over 131072 bytes.
MAX_OUTPUT_SCHEMA_BYTES = 100_000


def structured_output_schema(
    tree: SchemaTree, contract: SchemaFile, *, for_cli: bool = True
) -> dict[str, Any]:
    """The self-contained object schema sent as ``output_format`` for ``contract``.

    ``for_cli=False`` keeps every keyword as it is (the exact form an MCP tool publishes as its
    ``outputSchema``); by default what the Claude CLI refuses is translated or left out.
    """
    if contract.data.get("type") != "object":
        raise SchemaError(
            "an agent's structured output must have an object root (the SDK never validates "
            "another root): wrap it in an object",
            contract.loc("/type"),
            "OBJECT_ROOT",
        )
    names = _names(tree, contract)
    root = _rewrite(tree, contract, names, for_cli=for_cli)
    defs: dict[str, Any] = {}
    for schema in tree.closure(contract):
        for key, entry in (schema.data.get("$defs") or {}).items():
            defs[names[schema.rel.as_posix(), f"/$defs/{escape_pointer(key)}"]] = _rewrite(
                tree, schema, names, entry, for_cli=for_cli
            )
        if schema is not contract:
            defs[names[schema.rel.as_posix(), ""]] = _rewrite(tree, schema, names, for_cli=for_cli)
    if defs:
        root["$defs"] = dict(sorted(defs.items()))
    size = len(json.dumps(root).encode("utf-8"))
    if size > MAX_OUTPUT_SCHEMA_BYTES:
        raise SchemaError(
            f"the structured-output schema of {contract.title} is {size} bytes; the Claude CLI "
            f"takes it as one command-line argument: keep it under {MAX_OUTPUT_SCHEMA_BYTES}",
            contract.loc(),
            "OUTPUT_FORMAT_SIZE",
        )
    return root


def _names(tree: SchemaTree, contract: SchemaFile) -> dict[tuple[str, str], str]:
    """A top-level ``$defs`` name for every file and ``$defs`` entry the contract reaches."""
    names: dict[tuple[str, str], str] = {}
    owners: dict[str, str] = {}
    for schema in tree.closure(contract):
        for pointer in schema.dynamic:
            raise SchemaError(
                "a dynamic reference cannot be written in the self-contained form, which has "
                "one $defs and no resources; the export's documents have it as $ref per scope",
                schema.loc(pointer),
                "OUTPUT_FORMAT",
            )
        own = schema.classes.get("") or schema.title or schema.rel.with_suffix("").as_posix()
        targets = [("", own)] if schema is not contract else []
        for key, entry in (schema.data.get("$defs") or {}).items():
            pointer = f"/$defs/{escape_pointer(key)}"
            title = entry.get("title") if isinstance(entry, dict) else None
            targets.append((pointer, schema.classes.get(pointer) or title or key))
        for pointer, name in targets:
            where = f"{schema.rel}#{pointer}"
            if name in owners:
                raise SchemaError(
                    f"{where} and {owners[name]} would share the name {name!r} in the "
                    "structured-output schema: give one a different title",
                    schema.loc(pointer),
                    "OUTPUT_FORMAT",
                )
            owners[name] = where
            names[schema.rel.as_posix(), pointer] = name
    return names


def _rewrite(
    tree: SchemaTree,
    schema: SchemaFile,
    names: dict[tuple[str, str], str],
    node: Any = None,
    *,
    for_cli: bool = True,
) -> dict[str, Any]:
    document = copy.deepcopy(schema.data if node is None else node)
    for key in (*_DROPPED, "$defs"):
        document.pop(key, None)
    for pointer, sub in iter_subschemas(document):
        ref = sub.get("$ref")
        if not isinstance(ref, str):
            continue
        target, at = tree.resolve(schema, ref)
        if (target.rel.as_posix(), at) not in names and at:
            raise SchemaError(
                f"$ref {ref!r}: only whole files and $defs entries can be referenced",
                schema.loc(pointer),
                "OUTPUT_FORMAT",
            )
        name = names.get((target.rel.as_posix(), at))
        sub["$ref"] = "#" if name is None else fragment(f"/$defs/{escape_pointer(name)}")
    if for_cli:
        for _, sub in list(iter_subschemas(document)):
            _to_draft_7(sub)
    return document


def _to_draft_7(node: dict[str, Any]) -> None:
    """Translate or leave out, in place, what the CLI's draft-07 Ajv refuses."""
    for key, also in LEFT_OUT.items():
        if key in node:
            for other in (key, *also):
                node.pop(other, None)
    dependencies: dict[str, Any] = {}
    dependencies.update(node.pop("dependentRequired", None) or {})
    for name, schema in (node.pop("dependentSchemas", None) or {}).items():
        needed = dependencies.get(name)  # both forms for one name: all of them must hold
        dependencies[name] = schema if needed is None else {"allOf": [{"required": needed}, schema]}
    if dependencies:
        node["dependencies"] = dependencies
