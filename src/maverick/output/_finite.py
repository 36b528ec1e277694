"""The validator of each model: its own core schema, with non-finite numbers refused.

Each contract is validated by a `pydantic_core.SchemaValidator` built once from the model's
own core schema in which every float and decimal schema gets ``allow_inf_nan=False`` and every
``Any`` schema checks its value for non-finite floats. It returns instances of the model
itself, exactly as ``model.model_validate_json`` would (pydantic plugins are not run). Should a
future pydantic-core refuse that schema, the model's own validator is used instead and
`maverick.output._failures.non_finite_tokens` looks for ``NaN``/``Infinity`` in the text.
"""

from __future__ import annotations

import logging
import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel
from pydantic_core import PydanticCustomError, SchemaValidator
from pydantic_core.core_schema import CoreConfig, CoreSchema

__all__ = ["NON_FINITE", "Validator", "validator_for"]

logger = logging.getLogger("maverick.agents.output")

NON_FINITE = "finite_number"
"""The error type of a non-finite number found while validating."""

# Keys of a core schema whose values are schemas, lists of schemas, or mappings to schemas.
_SCHEMA_KEYS = frozenset(
    {
        "arguments_schema",
        "choices",
        "definitions",
        "extras_keys_schema",
        "extras_schema",
        "fields",
        "items_schema",
        "json_schema",
        "keys_schema",
        "lax_schema",
        "python_schema",
        "return_schema",
        "schema",
        "steps",
        "strict_schema",
        "values_schema",
        "var_args_schema",
        "var_kwargs_schema",
    }
)


def _reject_non_finite(value: Any) -> Any:
    """Validator of ``Any`` values: no NaN or infinity anywhere inside (iterative: no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is float:
            if not math.isfinite(item):
                raise PydanticCustomError(NON_FINITE, "Input should be a finite number")
        elif type(item) is list:
            stack.extend(item)
        elif type(item) is dict:
            stack.extend(item.values())
    return value


def _finite_schema(node: Any) -> Any:
    """A copy of a core schema that refuses non-finite numbers (only schema paths are copied)."""
    if isinstance(node, list | tuple):
        return type(node)(_finite_schema(item) for item in node)
    if not isinstance(node, dict):
        return node
    if not isinstance(node.get("type"), str):
        # A mapping of names to schemas ("fields" of a model, "choices" of a tagged union).
        return {key: _finite_schema(value) for key, value in node.items()}
    new = {
        key: _finite_schema(value) if key in _SCHEMA_KEYS else value for key, value in node.items()
    }
    kind = new["type"]
    if kind in ("float", "decimal"):
        new["allow_inf_nan"] = False
    elif kind == "any":
        wrapper: dict[str, Any] = {
            "type": "function-after",
            "function": {"type": "no-info", "function": _reject_non_finite},
            "schema": new,
        }
        if "ref" in new:
            wrapper["ref"] = new.pop("ref")
        return wrapper
    return new


def _model_config(schema: Any) -> CoreConfig | None:
    """The core config of the model at the root of a model's core schema, if found."""
    node = schema
    if node.get("type") == "definitions":
        node = node.get("schema", {})
        if node.get("type") == "definition-ref":
            ref = node.get("schema_ref")
            node = next((d for d in schema.get("definitions", ()) if d.get("ref") == ref), {})
    config = node.get("config") if node.get("type") == "model" else None
    return cast(CoreConfig | None, config)


@dataclass(frozen=True, slots=True)
class Validator:
    schema: object  # the model's core schema it was built from: rebuilt if the model is
    validate_json: Callable[[str], Any]
    rejects_non_finite: bool


_VALIDATORS: weakref.WeakKeyDictionary[type[BaseModel], Validator] = weakref.WeakKeyDictionary()


def validator_for(model: type[BaseModel]) -> Validator:
    schema = model.__pydantic_core_schema__
    cached = _VALIDATORS.get(model)
    if cached is not None and cached.schema is schema:
        return cached
    try:
        validator = SchemaValidator(
            cast(CoreSchema, _finite_schema(schema)), _model_config(schema), _use_prebuilt=False
        )
        entry = Validator(schema, validator.validate_json, True)
    except Exception:  # a pydantic-core that refuses the rewritten schema
        logger.debug("using %s's own validator: NaN/Infinity checked in the text", model.__name__)
        entry = Validator(schema, model.__pydantic_validator__.validate_json, False)
    _VALIDATORS[model] = entry
    return entry
