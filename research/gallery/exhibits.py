"""The best possible exhibits of Modern Art: Masters Gallery, and their replay as concrete games.

`solve_exhibits` asks the exhibit model one of three questions about a P-player game whose deal
and plays are all free (the solver is every player and the dealer). The model exists twice:
``models/exhibits.mzn`` (MiniZinc, solved by Gecode: large neighbourhood search finds good
exhibits in seconds, but proves nothing) and :mod:`ludolab.research.gallery.exhibits_mip` (the
same constraints written linearly, solved by HiGHS: the best found comes with a bound, and is
proven optimal when they meet). The default solver uses both: a few seconds of Gecode's search
for a first answer, then HiGHS for a better one or the proof that there is none. The tests
hold each form to the other's answers. The questions:

- ``max-score``: the highest final score player 1 can reach;
- ``max-margin``: the largest lead of player 1 over the best other player;
- ``min-winning-score``: the lowest score with which player 1 still wins — strictly more than
  every other player (``shared_win=True``: at least as much, a shared win).

The model works per round with counts (cards per player per artist, symbol cards used, turns
per player, the first and the closing player, the closing artist). The answer is parsed into
an `ExhibitSolution`, whose scores are recomputed by `score_exhibits` (plain Python, from the
counts alone), and turned by `to_play_sequence` into a `GamePlan`: the cards each player is
dealt each round, the face-up extra cards, every play in turn order with the card drawn by a
draw-one, and a deck order. `validate_plan` replays a plan with its own small sequential
implementation of the rules; the rules engine (``ludolab.envs.gallery``) is meant to replay the same
plan (see `GamePlan`).

Three modules: this one asks the model and parses its answer, and names the whole API;
:mod:`ludolab.research.gallery.exhibit_rules` holds the rules options, the answer's records and
the scoring; :mod:`ludolab.research.gallery.exhibit_plan` the plan and its replay.

Player and artist numbers are 0-based in Python (player 0 is "player 1" of the questions);
artists are in tie-break order Lite Metal, Yoko, Christin P., Karl Gitter, Krypto; card ids and
card types follow ``ludolab.envs.gallery.cards`` (type = artist * 6 + symbol; within an artist's id
block the symbol cards come first, in the table's order, the plain cards last).

Rules options (`ExhibitRules`; the defaults are the engine's, the published rules): ``symbols``
(the symbols table of ``ludolab.envs.gallery.cards``, which the model reads: how many draw-one,
double and award cards each artist has), ``extra_card`` and ``extra_card_each_round`` (a
face-up card that counts for its artist but belongs to nobody, every round or only at setup)
and ``award_any`` (an award token goes on an artist of the player's choice; off: on the award
card's own artist). `ExhibitRules.open_model` gives the open model's assumptions (no extra
card, awards to any artist, one draw-one, one double and one award card per artist), under
which it published 301 (2 players) and 295 (4 players).

The model narrows the games it considers in six ways, so that every exhibit it returns can be
replayed without touching unsettled rule details:

- every turn displays a card (nobody has to pass with an empty hand);
- a double is always played with a second, plain card of its artist;
- the round's closing card is a plain card (alone, or as the second card of a double), never a
  draw-one or award card (whose effect at the end of a round is unsettled);
- the extra face-up cards are plain cards;
- face-down and simultaneous cards are never displayed (they may be dealt and held);
- an award goes on an artist with a card displayed this round, and no award card is played
  once the game's five award tokens are gone.

Each only removes games, so a reported score is reachable under the full rules; a proven
optimum is the optimum of this narrowed game.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ludolab.research.gallery.exhibit_plan import (
    GamePlan,
    PlanError,
    PlanRound,
    Play,
    ReplayResult,
    to_play_sequence,
    validate_plan,
)
from ludolab.research.gallery.exhibit_rules import (
    AWARD_TOKENS,
    DEALS,
    N_ARTISTS,
    N_ROUNDS,
    OBJECTIVES,
    OPEN_MODEL_BEST,
    SEARCHES,
    SOLVERS,
    ExhibitRules,
    ExhibitSolution,
    RoundExhibit,
    ScoreSheet,
    closing_count,
    rank_tokens,
    score_exhibits,
    score_solution,
)
from ludolab.research.solve import SolverStats, Status, solve


@cache
def model_path() -> Path:
    return Path(str(resources.files("ludolab.research.gallery") / "models" / "exhibits.mzn"))


def model_data(
    rules: ExhibitRules,
    objective: str = "max-score",
    *,
    shared_win: bool = False,
    first_player: int | None = None,
    min_score: int = 0,
    search: str = "lns",
    lns_percent: int = 70,
) -> dict[str, Any]:
    """The model's parameters for one question."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}; got {objective!r}")
    if search not in SEARCHES:
        raise ValueError(f"search must be one of {', '.join(SEARCHES)}; got {search!r}")
    if first_player is not None and not 0 <= first_player < rules.players:
        raise ValueError(f"first_player must be 0..{rules.players - 1}, got {first_player}")
    if not 0 < lns_percent < 100:
        raise ValueError(f"lns_percent must be 1..99, got {lns_percent}")
    return {
        "P": rules.players,
        "deal": list(rules.deal),
        "extra": [rules.has_extra(r) for r in range(N_ROUNDS)],
        "award_any": rules.award_any,
        "award_tokens": AWARD_TOKENS,
        **rules.symbol_counts(),
        "objective": OBJECTIVES[objective],
        "shared_win": shared_win,
        "first_player": 0 if first_player is None else first_player + 1,
        "min_score": min_score,
        "search": SEARCHES[search],
        "lns_percent": lns_percent,
    }


