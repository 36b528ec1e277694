"""Incremental ``generate``: after any sequence of edits, the files are those a full run writes.

A seeded project (contracts in two folders referencing each other, titled ``$defs``, agents
and tools, the catalog, the export and the npm package) is generated once; then each step
makes a random edit (a description, a new property referencing another file, a new file, a
deleted file, a circle of references made or broken, the agent table, a hand edit or deletion
of a generated file) and runs ``generate``, which regenerates what changed only. After every
step, every target on disk equals a full plan made from nothing (``reuse=False``), and
``check`` passes on the records alone.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from codegen.core.config import load_config
from codegen.core.loader import load_tree
from codegen.generate.files import drift
from codegen.generate.plan import build_plan
from tests.conftest import run

DRAFT = "https://json-schema.org/draft/2020-12/schema"
FOLDERS = ("agents", "tools")


def _contract(folder: str, index: int, refs: list[str]) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "name": {"type": "string", "minLength": 1, "description": "A name."},
        "count": {"type": "integer", "minimum": 0, "default": 0, "description": "A count."},
        "part": {"$ref": "#/$defs/part", "description": "A part."},
    }
    for ref in refs:
        key = "to_" + Path(ref).stem
        target = {"$ref": ref}
        properties[key] = {
            "anyOf": [target, {"type": "null"}],
            "default": None,
            "description": "A link.",
        }
    return {
        "$schema": DRAFT,
        "$id": f"https://incremental.test/{folder}/c{index:02d}.json",
        "title": f"C{index:02d}",
        "description": f"Contract {index}.",
        "type": "object",
        "properties": properties,
        "required": ["name", "part"],
        "additionalProperties": False,
        "$defs": {
            "part": {
                "title": f"Part{index:02d}",
                "description": "A part of it.",
                "type": "object",
                "properties": {"size": {"type": "number", "description": "Its size."}},
                "additionalProperties": False,
            }
        },
        "examples": [{"name": "x", "part": {}}],
    }


class Project:
    """A project of contracts on disk and the random edits made to it."""

    def __init__(self, root: Path, seed: int) -> None:
        self.root = root
        self.r = random.Random(seed)
        self.next = 0
        for _ in range(12):
            self.add()
        self.agents = {"fixer": self.titles()[0], "reviewer": self.titles()[1]}
        self.tools = {"lookup": self.titles()[2]}
        self.configure()

    def path(self, rel: str) -> Path:
        return self.root / "schemas" / rel

    def rels(self) -> list[str]:
        return sorted(
            p.relative_to(self.root / "schemas").as_posix()
            for p in (self.root / "schemas").rglob("*.json")
        )

    def titles(self) -> list[str]:
        return [json.loads(self.path(rel).read_text())["title"] for rel in self.rels()]

    def ref(self, source: str, target: str) -> str:
        """``target`` as a relative reference from ``source``."""
        (source_folder, _), (target_folder, name) = source.split("/"), target.split("/")
        return name if source_folder == target_folder else f"../{target_folder}/{name}"

    def write(self, rel: str, document: dict[str, Any]) -> None:
        self.path(rel).parent.mkdir(parents=True, exist_ok=True)
        self.path(rel).write_text(json.dumps(document, indent=2) + "\n")

    def add(self) -> str:
        """A new contract referencing up to two earlier ones (no circle)."""
        folder = self.r.choice(FOLDERS)
        rel = f"{folder}/c{self.next:02d}.json"
        earlier = self.rels() if (self.root / "schemas").exists() else []
        refs = [
            self.ref(rel, t)
            for t in self.r.sample(earlier, min(len(earlier), self.r.randint(0, 2)))
        ]
        self.write(rel, _contract(folder, self.next, refs))
        self.next += 1
        return rel

    def configure(self) -> None:
        agents = "".join(f'{a} = "{t}"\n' for a, t in sorted(self.agents.items()))
        tools = "".join(f'{a} = "{t}"\n' for a, t in sorted(self.tools.items()))
        (self.root / "pyproject.toml").write_text(
            '[tool.maverick-codegen]\nschema_dir = "schemas"\noutput_dir = "out/inc"\n'
            'package = "inc"\ndocs_file = "docs/contracts.md"\nexport_dir = "export"\n\n'
            f"[tool.maverick-codegen.agents]\n{agents}\n[tool.maverick-codegen.tools]\n{tools}\n"
            '[tool.maverick-codegen.export]\nname = "@inc/contracts"\nversion = "1.0.0"\n'
            'npm_dir = "npm"\n'
        )

    def referenced(self) -> set[str]:
        tree = load_tree(self.root / "schemas")
        return {t.rel.as_posix() for f in tree.files for t in tree.references(f) if t is not f}

    # ------------------------------------------------------------------------- the edits

    def describe(self) -> str:
        rel = self.r.choice(self.rels())
        document = json.loads(self.path(rel).read_text())
        document["description"] += " Edited."
        self.write(rel, document)
        return f"description of {rel}"

    def link(self) -> str:
        """A new property referencing another file: now and then it closes a circle."""
        source, target = self.r.sample(self.rels(), 2)
        document = json.loads(self.path(source).read_text())
        ref = self.ref(source, target)
        document["properties"][f"also_{Path(target).stem}_{self.next}"] = {
            "anyOf": [{"$ref": ref}, {"type": "null"}],
            "default": None,
            "description": "More.",
        }
        self.next += 1
        self.write(source, document)
        return f"{source} references {target}"

    def circle(self) -> str:
        """A file references one that references it (through others, maybe): a circle."""
        tree = load_tree(self.root / "schemas")
        linked = [f for f in tree.files if len(tree.closure(f)) > 1]
        if not linked:
            return self.link()
        source = self.r.choice(linked)
        target = self.r.choice([f for f in tree.closure(source) if f is not source])
        document = json.loads(target.text)
        ref = self.ref(target.rel.as_posix(), source.rel.as_posix())
        document["properties"][f"back_{self.next}"] = {
            "anyOf": [{"$ref": ref}, {"type": "null"}],
            "default": None,
            "description": "Back.",
        }
        self.next += 1
        self.write(target.rel.as_posix(), document)
        return f"circle through {source.rel} and {target.rel}"

    def unlink(self) -> str:
        """Every reference of one file dropped (a circle through it is broken)."""
        rel = self.r.choice(self.rels())
        document = json.loads(self.path(rel).read_text())
        document["properties"] = {
            k: v for k, v in document["properties"].items() if "anyOf" not in v
        }
        self.write(rel, document)
        return f"{rel} references nothing"

    def new_file(self) -> str:
        return f"new {self.add()}"

    def delete(self) -> str:
        named = set(self.agents.values()) | set(self.tools.values())
        free = [
            rel
            for rel in self.rels()
            if rel not in self.referenced()
            and json.loads(self.path(rel).read_text())["title"] not in named
        ]
        if not free:
            return self.describe()
        rel = self.r.choice(free)
        self.path(rel).unlink()
        return f"deleted {rel}"

    def agent(self) -> str:
        self.agents[self.r.choice(sorted(self.agents))] = self.r.choice(self.titles())
        self.configure()
        return "agent table"

    def hand_edit(self) -> str:
        files = [
            p
            for p in (self.root / "out").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        ]
        files += [self.root / "docs/contracts.md", *(self.root / "export").rglob("*.json")]
        files += [p for p in (self.root / "npm").rglob("*") if p.is_file()]
        victim = self.r.choice(sorted(files))
        if self.r.random() < 0.5:
            victim.unlink()
            return f"deleted generated {victim.relative_to(self.root)}"
        if victim.suffix == ".json":  # still JSON, still marked (an index keeps its $comment)
            victim.write_text(json.dumps({**json.loads(victim.read_text()), "edited": True}))
        else:
            victim.write_text(victim.read_text() + "\n# edited\n")
        return f"hand-edited {victim.relative_to(self.root)}"


EDITS = ("describe", "link", "circle", "unlink", "new_file", "delete", "agent", "hand_edit")


@pytest.mark.parametrize("seed", [1, 2])
def test_incremental_generation_equals_a_full_one(tmp_path: Path, seed: int) -> None:
    project = Project(tmp_path, seed)
    assert run(tmp_path, "generate")[0] == 0
    config_file = tmp_path / "pyproject.toml"
    regenerated = []
    for step in range(8):
        edit = getattr(project, project.r.choice(EDITS))()
        code, out = run(tmp_path, "generate")
        assert code == 0, out
        regenerated.append(
            re.search(r"\((\d+) regenerated\)", out).group(1) if "regenerated" in out else "0"
        )
        fresh = build_plan(load_config(config_file))
        result = drift.compare(fresh.outputs)
        assert result.clean, f"step {step} ({edit}): {result}"
        assert "by their records" in run(tmp_path, "check")[1], f"step {step} ({edit})"
    assert any(int(n) < len(project.rels()) for n in regenerated)  # work in proportion
