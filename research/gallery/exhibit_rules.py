"""What the exhibit model answers about and with: the rules options it takes (ExhibitRules), its
answer per round and in all (RoundExhibit, ExhibitSolution), and the scores recomputed from an
answer's counts alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ludolab.envs.gallery.cards import (
    ARTIST_CARDS,
    ARTISTS,
    AWARD,
    DEFAULT_SYMBOLS,
    DOUBLE,
    DRAW,
    OPEN_MODEL_SYMBOLS,
    SymbolsTable,
    validate_symbols,
)
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.research.solve import SolverStats

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
