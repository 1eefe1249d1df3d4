"""The native Catan core (``_core``, built from ``core.c``), when it is built, current and not
switched off; the Python reference runs otherwise.

The reference is :mod:`ludolab.envs.catan.engine`; the core is a second statement of the same
rules in C (issue 33), held to it action for action:

* :class:`Stream` is CPython's ``random.Random`` (the Mersenne Twister) in C, number for
  number, so the core draws the same dice, shuffles and steals from the same seeds;
* ``Core`` is one game: legal actions in the reference's order, ``step``, ``clone`` (one
  copy of a flat state), the record's fields, and the whole state by the reference's attribute
  names (``get_state``/``set_state``: :func:`game_state` gives a reference game's in the same
  shapes, :func:`core_of` loads one into a core);
* ``Core.play`` plays a game to the end with agents of its own, in C, the same choices from
  the same streams as the Python agents: the random agent and the greedy agent (every
  parameter); :func:`ludolab.envs.catan.play.play_game` uses it when every seat is one of
  them (:func:`ludolab.envs.catan.play.native_seats`).
* ``Core.determinised`` and ``Core.flat_trials`` are the search agents' determinisations
  (:func:`ludolab.envs.catan.agents.determinise.deal_hidden`, draw for draw from the agent's
  stream) and sequential halving's flat play-outs (``SearchAgent._flat_round``), so that a
  decision judged flat is one call into the core.

Debug mode (``GameOptions(debug=True)``) steps a :class:`Mirror` beside the reference and
compares every field after the step (:func:`check_step`), so every rules test and soak test
also tests the core. tests/test_native_core.py plays thousands of games on both.

``LUDOLAB_PURE_PYTHON=1`` switches the core off, as it does the mypyc modules; so does a
``core.c`` edited since the extension was built, or a Python file it states a second time (the
engine, ``play.py``, the random, greedy and value agents, the determinisations: setup.py's
``C_EXTENSIONS``), with a warning: a rule changed in the reference is a rule the core does not
have, and the reference runs in its place.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from ludolab.envs.catan.board import DESERT, Board
from ludolab.envs.catan.topology import load_layout
from ludolab.envs.compiled import PURE_PYTHON_ENV, c_extension
from ludolab.envs.random_streams import stream_key
from ludolab.envs.rules import InvariantError

if TYPE_CHECKING:
    from ludolab.envs.catan.engine import Game
    from ludolab.envs.catan.options import GameOptions

__all__ = ["PURE_PYTHON_ENV", "SOURCE", "Stream", "native", "stream", "stream_key"]
SOURCE = Path(__file__).with_name("core.c")


class Stream(Protocol):
    """What the engine draws from: ``random.Random`` or the core's ``Stream``."""

    def random(self) -> float: ...

    def getrandbits(self, k: int, /) -> int: ...

    def shuffle(self, items: list, /) -> None: ...

    def getstate(self) -> object: ...


@cache
def native() -> ModuleType | None:
    """The C extension, when it is built, current and not switched off; else None."""
    return c_extension(
        "ludolab.envs.catan._core", SOURCE, "the Python reference runs in its place"
    )


def stream(seed: int | str) -> Stream:
    """A stream seeded as ``random.Random(seed)``: the core's when it is available, else
    ``random.Random`` itself. Both give the same numbers from the same seed."""
    core = native()
    if core is None:
        return random.Random(seed)
    return core.Stream(stream_key(seed))


@cache
def _topology_loaded(core: ModuleType) -> bool:
    t = load_layout("standard")  # the engine's tables (engine.tables) are read from it
    core.set_topology(
        t.hex_intersections, t.intersection_hexes, t.intersection_neighbours,
        t.intersection_paths, t.paths,
    )  # fmt: skip
    return True


def stream_name(seed: int, name: str) -> str:
    """The seed string of the engine's ``name`` stream (dice, steal, deck) for game ``seed``."""
    return f"ludolab.catan:{name}:{seed}"


def new_core(
    core: ModuleType,
    board: Board,
    n_players: int,
    seed: int,
    options: GameOptions,
    keys: tuple[list[int], list[int], list[int]] | None = None,
) -> Any:
    """A ``core.Core`` at the start of the game ``Game(board, n_players, seed, options)``;
    ``keys``, the dice, steal and deck streams' key words, if not the seed's."""
    _topology_loaded(core)
    hex_resource, hex_number, harbor_at = board_tables(board)
    limit = options.turn_limit
    if keys is None:
        keys = tuple(stream_key(stream_name(seed, name)) for name in ("dice", "steal", "deck"))
    return core.Core(
        n_players,
        hex_resource,
        hex_number,
        harbor_at,
        board.robber,
        (
            options.vp_to_win,
            options.discard_limit,
            int(options.friendly_robber),
            -1 if limit is None else limit,
            options.trade_offers_per_turn,
            int(options.cut_holder_keeps_ties),
        ),
        *keys,
    )


