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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ludolab.envs.gallery.cards import (
    ARTIST_CARDS,
    ARTISTS,
    AWARD,
    DEFAULT_SYMBOLS,
    DOUBLE,
    DRAW,
    N_CARDS,
    OPEN_MODEL_SYMBOLS,
    PLAIN,
    SymbolsTable,
    card_type,
    card_types,
    type_artist,
    type_name,
    type_symbol,
    validate_symbols,
)
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.research.solve import SolverStats, Status, solve

N_ARTISTS = len(ARTISTS)
N_ROUNDS = 4
SYMBOL_NAMES = {DRAW: "draw", DOUBLE: "double", AWARD: "award"}
#: Cards dealt to each player at the start of rounds 1..4, by number of players.
DEALS: dict[int, tuple[int, int, int, int]] = {
    2: (13, 6, 6, 3),
    3: (13, 6, 6, 0),
    4: (13, 4, 4, 0),
    5: (13, 2, 2, 0),
}
#: CLI name -> model code.
OBJECTIVES: dict[str, int] = {"max-score": 1, "max-margin": 2, "min-winning-score": 3}
SEARCHES: dict[str, int] = {"complete": 0, "lns": 1}
#: Solvers of the exhibit model: HiGHS on its MIP form (bounds, proofs) or Gecode on the MiniZinc.
SOLVERS = ("mip", "gecode")
#: Best exhibits the open MiniZinc model published (not proven optimal), by players.
OPEN_MODEL_BEST: dict[int, int] = {2: 301, 4: 295}


def closing_count(players: int) -> int:
    """Cards of one artist that end a round: 5 with 2 players, else 6."""
    return 5 if players == 2 else 6


#: Award tokens in the game, the engine's default: award cards beyond them do nothing.
AWARD_TOKENS: int = GalleryOptions.award_tokens


@dataclass(frozen=True)
class ExhibitRules:
    """The rules options the exhibit model knows; the defaults are the engine's (the published
    rules, see ``ludolab.envs.gallery.engine``).

    Attributes:
        players: 2..5.
        extra_card: a face-up extra card counts for its artist but belongs to nobody.
        extra_card_each_round: a new extra card every round (else only round 1's, at setup).
        award_any: an award token goes on an artist of the player's choice that has a card
            displayed this round (the published rule is any artist: this narrows it); False:
            on the award card's own artist.
        symbols: the symbols table (``ludolab.envs.gallery.cards``), the engine's by default.
        deals: cards dealt per player at the start of rounds 1..4; None: ``DEALS[players]``.
    """

    players: int
    extra_card: bool = True
    award_any: bool = True
    deals: tuple[int, int, int, int] | None = None  # None: DEALS[players]
    symbols: SymbolsTable = DEFAULT_SYMBOLS
    extra_card_each_round: bool = True

    def __post_init__(self) -> None:
        if self.players not in DEALS:
            raise ValueError(f"players must be 2..5, got {self.players!r}")
        if self.deals is not None and (len(self.deals) != N_ROUNDS or self.deals[0] < 1):
            raise ValueError(f"deals must give 4 round sizes, the first >= 1; got {self.deals}")
        object.__setattr__(self, "symbols", validate_symbols(self.symbols))

    @classmethod
    def open_model(cls, players: int) -> ExhibitRules:
        """The open MiniZinc model's assumptions: no extra card, awards to any artist, one
        draw-one, one double and one award card per artist."""
        return cls(players=players, extra_card=False, award_any=True, symbols=OPEN_MODEL_SYMBOLS)

    def has_extra(self, r: int) -> bool:
        """Round r (0-based) has a face-up extra card."""
        return self.extra_card and (r == 0 or self.extra_card_each_round)

    def symbol_counts(self) -> dict[str, list[int]]:
        """Per artist the cards the model may use as draw-one, double and award cards, and as
        plain cards (face-down and simultaneous cards are never displayed: see the module
        docstring)."""
        table = self.symbols
        return {
            "n_draw": [row[0] for row in table],
            "n_double": [row[1] for row in table],
            "n_award": [row[2] for row in table],
            "n_plain": [ARTIST_CARDS[a] - sum(table[a]) for a in range(N_ARTISTS)],
        }

    @property
    def deal(self) -> tuple[int, int, int, int]:
        return self.deals if self.deals is not None else DEALS[self.players]

    @property
    def closing(self) -> int:
        return closing_count(self.players)


