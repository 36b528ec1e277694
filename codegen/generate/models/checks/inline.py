"""Write the short compiled predicates where they are called, and drop what is no longer
called (:func:`inline_calls`): a predicate of one short expression reads better in its caller
than as a function of its own. On the way, how each function uses its value
(:func:`~codegen.generate.models.checks.footprint.uses_of`), for the validators to read only
what their checks look at.
"""

from __future__ import annotations

import ast

from codegen.generate.models.checks.footprint import Uses, table_uses, uses_of
from codegen.generate.models.checks.tidy import clone, names_in, retidy, rewrite, tidy_function

__all__ = ["inline_calls"]

_SMALL = 80  # characters: a predicate this short reads better written where it is used


def _substitute(expression: ast.expr, argument: ast.expr) -> ast.expr:
    """``expression`` with every ``x`` replaced by ``argument``."""

    def replace(node: ast.Name) -> ast.expr:
        return clone(argument) if node.id == "x" else node

    result: ast.expr = rewrite(clone(expression), {ast.Name: replace})
    return result


def _simple_argument(node: ast.expr) -> bool:
    if isinstance(node, ast.Name | ast.Constant):
        return True
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and isinstance(node.slice, ast.Constant)
    )


def _returned(function: ast.FunctionDef) -> ast.expr | None:
    """The expression a function only returns (after its docstring), if short."""
    body = [
        s
        for s in function.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    value = body[0].value
    calls = {n.func.id for n in ast.walk(value) if isinstance(n, ast.Call) and
             isinstance(n.func, ast.Name)}  # fmt: skip
    if function.name in calls or len(ast.unparse(value)) > _SMALL:
        return None
    return value


def _chunks(functions: str) -> list[str]:
    """The module-level statements of compiled predicates, each its own source text (each
    starts on a line at column 0: the compiler writes a constant on one line)."""
    chunks: list[list[str]] = []
    for line in functions.split("\n"):
        if line[:1].strip():
            chunks.append([line])
        elif chunks:
            chunks[-1].append(line)
    return ["\n".join(chunk) for chunk in chunks]


def _defined(statement: ast.stmt) -> list[str]:
    if isinstance(statement, ast.FunctionDef):
        return [statement.name]
    if isinstance(statement, ast.Assign | ast.AnnAssign):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return [t.id for t in targets if isinstance(t, ast.Name)]
    return []


class _Inliner:
    """Writes the short predicates where they are called, in the order of the module."""

    def __init__(self, functions: set[str]) -> None:
        self.functions = functions  # every function the module defines
        self.simple: dict[str, ast.expr] = {}  # a short one's expression, as inlining stands

    def candidate(self, node: ast.Call) -> bool:
        return (
            isinstance(node.func, ast.Name)
            and node.func.id in self.functions
            and len(node.args) == 1
            and not node.keywords
            and _simple_argument(node.args[0])
        )

    def inline(self, node: ast.Call) -> ast.expr:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name in self.simple and self.candidate(node):
            return _substitute(self.simple[name], node.args[0])
        return node

    def calls(self, tree: ast.AST) -> bool:
        """Whether ``tree`` calls a function of the module in a way that may be inlined."""
        return any(isinstance(n, ast.Call) and self.candidate(n) for n in ast.walk(tree))


def inline_calls(
    functions: str, methods: list[list[str]]
) -> tuple[str, list[list[str]], dict[str, Uses]]:
    """Tidy each predicate, write the short ones where they are called, and drop what is no
    longer called; also how each function (by name) uses its value ``x``, as compiled.

    Statement by statement, never a syntax tree of the whole module (at a megabyte of schema
    that tree was most of the memory a generation took). Inlining goes in module order, as a
    rewrite of the whole module would: a call takes the short function as the statements
    before it left it. A statement that calls nothing to inline is finished at once; the
    others are kept as text, read again once every short function is known.
    """
    chunks = _chunks(functions)
    names = {c[4 : c.index("(")] for c in chunks if c.startswith("def ")}
    inliner = _Inliner(names)
    done: list[str | None] = []  # a finished statement's text, or None: read again below
    defined: list[list[str]] = []
    used: list[set[str]] = []
    uses: dict[str, Uses] = {}
    for index, chunk in enumerate(chunks):
        statement = ast.parse(chunk).body[0]
        if isinstance(statement, ast.FunctionDef):
            tidy_function(statement)
            uses[statement.name] = uses_of(statement)
            if (expression := _returned(statement)) is not None:
                inliner.simple[statement.name] = expression
        elif (table := table_uses(statement)) is not None:
            uses[table[0]] = table[1]
        defined.append(_defined(statement))
        if inliner.calls(statement):
            chunks[index] = ast.unparse(statement)
            done.append(None)
            used.append(set())
        else:
            text, names_used = _finish(statement, inliner)
            done.append(text)
            used.append(names_used)
    for index, finished in enumerate(done):
        if finished is None:
            statement = ast.parse(chunks[index]).body[0]
            if isinstance(statement, ast.FunctionDef) and statement.name in inliner.simple:
                # What later calls take: this function's expression, as inlining leaves it.
                expression = _returned(statement)
                assert expression is not None, statement.name
                inliner.simple[statement.name] = expression
            rewrite(statement, {ast.Call: inliner.inline})
            done[index], used[index] = _finish(statement, inliner)
    parsed = [ast.parse("\n".join(lines)) for lines in methods]
    for tree in parsed:
        rewrite(tree, {ast.Call: inliner.inline})
    # Keep what is still used: the methods' names, then what the kept statements use.
    where = {name: index for index, names_ in enumerate(defined) for name in names_}
    pending = [where[n] for tree in parsed for n in names_in(tree) if n in where]
    keep: set[int] = set()
    while pending:
        index = pending.pop()
        if index not in keep:
            keep.add(index)
            pending += [where[n] for n in used[index] if n in where]
    kept = [t for i, t in enumerate(done) if t is not None and (i in keep or not defined[i])]
    for tree in parsed:
        retidy(tree)  # unparse reads no positions: none are filled in
    text = "\n\n\n".join(kept) + "\n" if kept else ""
    return text, [ast.unparse(tree).split("\n") for tree in parsed], uses


def _finish(statement: ast.stmt, inliner: _Inliner) -> tuple[str, set[str]]:
    """A statement's final text once inlined (tidied again), and the names it uses."""
    names = set(names_in(statement))
    if isinstance(statement, ast.FunctionDef) and statement.name in inliner.simple:
        # Later calls take it as it is now, before the tidying below edits it in place.
        inliner.simple[statement.name] = clone(inliner.simple[statement.name])
    retidy(statement)
    return ast.unparse(statement), names
