"""Every ECMA-262 pattern of the project: ``pattern`` values and ``patternProperties`` keys in
``schemas/`` and ``tests/fixtures/keywords/`` (``propertyNames`` patterns included), for the
differential test of ``codegen.breaking.strings`` and its benchmark."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["project_patterns"]

REPO = Path(__file__).resolve().parent.parent


def _patterns_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, sub in value.items():
            if key == "pattern" and isinstance(sub, str):
                yield sub
            if key == "patternProperties" and isinstance(sub, dict):
                yield from sub
            yield from _patterns_in(sub)
    elif isinstance(value, list):
        for sub in value:
            yield from _patterns_in(sub)


def project_patterns() -> list[str]:
    """The patterns in file order, each once."""
    found: dict[str, None] = {}
    for folder in (REPO / "schemas", REPO / "tests" / "fixtures" / "keywords"):
        for path in sorted(folder.rglob("*.json")):
            found.update(dict.fromkeys(_patterns_in(json.loads(path.read_text("utf-8")))))
    return list(found)
