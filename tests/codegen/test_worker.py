"""A large tree is generated in worker processes: the same files, the same errors, no leftovers.

``build_plan`` runs datamodel-code-generator in a child process when the tree holds at least
``WORKER_MIN_FILES`` schema files (bench/bench_codegen.py measures why), and in two, each given
a part of the contracts, from twice that. These tests lower the threshold so that small trees
take those paths, and compare them with the in-process one.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from codegen.core.config import load_config
from codegen.core.errors import CodegenError
from codegen.generate import plan, plan_tree
from codegen.generate.models import _dmcg
from tests.conftest import REPO


def _plans(config_file: Path, monkeypatch: pytest.MonkeyPatch) -> list[plan.Plan]:
    """The plan of a tree in this process, in one worker, then split between two workers;
    asserts each took its path."""
    config = load_config(config_file)
    used: list[bool] = []
    real = _dmcg.Generator.__init__

    def spy(self: _dmcg.Generator, *, in_worker: bool) -> None:
        used.append(in_worker)
        real(self, in_worker=in_worker)

    monkeypatch.setattr(_dmcg.Generator, "__init__", spy)
    files = len(list(config.schema_dir.rglob("*.json")))
    plans = []
    for threshold, workers in ((files + 1, [False]), (files // 2 + 1, [True]), (1, [True] * 2)):
        monkeypatch.setattr(plan_tree, "WORKER_MIN_FILES", threshold)
        used.clear()
        plans.append(plan.build_plan(config))
        assert used == workers
    return plans


def test_the_project_s_contracts_are_the_same_from_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here, one, two = _plans(REPO / "pyproject.toml", monkeypatch)
    assert len(here.files) > 33
    assert one.files == here.files
    assert two.files == here.files


def test_a_shared_module_is_the_same_from_workers(
    make_project: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two files that reference each other share the generator's ``_internal`` module, which
    one worker generates with both; a third file, apart, goes to the other worker."""
    project = make_project("single_file")
    schemas = project / "schemas"
    shutil.rmtree(schemas)
    (schemas / "tree").mkdir(parents=True)
    pairs = (("a_node", "ANode", "b_node"), ("b_node", "BNode", "a_node"), ("c_node", "CNode", ""))
    for name, title, other in pairs:
        document = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://example.test/tree/{name}.json",
            "title": title,
            "description": f"The {title} contract.",
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                **(
                    {
                        "other": {
                            "anyOf": [{"$ref": f"{other}.json"}, {"type": "null"}],
                            "default": None,
                        }
                    }
                    if other
                    else {}
                ),
            },
            "required": ["name"],
            "additionalProperties": False,
        }
        (schemas / "tree" / f"{name}.json").write_text(json.dumps(document, indent=2))
    here, one, two = _plans(project / "pyproject.toml", monkeypatch)
    assert any(path.name == "_internal.py" for path in here.files)
    assert one.files == here.files
    assert two.files == here.files


def test_the_worker_raises_the_generator_s_error_as_this_process_does(tmp_path: Path) -> None:
    folder = tmp_path / "skeleton"
    folder.mkdir()
    (folder / "broken.json").write_text('{"type": "object", "properties": {"a": {"$ref": 7}}}')
    errors = []
    for in_worker in (False, True):
        with _dmcg.Generator(in_worker=in_worker) as generator:
            generator.submit(folder, single_module=("broken.py",), shown=tmp_path / "schemas")
            with pytest.raises(CodegenError) as caught:
                generator.result()
        errors.append(caught.value)
    assert errors[0].rule == errors[1].rule == "GENERATOR"
    assert str(errors[1]) == str(errors[0])
    assert str(errors[1]).startswith(f"{tmp_path / 'schemas'}:1:1: datamodel-code-generator failed")


def test_a_worker_that_dies_is_an_internal_error_with_its_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_dmcg, "_BOOT", "import sys; sys.stderr.write('boom'); sys.exit(3)")
    with _dmcg.Generator(in_worker=True) as generator:
        generator.submit(tmp_path, single_module=None, shown=tmp_path)
        with pytest.raises(RuntimeError, match=r"exit status 3 and no answer:\nboom"):
            generator.result()


def test_leaving_the_block_early_stops_the_worker() -> None:
    with _dmcg.Generator(in_worker=True) as generator:
        process = generator._process
        # bad input is found here, before the generator is asked: the block ends
    assert process is not None
    assert process.returncode is not None  # killed and reaped, not left running


def test_what_the_generator_prints_does_not_spoil_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "skeleton"
    folder.mkdir()
    (folder / "note.json").write_text('{"title": "Note", "type": "object"}')
    noisy = (
        "import sys; sys.path.insert(0, {root!r}); import codegen.generate.models._dmcg as d; "
        "real = d._run; d._run = lambda request: (print('chatter'), real(request))[1]; "
        "d.serve()"
    )
    monkeypatch.setattr(_dmcg, "_BOOT", noisy)
    with _dmcg.Generator(in_worker=True) as generator:
        generator.submit(folder, single_module=("note.py",), shown=tmp_path)
        modules = generator.result()
    assert "class Note(BaseModel)" in modules[("note.py",)]
