"""The Deal: the order of the shuffled deck, which fixes every card of a game.

JSON schema (``ludolab.gallery.deal/1``), one object per deal (``.json``) or per line
(``.jsonl``)::

    {
      "schema":    "ludolab.gallery.deal/1",
      "n_players": 3,                      # 2..5
      "order":     [17, 94, 3, ...],       # the 95 card ids, top of the deck first
      "id":        "3f2c..."               # optional; checked against the content if present
    }

Card ids are explained in :mod:`ludolab.envs.gallery.cards` (the artist is fixed by the id; the
symbol by the rules' symbols table). Cards leave the deck from the top, in this order, always:

1. Round 1: seat 0 gets the first ``hand_size`` (13) cards, seat 1 the next 13, and so on
   (blocks, in seat order); then the extra face-up card.
2. During a round, each draw-one takes the top card.
3. Rounds 2, 3, 4: each seat in seat order (from seat 0, whoever starts the round) gets its
   block of the later deal (2 players: 6, 6, 3; 3: 6, 6, 0; 4: 4, 4, 0; 5: 2, 2, 0); then the
   round's extra face-up card.

So round 1's hands and first extra card are fixed by the deal alone (:meth:`Deal.round1_hands`);
later cards depend also on how many draws were made. If the deck runs out, later seats of a
deal get fewer cards (or none) and draws draw nothing; the game goes on.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ludolab.envs.gallery.cards import N_CARDS
from ludolab.envs.jsonl import iter_records, read_record, write_records

SCHEMA = "ludolab.gallery.deal/1"
MIN_PLAYERS, MAX_PLAYERS = 2, 5


class DealError(ValueError):
    """A deal (or deal file) is not valid. The message names the file and field."""


@dataclass(frozen=True)
class Deal:
    """One shuffled deck for a player count.

    Attributes:
        n_players: 2..5.
        order: the 95 card ids, a permutation of 0..94, top of the deck first.
    """

    n_players: int
    order: tuple[int, ...]

    def __post_init__(self) -> None:
        if isinstance(self.order, list):
            object.__setattr__(self, "order", tuple(self.order))
        self.validate()

    @property
    def id(self) -> str:
        """Canonical id: a hash of the content (player count and order)."""
        canonical = json.dumps(self._content(), separators=(",", ":"), sort_keys=True)
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def _content(self) -> dict:
        return {"n_players": self.n_players, "order": list(self.order)}

    def round1_hands(self, hand_size: int = 13) -> tuple[tuple[int, ...], ...]:
        """The card ids each seat holds at the start of round 1."""
        return tuple(
            self.order[s * hand_size : (s + 1) * hand_size] for s in range(self.n_players)
        )

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Sequence[int]],
        rest: Sequence[int],
        source: str = "<deal>",
        hand_size: int = 13,
    ) -> Deal:
        """The deal whose round-1 hands are ``hands`` (seat order; ``hand_size`` cards each, as
        the engine deals them) and whose deck, top first, is ``rest`` (its first card is round
        1's extra card)."""
        if not hands:
            raise DealError(f"{source}: field 'hands' is empty; give one hand per seat")
        wrong = [len(h) for h in hands if len(h) != hand_size]
        if wrong:
            raise DealError(
                f"{source}: field 'hands' must hold {hand_size} cards per seat (the round-1 "
                f"hand size), got sizes {[len(h) for h in hands]}"
            )
        order = [c for h in hands for c in h] + list(rest)
        return cls.from_dict({"n_players": len(hands), "order": order}, source)

    def to_dict(self) -> dict:
        """The deal as a JSON-ready dict in the documented schema (with its id)."""
        return {"schema": SCHEMA, **self._content(), "id": self.id}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: object, source: str = "<deal>") -> Deal:
        """Parse and validate a deal dict; raise :class:`DealError` naming source and field."""
        if not isinstance(data, dict):
            raise DealError(
                f"{source}: expected a JSON object with fields n_players, order; "
                f"got {type(data).__name__}"
            )
        schema = data.get("schema", SCHEMA)
        if schema != SCHEMA:
            raise DealError(
                f"{source}: field 'schema' is {schema!r}; this version reads {SCHEMA!r}"
            )
        for field in ("n_players", "order"):
            if field not in data:
                raise DealError(f"{source}: missing field {field!r}")
        order = data["order"]
        if not isinstance(order, list):
            raise DealError(
                f"{source}: field 'order' must be a list of the {N_CARDS} card ids 0..94"
            )
        deal = _build(data["n_players"], order, source)
        if "id" in data and data["id"] != deal.id:
            raise DealError(
                f"{source}: field 'id' is {data['id']!r} but the content hashes to "
                f"{deal.id!r}; the file was edited or corrupted (drop 'id' to accept)"
            )
        return deal

    @classmethod
    def from_json(cls, text: str, source: str = "<deal>") -> Deal:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DealError(
                f"{source}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
            ) from exc
        return cls.from_dict(data, source)

    def validate(self, source: str = "<deal>") -> None:
        """Raise :class:`DealError` unless n_players is 2..5 and order a permutation of 0..94."""
        n = self.n_players
        if not isinstance(n, int) or isinstance(n, bool) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise DealError(
                f"{source}: field 'n_players' is {n!r}; expected {MIN_PLAYERS}..{MAX_PLAYERS}"
            )
        order = self.order
        if not isinstance(order, tuple) or len(order) != N_CARDS:
            length = len(order) if isinstance(order, (tuple, list)) else "?"
            raise DealError(
                f"{source}: field 'order' must hold the {N_CARDS} card ids 0..94 once each; "
                f"it holds {length} entries"
            )
        seen = [False] * N_CARDS
        for i, c in enumerate(order):
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < N_CARDS:
                raise DealError(
                    f"{source}: field 'order[{i}]' is {c!r}; expected a card id 0..{N_CARDS - 1}"
                )
            if seen[c]:
                raise DealError(
                    f"{source}: field 'order[{i}]' repeats card {c}; each card id appears once"
                )
            seen[c] = True


def _build(n_players: object, order: list, source: str) -> Deal:
    # Validate before constructing so errors name the real source.
    probe = object.__new__(Deal)
    object.__setattr__(probe, "n_players", n_players)
    object.__setattr__(probe, "order", tuple(order))
    probe.validate(source)
    return probe


def shuffled_deal(n_players: int, rng: random.Random | int) -> Deal:
    """A fair deal: the 95 cards uniformly shuffled. ``rng``: a Random, or an int seed."""
    if not isinstance(rng, random.Random):
        rng = random.Random(f"ludolab.gallery.deal:{rng}")
    order = list(range(N_CARDS))
    rng.shuffle(order)
    return Deal(n_players, tuple(order))


def read_deal(path: str | Path) -> Deal:
    """Read one deal from a ``.json`` file (or the first line of a ``.jsonl``)."""
    return read_record(path, Deal.from_json, DealError, "deal")


def iter_deals(path: str | Path) -> Iterator[Deal]:
    """Deals from a ``.jsonl`` file, one per line; errors name the file and line."""
    return iter_records(path, Deal.from_json, DealError, "deal")


def write_deals(deals: Iterable[Deal], path: str | Path) -> int:
    """Write deals atomically, one JSON object per line; return how many were written."""
    return write_records(deals, path)


__all__ = [
    "SCHEMA",
    "Deal",
    "DealError",
    "iter_deals",
    "read_deal",
    "shuffled_deal",
    "write_deals",
]
