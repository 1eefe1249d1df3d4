"""Scripted Catan agents: legal play, sensible game lengths, strength, reproducibility, specs.

Games are deterministic given (board, agents, seed), so the strength checks use fixed seeds and
are not flaky; their bounds sit well inside what was measured (noted beside each).
"""

from __future__ import annotations

import statistics
import time

import pytest

from envs.catan import actions as A
from envs.catan.agents import (
    AgentSpecError,
    GreedyAgent,
    LookaheadAgent,
    make_agent,
    parse_agent_spec,
)
from envs.catan.agents.base import Agent
from envs.catan.agents.lookahead import copy_game
from envs.catan.engine import GAME_OVER, MAIN, Game, GameOptions, IllegalActionError
from envs.catan.play import play_game
from research.catan.samplers import fair_board

DEBUG = GameOptions(debug=True)


def _rotate(specs: list[str], k: int) -> list[str]:
    """Seat ``specs[0]`` at seat ``k`` (the others follow in order)."""
    k %= len(specs)
    return specs[-k:] + specs[:-k] if k else list(specs)


def _wins(specs: list[str], seeds: range) -> tuple[int, list[int]]:
    """Games won by ``specs[0]`` (rotated through the seats) and every game's rounds."""
    wins, rounds = 0, []
    for s in seeds:
        k = s % len(specs)
        record = play_game(fair_board(s), [parse_agent_spec(x) for x in _rotate(specs, k)], s)
        wins += record.winner == k
        rounds.append(record.rounds)
    return wins, rounds


class _Checked(Agent):
    """Wraps an agent: asserts every action is legal and that the agent leaves the game alone."""

    def __init__(self, inner: Agent, snapshot: bool) -> None:
        super().__init__()
        self.inner = inner
        self.snapshot = snapshot
        self.name = inner.name
        self.decisions = 0

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        self.inner.reset(seat, seed)

    def act(self, game: Game, legal: list[int]) -> int:
        before = _state(game) if self.snapshot else None
        legal_copy = list(legal)
        a = self.inner.act(game, legal)
        assert a in legal_copy, f"{self.inner.spec} chose illegal {A.describe(a)}"
        assert list(legal) == legal_copy, "the agent mutated the legal-action list"
        if before is not None:
            assert _state(game) == before, f"{self.inner.spec} changed the game while deciding"
        self.decisions += 1
        return a

    @property
    def spec(self) -> str:
        return self.inner.spec


def _state(game: Game) -> dict:
    """Everything in a game's state, comparable with ==, random streams as their states."""
    out = {}
    for key, value in game.__dict__.items():
        if key == "_legal":
            continue  # a cache of legal_actions(), filled by reading
        if hasattr(value, "getstate"):
            value = value.getstate()
        elif isinstance(value, list):
            value = [
                sorted(v) if isinstance(v, set) else list(v) if isinstance(v, list) else v
                for v in value
            ]
        elif isinstance(value, set | dict):
            value = sorted(value.items()) if isinstance(value, dict) else sorted(value)
        out[key] = value
    return out


# ---------------------------------------------------------------------------- specs


def test_registry_and_specs() -> None:
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert isinstance(make_agent("lookahead"), LookaheadAgent)
    agent = parse_agent_spec("greedy:trade=false,robber=production,dev-cards=false")
    assert isinstance(agent, GreedyAgent)
    assert (agent.trade, agent.offers, agent.dev_cards, agent.robber) == (
        False,
        True,
        False,
        "production",
    )
    # spec recreates the agent, defaults omitted.
    assert make_agent("greedy").spec == "greedy"
    again = parse_agent_spec(agent.spec)
    assert (again.trade, again.dev_cards, again.robber) == (False, False, "production")
    look = parse_agent_spec("lookahead:w_vp=12,offers=false,margin=0.5")
    assert isinstance(look, LookaheadAgent)
    assert (look.w_vp, look.offers, look.margin, look.w_prod) == (12.0, False, 0.5, 0.6)
    assert parse_agent_spec(look.spec).spec == look.spec
    assert make_agent("lookahead").spec == "lookahead"


@pytest.mark.parametrize(
    "text",
    ["greedy:bogus=1", "greedy:robber=everyone", "lookahead:w_nothing=2", "lookahead:trade"],
)
def test_bad_specs_raise(text: str) -> None:
    with pytest.raises(AgentSpecError):
        parse_agent_spec(text)


# ---------------------------------------------------------------------------- legality


@pytest.mark.parametrize(
    ("specs", "seed"),
    [
        (["greedy"] * 4, 1),
        (["greedy"] * 4, 2),
        (["greedy", "random", "greedy:trade=false,offers=false", "random"], 3),
        (["greedy:dev_cards=false", "greedy:robber=production", "random", "greedy"], 4),
        (["greedy", "greedy"], 5),
        (["greedy", "random", "greedy:offers=false"], 6),
        (["lookahead", "greedy", "random", "lookahead:trade=false"], 7),
        (["lookahead", "lookahead", "lookahead"], 8),
    ],
)
def test_agents_play_only_legal_actions(specs: list[str], seed: int) -> None:
    """Full games with every engine invariant checked after every action (GameOptions.debug)."""
    agents = [_Checked(parse_agent_spec(s), snapshot=False) for s in specs]
    record = play_game(fair_board(seed), agents, seed, DEBUG)
    assert not record.truncated and record.winner is not None
    assert all(a.decisions > 0 for a in agents)


