"""Strongly connected components of a directed graph, for the generator's circles: files that
reference each other, classes that name each other, chains of deferred references."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

__all__ = ["components"]

Node = TypeVar("Node", bound=Hashable)


def components(nodes: Iterable[Node], edges: Mapping[Node, Iterable[Node]]) -> list[list[Node]]:
    """The strongly connected components of the graph, each as the list of its nodes, in the
    order Tarjan's algorithm completes them: a component comes after every component it leads
    to. Iterative (no recursion: a module may hold thousands of classes); a node's successors
    are taken in the order ``edges`` gives them, and a successor ``edges`` does not list as a
    node of its own has none."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    found: list[list[Node]] = []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(edges.get(root, ())))]
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(edges.get(successor, ()))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[Node] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    found.append(component)
    return found
