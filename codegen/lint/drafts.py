"""Lint checks of what each file's draft says: its ``$schema``, its metaschema, its keywords, and
the problems the loader meets reading it (references, drafts).

Rows of :data:`codegen.lint.table.LINT_RULES` point here. Each file is judged by its own draft
(:mod:`codegen.core.drafts`), as written: the keywords a draft does not define, and those it
ignores beside ``$ref`` (draft-04 to draft-07), are what ``generate`` leaves out of the internal
form without a word, so lint says so, and what to write instead.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema

from codegen.core.drafts import ANNOTATIONS, DRAFTS, Draft, Role
from codegen.core.jsonpos import escape_pointer
from codegen.core.loader import DRAFT_2020_12, SchemaFile
from codegen.core.report import Finding
from codegen.core.translate import positions
from codegen.lint.engine import LintContext

__all__ = [
    "draft_2020_12",
    "draft_known",
    "metaschema_valid",
    "problem_rule",
    "ref_sibling_ignored",
    "undefined_keywords",
]

Check = Callable[[LintContext], Iterator[Finding]]

_META = {
    "draft-04": jsonschema.Draft4Validator,
    "draft-06": jsonschema.Draft6Validator,
    "draft-07": jsonschema.Draft7Validator,
    "2019-09": jsonschema.Draft201909Validator,
    "2020-12": jsonschema.Draft202012Validator,
}
# What stays beside a $ref where the draft ignores the keywords beside it (as the translator).
_BESIDE_REF = frozenset({Role.REF, Role.DEFS, Role.ID, Role.CORE})


# ---------------------------------------------------------------------------- drafts


def draft_known(ctx: LintContext) -> Iterator[Finding]:
    for problem, finding in ctx.problem_findings("DRAFT_KNOWN"):
        schema = ctx.tree.by_rel.get(problem.rel)
        if problem.pointer == "/$schema" and schema is not None:
            message = f"{problem.message}; lint read it as {schema.draft.name} (default_draft)"
            yield ctx.finding_in_file(schema, problem.pointer, "DRAFT_KNOWN", message)
        else:
            yield finding


def draft_2020_12(ctx: LintContext) -> Iterator[Finding]:
    for schema in ctx.tree.files:
        if schema.document.get("$schema") != DRAFT_2020_12:
            message = (
                f"$schema must be {DRAFT_2020_12!r} (this project's house rule: every contract "
                "in draft 2020-12)"
            )
            pointer = "/$schema" if "$schema" in schema.document else ""
            yield ctx.finding_in_file(schema, pointer, "DRAFT_2020_12", message)


@functools.cache
def _metaschema(draft: str) -> Any:
    cls = _META[draft]
    return cls(cls.META_SCHEMA)  # no format checks: "format" is an annotation here


def metaschema_valid(ctx: LintContext) -> Iterator[Finding]:
    refused = dict(ctx.problem_findings("METASCHEMA_VALID"))  # what the loader cannot read
    yield from refused.values()
    seen = {(str(problem.rel), problem.pointer) for problem in refused}
    for schema in ctx.tree.files:
        draft = schema.draft
        for error in _metaschema(draft.name).iter_errors(schema.document):
            pointer = "".join(f"/{escape_pointer(str(p))}" for p in error.absolute_path)
            text = error.message if len(error.message) <= 160 else error.message[:157] + "..."
            if (str(schema.rel), pointer) in seen:
                continue  # said once (2019-09 and 2020-12 reach a keyword by several paths)
            seen.add((str(schema.rel), pointer))
            message = (
                f"not a valid {draft.name} schema ({draft.metaschema_uri}): {text}; write it as "
                f"that draft's metaschema says, or name the draft it is written in with $schema"
            )
            yield ctx.finding_in_file(schema, pointer, "METASCHEMA_VALID", message)


def problem_rule(rule: str) -> Check:
    """The check of a rule that reports the loader's problems of its kind, all of them."""

    def check(ctx: LintContext) -> Iterator[Finding]:
        for _, finding in ctx.problem_findings(rule):
            yield finding

    return check


# ---------------------------------------------------------------------------- keywords

