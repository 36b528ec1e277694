"""breaking on a recursive graph of references: decided, with a witness, in seconds.

Every definition reaches every other (``next`` around a ring, ``back`` across it), so each
question of the comparison meets its own questions again below it: the solver's provisional
answers (see :meth:`codegen.breaking.engine.solver.Solver.solve`) keep that from being asked
again and again.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest

from codegen.breaking.engine.nodes import SNode, root, same
from codegen.cli import main
from codegen.core.loader import SchemaTree, load_tree
from tests.conftest import commit_all


def _ring(count: int, narrowed: int | None) -> dict[str, Any]:
    definitions = {
        f"d{i}": {
            "type": "object",
            "properties": {
                "next": {"$ref": f"#/definitions/d{(i + 1) % count}"},
                "back": {"type": "array",
                         "items": {"$ref": f"#/definitions/d{(i * 7 + 3) % count}"}},
                "name": {"type": "string", "maxLength": 5 if i == narrowed else 10},
            },
            "required": ["name"],
            "additionalProperties": i % 2 == 0,
        }
        for i in range(count)
    }  # fmt: skip
    return {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Ring",
            "type": "object", "properties": {"root": {"$ref": "#/definitions/d0"}},
            "definitions": definitions}  # fmt: skip


def _breaking(root: Path, count: int, narrowed: int | None) -> tuple[int, str, float]:
    schema = root / "schemas" / "ring.json"
    schema.parent.mkdir(parents=True, exist_ok=True)
    schema.write_text(json.dumps(_ring(count, None), indent=1) + "\n", encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/ring"\n'
        'package = "ring"\n',
        encoding="utf-8",
    )
    commit_all(root, "ring")
    schema.write_text(json.dumps(_ring(count, narrowed), indent=1) + "\n", encoding="utf-8")
    out = io.StringIO()
    start = time.process_time()  # CPU seconds: a loaded machine does not make it fail
    code = main(["--config", str(root / "pyproject.toml"), "breaking", "--against", "HEAD"], out)
    return code, out.getvalue(), time.process_time() - start


def test_a_narrowed_definition_in_a_ring_is_found_with_its_witness(tmp_path: Path) -> None:
    code, out, seconds = _breaking(tmp_path, 4, narrowed=2)
    assert code == 1, out
    assert "(CONSTRAINT_TIGHTENED)" in out
    witness = json.loads(out.split("witness: ", 1)[1].splitlines()[0])
    node = witness["root"]  # the witness reaches a name longer than 5 characters
    text = json.dumps(node)
    assert any(len(name) > 5 for name in _names(node)), text
    assert seconds < 30, seconds


@pytest.mark.parametrize("count", [6, 60])
def test_a_change_in_a_ring_is_reported_once_where_it_was_made(tmp_path: Path, count: int) -> None:
    """Every reference path into the ring meets the narrowed maxLength: it is one finding,
    at that keyword, not one more at each reference or cycle the paths go through. The
    question is asked at the edit: 60 definitions that all reach each other (exponentially
    many paths) take no longer than a few."""
    code, out, seconds = _breaking(tmp_path, count, narrowed=3)
    findings = [line for line in out.splitlines() if line.startswith("schemas/")]
    assert code == 1, out
    assert len(findings) == 1, out
    assert "/definitions/d3/properties/name" in findings[0], out
    assert 'maxLength of definition "d3.name"' in findings[0], out
    assert seconds < 30, seconds


def test_a_chain_of_thousands_of_references_compares(tmp_path: Path) -> None:
    """Sameness follows references with a worklist: a chain 3,000 long is no RecursionError."""
    count = 3000
    chain = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Chain",
             "$ref": "#/definitions/d0",
             "definitions": {f"d{i}": {"type": "object", "properties": {
                 "next": {"$ref": f"#/definitions/d{i + 1}"} if i + 1 < count else {}}}
                 for i in range(count)}}  # fmt: skip
    old = _load_tree_of(tmp_path / "old", chain)
    chain["definitions"][f"d{count - 1}"]["properties"]["next"] = {"type": "string"}
    new = _load_tree_of(tmp_path / "new", chain)
    assert same(_root(old), _root(old))
    assert not same(_root(old), _root(new))


def test_an_unchanged_ring_is_compatible(tmp_path: Path) -> None:
    code, out, seconds = _breaking(tmp_path, 4, narrowed=None)
    assert code == 0, out
    assert seconds < 30, seconds


def _load_tree_of(folder: Path, schema: dict[str, Any]) -> SchemaTree:
    folder.mkdir(parents=True)
    (folder / "chain.json").write_text(json.dumps(schema), encoding="utf-8")
    return load_tree(folder)


def _root(tree: SchemaTree) -> SNode:
    return root(tree, tree.files[0])


def _names(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["name"]] if isinstance(node.get("name"), str) else []
        return found + [n for v in node.values() for n in _names(v)]
    if isinstance(node, list):
        return [n for v in node for n in _names(v)]
    return []
