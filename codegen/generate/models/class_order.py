"""The order of a module's classes, and the models completed at its end.

datamodel-code-generator writes a module's classes in the order the schema names them, so a
class often names one defined after it (a root class first, naming every definition). Pydantic
completes such a model lazily, on first use, in its own module: a subclass in another module
created before that re-reads the inherited annotations in its own module, where the later
class is not imported, and is never complete. A ``model_rebuild()`` at the end of the module
completes the model first; but it builds the model's validator there and then, with every
class it reaches (each one not yet built, again for each rebuild): most of the time an import
took on real schemas (jfrog-pipelines: 134 rebuilds).

So the classes are first put in an order where each comes after the classes and aliases it
names wherever that is possible: after every one it needs when it is created (its bases, its
defaults, a ``TypeAliasType``'s type), and then after those its annotations name, each class
as early as it can be (the order written, among those free to go). Only the classes of a group
that name each other in a circle can still name a later one, and only they are rebuilt at the
end. datamodel-code-generator's own ``model_rebuild()`` calls go: every model defers its build,
so a model used in its own module completes itself there, and the classes that must be
complete before another module subclasses them are the ones rebuilt here.
"""

from __future__ import annotations

import ast
import heapq
from collections.abc import Iterator

from codegen.core.graphs import components
from codegen.generate.models.postprocess import hoist_enums, is_enum

__all__ = ["order_classes", "rebuild_forward_references"]


def rebuild_forward_references(code: str, tree: ast.Module | None = None, tail: str = "") -> str:
    """``code``'s classes in order (:func:`order_classes`), then ``tail`` (the predicates,
    neither parsed nor edited), then a ``model_rebuild()`` of each class that still names a
    class or alias defined after it. ``tree``: a syntax tree of ``code``."""
    if code.count("\nclass ") < 2:  # one class names no later one
        return code + tail
    # ``tree`` may predate edits that kept every name but not every line: parsed afresh.
    code, late = order_classes(hoist_enums(code, tree))
    code += tail
    if not late:
        return code
    rebuilds = "\n".join(f"{name}.model_rebuild()" for name in late)
    return f"{code.rstrip()}\n\n\n# Models that name a class defined after them.\n{rebuilds}\n"


def order_classes(code: str) -> tuple[str, list[str]]:
    """``code`` with its classes and type aliases in the order above, without
    datamodel-code-generator's ``model_rebuild()`` calls, and the classes (not enumerations)
    that still name a class or alias defined after them, in their new order. The other
    statements stay where they are: classes and aliases move only among those between two of
    them."""
    lines = code.split("\n")
    body = ast.parse(code).body
    names = {_name(node): index for index, node in enumerate(body) if _movable(node)}
    if not names:
        return code, []
    first = min(names.values())
    last = max(i for i, node in enumerate(body) if i in names.values() or _rebuild_call(node))
    needs = {i: _needs(body[i], names) for i in names.values()}  # (at creation, in annotations)
    order: list[int] = []
    run: list[int] = []
    for index in range(first, last + 1):
        if index in needs:
            run.append(index)
            continue
        order += _sorted(run, needs)
        run = []
        if not _rebuild_call(body[index]):
            order.append(index)
    order += _sorted(run, needs)
    placed = {index: at for at, index in enumerate(order)}
    late = []
    for index in order:
        node = body[index]
        if isinstance(node, ast.ClassDef) and not is_enum(node):
            now, later = needs[index]
            if any(placed[n] > placed[index] for n in now | later):
                late.append(node.name)
    if order == list(range(first, last + 1)):
        return code, late
    # Each statement owns its lines from the end of the one before (comments above it).
    ends = [0, *((node.end_lineno or node.lineno) for node in body)]
    chunks = ("\n".join(lines[ends[i] : ends[i + 1]]).strip("\n") for i in order)
    before, after = "\n".join(lines[: ends[first]]), "\n".join(lines[ends[last + 1] :])
    return f"{before}\n\n\n" + "\n\n\n".join(chunks) + f"\n{after}", late


