"""Names derived from schemas as people have them: modules from file names, classes from titles.

``generate`` takes any valid schema: a title that is no class name, a file name with dashes or
dots, a file without ``$id`` or title. The rules are in :mod:`codegen.core.names`; these tests
hold the documented examples, the collisions, and a project of such files end to end.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path, PurePosixPath

import pydantic
from hypothesis import given, settings
from hypothesis import strategies as st

from codegen.core.names import class_name, derive, module_name
from tests.conftest import run


def test_module_names_from_file_and_folder_names() -> None:
    assert module_name("finding") == "finding"  # snake_case already: as it is
    assert module_name("compose-spec") == "compose_spec"
    assert module_name("foo.v2") == "foo_v2"
    assert module_name("1password") == "_1password"
    assert module_name("GitHubWorkflow") == "git_hub_workflow"
    assert module_name("class") == "class_"
    assert module_name("--") == "schema"


def test_class_names_from_titles_else_file_names() -> None:
    assert class_name("FileResult", "file_result") == "FileResult"  # a class name: as it is
    assert class_name("GitHub Workflow", "x") == "GitHubWorkflow"
    assert class_name("openHAB 5.1", "x") == "OpenHAB51"
    assert class_name("yamllint", "x") == "Yamllint"
    assert class_name("Compose Specification", "x") == "ComposeSpecification"
    assert class_name(None, "compose-spec") == "ComposeSpec"
    assert class_name("", "1password") == "Schema1password"
    assert class_name("5.1", "x") == "Schema51"
    assert class_name("None", "x") == "None_"


def test_collisions_are_numbered_in_the_order_of_the_files() -> None:
    names = derive(
        [
            (PurePosixPath("b/foo_bar.json"), "Config", {}),
            (PurePosixPath("b/foo-bar.json"), "Config", {"/$defs/x": ("Config", "x", False)}),
            (PurePosixPath("b.json"), None, {}),  # a module named as the folder b/
            (
                PurePosixPath("a.json"),
                "A",
                {
                    "/$defs/y": ("A", "y", False),
                    "/$defs/z": ("a z", "z", False),  # titled: a class named from the title
                    "/$defs/line-item": (None, "line-item", True),  # an object: from its key
                    "/$defs/code": (None, "code", False),  # neither: no class of its own
                },
            ),
        ]
    )
    assert names[PurePosixPath("a.json")].classes == {
        "": "A",
        "/$defs/y": "A2",
        "/$defs/z": "AZ",
        "/$defs/line-item": "LineItem",
    }
    assert names[PurePosixPath("b.json")].module_parts == ("b_2",)
    assert names[PurePosixPath("b/foo-bar.json")].module_parts == ("b", "foo_bar")
    assert names[PurePosixPath("b/foo_bar.json")].module_parts == ("b", "foo_bar_2")
    assert names[PurePosixPath("b/foo-bar.json")].classes == {"": "Config", "/$defs/x": "Config2"}
    assert names[PurePosixPath("b/foo_bar.json")].classes == {"": "Config3"}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "a-b", "a_b", "A-B", "x/a", "x/a-b", "x", "1x", "x.y"]),
            st.sampled_from(["Config", "config", "A B", None, "X", "1"]),
        ),
        min_size=1,
        max_size=8,
        unique_by=lambda f: f[0],
    ),
    st.randoms(use_true_random=False),
)
def test_names_are_unique_identifiers_whatever_the_order(
    files: list[tuple[str, str | None]], order: object
) -> None:
    entries = [(PurePosixPath(f"{name}.json"), title, {}) for name, title in files]
    names = derive(entries)
    shuffled = list(entries)
    order.shuffle(shuffled)  # type: ignore[attr-defined]
    assert derive(shuffled) == names  # the same on every run and every machine
    modules = [n.module_parts for n in names.values()]
    assert len(set(modules)) == len(modules)
    assert all(p.isidentifier() for m in modules for p in m)
    classes = [c for n in names.values() for c in n.classes.values()]
    assert len(set(classes)) == len(classes)
    assert all(c.isidentifier() and c[0].isupper() for c in classes)


def test_schemas_as_people_have_them_generate(tmp_path: Path) -> None:
    """A pydantic export, a title with spaces, dashes and dots in file names, no $id."""

    class Item(pydantic.BaseModel):
        name: str = pydantic.Field(title="Name", default="abc", min_length=2)

    class Order(pydantic.BaseModel):
        id: int
        items: list[Item] = []

    schemas = tmp_path / "schemas"
    (schemas / "my-folder").mkdir(parents=True)
    (schemas / "order.json").write_text(json.dumps(Order.model_json_schema()))
    (schemas / "github-workflow.json").write_text(
        json.dumps({"title": "GitHub Workflow", "type": "object"})
    )
    (schemas / "my-folder" / "compose-spec.v2.json").write_text(
        json.dumps({"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"})
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/people"\n'
        'package = "people"\n'
    )
    code, _ = run(tmp_path, "generate")
    assert code == 0
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        package = importlib.import_module("people")
        assert set(package.CONTRACTS) == {"Order", "GitHubWorkflow", "ComposeSpecV2"}
        assert package.Item.model_validate_json('{"name": "xy"}').name == "xy"  # a $defs class
        compose = importlib.import_module("people.my_folder.compose_spec_v2").ComposeSpecV2
        assert compose.model_validate_json("3").root == 3
        order = package.Order.model_validate_json('{"id": 1, "items": [{"name": "xy"}]}')
        assert order.items[0].name == "xy"
        assert package.GitHubWorkflow.model_validate_json('{"on": "push"}') is not None
    finally:
        sys.path.remove(str(tmp_path / "out"))
        for name in [m for m in sys.modules if m.split(".")[0] == "people"]:
            del sys.modules[name]