@dataclass(frozen=True)
class RoundExhibit:
    """One round of an exhibit sequence (players and artists 0-based).

    ``cards[p][a]`` counts every card player p displayed of artist a (symbol cards included);
    ``draw``, ``double`` and ``award`` count the symbol cards among them (a double is always
    played with a second, plain card). ``awards_to[a]`` counts award tokens placed on
    artist a this round; ``extra`` is the artist of the face-up extra card (None without).
    ``tokens`` (3/2/1/0), ``values`` (accumulated tokens and awards) and ``scored_values``
    (value if ranked this round, else 0) are the model's; ``hands`` the cards each player
    held at the start of the round.
    """

    first_player: int
    closer: int
    closing_artist: int
    turns: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]
    draw: tuple[tuple[int, ...], ...]
    double: tuple[tuple[int, ...], ...]
    award: tuple[tuple[int, ...], ...]
    awards_to: tuple[int, ...]
    extra: int | None
    tokens: tuple[int, ...]
    values: tuple[int, ...]
    scored_values: tuple[int, ...]
    hands: tuple[int, ...]

    def plain(self, p: int, a: int) -> int:
        """Plain cards player p displayed of artist a (a double's second card included)."""
        return self.cards[p][a] - self.draw[p][a] - self.double[p][a] - self.award[p][a]

    def artist_count(self, a: int) -> int:
        """Cards of artist a on display at the end of the round (the extra card included)."""
        return sum(row[a] for row in self.cards) + (1 if self.extra == a else 0)


@dataclass(frozen=True)
class ExhibitSolution:
    """The solver's answer: the exhibits per round, the scores and what is proven."""

    rules: ExhibitRules
    objective: str
    rounds: tuple[RoundExhibit, ...]
    scores: tuple[int, ...]
    objective_value: int
    optimal: bool  # proven optimal (for the narrowed game, see the module docstring)
    bound: int | None  # best proven bound on the objective; None when not known
    time_limit: float | None
    time_limit_hit: bool
    elapsed: float
    stats: SolverStats | None = None
    solver: str = "gecode"  # "mip" (HiGHS) or "gecode" (the MiniZinc model)
    nodes: int | None = None  # MIP: branch-and-bound nodes

    @property
    def gap(self) -> int | None:
        """How far the best possible answer can lie from this one (0: proven optimal)."""
        return None if self.bound is None else abs(self.bound - self.objective_value)

    def verdict(self) -> str:
        """'proven optimal', or the bound and the gap, or 'no bound' (LNS proves nothing)."""
        if self.optimal:
            return "proven optimal"
        if self.bound is None:
            return "not proven; no bound known"
        side = "at most" if self.objective != "min-winning-score" else "at least"
        return f"not proven: the best possible is {side} {self.bound} (gap {self.gap})"

    def describe(self) -> str:
        """A readable table of the exhibits, values and scores."""
        letters = "ABCDE"
        lines = [
            f"{self.rules.players} players, objective {self.objective}: "
            f"{self.objective_value} ({self.verdict()})",
            "artists: " + ", ".join(f"{letters[a]}={ARTISTS[a]}" for a in range(N_ARTISTS)),
        ]
        for r, rd in enumerate(self.rounds):
            lines.append(
                f"round {r + 1}: first player {rd.first_player + 1}, closed by player "
                f"{rd.closer + 1} with {ARTISTS[rd.closing_artist]}"
                + (f", extra card {ARTISTS[rd.extra]}" if rd.extra is not None else "")
            )
            for p in range(self.rules.players):
                exhibit = "".join(letters[a] * rd.cards[p][a] for a in range(N_ARTISTS))
                syms = [
                    f"{SYMBOL_NAMES[s]}:{letters[a]}"
                    for a in range(N_ARTISTS)
                    for s, table in ((DRAW, rd.draw), (DOUBLE, rd.double), (AWARD, rd.award))
                    for _ in range(table[p][a])
                ]
                lines.append(
                    f"  player {p + 1}: {exhibit or '-':<14} turns {rd.turns[p]:>2}, hand "
                    f"{rd.hands[p]:>2}" + (f"  [{' '.join(syms)}]" if syms else "")
                )
            lines.append(
                "  counts "
                + " ".join(f"{letters[a]}{rd.artist_count(a)}" for a in range(5))
                + " | tokens "
                + " ".join(f"{letters[a]}{rd.tokens[a]}" for a in range(5))
                + " | awards "
                + " ".join(f"{letters[a]}{rd.awards_to[a]}" for a in range(5))
                + " | scored "
                + " ".join(f"{letters[a]}{rd.scored_values[a]}" for a in range(5))
            )
        lines.append(
            "scores: " + ", ".join(f"player {p + 1} {s}" for p, s in enumerate(self.scores))
        )
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Solving


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


