"""The documents of each corpus schema, produced once and stored (tests/corpus/gather.py).

For each file, in this order, at most :data:`REAL` real documents, then :data:`DRAWN` drawn ones,
then one mutation of each (seeded by the file's name):

- real: the package's own documents where it ships some (jsonschema's Swagger 2.0 benchmark
  holds a petstore), and, for a schema of schemas (the metaschemas, the OpenAPI dialects, Ajv's
  secure metaschema), the schemas of the official JSON-Schema-Test-Suite of its draft
  (vendored in tests/json_schema_test_suite/) and of this corpus;
- drawn: ``hypothesis_jsonschema.from_schema`` on the file when it takes it, else a small
  walker that follows the schema's own keywords (``type``, ``properties``, ``required``,
  ``enum``, ``const``, ``items``, ``$ref`` inside the file, a random branch of
  ``anyOf``/``oneOf``). Today the walker draws every file's: hypothesis-jsonschema 0.23.1 raises
  on every schema of the corpus with the hypothesis installed here (6.170: ``'many' object has
  no attribute 'more'`` for any object schema; references to other documents, recursion);
- mutated: a copy of a document with one value, at a random depth, removed, replaced by a
  value of another JSON type, or given an unknown key.

A stored document carries no verdict: python-jsonschema (tests/_corpus.py) decides it.
"""

from __future__ import annotations

import copy
import json
import random
import warnings
from pathlib import Path
from typing import Any

REAL = 15
DRAWN = 10
SUITE = Path(__file__).resolve().parent.parent / "json_schema_test_suite"
# The draft of a metaschema file, by its name's prefix; the suite folder holding its schemas.
SUITE_FOLDERS = {"draft4": "draft4", "draft6": "draft6", "draft7": "draft7",
                 "draft201909": "draft2019-09", "draft202012": "draft2020-12"}  # fmt: skip
# Schemas of schemas outside jsonschema-specifications, and their draft's suite folder.
SCHEMAS_OF_SCHEMAS = {"ajv/json-schema-secure.json": "draft7",
                      "openapi-dialects/oas3.1-metaschema.json": "draft2020-12",
                      "openapi-dialects/oas3.2-dialect-2025-09-17.json": "draft2020-12",
                      "openapi-dialects/oas3.2-meta-2025-09-17.json": "draft2020-12"}  # fmt: skip
OTHER_TYPES: list[Any] = [None, True, 7, 2.5, "text", [], {}]


def _suite_schemas(folder: str, rng: random.Random) -> list[Any]:
    found = []
    for path in sorted((SUITE / folder).glob("*.json")):
        found += [group["schema"] for group in json.loads(path.read_text(encoding="utf-8"))]
    return rng.sample(found, min(REAL, len(found)))


def real_documents(here: Path, rel: str, rng: random.Random) -> tuple[list[Any], str]:
    """The real documents of ``rel`` and where they come from."""
    source, name = rel.split("/")
    folder = SCHEMAS_OF_SCHEMAS.get(rel)
    if source == "jsonschema-metaschemas":
        folder = SUITE_FOLDERS[name.split("-")[0].removesuffix(".json")]
    if folder is not None:
        own = [json.loads(p.read_text()) for p in sorted((here / "schemas").rglob("*.json"))]
        picked = _suite_schemas(folder, rng) + rng.sample(own, 3)
        return picked, f"schemas of the JSON-Schema-Test-Suite ({folder}) and of this corpus"
    if rel in ("swagger/swagger-2.0.json", "openapi/v2.0.json"):
        site = Path(__import__("jsonschema").__file__).parent
        issue = json.loads((site / "benchmarks/issue232/issue.json").read_text())
        found = [test["data"] for group in issue for test in group["tests"]]
        return found[:REAL], "jsonschema's benchmark documents (benchmarks/issue232: a petstore)"
    return [], ""


