"""A win-probability model of a Catan position, for cutting a search's play-outs short.

Each seat gets a score, a weighted sum of what describes its position (:data:`FEATURES`), and
the model's chance that seat ``q`` wins is ``exp(score_q) / sum_s exp(score_s)``: a conditional
(multinomial) logit over the seats of one position, as McFadden's choice model. The weights
(:data:`WEIGHTS`) were fitted by maximum likelihood on the positions at the start of every turn
of 6,000 games between four greedy agents on fair boards, labelled with the game's winner
(``benchmarks/fit_win_model.py``, which refits them, prints them in this module's form and
reports the log-loss per stage of the game on 2,000 games held out;
:mod:`ludolab.research.catan.win_model` holds the fitting). Greedy play is what the search's
play-outs use, so the model says how a position tends to end when greedy agents play it on.

On the held-out games its log-loss is 1.10 per position, against 1.39 (log 4) for knowing
nothing and 1.20 for a model of victory points alone; it improves as the game goes on (1.34
over turns 1-9, 0.90 over turns 60-99), and the seat it favours wins 51% of the time.

It reads the whole position, hidden cards included: a search gives it a determinisation (the
hidden cards dealt again), never the real game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ludolab.envs.catan.agents.greedy import BRICK, GRAIN, LUMBER, ORE, BoardInfo
from ludolab.envs.catan.engine import KNIGHT, VICTORY_POINT, tables

# Per seat, in the order of WEIGHTS (units in brackets).
FEATURES = (
    "vp",  # victory points, hidden ones included [points]
    "vp_over_7",  # points beyond 7, the sprint to 10 [points]
    "production",  # pips produced, a city counting twice, the robbed hex left out [pips]
    "kinds",  # resources produced at all [0..5]
    "city_production",  # pips of grain and ore, what cities are built from [pips]
    "expansion_production",  # pips of lumber and brick, what roads and settlements take [pips]
    "hand",  # resource cards held [cards]
    "hand_over_7",  # cards beyond 7, what a 7 rolled would halve [cards]
    "development",  # development cards held, victory points left out [cards]
    "knights",  # knights played [cards]
    "road",  # longest road [paths]
    "spots",  # open settlement spots on its network, at most 3 [spots]
    "harbors_2_1",  # 2:1 harbors [harbors]
    "harbor_3_1",  # a 3:1 harbor [0/1]
    "next_1",  # the seat plays one turn after the seat whose turn it is [0/1]
    "next_2",  # ... two turns after [0/1]
    "next_3",  # ... three turns after [0/1]
)
# Per unit of each feature; benchmarks/fit_win_model.py with its defaults prints them.
WEIGHTS = (
    0.5479, 0.5964, 0.0338, 0.226, 0.0303, -0.0007, 0.0651, 0.02, 0.2818, 0.0566, -0.0314,
    0.217, 0.1949, 0.2435, -0.063, -0.1341, -0.2173,
)  # fmt: skip

# The state fields the features read (engine.Game's attributes, Core.get_state()'s keys).
FIELDS = (
    "owner", "building", "robber", "vp_public", "dev_hand", "dev_played", "hand_size",
    "road_length", "network", "site_free", "rates", "current",
)  # fmt: skip


def fields_of(game: Any) -> dict[str, Any]:
    """The fields :func:`features` reads, from an ``engine.Game`` (a core gives them by
    ``get_state()``)."""
    return {name: getattr(game, name) for name in FIELDS}


def features(state: Mapping[str, Any], info: BoardInfo) -> list[list[float]]:
    """Per seat, the values of :data:`FEATURES` in ``state`` (a mapping with :data:`FIELDS`) on
    the board ``info`` describes; shape (seats, len(FEATURES))."""
    owner, building, robber = state["owner"], state["building"], state["robber"]
    n = len(state["vp_public"])
    node_hexes = tables().node_hexes
    hex_res, hex_pips = info.hex_res, info.hex_pips
    produce = [[0] * 5 for _ in range(n)]
    for v, q in enumerate(owner):
        if q >= 0:
            for h in node_hexes[v]:
                if h != robber and hex_res[h] >= 0:
                    produce[q][hex_res[h]] += hex_pips[h] * building[v]
    site_free, current = state["site_free"], state["current"]
    rows = []
    for q in range(n):
        dev = state["dev_hand"][q]
        vp = state["vp_public"][q] + dev[VICTORY_POINT]
        prod = produce[q]
        hand = state["hand_size"][q]
        rates = state["rates"][q]
        spots = sum(1 for v in state["network"][q] if site_free[v])
        after = (q - current) % n
        rows.append(
            [
                vp,
                max(vp - 7, 0),
                sum(prod),
                sum(1 for x in prod if x),
                prod[GRAIN] + prod[ORE],
                prod[LUMBER] + prod[BRICK],
                hand,
                max(hand - 7, 0),
                sum(dev) - dev[VICTORY_POINT],
                state["dev_played"][q][KNIGHT],
                state["road_length"][q],
                min(spots, 3),
                sum(1 for r in rates if r == 2),
                1 if 3 in rates else 0,
                after == 1,
                after == 2,
                after == 3,
            ]
        )
    return rows


def win_probabilities(
    state: Mapping[str, Any], info: BoardInfo, weights: Sequence[float] = WEIGHTS
) -> list[float]:
    """Per seat, the model's chance of winning from ``state`` (sums to 1)."""
    rows = features(state, info)
    scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    top = max(scores)
    odds = [math.exp(s - top) for s in scores]
    total = sum(odds)
    return [o / total for o in odds]
