"""A module's classes come after the classes and aliases they name; only those of a circle are
rebuilt at its end, and every class can still be subclassed in another module."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from codegen.generate.models.class_order import rebuild_forward_references

# As datamodel-code-generator writes a module: the root first, naming every later class; two
# classes naming each other; an alias; a subclass; and its own model_rebuild() calls.
WRITTEN = """from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypeAliasType


class Base(BaseModel):
    model_config = ConfigDict(defer_build=True)
    label: str


class Root(BaseModel):
    model_config = ConfigDict(defer_build=True)
    item: Item
    names: Names | None = None
    first: Ping | None = None


class Ping(BaseModel):
    model_config = ConfigDict(defer_build=True)
    pong: Pong | None = None


class Pong(BaseModel):
    model_config = ConfigDict(defer_build=True)
    ping: Ping | None = None
    item: Item | None = None


# An item's comment, which moves with it.
class Item(Base):
    model_config = ConfigDict(defer_build=True)
    size: int = Field(ge=0)


Names = TypeAliasType("Names", list[str])


Root.model_rebuild()
Ping.model_rebuild()
"""
PREDICATES = "\n\n\n# The predicates the validators call: JSON Schema, compiled.\n\n_S0 = 1\n"


def _classes(code: str) -> list[str]:
    return [line[6:].split("(")[0] for line in code.split("\n") if line.startswith("class ")]


@pytest.fixture
def modules() -> Iterator[dict[str, types.ModuleType]]:
    made: dict[str, types.ModuleType] = {}
    yield made
    for name in made:
        sys.modules.pop(name, None)


def _module(name: str, code: str, made: dict[str, types.ModuleType]) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = made[name] = module
    exec(compile(code, name, "exec"), module.__dict__)
    return module


def test_classes_follow_what_they_name_and_only_a_circle_is_rebuilt() -> None:
    code = rebuild_forward_references(WRITTEN, tail=PREDICATES)
    assert _classes(code) == ["Base", "Item", "Ping", "Pong", "Root"]
    assert code.index('Names = TypeAliasType("Names"') < code.index("class Root(")
    assert "# An item's comment, which moves with it.\nclass Item(Base):" in code
    # datamodel-code-generator's rebuilds go; Ping names Pong, which names it back: rebuilt
    # after the predicates.
    head, rebuilds = code.split("# Models that name a class defined after them.\n")
    assert rebuilds == "Ping.model_rebuild()\n"
    assert "model_rebuild" not in head
    assert head.rstrip().endswith("_S0 = 1")


def test_every_class_is_complete_for_a_subclass_in_another_module(
    modules: dict[str, types.ModuleType],
) -> None:
    code = rebuild_forward_references(WRITTEN, tail=PREDICATES)
    written = _module("_class_order_models", code, modules)
    names = _classes(code)
    subclasses = "\n".join(
        f"class My{name}(_class_order_models.{name}):\n    extra: int = 0\n" for name in names
    )
    mine = _module("_class_order_mine", f"import _class_order_models\n\n{subclasses}", modules)
    document = {"item": {"label": "a", "size": 1}, "first": {"pong": {"ping": {}}}}
    assert mine.MyRoot.model_validate(document).first.pong.ping.pong is None
    assert mine.MyPing.model_validate({"pong": {"item": {"label": "b", "size": 0}}})
    assert mine.MyItem.model_validate({"label": "c", "size": 2}).size == 2
    with pytest.raises(Exception, match="greater than or equal to 0"):
        written.Root.model_validate({"item": {"label": "a", "size": -1}})
