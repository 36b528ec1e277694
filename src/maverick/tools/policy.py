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

    def __post_init__(self) -> None:
        lines = [line.strip().lower() for line in (*DEFAULT_DENY, *self.extra)]
        kept = [line for line in lines if line and not line.startswith("#")]
        object.__setattr__(self, "_spec", GitIgnoreSpec.from_lines(kept))

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
