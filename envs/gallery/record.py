"""The record of one finished Masters Gallery game, and scores recomputed from it alone."""

from __future__ import annotations

from dataclasses import dataclass, fields

from ludolab.envs.gallery.cards import N_ARTISTS


@dataclass(frozen=True)
class GalleryRecord:
    """Outcome and per-round traces of one game. Per-seat tuples are indexed by seat; artists
    are in priority order (Lite Metal, Yoko, Christin P., Karl Gitter, Krypto).

    Attributes:
        deal_id: id of the deal played.
        seed: the game seed (it seeds the agents; the engine itself draws nothing).
        agents: agent spec per seat.
        winners: the seats with the most money (more than one when the win is shared).
        final_scores: money per seat at the end.
        exhibits: cards each seat displayed per artist, per round, shape (rounds, players, 5)
            (face-down cards included, revealed at the round end; the extra card excluded).
        extra_cards: the extra face-up cards per artist per round, shape (rounds, 5).
        awards: award tokens placed per artist per round, shape (rounds, 5).
        rankings: the ranked artists of each round, best first (up to three).
        artist_values: what one card of each artist paid each round (0 if unranked), shape
            (rounds, 5).
        round_scores: money per seat per round, shape (rounds, players).
        round_starters: the seat that started each round.
        round_closers: the seat that ended each round, None when it ended with no cards left.
        turns_per_round: turns (one card played from hand each) per round.
        n_actions: decisions taken (second cards, declines and simultaneous picks included).
        cards_dealt: cards dealt to each seat over the game (round 1 included).
        cards_drawn: cards each seat drew with draw-one.
        missed_draws: draw-one cards played on an empty deck.
        deck_left: cards left in the deck at the end.
        deck_ran_out: the deck could not supply a deal, extra card or draw.
    """

    deal_id: str
    seed: int
    agents: tuple[str, ...]
    winners: tuple[int, ...]
    final_scores: tuple[int, ...]
    exhibits: tuple[tuple[tuple[int, ...], ...], ...]
    extra_cards: tuple[tuple[int, ...], ...]
    awards: tuple[tuple[int, ...], ...]
    rankings: tuple[tuple[int, ...], ...]
    artist_values: tuple[tuple[int, ...], ...]
    round_scores: tuple[tuple[int, ...], ...]
    round_starters: tuple[int, ...]
    round_closers: tuple[int | None, ...]
    turns_per_round: tuple[int, ...]
    n_actions: int
    cards_dealt: tuple[int, ...]
    cards_drawn: tuple[int, ...]
    missed_draws: int
    deck_left: int
    deck_ran_out: bool

    @property
    def n_players(self) -> int:
        return len(self.final_scores)

    @property
    def rounds(self) -> int:
        return len(self.round_scores)

    @property
    def winner(self) -> int | None:
        """The single winner, or None when the win is shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict:
        """A JSON/Parquet-ready dict, field by field. Every field is an int, str, bool, None or
        a (nested) tuple of those, all immutable: a shallow dict equals ``dataclasses.asdict``
        without its deep copy (which cost more than playing a random game)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def recompute_scores(
    record: GalleryRecord,
    rank_tokens: tuple[int, ...] = (3, 2, 1),
    award_value: int = 2,
    rank_empty_artists: bool = False,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """(artist values per round, scores per round, final scores) from the record's exhibits,
    extra cards and awards alone — an implementation independent of the engine's."""
    n = record.n_players
    tokens = [0] * N_ARTISTS
    awards = [0] * N_ARTISTS
    all_values, all_scores = [], []
    final = [0] * n
    for r in range(record.rounds):
        exhibit = record.exhibits[r]
        counts = {
            a: record.extra_cards[r][a] + sum(exhibit[q][a] for q in range(n))
            for a in range(N_ARTISTS)
        }
        candidates = [a for a in range(N_ARTISTS) if rank_empty_artists or counts[a] > 0]
        ranked: list[int] = []
        while candidates and len(ranked) < len(rank_tokens):
            best = candidates[0]
            for a in candidates[1:]:
                if counts[a] > counts[best]:  # strictly more: ties stay with the earlier artist
                    best = a
            ranked.append(best)
            candidates.remove(best)
        for i, a in enumerate(ranked):
            tokens[a] += rank_tokens[i]
        for a in range(N_ARTISTS):
            awards[a] += record.awards[r][a]
        values = tuple(
            tokens[a] + award_value * awards[a] if a in ranked else 0 for a in range(N_ARTISTS)
        )
        scores = tuple(sum(exhibit[q][a] * values[a] for a in range(N_ARTISTS)) for q in range(n))
        for q in range(n):
            final[q] += scores[q]
        all_values.append(values)
        all_scores.append(scores)
    return tuple(all_values), tuple(all_scores), tuple(final)


__all__ = ["GalleryRecord", "recompute_scores"]
