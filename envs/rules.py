"""What every rules engine shares: its two errors, reading an action, the illegal-action message.

Each engine re-exports ``IllegalActionError`` and ``InvariantError``, so
``ludolab.envs.catan.engine.IllegalActionError`` and
``ludolab.envs.gallery.engine.IllegalActionError`` are this one class.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


class InvariantError(AssertionError):
    """The engine's state broke one of the game's conservation laws (a bug in the engine)."""


def as_action(action: object, n_actions: int) -> int:
    """An action index from any integer type (numpy included); anything else is illegal."""
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalActionError(
            f"action {action!r} is not an integer action index 0..{n_actions - 1}"
        ) from None


def illegal_message(
    action: int,
    describe: Callable[[int], str],
    legal: Sequence[int],
    seat: int,
    phase: str,
    over: bool,
) -> str:
    """Why ``action`` was refused: the game is over, or which seat and phase, and (the first
    12 of) the legal actions with their names."""
    if over:
        return f"action {action} ({describe(action)}): the game is over"
    shown = ", ".join(f"{a} {describe(a)}" for a in legal[:12])
    more = f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
    return (
        f"action {action} ({describe(action)}) is not legal for seat {seat} "
        f"in phase {phase}; legal: {shown}{more}"
    )
