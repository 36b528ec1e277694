"""Tidy a compiled predicate's body into the plain code a reviewer expects.

The compiler (:mod:`codegen.generate.predicates`) writes one guard per keyword, which reads
mechanically: ``if not (type(x) is str): return False`` inside ``if type(x) is dict:``. This
module rewrites the syntax tree of each body, with the same meaning:

* an ``if`` whose only statement is another ``if`` (neither with an ``else``) becomes one
  ``if`` joined with ``and``;
* ``not`` over a single identity, membership or equality test flips the operator
  (``not (a is b)`` is ``a is not b``), and ``not not a`` is ``a``;
* a test already known to hold is dropped: after ``if type(x) is not str: return False``,
  ``type(x) is str`` is true, and after ``if "a" not in x: return False``, so is ``"a" in x``;
* a body that ends with a guard followed by ``return True`` returns the condition itself.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["inline_calls", "tidy"]

_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}


def negate(test: ast.expr) -> ast.expr:
    """``not test``, written without ``not`` where an operator can say it."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _FLIP:
        return ast.Compare(test.left, [_FLIP[type(test.ops[0])]()], test.comparators)
    return ast.UnaryOp(ast.Not(), test)


# -- Rewriting a syntax tree, fast ------------------------------------------------------------
#
# ``ast.NodeTransformer`` visits every node, down to each ``Load`` context and operator, through
# generic dispatch: tidying was most of the time a large tree took to generate. ``_rewrite``
# does what a transformer whose ``visit_*`` methods first call ``generic_visit`` does, children
# first and then the handler of the node's type, and never descends into a node that has no
# node below it that a handler could change.

_Handlers = Mapping[type[ast.AST], Callable[[Any], ast.AST]]
_LEAVES = (ast.Name, ast.Constant, ast.expr_context, ast.boolop, ast.operator, ast.unaryop,
           ast.cmpop)  # fmt: skip


def _rewrite(node: ast.AST, handlers: _Handlers) -> Any:
    """``node`` rewritten bottom-up by ``handlers`` (by node type; each returns a node, of the
    kind the place it stands in takes)."""
    if not isinstance(node, _LEAVES):
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for index, item in enumerate(value):
                    if isinstance(item, ast.AST) and _reaches(item, handlers):
                        value[index] = _rewrite(item, handlers)
            elif isinstance(value, ast.AST) and _reaches(value, handlers):
                new = _rewrite(value, handlers)
                if new is not value:
                    setattr(node, name, new)
    handler = handlers.get(type(node))
    return node if handler is None else handler(node)


def _reaches(node: ast.AST, handlers: _Handlers) -> bool:
    """Whether a handler may change ``node`` or a node below it."""
    return not isinstance(node, _LEAVES) or type(node) in handlers


def _tidy_not(node: ast.UnaryOp) -> ast.expr:
    return negate(node.operand) if isinstance(node.op, ast.Not) else node


def _tidy_if(node: ast.If) -> ast.If:
    while (
        not node.orelse
        and len(node.body) == 1
        and isinstance(node.body[0], ast.If)
        and not node.body[0].orelse
    ):
        inner = node.body[0]
        tests = [*_conjuncts(node.test), *_conjuncts(inner.test)]
        node = ast.If(ast.BoolOp(ast.And(), tests), inner.body, [])
    return node


_TIDY: _Handlers = {ast.UnaryOp: _tidy_not, ast.If: _tidy_if}


def _key(node: object) -> object:
    """A value equal for two nodes exactly when their ``ast.dump`` is (and quicker made)."""
    if isinstance(node, ast.AST):
        return (type(node), *(_key(getattr(node, name, None)) for name in node._fields))
    if type(node) is list:
        return tuple(map(_key, node))
    return repr(node)


_SHARED = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)


def _clone(node: Any) -> Any:
    """A copy of a syntax tree whose nodes may be rewritten without touching the original
    (contexts and operators, which are never rewritten, are shared)."""
    if type(node) is list:
        return [_clone(item) for item in node]
    if not isinstance(node, ast.AST) or isinstance(node, _SHARED):
        return node
    return type(node)(**{name: _clone(getattr(node, name, None)) for name in node._fields})


