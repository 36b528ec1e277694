"""Tidy a compiled predicate's body into the plain code a reviewer expects.

The compiler (:mod:`codegen.generate.models.checks.predicates`) writes one guard per keyword, which
reads mechanically: ``if not (type(x) is str): return False`` inside ``if type(x) is dict:``. This
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

__all__ = ["clone", "names_in", "negate", "retidy", "rewrite", "tidy", "tidy_function"]

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
# generic dispatch: tidying was most of the time a large tree took to generate. ``rewrite``
# does what a transformer whose ``visit_*`` methods first call ``generic_visit`` does, children
# first and then the handler of the node's type, and never descends into a node that has no
# node below it that a handler could change.

_Handlers = Mapping[type[ast.AST], Callable[[Any], ast.AST]]
_LEAVES = (ast.Name, ast.Constant, ast.expr_context, ast.boolop, ast.operator, ast.unaryop,
           ast.cmpop)  # fmt: skip


def rewrite(node: ast.AST, handlers: _Handlers) -> Any:
    """``node`` rewritten bottom-up by ``handlers`` (by node type; each returns a node, of the
    kind the place it stands in takes)."""
    if not isinstance(node, _LEAVES):
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for index, item in enumerate(value):
                    if isinstance(item, ast.AST) and _reaches(item, handlers):
                        value[index] = rewrite(item, handlers)
            elif isinstance(value, ast.AST) and _reaches(value, handlers):
                new = rewrite(value, handlers)
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


def clone(node: Any) -> Any:
    """A copy of a syntax tree whose nodes may be rewritten without touching the original
    (contexts and operators, which are never rewritten, are shared)."""
    if type(node) is list:
        return [clone(item) for item in node]
    if not isinstance(node, ast.AST) or isinstance(node, _SHARED):
        return node
    return type(node)(**{name: clone(getattr(node, name, None)) for name in node._fields})


def names_in(node: ast.AST) -> Iterator[str]:
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
    body = _simplify([rewrite(statement, _TIDY) for statement in function.body], set())
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


def retidy(node: ast.AST) -> Any:
    """``node`` with its ``not`` and nested ``if`` tidied again (after an edit)."""
    return rewrite(node, _TIDY)
