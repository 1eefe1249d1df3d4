"""Any OpenSpiel game as a ludolab reference engine: its setup (the game's parameters and the
chance outcomes before the first decision), its state, and chance drawn from ludolab's streams.

OpenSpiel (``pyspiel``, the optional extra ``ludolab[openspiel]``) implements the rules; this
module only keeps what ludolab needs around them:

* a **setup** (:class:`OpenSpielSetup`) is the game's parameters (``komi``, ``board_size``...),
  the seats, and the *opening*: the chance outcomes drawn before anyone decides (the deal of a
  card game), pinned by the sampler that drew the setup. A game whose first node is a decision
  has an empty opening, and its setups differ only in their ``replicate`` number, which keeps
  equal setups apart as the runner's units;
* every **chance event after the opening** (a die rolled mid-game, a card turned) is drawn
  from the game seed's own stream (``random.Random("ludolab.openspiel.chance:<seed>")``), never
  from OpenSpiel's generator, so that equal seeds give equal rolls in every condition (common
  random numbers) and a rerun is the same game;
* a game whose players move simultaneously is played as OpenSpiel's turn-based conversion
  (``pyspiel.convert_to_turn_based``): the seats decide one after another without seeing the
  others' choices of the same step.

Actions are OpenSpiel's action numbers; ``action_to_string`` names them.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ludolab.envs.rules import IllegalActionError, InvariantError, as_action

ParameterValue = bool | int | float | str


class OpenSpielError(ValueError):
    """A game, parameter, setup or seat count that OpenSpiel cannot play (a user's error: the
    command line prints it as one line)."""


def pyspiel_module() -> Any:
    """The ``pyspiel`` module; OpenSpielError saying how to install it when it is missing."""
    try:
        import pyspiel
    except ImportError:
        raise OpenSpielError(
            "OpenSpiel is not installed: pip install -e '.[openspiel]' (make setup installs it)"
        ) from None
    return pyspiel


@dataclass(frozen=True)
class OpenSpielOptions:
    """How ludolab plays an OpenSpiel game, beyond the game's own parameters (those are the
    setup's).

    Attributes:
        move_limit: decisions after which a game is cut off (truncated, no winner); 0: only
            the game's own end (many OpenSpiel games bound their length themselves).
    """

    move_limit: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.move_limit, bool) or not isinstance(self.move_limit, int):
            raise OpenSpielError(f"move_limit: expected a whole number, got {self.move_limit!r}")
        if self.move_limit < 0:
            raise OpenSpielError(f"move_limit: expected 0 or more, got {self.move_limit}")


OPTION_UNITS = {"move_limit": "decisions"}


@dataclass(frozen=True)
class OpenSpielSetup:
    """What one game is played on.

    Attributes:
        game: OpenSpiel's short name of the game (``"go"``).
        parameters: the game parameters the setup sets, sorted by name, as (name, value)
            pairs; the game's defaults hold for the others. The seat count is ``n_players``,
            not a parameter.
        n_players: the seats.
        opening: the chance outcomes before the first decision, in order (OpenSpiel's action
            numbers); empty when the game decides first.
        replicate: which of the setups of one draw this is, for setups whose parameters and
            opening are equal (every setup of a game that decides first).
    """

    game: str
    parameters: tuple[tuple[str, ParameterValue], ...]
    n_players: int
    opening: tuple[int, ...] = ()
    replicate: int = 0

    @property
    def id(self) -> str:
        """A digest of the setup (16 hex digits), equal for equal setups."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def parameter_dict(self) -> dict[str, ParameterValue]:
        """The parameters as a mapping."""
        return dict(self.parameters)

    def to_dict(self) -> dict[str, Any]:
        """The setup's JSON form."""
        return {
            "game": self.game,
            "parameters": self.parameter_dict,
            "n_players": self.n_players,
            "opening": list(self.opening),
            "replicate": self.replicate,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "<setup>") -> OpenSpielSetup:
        """A setup from :meth:`to_dict`'s form (other keys, such as those a run's setups file
        adds, are ignored); OpenSpielError naming ``where`` and the field otherwise."""
        if not isinstance(data, Mapping):
            raise OpenSpielError(f"{where}: expected a JSON object, got {type(data).__name__}")
        game, params = data.get("game"), data.get("parameters", {})
        n, opening = data.get("n_players"), data.get("opening", [])
        replicate = data.get("replicate", 0)
        if not isinstance(game, str) or not game:
            raise OpenSpielError(f"{where}: game: expected OpenSpiel's name of a game")
        if not isinstance(params, Mapping) or not all(
            isinstance(v, bool | int | float | str) for v in params.values()
        ):
            raise OpenSpielError(
                f"{where}: parameters: expected an object of numbers, booleans and strings"
            )
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise OpenSpielError(f"{where}: n_players: expected a whole number of seats, got {n!r}")
        if not isinstance(opening, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in opening
        ):
            raise OpenSpielError(f"{where}: opening: expected a list of action numbers")
        if isinstance(replicate, bool) or not isinstance(replicate, int) or replicate < 0:
            raise OpenSpielError(f"{where}: replicate: expected a whole number, got {replicate!r}")
        return cls(game, tuple(sorted(params.items())), n, tuple(opening), replicate)


