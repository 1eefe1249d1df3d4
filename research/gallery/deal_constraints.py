"""The named constraints on a Masters Gallery deal's round-1 hands: the context they are bound to
(players, hand size, symbols), the labellings they read the cards through, their parameters, and
checking deals against them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ludolab.envs.gallery.cards import (
    ARTIST_OF_CARD,
    ARTISTS,
    DEFAULT_SYMBOLS,
    N_ARTISTS,
    N_CARDS,
    N_SYMBOLS,
    PLAIN,
    SYMBOLS,
    SymbolsTable,
    card_types,
    validate_symbols,
)
from ludolab.envs.gallery.deal import MAX_PLAYERS, MIN_PLAYERS, Deal
from ludolab.research.suggest import did_you_mean

HAND_SIZE = 13


SYMBOL_KINDS = SYMBOLS[1:]  # draw, double, award, face-down, simultaneous


class DealConstraintError(ValueError):
    """An unknown deal constraint or set, or a bad parameter; the message says what is allowed."""


@dataclass(frozen=True)
class DealContext:
    """The facts a constraint needs: player count, round-1 hand size and the symbols table."""

    n_players: int
    hand_size: int = HAND_SIZE
    symbols: SymbolsTable = DEFAULT_SYMBOLS

    def __post_init__(self) -> None:
        n = self.n_players
        if not isinstance(n, int) or isinstance(n, bool) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise DealConstraintError(f"n_players is {n!r}; expected {MIN_PLAYERS}..{MAX_PLAYERS}")
        h = self.hand_size
        if not isinstance(h, int) or isinstance(h, bool) or h < 1 or n * h > N_CARDS:
            raise DealConstraintError(
                f"hand_size is {h!r}; expected 1..{N_CARDS // n} for {n} players"
            )
        try:
            object.__setattr__(self, "symbols", validate_symbols(self.symbols))
        except ValueError as exc:
            raise DealConstraintError(str(exc)) from None

    @property
    def block_sizes(self) -> tuple[int, ...]:
        """Rows of a count matrix: each seat's hand, then the rest of the deck."""
        return (self.hand_size,) * self.n_players + (N_CARDS - self.hand_size * self.n_players,)

    @property
    def symbol_of_card(self) -> np.ndarray:
        return np.array(card_types(self.symbols), dtype=np.int64) % N_SYMBOLS


@dataclass(frozen=True)
class Labelling:
    """A map card id -> label 0..L-1; ``key`` identifies it (equal keys, equal labels)."""

    key: str
    labels: np.ndarray  # (95,) int
    names: tuple[str, ...]

    @property
    def n_labels(self) -> int:
        return len(self.names)

    @property
    def card_counts(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=self.n_labels)


def symbol_labelling(ctx: DealContext) -> Labelling:
    return Labelling("symbol", ctx.symbol_of_card, SYMBOLS)


def symbol_card_labelling(ctx: DealContext) -> Labelling:
    return Labelling(
        "symbol-card", (ctx.symbol_of_card != PLAIN).astype(np.int64), ("plain", "symbol")
    )


def artist_labelling(ctx: DealContext) -> Labelling:
    return Labelling("artist", np.array(ARTIST_OF_CARD, dtype=np.int64), ARTISTS)


def one_artist_labelling(ctx: DealContext, artist: int) -> Labelling:
    labels = (np.array(ARTIST_OF_CARD) == artist).astype(np.int64)
    return Labelling(f"artist={artist}", labels, ("other", ARTISTS[artist]))


def hand_counts(orders: np.ndarray, labelling: Labelling, ctx: DealContext) -> np.ndarray:
    """(B, 95) card orders -> (B, n_players, L) counts of each label in each round-1 hand."""
    n, h = ctx.n_players, ctx.hand_size
    lab = labelling.labels[np.asarray(orders)[:, : n * h]].reshape(-1, n, h)
    return (lab[..., None] == np.arange(labelling.n_labels)).sum(axis=2)


@dataclass(frozen=True)
class Param:
    """One parameter: kind ("int", "choice", "seat", "artist", "symbol-list"), default, doc."""

    kind: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int = 0
    unit: str = ""
    """What a number parameter counts ("cards"), for axis labels and tables."""


