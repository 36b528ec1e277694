"""Name, place and word a break: the rule id, the file and pointer, the message.

A :class:`~codegen.breaking.engine.inclusion.Break` names the component of the refusing schema that
its witness breaks. Here it becomes a finding a person can act on: the rule (the same ids as
the table: ``TYPE_NARROWED``, ``ENUM_VALUE_REMOVED``, ``PROPERTY_MADE_REQUIRED``...) and the
message are read from the component and from the part of the witness it judged
(:mod:`codegen.breaking.words`); the place is the component in the new file (in the old one
only when the new file has nothing there), as the file writes it (``SchemaFile.loc``), or, for
a component in a document outside the schema folder, the reference of the contract that leads
there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codegen.breaking.engine.components import located
from codegen.breaking.engine.inclusion import Break, node_at
from codegen.breaking.engine.kinds import Step
from codegen.breaking.engine.literals import child_of
from codegen.breaking.engine.nodes import SNode
from codegen.breaking.engine.nodes import counterpart as counterpart_in
from codegen.breaking.engine.unions import untold
from codegen.breaking.walk import describe
from codegen.breaking.words import BACKWARD, declared_names, offending, resolves, worded
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import SchemaFile, SchemaTree
from codegen.generate.rules import is_base

__all__ = ["BACKWARD", "FORWARD", "Explained", "explain"]

FORWARD = "DATA_FORWARD"


@dataclass(frozen=True)
class Explained:
    """A break as a finding: its rule, where it is (file of which version, pointer), what."""

    rule: str
    file: SchemaFile
    current: bool
    pointer: str
    message: str


def explain(
    item: Break, direction: str, refusing: SNode, other: SchemaTree, contract: str
) -> Explained:
    """The finding of ``item``, a break of ``refusing`` (the new root for ``DATA_BACKWARD``,
    the old one for ``DATA_FORWARD``); ``other`` is the other version's tree.

    A break inside a document outside the schema folder (``tree.external``) is a change of
    each contract reaching it: it is shown at the reference of the contract's own files that
    leads into that document.
    """
    said = _explained(item, direction, refusing, other)
    if not said.file.external:
        return said
    node, crossing = refusing, None
    for step in item.path:
        child = child_of(node, step)
        if child is None:
            break
        if child.home.external and not node.home.external:
            crossing = (node, step[0], child)
        node = child
    if crossing is None:
        return said
    holder, key, target = crossing
    pointer = f"{holder.pointer}/{escape_pointer(key)}"
    file, current, pointer = _placed(
        holder, pointer, counterpart_in(other, holder), other, direction == BACKWARD
    )
    named = f"{target.home.uri}#{target.home.file_pointer(target.pointer)}"
    subject = describe(holder.home.title, holder.pointer, capital=True, file=holder.home)
    text = said.message
    text = text[:1].lower() + text[1:] if text[1:2].islower() else text
    message = f"{subject}, through its reference to {named}: {text}"
    return Explained(said.rule, file, current, pointer, message)


def _explained(item: Break, direction: str, refusing: SNode, other: SchemaTree) -> Explained:
    path = item.path
    node = node_at(refusing, path) if path else refusing
    step: Step = path[-1] if path else ("$self",)
    pointer = _pointer(node, step)
    counterpart = counterpart_in(other, node)
    rule_at = _rule_on(refusing, path)
    value = located(refusing, path, item.witness) if item.decided else None
    subject = describe(node.home.title, node.pointer, file=node.home)
    backward = direction == BACKWARD
    if not item.decided:
        rule = "CHANGE_UNPROVEN"
        asked = (
            "the new contract still accepts every document the previous one accepted"
            if backward
            else "the previous contract accepts every document the new one accepts"
        )
        place = "for" if step[0] == "$self" else f"at the {step[0]} of"
        message = f"Whether {asked} could not be decided {place} {subject}: {item.reason}"
        message += _tried(node, item.reason) + "."
    else:
        rule, message = worded(
            node,
            step,
            other=other,
            counterpart=counterpart,
            value=value,
            subject=subject,
            backward=backward,
            rule_at=rule_at,
        )
        if rule == "PROPERTY_DELETED" and counterpart is not None:
            return _deleted(node, step, counterpart, value)
        if rule in ("PROPERTY_MADE_OPTIONAL", "PROPERTY_ADDED_CLOSED") and counterpart is not None:
            name = step[1] if rule == "PROPERTY_MADE_OPTIONAL" else message.split('"')[1]
            declared = f"{counterpart.pointer}/properties/{escape_pointer(name)}"
            if resolves(counterpart.home.data, declared):
                return Explained(rule, counterpart.home, True, declared, message)
    file, current, pointer = _placed(node, pointer, counterpart, other, backward)
    return Explained(rule, file, current, pointer, message)


def _tried(node: SNode, reason: str) -> str:
    """What the check tried before its search bound: each edit asked where it was made,
    widenings proved, unions told apart decided branch by branch; and the unions it found no
    way to tell apart, whose branches it searched in combination."""
    if not reason.startswith("the search bound"):
        return ""
    tried = (
        " (tried: each edit asked where it was made, widenings proved from the two schemas, "
        "unions told apart by a tag, a required property, their types or their values decided "
        "branch by branch"
    )
    combined = untold(node)
    if not combined:
        return tried + ")"
    places = ", ".join(
        f"{n.home.file_pointer(n.pointer) or '/'} ({'anyOf' if 'anyOf' in n.obj else 'oneOf'})"
        for n in combined
    )
    return f"{tried}; searched in combination: the branches of {places}, told apart by none)"


def _deleted(node: SNode, step: Step, counterpart: SNode, value: Any) -> Explained:
    """A property deleted under a closed content model: shown where it was, in the words of
    the CODEGEN finding of the same deletion, so that the two are one finding."""
    names = [step[1]] if len(step) > 1 else offending(node, step[0], value)
    name = next(k for k in names if k in declared_names(counterpart))
    own = counterpart.obj.get("properties") or {}
    pointer = counterpart.pointer + (f"/properties/{escape_pointer(name)}" if name in own else "")
    subject = describe(counterpart.home.title, pointer, file=counterpart.home)
    message = f'Previously present {subject} was deleted. Mark it "deprecated": true instead.'
    return Explained("PROPERTY_DELETED", counterpart.home, False, pointer, message)


def _pointer(node: SNode, step: Step) -> str:
    if step[0] == "$self":
        return node.pointer
    if step[0] in ("additionalProperties", "unevaluatedProperties"):
        return f"{node.pointer}/{step[0]}"  # refined to one name or not: the keyword
    if step[0] == "required":
        declared = f"{node.pointer}/properties/{escape_pointer(step[1])}"
        if resolves(node.home.data, declared):
            return declared
        return f"{node.pointer}/required/{node.obj['required'].index(step[1])}"
    tokens = "/".join(escape_pointer(t) for t in step)
    return f"{node.pointer}/{tokens}"


def _placed(
    node: SNode, pointer: str, counterpart: SNode | None, other: SchemaTree, backward: bool
) -> tuple[SchemaFile, bool, str]:
    """Where the finding is shown: the new file at the component, or at the nearest place
    there when the component was removed; the old file when the new one lost the schema
    that held it (a removed rule, property or file)."""
    if backward:
        return node.home, True, pointer
    if counterpart is None or not resolves(counterpart.home.data, pointer):
        return node.home, False, pointer
    return counterpart.home, True, pointer


def _rule_on(root: SNode, path: tuple[Step, ...]) -> tuple[SNode, str] | None:
    """The cross-field rule the path goes through, if any: (the node holding it, pointer)."""
    node = root
    for step in path:
        key = step[0]
        if key in ("then", "else"):
            return node, node.pointer
        if key in ("dependentRequired", "dependentSchemas"):
            return node, f"{node.pointer}/{key}/{escape_pointer(step[1])}"
        if key == "allOf" and not is_base(node.obj["allOf"][step[1]]):
            return node, f"{node.pointer}/allOf/{step[1]}"
        child = child_of(node, step)
        if child is None:
            return None
        node = child
    return None
