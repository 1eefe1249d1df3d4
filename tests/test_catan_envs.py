"""The Gymnasium and PettingZoo faces of the Catan engine, and the observation encoder."""

from __future__ import annotations

import copy
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from ludolab.envs.catan import actions as A
from ludolab.envs.catan import aec_env
from ludolab.envs.catan.agents import make_agent
from ludolab.envs.catan.board import DESERT, HARBOR_TYPES, TERRAINS
from ludolab.envs.catan.engine import (
    GAME_OVER,
    KNIGHT,
    MONOPOLY,
    VICTORY_POINT,
    Game,
    GameOptions,
    IllegalActionError,
)
from ludolab.envs.catan.gym_env import ENV_ID, CatanEnv, random_board, register
from ludolab.envs.catan.observation import (
    block_slices,
    describe_index,
    encode,
    layout,
    observation_size,
    observation_space,
)
from ludolab.envs.catan.play import play_game
from ludolab.envs.catan.topology import load_layout

BOARD = random_board(np.random.default_rng(7))


def _play_random(env: CatanEnv, seed: int, action_seed: int = 0) -> dict:
    """One full episode with uniformly random legal actions, checking every step on the way.

    Returns the observations, actions and the last step's outputs.
    """
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    observations, actions = [obs], []
    space = env.observation_space
    while True:
        game = env.game
        # The mask is exactly the engine's legal list, and it is the learner who must act.
        assert game.acting == env.seat and game.phase != GAME_OVER
        assert np.flatnonzero(info["action_mask"]).tolist() == game.legal_actions()
        assert info["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert space.contains(obs), f"observation out of bounds at step {len(actions)}"
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        if terminated or truncated:
            assert space.contains(obs)
            return {
                "observations": observations,
                "actions": actions,
                "reward": reward,
                "terminated": terminated,
                "truncated": truncated,
                "info": info,
            }
        assert reward == 0.0


def _midgame(seed: int = 3, n_actions: int = 900) -> Game:
    """A game advanced by random agents (past setup, cards in hands)."""
    game = Game(BOARD, 4, seed)
    agents = [make_agent("random") for _ in range(4)]
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    while game.n_actions < n_actions and game.phase != GAME_OVER:
        game.step(agents[game.acting].act(game, game.legal_actions()))
    assert game.phase != GAME_OVER
    return game


# ---------------------------------------------------------------------------------- observation


def test_layout_blocks_add_up_and_are_named_uniquely() -> None:
    for n in (2, 3, 4):
        blocks = layout(n)
        assert len({name for name, _ in blocks}) == len(blocks)
        assert sum(length for _, length in blocks) == observation_size(n) == 721 + 194 * n
        slices = block_slices(n)
        assert slices["offers_left"].stop == observation_size(n)
        assert describe_index(slices["path_road"].start + 5, n) == "path_road[5]"
        space = observation_space(n)
        assert space.shape == (observation_size(n),) and space.dtype == np.float32
    with pytest.raises(ValueError):
        layout(5)


def test_static_blocks_encode_the_board() -> None:
    game = Game(BOARD, 4, 0)
    obs = encode(game, 0)
    sl = block_slices(4)
    terrain = obs[sl["hex_terrain"]].reshape(19, 6)
    assert terrain.argmax(axis=1).tolist() == list(BOARD.terrain)
    assert terrain.sum() == 19
    numbers = obs[sl["hex_number"]].reshape(19, 10)
    assert numbers.sum(axis=1).tolist() == [float(t != DESERT) for t in BOARD.terrain]
    assert obs[sl["hex_robber"]].argmax() == BOARD.robber
    harbor = obs[sl["node_harbor"]].reshape(54, 6)
    assert harbor.sum() == 18  # 9 harbors x 2 intersections
    for v in range(54):
        code = game.harbor_at[v]
        assert harbor[v].tolist() == [float(code == k) for k in range(6)]
    assert obs[sl["phase"]].argmax() == 0 and obs[sl["current"]].tolist() == [1, 0, 0, 0]


def test_seats_are_relative_to_the_observer() -> None:
    game = _midgame()
    sl = block_slices(4)
    for seat in range(4):
        obs = encode(game, seat)
        buildings = obs[sl["node_building"]].reshape(54, 2, 4)
        roads = obs[sl["path_road"]].reshape(72, 4)
        for v in range(54):
            q = game.owner[v]
            if q < 0:
                assert buildings[v].sum() == 0
            else:
                assert buildings[v, game.building[v] - 1, (q - seat) % 4] == 1
                assert buildings[v].sum() == 1
        for e in range(72):
            q = game.road_owner[e]
            assert roads[e].sum() == (q >= 0)
            if q >= 0:
                assert roads[e, (q - seat) % 4] == 1
        sizes = obs[sl["seat_hand_size"]] * 95
        np.testing.assert_allclose(sizes, [game.hand_size[(seat + k) % 4] for k in range(4)])
        np.testing.assert_allclose(obs[sl["my_hand"]] * 19, game.hands[seat], atol=1e-5)
        assert obs[sl["current"]].argmax() == (game.current - seat) % 4


def test_observation_hides_opponents_cards_and_the_deck() -> None:
    game = _midgame()
    me = 0
    base = encode(game, me)

    # Same hand sizes, different composition: every single-card change of every opponent.
    changed = 0
    for q in range(1, 4):
        for r in range(5):
            if not game.hands[q][r]:
                continue
            for r2 in set(range(5)) - {r}:
                other = copy.deepcopy(game)
                other.hands[q][r] -= 1
                other.hands[q][r2] += 1
                np.testing.assert_array_equal(encode(other, me), base)
                # ... which the opponent itself does see (the test can fail).
                assert not np.array_equal(encode(other, q), encode(game, q))
                changed += 1
    assert changed >= 8

    # Same number of development cards, different identities (a hidden VP card included),
    # and the deck in another order.
    opponent = 2
    a, b = copy.deepcopy(game), copy.deepcopy(game)
    a.dev_hand[opponent][KNIGHT] += 1
    b.dev_hand[opponent][VICTORY_POINT] += 1
    a.dev_deck.pop()
    b.dev_deck.pop()
    np.random.default_rng(0).shuffle(b.dev_deck)
    assert a.victory_points(opponent) != b.victory_points(opponent)
    np.testing.assert_array_equal(encode(a, me), encode(b, me))
    assert not np.array_equal(encode(a, opponent), encode(b, opponent))
    b.dev_hand[opponent][MONOPOLY] += 1  # one card more is public: the count must show
    assert not np.array_equal(encode(a, me), encode(b, me))

    # My own hand does show.
    mine = copy.deepcopy(game)
    mine.hands[me][0] += 1
    mine.hand_size[me] += 1
    assert not np.array_equal(encode(mine, me), base)


def test_encode_out_buffer() -> None:
    game = _midgame(n_actions=300)
    out = np.full(observation_size(4), 7.0, np.float32)
    assert encode(game, 2, out) is out
    np.testing.assert_array_equal(out, encode(game, 2))
    with pytest.raises(ValueError):
        encode(game, 2, np.zeros(10, np.float32))


# ---------------------------------------------------------------------------------- gymnasium


def test_gymnasium_make_after_register() -> None:
    register()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a second register() must not override (and warn)
        register()
    env = gymnasium.make(ENV_ID, opponents=["random", "random"], seat=1)
    obs, info = env.reset(seed=1)
    assert obs.shape == (observation_size(3),)
    assert env.unwrapped.n_players == 3
    env = gymnasium.make(f"ludolab.envs.catan.gym_env:{ENV_ID}")
    assert isinstance(env.unwrapped, CatanEnv)


def test_check_env_passes() -> None:
    # check_env steps with unmasked action_space.sample(): almost always illegal in Catan, so it
    # runs with illegal_action="terminate"; with the default it must raise our error instead.
    register()
    env = gymnasium.make(ENV_ID, illegal_action="terminate", render_mode="ansi")
    check_env(env.unwrapped)
    strict = CatanEnv()
    strict.action_space.seed(0)
    with pytest.raises(IllegalActionError, match="legal:"):
        check_env(strict)


def test_full_game_random_masked_actions() -> None:
    env = CatanEnv(board=BOARD, game_options={"debug": True})
    out = _play_random(env, seed=11)
    game = env.game
    assert out["reward"] in (-1.0, 0.0, 1.0)
    assert out["terminated"] == (game.winner is not None)
    assert out["truncated"] == game.truncated
    assert out["reward"] == (0.0 if game.winner is None else (1.0 if game.winner == 0 else -1.0))
    assert out["info"]["winner"] == (-1 if game.winner is None else game.winner)
    assert not out["info"]["action_mask"].any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


@pytest.mark.parametrize(("seat", "n_opponents"), [(1, 1), (2, 2), (3, 3)])
def test_other_seats_and_player_counts(seat: int, n_opponents: int) -> None:
    env = CatanEnv(opponents=["random"] * n_opponents, seat=seat)
    out = _play_random(env, seed=seat)
    assert out["reward"] in (-1.0, 0.0, 1.0)
    assert env.observation_space.shape == (observation_size(n_opponents + 1),)


def test_truncation_gives_zero_reward() -> None:
    env = CatanEnv(board=BOARD, game_options=GameOptions(turn_limit=8))
    out = _play_random(env, seed=0)
    assert out["truncated"] and not out["terminated"] and out["reward"] == 0.0


def test_gym_env_reproduces_play_game() -> None:
    # Playing the actions a random agent would play at the learner's seat gives exactly the
    # game play_game plays with the same seed: the env advances opponents like the fast path.
    for seat in (0, 2):
        env = CatanEnv(board=BOARD, seat=seat)
        obs, info = env.reset(seed=5)
        me = make_agent("random")
        me.reset(seat, env.game_seed)
        terminated = truncated = False
        while not (terminated or truncated):
            action = me.act(env.game, env.game.legal_actions())
            obs, reward, terminated, truncated, info = env.step(action)
        agents = [make_agent("random") for _ in range(4)]
        record = play_game(BOARD, agents, seed=env.game_seed)
        assert record.n_actions == env.game.n_actions
        assert record.winner == env.game.winner
        assert record.dice == tuple(env.game.dice)


def test_reset_seed_reproduces_the_trajectory() -> None:
    a = _play_random(CatanEnv(), seed=42, action_seed=1)
    b = _play_random(CatanEnv(), seed=42, action_seed=1)
    assert a["actions"] == b["actions"]
    assert len(a["observations"]) == len(b["observations"])
    for x, y in zip(a["observations"], b["observations"], strict=True):
        np.testing.assert_array_equal(x, y)
    c = _play_random(CatanEnv(), seed=43, action_seed=1)
    assert not np.array_equal(a["observations"][0], c["observations"][0])  # another board


def test_unseeded_resets_continue_the_seeded_stream() -> None:
    def game_seeds() -> list[int]:
        env = CatanEnv()
        seeds = []
        for k in range(4):
            env.reset(seed=3 if k == 0 else None)
            seeds.append(env.game_seed)
        return seeds

    first = game_seeds()
    assert first == game_seeds() and len(set(first)) == 4


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = CatanEnv(board=BOARD)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.n_actions
    with pytest.raises(IllegalActionError, match="legal:"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="not an integer"):
        env.step(5.5)
    assert env.game.n_actions == before
    np.testing.assert_array_equal(encode(env.game, 0), obs)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int32(legal))  # numpy integers are accepted
    assert env.game.n_actions > before