def _coerce(cname: str, key: str, p: Param, value: Any, ctx: DealContext) -> Any:
    where = f"deal constraint {cname!r}, parameter {key!r}"
    if p.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or value < p.minimum:
            raise DealConstraintError(f"{where}: expected an integer >= {p.minimum}; got {value!r}")
        return value
    if p.kind == "choice":
        if value not in p.choices:
            raise DealConstraintError(
                f"{where}: expected one of {', '.join(map(repr, p.choices))}; got {value!r}"
            )
        return value
    if p.kind == "seat":
        if value in ("any", "all"):
            return value
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < ctx.n_players:
            allowed = f"0..{ctx.n_players - 1}"
            raise DealConstraintError(
                f"{where}: expected a seat {allowed} (with {ctx.n_players} players) or "
                f"{' or '.join(repr(c) for c in p.choices)}; got {value!r}"
            )
        return value
    if p.kind == "artist":
        if value == "any":
            return value
        if isinstance(value, str) and value in ARTISTS:
            return ARTISTS.index(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N_ARTISTS:
            return value
        raise DealConstraintError(
            f"{where}: expected 'any', an artist name ({', '.join(ARTISTS)}) or index "
            f"0..{N_ARTISTS - 1}; got {value!r}"
        )
    if p.kind == "symbol-list":
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) and v in SYMBOL_KINDS for v in value)
        ):
            raise DealConstraintError(
                f"{where}: expected a non-empty list of symbol kinds from "
                f"{', '.join(SYMBOL_KINDS)}; got {value!r}"
            )
        return tuple(sorted({SYMBOLS.index(v) for v in value}))
    raise AssertionError(f"unknown parameter kind {p.kind}")


def _show(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_show(v) for v in value) + "]"
    return str(value)


