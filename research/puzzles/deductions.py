"""What the generated games' deductions share: a solve's difficulty from the rules it used.

A game's ``Deduction`` (its steps, whether the rules finished, the answer) inherits
:class:`Graded` and names its ``LEVELS`` and ``LEVEL_OF_RULE`` (each rule's level index).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar


class Contradiction(Exception):
    """A position the rules prove impossible (a trial's guess is then wrong)."""


class Graded:
    """``level`` and ``score`` of a solve by the rules (a mixin for a game's Deduction, which
    has ``steps``, each with a ``rule``, and ``solved``)."""

    LEVELS: ClassVar[tuple[str, ...]]
    LEVEL_OF_RULE: ClassVar[dict[str, int]]
    steps: Sequence[Any]
    solved: bool

    @property
    def level(self) -> str:
        """The hardest rule's level ("search" if the rules did not finish)."""
        if not self.solved:
            return "search"
        return self.LEVELS[max((self.LEVEL_OF_RULE[s.rule] for s in self.steps), default=0)]

    @property
    def score(self) -> tuple[int, int]:
        """(steps at the hardest level, all steps): larger is harder within a level."""
        if not self.steps:
            return (0, 0)
        top = max(self.LEVEL_OF_RULE[s.rule] for s in self.steps)
        return (sum(self.LEVEL_OF_RULE[s.rule] == top for s in self.steps), len(self.steps))


__all__ = ["Contradiction", "Graded"]
