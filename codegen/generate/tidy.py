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

__all__ = ["tidy"]

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


class _Tidy(ast.NodeTransformer):
    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        return negate(node.operand) if isinstance(node.op, ast.Not) else node

    def visit_If(self, node: ast.If) -> ast.If:
        self.generic_visit(node)
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


def _simplify(statements: list[ast.stmt], known: set[str]) -> list[ast.stmt]:
    """Drop the tests ``known`` to hold; a guard adds what it proves for what follows."""
    result: list[ast.stmt] = []
    known = set(known)
    for statement in statements:
        if isinstance(statement, ast.If) and not statement.orelse:
            tests = [c for c in _conjuncts(statement.test) if ast.dump(c) not in known]
            body = _simplify(statement.body, known | {ast.dump(c) for c in tests})
            if not tests:
                result += body
                continue
            test = tests[0] if len(tests) == 1 else ast.BoolOp(ast.And(), tests)
            if len(body) == 1 and _returns(body[0], False) and len(tests) == 1:
                known.add(ast.dump(negate(test)))
            result.append(ast.If(test, body, []))
            continue
        result.append(statement)
    return result


def tidy(lines: list[str]) -> list[str]:
    """The tidied form of a function body (its lines, without the ``def``)."""
    module = ast.parse("def _(x):\n" + "\n".join("    " + line for line in lines))
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef)
    body = _simplify([_Tidy().visit(statement) for statement in function.body], set())
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
    ast.fix_missing_locations(module)
    text = ast.unparse(function)
    return [line[4:] for line in text.split("\n")[1:]]
