"""The record of one finished Masters Gallery game, and scores recomputed from it alone."""

from __future__ import annotations

from dataclasses import dataclass, fields

from ludolab.envs.gallery.cards import N_ARTISTS


@dataclass(frozen=True)
class GalleryRecord:
    """Outcome and per-round traces of one game. Per-seat tuples are indexed by seat; artists
    are in priority order (Lite Metal, Yoko, Christin P., Karl Gitter, Krypto).

    The fields up to ``truncated`` are the record core every game's record has
    (:data:`ludolab.games.RECORD_CORE`); the score is money and a step is a round.

    Attributes:
        setup_id: id of the deal played.
        seed: the game seed (it seeds the agents; the engine itself draws nothing).
        agents: agent spec per seat.
        winners: the seats with the most money (more than one when the win is shared).
        final_scores: money per seat at the end.
        score_by_step: money per seat earned up to the end of each round, shape (rounds,
            players).
        turns: cards played from hand, over all rounds (``sum(turns_per_round)``).
        rounds: rounds played.
        n_actions: decisions taken (second cards, declines and simultaneous picks included).
        truncated: always False (a game of Masters Gallery cannot be cut off).
        exhibits: cards each seat displayed per artist, per round, shape (rounds, players, 5)
            (face-down cards included, revealed at the round end; the extra card excluded).
        extra_cards: the extra face-up cards per artist per round, shape (rounds, 5).
        awards: award tokens placed per artist per round, shape (rounds, 5).
        rankings: the ranked artists of each round, best first (up to three).
        artist_values: what one card of each artist paid each round (0 if unranked), shape
            (rounds, 5).
        round_starters: the seat that started each round.
        round_closers: the seat that ended each round, None when it ended with no cards left.
        turns_per_round: turns (one card played from hand each) per round.
        cards_dealt: cards dealt to each seat over the game (round 1 included).
        cards_drawn: cards each seat drew with draw-one.
        missed_draws: draw-one cards played on an empty deck.
        deck_left: cards left in the deck at the end.
        deck_ran_out: the deck could not supply a deal, extra card or draw.
    """

    setup_id: str
    seed: int
    agents: tuple[str, ...]
    winners: tuple[int, ...]
    final_scores: tuple[int, ...]
    score_by_step: tuple[tuple[int, ...], ...]
    turns: int
    rounds: int
    n_actions: int
    truncated: bool
    exhibits: tuple[tuple[tuple[int, ...], ...], ...]
    extra_cards: tuple[tuple[int, ...], ...]
    awards: tuple[tuple[int, ...], ...]
    rankings: tuple[tuple[int, ...], ...]
    artist_values: tuple[tuple[int, ...], ...]
    round_starters: tuple[int, ...]
    round_closers: tuple[int | None, ...]
    turns_per_round: tuple[int, ...]
    cards_dealt: tuple[int, ...]
    cards_drawn: tuple[int, ...]
    missed_draws: int
    deck_left: int
    deck_ran_out: bool

    @property
    def n_players(self) -> int:
        return len(self.final_scores)

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        """Money per seat earned in each round, shape (rounds, players)."""
        before = (0,) * self.n_players
        out = []
        for after in self.score_by_step:
            out.append(tuple(a - b for a, b in zip(after, before, strict=True)))
            before = after
        return tuple(out)

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
