"""The tidier's own traversal decides as the standard library's would.

:mod:`codegen.generate.models.checks.tidy` rewrites syntax trees without ``ast.NodeTransformer``
and tells tests apart by a key instead of ``ast.dump``, for speed; the golden and differential tests
prove the generated code unchanged, and here each piece is held against what it replaces on
expressions drawn at random.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from codegen.generate.models.checks.tidy import _key, clone, names_in, negate, rewrite, tidy

NAMES = st.sampled_from(["x", "y", "len", "type", "str"])
CONSTANTS = st.sampled_from([0, 1, 1.0, -0.0, 0.0, True, False, None, "a", "1", b"a"])


OPERATORS = st.sampled_from(["is", "is not", "in", "not in", "==", "!="])


def _compare(parts: tuple[str, str, str]) -> str:
    return f"({parts[0]} {parts[1]} {parts[2]})"


def _expressions() -> st.SearchStrategy[str]:
    leaves = NAMES | CONSTANTS.map(repr)
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.tuples(inner, OPERATORS, inner).map(_compare),
            inner.map(lambda e: f"(not {e})"),
            st.tuples(inner, inner).map(lambda t: f"({t[0]} and {t[1]})"),
            st.tuples(NAMES, inner).map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        ),
        max_leaves=8,
    )


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


@settings(max_examples=300, deadline=None)
@given(_expressions(), _expressions())
def test_keys_are_equal_exactly_when_dumps_are(a: str, b: str) -> None:
    left, right = _expr(a), _expr(b)
    assert (_key(left) == _key(right)) == (ast.dump(left) == ast.dump(right))


def test_keys_tell_apart_what_compares_equal_in_python() -> None:
    """``1``, ``1.0`` and ``True`` are equal values but different tests (as their dumps)."""
    keys = {_key(_expr(text)) for text in ("1", "1.0", "True", "-0.0", "0.0")}
    assert len(keys) == 5


class _Reference(ast.NodeTransformer):
    """What the tidier's rules were written as first: a transformer."""

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        return negate(node.operand) if isinstance(node.op, ast.Not) else node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        return ast.Name("inlined") if isinstance(node.func, ast.Name) else node


def _handlers() -> dict[type[ast.AST], Any]:
    def unary(node: ast.UnaryOp) -> ast.expr:
        return negate(node.operand) if isinstance(node.op, ast.Not) else node

    def call(node: ast.Call) -> ast.expr:
        return ast.Name("inlined") if isinstance(node.func, ast.Name) else node

    return {ast.UnaryOp: unary, ast.Call: call}


@settings(max_examples=300, deadline=None)
@given(_expressions())
def test_rewrite_does_what_a_transformer_does(text: str) -> None:
    expected = _Reference().visit(_expr(text))
    assert ast.dump(rewrite(_expr(text), _handlers())) == ast.dump(expected)


@settings(max_examples=200, deadline=None)
@given(_expressions())
def test_clone_andnames_in(text: str) -> None:
    node = _expr(text)
    before = ast.dump(node)
    copied = clone(node)
    assert ast.dump(copied) == before
    rewrite(copied, _handlers())  # rewriting the copy leaves the original alone
    assert ast.dump(node) == before
    walked = sorted(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    assert sorted(names_in(node)) == walked
    assert ast.dump(copy.deepcopy(node)) == before


def test_tidy_joins_flips_and_drops_known_tests() -> None:
    lines = [
        "if not (type(x) is str):",
        "    return False",
        "if type(x) is str:",
        "    if not (len(x) >= 2):",
        "        return False",
        "return True",
    ]
    assert tidy(lines) == ["if type(x) is not str:", "    return False", "return len(x) >= 2"]