def solve_exhibits(
    players: int = 2,
    objective: str = "max-score",
    *,
    rules: ExhibitRules | None = None,
    time_limit: float | None = 60.0,
    solver: str = "mip",
    search: str = "lns",
    lns_percent: int = 70,
    shared_win: bool = False,
    first_player: int | None = None,
    min_score: int = 0,
    random_seed: int | None = None,
    improving: int | None = None,
    nodes: int | None = None,
) -> ExhibitSolution:
    """Ask the exhibit model one question; the best exhibits found within ``time_limit``.

    ``solver="mip"`` (the default) solves the model as a mixed-integer programme with HiGHS
    (:mod:`ludolab.research.gallery.exhibits_mip`): the answer comes with a proven bound, and
    is proven optimal when the bound meets it. ``solver="gecode"`` runs the MiniZinc model:
    ``search="lns"`` (large neighbourhood search with restarts, seeded by ``random_seed``)
    finds good exhibits fast but proves nothing; ``search="complete"`` can prove optimality on
    small or tightly bounded questions. ``improving``: Gecode stops after this many improving
    answers instead of at ``time_limit`` (with the MIP solver: the first answer it is given);
    ``nodes``: HiGHS stops after this many branch-and-bound nodes (``time_limit`` still bounds
    it; give ``time_limit=None`` for a search that ends on the counts alone). Counts make the
    answer the same on any machine, whatever its speed or load. Raises
    `ludolab.research.solve.UnknownResult` when no exhibit was found in time,
    `ludolab.research.solve.Unsatisfiable` when none exists.
    """
    rules = rules or ExhibitRules(players=players)
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {', '.join(SOLVERS)}; got {solver!r}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"nodes must be at least 1, got {nodes}")
    if solver == "mip":
        return _solve_mip(
            rules,
            objective,
            time_limit=time_limit,
            shared_win=shared_win,
            first_player=first_player,
            min_score=min_score,
            improving=improving,
            nodes=nodes,
        )
    if nodes is not None:
        raise ValueError("nodes counts HiGHS' branch and bound: give it with solver='mip'")
    data = model_data(
        rules,
        objective,
        shared_win=shared_win,
        first_player=first_player,
        min_score=min_score,
        search=search,
        lns_percent=lns_percent,
    )
    start = time.perf_counter()
    result = solve(
        model_path(),
        data,
        time_limit=None if improving is not None else time_limit,
        improving=improving,
        random_seed=random_seed,
        label=f"exhibits, {rules.players} players, {objective}",
    )
    elapsed = time.perf_counter() - start
    optimal = result.status is Status.OPTIMAL
    return parse_solution(
        result.solution,
        rules,
        objective,
        optimal=optimal,
        time_limit=time_limit,
        time_limit_hit=result.time_limit_hit,
        elapsed=elapsed,
        stats=result.stats,
    )


#: The share of the time limit (at most LNS_SECONDS) the MIP solver first gives Gecode's large
#: neighbourhood search, whose answer the MIP must then beat or prove optimal: LNS finds good
#: exhibits in seconds, where branch and bound can take minutes to find a first one.
LNS_SHARE = 0.2


LNS_SECONDS = 10.0


