"""The native Masters Gallery core (``_core``, built from ``core.c``), when it is built, current
and not switched off; the Python reference runs otherwise.

The reference is :mod:`ludolab.envs.gallery.engine` with the agents of
:mod:`ludolab.envs.gallery.agents`; the core is a second statement of the same rules and of the
random, leader and greedy agents in C (issue 52), held to them action for action:

* ``Core`` is one game in a flat state (a clone is one copy): ``legal_actions`` in the
  reference's order, ``step``, ``clone``, ``play`` (its agents play to the end: the same
  choices, the greedy agent's arithmetic operation for operation), ``choose`` (one agent's
  decision), ``determinised`` (the ``mcts`` agent's determinisation, draw for draw from the
  agent's stream), and the state by the reference's names (``get_state``; ``set_state`` loads
  a reference game's position, :func:`core_of`);
* ``Stream`` is CPython's ``random.Random`` in C, number for number (envs/stream.h).

``play_game`` plays a game in the core when every seat is an agent the core has, and the
``mcts`` and ``lookahead`` agents search there
(:func:`ludolab.envs.gallery.agents.native_seats.native_seats`). tests/test_gallery_core.py
plays thousands of games on both.

``LUDOLAB_PURE_PYTHON=1`` switches the core off; so does a ``core.c`` edited since the extension
was built, or a Python file it states a second time (setup.py's ``C_EXTENSIONS``), with a
warning, and the reference runs in its place.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ludolab.envs.compiled import PURE_PYTHON_ENV, c_extension
from ludolab.envs.gallery.cards import card_types
from ludolab.envs.random_streams import stream_key

if TYPE_CHECKING:
    from ludolab.envs.gallery.deal import Deal
    from ludolab.envs.gallery.engine import GalleryOptions, Game

SOURCE = Path(__file__).with_name("core.c")


@cache
def native() -> ModuleType | None:
    """The C extension, when it is built, current and not switched off; else None."""
    return c_extension(
        "ludolab.envs.gallery._core", SOURCE, "the Python reference runs in its place"
    )


def stream(seed: int | str) -> Any:
    """A stream seeded as ``random.Random(seed)``: the core's when it is available, else
    ``random.Random`` itself. Both give the same numbers from the same seed."""
    core = native()
    if core is None:
        return random.Random(seed)
    return core.Stream(stream_key(seed))


def new_core(core: ModuleType, deal: Deal, options: GalleryOptions) -> Any:
    """A ``core.Core`` at the start of ``Game(deal, seed, options)`` (the seed only seeds the
    agents)."""
    n, o = deal.n_players, options
    flags = (
        o.rank_empty_artists,
        o.award_choice,
        o.second_card_effects,
        o.closing_card_effects,
        o.next_round_start == "left_of_closer",
        o.extra_card,
        o.extra_card_each_round,
    )
    return core.Core(
        deal.order,
        card_types(o.symbols),
        n,
        o.end_count_for(n),
        o.hand_size,
        o.deals_for(n),
        o.rank_tokens,
        [int(f) for f in flags],
        o.award_value,
        o.award_tokens,
    )


def game_state(game: Game) -> dict[str, Any]:
    """A reference game's position, as ``Core.set_state`` takes it (rows flattened seat by
    seat)."""

    def rows(table: Sequence[Sequence[int]]) -> list[int]:
        return [x for row in table for x in row]

    return {
        "pile": list(game.pile),
        "hands": rows(game.hands),
        "exhibit": rows(game.exhibit),
        "face_down_types": rows(game.face_down_types),
        "hand_size": list(game.hand_size),
        "artist_count": list(game.artist_count),
        "extra_count": list(game.extra_count),
        "table_types": list(game._table_types),
        "discarded": list(game.discarded),
        "tokens": list(game.tokens),
        "awards": list(game.awards),
        "round_awards": list(game._round_awards),
        "scores": list(game.scores),
        "drawn": list(game.drawn),
        "dealt": list(game.dealt),
        "awards_left": game.awards_left,
        "round": game.round,
        "phase": game.phase,
        "current": game.current,
        "acting": game.acting,
        "starter": game.starter,
        "turns": game.turns,
        "n_actions": game.n_actions,
        "last_player": game._last_player,
        "second_kind": game._second_kind,
        "second_artist": game._second_artist,
        "award_closes": int(game._award_closes),
        "missed_draws": game.missed_draws,
        "deck_ran_out": int(game.deck_ran_out),
        "winners": list(game.winners),
        "simul_queue": list(game._simul_queue),
        "dealt_this_round": list(game._dealt_this_round),
        "simul_pending": [x for pair in game._simul_pending for x in pair],
    }


def core_of(game: Game) -> Any | None:
    """A core holding ``game``'s position (its rounds' logs left out), or None without one."""
    core = native()
    if core is None:
        return None
    position = new_core(core, game.deal, game.options)
    position.set_state(game_state(game))
    return position


__all__ = [
    "PURE_PYTHON_ENV",
    "SOURCE",
    "core_of",
    "game_state",
    "native",
    "new_core",
    "stream",
]
