"""Render every generated file in memory: ``generate``, ``check`` and ``export`` share this.

The plan is a function of the configuration, the schema files and the pinned tools, and
writes nothing. It renders one :class:`~codegen.generate.files.targets.Output` per target of the
configuration (the Python package, and when configured the Markdown catalog and the export
folder), each ``{path relative to the target's folder: text}``, every file with its record
and every folder with its manifest (:mod:`codegen.generate.files.records`).

With ``reuse``, a file whose record says it was made from the inputs it would be made from now
and whose body is intact is taken from disk as it is, and only the contracts whose inputs
changed are generated again (:mod:`codegen.generate.files.units`): the files are the same, byte for
byte, as without.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path, PurePosixPath
from typing import Any

from codegen.core.config import Config
from codegen.core.errors import SchemaError
from codegen.core.inputs import contract_inputs, raw_schema_files, tree_inputs
from codegen.core.loader import SchemaTree
from codegen.core.scratch import scratch_dir
from codegen.generate.consumers.docs import folder_link, render_docs
from codegen.generate.consumers.documents import Documents
from codegen.generate.consumers.export import render_export
from codegen.generate.consumers.npm import render_npm
from codegen.generate.contract import Contract, contracts_of
from codegen.generate.files.drift import made_from
from codegen.generate.files.fmt import format_python, ruff_binary
from codegen.generate.files.records import dump
from codegen.generate.files.reuse import FileSet, Previous
from codegen.generate.files.targets import (
    EXPORT_INDEX,
    GENERATED_MARK,
    NPM_MANIFEST,
    PACKAGE_INDEX,
    Disk,
    Output,
    Target,
    export_target,
    npm_target,
    targets_of,
)
from codegen.generate.files.units import (
    cyclic_group,
    group_inputs,
    is_shared_module,
    module_path,
    to_regenerate,
)
from codegen.generate.models._dmcg import WORKER_MIN_CHARS, Generator
from codegen.generate.models.modules import Modules, closure_of
from codegen.generate.models.package import data_path, own_files
from codegen.generate.plan_tree import load_checked, start_workers, wanted_workers

__all__ = ["HEADER_MARK", "Plan", "build_plan", "is_generated"]


HEADER_MARK = f"# {GENERATED_MARK}"


@dataclass(frozen=True)
class Plan:
    """Everything ``generate`` would write.

    ``files`` is the Python package (modules, package data and manifest), by path relative to
    the output folder. ``outputs`` pairs every target of the configuration with its files.
    ``inputs`` holds each contract's inputs by name and the whole tree's under ``""``. The
    catalog and the export are rendered on first use: a project without them never pays.
    """

    config: Config
    tree: SchemaTree
    contracts: tuple[Contract, ...]
    inputs: Mapping[str, str]
    files: Mapping[PurePosixPath, str]
    output_schemas: Documents  # the forms of agent and tool contracts, and the documents
    regenerated: tuple[str, ...]  # the contracts whose modules were generated, not reused
    disk: Disk | None = None  # with reuse: the files on disk, as the plan read them

    def _previous(self, target: Target, *, configured: bool = True) -> Previous | None:
        """What ``target`` holds on disk, when the plan reuses and the folder is a real one."""
        return Previous.read(target, self.disk) if self.disk and configured else None

    def export_to(self, target: Target, *, configured: bool = True) -> Output:
        """The export, for ``target`` (reusing its files on disk when the plan reuses)."""
        files = FileSet(self._previous(target, configured=configured))
        source = f"{self.config.display(self.config.schema_dir)}/"
        documents = self.output_schemas
        content = render_export(files, self.contracts, documents, self.inputs, source)
        manifest = files.with_manifest(PurePosixPath(EXPORT_INDEX), content, self.inputs[""])
        return Output(target, manifest)

    @cached_property
    def export_files(self) -> Mapping[PurePosixPath, str]:
        """The export of the configured ``export_dir`` (or as it would be anywhere)."""
        folder = self.config.export_dir
        target = export_target(folder if folder is not None else Path("export"), "export")
        return self.export_to(target, configured=folder is not None).files

    def npm_to(self, target: Target, *, configured: bool = True) -> Output:
        """The npm package (``[tool.maverick-codegen.export]``; empty when not configured) for
        ``target``. It is rendered whole, every file made from the whole tree."""
        if self.config.npm is None:
            return Output(target, {})
        source = f"{self.config.display(self.config.schema_dir)}/"
        package, content = render_npm(
            self.config.npm,
            self.tree,
            self.contracts,
            self.export_files,
            source,
            ids=self.output_schemas.ids,
        )
        files = FileSet(self._previous(target, configured=configured))
        for rel, text in package.items():
            files.add(rel, self.inputs[""], partial(str, text))
        manifest = files.with_manifest(PurePosixPath(NPM_MANIFEST), content, self.inputs[""])
        return Output(target, manifest)

    @cached_property
    def npm_files(self) -> Mapping[PurePosixPath, str]:
        """The npm package of the configured ``npm_dir`` (or as it would be anywhere)."""
        settings = self.config.npm
        folder = settings.npm_dir if settings is not None else None
        target = npm_target(folder if folder is not None else Path("npm"), "npm")
        return self.npm_to(target, configured=folder is not None).files

    @cached_property
    def outputs(self) -> tuple[Output, ...]:
        render: dict[str, Callable[[Target], Mapping[PurePosixPath, str]]] = {
            "code": lambda target: self.files,
            "docs": self._docs_files,
            "export": lambda target: self.export_files,
            "npm": lambda target: self.npm_files,
        }
        return tuple(
            Output(t, render[t.name](t), self.disk.files(t) if self.disk else None)
            for t in targets_of(self.config)
        )

    def _docs_files(self, target: Target) -> Mapping[PurePosixPath, str]:
        docs_file = self.config.docs_file
        if docs_file is None:
            return {}
        files = FileSet(Previous.read(target, self.disk) if self.disk else None)
        files.add(
            PurePosixPath(docs_file.name),
            self.inputs[""],
            lambda: _catalog(self.config, docs_file, self.tree, self.contracts, self.inputs[""]),
        )
        files.seal()
        return dict(files.texts)


def is_generated(text: str) -> bool:
    """Whether a file carries our header (only such files are ever replaced or removed)."""
    return text.startswith(HEADER_MARK)


def build_plan(
    config: Config,
    *,
    reuse: bool = False,
    disk: Disk | None = None,
    workers: Sequence[Generator] = (),
) -> Plan:
    """Load, check and render everything; raises :class:`CodegenError` on bad input.

    With ``reuse``, files are taken from the previous generation where they are current
    (``disk``: the files on disk, when the caller read them already). ``workers`` are worker
    processes the caller started already (it stops them)."""
    disk = (disk or Disk()) if reuse else None
    code_target = targets_of(config)[0]
    previous = Previous.read(code_target, disk) if disk else Previous()
    raw = (
        disk.schemas(config)
        if disk
        else raw_schema_files(config.schema_dir, config.loading.exclude)
    )
    tree_digest = tree_inputs(config, raw)
    with ExitStack() as stack:
        # Workers start first: their import of the generator overlaps the loading below.
        early = start_workers(len(raw), previous, tree_digest) - len(workers)
        workers = [
            *workers,
            *(stack.enter_context(Generator(in_worker=True)) for _ in range(early)),
        ]
        tree, refusals = load_checked(config, raw)
        contracts = contracts_of(config, tree)
        inputs = {c.name: contract_inputs(tree, c.schema, config) for c in contracts}
        group = cyclic_group(tree, contracts)
        shared = group_inputs(group, inputs)
        code = FileSet(previous)
        todo = to_regenerate(contracts, inputs, code, group, shared)
        for contract in todo:
            refusals.check_supported(contract.schema)
        if refusals.reasons:  # the others' checks too: every refusal in this run
            refusals.check_compiles(refusals.unrefused(c.schema for c in todo))
        refusals.check(config.shown_schema_dir)
        closure = closure_of(tree, todo)
        large = sum(len(s.text) for s in closure) >= WORKER_MIN_CHARS  # a worker, even for one
        wanted = wanted_workers(len(closure), started=len(workers) or int(large))
        workers += [
            stack.enter_context(Generator(in_worker=True)) for _ in range(wanted - len(workers))
        ]
        scratch = stack.enter_context(scratch_dir("maverick-skeleton-"))
        modules = Modules(
            tree,
            todo,
            group=group,
            workers=workers[:wanted],
            scratch=Path(scratch),
            shown=config.schema_dir,
        )
        forms = Documents(tree, contracts, config.package)
        for own in own_files(config, contracts):
            code.add(own.rel, own.inputs, own.render)
        own_fresh = code.fresh(".py")
        ruff_binary()  # found here, before the thread starts (see ruff_binary)
        with ThreadPoolExecutor(max_workers=1) as pool:
            # ruff runs in its own process: format our files while the generator works (on
            # one thread: a worker generating a large tree has the other core).
            own_formatted = pool.submit(format_python, own_fresh, threads=1)
            _add_data(code, contracts, inputs, forms)
            try:
                modules.compile()
            except SchemaError:  # one file's problem: find every file's, then refuse them all
                refusals.check_compiles([c.schema for c in todo])
                refusals.check(config.shown_schema_dir)
                raise
            generated = modules.result({**inputs, "": shared})
            for contract in contracts:
                rel = module_path(contract)
                code.add(rel, inputs[contract.name], partial(generated.__getitem__, rel))
            _add_shared(code, generated, group, todo, shared)
            fresh = {rel: t for rel, t in code.fresh(".py").items() if rel not in own_fresh}
            code.texts.update(format_python(fresh))
            code.texts.update(own_formatted.result())
    content = {"$comment": f"{GENERATED_MARK} from {config.display(config.schema_dir)}/. "
               "DO NOT EDIT. Every file of this folder that is generated is listed in files, "
               "with its record; made_from says what the generation read.",
               "made_from": made_from(config, raw)}  # fmt: skip
    files = code.with_manifest(PurePosixPath(PACKAGE_INDEX), content, tree_digest)
    regenerated = tuple(c.name for c in todo)
    all_inputs = {**inputs, "": tree_digest}
    return Plan(config, tree, tuple(contracts), all_inputs, files, forms, regenerated, disk)


def _add_data(
    code: FileSet, contracts: Sequence[Contract], inputs: Mapping[str, str], forms: Documents
) -> None:
    """The package data: each contract's schema document, and its form when it has one."""
    for c in contracts:
        code.add(data_path("schemas", c), inputs[c.name], partial(forms.text, c))
        if c.name in forms:
            structured = data_path("structured-output", c)
            code.add(structured, inputs[c.name], partial(_dump_form, forms, c.name))