def test_illegal_action_terminate_mode() -> None:
    env = CatanEnv(board=BOARD, illegal_action="terminate")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(A.END_TURN)  # illegal in setup
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(A.END_TURN)


def test_board_sources_and_reset_options() -> None:
    boards = [random_board(np.random.default_rng(s)) for s in range(3)]
    env = CatanEnv(board=boards)
    seen = set()
    for s in range(30):
        env.reset(seed=s)
        seen.add(env.game.board)
    assert seen == set(boards)
    env = CatanEnv(board=lambda rng: boards[1])
    env.reset(seed=0)
    assert env.game.board == boards[1]
    env.reset(options={"board": boards[2], "game_seed": 99})
    assert env.game.board == boards[2] and env.game_seed == 99
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"bored": boards[0]})
    with pytest.raises(TypeError):
        CatanEnv(board=[1, 2])


def test_random_board_is_a_valid_fair_shuffle() -> None:
    lay = load_layout("standard")
    rng = np.random.default_rng(0)
    boards = [random_board(rng) for _ in range(200)]
    for board in boards:
        board.validate()
        assert board.terrain[board.robber] == DESERT
    assert len({b.id for b in boards}) == 200
    # The desert lands on every hex now and then (no position is favoured or excluded).
    assert len({b.robber for b in boards}) == lay.n_hexes
    assert sorted(set(boards[0].terrain)) == list(range(len(TERRAINS)))
    assert sorted(set(boards[0].harbors)) == list(range(len(HARBOR_TYPES)))


