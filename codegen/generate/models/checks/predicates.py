"""Compile JSON Schema into Python predicates that decide exactly as the schema does.

Each schema object compiles to one function of a JSON value (``None``, ``bool``, ``int``,
``float``, ``str``, ``list``, ``dict``: what a JSON parser returns), written as guard clauses:
``return False`` at the first keyword the value breaks, ``return True`` at the end. The
semantics are draft 2020-12's:

* a keyword applies only to values of its type (``minLength`` to strings, ``minimum`` to
  numbers...); ``integer`` is any number with a zero fraction, and ``true`` is no number;
* ``const``, ``enum`` and ``uniqueItems`` compare as JSON does: ``1 == 1.0``, ``false != 0``,
  arrays and objects deeply; ``multipleOf`` is exact for decimals (0.0075 is a multiple of
  0.0001); bounds compare exactly with integers of any size; lengths count code points;
* ``pattern`` and ``patternProperties`` are ECMA-262 regular expressions (``regress``, ``u``
  flag), never Python's ``re``; ``format`` and the ``content*`` keywords are annotations;
* ``unevaluatedProperties`` and ``unevaluatedItems`` see the annotations of every adjacent
  in-place applicator that holds: a schema that needs them compiles to a function returning
  the evaluated property names and item indexes, or ``None`` when the value is invalid.

In *residual* mode (:class:`~codegen.generate.models.types.skeleton.Skeleton` given), the keywords
that the generated types already enforce at a node are skipped, and so is every class that validates
itself: what remains is exactly what the types cannot say. A function whose body would check
nothing is not emitted. The helpers the functions call (``_equal``, ``_regex``...) are in
:data:`RUNTIME`, which the generated package holds once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from codegen.core.jsonpos import resolve_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.core.patterns import PatternError, reading
from codegen.generate.models.checks.guards import ANNOTATIONS, KEYWORDS, Guards, refuse
from codegen.generate.models.checks.plain_patterns import plain_test
from codegen.generate.models.checks.predicate_runtime import RUNTIME
from codegen.generate.models.checks.tidy import tidy
from codegen.generate.models.types.skeleton import Skeleton

Scope = tuple[tuple[str, str, str], ...]  # (dynamic anchor, file, pointer), by anchor
_MAX_DEPTH = 100

__all__ = [
    "ANNOTATIONS",
    "KEYWORDS",
    "RUNTIME",
    "PredicateCompiler",
    "Predicates",
    "compile_predicates",
]


@dataclass
class Predicates:
    """Module-level constants and functions, and the function of each entry (or None); the
    tables of rules keyed on a property (:mod:`.dispatch`) come after every function."""

    lines: list[str] = field(default_factory=list)
    entries: dict[tuple[str, str], str | None] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)

    @property
    def source(self) -> str:
        return "\n".join(self.lines + self.tables) + "\n"


def compile_predicates(
    tree: SchemaTree,
    roots: list[tuple[SchemaFile, str]],
    skeleton: Skeleton | None = None,
    *,
    readable: bool = True,
) -> Predicates:
    """Compile the schemas at ``roots`` (file, JSON pointer) and everything they use.

    ``readable=False`` skips tidying the bodies: for a check whose code is thrown away.

    Without ``skeleton`` every keyword is checked; with it, only what its types do not enforce
    (an entry is None when nothing remains).
    """
    compiler = PredicateCompiler(tree, skeleton, readable=readable)
    for schema, pointer in roots:
        name = compiler.boolean(schema, pointer, residual=skeleton is not None, entry=True)
        compiler.out.entries[(schema.rel.as_posix(), pointer)] = name
    return compiler.out


class PredicateCompiler:
    """Compiles schema objects into functions, once each; ``out`` collects the module body."""

    def __init__(self, tree: SchemaTree, skeleton: Skeleton | None, *, readable: bool = True):
        self.tree = tree
        self.readable = readable  # tidy each body (False: a check that discards the code)
        self.skeleton = skeleton
        self.out = Predicates()
        self.names: dict[tuple[str, str, bool, bool, Scope], str | None] = {}
        # The dynamic scope of the function being compiled: each dynamic anchor a reference of
        # the tree looks for, bound to its outermost declaration among the resources entered.
        self.scope: Scope = ()
        self.dynamic_names = tree.dynamic_names
        # How deep the functions being compiled nest; past _MAX_DEPTH, a function is named at
        # once and compiled when the outermost one is done (a chain of thousands of $refs).
        self.depth = 0
        self.deferred: list[tuple[tuple[Any, ...], Scope]] = []
        self.pending: dict[str, bool] = {}  # functions being compiled -> referenced meanwhile
        self.constants: dict[str, str] = {}
        self.booleans: dict[str, str] = {}
        # Class nodes whose validator checks each property on its own (for its message).
        self.own_properties: set[tuple[str, str]] = set()

    def constant(self, value: Any) -> str:
        typed = ": Any" if value in ([], {}) else ""  # an empty container says no item type
        return self.define(repr(value), "_C", typed)

    def define(self, expression: str, prefix: str, annotation: str = "") -> str:
        if expression not in self.constants:
            name = f"{prefix}{len(self.constants)}"
            self.constants[expression] = name
            self.out.lines.append(f"{name}{annotation} = {expression}")
        return self.constants[expression]

    def table(self, expression: str) -> str:
        """A table of :mod:`.dispatch`, defined once every function it names is (at the end)."""
        if expression not in self.constants:
            name = f"_D{len(self.constants)}"
            self.constants[expression] = name
            self.out.tables.append(f"{name} = {expression}")
        return self.constants[expression]

    def matches(self, schema: SchemaFile, pointer: str, source: Any, subject: str) -> str:
        """An expression true when the pattern at ``pointer`` finds a match in the string
        named ``subject``: a plain string test where it says one (:mod:`.plain_patterns`),
        else the regular expression's search (read once here)."""
        if not isinstance(source, str):
            raise refuse(schema, pointer, "a pattern must be a string", "PATTERN")
        try:
            read = reading(source)
        except PatternError as exc:
            what = "invalid ECMA-262 regular expression" if exc.invalid else "pattern refused"
            raise refuse(schema, pointer, f"{what} {source!r}: {exc}", "PATTERN") from None
        if read.annex_b:
            # Valid without the u flag only: read so (Annex B), on UTF-16 code units (the
            # module gets the class, predicate_runtime.ANNEX_B).
            regex = self.define(f"_AnnexB({read.source!r})", "_R")
        else:
            plain = plain_test(source, subject, self.define)
            if plain is not None:
                return plain
            regex = self.define(f"_regex({source!r})", "_R")
        return f"{regex}.find({subject}) is not None"

    def function(
        self,
        schema: SchemaFile,
        pointer: str,
        *,
        annotate: bool = False,
        residual: bool = False,
        entry: bool = False,
    ) -> str | None:
        """The function of the schema at ``pointer`` (compiled on first use), or None if it
        checks nothing."""
        rel = schema.rel.as_posix()
        node = resolve_pointer(schema.data, pointer)
        skeleton = self.skeleton if residual else None
        if skeleton is not None and not entry and (rel, pointer) in skeleton.classes:
            return None  # a class of its own: its validator checks it
        kept = skeleton.kept_at(rel, pointer) if skeleton is not None else frozenset()
        unevaluated = {"unevaluatedProperties", "unevaluatedItems"} & set(
            node if isinstance(node, dict) else ()
        )
        if unevaluated - kept:
            annotate, residual, kept = True, False, frozenset()  # annotations need everything
        scope = self.enter(schema, pointer)
        key = (rel, pointer, annotate, residual, scope)
        if key in self.names:
            name = self.names[key]
            if name in self.pending:
                self.pending[name] = True
            return name
        name = f"_{'a' if annotate else 'v'}{len(self.names)}"
        self.names[key] = name
        job = (key, name, schema, pointer, kept, node)
        if self.depth >= _MAX_DEPTH:  # a long chain of references: compiled after this one
            self.deferred.append((job, scope))
            return name
        self.pending[name] = False
        outer, self.scope = self.scope, scope
        self.depth += 1
        try:
            return self._compile(job, referenced=False)
        finally:
            self.scope = outer
            self.depth -= 1
            while self.deferred and not self.depth:
                (job, self.scope), self.depth = self.deferred.pop(), 1
                self.pending[job[1]] = True  # named already: it must be defined
                try:
                    self._compile(job, referenced=True)
                finally:
                    self.scope, self.depth = outer, 0

    def _compile(self, job: tuple[Any, ...], *, referenced: bool) -> str | None:
        """The body of the function a job names (None, and no function, when it checks
        nothing and nothing calls it yet)."""
        key, name, schema, pointer, kept, node = job
        rel, _, annotate, residual, _ = key
        body = Guards(
            self, schema, pointer, annotate=annotate, residual=residual, kept=kept
        ).compile(node)
        referenced = self.pending.pop(name) or referenced
        if body is None and not referenced:
            self.names[key] = None
            return None
        where = ascii(f"{rel}#{schema.file_pointer(pointer)}")[1:-1].replace('"', '\\"')
        empty = ["return set(), set()"] if annotate else ["return True"]
        lines = body if body is not None and not self.readable else tidy(body or empty)
        returns = "tuple[set[str], set[int]] | None" if annotate else "bool"
        header = f"def {name}(x: Any) -> {returns}:"
        doc = f'    """{where}"""'
        self.out.lines += ["", "", header, doc, *("    " + ln for ln in lines)]
        return str(name)

    def enter(self, schema: SchemaFile, pointer: str) -> Scope:
        """The dynamic scope once the resource holding ``pointer`` is entered: its dynamic
        anchors that no resource entered before declares are bound to it (the outermost
        declaration wins). Without dynamic references, always ``()``."""
        if not self.dynamic_names or not schema.resources:
            return self.scope
        root = pointer
        while root not in schema.resources:
            root = root.rsplit("/", 1)[0] if root else ""
            if not root and "" not in schema.resources:
                return self.scope
        bound = dict((name, target) for name, *target in self.scope)
        for name, at in schema.resources[root].items():
            if name in self.dynamic_names and name not in bound:
                bound[name] = [schema.rel.as_posix(), at]
        return tuple((name, *bound[name]) for name in sorted(bound))  # type: ignore[misc]

    def dynamic_target(self, name: str, target: SchemaFile, pointer: str) -> tuple[SchemaFile, str]:
        """Where a ``$dynamicRef`` looking for ``name`` leads in the current scope (its static
        target when no resource entered declares the anchor)."""
        for bound, rel, at in self.scope:
            if bound == name:
                return self.tree.by_rel[PurePosixPath(rel)], at
        return target, pointer

    def boolean(
        self, schema: SchemaFile, pointer: str, *, residual: bool = False, entry: bool = False
    ) -> str | None:
        """A function returning a boolean, also for a schema that needs annotations."""
        name = self.function(schema, pointer, residual=residual, entry=entry)
        if name is None or not name.startswith("_a"):
            return name
        if name not in self.booleans:
            self.booleans[name] = f"_b{name[2:]}"
            self.out.lines += ["", "", f"def {self.booleans[name]}(x: Any) -> bool:",
                               f"    return {name}(x) is not None"]  # fmt: skip
        return self.booleans[name]
