"""The only module that imports datamodel-code-generator.

One in-process call over the whole schema tree, with a small fixed set of options. The
generator's own header (and its timestamp) is replaced by ours, formatting is left to
:mod:`codegen.generate.fmt`, and remote references are never fetched.
"""

from __future__ import annotations

import tempfile
import warnings
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from codegen.core.errors import CodegenError, Location

__all__ = ["HEADER_PLACEHOLDER", "dmcg_version", "generate_modules"]

HEADER_PLACEHOLDER = "# @@maverick-codegen-header@@"


@cache
def dmcg_version() -> str:
    return version("datamodel-code-generator")


def generate_modules(
    schema_dir: Path,
    *,
    single_module: tuple[str, ...] | None = None,
    shown: Path | None = None,
) -> dict[tuple[str, ...], str]:
    """Generate one module per schema file below ``schema_dir``.

    ``shown`` is the folder named in error messages (the generator may run on a copy).

    ``single_module`` names the module when the tree holds one file
    (the generator then returns a bare string). Keys of the result are module paths such as
    ``("agents", "finding.py")``; package ``__init__.py`` files are not returned.
    """
    import datamodel_code_generator as dmcg  # noqa: PLC0415  (kept out of start-up)

    where = Location(shown or schema_dir)

    options: dict[str, Any] = {
        "input_file_type": "jsonschema",
        "output_model_type": "pydantic_v2.BaseModel",
        "target_python_version": "3.11",
        "schema_version": "2020-12",
        # No formatter here: codegen.generate.fmt formats everything once, with the pinned ruff.
        "formatters": [],
        "custom_file_header": HEADER_PLACEHOLDER,
        "disable_timestamp": True,
        "allow_remote_refs": False,
        "use_title_as_name": True,
        "use_schema_description": True,
        "use_annotated": True,
        "field_constraints": True,
        "use_standard_collections": True,
        "use_union_operator": True,
        "use_double_quotes": True,
        "use_exact_imports": True,
        "strict_nullable": True,
        "strict_types": ["str", "int", "float", "bool"],
        "enable_faux_immutability": True,
        "capitalise_enum_members": True,
        "deserialize_default_values": ["enum"],
        "keep_model_order": True,
        "strict_refs": True,
    }
    try:
        # The generator reads settings (black, isort, ruff tables) from the caller's
        # directory: point it at an empty folder so that the output never depends on it.
        with tempfile.TemporaryDirectory(prefix="maverick-dmcg-") as neutral:
            options["settings_path"] = Path(neutral)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = dmcg.generate(schema_dir, **options)
    except Exception as exc:  # the generator raises many unrelated types
        raise CodegenError(f"datamodel-code-generator failed: {exc}", where, "GENERATOR") from exc
    if isinstance(result, str):
        if single_module is None:
            raise CodegenError("generator returned one module for a tree", where)
        return {single_module: result}
    if result is None:
        raise CodegenError("generator returned nothing", where, "GENERATOR")
    return {tuple(key): code for key, code in result.items() if tuple(key)[-1] != "__init__.py"}
