"""``maverick.contracts`` builds nothing it is not asked for, and its API is what it was.

Importing the package imports the registry only (no contract module, not even pydantic); a
class is imported with its own module on first use (PEP 562) and its validator is built on
first validation (``defer_build``); the schema documents are package data read on first use.
Every name is still importable, the registry still maps names to models, and mypy still sees
each class's type.
"""

from __future__ import annotations

import glob
import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from maverick import contracts
from tests.conftest import REPO, mypy_strict

PACKAGE = REPO / "src/maverick/contracts"


def _fresh(code: str) -> object:
    """What ``code`` prints (one JSON value), run in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_importing_the_package_builds_no_contract() -> None:
    loaded = _fresh(
        """
        import json, sys
        import maverick.contracts
        print(json.dumps({
            "modules": sorted(m for m in sys.modules if m.startswith("maverick.contracts.")),
            "pydantic": "pydantic" in sys.modules,
        }))
        """
    )
    assert loaded == {"modules": ["maverick.contracts._registry"], "pydantic": False}


def test_a_class_comes_with_its_own_module_and_is_built_on_first_validation() -> None:
    found = _fresh(
        """
        import json, sys
        from maverick.contracts import FixerResult
        before = FixerResult.__pydantic_complete__
        FixerResult.model_validate_json('{"success": true, "summary": "done"}')
        print(json.dumps({
            "modules": sorted(m for m in sys.modules if m.startswith("maverick.contracts.")),
            "complete": [before, FixerResult.__pydantic_complete__],
        }))
        """
    )
    # No _types either: its validator reads the two scalar fields it checks in place.
    assert found == {
        "modules": [
            "maverick.contracts._registry",
            "maverick.contracts.agents",
            "maverick.contracts.agents.fixer_result",
        ],
        "complete": [False, True],
    }


def test_every_public_name_resolves_and_the_registry_names_the_same_classes() -> None:
    classes = [n for n in contracts.__all__ if n[0].isupper() and not n.isupper()]
    assert len(classes) > 33
    for name in contracts.__all__:
        assert getattr(contracts, name) is not None
    assert set(contracts.__all__) <= set(dir(contracts))
    for name, info in contracts.CONTRACTS.items():
        assert info.model is getattr(contracts, name)
        assert info.model.__module__ == f"maverick.contracts{info.module}"
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        contracts.Nothing  # noqa: B018
    from maverick.contracts.tools import ToolResult  # the folder's package is lazy too

    assert ToolResult is contracts.ToolResult


def test_documents_are_the_package_data_as_the_export_writes_them() -> None:
    export = REPO / "export"
    for name, info in contracts.CONTRACTS.items():
        rel = info.schema_file.removeprefix("schemas/")
        schema = json.loads((REPO / info.schema_file).read_text(encoding="utf-8"))
        assert contracts.canonical_schema(name) == schema
        assert contracts.canonical_schema(name) is not contracts.canonical_schema(name)  # copies
        structured = export / "structured-output" / rel
        if info.agents:
            form = json.loads(structured.read_text(encoding="utf-8"))
            assert contracts.output_format(name) == {"type": "json_schema", "schema": form}
        elif not structured.exists():
            with pytest.raises(KeyError):
                contracts.output_format(name)


def test_package_data_ships_every_document() -> None:
    """``[tool.setuptools.package-data]`` puts every JSON file the manifest lists in a wheel."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["maverick.contracts"]
    shipped = {
        Path(path).relative_to(PACKAGE).as_posix()
        for pattern in patterns
        for path in glob.glob(str(PACKAGE / pattern), recursive=True)
    }
    index = json.loads((PACKAGE / "_index.json").read_text(encoding="utf-8"))
    data = {f for f in index["files"] if f.startswith("_data/")}
    assert len(data) > 33
    assert data == shipped


def test_mypy_sees_each_class_through_the_lazy_package(tmp_path: Path) -> None:
    program = (
        "from maverick.contracts import FixerResult\n"
        "from maverick.contracts.tools import FileResult\n"
        "reveal_type(FixerResult.model_validate({}).summary)\n"
        "reveal_type(FileResult)\n"
    )
    done = mypy_strict(program, REPO / "src", tmp_path)
    assert done.returncode == 0, done.stdout
    assert 'Revealed type is "str"' in done.stdout
    assert "-> maverick.contracts.tools.file_result.FileResult" in done.stdout
