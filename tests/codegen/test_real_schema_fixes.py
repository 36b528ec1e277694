"""Generator fixes found by the corpus of real schemas (tests/corpus/), each on a small case."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from codegen.core.ecma import tree_registry, validator_at
from codegen.core.loader import load_tree
from codegen.generate.models.postprocess import hoist_enums

# The OpenAPI 3.0 schema made the plain generator write this order: the default of ``style``
# is evaluated when Header is defined, before Style exists.
LATE_ENUM = """from enum import StrEnum


class Header(BaseModel):
    style: Style = Style.SIMPLE
    other: Other | None = None


class Other(BaseModel):
    name: str


class Style(StrEnum):
    SIMPLE = "simple"


class Last(BaseModel):
    kind: Style = Style.SIMPLE
"""


def test_an_enum_a_default_names_moves_before_its_first_user() -> None:
    moved = hoist_enums(LATE_ENUM)
    names = [line.split("(")[0][6:] for line in moved.split("\n") if line.startswith("class ")]
    assert names == ["Style", "Header", "Other", "Last"]
    assert moved.count("class Style(StrEnum):") == 1
    assert "\n\n\nclass Header" in moved
    assert "\n\n\nclass Last" in moved
    namespace: dict[str, object] = {"BaseModel": object, "Other": None}
    exec(moved.replace(" | None", ""), namespace)  # defines in order: it runs
    assert hoist_enums(moved) == moved  # nothing left to move: unchanged
    assert hoist_enums("class A:\n    x: int = 1\n") == "class A:\n    x: int = 1\n"


def test_the_judge_resolves_a_files_references_against_its_own_id(tmp_path: Path) -> None:
    """As the 2020-12 metaschema refers to ``meta/core``: relative to its ``$id``, not to the
    file's path (the judge used to raise Unresolvable)."""
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    root = {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.com/spec/schema", "allOf": [{"$ref": "meta/core"}]}  # fmt: skip
    core = {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.com/spec/meta/core",
            "properties": {"name": {"type": "string"}}}  # fmt: skip
    (schemas / "schema.json").write_text(json.dumps(root))
    (schemas / "core.json").write_text(json.dumps(core))
    tree = load_tree(schemas)
    registry = tree_registry(tree)
    judge = validator_at(registry, tree.by_rel[PurePosixPath("schema.json")])
    assert judge.is_valid({"name": "x"})
    assert not judge.is_valid({"name": 1})