def test_opponent_arguments_are_checked() -> None:
    agent = make_agent("random")
    with pytest.raises(ValueError, match="distinct"):
        CatanEnv(opponents=[agent, agent])
    with pytest.raises(ValueError, match="seat"):
        CatanEnv(seat=4)
    with pytest.raises(ValueError, match="opponents"):
        CatanEnv(opponents=[])
    with pytest.raises(ValueError):
        CatanEnv(opponents=["nonexistent-agent"])
    env = CatanEnv(opponents=[make_agent("random"), "random"], seat=2)
    assert env.agents[2] is None and env.n_players == 3


def test_render_ansi() -> None:
    env = CatanEnv(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "setup-settlement" in text and "seat 0" in text
    assert CatanEnv().render() is None


# ---------------------------------------------------------------------------------- pettingzoo


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        # Dict observations ({"observation", "action_mask"}) are the classic-env convention;
        # api_test warns about them for envs outside its own list.
        warnings.simplefilter("ignore")
        api_test(aec_env.env(), num_cycles=1000)
        api_test(aec_env.raw_env(n_players=2), num_cycles=200)
        api_test(aec_env.raw_env(n_players=3, game_options={"turn_limit": 6}), num_cycles=200)


@pytest.mark.parametrize("n_players", [2, 4])
def test_aec_full_game(n_players: int) -> None:
    env = aec_env.raw_env(board=BOARD, n_players=n_players)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    space = env.observation_space("player_0")
    finished: dict[str, float] = {}
    non_turn_decisions = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finished[agent] = reward
            env.step(None)
            continue
        game = env.game
        assert agent == f"player_{game.acting}"
        non_turn_decisions += game.acting != game.current
        assert np.flatnonzero(obs["action_mask"]).tolist() == game.legal_actions()
        assert space.contains(obs)
        for other in env.agents:  # the others see the state but no legal action
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.game
    assert set(finished) == set(env.possible_agents)
    assert non_turn_decisions > 0  # discards / trade answers were asked of other seats
    if game.winner is None:
        assert set(finished.values()) == {0}
    else:
        assert finished.pop(f"player_{game.winner}") == 1
        assert set(finished.values()) == {-1}


def test_aec_reset_seed_reproduces() -> None:
    def trajectory(seed: int) -> list[np.ndarray]:
        env = aec_env.raw_env()
        env.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(400):
            obs = env.observe(env.agent_selection)
            out.append(obs["observation"])
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    a, b, c = trajectory(8), trajectory(8), trajectory(9)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])
    seed_test(aec_env.env, num_cycles=300)  # PettingZoo's own determinism check


