"""Which properties of an object a compiled check reads: its *footprint*.

A class's validator needs the instance as JSON only where its guard clauses look. This module
reads the compiled code (a predicate function of ``x``, or the body of a validator) and finds,
for its value ``x``, the properties whose values it reads (``x["name"]``), those whose presence
alone it tests (``"name" in x``), whether it reads the names of all its properties (``for key
in x``, ``len(x)``: the object's size, its names matched against patterns), and the functions
``x`` is handed to whole (also each function of a table ``_dispatch`` reads, all called as
``check(x)``: :mod:`.dispatch`). Any other use of ``x`` (its items, a JSON comparison of the whole
value) needs the whole object: :data:`WHOLE`. Tests of its type (``type(x) is dict``) need
nothing.

:class:`Uses` is what one function says of its own ``x``; :func:`footprint` resolves the calls
through the module's functions (a call that comes back to a function being resolved needs the
whole object).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

__all__ = ["WHOLE", "Footprint", "Uses", "footprint", "table_uses", "uses_of"]

# The compiled predicates: _v (a boolean), _a (annotations), _b (a boolean of an _a).
_PREDICATE = re.compile(r"_[vab]\d+")
# A runtime helper that calls each function of its second argument on its first.
_APPLY_EACH = frozenset({"_exactly_one"})
# A table of functions that _dispatch reads (its Uses: calls, the functions it holds), and the
# name the generated code gives each function it reads from one ("for check in _dispatch(...)":
# the same x is handed to each).
_TABLE = re.compile(r"_D\d+")
_DISPATCHED = "check"


@dataclass
class Uses:
    """How one function (or validator body) uses its ``x``."""

    read: set[str] = field(default_factory=set)  # properties whose values it reads
    present: set[str] = field(default_factory=set)  # properties whose presence it tests
    calls: set[str] = field(default_factory=set)  # functions it hands x to, whole
    names: bool = False  # the names of all its properties (iterated, counted)
    whole: bool = False  # anything else: the whole value


@dataclass(frozen=True)
class Footprint:
    """The properties a check reads the values of, those it only tests the presence of, and
    whether it reads the names of all of them (``names``)."""

    read: frozenset[str]
    present: frozenset[str]
    names: bool = False

    @property
    def keys(self) -> frozenset[str]:
        return self.read | self.present


WHOLE = None
"""The footprint of a check that needs the whole object."""


def _parents(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            yield child, node
            stack.append(child)


def uses_of(tree: ast.AST, name: str = "x") -> Uses:
    """How the code in ``tree`` uses the value named ``name``."""
    uses = Uses()
    for node, parent in _parents(tree):
        if isinstance(node, ast.Name) and node.id == name:
            _use(uses, node, parent)
        elif isinstance(node, ast.Call) and _table(node) is not None:
            uses.calls.add(_table(node))  # type: ignore[arg-type]
    return uses


def _table(call: ast.Call) -> str | None:
    """The table of ``_dispatch(x["name"], table)``, the runtime's lookup of the functions to
    call on ``x`` by the value of its property (:mod:`.dispatch`): those of the table are
    called, as ``check(x)``."""
    if (
        isinstance(call.func, ast.Name)
        and call.func.id == "_dispatch"
        and len(call.args) == 2
        and isinstance(call.args[1], ast.Name)
        and _TABLE.fullmatch(call.args[1].id)
    ):
        return call.args[1].id
    return None


def _use(uses: Uses, node: ast.Name, parent: ast.AST) -> None:
    """Record one use of the value (``node``, in ``parent``)."""
    if isinstance(node.ctx, ast.Store):
        uses.whole = True  # the name is bound again: nothing is known of what it holds
    elif (
        isinstance(parent, ast.Subscript)
        and parent.value is node
        and isinstance(parent.slice, ast.Constant)
        and isinstance(parent.slice.value, str)
    ):
        uses.read.add(parent.slice.value)
    elif (
        isinstance(parent, ast.Compare)
        and len(parent.ops) == 1
        and isinstance(parent.ops[0], ast.In | ast.NotIn)
        and parent.comparators[0] is node
        and isinstance(parent.left, ast.Constant)
        and isinstance(parent.left.value, str)
    ):
        uses.present.add(parent.left.value)
    elif isinstance(parent, ast.For | ast.comprehension) and parent.iter is node:
        uses.names = True  # its keys, if an object (no value read by them: x[key] is whole)
    elif (callee := _callee(parent, node)) == "type":
        pass  # a test of its type
    elif callee == _DISPATCHED:
        pass  # a function of a table _dispatch read: the table's functions, counted there
    elif callee == "len":
        uses.names = True
    elif callee is not None and _PREDICATE.fullmatch(callee):
        uses.calls.add(callee)
    elif callee in _APPLY_EACH and isinstance(parent, ast.Call) and len(parent.args) == 2:
        functions = parent.args[1]
        items = functions.elts if isinstance(functions, ast.Tuple) else [functions]
        for item in items:
            if isinstance(item, ast.Name) and _PREDICATE.fullmatch(item.id):
                uses.calls.add(item.id)
            elif not (isinstance(item, ast.Name) and item.id == "_true"):
                uses.whole = True
    else:
        uses.whole = True


def _callee(parent: ast.AST, node: ast.Name) -> str | None:
    """The name of the function ``parent`` calls with ``node`` as its first argument (and no
    other, but for :data:`_APPLY_EACH`), if it does."""
    if (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.args
        and parent.args[0] is node
        and not parent.keywords
        and (len(parent.args) == 1 or parent.func.id in _APPLY_EACH)
    ):
        return parent.func.id
    return None


def table_uses(statement: ast.stmt) -> tuple[str, Uses] | None:
    """A table of functions (``_D0 = _dispatch_table(...)``) and its Uses: a call of each
    function it holds; None for another statement."""
    if not (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and _TABLE.fullmatch(statement.targets[0].id)
    ):
        return None
    called = {n.id for n in ast.walk(statement.value) if isinstance(n, ast.Name)}
    return statement.targets[0].id, Uses(calls={n for n in called if _PREDICATE.fullmatch(n)})


def footprint(uses: Uses, functions: Mapping[str, Uses]) -> Footprint | None:
    """What ``uses`` reads once the calls are followed through ``functions`` (the uses of
    each function of the module by name), or :data:`WHOLE`."""
    read, present, names = set(uses.read), set(uses.present), uses.names
    seen: set[str] = set()
    pending = list(uses.calls)
    if uses.whole:
        return WHOLE
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        callee = functions.get(name)
        if callee is None or callee.whole:
            return WHOLE
        read |= callee.read
        present |= callee.present
        names = names or callee.names
        pending += callee.calls
    return Footprint(frozenset(read), frozenset(present - read), names)
