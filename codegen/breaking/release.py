"""The npm package's version against the last release: the bump the changes since need.

The last release is a git tag ``v<MAJOR.MINOR.PATCH>`` of the project's repository, read with
``git tag`` and ``git cat-file`` (the work tree, index and refs are never written): the tag of
the configured version when there is one (re-exporting a release), else the highest version
below it. The schemas at that tag and in the work tree are compared by the changelog
(:mod:`codegen.breaking.changelog`), whose bump is the policy: a ``CODEGEN`` or
``DATA_BACKWARD`` finding, or a change the check cannot prove compatible, needs a major bump;
an addition, a widening or a deprecation a minor one; documentation a patch. The configured
version must be at least :func:`next_version` of the release: ``export --npm`` refuses (exit 2)
a version that understates the change, naming the change and the version it needs. Without a
release tag there is nothing to compare with: the configured version is the first release.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from codegen.breaking import gitref
from codegen.breaking.changelog import Bump, changelog, next_version, sides_at
from codegen.core.errors import CodegenError, Location
from codegen.core.loader import LoadOptions
from codegen.core.npm_config import parse_version

__all__ = [
    "TAG_PREFIX",
    "Release",
    "VersionCheck",
    "check_version",
    "last_release",
    "required_version",
]

TAG_PREFIX = "v"


@dataclass(frozen=True)
class Release:
    """A released version and the git tag that marks it."""

    version: str
    tag: str


@dataclass(frozen=True)
class VersionCheck:
    """What the configured version was judged against, and what the changes need."""

    version: str
    release: Release | None
    bump: Bump
    needed: str | None  # the least version that releases the changes (None: first release)
    reasons: tuple[str, ...]  # the changes that need the bump, as path:line:col: message

    def describe(self) -> str:
        if self.release is None:
            return f"version {self.version}: no release tag {TAG_PREFIX}<version> yet"
        changes = "no change" if self.bump == "none" else f"a {self.bump} change"
        return (
            f"version {self.version}: {changes} since {self.release.version} ({self.release.tag})"
        )


def last_release(repo: Path, version: str) -> Release | None:
    """The release ``version`` follows: its own tag, else the highest tagged version below it."""
    wanted = parse_version(version)
    if wanted is None:
        raise CodegenError(f"version {version!r} is not MAJOR.MINOR.PATCH", rule="CONFIG")
    found = []
    for tag in gitref.tags(repo, f"{TAG_PREFIX}*"):
        parsed = parse_version(tag.removeprefix(TAG_PREFIX))
        if parsed is not None and parsed <= wanted:
            found.append((parsed, tag))
    if not found:
        return None
    parsed, tag = max(found)
    return Release(".".join(map(str, parsed)), tag)


def required_version(
    repo: Path, release: Release, schema_dir: Path, shown: str, options: LoadOptions | None = None
) -> tuple[Bump, str, list[str]]:
    """The bump the changes from ``release`` to the work tree need, the least version that
    releases them, and the changes that need that bump (``path:line:col: message (RULE)``).

    The one place the policy lives: the changelog's bump and its ``next_version``.
    """
    log = changelog(*sides_at(repo, release.tag, schema_dir, shown, options))
    reasons = [
        f"{e.path}:{e.line}:{e.column}: {e.message} ({e.rule})"
        for e in log.entries
        if e.bump == log.bump
    ]
    return log.bump, next_version(release.version, log.bump), reasons


def check_version(
    repo: Path,
    schema_dir: Path,
    shown: str,
    version: str,
    where: Location,
    *,
    options: LoadOptions | None = None,
) -> VersionCheck:
    """Judge ``version`` against the last release; raises :class:`CodegenError` (exit 2, at
    ``where``) when it understates the changes since."""
    release = last_release(repo, version)
    if release is None:
        return VersionCheck(version, None, "none", None, ())
    bump, needed, reasons = required_version(repo, release, schema_dir, shown, options)
    judged = VersionCheck(version, release, bump, needed, tuple(reasons))
    shown_reasons = "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "")
    if release.version == version and bump != "none":
        raise CodegenError(
            f"version {version} is released ({release.tag}) and the schemas changed since, "
            f"a {bump} change ({shown_reasons}): release them as {needed}",
            where,
            "NPM_VERSION",
        )
    least, current = parse_version(needed), parse_version(version)
    if least is None or current is None:
        raise CodegenError(f"cannot compare version {version} with {needed}", where, "NPM_VERSION")
    if current < least:
        raise CodegenError(
            f"version {version} understates the changes since {release.version} "
            f"({release.tag}): a {bump} change needs {needed} or later ({shown_reasons})",
            where,
            "NPM_VERSION",
        )
    return judged
