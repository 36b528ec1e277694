"""Helpers to judge documents with jsonschema and with generated models side by side."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pydantic
from referencing import Registry, Resource

from codegen.core.loader import SchemaTree, load_tree
from codegen.generate.rules import find_rules

_MISSING = object()


def registry_of(tree: SchemaTree) -> Registry[Any]:
    """A referencing registry holding every schema file under its file URI and its $id."""
    resources = []
    for schema in tree.files:
        resource = Resource.from_contents(schema.data)
        resources.append((schema.path.resolve().as_uri(), resource))
    return Registry().with_resources(resources)


def validator_for(tree: SchemaTree, title: str) -> jsonschema.protocols.Validator:
    """A draft 2020-12 validator of contract ``title``, resolving relative refs by file."""
    schema = tree.by_title[title]
    document = {"$ref": schema.path.resolve().as_uri()}
    return jsonschema.Draft202012Validator(document, registry=registry_of(tree))


def model_accepts(model: type[Any], document: Any) -> tuple[bool, bool]:
    """Whether ``model`` accepts ``document`` from JSON text and from Python data."""
    verdicts = []
    for run in (
        lambda: model.model_validate_json(json.dumps(document)),
        lambda: model.model_validate(copy.deepcopy(document)),
    ):
        try:
            run()
        except pydantic.ValidationError:
            verdicts.append(False)
        else:
            verdicts.append(True)
    return verdicts[0], verdicts[1]


def rule_properties(data: dict[str, Any]) -> set[str]:
    """Every property named anywhere in the rules of ``data`` (a contract or its bases)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            names.update(node.get("required", []) if isinstance(node.get("required"), list) else [])
            if isinstance(node.get("properties"), dict):
                names.update(node["properties"])
            for key in ("dependentRequired", "dependentSchemas"):
                if isinstance(node.get(key), dict):
                    names.update(node[key])
                    for value in node[key].values():
                        if isinstance(value, list):
                            names.update(value)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for _, rule in find_rules(data):
        walk(rule)
    return names


def _constants(node: Any) -> list[Any]:
    found: list[Any] = []
    if isinstance(node, dict):
        if "const" in node:
            found.append(node["const"])
        found.extend(node.get("enum", []) if isinstance(node.get("enum"), list) else [])
        for value in node.values():
            found.extend(_constants(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_constants(value))
    return found


def rules_with_bases(tree: SchemaTree, title: str) -> dict[str, Any]:
    """A pseudo-document whose ``allOf`` holds the rules of a contract and of its bases."""
    schema = tree.by_title[title]
    rules = [rule for _, rule in find_rules(schema.data)]
    for entry in schema.data.get("allOf") or []:
        if isinstance(entry, dict) and "$ref" in entry:
            base = tree.resolve(schema, entry["$ref"])[0]
            rules += rules_with_bases(tree, base.title)["allOf"]
    return {"allOf": rules}


def candidate_values(data: dict[str, Any], examples: list[Any], name: str) -> list[Any]:
    """Values worth trying for property ``name``: absent, rule constants, edge values."""
    values: list[Any] = [_MISSING, None, "", "x", "some text", True, False, 0, 1, [], {}]
    values += [d[name] for d in examples if isinstance(d, dict) and name in d]
    values += [c for _, rule in find_rules(data) for c in _constants(rule)]
    for document in examples:
        for value in document.values() if isinstance(document, dict) else ():
            if isinstance(value, list) and value:
                values.append(value[:1])
    unique: list[Any] = []
    for value in values:
        if not any(value is u or (type(value) is type(u) and value == u) for u in unique):
            unique.append(value)
    return unique


def mutations(data: dict[str, Any], examples: list[Any]) -> Iterator[dict[str, Any]]:
    """Every example with each pair of rule properties set to each pair of candidate values."""
    names = sorted(rule_properties(data))
    options = {name: candidate_values(data, examples, name) for name in names}
    for example in examples:
        if not isinstance(example, dict):
            continue
        for first, second in itertools.combinations_with_replacement(names, 2):
            for a in options[first]:
                for b in options[second] if second != first else [_MISSING]:
                    document = copy.deepcopy(example)
                    for name, value in ((first, a), (second, b)):
                        if value is _MISSING:
                            document.pop(name, None)
                        elif not (name == second and second == first):
                            document[name] = copy.deepcopy(value)
                    if first == second and a is not _MISSING:
                        document[first] = copy.deepcopy(a)
                    yield document


def load(root: Path) -> SchemaTree:
    return load_tree(root)