def test_aec_illegal_action_raises() -> None:
    env = aec_env.env()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(A.END_TURN)
    assert isinstance(aec_env.raw_env(render_mode="ansi"), aec_env.CatanAECEnv)


def test_a_random_seat_changes_per_episode_and_replays_play_game() -> None:
    """seat="random": a seat drawn per episode from the env's generator (after the game seed
    and the board, so those are as with a fixed seat), reported in info, the opponents on the
    other seats in their order; the game is the one play_game plays with them there."""
    env = CatanEnv(board=BOARD, opponents=["random", "greedy", "random"], seat="random")
    fixed = CatanEnv(board=BOARD, opponents=["random", "greedy", "random"], seat=0)
    seats = []
    for k in range(24):
        _, info = env.reset(seed=100 + k)
        fixed.reset(seed=100 + k)
        assert info["seat"] == env.seat and env.game_seed == fixed.game_seed
        assert [a is None for a in env.agents].count(True) == 1 and env.agents[env.seat] is None
        others = [a for a in env.agents if a is not None]
        assert others == env.opponents  # the opponents keep their order around the learner
        seats.append(env.seat)
    assert set(seats) == {0, 1, 2, 3}
    again = CatanEnv(board=BOARD, opponents=["random", "greedy", "random"], seat="random")
    assert [again.reset(seed=100 + k)[1]["seat"] for k in range(24)] == seats
    with pytest.raises(ValueError, match="'random'"):
        CatanEnv(seat="anywhere")


def test_a_random_seat_game_is_play_games_game() -> None:
    env = CatanEnv(board=BOARD, opponents=["greedy", "random", "random"], seat="random")
    for seed in (1, 2, 3):
        _, info = env.reset(seed=seed)
        seat = info["seat"]
        me = make_agent("random")
        me.reset(seat, env.game_seed)
        terminated = truncated = False
        while not (terminated or truncated):
            _, _, terminated, truncated, info = env.step(me.act(env.game, env.game.legal_actions()))
        assert info["seat"] == seat
        others = iter(["greedy", "random", "random"])
        agents = [make_agent("random" if q == seat else next(others)) for q in range(4)]
        record = play_game(BOARD, agents, seed=env.game_seed)
        assert (record.n_actions, record.winner) == (env.game.n_actions, env.game.winner)


def test_gymnasium_makes_both_envs_in_a_fresh_interpreter() -> None:
    """Gymnasium 1.x loads no plugins by itself; an id prefixed with its module ("module:id")
    makes Gymnasium import the module, which registers the id, with nothing imported first."""
    code = (
        "import gymnasium\n"
        "for env_id in ('ludolab.envs.catan:ludolab/Catan-v0',\n"
        "               'ludolab.envs.gallery:ludolab/MastersGallery-v0'):\n"
        "    env = gymnasium.make(env_id, seat='random')\n"
        "    obs, info = env.reset(seed=0)\n"
        "    print(type(env.unwrapped).__name__, info['seat'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert names == ["CatanEnv", "MastersGalleryEnv"]