# Keywords that are not JSON Schema but come from neighbours (OpenAPI), and what says it here.
_NEIGHBOURS = {
    "discriminator": "OpenAPI's keyword: the oneOf or anyOf beside it decides alone (a oneOf "
    "whose branches each fix the tag with const is a discriminated union); remove it",
    "nullable": 'OpenAPI 3.0\'s keyword: allow null with "type": [..., "null"] instead',
    "example": 'OpenAPI\'s keyword: write "examples", a list of documents',
}
# Keywords of other drafts: what to write in a draft that lacks them.
_INSTEAD = {
    "$defs": "use definitions",
    "definitions": "use $defs",
    "dependencies": "use dependentRequired (lists of names) or dependentSchemas (schemas)",
    "dependentRequired": "use dependencies",
    "dependentSchemas": "use dependencies",
    "additionalItems": "use items beside prefixItems",
    "prefixItems": "use items holding a list, and additionalItems for the rest",
    "$dynamicRef": "use $recursiveRef (2019-09), or $schema 2020-12",
    "$dynamicAnchor": "use $recursiveAnchor (2019-09), or $schema 2020-12",
    "$recursiveRef": "use $dynamicRef",
    "$recursiveAnchor": "use $dynamicAnchor",
    "$anchor": 'use an $id holding a fragment ("$id": "#name"; draft-04: "id")',
    "$id": 'use "id"',
    "id": 'use "$id"',
    "const": "use an enum of one value",
}


def _why(key: str, draft: Draft) -> str:
    """Why ``key`` does nothing in a file of ``draft``, and what to do."""
    if key.startswith("x-"):
        return (
            f"{key!r} is an extension keyword, which JSON Schema does not define: generate (and "
            "every validator) ignores it; if another tool reads it, keep it and turn "
            "SUPPORTED_CONSTRUCT off for this file ([tool.maverick-codegen.lint] ignore)"
        )
    if key in _NEIGHBOURS:
        return f"{key!r} is not JSON Schema and generate ignores it: {_NEIGHBOURS[key]}"
    owners = [d.name for d in DRAFTS if key in d.keywords and d is not draft]
    if owners:
        instead = _INSTEAD.get(key, f"set $schema to {owners[-1]} to use it")
        return (
            f"{key!r} is a keyword of {', '.join(owners)}, not of {draft.name}, which ignores it "
            f"(and so does generate): {instead}"
        )
    known = sorted({*draft.keywords, *ANNOTATIONS})
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.8)
    guess = f"did you mean {close[0]!r}?" if close else "remove it, or say it in a description"
    return f"{key!r} is not a keyword of {draft.name}: generate ignores it; {guess}"


def _nodes(schema: SchemaFile) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object the file's draft reads, as written, with its pointer."""
    for pointer, node, _ in positions(schema.document, schema.draft):
        if isinstance(node, dict):
            yield pointer, node


def undefined_keywords(ctx: LintContext) -> Iterator[Finding]:
    """Every keyword a file's draft does not define (SUPPORTED_CONSTRUCT)."""
    for schema in ctx.tree.files:
        draft = schema.draft
        for pointer, node in _nodes(schema):
            for key in node:
                here = f"{pointer}/{escape_pointer(key)}"
                if key == "definitions" and "$defs" in draft.keywords:
                    message = (
                        f"'definitions' is draft-07's name for $defs, which {draft.name} keeps in "
                        "its metaschema only for compatibility: use $defs (generate reads it as "
                        "$defs)"
                    )
                elif key in draft.keywords or key in ANNOTATIONS:
                    continue
                else:
                    message = _why(key, draft)
                yield ctx.finding_in_file(schema, here, "SUPPORTED_CONSTRUCT", message)


def ref_sibling_ignored(ctx: LintContext) -> Iterator[Finding]:
    """draft-04 to draft-07: the keywords beside ``$ref``, which the draft ignores."""
    for schema in ctx.tree.files:
        draft = schema.draft
        if not draft.ref_alone:
            continue
        for pointer, node in _nodes(schema):
            if "$ref" not in node:
                continue
            for key in node:
                role = draft.keywords.get(key)
                if role is None or role in _BESIDE_REF or key in ANNOTATIONS:
                    continue
                message = (
                    f"{key!r} beside $ref is ignored: in {draft.name}, $ref ignores every keyword "
                    "beside it (and so does generate); to apply both, write "
                    f'"allOf": [{{"$ref": ...}}, {{"{key}": ...}}], or set $schema to 2019-09 '
                    "or later"
                )
                here = f"{pointer}/{escape_pointer(key)}"
                yield ctx.finding_in_file(schema, here, "REF_SIBLING_IGNORED", message)
