"""Old serialized results (checkpoints) keep loading: contracts change additively only.

``tests/checkpoints/<ContractName>/*.json`` holds results of every contract as earlier
versions of the models wrote them (see ``tests/checkpoints/README.md``). Each must load
through the generated model, exactly as a checkpoint is read back (from JSON text), and must
validate under the canonical schema. A checkpoint is never edited to make it load: if one
stops loading, the contract change that broke it is the bug.
"""

from __future__ import annotations

import enum
import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from maverick.contracts import CONTRACTS
from tests._schema_harness import load, validator_for
from tests.conftest import REPO

CORPUS = Path(__file__).resolve().parent / "checkpoints"
TREE = load(REPO / "schemas")
CHECKPOINTS = sorted(CORPUS.glob("*/*.json"))


def test_every_contract_has_a_checkpoint_and_every_checkpoint_a_contract() -> None:
    folders = {p.name for p in CORPUS.iterdir() if p.is_dir()}
    assert folders == set(CONTRACTS), (
        f"without checkpoints: {sorted(set(CONTRACTS) - folders)}; "
        f"not contracts: {sorted(folders - set(CONTRACTS))}"
    )
    for folder in folders:
        assert list((CORPUS / folder).glob("*.json")), f"{folder}/ holds no checkpoint"


@pytest.mark.parametrize("path", CHECKPOINTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_checkpoint_loads_through_the_generated_model(path: Path) -> None:
    name = path.parent.name
    model = CONTRACTS[name].model
    text = path.read_text(encoding="utf-8")
    if issubclass(model, enum.Enum):
        loaded = TypeAdapter(model).validate_json(text)
        assert loaded.value == json.loads(text)
    else:
        loaded = model.model_validate_json(text)
        assert isinstance(loaded, model)
    validator = validator_for(TREE, name)
    errors = [e.message for e in validator.iter_errors(json.loads(text))]
    assert not errors, errors
