"""The observation a learning agent gets: one flat float32 vector from one seat's point of view.

``encode(game, seat)`` is shared by the Gymnasium and PettingZoo environments. Seats are
*relative*: index 0 of every per-seat block is the observer ("me"), index ``k`` the seat ``k``
places after me in turn order (``(seat + k) % n_players``), so one policy can play any seat.

Only what ``seat`` could see at the table goes in. Opponents' hands appear only as card counts,
the deck only as its size (never its order), face-down cards of others only as a count per seat
(their artists only once revealed, in ``discarded``). During a simultaneous play the picks are
hidden until they are revealed together: an opponent's pending pick is counted back into its
hand size (the engine takes the card out of the hand at once), so a later seat cannot tell
whether an earlier one picked a card, nor which.

Every value lies in [0, 1]. Counts are divided by the most they can ever be under the game's
options, except scores, which are unbounded in practice and squashed as ``s / (s + 100)``
(100 is about a median final score; the map is increasing, so no information is lost). The
layout, block by block (``layout(n)`` lists it as ``(name, length)``; ``n`` is the number of
players; "rel" = relative seat; card types are ``artist * 6 + symbol``, see
:mod:`ludolab.envs.gallery.cards`; artists in priority order)::

    my_hand            30        own cards per type / cards of that type in the deck
    my_face_down       5         own face-down cards this round per artist / artist's cards
    my_pending_pick    5         one-hot artist of my own hidden simultaneous pick (if any)
    seat_hand_size     n         cards in hand per rel seat / 95 (pending picks counted back)
    seat_exhibit       n x 5     face-up cards displayed this round per rel seat and artist
                                 / end count (capped at 1)
    seat_face_down     n         face-down cards this round per rel seat / face-down symbol
                                 cards in the deck (0 when there are none)
    seat_score         n         money per rel seat, s / (s + 100)
    seat_score_lead    n         money per rel seat / the most money at the table (0 if none)
    current            n         one-hot rel seat whose turn it is
    acting             n         one-hot rel seat that must decide now (all 0: game over)
    starter            n         one-hot rel seat that started this round
    extra              5         the round's extra face-up card, per artist (0/1)
    table_count        5         face-up cards per artist this round, extra card included,
                                 / end count (capped at 1): how near the round's end each is
    tokens             5         value tokens per artist so far / (first rank's token x rounds)
    awards             5         award tokens per artist / award tokens in the game
    artist_value       5         (tokens + award value x awards) per artist / its maximum: what
                                 a card pays if the artist ranks this round, before this
                                 round's token
    discarded          30        cards per type discarded in earlier rounds (all of them were
                                 seen face up) / cards of that type in the deck
    awards_left        1         award tokens not yet placed / award tokens in the game
    deck               1         cards left in the deck / 95
    round              1         rounds finished / rounds in the game
    phase              5         one-hot engine phase (engine.PHASE_NAMES order: play,
                                 second-card, award-choice, simultaneous-play, game-over)
    second_kind        2         one-hot, in the second-card phase: after a double / face-down
    second_artist      5         one-hot artist a double's second card must be (phase second)
    award_closes       1         1 when the award being placed came with the round's last card
    end_count          1         the round-end count / 21

The pending-decision blocks and the hidden picks come from the engine's read-only views
(``second_card``, ``award_closes_round``, ``simultaneous_picks``); each seat sees only its own
hidden pick.

Size: 112 + 12 n (136 for 2 players, 148 for 3, 160 for 4, 172 for 5).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from gymnasium import spaces

from ludolab.envs.faces import BlockLayout
from ludolab.envs.gallery.cards import ARTIST_CARDS, N_ARTISTS, N_CARDS, N_SYMBOLS, N_TYPES
from ludolab.envs.gallery.deal import MAX_PLAYERS, MIN_PLAYERS
from ludolab.envs.gallery.engine import (
    GAME_OVER,
    PHASE_NAMES,
    Game,
)

N_PHASES = len(PHASE_NAMES)
SCORE_HALF = 100.0  # seat_score = s / (s + SCORE_HALF)
MAX_END_COUNT = 21  # the most cards of one artist (GalleryOptions.end_count is 1..21)


def layout(n_players: int = 4) -> list[tuple[str, int]]:
    """The observation's blocks in order, as ``(name, length)``; see the module docstring."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"n_players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {n_players}")
    n = n_players
    return [
        ("my_hand", N_TYPES),
        ("my_face_down", N_ARTISTS),
        ("my_pending_pick", N_ARTISTS),
        ("seat_hand_size", n),
        ("seat_exhibit", n * N_ARTISTS),
        ("seat_face_down", n),
        ("seat_score", n),
        ("seat_score_lead", n),
        ("current", n),
        ("acting", n),
        ("starter", n),
        ("extra", N_ARTISTS),
        ("table_count", N_ARTISTS),
        ("tokens", N_ARTISTS),
        ("awards", N_ARTISTS),
        ("artist_value", N_ARTISTS),
        ("discarded", N_TYPES),
        ("awards_left", 1),
        ("deck", 1),
        ("round", 1),
        ("phase", N_PHASES),
        ("second_kind", 2),
        ("second_artist", N_ARTISTS),
        ("award_closes", 1),
        ("end_count", 1),
    ]


_LAYOUT = BlockLayout(layout)