def _solve_mip(
    rules: ExhibitRules,
    objective: str,
    *,
    time_limit: float | None,
    shared_win: bool,
    first_player: int | None,
    min_score: int,
    improving: int | None = None,
    nodes: int | None = None,
) -> ExhibitSolution:
    """Gecode's LNS for a first answer (its share of the time, or its ``improving`` answers),
    then HiGHS (for the time left, or ``nodes`` nodes) for a better one or the proof that there
    is none; the bound holds for every answer."""
    from ludolab.research.gallery.exhibits_mip import solve_mip
    from ludolab.research.solve import UnknownResult, Unsatisfiable

    start = time.perf_counter()
    if time_limit is not None:
        lns_time: float | None = min(LNS_SECONDS, LNS_SHARE * time_limit)
    else:  # with no time limit the count alone ends the search, else Gecode gets its default
        lns_time = None if improving is not None else LNS_SECONDS
    options = dict(shared_win=shared_win, first_player=first_player, min_score=min_score)
    try:
        first = solve_exhibits(
            rules.players,
            objective,
            rules=rules,
            time_limit=lns_time,
            solver="gecode",
            random_seed=1,
            improving=improving,
            **options,
        )
    except UnknownResult:
        first = None
    data = model_data(rules, objective, **options)
    label = f"exhibits, {rules.players} players, {objective}"
    left = None if time_limit is None else max(time_limit - (time.perf_counter() - start), 1.0)
    answer = solve_mip(
        data,
        better_than=None if first is None else first.objective_value,
        time_limit=left,
        max_nodes=nodes,
    )
    elapsed = time.perf_counter() - start
    maximise = objective != "min-winning-score"
    if answer.raw is None:
        if first is None:
            if answer.infeasible:
                raise Unsatisfiable(label=label)
            raise UnknownResult(label=label, time_limit=time_limit)
        # Nothing beats the first answer: proven (infeasible), or bounded by the MIP's bound.
        bound = answer.bound
        if answer.infeasible:
            bound = first.objective_value
        elif bound is not None:
            pick = max if maximise else min
            bound = pick(bound, first.objective_value)
        return replace(
            first,
            optimal=answer.infeasible,
            bound=bound,
            time_limit=time_limit,
            time_limit_hit=answer.time_limit_hit,
            elapsed=elapsed,
            solver="mip",
            nodes=answer.nodes,
        )
    solution = parse_solution(
        answer.raw,
        rules,
        objective,
        optimal=answer.optimal,
        time_limit=time_limit,
        time_limit_hit=answer.time_limit_hit,
        elapsed=elapsed,
    )
    return replace(solution, bound=answer.bound, solver="mip", nodes=answer.nodes)


def parse_solution(
    raw: dict[str, Any],
    rules: ExhibitRules,
    objective: str,
    *,
    optimal: bool = False,
    time_limit: float | None = None,
    time_limit_hit: bool = False,
    elapsed: float = 0.0,
    stats: SolverStats | None = None,
) -> ExhibitSolution:
    """Turn the model's output variables into an `ExhibitSolution`."""
    P = rules.players

    def grid(name: str, r: int) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(int(v) for v in raw[name][r][p]) for p in range(P))

    rounds = []
    for r in range(N_ROUNDS):
        extra = [a for a in range(N_ARTISTS) if raw["ex"][r][a]]
        rounds.append(
            RoundExhibit(
                first_player=int(raw["fp"][r]) - 1,
                closer=int(raw["cl"][r]) - 1,
                closing_artist=int(raw["ca"][r]) - 1,
                turns=tuple(int(v) for v in raw["turns"][r]),
                cards=grid("x", r),
                draw=grid("dr", r),
                double=grid("db", r),
                award=grid("aw", r),
                awards_to=tuple(int(v) for v in raw["awd"][r]),
                extra=extra[0] if extra else None,
                tokens=tuple(int(v) for v in raw["tok"][r]),
                values=tuple(int(v) for v in raw["val"][r]),
                scored_values=tuple(int(v) for v in raw["sv"][r]),
                hands=tuple(int(v) for v in raw["hand"][r]),
            )
        )
    value = int(raw["obj"])
    return ExhibitSolution(
        rules=rules,
        objective=objective,
        rounds=tuple(rounds),
        scores=tuple(int(s) for s in raw["score"]),
        objective_value=value,
        optimal=optimal,
        bound=value if optimal else None,
        time_limit=time_limit,
        time_limit_hit=time_limit_hit,
        elapsed=elapsed,
        stats=stats,
    )


__all__ = [
    "DEALS",
    "OBJECTIVES",
    "OPEN_MODEL_BEST",
    "ExhibitRules",
    "ExhibitSolution",
    "GamePlan",
    "Play",
    "PlanError",
    "PlanRound",
    "ReplayResult",
    "RoundExhibit",
    "ScoreSheet",
    "closing_count",
    "model_data",
    "parse_solution",
    "rank_tokens",
    "score_exhibits",
    "score_solution",
    "solve_exhibits",
    "to_play_sequence",
    "validate_plan",
]
