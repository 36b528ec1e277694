"""codegen.core.graphs.components: the circles of files, of classes and of deferred chains."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from codegen.core.graphs import components


def _reaches(edges: dict[int, list[int]], start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.dictionaries(
            st.integers(0, n - 1), st.lists(st.integers(0, n - 1), max_size=4), min_size=n
        )
    )
)
def test_components_are_mutual_reachability_in_completion_order(
    edges: dict[int, list[int]],
) -> None:
    found = components(sorted(edges), edges)
    assert sorted(n for held in found for n in held) == sorted(edges)
    reach = {n: _reaches(edges, n) for n in edges}
    where = {n: i for i, held in enumerate(found) for n in held}
    for a in edges:
        for b in edges:
            assert (where[a] == where[b]) == (b in reach[a] and a in reach[b])
            if b in reach[a] and where[a] != where[b]:
                assert where[b] < where[a]  # a component comes after those it leads to


def test_a_long_chain_and_a_long_circle_recurse_nowhere() -> None:
    size = 50_000
    chain = {i: [i + 1] for i in range(size)} | {size: []}
    assert components(range(size + 1), chain)[0] == [size]
    ring = {i: [(i + 1) % size] for i in range(size)}
    (held,) = components(range(size), ring)
    assert sorted(held) == list(range(size))


def test_a_successor_without_edges_of_its_own_has_none() -> None:
    assert components(["a"], {"a": ["b"]}) == [["b"], ["a"]]