def block_slices(n_players: int = 4) -> dict[str, slice]:
    """Where each block sits in the vector: name -> slice (same order as :func:`layout`)."""
    return _LAYOUT.block_slices(n_players)


def observation_size(n_players: int = 4) -> int:
    """Length of the observation vector for ``n_players`` players (112 + 12 n)."""
    return _LAYOUT.size(n_players)


def observation_space(n_players: int = 4) -> spaces.Box:
    """The observation space: ``Box(0, 1, (observation_size(n_players),), float32)``."""
    return _LAYOUT.space(n_players)


def describe_index(index: int, n_players: int = 4) -> str:
    """The block and offset of one vector entry, e.g. ``"my_hand[7]"`` (for reading weights)."""
    return _LAYOUT.describe_index(index, n_players)


def _inv(k: float) -> float:
    return 1.0 / k if k > 0 else 0.0


@cache
def _scales(options: object, end_count: int, type_total: tuple) -> tuple:
    """Per-game divisors (as multipliers), cached by the options they depend on."""
    o = options
    type_scale = tuple(_inv(k) for k in type_total)
    artist_scale = tuple(_inv(k) for k in ARTIST_CARDS)
    face_down_cards = sum(row[3] for row in o.symbols)  # type: ignore[attr-defined]
    max_tokens = max(o.rank_tokens) * o.rounds  # type: ignore[attr-defined]
    max_value = max_tokens + o.award_value * o.award_tokens  # type: ignore[attr-defined]
    return (
        type_scale,
        artist_scale,
        _inv(face_down_cards),
        _inv(max_tokens),
        _inv(o.award_tokens),  # type: ignore[attr-defined]
        _inv(max_value),
        _inv(end_count),
        _inv(o.rounds),  # type: ignore[attr-defined]
    )


def encode(game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of ``game`` for ``seat``: float32, shape ``(observation_size(n),)``.

    Reads only what ``seat`` may know (see the module docstring). Pass ``out`` (a float32 array
    of the right size) to fill it in place instead of allocating; it is returned either way.
    """
    n = game.n_players
    size = 112 + 12 * n
    if out is None:
        obs = np.empty(size, np.float32)
    else:
        if out.shape != (size,) or out.dtype != np.float32:
            raise ValueError(f"out must be float32 of shape ({size},), got {out.dtype} {out.shape}")
        obs = out
    o = game.options
    (
        type_scale,
        artist_scale,
        face_down_scale,
        token_scale,
        award_scale,
        value_scale,
        end_scale,
        round_scale,
    ) = _scales(o, game.end_count, game.type_total)
    rot = [(seat + k) % n for k in range(n)]  # rot[k]: the seat at relative index k
    phase = game.phase

    # A simultaneous play's picks are hidden until revealed: count them back into the hands.
    pending_pick = [0.0] * N_ARTISTS
    hand_size = game.hand_size
    picks = game.simultaneous_picks
    if picks:
        hand_size = list(hand_size)
        for q, t in picks:
            if q == seat:
                pending_pick[t // N_SYMBOLS] = 1.0
            else:
                hand_size[q] += 1

    v: list[float] = []
    add = v.extend
    add([c * s for c, s in zip(game.hands[seat], type_scale, strict=True)])
    add([c * s for c, s in zip(game.face_down[seat], artist_scale, strict=True)])
    add(pending_pick)
    add([hand_size[q] / N_CARDS for q in rot])
    exhibit = game.exhibit
    for q in rot:
        add([min(c * end_scale, 1.0) for c in exhibit[q]])
    face_down = game.face_down
    add([sum(face_down[q]) * face_down_scale for q in rot])
    scores = game.scores
    add([scores[q] / (scores[q] + SCORE_HALF) for q in rot])
    best = max(scores)
    add([scores[q] / best if best > 0 else 0.0 for q in rot])
    over = phase == GAME_OVER
    for holder in (game.current, -1 if over else game.acting, game.starter):
        onehot = [0.0] * n
        if holder >= 0:
            onehot[(holder - seat) % n] = 1.0
        add(onehot)
    add([float(k) for k in game.extra_count])
    add([min(c * end_scale, 1.0) for c in game.artist_count])
    tokens, awards, award_value = game.tokens, game.awards, o.award_value
    add([k * token_scale for k in tokens])
    add([k * award_scale for k in awards])
    add([(t + award_value * w) * value_scale for t, w in zip(tokens, awards, strict=True)])
    # Discarded cards of earlier rounds: all were face up (face-down and simultaneous picks
    # are revealed before the discard), so their types are public.
    add([c * s for c, s in zip(game.discarded, type_scale, strict=True)])
    v.append(game.awards_left * award_scale)
    v.append(len(game.pile) / N_CARDS)
    v.append(min(game.round * round_scale, 1.0))
    onehot = [0.0] * N_PHASES
    onehot[phase] = 1.0
    add(onehot)
    kind, second_artist = [0.0, 0.0], [0.0] * N_ARTISTS
    second = game.second_card
    if second is not None:
        if second[0] == "double":
            kind[0] = 1.0
            second_artist[second[1]] = 1.0
        else:
            kind[1] = 1.0
    add(kind)
    add(second_artist)
    v.append(1.0 if game.award_closes_round else 0.0)
    v.append(game.end_count / MAX_END_COUNT)
    obs[:] = v
    return obs


__all__ = [
    "SCORE_HALF",
    "block_slices",
    "describe_index",
    "encode",
    "layout",
    "observation_size",
    "observation_space",
]
