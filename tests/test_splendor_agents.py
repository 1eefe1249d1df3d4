"""Splendor's scripted agents and the play loop: a game is a function of its deal, agents and
seed; greedy beats random; and greedy reads nothing its seat cannot see."""

from __future__ import annotations

from ludolab.envs.splendor.agents import REGISTRY
from ludolab.envs.splendor.engine import SplendorState, fair_deal
from ludolab.envs.splendor.play import play_game


def test_a_game_is_a_function_of_its_deal_agents_and_seed() -> None:
    deal = fair_deal(3, 1)
    lineup = ["greedy", "random", "greedy:nobles=0"]
    one = play_game(deal, [REGISTRY.parse(a) for a in lineup], 5)
    two = play_game(deal, [REGISTRY.parse(a) for a in lineup], 5)
    assert one == two and one.agents == ("greedy", "random", "greedy:nobles=0")
    assert len(one.score_by_step) == one.turns == one.rounds * 3
    assert one.final_scores == one.score_by_step[-1]


def test_greedy_beats_random_and_games_end_by_the_rules() -> None:
    wins = 0
    for seed in range(40):
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        record = play_game(fair_deal(2, seed), [REGISTRY.parse(a) for a in seats], seed)
        assert not record.truncated and max(record.final_scores) >= 15
        wins += seats.index("greedy") in record.winners
    assert wins >= 36  # 100 of 100 when measured


def test_greedy_does_not_read_a_card_reserved_face_down_by_another_seat() -> None:
    """Two games differing only in the card seat 1 reserved from a deck (unseen by seat 0):
    greedy at seat 0 decides the same."""
    deal = fair_deal(2, 3)
    a = SplendorState(deal)
    a.step(0)  # seat 0 takes three gems
    b = a.clone()
    a.step(42)  # seat 1 reserves the top of the level-1 deck
    b.decks[0][0], b.decks[0][1] = b.decks[0][1], b.decks[0][0]
    b.step(42)  # the same, another card underneath
    assert a.seats[1].reserved != b.seats[1].reserved
    assert a.legal_actions() == b.legal_actions()
    for seed in range(20):
        choices = []
        for state in (a, b):
            agent = REGISTRY.parse("greedy")
            agent.reset(0, seed)
            choices.append(agent.act(state, state.legal_actions()))
        assert choices[0] == choices[1]


def test_a_determinisation_redeals_only_what_the_seat_cannot_see() -> None:
    import random

    from ludolab.envs.splendor.agents import determinise

    state = SplendorState(fair_deal(3, 8))
    state.step(0)  # seat 0 takes gems
    state.step(42)  # seat 1 reserves the top of the level-1 deck, face down
    state.step(31)  # seat 2 reserves a card from the display, face up
    copy = determinise(state, 0, random.Random(1))
    assert copy.display == state.display and copy.seats[2].reserved == state.seats[2].reserved
    for level in range(3):
        mine = sorted(state.decks[level] + [c for c in state.seats[1].reserved if level == 0])
        theirs = sorted(copy.decks[level] + [c for c in copy.seats[1].reserved if level == 0])
        assert mine == theirs  # the same unseen cards, dealt again
    assert copy.decks[0] != state.decks[0]
    # seat 1 sees its own reserved card: only the decks move
    own = determinise(state, 1, random.Random(1))
    assert own.seats[1].reserved == state.seats[1].reserved
    copy.check_invariants()
    own.check_invariants()


def test_mcts_is_seeded_and_plays_whole_games() -> None:
    deal = fair_deal(2, 2)
    lineup = ["mcts:playouts=8,horizon=4", "greedy"]
    one = play_game(deal, [REGISTRY.parse(a) for a in lineup], 3)
    two = play_game(deal, [REGISTRY.parse(a) for a in lineup], 3)
    assert one == two and not one.truncated
    assert one.agents[0] == "mcts:playouts=8,horizon=4"