def _walk(schema: Any, root: Any, rng: random.Random, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > 6:
        return rng.choice(OTHER_TYPES)
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for raw in ref[2:].split("/"):
            token = raw.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        return _walk(target, root, rng, depth + 1)
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return copy.deepcopy(rng.choice(schema["enum"]))
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return _walk(rng.choice(schema[key]), root, rng, depth + 1)
    if isinstance(schema.get("allOf"), list) and schema["allOf"] and "type" not in schema:
        return _walk(schema["allOf"][0], root, rng, depth + 1)
    kind = schema.get("type")
    kind = rng.choice(kind) if isinstance(kind, list) and kind else kind
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [r for r in schema.get("required", []) if isinstance(r, str)]
        names = required + [n for n in properties if n not in required and rng.random() < 0.5]
        return {n: _walk(properties.get(n, {}), root, rng, depth + 1) for n in names}
    if kind == "array":
        items = schema.get("items", {})
        return [_walk(items, root, rng, depth + 1) for _ in range(rng.randint(0, 2))]
    simple = {"string": "text", "integer": 3, "number": 1.5, "boolean": False, "null": None}
    return simple.get(kind, rng.choice(OTHER_TYPES)) if isinstance(kind, str) else "text"


def drawn_documents(schema: Any, seed: int) -> tuple[list[Any], str]:
    """Documents drawn from ``schema`` by hypothesis-jsonschema, else by :func:`_walk`."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis_jsonschema import from_schema

    found: list[Any] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            strategy = from_schema(schema)

            @settings(max_examples=DRAWN, database=None, derandomize=True, deadline=None,
                      suppress_health_check=list(HealthCheck))  # fmt: skip
            @given(strategy)
            def collect(document: Any) -> None:
                if document not in found:
                    found.append(document)

            collect()
    except Exception:  # hypothesis-jsonschema does not take this schema: the walker draws
        rng = random.Random(seed)
        walked = [_walk(schema, schema, rng, 0) for _ in range(DRAWN)]
        return [d for i, d in enumerate(walked) if d not in walked[:i]], "drawn by the walker"
    return found[:DRAWN], "drawn by hypothesis-jsonschema"


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*path, index))
    return found


def mutate(document: Any, rng: random.Random) -> Any:
    """``document`` with one value removed, retyped or given an unknown key."""
    mutated = copy.deepcopy(document)
    path = rng.choice(_paths(mutated))
    parent: Any = mutated
    for token in path[:-1]:
        parent = parent[token]
    value = parent[path[-1]] if path else mutated
    action = rng.choice(("remove", "retype", "extend"))
    if action == "extend" and isinstance(value, dict):
        value["x-corpus-unknown"] = rng.choice(OTHER_TYPES)
        return mutated
    if action == "remove" and path and isinstance(parent, dict):
        del parent[path[-1]]
        return mutated
    other = rng.choice([v for v in OTHER_TYPES if type(v) is not type(value)])
    if not path:
        return copy.deepcopy(other)
    parent[path[-1]] = copy.deepcopy(other)
    return mutated


NUDGES = ("swap", "swap", "number", "string", "repeat", "drop", "edit")


def values(document: Any) -> list[Any]:
    """Every value of ``document``, itself first."""
    found = []
    for path in _paths(document):
        value = document
        for token in path:
            value = value[token]
        found.append(value)
    return found


def harder(document: Any, rng: random.Random, pool: list[Any]) -> Any:
    """``document`` with one edit closer to valid than :func:`mutate`'s: a value replaced by
    another value of ``pool`` (the values of the schema's documents), a number or a string
    nudged, an array item repeated or removed, a key removed, or one of :func:`mutate`'s."""
    edited = copy.deepcopy(document)
    path = rng.choice(_paths(edited))
    if not path:
        return copy.deepcopy(rng.choice(pool))
    parent: Any = edited
    for token in path[:-1]:
        parent = parent[token]
    value, key, nudge = parent[path[-1]], path[-1], rng.choice(NUDGES)
    if nudge == "swap":
        parent[key] = copy.deepcopy(rng.choice(pool))
    elif nudge == "number" and type(value) in (int, float):
        parent[key] = rng.choice((value + 1, value - 1, -value, 0, value * 2, value + 0.5, -1))
    elif nudge == "string" and isinstance(value, str):
        parent[key] = rng.choice(("", value + "x", value.upper(), value[:1], " " + value, "0"))
    elif nudge == "repeat" and isinstance(value, list) and value:
        value.append(copy.deepcopy(rng.choice(value)))
    elif nudge == "drop" and isinstance(value, list) and value:
        del value[rng.randrange(len(value))]
    elif isinstance(parent, dict) and rng.random() < 0.5:
        del parent[key]
    else:
        return mutate(edited, rng)
    return edited


def write(here: Path, rel: str) -> str:
    """Produce and store the documents of corpus file ``rel``; say where they come from."""
    seed = sum(ord(c) * (i + 1) for i, c in enumerate(rel))
    rng = random.Random(seed)
    schema = json.loads((here / "schemas" / rel).read_text(encoding="utf-8"))
    real, real_from = real_documents(here, rel, rng)
    drawn, drawn_from = drawn_documents(schema, seed)
    found = [*real, *drawn]
    found += [mutate(d, rng) for d in found]
    unique = [d for i, d in enumerate(found) if json.dumps(d) not in map(json.dumps, found[:i])]
    target = here / "documents" / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(unique, indent=1) + "\n", encoding="utf-8")
    return "; ".join(filter(None, (real_from, drawn_from, "one mutation of each")))


def sources_page(files: list[Any]) -> str:
    """SOURCES.md: every file's origin and licence, and where its documents come from."""
    lines = [
        "<!-- Written by tests/corpus/gather.py from sources.json -->",
        "# The corpus of real schemas: sources and licences",
        "",
        f"{len(files)} schema files, each as its package ships it (or, for MCP and A2A, the",
        "`model_json_schema()` export of the package's pydantic model; for SchemaStore, as its",
        "repository holds it, `schemastore.py` says which), unchanged. The licence of each",
        "package is kept in `licences/`. Documents: `documents/<same path>`.",
        "",
        "| File | Package | Version | Path in the package | Licence | Documents |",
        "|---|---|---|---|---|---|",
    ]
    for f in files:
        licences = ", ".join(f"`licences/{n}`" for n in f["licence_file"].split(", "))
        lines.append(
            f"| `{f['file']}` | {f['package']} | {f['version']} | `{f['path']}` | "
            f"{f['licence']} ({licences}) | {f['documents']} |"
        )
    return "\n".join(lines) + "\n"
