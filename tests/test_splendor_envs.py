"""Splendor's Gymnasium and PettingZoo faces and its observation: the APIs' own checks, a
learner replaying play_game's game, what the observation hides, rewards and truncation."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from ludolab.envs.rules import IllegalActionError
from ludolab.envs.splendor import aec_env, gym_env
from ludolab.envs.splendor.agents import REGISTRY
from ludolab.envs.splendor.engine import SplendorOptions, SplendorState, fair_deal
from ludolab.envs.splendor.observation import LAYOUT, encode
from ludolab.envs.splendor.play import play_game


def test_the_apis_own_checks_pass() -> None:
    check_env(gym_env.SplendorEnv(illegal_action="terminate"), skip_render_check=True)
    api_test(aec_env.env(n_players=3), num_cycles=300)
    gym_env.register()
    assert (
        gymnasium.make("ludolab/Splendor-v0", opponents=["greedy", "random"]).unwrapped.n_players
        == 3
    )


@pytest.mark.parametrize(("seat", "n"), [(0, 2), (1, 2), (2, 3), (3, 4)])
def test_a_learner_playing_an_agents_moves_replays_play_game(seat: int, n: int) -> None:
    env = gym_env.SplendorEnv(opponents=["greedy"] * (n - 1), seat=seat)
    obs, info = env.reset(seed=seat + 10 * n)
    me = REGISTRY.parse("greedy")
    me.reset(seat, env.game_seed)
    done = False
    while not done:
        assert env.observation_space.contains(obs) and info["action_mask"].sum() > 0
        obs, reward, terminated, truncated, info = env.step(
            me.act(env.game, env.game.legal_actions())
        )
        done = terminated or truncated
    record = play_game(env.game.deal, [REGISTRY.parse("greedy") for _ in range(n)], env.game_seed)
    assert record.final_scores == info["scores"] and record.winners == info["winners"]
    assert record.n_actions == env.game.n_actions
    assert reward == (1.0 / len(record.winners) if seat in record.winners else -1.0)


def test_the_aec_env_replays_play_game() -> None:
    env = aec_env.raw_env(n_players=4)
    env.reset(seed=3)
    agents = [REGISTRY.parse("random") for _ in range(4)]
    for q, agent in enumerate(agents):
        agent.reset(q, env.game_seed)
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        forced = env.game.forced_action()  # taken without asking, as play_game does
        agent = agents[int(name.split("_")[1])]
        env.step(forced if forced >= 0 else agent.act(env.game, env.game.legal_actions()))
    record = play_game(env.game.deal, [REGISTRY.parse("random") for _ in range(4)], env.game_seed)
    assert record.final_scores == tuple(s.points for s in env.game.seats)


def test_a_cut_off_game_is_truncated_with_no_reward() -> None:
    env = gym_env.SplendorEnv(game_options={"round_limit": 2})
    obs, info = env.reset(seed=1)
    while True:
        obs, reward, terminated, truncated, info = env.step(
            int(np.flatnonzero(info["action_mask"])[0])
        )
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = gym_env.SplendorEnv()
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = encode(env.game, 0)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert np.array_equal(before, encode(env.game, 0))


def test_the_observation_hides_what_the_seat_cannot_see() -> None:
    """Two games differing only in the card seat 1 reserved face down and the decks' order
    look the same to seat 0, and differ to seat 1."""
    a = SplendorState(fair_deal(2, 4))
    a.step(0)
    b = a.clone()
    b.decks[0][0], b.decks[0][5] = b.decks[0][5], b.decks[0][0]
    a.step(42)
    b.step(42)
    assert a.seats[1].reserved != b.seats[1].reserved
    assert np.array_equal(encode(a, 0), encode(b, 0))
    assert not np.array_equal(encode(a, 1), encode(b, 1))


def test_seats_are_relative_and_values_in_bounds() -> None:
    state = SplendorState(fair_deal(3, 5), options=SplendorOptions(reserve_limit=5))
    agents = [REGISTRY.parse("random") for _ in range(3)]
    for q, agent in enumerate(agents):
        agent.reset(q, 5)
    while not state.done:
        for seat in range(3):
            obs = encode(state, seat)
            assert obs.min() >= 0.0 and obs.max() <= 1.0 and obs.shape == (LAYOUT.size(3),)
        points = LAYOUT.block_slices(3)["seat_points"]
        assert encode(state, 1)[points][0] == encode(state, 0)[points][1]
        state.step(agents[state.acting].act(state, state.legal_actions()))
