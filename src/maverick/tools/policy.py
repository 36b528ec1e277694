"""The secrets policy: which files no tool ever reads, whatever it is asked.

One policy for the four tools. A file is denied when its path relative to the root matches
the rules, written as ``.gitignore`` lines (``pathspec``'s ``GitIgnoreSpec``): a name without
a ``/`` matches at any depth, ``dir/`` denies everything below ``dir``, ``**`` spans folders
and a later ``!rule`` allows again what an earlier rule denied. The built-in rules
(:data:`DEFAULT_DENY`: dotenv files, private keys and keystores, credentials files, Terraform
state) come first; a deny list given at start-up (``--deny``, ``--deny-file``) follows them.
Paths are compared case-insensitively, so ``.ENV`` is a dotenv file too.

The policy judges names: the path a caller gives, the path a walk finds and, for a symbolic
link, the path of its target. A copy (or a hard link) of a secret under an innocent name is
not recognised.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import re2
from pathspec import GitIgnoreSpec

__all__ = ["DEFAULT_DENY", "SecretsPolicy"]

DEFAULT_DENY: tuple[str, ...] = (
    # dotenv files: .env, .env.local, .env.production, .envrc, prod.env
    ".env*",
    "*.env",
    # private keys, certificates with keys, keystores
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    # credentials and token files
    "credentials*",
    "*credentials.json",
    ".git-credentials",
    ".netrc",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    # Terraform state holds every secret a deployment wrote
    "*.tfstate",
    "*.tfstate.*",
)


@dataclass(frozen=True)
class SecretsPolicy:
    """The built-in rules followed by ``extra`` rules (gitignore lines)."""

    extra: tuple[str, ...] = ()
    _spec: GitIgnoreSpec = field(init=False, repr=False, compare=False)
    _any_rule: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lines = [line.strip().lower() for line in (*DEFAULT_DENY, *self.extra)]
        kept = [line for line in lines if line and not line.startswith("#")]
        spec = GitIgnoreSpec.from_lines(kept)
        object.__setattr__(self, "_spec", spec)
        object.__setattr__(self, "_any_rule", _union_of_denials(spec))

    @classmethod
    def with_rules(
        cls, rules: Sequence[str] = (), files: Iterable[str | os.PathLike[str]] = ()
    ) -> SecretsPolicy:
        """The policy with ``rules`` and then the lines of each deny-list file in ``files``.

        Raises ``OSError`` when a file cannot be read and ``ValueError`` for a rule that is not
        a valid gitignore line (both name the rule or the file).
        """
        lines = list(rules)
        for file in files:
            with open(file, encoding="utf-8") as stream:
                lines.extend(stream.read().splitlines())
        for line in lines:
            try:
                GitIgnoreSpec.from_lines([line.strip()])
            except Exception as exc:  # pathspec raises several types for a bad pattern
                raise ValueError(f"invalid deny rule {line!r}: {exc}") from None
        return cls(tuple(lines))

    def denies(self, relative: str) -> bool:
        """Whether the file at ``relative`` (POSIX, relative to the root) may hold secrets."""
        return self._spec.match_file(relative.lower())

    def denies_any(self, *relatives: str) -> bool:
        """Whether any of the paths is denied (a link and its target, say)."""
        return any(self.denies(relative) for relative in relatives)

    def denied(self, relatives: Sequence[str]) -> set[str]:
        """The paths among ``relatives`` that :meth:`denies`, decided for all at once.

        A path can be denied only if some deny rule matches it (a ``!`` rule only allows
        again), so one search of the union of the deny rules over all the paths, a line each,
        clears the common case (a folder of source files) without asking rule by rule.
        """
        if not relatives:
            return set()
        if self._any_rule is not None and not any("\n" in r for r in relatives):
            text = "\n".join(relatives).lower().encode("utf-8", "surrogateescape")
            if self._any_rule.search(text) is None:
                return set()
        return {relative for relative in relatives if self.denies(relative)}


def _union_of_denials(spec: GitIgnoreSpec) -> Any:
    """One RE2 expression matching, on a line of its own, every path some deny rule matches.

    None when there is none or RE2 cannot compile it (then every path is asked in turn)."""
    sources = [p.regex.pattern for p in spec.patterns if p.include and p.regex is not None]
    if not sources:
        return None
    options = re2.Options()
    options.never_nl = True  # one path a line: no rule may span two
    options.never_capture = True
    options.log_errors = False
    try:
        return re2.compile("(?m)" + "|".join(f"(?:{s})" for s in sources), options)
    except re2.error:
        return None
