"""Find the cross-field rules written in a schema object, and their messages.

A rule is a root-level ``if``/``then``/``else``, each ``dependentRequired`` and
``dependentSchemas`` entry, and every ``allOf`` entry that is not a base (an entry holding only
a ``$ref``, and annotations). The generated validators check each rule on its own
(:mod:`codegen.generate.models.checks.validators`) and raise its ``description`` as the error
message; the catalog lists them (:mod:`codegen.generate.consumers.docs`); lint and the breaking
check compare them.
"""

from __future__ import annotations

from typing import Any

from codegen.core.jsonpos import escape_pointer, pointer_tokens

__all__ = ["find_rules", "is_base", "rule_message", "rule_messages"]

_BASE_KEYS = frozenset({"$ref", "description", "$comment"})


def is_base(entry: Any) -> bool:
    """Whether an ``allOf`` entry names a base to extend: a ``$ref`` and nothing more."""
    return isinstance(entry, dict) and "$ref" in entry and set(entry) <= _BASE_KEYS


def find_rules(data: dict[str, Any]) -> list[tuple[str, Any]]:
    """The rules written in a schema object: ``(pointer, rule schema applied to the object)``."""
    found: list[tuple[str, Any]] = []
    if any(key in data for key in ("if", "then", "else")):
        found.append(("", {k: data[k] for k in ("if", "then", "else") if k in data}))
    for key in ("dependentRequired", "dependentSchemas"):
        entries = data.get(key)
        for name, value in (entries if isinstance(entries, dict) else {}).items():
            found.append((f"/{key}/{escape_pointer(name)}", {key: {name: value}}))
    entries = data.get("allOf")
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        if not is_base(entry):
            found.append((f"/allOf/{index}", entry))
    return found


def rule_message(pointer: str, rule: Any, data: dict[str, Any], *, shown: str | None = None) -> str:
    """The message of the rule at ``pointer`` (relative to ``data``): its description.
    ``shown``: the pointer as the file writes it (``/dependencies/a`` in a draft-07 file for the
    internal ``/dependentRequired/a``), named in a message without description."""
    shown = pointer if shown is None else shown
    if pointer.startswith("/dependent"):
        name = pointer_tokens(pointer)[-1]
        return f"when {name} is present, the rule at {shown} must hold"
    source = data if pointer == "" else rule
    if isinstance(source, dict) and isinstance(source.get("description"), str):
        return str(source["description"])
    return f"the object must satisfy the rule at {shown or '/'}"


def rule_messages(data: dict[str, Any]) -> tuple[str, ...]:
    """The messages of every rule of ``data``, in order."""
    return tuple(rule_message(pointer, rule, data) for pointer, rule in find_rules(data))
