"""Catan's rule options: a plain dataclass, apart from the engine.

It lives in its own module because the engine may be compiled (see :mod:`ludolab.envs.compiled`),
and a compiled module would neither keep the field types (experiment configs read them to convert
TOML values) nor let a frozen dataclass be unpickled (options travel to worker processes).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

MAX_VP = 5 * 1 + 4 * 2 + 2 + 2 + 5
"""The most victory points a seat can hold at once: 5 settlements and 4 cities on the board
(a city replaces a settlement, and a seat has 5 settlements and 4 cities), longest road,
largest army and the 5 victory-point cards. A higher target can never be reached."""


OPTION_UNITS: dict[str, str] = {
    "vp_to_win": "VP",
    "discard_limit": "cards",
    "turn_limit": "player turns",
    "trade_offers_per_turn": "offers per turn",
}
"""What each number option counts, for axis labels and tables (a sweep over a rule option)."""


@dataclass(frozen=True)
class GameOptions:
    """Rule options. The defaults are the official base game.

    Attributes:
        vp_to_win: victory points that win, counted on the player's own turn.
        discard_limit: on a 7, seats holding more cards than this discard half (rounded down).
        friendly_robber: the robber may not be moved onto a hex touching a building of an
            opponent with fewer than 3 public victory points (unless no other hex is left).
        turn_limit: the game is cut off (truncated, no winner) after this many turns; None for
            no limit. A turn is one player's turn; a round is one turn of every player.
        trade_offers_per_turn: domestic trade offers allowed per turn; 0 turns domestic trade off.
        cut_holder_keeps_ties: when an opponent's settlement shortens the longest-road
            holder's road and the holder is left tied for the longest, the holder keeps the card
            (True, the Catan almanac's rule); False sets it aside until one road is alone in
            front (an earlier reading of the rules; see ``docs/rules/catan.md``).
        debug: check every invariant after every action, and that the native core (when
            built) takes the same step from the same state to the same state
            (:func:`ludolab.envs.catan.native.check_step`); slow, for tests and debugging.
    """

    vp_to_win: int = 10
    discard_limit: int = 7
    friendly_robber: bool = False
    turn_limit: int | None = 1000
    trade_offers_per_turn: int = 2
    cut_holder_keeps_ties: bool = True
    debug: bool = False

    def __post_init__(self) -> None:
        # Integer and boolean fields as exactly int and bool (numpy's scalars, 0 and 1
        # included): the compiled engine reads them as such and would refuse anything else.
        for name in ("vp_to_win", "discard_limit", "trade_offers_per_turn"):
            object.__setattr__(self, name, _integer(name, getattr(self, name)))
        if self.turn_limit is not None:
            object.__setattr__(self, "turn_limit", _integer("turn_limit", self.turn_limit))
        for name in ("friendly_robber", "cut_holder_keeps_ties", "debug"):
            object.__setattr__(self, name, _boolean(name, getattr(self, name)))
        if self.vp_to_win < 3:
            raise ValueError(f"GameOptions.vp_to_win must be at least 3, got {self.vp_to_win}")
        if self.vp_to_win > MAX_VP:
            raise ValueError(
                f"GameOptions.vp_to_win must be at most {MAX_VP}, got {self.vp_to_win}: no seat "
                f"can hold more (5 settlements and 4 cities, longest road, largest army, 5 "
                f"victory-point cards), so the game could never end"
            )
        if self.discard_limit < 0:
            raise ValueError(f"GameOptions.discard_limit must be >= 0, got {self.discard_limit}")
        if self.turn_limit is not None and self.turn_limit < 1:
            raise ValueError(f"GameOptions.turn_limit must be >= 1 or None, got {self.turn_limit}")
        if self.trade_offers_per_turn < 0:
            raise ValueError(
                f"GameOptions.trade_offers_per_turn must be >= 0, got {self.trade_offers_per_turn}"
            )


def _integer(name: str, value: object) -> int:
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"GameOptions.{name} must be an integer, got {value!r}") from None


def _boolean(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if not isinstance(value, str) and value in (0, 1):
        return bool(value)
    raise TypeError(f"GameOptions.{name} must be True or False, got {value!r}")
