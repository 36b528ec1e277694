"""Check each witness before it is shown: against both schemas, and the generated model.

The engine's own evaluator found the witness; it is judged again by the ECMA-262 oracle
(python-jsonschema with ECMA patterns and exact ``multipleOf``, :mod:`codegen.core.ecma`) on
the old and the new schema, which decide: a witness they do not separate is not shown as a
break (the finding says the change could not be decided, an internal error). On request
(``breaking --check-models``), the Pydantic model the generator makes of the new schema judges
it too (built once per comparison, in a private folder, only when there is a witness to
judge): a model that disagrees with its schema is a defect of the generator, said as such,
never a reason to withhold a break.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import itertools
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codegen.core.config import Config
from codegen.core.drafts import DEFAULT_DRAFT
from codegen.core.ecma import tree_registry, validator_at
from codegen.core.errors import CodegenError, Location
from codegen.core.loader import LoadOptions, SchemaFile, SchemaTree

if TYPE_CHECKING:  # imported where a model is judged: only with --check-models
    import pydantic

__all__ = ["Judge"]

_PACKAGES = itertools.count()


class Judge:
    """Judges documents with the schemas of both versions and the new version's models."""

    def __init__(self, previous: SchemaTree, current: SchemaTree) -> None:
        self._trees = {"previous": previous, "current": current}
        self._registries: dict[str, Any] = {}
        self._models: dict[str, pydantic.TypeAdapter[Any]] = {}
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._packages: set[str] = set()

    def close(self) -> None:
        """Remove the generated package (its folder, and its modules from ``sys.modules``)."""
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
        for name in [m for m in sys.modules if m.split(".")[0] in self._packages]:
            del sys.modules[name]

    def schema_accepts(self, side: str, schema: SchemaFile, document: Any) -> bool:
        """Whether the ECMA oracle accepts ``document`` for ``schema`` of ``side``."""
        if side not in self._registries:
            tree = self._trees[side]
            self._registries[side] = tree_registry(tree)
        formats = self._trees[side].asserts_formats
        validator = validator_at(self._registries[side], schema, formats=formats)
        return bool(validator.is_valid(document))

    def model_accepts(self, schema: SchemaFile, document: Any) -> bool:
        """Whether the model generated from the current ``schema`` reads ``document`` (JSON).

        :meth:`prepare` must have named ``schema`` (models are generated in one batch).
        """
        import pydantic  # noqa: PLC0415 - only with a witness to judge by a model

        adapter = self._models[schema.title]
        try:
            adapter.validate_json(json.dumps(document))
        except pydantic.ValidationError:
            return False
        return True

    def prepare(self, schemas: list[SchemaFile]) -> None:
        """Generate the models of these current contracts (and what they reference) into a
        private package, and import them."""
        import pydantic  # noqa: PLC0415 - only with a witness to judge by a model

        from codegen.generate.plan import build_plan  # noqa: PLC0415 - only with a witness

        tree = self._trees["current"]
        wanted = {f.rel: f for s in schemas for f in tree.closure(s)}
        if not wanted or all(s.title in self._models for s in schemas):
            return
        self.close()
        self._folder = tempfile.TemporaryDirectory(prefix="maverick-witness-")
        root = Path(self._folder.name)
        package = f"_maverick_witness_{os.getpid()}_{next(_PACKAGES)}"
        self._packages.add(package)
        refs: dict[str, Path] = {}
        for rel, schema in wanted.items():
            path = root / "schemas" / rel
            if schema.external:  # a mapped document: mapped again (metaschemas are known)
                if not schema.path.is_file():
                    continue
                prefix, _, name = schema.uri.partition("#")[0].rpartition("/")
                folder = refs.setdefault(f"{prefix}/", root / "remote" / str(len(refs)))
                path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(schema.text, encoding="utf-8")
        config = Config(root, root / "schemas", root / "out" / package, package)
        unmarked = [f.draft for f in wanted.values() if not f.external and "$schema" not in
                    (f.document if isinstance(f.document, dict) else {})]  # fmt: skip
        mapped = tuple(sorted(refs.items(), key=lambda m: len(m[0]), reverse=True))
        options = LoadOptions(unmarked[0] if unmarked else DEFAULT_DRAFT, mapped)
        config = dataclasses.replace(config, loading=options)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                plan = build_plan(config)
        except CodegenError as exc:
            raise CodegenError(
                f"the current schemas do not generate, so no witness can be checked: {exc.message}",
                exc.location,
                exc.rule,
            ) from exc
        for rel, text in plan.files.items():
            path = config.output_dir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        titles = {s.title for s in schemas}
        with _on_path(root / "out"):
            for contract in plan.contracts:
                if contract.name in titles:
                    try:
                        module = importlib.import_module(contract.module)
                        adapter = pydantic.TypeAdapter(getattr(module, contract.name))
                    except RecursionError:
                        raise CodegenError(
                            f"pydantic cannot build the model of {contract.name}: its classes "
                            "reach, across the modules of files that reference each other in a "
                            "chain, deeper than Python's recursion limit "
                            f"({sys.getrecursionlimit()}), so no witness can be checked "
                            "against it (a known limit of the generated models: see "
                            "'Large schemas' in docs/architecture.md of maverick-contracts)",
                            Location(wanted[contract.schema.rel].path),
                            "MODEL_TOO_DEEP",
                        ) from None
                    self._models[contract.name] = adapter


@contextlib.contextmanager
def _on_path(folder: Path) -> Iterator[None]:
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        sys.path.remove(str(folder))