def _dump_form(forms: Mapping[str, dict[str, Any]], name: str) -> str:
    return dump(forms[name])


def _add_shared(
    code: FileSet,
    generated: Mapping[PurePosixPath, str],
    group: Sequence[Contract],
    todo: Sequence[Contract],
    shared: str,
) -> None:
    """The modules a group shares: as generated now when the group was, else as the previous
    generation left them (:func:`~codegen.generate.files.units.to_regenerate` found them
    current)."""
    if not group:
        return
    members = {c.name for c in group}
    regenerated = any(c.name in members for c in todo)
    found = generated if regenerated else code.previous.texts
    for rel in sorted(rel for rel in found if is_shared_module(rel) and rel not in code.texts):
        code.add(rel, shared, partial(generated.__getitem__, rel))


def _catalog(
    config: Config,
    docs_file: Path,
    tree: SchemaTree,
    contracts: Sequence[Contract],
    inputs: str,
) -> str:
    export = None
    if config.export_dir is not None:
        index = config.export_dir / EXPORT_INDEX
        export = {
            "display": f"{config.display(config.export_dir)}/",
            "link": folder_link(index, docs_file.parent) or "",
        }
    return render_docs(
        tree,
        contracts,
        agents=config.agents.items(),
        docs_file=docs_file,
        source=f"{config.display(config.schema_dir)}/",
        export=export,
        inputs=inputs,
    )