class DealConstraint:
    """Base class: a named, parameterised predicate on round-1 hand counts.

    Subclasses set ``name``, ``summary``, ``params`` and implement :meth:`labelling` and
    :meth:`check_counts`; :meth:`column_ok` may prune the exact sampler's enumeration (it must
    reject only columns that no satisfying count matrix can have). A constraint is
    ``separable`` when ``column_ok`` is exact: a count matrix satisfies it if and only if every
    column does; the exact sampler then runs a dynamic programme over the labels.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    params: ClassVar[dict[str, Param]] = {}
    separable: bool = True

    def __init__(self, ctx: DealContext, **values: Any) -> None:
        unknown = set(values) - set(self.params)
        if unknown:
            allowed, wrong = ", ".join(self.params) or "none", sorted(unknown)[0]
            raise DealConstraintError(
                f"deal constraint {self.name!r} has no parameter {wrong!r}; "
                f"{did_you_mean(wrong, self.params)}its parameters: {allowed}"
            )
        self.ctx = ctx
        self.values = {
            k: _coerce(self.name, k, p, values.get(k, p.default), ctx)
            for k, p in self.params.items()
        }
        self._validate()

    def _validate(self) -> None:
        """Cross-parameter checks; raise DealConstraintError."""

    def labelling(self) -> Labelling:
        raise NotImplementedError

    def check_counts(self, counts: np.ndarray) -> np.ndarray:
        """(B, n_players, L) hand counts -> (B,) bool."""
        raise NotImplementedError

    def column_ok(self, label: int, columns: np.ndarray) -> np.ndarray:
        """(C, n_players) candidate counts of one label -> (C,) bool (a necessary condition)."""
        return np.ones(len(columns), dtype=bool)

    def check(self, orders: np.ndarray) -> np.ndarray:
        """(B, 95) card orders -> (B,) bool."""
        return self.check_counts(hand_counts(orders, self.labelling(), self.ctx))

    def describe(self) -> str:
        shown = ", ".join(f"{k}={_show(self._shown(k))}" for k in self.values)
        return f"{self.name}({shown})" if shown else self.name

    def _shown(self, key: str) -> Any:
        v, p = self.values[key], self.params[key]
        if p.kind == "artist" and v != "any":
            return ARTISTS[v]
        if p.kind == "symbol-list":
            return [SYMBOLS[s] for s in v]
        return v

    def __repr__(self) -> str:
        return f"<deal constraint {self.describe()}>"


DEAL_CONSTRAINTS: dict[str, type[DealConstraint]] = {}


def register(cls: type[DealConstraint]) -> type[DealConstraint]:
    DEAL_CONSTRAINTS[cls.name] = cls
    return cls


def _spread_ok(columns: np.ndarray, tolerance: int) -> np.ndarray:
    return columns.max(axis=-1) - columns.min(axis=-1) <= tolerance


TOLERANCE = Param(
    "int", 0, "largest allowed difference (max - min) between seats' counts", unit="cards"
)


@register
class BalancedSymbols(DealConstraint):
    name = "balanced-symbols"
    summary = (
        "every seat's round-1 hand holds the same number of cards of each symbol kind (draw, "
        "double, award, ...), or within `tolerance`; by='total' compares symbol cards of any kind"
    )
    params = {
        "tolerance": TOLERANCE,
        "by": Param(
            "choice",
            "kind",
            "'kind': each symbol kind separately; 'total': symbol cards of any kind together",
            ("kind", "total"),
        ),
    }

    def labelling(self) -> Labelling:
        if self.values["by"] == "kind":
            return symbol_labelling(self.ctx)
        return symbol_card_labelling(self.ctx)

    def check_counts(self, counts: np.ndarray) -> np.ndarray:
        sym = counts[:, :, 1:]  # label 0 is plain in both labellings
        return _spread_ok(np.swapaxes(sym, 1, 2), self.values["tolerance"]).all(axis=1)

    def column_ok(self, label: int, columns: np.ndarray) -> np.ndarray:
        if label == PLAIN:
            return np.ones(len(columns), dtype=bool)
        return _spread_ok(columns, self.values["tolerance"])


@register
class BalancedArtists(DealConstraint):
    name = "balanced-artists"
    summary = (
        "for every artist, the seats' round-1 counts of that artist differ by at most `tolerance`"
    )
    params = {"tolerance": Param("int", 1, TOLERANCE.doc, unit="cards")}

    def labelling(self) -> Labelling:
        return artist_labelling(self.ctx)

    def check_counts(self, counts: np.ndarray) -> np.ndarray:
        return _spread_ok(np.swapaxes(counts, 1, 2), self.values["tolerance"]).all(axis=1)

    def column_ok(self, label: int, columns: np.ndarray) -> np.ndarray:
        return _spread_ok(columns, self.values["tolerance"])


@register
class SkewedArtists(DealConstraint):
    name = "skewed-artists"
    summary = (
        "some seat (or `seat`) holds at least `min_count` round-1 cards of one artist (or of "
        "`artist`): a deliberately lopsided deal"
    )
    params = {
        "min_count": Param(
            "int", 7, "cards of the one artist the seat must hold", minimum=1, unit="cards"
        ),
        "seat": Param("seat", "any", "the seat that gets them, or 'any'", ("any",)),
        "artist": Param("artist", "any", "the artist (name or 0..4), or 'any'"),
    }

    def _validate(self) -> None:
        k, h = self.values["min_count"], self.ctx.hand_size
        if self.values["seat"] == "all":
            raise DealConstraintError(
                f"deal constraint {self.name!r}, parameter 'seat': expected a seat or 'any'"
            )
        a = self.values["artist"]
        most = min(h, max(ARTIST_CARD_COUNTS) if a == "any" else ARTIST_CARD_COUNTS[a])
        if k > most:
            raise DealConstraintError(
                f"deal constraint {self.name!r}, parameter 'min_count': {k} is impossible "
                f"(a hand holds {h} cards; at most {most} of the artist)"
            )

    def labelling(self) -> Labelling:
        a = self.values["artist"]
        return artist_labelling(self.ctx) if a == "any" else one_artist_labelling(self.ctx, a)

    def check_counts(self, counts: np.ndarray) -> np.ndarray:
        a, s, k = self.values["artist"], self.values["seat"], self.values["min_count"]
        c = counts if a == "any" else counts[:, :, 1:2]
        if s != "any":
            c = c[:, s : s + 1, :]
        return (c >= k).any(axis=(1, 2))

    @property
    def separable(self) -> bool:  # type: ignore[override]
        return self.values["artist"] != "any"  # "any artist" is an OR across columns

    def column_ok(self, label: int, columns: np.ndarray) -> np.ndarray:
        a, s, k = self.values["artist"], self.values["seat"], self.values["min_count"]
        if a == "any" or label != 1:
            return np.ones(len(columns), dtype=bool)
        return columns[:, s] >= k if s != "any" else (columns >= k).any(axis=1)


@register
class NoSymbolsForSeat(DealConstraint):
    name = "no-symbols-for-seat"
    summary = "seat `seat` gets no round-1 symbol cards of the kinds in `symbols`"
    params = {
        "seat": Param("seat", 0, "the seat (0 starts round 1)"),
        "symbols": Param("symbol-list", list(SYMBOL_KINDS), "the symbol kinds it must not get"),
    }

    def _validate(self) -> None:
        if self.values["seat"] in ("any", "all"):
            raise DealConstraintError(
                f"deal constraint {self.name!r}, parameter 'seat': expected a seat number "
                f"0..{self.ctx.n_players - 1}"
            )

    def labelling(self) -> Labelling:
        return symbol_labelling(self.ctx)

    def check_counts(self, counts: np.ndarray) -> np.ndarray:
        return (counts[:, self.values["seat"], list(self.values["symbols"])] == 0).all(axis=1)

    def column_ok(self, label: int, columns: np.ndarray) -> np.ndarray:
        if label in self.values["symbols"]:
            return columns[:, self.values["seat"]] == 0
        return np.ones(len(columns), dtype=bool)


@register
class SymbolCards(DealConstraint):
    name = "symbol-cards"
    summary = "every seat (or `seat`) holds between `min` and `max` round-1 symbol cards"
    params = {
        "min": Param("int", 0, "fewest symbol cards", unit="cards"),
        "max": Param("int", HAND_SIZE, "most symbol cards", unit="cards"),
        "seat": Param("seat", "all", "the seat, or 'all'", ("all",)),
    }

    def _validate(self) -> None:
        if self.values["min"] > self.values["max"]:
            raise DealConstraintError(
                f"deal constraint {self.name!r}: min ({self.values['min']}) exceeds max "
                f"({self.values['max']})"
            )
        if self.values["seat"] == "any":
            raise DealConstraintError(
                f"deal constraint {self.name!r}, parameter 'seat': expected a seat or 'all'"
            )

    def labelling(self) -> Labelling:
        return symbol_card_labelling(self.ctx)

    def check_counts(self, counts: np.ndarray) -> np.ndarray:
        c = counts[:, :, 1]
        if self.values["seat"] != "all":
            c = c[:, self.values["seat"]][:, None]
        return ((c >= self.values["min"]) & (c <= self.values["max"])).all(axis=1)

    def column_ok(self, label: int, columns: np.ndarray) -> np.ndarray:
        if label != 1:
            return np.ones(len(columns), dtype=bool)
        c = columns if self.values["seat"] == "all" else columns[:, [self.values["seat"]]]
        return ((c >= self.values["min"]) & (c <= self.values["max"])).all(axis=1)


ARTIST_CARD_COUNTS = tuple(int(k) for k in np.bincount(ARTIST_OF_CARD))


def make_deal_constraint(name: str, ctx: DealContext, **values: Any) -> DealConstraint:
    """A library deal constraint by name; unknown names list the known ones."""
    try:
        cls = DEAL_CONSTRAINTS[name]
    except KeyError:
        raise DealConstraintError(
            f"unknown deal constraint {name!r}; {did_you_mean(name, DEAL_CONSTRAINTS)}known deal "
            f"constraints: {', '.join(sorted(DEAL_CONSTRAINTS))}"
        ) from None
    return cls(ctx, **values)


def describe_constraints() -> str:
    """The library's deal constraints with their parameters (for `ludolab constraints list`)."""
    lines = []
    for name in sorted(DEAL_CONSTRAINTS):
        cls = DEAL_CONSTRAINTS[name]
        lines.append(f"{name}: {cls.summary}")
        for key, p in cls.params.items():
            lines.append(f"    {key} (default {_show(p.default)}): {p.doc}")
    return "\n".join(lines)


def deal_orders(deals: Sequence[Deal] | np.ndarray) -> np.ndarray:
    if isinstance(deals, np.ndarray):
        return deals.reshape(-1, N_CARDS)
    return np.array([d.order for d in deals], dtype=np.int64).reshape(-1, N_CARDS)


def check_deals(
    constraints: Sequence[DealConstraint], deals: Sequence[Deal] | np.ndarray
) -> np.ndarray:
    """(B,) bool: which deals (Deal objects or a (B, 95) order array) satisfy every constraint."""
    orders = deal_orders(deals)
    ok = np.ones(len(orders), dtype=bool)
    for c in constraints:
        ok &= c.check(orders)
    return ok


def violated(constraints: Sequence[DealConstraint], deal: Deal) -> list[str]:
    """The constraints (described) that one deal violates."""
    orders = deal_orders([deal])
    return [c.describe() for c in constraints if not c.check(orders)[0]]
