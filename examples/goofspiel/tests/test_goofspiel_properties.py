"""Properties of whole games with random prize orders, seats, tie rules and bids (hypothesis):
every card is bid once, no points are created, the engine's invariants hold after every step,
records say what was played, and no agent reads a bid of the current round."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab_goofspiel.agents import REGISTRY
from ludolab_goofspiel.engine import TIES, GoofspielOptions, GoofspielState, PrizeOrder
from ludolab_goofspiel.play import game_record, play_game

# database=None: no example database written into the working directory
FAST = settings(max_examples=60, deadline=None, database=None)


@st.composite
def games(draw: st.DrawFn) -> tuple[PrizeOrder, int, GoofspielOptions, int]:
    """A prize order of 1-9 prizes, 2-4 seats, a tie rule and a seed for the bids."""
    cards = draw(st.integers(1, 9))
    prizes = draw(st.permutations(range(1, cards + 1)))
    players = draw(st.integers(2, 4))
    ties = draw(st.sampled_from(TIES))
    return PrizeOrder(tuple(prizes)), players, GoofspielOptions(cards, ties), draw(st.integers())


def _walk(order: PrizeOrder, players: int, options: GoofspielOptions, seed: int):
    """A game stepped with random legal bids, invariants checked after every step."""
    rng = random.Random(seed)
    state = GoofspielState(order, players, seed, options)
    state.check_invariants()
    steps = 0
    while not state.done:
        legal = state.legal_actions()
        forced = state.forced_action()
        assert legal == sorted(set(legal)) and legal
        assert forced == -1 or (forced in legal and len(legal) == 1)
        state.step(forced if forced >= 0 else rng.choice(legal))
        state.check_invariants()
        steps += 1
    return state, steps


@FAST
@given(games())
def test_every_card_is_bid_once_and_no_point_is_created(game: tuple) -> None:
    order, players, options, seed = game
    state, steps = _walk(order, players, options, seed)
    k = options.cards
    assert steps == k * players == state.n_actions
    for seat in range(players):
        assert sorted(r.bids[seat] for r in state.history) == list(range(1, k + 1))
        assert state.hands[seat] == []
    total = k * (k + 1) // 2
    assert sum(state.scores) <= total
    assert sum(state.scores) + state.unclaimed == total
    assert state.winners and max(state.scores) == state.scores[state.winners[0]]


@FAST
@given(games())
def test_the_record_says_what_was_played(game: tuple) -> None:
    order, players, options, seed = game
    state, _ = _walk(order, players, options, seed)
    record = game_record(state, ["random"] * players)
    assert record.score_by_step[-1] == record.final_scores == tuple(state.scores)
    assert len(record.score_by_step) == record.rounds == options.cards
    assert record.tied_rounds == sum(w is None for w in record.round_winners)
    assert record.points_unclaimed + sum(record.final_scores) == sum(order.prizes)
    assert list(record.to_dict()) == [f for f in record.__dataclass_fields__]


@FAST
@given(games(), st.integers(0, 3))
def test_a_clone_is_independent(game: tuple, cut: int) -> None:
    order, players, options, seed = game
    state = GoofspielState(order, players, seed, options)
    rng = random.Random(seed)
    for _ in range(min(cut, options.cards * players - 1)):
        state.step(rng.choice(state.legal_actions()))
    copy = state.clone()
    before = (list(map(list, state.hands)), list(state.pending), list(state.scores))
    while not copy.done:
        copy.step(copy.legal_actions()[0])
    assert (state.hands, state.pending, state.scores) == before
    state.check_invariants()


@FAST
@given(games(), st.sampled_from(["random", "match", "greedy", "greedy:jitter=0,trust=0"]))
def test_no_agent_reads_a_bid_of_the_current_round(game: tuple, spec: str) -> None:
    """At the last seat's decision, change what the earlier seats bid this round: the agent
    bids the same card (its random stream included, as each copy is reset alike)."""
    order, players, options, seed = game
    state = GoofspielState(order, players, seed, options)
    rng = random.Random(seed)
    rounds = rng.randrange(options.cards)
    for _ in range(rounds * players):  # some rounds played at random
        state.step(rng.choice(state.legal_actions()))
    seat = players - 1
    choices = set()
    for trial in range(4):  # four different sets of sealed bids before the last seat
        other = state.clone()
        bidder = random.Random(f"{seed}:{trial}")
        for _ in range(seat):
            other.step(bidder.choice(other.legal_actions()))
        agent = REGISTRY.parse(spec)
        agent.reset(seat, seed)
        choices.add(agent.act(other, other.legal_actions()))
    assert len(choices) == 1


@settings(max_examples=15, deadline=None, database=None)
@given(games(), st.sampled_from(["random", "match", "greedy"]))
def test_agents_play_legal_games_and_the_seed_decides_them(game: tuple, spec: str) -> None:
    order, players, options, seed = game
    records = [
        play_game(order, [REGISTRY.parse(spec) for _ in range(players)], seed, options)
        for _ in range(2)
    ]
    assert records[0] == records[1]
    assert records[0].n_actions == options.cards * players
