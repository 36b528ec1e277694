"""`AgentRegistry`: agent classes by name, and the module-level `registry`.

::

    @registry.register("fixer")          # as a decorator
    class FixerAgent(MaverickAgent[...]): ...

    registry.register("fixer", FixerAgent)   # or as a call
    agent = registry.create("fixer", cli_path=...)

The module-level `registry` knows the six builtin agents: the first lookup imports their
modules (which need the ``agents`` extra, claude-agent-sdk). Importing this module does not.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, overload

from maverick.exceptions import AgentNotFoundError, DuplicateAgentError

if TYPE_CHECKING:  # the base class imports claude-agent-sdk; this module must not
    from maverick.agents.base import MaverickAgent

__all__ = ["BUILTIN_AGENT_MODULES", "AgentRegistry", "registry"]

#: The modules that register the builtin agents.
BUILTIN_AGENT_MODULES: tuple[str, ...] = (
    "maverick.agents.code_reviewer",
    "maverick.agents.fixer",
    "maverick.agents.implementer",
    "maverick.agents.issue_fixer",
    "maverick.agents.simple_fixer",
    "maverick.agents.unified_reviewer",
)

AgentClass: TypeAlias = "type[MaverickAgent[Any, Any]]"
AgentClassT = TypeVar("AgentClassT", bound=AgentClass)


class AgentRegistry:
    """Agent classes by name. ``autoload`` modules are imported on the first lookup."""

    def __init__(self, *, autoload: Sequence[str] = ()) -> None:
        self._agents: dict[str, AgentClass] = {}
        self._autoload = tuple(autoload)
        self._loaded = not self._autoload

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True  # before importing: the modules register into this registry
        for module in self._autoload:
            importlib.import_module(module)

    @overload
    def register(self, name: str) -> Callable[[AgentClassT], AgentClassT]: ...

    @overload
    def register(self, name: str, cls: AgentClassT) -> AgentClassT: ...

    def register(
        self, name: str, cls: AgentClassT | None = None
    ) -> AgentClassT | Callable[[AgentClassT], AgentClassT]:
        """Register ``cls`` under ``name``; without ``cls``, return a class decorator.

        Raises `DuplicateAgentError` when ``name`` is taken (even by the same class).
        """

        def add(agent_cls: AgentClassT) -> AgentClassT:
            if not name:
                raise ValueError("an agent name must be a non-empty string")
            if name in self._agents:
                raise DuplicateAgentError(name)
            self._agents[name] = agent_cls
            return agent_cls

        return add if cls is None else add(cls)

    def get(self, name: str) -> AgentClass:
        """The class registered under ``name``; `AgentNotFoundError` if there is none."""
        self._load()
        try:
            return self._agents[name]
        except KeyError:
            raise AgentNotFoundError(name, known=list(self._agents)) from None

    def list_agents(self) -> list[str]:
        """The registered names, sorted."""
        self._load()
        return sorted(self._agents)

    def create(self, name: str, **kwargs: Any) -> MaverickAgent[Any, Any]:
        """An instance of the agent registered under ``name``, built with ``kwargs``."""
        return self.get(name)(**kwargs)

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._agents


#: The registry of the builtin agents.
registry = AgentRegistry(autoload=BUILTIN_AGENT_MODULES)