def test_agents_do_not_touch_the_game() -> None:
    """Deciding reads the game only: its whole state (random streams too) is unchanged."""
    agents = [
        _Checked(parse_agent_spec(s), snapshot=True)
        for s in ("lookahead", "greedy", "lookahead", "greedy")
    ]
    record = play_game(fair_board(11), agents, 11)
    assert record.winner is not None


def test_illegal_action_is_rejected_not_chosen() -> None:
    """The wrapper above can fail: an action outside ``legal`` trips it."""

    class Bad(Agent):
        name = "bad"

        def act(self, game: Game, legal: list[int]) -> int:
            return A.N_ACTIONS - 1  # cancel-trade: never legal at the start

    with pytest.raises(AssertionError, match="illegal"):
        play_game(fair_board(0), [_Checked(Bad(), snapshot=False) for _ in range(4)], 0)


# ---------------------------------------------------------------------------- copy_game


def test_copy_game_is_independent() -> None:
    """Every legal action applied to copies, at many points of a game, leaves the original
    exactly as it was (random streams included); the copy then plays on like the original."""
    game = Game(fair_board(21), 4, 21)
    agents = [make_agent("greedy") for _ in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 21)
    checked_phases = set()
    while game.phase != GAME_OVER and game.n_actions < 600:
        before = _state(game)
        for a in game.legal_actions():
            trial = copy_game(game)
            trial.step(a)
            # The lookahead's fast copy shares the random streams: fine for main-phase builds
            # and bank trades, which draw nothing (ending a turn would: the engine rolls).
            if game.phase == MAIN and (A.MARITIME <= a < A.OFFER or A.SETTLEMENT <= a < A.ROBBER):
                fast = copy_game(game, rngs=False)
                fast.step(a)
                assert _state(fast) == _state(trial)
        assert _state(game) == before
        checked_phases.add(game.phase)
        game.step(agents[game.acting].act(game, game.legal_actions()))
    assert MAIN in checked_phases
    # A copy continues exactly like the original (same dice, same steals).
    game = Game(fair_board(22), 4, 22)
    for seat, agent in enumerate(agents):
        agent.reset(seat, 22)
    for _ in range(120):
        game.step(agents[game.acting].act(game, game.legal_actions()))
    twin = copy_game(game)
    for _ in range(200):
        if game.phase == GAME_OVER:
            break
        a = agents[game.acting].act(game, game.legal_actions())
        game.step(a)
        twin.step(a)
    assert _state(twin) == _state(game)
    with pytest.raises(IllegalActionError):
        copy_game(game).step(A.N_ACTIONS - 1)


# ---------------------------------------------------------------------------- play quality


def test_greedy_games_are_human_length() -> None:
    """Measured: median 20 rounds, max 31 over 200 games (none cut off)."""
    rounds = []
    for s in range(20):
        record = play_game(fair_board(s), [make_agent("greedy") for _ in range(4)], s)
        assert not record.truncated and record.winner is not None
        assert max(record.final_vp) >= 10
        rounds.append(record.rounds)
    assert 14 <= statistics.median(rounds) <= 30, rounds
    assert max(rounds) <= 45, rounds


def test_greedy_beats_random() -> None:
    """One greedy against three random seats, rotated: measured 100 of 100 won."""
    wins, rounds = _wins(["greedy", "random", "random", "random"], range(40))
    assert wins >= 36
    assert statistics.median(rounds) <= 25


def test_greedy_parameters_change_play() -> None:
    """Trading is worth something: a non-trading greedy wins far less than its 25% share
    against three full greedy seats (measured 4 of 100)."""
    wins, _ = _wins(["greedy:trade=false", "greedy", "greedy", "greedy"], range(40))
    assert wins <= 6


def test_lookahead_strength() -> None:
    """Lookahead beats random (measured 40/40 in 4-player games) and holds its own against
    greedy one-on-one (measured 51/100 two-player games, seats alternating)."""
    wins, _ = _wins(["lookahead", "random", "random", "random"], range(12))
    assert wins >= 11
    wins, _ = _wins(["lookahead", "greedy"], range(24))
    assert wins >= 7


def test_reproducible() -> None:
    """Same board, agents and seed: the same game, move for move."""
    for specs in (["greedy"] * 4, ["lookahead", "greedy", "random", "greedy"]):
        a = play_game(fair_board(9), [parse_agent_spec(s) for s in specs], 9)
        b = play_game(fair_board(9), [parse_agent_spec(s) for s in specs], 9)
        assert a == b
    c = play_game(fair_board(9), [make_agent("greedy") for _ in range(4)], 10)
    assert c != a


@pytest.mark.slow
def test_greedy_speed() -> None:
    """The issue's target is ~110 greedy 4-player games per CPU-second (measured 118-133 on the
    benchmark machine); this loose floor only catches gross slowdowns."""
    boards = [fair_board(s) for s in range(100)]
    start = time.process_time()
    for s, board in enumerate(boards):
        play_game(board, [make_agent("greedy") for _ in range(4)], s)
    rate = len(boards) / (time.process_time() - start)
    assert rate >= 60, f"{rate:.0f} games per CPU-second"