# ---------------------------------------------------------------------------------------------
# The Python face: scoring from counts


def rank_tokens(counts: Sequence[int]) -> tuple[int, ...]:
    """Tokens 3/2/1 for the top three artists by count (ties: earlier artist); 0 cards: none."""
    order = sorted(range(len(counts)), key=lambda a: (-counts[a], a))
    tokens = [0] * len(counts)
    for place, a in enumerate(order[:3]):
        if counts[a] > 0:
            tokens[a] = 3 - place
    return tuple(tokens)


@dataclass(frozen=True)
class ScoreSheet:
    """Scores recomputed from exhibits: per round tokens, values, scored values, scores."""

    tokens: tuple[tuple[int, ...], ...]
    values: tuple[tuple[int, ...], ...]
    scored_values: tuple[tuple[int, ...], ...]
    round_scores: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]


def score_exhibits(
    cards: Sequence[Sequence[Sequence[int]]],
    extras: Sequence[int | None],
    awards_to: Sequence[Sequence[int]],
) -> ScoreSheet:
    """Score a game from its exhibits alone: ``cards[r][p][a]`` displayed, the extra card's
    artist per round (or None), and the award tokens per round per artist."""
    players = len(cards[0])
    value = [0] * N_ARTISTS
    tokens_all, values_all, scored_all, round_scores = [], [], [], []
    totals = [0] * players
    for r, exhibit in enumerate(cards):
        counts = [sum(exhibit[p][a] for p in range(players)) for a in range(N_ARTISTS)]
        if extras[r] is not None:
            counts[extras[r]] += 1
        tokens = rank_tokens(counts)
        for a in range(N_ARTISTS):
            value[a] += tokens[a] + 2 * awards_to[r][a]
        scored = tuple(value[a] if tokens[a] else 0 for a in range(N_ARTISTS))
        rs = tuple(sum(exhibit[p][a] * scored[a] for a in range(N_ARTISTS)) for p in range(players))
        totals = [t + s for t, s in zip(totals, rs, strict=True)]
        tokens_all.append(tokens)
        values_all.append(tuple(value))
        scored_all.append(scored)
        round_scores.append(rs)
    return ScoreSheet(
        tokens=tuple(tokens_all),
        values=tuple(values_all),
        scored_values=tuple(scored_all),
        round_scores=tuple(round_scores),
        scores=tuple(totals),
    )


def score_solution(solution: ExhibitSolution) -> ScoreSheet:
    """`score_exhibits` applied to a solution's rounds (the model-vs-Python cross-check)."""
    return score_exhibits(
        [rd.cards for rd in solution.rounds],
        [rd.extra for rd in solution.rounds],
        [rd.awards_to for rd in solution.rounds],
    )


# ---------------------------------------------------------------------------------------------
# Concrete games