def parameter_defaults(name: str) -> dict[str, ParameterValue]:
    """The parameters OpenSpiel's game ``name`` takes, with its defaults."""
    return dict(_game_type(name).parameter_specification)


@cache
def _game_type(name: str) -> Any:
    pyspiel = pyspiel_module()
    types = {t.short_name: t for t in pyspiel.registered_games()}
    if name not in types:
        from difflib import get_close_matches

        near = get_close_matches(name, types, n=3)
        hint = f"did you mean {', '.join(near)}? " if near else ""
        raise OpenSpielError(
            f"OpenSpiel has no game {name!r}; {hint}(`ludolab openspiel` lists the games)"
        )
    return types[name]


def checked_parameters(
    name: str, given: Mapping[str, Any], where: str = "parameters"
) -> tuple[tuple[str, ParameterValue], ...]:
    """``given`` as OpenSpiel's game ``name`` takes them: each a parameter it has, of its
    default's type (a whole number where a float is expected becomes one); OpenSpielError
    naming ``where`` and the parameter otherwise. ``players`` is the seat count's, not a
    parameter's."""
    defaults = parameter_defaults(name)
    out: dict[str, ParameterValue] = {}
    for key, value in given.items():
        if key == "players":
            raise OpenSpielError(
                f"{where}.players: the seats are the experiment's players, not a parameter"
            )
        if key not in defaults:
            takes = ", ".join(k for k in sorted(defaults) if k != "players") or "none"
            raise OpenSpielError(
                f"{where}.{key}: OpenSpiel's {name} takes no parameter {key!r}; its "
                f"parameters: {takes}"
            )
        default = defaults[key]
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(default, float):
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            value = float(value) if ok else value
            ok = ok and math.isfinite(value)
        else:
            ok = isinstance(value, str)
        if not ok:
            kind = {bool: "true or false", int: "a whole number", float: "a number"}.get(
                type(default), "a string"
            )
            raise OpenSpielError(
                f"{where}.{key}: expected {kind} (the default is {default!r}), got {value!r}"
            )
        out[key] = value
    return tuple(sorted(out.items()))


def game_string(setup: OpenSpielSetup) -> str:
    """OpenSpiel's string of the game the setup plays, ``go(board_size=7,komi=7.5)``."""
    params = dict(setup.parameters)
    if "players" in parameter_defaults(setup.game):
        params["players"] = setup.n_players
    if not params:
        return setup.game
    inner = ",".join(f"{k}={_spell(v)}" for k, v in sorted(params.items()))
    return f"{setup.game}({inner})"


def _spell(value: ParameterValue) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, float) else str(value)


def load(setup: OpenSpielSetup) -> Any:
    """The OpenSpiel game the setup plays (a ``pyspiel.Game``, turn-based), loaded once per
    game string; OpenSpielError when OpenSpiel refuses the parameters or the seats."""
    return _load(setup.game, setup.parameters, setup.n_players)