@cache  # (a Board is frozen: one entry per board played)
def board_tables(board: Board) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Per hex its resource (-1 for the desert) and number (0 for none); per intersection its
    harbor (-1 none, 0 generic 3:1, 1..5 the resource's code + 1 for 2:1), as the engine has
    them (``Game.hex_resource``, ``hex_number``, ``harbor_at``)."""
    t = load_layout("standard")
    harbor_at = [-1] * t.n_intersections
    for slot, code in enumerate(board.harbors):
        for v in t.paths[t.harbor_slots[slot]]:
            harbor_at[v] = code
    resource = tuple(-1 if c == DESERT else c for c in board.terrain)
    return resource, tuple(board.numbers), tuple(harbor_at)


def game_state(game: Game) -> dict[str, object]:
    """The state of a reference game in the names and shapes of ``Core.get_state()``: the
    random streams as their states; dice a test forces (``tests/catan_positions.force_dice``)
    as ``_forced_dice`` in their place."""
    state: dict[str, object] = {name: getattr(game, name) for name in _PLAIN_FIELDS}
    state["_offer"] = game.offer
    state["_steal_rng"] = game._steal_rng.getstate()[1]
    dice = game._dice_rng
    if isinstance(dice, random.Random):
        state["_dice_rng"] = dice.getstate()[1]
        state["_forced_dice"] = []
    else:  # a stand-in that yields chosen faces: ``faces``, those still to come
        state["_forced_dice"] = list(dice.faces)  # type: ignore[attr-defined]
    return state


def core_of(game: Game) -> Any | None:
    """A ``core.Core`` in the state of the reference ``game`` (None without the core)."""
    core = native()
    if core is None:
        return None
    mirror = new_core(core, game.board, game.n_players, game.seed, game.options)
    mirror.set_state(game_state(game))
    return mirror


@dataclass(frozen=True)
class Mirror:
    """A core loaded with a reference game's state, to take the game's next step beside it
    (:func:`check_step`). Its traces start empty (the rules never read them), so that a step
    costs the same early and late in a game: ``dice`` and ``turns`` are the lengths of the
    game's ``dice`` and ``vp_by_turn`` when it was loaded."""

    core: Any
    dice: int
    turns: int


def mirror_of(game: Game) -> Mirror | None:
    """A :class:`Mirror` of ``game`` now (None without the core)."""
    core = native()
    if core is None:
        return None
    mirror = _blank_core(core, game.board, game.n_players, game.options).clone()
    mirror.set_state({**game_state(game), "dice": [], "vp_by_turn": []})  # every field
    return Mirror(mirror, len(game.dice), len(game.vp_by_turn))


# Debug mode checks every step of a game's first DEBUG_EVERY_STEP actions (every hand-made
# position of the rules tests, every setup), then every DEBUG_STRIDE-th: each check starts from
# the reference's own state, so a sampled step is as strong a check as any, and long soak games
# cost about what they cost without the core.
DEBUG_EVERY_STEP, DEBUG_STRIDE = 300, 8


def debug_mirror(game: Game) -> Mirror | None:
    """The mirror debug mode checks ``game``'s next step with, or None (no core, or a step
    the sampling above skips)."""
    n = game.n_actions
    if n >= DEBUG_EVERY_STEP and n % DEBUG_STRIDE:
        return None
    return mirror_of(game)


@lru_cache(maxsize=64)
def _blank_core(core: ModuleType, board: Board, n_players: int, options: GameOptions) -> Any:
    # A core of the table, its streams seeded with anything (a mirror's state sets them).
    return new_core(core, board, n_players, 0, options, _ANY_KEYS)


def differences(core: Any, game: Game, dice: int = 0, turns: int = 0) -> list[str]:
    """Where ``core`` and the reference ``game`` disagree, field by field (the dice stream's
    state only where both roll from a stream). ``dice`` and ``turns``: how many of the game's
    first dice and rows of ``vp_by_turn`` the core's traces leave out."""
    mine, theirs = core.get_state(), game_state(game)
    theirs["dice"] = game.dice[dice:]
    theirs["vp_by_turn"] = game.vp_by_turn[turns:]
    if "_dice_rng" not in theirs:
        mine.pop("_dice_rng")
    return [
        f"{name}: core {mine[name]!r}, reference {theirs[name]!r}"
        for name in theirs
        if mine[name] != theirs[name] and _comparable(mine[name]) != _comparable(theirs[name])
    ]


def check_step(mirror: Mirror, game: Game, action: int) -> None:
    """Step ``mirror`` (of ``game`` before ``action``) with ``action`` and raise
    :class:`InvariantError` unless the core agrees with the reference ``game`` just stepped:
    the action legal, every field, the legal actions next and the forced action. The
    reference's debug mode (``GameOptions.debug``) runs this after every step, so every test
    that plays a game in debug mode also holds the core to the reference."""
    core = mirror.core
    problems = [] if core.step(action) else [f"the core refused action {action}"]
    problems += differences(core, game, mirror.dice, mirror.turns)
    if not problems and not game.done:
        mine, theirs = core.legal_actions(), game._compute_legal()
        if mine != theirs:
            problems.append(f"legal actions: core {mine}, reference {theirs}")
        if core.forced_action() != game.forced_action():
            problems.append("forced action differs")
    if problems:
        raise InvariantError(
            f"native core and reference disagree after action {action} (game seed {game.seed}, "
            f"board {game.board.id}, action {game.n_actions}): " + "; ".join(problems)
        )


def _comparable(value: object) -> object:
    # The reference keeps tuples in some places the core lists (and the other way round).
    if isinstance(value, (list, tuple)):
        return [_comparable(item) for item in value]
    return value


_ANY_KEYS = ([0], [0], [0])

# Game attributes read as they are (the rest: see game_state).
_PLAIN_FIELDS = (
    "robber", "owner", "building", "site_free", "road_owner", "network", "bank", "hands",
    "hand_size", "dev_deck", "dev_hand", "dev_new", "dev_played", "rates", "settlements_left",
    "cities_left", "roads_left", "road_length", "longest_road", "largest_army", "vp_public",
    "phase", "current", "acting", "turns", "winner", "truncated", "n_actions", "_setup_step",
    "_last_settlement", "_dev_played_this_turn", "_offers_this_turn", "_discarding",
    "_to_discard", "_after_robber", "_victims", "_free_roads", "_after_road_building",
    "_responders", "_accepted", "robber_moves", "sevens", "maritime_trades", "domestic_trades",
    "first_settlement_turn", "first_city_turn", "produced", "dice", "vp_by_turn",
)  # fmt: skip