@dataclass(frozen=True)
class Play:
    """One turn: ``player`` displays ``card`` (an id 0..94); ``second`` is a double's second
    card (same artist) or None; ``award_to`` the artist that gets the award token when ``card``
    is an award card (None otherwise); ``draws`` the card drawn when ``card`` is a draw-one;
    ``symbols`` the symbols table that gives the cards their types."""

    player: int
    card: int
    second: int | None = None
    award_to: int | None = None
    draws: int | None = None
    symbols: SymbolsTable = DEFAULT_SYMBOLS

    @property
    def card_type(self) -> int:
        return card_types(self.symbols)[self.card]

    @property
    def second_type(self) -> int | None:
        return None if self.second is None else card_types(self.symbols)[self.second]

    def describe(self) -> str:
        text = f"P{self.player + 1} {type_name(self.card_type)}#{self.card}"
        if self.second is not None:
            text += f" + {type_name(self.second_type)}#{self.second}"
        if self.award_to is not None:
            text += f" (award to {ARTISTS[self.award_to]})"
        if self.draws is not None:
            text += f" (draws #{self.draws})"
        return text


@dataclass(frozen=True)
class PlanRound:
    """One round of a concrete game: who starts, what each player is dealt (card ids, in seat
    order), the face-up extra card (or None) and every play in turn order."""

    first_player: int
    deals: tuple[tuple[int, ...], ...]
    extra: int | None
    plays: tuple[Play, ...]


@dataclass(frozen=True)
class GamePlan:
    """A concrete game the engine can replay.

    The intermediate form: per round the dealt cards, the extra card and the plays in turn
    order (see `PlanRound`, `Play`); plus `deck_order`, the whole 95-card deck under a stated
    dealing convention, and the `expected` scores. What a replay needs from the engine:

    - start from a given deck order (or given hands, extra cards and draws) and a given first
      player of round 1;
    - options: number of players, extra face-up card on/off, award target own/any
      (``award_choice``), the default symbols table;
    - take the plays as actions: PLAY[type of card], then for a double SECOND[type of second],
      for an award with ``award_choice`` AWARD_TO[artist]; draws come from the deck top;
    - report who is to move (to check turn order), when a round ends, and the scores.
    """

    rules: ExhibitRules
    rounds: tuple[PlanRound, ...]
    expected: tuple[int, ...] = field(default=())

    def deck_order(self, dealing: str = "blocks") -> tuple[int, ...]:
        """The deck, top card first, that makes a dealer produce this game.

        Per round: the deals — ``"blocks"``: each player's cards in one block, seats 0, 1, ...;
        ``"round_robin"``: one card per player in seat order, again and again — then the
        round's extra card, then the cards drawn in play order. The unused cards follow in id
        order.
        """
        if dealing not in ("blocks", "round_robin"):
            raise ValueError(f"dealing must be 'blocks' or 'round_robin', got {dealing!r}")
        order: list[int] = []
        for rd in self.rounds:
            if dealing == "blocks":
                for cards in rd.deals:
                    order.extend(cards)
            else:
                for i in range(max((len(c) for c in rd.deals), default=0)):
                    order.extend(cards[i] for cards in rd.deals if i < len(cards))
            if rd.extra is not None:
                order.append(rd.extra)
            order.extend(play.draws for play in rd.plays if play.draws is not None)
        used = set(order)
        order.extend(c for c in range(N_CARDS) if c not in used)
        return tuple(order)

    def type_rounds(self) -> list[list[tuple[int, int, int | None]]]:
        """The plays as (player, card type, second card type or None), per round."""
        return [[(p.player, p.card_type, p.second_type) for p in rd.plays] for rd in self.rounds]

    def describe(self) -> str:
        lines = []
        for r, rd in enumerate(self.rounds):
            lines.append(f"round {r + 1} (first player {rd.first_player + 1})")
            lines.extend(f"  {i + 1:>2}. {p.describe()}" for i, p in enumerate(rd.plays))
        return "\n".join(lines)