@cache
def _load(name: str, parameters: tuple[tuple[str, ParameterValue], ...], players: int) -> Any:
    pyspiel = pyspiel_module()
    kind = _game_type(name)
    if not kind.min_num_players <= players <= kind.max_num_players:
        seats = (
            f"{kind.min_num_players}"
            if kind.min_num_players == kind.max_num_players
            else f"{kind.min_num_players}-{kind.max_num_players}"
        )
        raise OpenSpielError(f"OpenSpiel's {name} takes {seats} players, got {players}")
    params: dict[str, Any] = dict(parameters)
    if "players" in kind.parameter_specification:
        params["players"] = players
    try:
        game = pyspiel.load_game(name, params)
    except pyspiel.SpielError as exc:
        raise OpenSpielError(f"OpenSpiel refuses {name} with {params}: {exc}") from None
    if game.num_players() != players:
        raise OpenSpielError(
            f"OpenSpiel's {name} is played by {game.num_players()} players, got {players}"
        )
    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    elif game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise OpenSpielError(
            f"OpenSpiel's {name} is a mean-field game; ludolab plays games of seats"
        )
    return game


def draw_chance(spiel_state: Any, rng: random.Random) -> int:
    """A chance outcome of ``spiel_state`` (a chance node) drawn with its probabilities from
    ``rng``: one uniform number, the outcomes in OpenSpiel's order."""
    outcomes = spiel_state.chance_outcomes()
    u = rng.random()
    total = 0.0
    for action, p in outcomes:
        total += p
        if u < total:
            return int(action)
    return int(outcomes[-1][0])  # rounding left the total a hair under 1


def opening_of(spiel_state: Any, rng: random.Random) -> tuple[int, ...]:
    """The chance outcomes before the first decision, drawn from ``rng``; ``spiel_state`` is
    left at that decision (or at the end, for a game of chance alone)."""
    drawn = []
    while spiel_state.is_chance_node():
        action = draw_chance(spiel_state, rng)
        spiel_state.apply_action(action)
        drawn.append(action)
    return tuple(drawn)


def chance_stream(seed: int) -> random.Random:
    """The stream a game's chance events after the opening are drawn from."""
    return random.Random(f"ludolab.openspiel.chance:{seed}")


