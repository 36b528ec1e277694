"""Each contract module: the generator's classes, with our header and their validators.

The generator returns one module per schema file, and one shared module (``_internal.py``) for
contracts that reference each other, which their own modules re-export: the validators go
where the classes are. :class:`Validators` compiles each module's validators once, so that
the common ones can be compiled while the generator still runs.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePosixPath

from codegen.core.errors import CodegenError, Location
from codegen.core.loader import SchemaTree
from codegen.generate.contract import Contract
from codegen.generate.files.header import header
from codegen.generate.models._dmcg import HEADER_PLACEHOLDER
from codegen.generate.models.checks.validators import ModuleChecks, module_checks
from codegen.generate.models.class_order import rebuild_forward_references
from codegen.generate.models.deferred import defer_references
from codegen.generate.models.postprocess import edit_module
from codegen.generate.models.types.fields import use_missing, use_tuples
from codegen.generate.models.types.keyed import key_unions
from codegen.generate.models.types.skeleton import Skeleton

__all__ = ["Validators", "assemble_modules"]

_OWN = "the schema, the files it references, [tool.maverick-codegen]"
_SHARED = "the schemas of every contract on or reaching a circle of references"


class Validators:
    """The validators of a module, by the contracts whose classes it holds (computed once)."""

    def __init__(self, tree: SchemaTree, skeleton: Skeleton) -> None:
        self.tree = tree
        self.skeleton = skeleton
        self._done: dict[tuple[str, ...], ModuleChecks] = {}

    def of(self, owners: Sequence[Contract]) -> ModuleChecks:
        key = tuple(c.name for c in owners)
        if key not in self._done:
            schemas = [c.schema for c in owners]
            self._done[key] = module_checks(self.tree, self.skeleton, schemas)
        return self._done[key]


def _tuple_fields(skeleton: Skeleton, owners: list[Contract]) -> dict[str, dict[str, str]]:
    """Class name -> JSON name -> the ``tuple[...]`` type of each exact tuple field."""
    fields: dict[str, dict[str, str]] = {}
    for contract in owners:
        schema = contract.schema
        for (rel, pointer), names in skeleton.tuples.items():
            if rel == schema.rel.as_posix():
                fields[schema.classes[pointer]] = dict(names)
    return fields


def assemble_modules(
    skeleton: Skeleton,
    contracts: list[Contract],
    modules: Mapping[tuple[str, ...], str],
    validators: Validators,
    inputs: Mapping[str, str],
) -> dict[PurePosixPath, str]:
    """Each generated module with our header and its validators inserted: a contract's module
    records ``inputs[name]``, a module shared by several contracts ``inputs[""]``."""
    sources: dict[PurePosixPath, str] = {}
    by_module = {
        (*c.schema.module_parts[:-1], c.schema.module_parts[-1] + ".py"): c for c in contracts
    }
    by_title = {c.name: c for c in contracts}
    shared: set[str] = set()
    internal = sorted(k for k in modules if k not in by_module)
    for key, generated in [
        *((k, modules[k]) for k in internal),
        *sorted((k, v) for k, v in modules.items() if k in by_module),
    ]:
        with _editing(key, by_module.get(key)):
            sources[PurePosixPath(*key)] = _assemble(
                skeleton, key, generated, by_module=by_module, by_title=by_title, shared=shared,
                validators=validators, inputs=inputs,
            )  # fmt: skip
    missing = set(by_module) - set(modules)
    if missing:
        raise CodegenError(f"generator produced no module for {sorted(missing)}")
    return sources


@contextlib.contextmanager
def _editing(key: tuple[str, ...], owner: Contract | None) -> Iterator[None]:
    """A failure other than a :class:`CodegenError` while editing the generated module ``key``
    (an edit the generator's code defeats) is one too, naming the schema file: never a
    traceback that names none."""
    try:
        yield
    except CodegenError:
        raise
    except Exception as exc:
        where = Location(owner.schema.path) if owner is not None else None
        detail = f"{type(exc).__name__}: {exc}"
        raise CodegenError(
            f"maverick-codegen could not edit the generated module {'/'.join(key)} ({detail}); "
            "this is a bug of maverick-codegen, not of the schema: please report it with it",
            where,
            "GENERATOR",
        ) from exc


def _assemble(
    skeleton: Skeleton,
    key: tuple[str, ...],
    generated: str,
    *,
    by_module: Mapping[tuple[str, ...], Contract],
    by_title: Mapping[str, Contract],
    shared: set[str],
    validators: Validators,
    inputs: Mapping[str, str],
) -> str:
    # Contracts that reference each other share one module (the generator's _internal.py,
    # which their own modules re-export): the validators go where the classes are.
    contract = by_module.get(key)
    if contract is not None:
        owners = [] if contract.name in shared else [contract]
    else:
        defined = {n.name for n in ast.parse(generated).body if isinstance(n, ast.ClassDef)}
        owners = [by_title[name] for name in sorted(defined & set(by_title))]
        for owner in owners:
            shared.add(owner.name)
    if contract is None and not owners:
        raise CodegenError(f"generator produced an unexpected module {'/'.join(key)}")
    named = owners if owners or contract is None else [contract]
    source = ", ".join(f"schemas/{c.schema.rel}" for c in named)
    if contract is None:
        top = header(source, inputs[""], _SHARED)
    else:
        top = header(source, inputs[contract.name], _OWN)
    code = generated.replace(HEADER_PLACEHOLDER, top, 1)
    depth = len(key)  # the module's package depth below the output folder
    where = Location(named[0].schema.path)  # only for errors in our own output
    drafts = {c.schema.draft.float_integers for c in named}
    if len(drafts) > 1:
        raise CodegenError(
            f"{source} reference each other in a circle, and draft-04's integers (1.0 is "
            "none) meet another draft's there: give them one draft",
            where,
            "DRAFT",
        )
    strict = not drafts.pop()
    tuples = _tuple_fields(skeleton, owners)
    code, predicates = edit_module(
        code, validators.of(owners), depth, where, strict_integers=strict, tuples=tuples
    )
    # One parse (of the classes, not the predicates after them) for both: MISSING changes
    # no class a field's annotation names.
    tree: ast.Module | None = ast.parse(code)
    code = use_missing(code, where, tree)
    if tuples:  # a tuple's annotation names its items' classes: parsed again
        code, tree = use_tuples(code, tuples, depth, where), None
    tree = tree or ast.parse(code)
    keyed = key_unions(code, tree, depth)
    if keyed is not code:  # annotations rewritten: parsed again
        code, tree = keyed, ast.parse(keyed)
    deferred = defer_references(code, tree, where, depth)
    if deferred is not code:  # a class of its own added: parsed again
        code, tree = deferred, None
    code = rebuild_forward_references(code, tree, predicates)
    return code
