"""Every schema file a generation refuses, with every reason one run finds.

The tree is loaded permissively (:func:`codegen.core.loader.load_tree` with ``problems``): a
file that cannot be read, a reference that names nothing, an unknown ``$schema``... are
collected, not raised at the first. To those this adds an ``$id`` another file has, each
keyword a contract to generate uses that no model can decide
(:mod:`codegen.generate.models.checks.support`), the first value of each file that no check
compiles from (:mod:`codegen.generate.models.checks.predicates`), and, for each file that
references a refused file (directly or through others), that reference (``REF_REFUSED``).
When anything is refused, nothing is generated: :class:`~codegen.core.errors.Refused` lists
every file with its reasons, and the user either fixes them or leaves them out
(``[tool.maverick-codegen] exclude``, which ``maverick-codegen init --exclude-refused``
writes). A tree with no problem reads the same
permissively as strictly, so what is generated never depends on this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from codegen.core.config import Config
from codegen.core.errors import CodegenError, Location, Refused, SchemaError
from codegen.core.jsonpos import escape_pointer, resolve_pointer
from codegen.core.loader import (
    SchemaFile,
    SchemaTree,
    duplicate_ids,
    iter_subschemas,
    load_tree,
    pointer_of,
)
from codegen.core.resolve import Problem
from codegen.generate.models.checks.guards import check_keywords
from codegen.generate.models.checks.predicates import compile_predicates
from codegen.generate.models.checks.support import check_supported, check_terminates

__all__ = ["EXCLUDE_HINT", "Refusals", "find_refusals"]

EXCLUDE_HINT = (
    "to generate the others, leave these out: maverick-codegen init --exclude-refused lists them "
    "in [tool.maverick-codegen] exclude"
)


class Refusals:
    """The reasons found so far, by refused file (relative to the schema folder)."""

    def __init__(self, tree: SchemaTree, problems: Iterable[Problem]) -> None:
        self.tree = tree
        self.reasons: dict[PurePosixPath, list[CodegenError]] = {}
        self.unreadable = 0
        for problem in (*problems, *duplicate_ids(tree.files)):
            self.unreadable += problem.unreadable
            self._add(problem.rel, self._located(problem))

    def _add(self, rel: PurePosixPath, error: CodegenError) -> None:
        self.reasons.setdefault(rel, []).append(error)

    def _located(self, problem: Problem) -> SchemaError:
        if problem.at is not None:
            where = Location(self.tree.root / problem.rel, *problem.at)
        else:
            schema = self.tree.by_rel.get(problem.rel)
            if schema is None:
                where = Location(self.tree.root / problem.rel, pointer=problem.pointer)
            else:
                where = schema.loc_in_file(problem.pointer)
        return SchemaError(problem.message, where, problem.rule)

    def check_supported(self, schema: SchemaFile) -> None:
        """Note each keyword of ``schema`` that no model can decide (the first one of each
        schema object)."""
        found = False
        for pointer, node in iter_subschemas(schema.data):
            try:
                check_keywords(schema, pointer, node)
            except SchemaError as exc:
                self._add(schema.rel, exc)
                found = True
        if not found:
            for check in (check_supported, lambda s: check_terminates(self.tree, s)):
                try:
                    check(schema)
                except SchemaError as exc:
                    self._add(schema.rel, exc)

    def unrefused(self, schemas: Iterable[SchemaFile]) -> list[SchemaFile]:
        """Those of ``schemas`` that neither are refused nor reference a refused file."""
        return [s for s in schemas if not any(f.rel in self.reasons for f in self.tree.closure(s))]

    def check_compiles(self, schemas: Sequence[SchemaFile]) -> None:
        """Note, for each of ``schemas``, the first keyword the model's checks cannot be
        compiled from (a value no validator reads, a pattern ECMA-262 refuses...), at the
        file that holds it: one compilation of them all, then one each only if that fails."""
        try:
            compile_predicates(self.tree, [r for s in schemas for r in _roots(s)], readable=False)
        except SchemaError:
            pass
        else:
            return
        seen = {(str(e.location), e.message) for errors in self.reasons.values() for e in errors}
        for schema in schemas:
            try:
                compile_predicates(self.tree, _roots(schema), readable=False)
            except SchemaError as exc:
                where = exc.location.path if exc.location else schema.path
                rel = PurePosixPath(where.relative_to(self.tree.root).as_posix())
                if (str(exc.location), exc.message) not in seen:
                    seen.add((str(exc.location), exc.message))
                    self._add(rel if rel in self.tree.by_rel else schema.rel, exc)

    def _derived(self) -> None:
        """Each file that references a refused file is refused too, at that reference."""
        referenced_by: dict[PurePosixPath, list[SchemaFile]] = {}
        for schema in (*self.tree.files, *self.tree.external):
            for target in self.tree.references(schema, external=True):
                if target.rel != schema.rel:
                    referenced_by.setdefault(target.rel, []).append(schema)
        pending = list(self.reasons)
        while pending:
            refused = pending.pop()
            for schema in referenced_by.get(refused, ()):
                first = schema.rel not in self.reasons
                self._add(schema.rel, self._reference(schema, refused))
                if first:
                    pending.append(schema.rel)

    def _reference(self, schema: SchemaFile, refused: PurePosixPath) -> SchemaError:
        """``schema``'s first reference to the refused file, as an error there."""
        where, written = schema.loc(), str(refused)
        for path, node in schema.ref_nodes:
            ref = node["$ref"]
            if (
                isinstance(ref, str)
                and not ref.startswith("#")
                and self.tree.resolve(schema, ref)[0].rel == refused
            ):
                where = schema.loc(f"{pointer_of(path)}/$ref")
                try:
                    written = str(resolve_pointer(schema.document, where.pointer))
                except LookupError:
                    written = ref
                break
        target = self.tree.by_rel.get(refused)
        named = target.uri if target is not None and target.external else refused
        message = f"$ref {written!r} names {named}, which is refused (its reasons are listed)"
        return SchemaError(message, where, "REF_REFUSED")

    def refused(self) -> dict[PurePosixPath, list[CodegenError]]:
        """Every refused file of the schema folder (sorted) with its reasons, those that
        reference one included; the reasons of a document outside it (a mapped URL's) are
        listed with each file that reaches it."""
        if self.reasons:
            self._derived()
        outside = {f.rel for f in self.tree.external}
        found: dict[PurePosixPath, list[CodegenError]] = {}
        for rel in sorted(self.reasons, key=PurePosixPath.as_posix):
            if rel not in outside:
                found[rel] = list(self.reasons[rel])
        for rel in outside & set(self.reasons):
            reaching = [f for f in self.tree.files if rel in {c.rel for c in self.tree.closure(f)}]
            for schema in reaching:
                found.setdefault(schema.rel, []).extend(self.reasons[rel])
        return found

    def check(self, shown: str) -> None:
        """Raise :class:`Refused` when a file is refused: every file, every reason."""
        refused = self.refused()
        if not refused:
            return
        total = len(self.tree.files) + self.unreadable
        errors = list({id(e): e for reasons in refused.values() for e in reasons}.values())
        count = len(refused)
        raise Refused(
            errors,
            f"{count} of {total} schema files in {shown}/ {'is' if count == 1 else 'are'} "
            f"refused ({len(errors)} reason{'' if len(errors) == 1 else 's'} above): no contract "
            f"is generated while one is; {EXCLUDE_HINT}",
        )


def _roots(schema: SchemaFile) -> list[tuple[SchemaFile, str]]:
    """A file's root and each of its ``$defs`` entries: what a generation compiles."""
    defs = schema.data.get("$defs")
    names = list(defs) if isinstance(defs, dict) else []
    return [(schema, ""), *((schema, f"/$defs/{escape_pointer(name)}") for name in names)]


def find_refusals(config: Config) -> tuple[int, dict[PurePosixPath, list[CodegenError]]]:
    """How many schema files ``config`` reads, and each file a first generation would refuse
    with its reasons (``init --exclude-refused``): nothing is generated."""
    problems: list[Problem] = []
    tree = load_tree(config.schema_dir, options=config.loading, problems=problems)
    refusals = Refusals(tree, problems)
    for schema in tree.files:
        refusals.check_supported(schema)
    refusals.check_compiles(refusals.unrefused(tree.files))
    return len(tree.files) + refusals.unreadable, refusals.refused()