def _names(node: ast.AST) -> Iterator[str]:
    """The identifiers of every ``Name`` in ``node``, in no particular order."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Name):
            yield current.id
            continue
        if isinstance(current, _SHARED) or type(current) is ast.Constant:
            continue
        for name in current._fields:
            value = getattr(current, name, None)
            if type(value) is list:
                stack.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)


def _conjuncts(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return list(test.values)
    return [test]


def _returns(statement: ast.stmt, value: bool) -> bool:
    return (
        isinstance(statement, ast.Return)
        and isinstance(statement.value, ast.Constant)
        and statement.value.value is value
    )


def _simplify(statements: list[ast.stmt], known: set[object]) -> list[ast.stmt]:
    """Drop the tests ``known`` to hold; a guard adds what it proves for what follows."""
    result: list[ast.stmt] = []
    known = set(known)
    for statement in statements:
        if isinstance(statement, ast.If) and not statement.orelse:
            fresh = [(c, k) for c in _conjuncts(statement.test) if (k := _key(c)) not in known]
            tests = [c for c, _ in fresh]
            body = _simplify(statement.body, known | {k for _, k in fresh})
            if not tests:
                result += body
                continue
            test = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
            if len(body) == 1 and _returns(body[0], False) and len(tests) == 1:
                known.add(_key(negate(test)))
            result.append(ast.If(test, body, []))
            continue
        result.append(statement)
    return result


def tidy_function(function: ast.FunctionDef) -> None:
    """Tidy a function's body in place."""
    body = _simplify([_rewrite(statement, _TIDY) for statement in function.body], set())
    if (
        len(body) >= 2
        and isinstance(body[-2], ast.If)
        and not body[-2].orelse
        and len(body[-2].body) == 1
        and _returns(body[-2].body[0], False)
        and _returns(body[-1], True)
    ):
        body = [*body[:-2], ast.Return(negate(body[-2].test))]
    function.body = body


def tidy(lines: list[str]) -> list[str]:
    """The tidied form of a function body (its lines, without the ``def``)."""
    module = ast.parse("def _(x):\n" + "\n".join("    " + line for line in lines))
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef)
    tidy_function(function)
    text = ast.unparse(function)  # unparse reads no positions: none are filled in
    return [line[4:] for line in text.split("\n")[1:]]


_SMALL = 80  # characters: a predicate this short reads better written where it is used


def _substitute(expression: ast.expr, argument: ast.expr) -> ast.expr:
    """``expression`` with every ``x`` replaced by ``argument``."""

    def replace(node: ast.Name) -> ast.expr:
        return _clone(argument) if node.id == "x" else node

    result: ast.expr = _rewrite(_clone(expression), {ast.Name: replace})
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


def inline_calls(functions: str, methods: list[list[str]]) -> tuple[str, list[list[str]]]:
    """Tidy each predicate, write the short ones where they are called, and drop what is no
    longer called.

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
    for index, chunk in enumerate(chunks):
        statement = ast.parse(chunk).body[0]
        if isinstance(statement, ast.FunctionDef):
            tidy_function(statement)
            if (expression := _returned(statement)) is not None:
                inliner.simple[statement.name] = expression
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
            _rewrite(statement, {ast.Call: inliner.inline})
            done[index], used[index] = _finish(statement, inliner)
    parsed = [ast.parse("\n".join(lines)) for lines in methods]
    for tree in parsed:
        _rewrite(tree, {ast.Call: inliner.inline})
    # Keep what is still used: the methods' names, then what the kept statements use.
    where = {name: index for index, names_ in enumerate(defined) for name in names_}
    pending = [where[n] for tree in parsed for n in _names(tree) if n in where]
    keep: set[int] = set()
    while pending:
        index = pending.pop()
        if index not in keep:
            keep.add(index)
            pending += [where[n] for n in used[index] if n in where]
    kept = [t for i, t in enumerate(done) if t is not None and (i in keep or not defined[i])]
    for tree in parsed:
        _rewrite(tree, _TIDY)  # unparse reads no positions: none are filled in
    text = "\n\n\n".join(kept) + "\n" if kept else ""
    return text, [ast.unparse(tree).split("\n") for tree in parsed]


def _finish(statement: ast.stmt, inliner: _Inliner) -> tuple[str, set[str]]:
    """A statement's final text once inlined (tidied again), and the names it uses."""
    names = set(_names(statement))
    if isinstance(statement, ast.FunctionDef) and statement.name in inliner.simple:
        # Later calls take it as it is now, before the tidying below edits it in place.
        inliner.simple[statement.name] = _clone(inliner.simple[statement.name])
    _rewrite(statement, _TIDY)
    return ast.unparse(statement), names