def _turn_lists(rd: RoundExhibit, players: int, targets: list[int]) -> list[list[tuple]]:
    """Per player, the turns as (type, second type or None, award target or None), in the order
    the player takes them: draw-ones, awards, doubles, plain cards; the closer's closing
    card last."""
    out = []
    for p in range(players):
        turns: list[tuple] = []
        closing_double = False
        closing_plain = False
        if p == rd.closer:
            a = rd.closing_artist
            # close with a plain card if one is free, else with the double pair
            closing_double = rd.plain(p, a) - rd.double[p][a] == 0
            closing_plain = not closing_double
        for a in range(N_ARTISTS):
            turns.extend((card_type(a, DRAW), None, None) for _ in range(rd.draw[p][a]))
        for a in range(N_ARTISTS):
            for _ in range(rd.award[p][a]):
                turns.append((card_type(a, AWARD), None, targets.pop(0)))
        for a in range(N_ARTISTS):
            doubles = rd.double[p][a] - (1 if closing_double and a == rd.closing_artist else 0)
            turns.extend((card_type(a, DOUBLE), card_type(a, PLAIN), None) for _ in range(doubles))
        for a in range(N_ARTISTS):
            singles = rd.plain(p, a) - rd.double[p][a]
            if closing_plain and a == rd.closing_artist:
                singles -= 1
            turns.extend((card_type(a, PLAIN), None, None) for _ in range(singles))
        if closing_plain:
            turns.append((card_type(rd.closing_artist, PLAIN), None, None))
        if closing_double:
            a = rd.closing_artist
            turns.append((card_type(a, DOUBLE), card_type(a, PLAIN), None))
        if len(turns) != rd.turns[p]:
            raise ValueError(
                f"player {p + 1} displays {sum(rd.cards[p])} cards in {len(turns)} turns, but "
                f"the exhibit gives {rd.turns[p]} turns"
            )
        out.append(turns)
    return out


def to_play_sequence(solution: ExhibitSolution) -> GamePlan:
    """A concrete game (card identities, deals, turn order) that produces the exhibits.

    Turn order: cycles from the round's first player clockwise; players from the first player
    to the closer have ``T`` turns, the others ``T - 1``, so the closer's closing turn is the
    round's last. Each player plays draw-ones first (the hand keeps its size), then awards,
    doubles and plain cards, the closing card last. Card identities: each card a player will
    display is dealt (or drawn) at the latest receipt that is still in time, earliest-needed
    first; the rest of a deal is filled with cards nobody displays.
    """
    rules = solution.rules
    P = rules.players
    types = card_types(rules.symbols)
    pools: dict[int, list[int]] = {}
    for cid, t in enumerate(types):
        pools.setdefault(t, []).append(cid)

    # 1. per round the turn lists and the interleaved order (still card types)
    rounds_typed = []
    for rd in solution.rounds:
        # award targets, handed out in the order _turn_lists meets the award cards
        if rules.award_any:
            targets = [a for a in range(N_ARTISTS) for _ in range(rd.awards_to[a])]
        else:
            targets = [a for p in range(P) for a in range(N_ARTISTS) for _ in range(rd.award[p][a])]
        lists = _turn_lists(rd, P, targets)
        order = []
        cycle = 0
        while any(cycle < len(t) for t in lists):
            for i in range(P):
                p = (rd.first_player + i) % P
                if cycle < len(lists[p]):
                    order.append((p, *lists[p][cycle]))
            cycle += 1
        rounds_typed.append(order)

    # 2. card identities for displayed cards and extras
    def take(t: int) -> int:
        if not pools.get(t):
            raise ValueError(f"no card of type {type_name(t)} left for this exhibit")
        return pools[t].pop(0)

    extras: list[int | None] = []
    for rd in solution.rounds:
        extras.append(None if rd.extra is None else take(card_type(rd.extra, PLAIN)))
    plays_ids: list[list[tuple[int, int, int | None, int | None]]] = []
    need: list[list[int]] = [[] for _ in range(P)]  # cards each player displays, in time order
    for order in rounds_typed:
        ids = []
        for p, t, t2, target in order:
            c = take(t)
            c2 = take(t2) if t2 is not None else None
            ids.append((p, c, c2, target))
            need[p].append(c)
            if c2 is not None:
                need[p].append(c2)
        plays_ids.append(ids)
    fillers = sorted(
        (c for t, cs in pools.items() for c in cs), key=lambda c: (type_symbol(types[c]) != 0, c)
    )

    # 3. receipts in time order: deals at round starts, draws at draw-one plays
    given = [0] * P

    def receive(p: int) -> int:
        if given[p] < len(need[p]):
            c = need[p][given[p]]
            given[p] += 1
            return c
        if not fillers:
            raise ValueError("the deck ran out of cards for this exhibit")
        return fillers.pop(0)

    plan_rounds = []
    for r, rd in enumerate(solution.rounds):
        deals = tuple(tuple(receive(p) for _ in range(rules.deal[r])) for p in range(P))
        plays = []
        for p, c, c2, target in plays_ids[r]:
            draws = receive(p) if type_symbol(types[c]) == DRAW else None
            plays.append(
                Play(
                    player=p,
                    card=c,
                    second=c2,
                    award_to=target,
                    draws=draws,
                    symbols=rules.symbols,
                )
            )
        plan_rounds.append(
            PlanRound(
                first_player=rd.first_player, deals=deals, extra=extras[r], plays=tuple(plays)
            )
        )
    return GamePlan(rules=rules, rounds=tuple(plan_rounds), expected=solution.scores)


