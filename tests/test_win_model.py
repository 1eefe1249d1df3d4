"""The win-probability model ``mcts-value`` cuts its play-outs off with: its features against an
independent reading of the position, the fit against planted weights, the shipped weights
against knowing nothing on games they were not fitted on, and the agent that uses them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ludolab.envs.agents import AgentSpecError
from ludolab.envs.catan import native
from ludolab.envs.catan.agents import make_agent, parse_agent_spec
from ludolab.envs.catan.agents.greedy import BoardInfo
from ludolab.envs.catan.agents.value import (
    FEATURES,
    WEIGHTS,
    features,
    fields_of,
    win_probabilities,
)
from ludolab.envs.catan.engine import KNIGHT, Game, tables
from ludolab.envs.catan.options import GameOptions
from ludolab.envs.catan.play import play_game
from ludolab.research.catan.samplers import fair_board
from ludolab.research.catan.win_model import collect_positions, fit, log_loss


def _played(seed: int, turns: int) -> Game:
    """A game four greedy agents have played for ``turns`` turns."""
    game = Game(fair_board(seed), 4, seed)
    agents = [make_agent("greedy") for _ in range(4)]
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    while not game.done and game.turns < turns:
        forced = game.forced_action()
        game.step(forced if forced >= 0 else agents[game.acting].act(game, game.legal_actions()))
    return game


@pytest.mark.parametrize("seed,turns", [(1, 10), (2, 30), (3, 55)])
def test_features_read_the_position_as_the_engine_does(seed, turns):
    game = _played(seed, turns)
    rows = features(fields_of(game), BoardInfo.of(game))
    col = {name: i for i, name in enumerate(FEATURES)}
    corners = tables().hex_corners
    for q in range(4):
        x = rows[q]
        assert x[col["vp"]] == game.victory_points(q)
        assert x[col["vp_over_7"]] == max(game.victory_points(q) - 7, 0)
        # Production walked hex by hex (the features walk buildings): pips x building level.
        produce = [0] * 5
        for h, res in enumerate(game.hex_resource):
            if res < 0 or h == game.robber:
                continue
            for v in corners[h]:
                if game.owner[v] == q:
                    produce[res] += BoardInfo.of(game).hex_pips[h] * game.building[v]
        assert x[col["production"]] == sum(produce)
        assert x[col["kinds"]] == sum(1 for p in produce if p)
        assert x[col["city_production"]] == produce[2] + produce[4]
        assert x[col["expansion_production"]] == produce[0] + produce[3]
        assert x[col["hand"]] == sum(game.hands[q])
        assert x[col["development"]] == sum(game.dev_hand[q]) - game.dev_hand[q][1]
        assert x[col["knights"]] == game.dev_played[q][KNIGHT]
        assert x[col["road"]] == game.road_length[q]
        assert x[col["spots"]] == min(len(game.settlement_spots(q)), 3)
        assert x[col["harbors_2_1"]] == sum(1 for r in game.rates[q] if r == 2)
        after = [x[col[f"next_{k}"]] for k in (1, 2, 3)]
        assert sum(after) == (0 if q == game.current else 1)
        if q != game.current:
            assert after[(q - game.current) % 4 - 1] == 1


def test_the_core_state_gives_the_same_features():
    game = _played(4, 40)
    core = native.core_of(game)
    if core is None:
        pytest.skip("the native core is not built")
    info = BoardInfo.of(game)
    assert features(core.get_state(), info) == features(fields_of(game), info)


def test_the_core_restates_the_model_exactly():
    """Core.win_chances (the model in C, what the search calls in the core) gives the Python
    model's chances to the last bit, at every fifth turn of 6 games (robber, harbors and
    cities included); a wrong number of weights is refused."""
    if native.native() is None:
        pytest.skip("the native core is not built")
    checked = 0
    for seed in range(6):
        for turns in range(5, 100, 5):
            game = _played(seed, turns)
            if game.done:
                break
            core = native.core_of(game)
            expected = win_probabilities(fields_of(game), BoardInfo.of(game))
            assert core.win_chances(WEIGHTS) == expected
            checked += 1
    assert checked >= 60
    with pytest.raises(ValueError, match="expected 17 weights"):
        core.win_chances(WEIGHTS[:-1])


def test_win_chances_sum_to_one_and_favour_the_points():
    game = _played(5, 30)
    state = fields_of(game)
    chances = win_probabilities(state, BoardInfo.of(game))
    assert math.isclose(sum(chances), 1.0)
    leader = max(range(4), key=game.victory_points)
    richer = dict(
        state, vp_public=[v + (2 if q == leader else 0) for q, v in enumerate(state["vp_public"])]
    )
    assert win_probabilities(richer, BoardInfo.of(game))[leader] > chances[leader]


def test_the_fit_recovers_planted_weights():
    rng = np.random.default_rng(7)
    planted = np.array([1.0, -0.5, 0.0, 2.0])
    x = rng.normal(size=(20_000, 4, 4)) * np.array([1.0, 2.0, 1.0, 0.5])
    chances = np.exp(x @ planted)
    chances /= chances.sum(axis=1, keepdims=True)
    winner = np.array([rng.choice(4, p=p) for p in chances])
    weights = fit(x, winner)
    assert np.allclose(weights, planted, atol=0.08)
    # And the planted model's log-loss is the fitted one's, both far below knowing nothing.
    assert log_loss(x, winner, weights).mean() < math.log(4) - 0.3


def test_the_shipped_weights_predict_games_they_were_not_fitted_on():
    """On 40 fresh games (another seed than the fit's), the model's log-loss is well below that
    of knowing nothing, log 4; weights of the wrong sign would be above it."""
    held_out = collect_positions(range(40), seed=2026)
    loss = log_loss(held_out.features, held_out.winner, np.array(WEIGHTS)).mean()
    assert loss < math.log(4) - 0.15
    flipped = log_loss(held_out.features, held_out.winner, -np.array(WEIGHTS)).mean()
    assert flipped > math.log(4)


def test_positions_are_the_same_from_the_core_and_the_reference(monkeypatch):
    if native.native() is None:
        pytest.skip("the native core is not built")
    in_core = collect_positions(range(3), seed=11)
    monkeypatch.setattr(native, "native", lambda: None)
    on_reference = collect_positions(range(3), seed=11)
    for a, b in zip(
        (in_core.features, in_core.winner, in_core.game, in_core.turn),
        (on_reference.features, on_reference.winner, on_reference.game, on_reference.turn),
        strict=True,
    ):
        assert np.array_equal(a, b)
    assert len(in_core.winner) > 100


# ---------------------------------------------------------------------- the agent


def test_cut_off_play_outs_stop_at_the_horizon_and_are_scored_by_the_model():
    game = _played(6, 20)
    greedy = make_agent("greedy")
    greedy.reset(game.acting, 6)
    while len(game.legal_actions()) < 2:
        game.step(greedy.act(game, game.legal_actions()))
    agent = parse_agent_spec("mcts:search=all,horizon=3,playouts=4")
    agent.reset(game.acting, 6)
    scored = []
    outcome = agent.outcome

    def watched(g):
        scored.append((g.done, g.turns if isinstance(g, Game) else g.get_state()["turns"]))
        return outcome(g)

    agent.outcome = watched
    agent.act(game, game.legal_actions())
    assert scored
    for done, turns in scored:
        assert done or turns == game.turns + 3


def test_value_search_plays_legal_reproducible_games_in_debug_mode():
    specs = ["mcts-value:playouts=2,setup_playouts=2,horizon=2", "greedy", "random"]
    options = GameOptions(debug=True)
    records = [
        play_game(fair_board(8), [parse_agent_spec(s) for s in specs], 8, options) for _ in range(2)
    ]
    assert records[0] == records[1]
    assert records[0].winner is not None or records[0].truncated


def test_value_search_never_weighs_two_cards_for_one(monkeypatch):
    """The main-phase choices it searches leave out the offers of two cards for one, which the
    game allowed at some of those decisions."""
    from ludolab.envs.catan import actions as A
    from ludolab.envs.catan.agents import MCTSAgent
    from ludolab.envs.catan.engine import MAIN

    two_for_one = set(range(A.OFFER + len(A.TRADE_PAIRS), A.ACCEPT_TRADE))
    allowed = searched = 0
    act = MCTSAgent.act

    def watched(self, game, legal):
        nonlocal allowed, searched
        if game.phase == MAIN:
            allowed += bool(two_for_one & set(game.legal_actions()))
            searched += bool(two_for_one & set(legal))
        return act(self, game, legal)

    monkeypatch.setattr(MCTSAgent, "act", watched)
    agent = parse_agent_spec("mcts-value:playouts=4,setup_playouts=4")
    play_game(fair_board(9), [agent, make_agent("greedy"), make_agent("greedy")], 9)
    assert allowed > 0 and searched == 0


@pytest.mark.parametrize(
    "spec",
    [
        "mcts-value:horizon=-1",
        "mcts-value:setup_playouts=-5",
        "mcts-value:playouts=0",
        "mcts:horizon=4,policy=random",
        "mcts-value:horizon=2.5",
        "mcts-value:flat=2",
        "mcts:flat=true,root=ucb",
        "mcts:setup_horizon=4,policy=random",
        "mcts-value:setup_horizon=-1",
        "mcts-value:setup_flat=2",
        "mcts:setup_flat=true,root=ucb",
    ],
)
def test_bad_value_search_parameters_are_refused(spec):
    with pytest.raises(AgentSpecError):
        parse_agent_spec(spec)


@pytest.mark.parametrize(
    "spec",
    [
        "mcts-value",
        "mcts-value:horizon=4",
        "mcts:search=all,horizon=8",
        "mcts-value:flat=false",
        "mcts:search=all,flat=true",
        "mcts:setup_horizon=20,setup_flat=true",
    ],
)
def test_value_search_specs_round_trip(spec):
    agent = parse_agent_spec(spec)
    assert parse_agent_spec(agent.spec).spec == agent.spec == spec


@pytest.mark.parametrize("flat", [True, False])
def test_flat_judges_turn_decisions_by_play_outs_alone(flat, monkeypatch):
    """With ``flat``, no tree grows below the root's actions at a decision after the
    placements (each is judged by the policy playing on); without it, one does. (The
    placements have their own switch, ``setup_flat``: the test below.)"""
    from ludolab.envs.search import SearchAgent

    game = _played(6, 20)
    greedy = make_agent("greedy")
    greedy.reset(game.acting, 6)
    while len(game.legal_actions()) < 2:
        game.step(greedy.act(game, game.legal_actions()))
    agent = parse_agent_spec(f"mcts-value:playouts=24,flat={str(flat).lower()}")
    agent.reset(game.acting, 6)
    iterations = []
    iterate = SearchAgent._iterate

    def watched(self, root, g, players):
        iterations.append(root)
        return iterate(self, root, g, players)

    monkeypatch.setattr(SearchAgent, "_iterate", watched)
    action = agent.act(game, game.legal_actions())
    assert action in game.legal_actions()
    assert (not iterations) == flat


@pytest.mark.parametrize("setup_flat", [True, False])
def test_placements_are_judged_flat_and_cut_off_when_asked(setup_flat, monkeypatch):
    """``setup_flat`` judges a placement's spots by play-outs alone (no tree below them);
    ``setup_horizon`` stops those play-outs after that many turns of the game and scores them
    with the model. (Debug mode: the search runs on the reference, where both can be watched.)"""
    from ludolab.envs.search import SearchAgent

    game = Game(fair_board(6), 4, 6, GameOptions(debug=True))
    flag = str(setup_flat).lower()
    agent = parse_agent_spec(f"mcts:setup_playouts=24,setup_horizon=3,setup_flat={flag}")
    agent.reset(0, 6)
    iterations, scored = [], []
    iterate, outcome = SearchAgent._iterate, agent.outcome

    def watched(self, root, g, players):
        iterations.append(root)
        return iterate(self, root, g, players)

    def scores(g):
        scored.append((g.done, g.turns))
        return outcome(g)

    monkeypatch.setattr(SearchAgent, "_iterate", watched)
    agent.outcome = scores
    assert agent.act(game, game.legal_actions()) in game.legal_actions()
    assert (not iterations) == setup_flat
    assert scored and all(done or turns == 3 for done, turns in scored)
