"""Shared by the tool tests: the fixture repository and validators of the canonical schemas."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jsonschema
import pytest

from tests._schema_harness import load, validator_for
from tests.conftest import REPO
from tests.tools._repo import build_repo


@cache
def contract_validator(name: str) -> jsonschema.protocols.Validator:
    """A draft 2020-12 validator of contract ``name`` from the schema files themselves."""
    return validator_for(load(REPO / "schemas"), name)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture repository, written once per test module."""
    return build_repo(tmp_path_factory.mktemp("tools"))