# ---------------------------------------------------------------------------------------------
# A small sequential replay of the rules (independent of the model)


class PlanError(ValueError):
    """A plan breaks a rule; the message names the round, the play and the rule."""


@dataclass(frozen=True)
class ReplayResult:
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    displayed: tuple[tuple[tuple[int, ...], ...], ...]  # [round][player][artist]
    final_hands: tuple[tuple[int, ...], ...]


def validate_plan(plan: GamePlan) -> ReplayResult:
    """Replay a plan card by card under its rules; `PlanError` at the first broken rule.

    Checks: deal sizes; every card id used at most once in the game; the player to move
    (clockwise from the round's first player, the next round starting left of the closer);
    the card (and a double's second card, same artist) is in the mover's hand; a draw-one draws
    (its drawn card joins the hand at once), an award places a token (own artist, or with
    ``award_any`` an artist with a card displayed this round); the round ends exactly when an
    artist reaches the closing count, at the plan's last play of the round; then ranking and
    scoring. Returns the scores.
    """
    rules = plan.rules
    P, M = rules.players, rules.closing
    types = card_types(rules.symbols)
    seen: set[int] = set()

    def fresh(c: int, what: str, r: int) -> None:
        if not 0 <= c < N_CARDS:
            raise PlanError(f"round {r + 1}: {what} is not a card id: {c}")
        if c in seen:
            raise PlanError(f"round {r + 1}: {what} #{c} was already dealt, drawn or shown")
        seen.add(c)

    hands: list[Counter[int]] = [Counter() for _ in range(P)]
    awards_left = AWARD_TOKENS
    value = [0] * N_ARTISTS
    scores = [0] * P
    round_scores, displayed_all = [], []
    expected_first = plan.rounds[0].first_player if plan.rounds else 0
    if len(plan.rounds) != N_ROUNDS:
        raise PlanError(f"a game has {N_ROUNDS} rounds, the plan has {len(plan.rounds)}")
    for r, rd in enumerate(plan.rounds):
        if rd.first_player != expected_first:
            raise PlanError(
                f"round {r + 1}: first player {rd.first_player + 1}, but the previous round's "
                f"closer makes it player {expected_first + 1}"
            )
        if len(rd.deals) != P:
            raise PlanError(f"round {r + 1}: deals for {len(rd.deals)} players, game has {P}")
        for p, cards in enumerate(rd.deals):
            if len(cards) != rules.deal[r]:
                raise PlanError(
                    f"round {r + 1}: player {p + 1} is dealt {len(cards)} cards, "
                    f"the rules deal {rules.deal[r]}"
                )
            for c in cards:
                fresh(c, f"card dealt to player {p + 1}", r)
                hands[p][c] += 1
        count = [0] * N_ARTISTS
        if (rd.extra is not None) != rules.has_extra(r):
            raise PlanError(
                f"round {r + 1}: extra card {rd.extra}, but the rules "
                + ("turn one" if rules.has_extra(r) else "turn none")
            )
        if rd.extra is not None:
            fresh(rd.extra, "extra card", r)
            count[type_artist(types[rd.extra])] += 1
        shown = [[0] * N_ARTISTS for _ in range(P)]
        awards = [0] * N_ARTISTS
        award_any_targets: list[int] = []
        mover = rd.first_player
        ended = False
        closer = None
        for i, play in enumerate(rd.plays):
            where = f"round {r + 1}, play {i + 1} ({play.describe()})"
            if ended:
                raise PlanError(f"{where}: the round already ended")
            if play.player != mover:
                raise PlanError(f"{where}: it is player {mover + 1}'s turn")
            hand = hands[mover]
            if hand[play.card] < 1:
                raise PlanError(f"{where}: the card is not in the player's hand")
            hand[play.card] -= 1
            t = types[play.card]
            a, sym = type_artist(t), type_symbol(t)
            shown[mover][a] += 1
            count[a] += 1
            if count[a] >= M:
                ended = True
            if play.second is not None:
                if sym != DOUBLE or ended:
                    raise PlanError(
                        f"{where}: a second card needs a double that did not end the round"
                    )
                if hand[play.second] < 1:
                    raise PlanError(f"{where}: the second card is not in the player's hand")
                if type_artist(types[play.second]) != a:
                    raise PlanError(f"{where}: a double's second card must be of its artist")
                hand[play.second] -= 1
                shown[mover][a] += 1
                count[a] += 1
                if count[a] >= M:
                    ended = True
            elif sym == DRAW and not ended:
                if play.draws is None:
                    raise PlanError(f"{where}: a draw-one must draw a card")
                fresh(play.draws, "drawn card", r)
                hand[play.draws] += 1
            elif sym == AWARD and not ended:
                target = play.award_to
                if target is None:
                    raise PlanError(f"{where}: an award needs its artist")
                if not rules.award_any and target != a:
                    raise PlanError(f"{where}: the award goes on the card's own artist")
                if awards_left == 0:
                    raise PlanError(f"{where}: no award token is left to place")
                awards_left -= 1
                awards[target] += 1
                if rules.award_any:
                    award_any_targets.append(target)
            if sym != DRAW and play.draws is not None:
                raise PlanError(f"{where}: only a draw-one draws")
            if max(count) > M:
                raise PlanError(f"{where}: an artist went past {M} cards")
            if ended:
                closer = mover
            mover = (mover + 1) % P
        if not ended:
            raise PlanError(f"round {r + 1}: no artist reached {M} cards; the round never ends")
        for target in award_any_targets:
            if sum(shown[p][target] for p in range(P)) < 1:
                raise PlanError(
                    f"round {r + 1}: award on {ARTISTS[target]}, which has no "
                    f"card displayed this round"
                )
        tokens = rank_tokens(count)
        for a in range(N_ARTISTS):
            value[a] += tokens[a] + 2 * awards[a]
        rs = tuple(
            sum(shown[p][a] * (value[a] if tokens[a] else 0) for a in range(N_ARTISTS))
            for p in range(P)
        )
        scores = [s + x for s, x in zip(scores, rs, strict=True)]
        round_scores.append(rs)
        displayed_all.append(tuple(tuple(row) for row in shown))
        assert closer is not None
        expected_first = (closer + 1) % P
    return ReplayResult(
        scores=tuple(scores),
        round_scores=tuple(round_scores),
        displayed=tuple(displayed_all),
        final_hands=tuple(tuple(sorted(h.elements())) for h in hands),
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