def _sorted(run: list[int], needs: dict[int, tuple[set[int], set[int]]]) -> list[int]:
    """``run`` (statement indexes, ascending) with each after those it needs within the run
    wherever a circle allows: the groups of statements that name each other in a circle (most
    are a statement alone) each after the groups it names, and within a group each after those
    it names but where a circle is closed; at each step the first in written order that can
    go."""
    if len(run) < 2:
        return run
    members = set(run)
    edges = {i: (needs[i][0] | needs[i][1]) & members - {i} for i in run}
    group = _circles(run, edges)  # statement -> its group, named by its first statement
    groups: dict[int, list[int]] = {}
    for index in run:
        groups.setdefault(group[index], []).append(index)
    between = {g: {group[j] for i in held for j in edges[i]} - {g} for g, held in groups.items()}
    result: list[int] = []
    for name in _stable(sorted(groups), between):
        held = groups[name]
        result += held if len(held) == 1 else _stable(held, {i: edges[i] & set(held) for i in held})
    return result


def _stable(nodes: list[int], edges: dict[int, set[int]]) -> list[int]:
    """``nodes`` (ascending) each after those ``edges`` says it names: at each step the first
    whose named ones are placed, or where none is (a circle) the first not yet placed."""
    waiting = {i: set(edges[i]) for i in nodes}
    users: dict[int, list[int]] = {i: [] for i in nodes}
    for user, wanted in waiting.items():
        for named in wanted:
            users[named].append(user)
    ready = [i for i in nodes if not waiting[i]]
    heapq.heapify(ready)
    done: set[int] = set()
    result: list[int] = []
    pending = iter(nodes)
    while len(result) < len(nodes):
        if ready:
            index = heapq.heappop(ready)
            if index in done:
                continue
        else:  # a circle: the first not yet placed goes, naming some later ones
            index = next(i for i in pending if i not in done)
        done.add(index)
        result.append(index)
        for user in users[index]:
            waiting[user].discard(index)
            if not waiting[user] and user not in done:
                heapq.heappush(ready, user)
    return result


def _circles(nodes: list[int], edges: dict[int, set[int]]) -> dict[int, int]:
    """Each node's strongly connected component, named by its smallest node."""
    return {
        member: min(held)
        for held in components(nodes, {i: sorted(edges[i]) for i in nodes})
        for member in held
    }


def _movable(node: ast.stmt) -> bool:
    """A class, or a type alias (``X = TypeAliasType("X", ...)``)."""
    if isinstance(node, ast.ClassDef):
        return True
    return (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id == "TypeAliasType"
    )


def _name(node: ast.stmt) -> str:
    if isinstance(node, ast.ClassDef):
        return node.name
    target = node.targets[0] if isinstance(node, ast.Assign) else None
    return target.id if isinstance(target, ast.Name) else ""


def _rebuild_call(node: ast.stmt) -> bool:
    """datamodel-code-generator's ``Name.model_rebuild()``."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and not node.value.args
        and not node.value.keywords
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "model_rebuild"
        and isinstance(node.value.func.value, ast.Name)
    )


def _needs(node: ast.stmt, names: dict[str, int]) -> tuple[set[int], set[int]]:
    """The classes and aliases of the module a statement names: those it needs when it is
    created (bases, decorators, defaults, an alias's type), and those only its field
    annotations name (strings, read when the model completes)."""
    now: set[int] = set()
    later: set[int] = set()
    if isinstance(node, ast.ClassDef):
        for statement in node.body:
            if isinstance(statement, ast.AnnAssign):
                later |= _named(statement.annotation, names)
                if statement.value is not None:
                    now |= _named(statement.value, names)
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                for expression in (*statement.decorator_list, *statement.args.defaults):
                    now |= _named(expression, names)
            else:
                now |= _named(statement, names)
        for part in (*node.bases, *node.decorator_list, *(k.value for k in node.keywords)):
            now |= _named(part, names)
    else:
        now |= _named(node, names)
    return now, later - now


def _named(node: ast.AST, names: dict[str, int]) -> set[int]:
    return {names[n.id] for n in _walk_names(node) if n.id in names}


def _walk_names(node: ast.AST) -> Iterator[ast.Name]:
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            yield child
