"""The modules of the contracts a generation regenerates, made from their closure only.

The skeleton of those contracts and of every file they reference goes to
datamodel-code-generator: in this process for a small set, else in the worker processes the
caller started (two for a large set, each given one part of
:func:`~codegen.generate.files.units.partition`). While it runs, the caller renders everything else
and :meth:`Modules.compile` compiles the contracts' predicates; :meth:`Modules.result`
assembles the modules with their headers and validators (not yet formatted).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath

from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.contract import Contract
from codegen.generate.files.units import is_shared_module, module_path, partition
from codegen.generate.models._dmcg import Generator
from codegen.generate.models.assemble import Validators, assemble_modules
from codegen.generate.models.checks.predicates import compile_predicates
from codegen.generate.models.types.skeleton import Skeleton, build_skeleton
from codegen.generate.models.types.skeleton_types import module_file

__all__ = ["Modules", "closure_of"]


def closure_of(tree: SchemaTree, contracts: Sequence[Contract]) -> list[SchemaFile]:
    """The files of ``contracts`` and every file they reference, in the tree's order."""
    rels = {f.rel for c in contracts for f in tree.closure(c.schema)}
    return [f for f in tree.files if f.rel in rels]


class Modules:
    """One generation of the modules of ``todo`` (see the module's docstring)."""

    def __init__(
        self,
        tree: SchemaTree,
        todo: Sequence[Contract],
        *,
        group: Sequence[Contract],
        workers: Sequence[Generator],
        scratch: Path,
        shown: Path,
    ) -> None:
        self.tree = tree
        self.todo = list(todo)
        files = closure_of(tree, todo)
        self.skeleton = build_skeleton(tree, files)
        parts = partition(tree, todo, group, len(workers)) if len(workers) > 1 else [self.todo]
        generators = list(workers) or [Generator(in_worker=False)]
        self.jobs: list[tuple[Generator, list[Contract]]] = []
        for index, part in enumerate(parts if self.todo else []):
            folder = scratch / str(index)
            closure = closure_of(tree, part)
            for schema in closure:
                path = folder / module_file(schema)
                path.parent.mkdir(parents=True, exist_ok=True)
                document = self.skeleton.documents[schema.rel.as_posix()]
                path.write_text(json.dumps(document), encoding="utf-8")
            single = tuple(module_path(part[0]).parts) if len(closure) == 1 else None
            generator = generators[index]
            names = _names(self.skeleton, closure)
            generator.submit(folder, single_module=single, shown=shown, names=names)
            self.jobs.append((generator, part))
        self.in_worker = bool(self.jobs) and generators[0].in_worker
        self.validators = Validators(tree, self.skeleton)

    def compile(self) -> None:
        """Compile the predicates of every schema object of the contracts (an unknown keyword
        anywhere is refused) and, while a worker generates, their validators."""
        definitions = [(c.schema, p) for c in self.todo for p in _definitions(c.schema)]
        compile_predicates(self.tree, definitions, readable=False)
        if self.in_worker:  # the usual module: one contract's classes
            for contract in self.todo:
                self.validators.of([contract])

    def result(self, inputs: Mapping[str, str]) -> dict[PurePosixPath, str]:
        """The contracts' modules (and the shared ones of a group) with header and validators:
        a contract's records ``inputs[name]``, a shared one ``inputs[""]``."""
        assembled: dict[PurePosixPath, str] = {}
        for generator, part in self.jobs:
            wanted = {tuple(module_path(c).parts) for c in part}
            modules = {
                key: code
                for key, code in generator.result().items()
                if key in wanted or is_shared_module(PurePosixPath(*key))
            }
            assembled.update(
                assemble_modules(self.skeleton, part, modules, self.validators, inputs)
            )
        return assembled


def _names(skeleton: Skeleton, files: Sequence[SchemaFile]) -> dict[str, str]:
    """Each class of ``files``, where the generator reads it (``module path.json#pointer``)."""
    return {
        f"{module_file(schema).as_posix()}#{skeleton.generator_pointer(schema, pointer)}": name
        for schema in files
        for pointer, name in schema.classes.items()
    }


def _definitions(schema: SchemaFile) -> list[str]:
    """The pointers of a file's root and of each of its ``$defs`` entries."""
    defs = schema.data.get("$defs")
    names = list(defs) if isinstance(defs, dict) else []
    return ["", *(f"/$defs/{escape_pointer(name)}" for name in names)]