class OpenSpielState:
    """One game in play: OpenSpiel's state, with chance drawn from ludolab's stream and the
    seats' scores kept after every decision.

    Attributes:
        game: the ludolab game's name (``"openspiel:go"``).
        spiel: OpenSpiel's state (read it; step through :meth:`step`).
        setup, seed, options: what the game is played on, with and under.
        decisions: decisions taken so far, every seat's (forced ones included).
        scores: each seat's return after every decision, shape (decisions, players).
        truncated: the game was cut off by ``options.move_limit``.
    """

    def __init__(
        self, setup: OpenSpielSetup, seed: int, options: OpenSpielOptions | None = None
    ) -> None:
        self.game = f"openspiel:{setup.game}"
        self.setup = setup
        self.seed = seed
        self.options = options or OpenSpielOptions()
        self.players = setup.n_players
        self.spiel = load(setup).new_initial_state()
        self._chance = chance_stream(seed)
        for i, action in enumerate(setup.opening):
            if not self.spiel.is_chance_node() or action not in self.spiel.legal_actions():
                raise OpenSpielError(
                    f"setup {setup.id}: opening[{i}] = {action} is not a chance outcome of "
                    f"{game_string(setup)} here"
                )
            self.spiel.apply_action(action)
        self.decisions = 0
        self.scores: list[tuple[float, ...]] = []
        self.truncated = False
        self._resolve_chance()

    def _resolve_chance(self) -> None:
        while self.spiel.is_chance_node():
            self.spiel.apply_action(draw_chance(self.spiel, self._chance))

    @property
    def acting(self) -> int:
        """The seat that must decide now (-4, OpenSpiel's terminal player, once the game is
        over)."""
        return int(self.spiel.current_player())

    @property
    def done(self) -> bool:
        """The game is over: OpenSpiel's end, or cut off."""
        return self.truncated or self.spiel.is_terminal()

    def legal_actions(self) -> list[int]:
        """The acting seat's legal actions, sorted ([] once the game is over)."""
        return [] if self.done else sorted(self.spiel.legal_actions())

    def forced_action(self) -> int:
        """The only legal action, or -1 when the acting seat has a choice."""
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 else -1

    def step(self, action: int) -> None:
        """Take ``action`` for the acting seat, then draw the chance events it leads to."""
        action = as_action(action, self.spiel.get_game().num_distinct_actions())
        if self.done or action not in self.spiel.legal_actions():
            where = "the game is over" if self.done else f"seat {self.acting} to move"
            raise IllegalActionError(
                f"action {action} is not legal in {self.game} ({where}; legal: "
                f"{self.legal_actions()[:12]})"
            )
        self.spiel.apply_action(action)
        self.decisions += 1
        self._resolve_chance()
        self.scores.append(tuple(float(r) for r in self.spiel.returns()))
        limit = self.options.move_limit
        if limit and self.decisions >= limit and not self.spiel.is_terminal():
            self.truncated = True

    @property
    def n_players(self) -> int:
        """The seats."""
        return self.players

    def reseed_chance(self, stream: random.Random) -> None:
        """Draw the chance events to come from ``stream`` instead (a search's copy of the game
        must not know the real game's dice)."""
        self._chance = stream

    def clone(self) -> OpenSpielState:
        """An independent copy (the chance stream's position included)."""
        other = object.__new__(OpenSpielState)
        other.__dict__.update(self.__dict__)
        other.spiel = self.spiel.clone()
        other._chance = random.Random()
        other._chance.setstate(self._chance.getstate())
        other.scores = list(self.scores)
        return other

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest return (every seat for a draw); none for a game cut off,
        or a one-seat game that ended without a positive return."""
        if self.truncated or not self.spiel.is_terminal():
            return ()
        returns = self.spiel.returns()
        if self.players == 1:
            return (0,) if returns[0] > 0 else ()
        best = max(returns)
        return tuple(s for s, r in enumerate(returns) if r == best)

    def check_invariants(self) -> None:
        """InvariantError when the state contradicts itself: a decision node without a legal
        action, returns that are not finite, a zero-sum game whose returns do not sum to 0,
        or a score trace whose length is not the decisions taken."""
        if not self.done and not self.spiel.legal_actions():
            raise InvariantError(f"{self.game}: seat {self.acting} to move has no legal action")
        returns = self.spiel.returns()
        if not all(math.isfinite(r) for r in returns):
            raise InvariantError(f"{self.game}: returns {returns} are not finite")
        kind = self.spiel.get_game().get_type()
        if kind.utility.name == "ZERO_SUM" and abs(sum(returns)) > 1e-9:
            raise InvariantError(
                f"{self.game}: a zero-sum game's returns {returns} sum to {sum(returns)}"
            )
        if len(self.scores) != self.decisions:
            raise InvariantError(
                f"{self.game}: {len(self.scores)} scores for {self.decisions} decisions"
            )

    def describe(self, action: int) -> str:
        """OpenSpiel's name of ``action`` for the acting seat."""
        return str(self.spiel.action_to_string(self.spiel.current_player(), action))


def fair_setup(
    name: str, players: int, seed: int, parameters: Sequence[tuple[str, ParameterValue]] = ()
) -> OpenSpielSetup:
    """A setup of OpenSpiel's game ``name`` with ``parameters`` (the game's defaults for the
    rest) whose opening is drawn with the game's own chance probabilities from ``seed``."""
    bare = OpenSpielSetup(name, tuple(parameters), players)
    spiel = load(bare).new_initial_state()
    opening = opening_of(spiel, random.Random(f"ludolab.openspiel.setup:{seed}"))
    return OpenSpielSetup(name, tuple(parameters), players, opening)


__all__ = [
    "OPTION_UNITS",
    "OpenSpielError",
    "OpenSpielOptions",
    "OpenSpielSetup",
    "OpenSpielState",
    "chance_stream",
    "checked_parameters",
    "draw_chance",
    "fair_setup",
    "game_string",
    "load",
    "opening_of",
    "parameter_defaults",
    "pyspiel_module",
]
