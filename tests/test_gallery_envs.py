"""The Gymnasium and PettingZoo faces of the Masters Gallery engine, and the observation encoder."""

from __future__ import annotations

import copy
import types
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from ludolab.envs.gallery import actions as A
from ludolab.envs.gallery import aec_env
from ludolab.envs.gallery.agents import make_agent
from ludolab.envs.gallery.cards import (
    AWARD,
    DOUBLE,
    FACE_DOWN,
    N_CARDS,
    N_TYPES,
    PLAIN,
    SIMULTANEOUS,
    card_type,
    card_types,
)
from ludolab.envs.gallery.deal import Deal, shuffled_deal
from ludolab.envs.gallery.engine import (
    AWARD_CHOICE,
    GAME_OVER,
    SECOND,
    SIMULTANEOUS_PLAY,
    GalleryOptions,
    Game,
    IllegalActionError,
)
from ludolab.envs.gallery.gym_env import ENV_ID, MastersGalleryEnv, final_rewards, register
from ludolab.envs.gallery.observation import (
    SCORE_HALF,
    block_slices,
    describe_index,
    encode,
    layout,
    observation_size,
    observation_space,
)
from ludolab.envs.gallery.play import play_game

DEAL4 = shuffled_deal(4, 7)
LM, YO, CP, KG, KR = range(5)

# Options that change the rules' flow (the engine tests' variants): every phase gets visited.
OPTION_VARIANTS = [
    {},
    {"extra_card": False},
    {"rank_empty_artists": True},
    {"award_choice": True, "next_round_start": "closer"},
    {"second_card_effects": False, "closing_card_effects": False},
    {"symbols": ((1, 1, 1, 1, 1),) * 5},  # face-down and simultaneous on
    {"symbols": ((4, 2, 2, 1, 1),) * 5, "deals": (9, 9, 9)},  # the deck runs out
    {"end_count": 3, "hand_size": 19},
]
ALL_SYMBOLS = {"symbols": ((1, 1, 1, 1, 1),) * 5, "award_choice": True}


def T(artist: int, symbol: int = PLAIN) -> int:
    return card_type(artist, symbol)


def rigged_deal(hands: list[list[int]], symbols=None) -> Deal:
    """A deal giving seat s the card types ``hands[s]`` in round 1, then every other card."""
    kinds = card_types(symbols) if symbols else card_types()
    free: dict[int, list[int]] = {}
    for card in range(N_CARDS):
        free.setdefault(kinds[card], []).append(card)
    order = [free[t].pop(0) for h in hands for t in h]
    taken = set(order)
    order += [c for c in range(N_CARDS) if c not in taken]
    return Deal(len(hands), tuple(order))


def _play_random(env: MastersGalleryEnv, seed: int, action_seed: int = 0) -> dict:
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
        assert not truncated  # every game ends by the rules
        if terminated:
            assert space.contains(obs)
            return {
                "observations": observations,
                "actions": actions,
                "reward": reward,
                "info": info,
            }
        assert reward == 0.0


def _midgame(n_players: int = 4, seed: int = 3, n_actions: int = 25, **options) -> Game:
    """A game advanced by random agents (cards displayed, some rounds scored)."""
    game = Game(shuffled_deal(n_players, seed), seed, GalleryOptions(**options))
    agents = [make_agent("random") for _ in range(n_players)]
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    for _ in range(n_actions):
        game.step(agents[game.acting].act(game, game.legal_actions()))
    assert game.phase != GAME_OVER
    return game


def _advance_until(game: Game, seed: int, done) -> Game:
    agents = [make_agent("random") for _ in range(game.n_players)]
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    while not done(game):
        assert game.phase != GAME_OVER, "the wanted state never came"
        game.step(agents[game.acting].act(game, game.legal_actions()))
    return game


# ---------------------------------------------------------------------------------- observation


def test_layout_blocks_add_up_and_are_named_uniquely() -> None:
    for n in (2, 3, 4, 5):
        blocks = layout(n)
        assert len({name for name, _ in blocks}) == len(blocks)
        assert sum(length for _, length in blocks) == observation_size(n) == 112 + 12 * n
        slices = block_slices(n)
        assert slices["end_count"].stop == observation_size(n)
        assert describe_index(slices["discarded"].start + 5, n) == "discarded[5]"
        space = observation_space(n)
        assert space.shape == (observation_size(n),) and space.dtype == np.float32
        assert encode(Game(shuffled_deal(n, 0)), 0).shape == (observation_size(n),)
    for bad in (1, 6):
        with pytest.raises(ValueError):
            layout(bad)
    with pytest.raises(IndexError):
        describe_index(observation_size(2), 2)


def test_the_first_observation_shows_my_round1_hand_and_the_extra_card() -> None:
    game = Game(DEAL4)
    sl = block_slices(4)
    for seat in range(4):
        obs = encode(game, seat)
        mine = obs[sl["my_hand"]] * np.maximum(game.type_total, 1)
        np.testing.assert_allclose(mine, game.hands[seat], atol=1e-5)
        assert round(float(mine.sum())) == 13
        np.testing.assert_allclose(obs[sl["seat_hand_size"]] * 95, [13] * 4, atol=1e-5)
        assert obs[sl["extra"]].sum() == 1 and obs[sl["extra"]].tolist() == game.extra_count
        np.testing.assert_allclose(obs[sl["deck"]] * 95, [95 - 4 * 13 - 1], atol=1e-5)
        assert obs[sl["phase"]].tolist() == [1, 0, 0, 0, 0]
        assert obs[sl["current"]].argmax() == (0 - seat) % 4
        assert obs[sl["acting"]].argmax() == (0 - seat) % 4
        assert obs[sl["starter"]].argmax() == (0 - seat) % 4
        assert obs[sl["round"]][0] == 0 and obs[sl["seat_score"]].sum() == 0
        assert obs[sl["awards_left"]][0] == 1 and obs[sl["end_count"]][0] == pytest.approx(6 / 21)


def test_seats_are_relative_to_the_observer() -> None:
    # In round 3, a few turns in: scores, tokens, discards and displayed cards exist.
    game = _advance_until(Game(shuffled_deal(4, 3), 3), 3, lambda g: g.round == 2 and g.turns >= 3)
    assert game.round >= 1 and max(game.scores) > 0
    sl = block_slices(4)
    best = max(game.scores)
    for seat in range(4):
        obs = encode(game, seat)
        rot = [(seat + k) % 4 for k in range(4)]
        np.testing.assert_allclose(
            obs[sl["seat_hand_size"]] * 95, [game.hand_size[q] for q in rot], atol=1e-4
        )
        exhibit = obs[sl["seat_exhibit"]].reshape(4, 5) * game.end_count
        np.testing.assert_allclose(exhibit, [game.exhibit[q] for q in rot], atol=1e-4)
        scores = [game.scores[q] for q in rot]
        np.testing.assert_allclose(
            obs[sl["seat_score"]], [s / (s + SCORE_HALF) for s in scores], rtol=1e-6
        )
        np.testing.assert_allclose(obs[sl["seat_score_lead"]], [s / best for s in scores])
        assert obs[sl["current"]].argmax() == (game.current - seat) % 4
        assert obs[sl["acting"]].argmax() == (game.acting - seat) % 4
        assert obs[sl["starter"]].argmax() == (game.starter - seat) % 4
        np.testing.assert_allclose(
            obs[sl["my_hand"]] * np.maximum(game.type_total, 1), game.hands[seat], atol=1e-5
        )
        # Public, seat-independent blocks are the same for everyone.
        for block in ("tokens", "awards", "discarded", "table_count", "deck", "round"):
            np.testing.assert_array_equal(obs[sl[block]], encode(game, 0)[sl[block]])
    np.testing.assert_allclose(
        encode(game, 0)[sl["tokens"]] * 12, game.tokens, atol=1e-5
    )  # 3 (first rank) x 4 rounds
    assert sum(game.discarded) > 0
    np.testing.assert_allclose(
        encode(game, 0)[sl["discarded"]] * np.maximum(game.type_total, 1),
        game.discarded,
        atol=1e-5,
    )


def test_observation_hides_opponents_hands_and_the_deck() -> None:
    game = _midgame(n_actions=40)
    me = 0
    base = encode(game, me)
    live = [t for t in range(N_TYPES) if game.type_total[t]]

    # Same hand sizes, different composition: every single-card change of every opponent.
    changed = 0
    for q in range(1, 4):
        for t in live:
            if not game.hands[q][t]:
                continue
            for t2 in set(live) - {t}:
                other = copy.deepcopy(game)
                other.hands[q][t] -= 1
                other.hands[q][t2] += 1
                np.testing.assert_array_equal(encode(other, me), base)
                # ... which the opponent itself does see (the test can fail).
                assert not np.array_equal(encode(other, q), encode(game, q))
                changed += 1
    assert changed >= 30

    # The deck in another order (same size) changes nothing.
    shuffled = copy.deepcopy(game)
    np.random.default_rng(0).shuffle(shuffled.pile)
    assert shuffled.pile != game.pile
    for seat in range(4):
        np.testing.assert_array_equal(encode(shuffled, seat), encode(game, seat))

    # My own hand does show, and so does a card more in an opponent's hand (its size).
    mine = copy.deepcopy(game)
    mine.hands[me][live[0]] += 1
    mine.hand_size[me] += 1
    assert not np.array_equal(encode(mine, me), base)
    theirs = copy.deepcopy(game)
    theirs.hands[2][live[0]] += 1
    theirs.hand_size[2] += 1
    assert not np.array_equal(encode(theirs, me), base)


def test_face_down_cards_hide_their_artist_from_the_others() -> None:
    symbols = ((0, 0, 0, 1, 0),) * 5
    hands = [[T(LM, FACE_DOWN), T(KR), T(CP)], [T(YO), T(KG), T(KG)], [T(YO), T(LM), T(CP)]]
    games = []
    for second in (T(KR), T(CP)):
        g = Game(
            rigged_deal(hands, symbols),
            0,
            GalleryOptions(symbols=symbols, hand_size=3, deals=(0, 0, 0), extra_card=False),
        )
        g.step(A.PLAY + T(LM, FACE_DOWN))
        assert g.phase == SECOND
        obs = encode(g, 0)
        sl = block_slices(3)
        assert obs[sl["second_kind"]].tolist() == [0, 1]  # face-down, not a double
        g.step(A.SECOND + second)
        assert g.acting == 1 and sum(g.face_down[0]) == 1
        games.append(g)
    a, b = games
    for seat in (1, 2):  # the others see one face-down card, not which
        np.testing.assert_array_equal(encode(a, seat), encode(b, seat))
        assert encode(a, seat)[block_slices(3)["seat_face_down"]][(0 - seat) % 3] > 0
    assert not np.array_equal(encode(a, 0), encode(b, 0))  # I know my own face-down card
    assert encode(a, 0)[block_slices(3)["my_face_down"]][KR] > 0


def test_simultaneous_picks_stay_hidden_until_revealed() -> None:
    symbols = ((0, 0, 0, 0, 1),) * 5
    hands = [
        [T(YO, SIMULTANEOUS), T(KR), T(LM)],
        [T(YO), T(LM), T(LM)],
        [T(CP), T(LM), T(LM)],
    ]
    options = GalleryOptions(
        symbols=symbols, hand_size=3, deals=(0, 0, 0), extra_card=False, end_count=9
    )
    games = {}
    for pick in (A.PLAY + T(KR), A.PLAY + T(LM), A.DECLINE):
        g = Game(rigged_deal(hands, symbols), 0, options)
        g.step(A.PLAY + T(YO, SIMULTANEOUS))
        assert g.phase == SIMULTANEOUS_PLAY and g.acting == 0
        g.step(pick)
        assert g.acting == 1
        games[pick] = g
    sl = block_slices(3)
    kr, lm, none = games[A.PLAY + T(KR)], games[A.PLAY + T(LM)], games[A.DECLINE]
    for seat in (1, 2):
        # Neither which card seat 0 picked nor whether it picked one at all.
        np.testing.assert_array_equal(encode(kr, seat), encode(none, seat))
        np.testing.assert_array_equal(encode(lm, seat), encode(none, seat))
        assert encode(kr, seat)[sl["seat_hand_size"]][(0 - seat) % 3] == pytest.approx(2 / 95)
    # Seat 0 knows its own pick.
    assert encode(kr, 0)[sl["my_pending_pick"]].tolist() == [0, 0, 0, 0, 1]
    assert encode(none, 0)[sl["my_pending_pick"]].sum() == 0
    assert encode(kr, 0)[sl["phase"]].tolist() == [0, 0, 0, 1, 0]
    # Once all have chosen the picks are revealed: then they show.
    for g in (kr, none):
        g.step(A.DECLINE)
        g.step(A.DECLINE)
        assert g.phase != SIMULTANEOUS_PLAY
    assert not np.array_equal(encode(kr, 1), encode(none, 1))
    assert encode(kr, 1)[sl["seat_exhibit"]].reshape(3, 5)[2, KR] > 0


def test_pending_decisions_are_encoded() -> None:
    # A double's second card: its kind and artist.
    hands = [[T(YO, DOUBLE), T(YO), T(KR)], [T(LM), T(LM), T(CP)]]
    g = Game(rigged_deal(hands), 0, GalleryOptions(hand_size=3, deals=(0, 0, 0)))
    g.step(A.PLAY + T(YO, DOUBLE))
    assert g.phase == SECOND
    sl = block_slices(2)
    obs = encode(g, 0)
    assert obs[sl["phase"]].tolist() == [0, 1, 0, 0, 0]
    assert obs[sl["second_kind"]].tolist() == [1, 0]
    assert obs[sl["second_artist"]].tolist() == [0, 1, 0, 0, 0]
    # An award choice on the round's closing card.
    hands = [[T(LM, AWARD), T(YO)], [T(LM), T(YO)]]
    options = GalleryOptions(
        hand_size=2, deals=(0, 0, 0), award_choice=True, end_count=2, extra_card=False
    )
    g = Game(rigged_deal(hands), 0, options)
    g.step(A.PLAY + T(YO))
    g.step(A.PLAY + T(LM))
    assert encode(g, 0)[sl["award_closes"]][0] == 0
    g.step(A.PLAY + T(LM, AWARD))  # the second Lite Metal ends the round: where does it go?
    assert g.phase == AWARD_CHOICE and g.acting == 0
    obs = encode(g, 0)
    assert obs[sl["phase"]].tolist() == [0, 0, 1, 0, 0]
    assert obs[sl["award_closes"]][0] == 1 and obs[sl["table_count"]][LM] == 1
    assert obs[sl["second_kind"]].sum() == 0 and obs[sl["second_artist"]].sum() == 0
    g.step(A.AWARD_TO + KR)
    obs = encode(g, 1)
    assert obs[sl["awards"]].tolist() == [0, 0, 0, 0, pytest.approx(1 / 5)]
    assert obs[sl["awards_left"]][0] == pytest.approx(4 / 5)
    assert obs[sl["round"]][0] == pytest.approx(1 / 4)


def test_observations_stay_in_bounds_under_every_option_variant() -> None:
    for v, options in enumerate(OPTION_VARIANTS):
        for n in (2, 5):
            env = aec_env.raw_env(n_players=n, game_options=options)
            env.reset(seed=v)
            rng = np.random.default_rng(v)
            space = env.observation_space("player_0")["observation"]
            for _agent in env.agent_iter():
                obs, reward, terminated, truncated, info = env.last()
                for other in env.possible_agents:
                    assert space.contains(env.observe(other)["observation"]), (options, n)
                if terminated:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_encode_out_buffer() -> None:
    game = _midgame(n_actions=30)
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
    env = gymnasium.make(ENV_ID, deal=shuffled_deal(3, 0), opponents=["random", "random"], seat=1)
    obs, info = env.reset(seed=1)
    assert obs.shape == (observation_size(3),)
    assert env.unwrapped.n_players == 3
    env = gymnasium.make(f"ludolab.envs.gallery.gym_env:{ENV_ID}")
    assert isinstance(env.unwrapped, MastersGalleryEnv)
    assert env.unwrapped.n_players == 4


def test_check_env_passes() -> None:
    # check_env steps with unmasked action_space.sample(): mostly illegal (66 actions, a
    # handful legal), so it runs with illegal_action="terminate"; with the default it must
    # raise our error instead.
    register()
    env = gymnasium.make(ENV_ID, illegal_action="terminate", render_mode="ansi")
    check_env(env.unwrapped)
    margin = gymnasium.make(
        ENV_ID, opponents=["random"], illegal_action="terminate", reward="margin"
    )
    check_env(margin.unwrapped)
    strict = MastersGalleryEnv()
    strict.action_space.seed(0)
    with pytest.raises(IllegalActionError, match="legal:"):
        check_env(strict)


def test_full_game_random_masked_actions() -> None:
    env = MastersGalleryEnv(deal=DEAL4, game_options={"debug": True})
    out = _play_random(env, seed=11)
    game = env.game
    assert game.phase == GAME_OVER
    winners = game.winners
    expected = 1.0 / len(winners) if 0 in winners else -1.0
    assert out["reward"] == expected
    info = out["info"]
    assert info["winners"] == winners and info["scores"] == tuple(game.scores)
    assert info["winner"] == (-1 if len(winners) > 1 else winners[0])
    assert info["game_seed"] == env.game_seed
    assert not info["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


@pytest.mark.parametrize(("seat", "n_opponents"), [(1, 1), (2, 2), (0, 3), (4, 4)])
def test_other_seats_and_player_counts(seat: int, n_opponents: int) -> None:
    env = MastersGalleryEnv(opponents=["random"] * n_opponents, seat=seat)
    for k in range(3):
        out = _play_random(env, seed=seat * 10 + k)
        assert -1.0 <= out["reward"] <= 1.0 and out["reward"] != 0.0
    assert env.observation_space.shape == (observation_size(n_opponents + 1),)


@pytest.mark.parametrize("options", OPTION_VARIANTS)
def test_every_option_variant_plays_through_the_env(options: dict) -> None:
    env = MastersGalleryEnv(
        opponents=["random"] * 2, seat=1, game_options={**options, "debug": True}
    )
    for k in range(3):
        _play_random(env, seed=k)


def test_the_learner_gets_every_kind_of_decision() -> None:
    env = MastersGalleryEnv(opponents=["random"] * 2, game_options=ALL_SYMBOLS)
    phases = set()
    for k in range(10):
        obs, info = env.reset(seed=k)
        rng = np.random.default_rng(k)
        while True:
            phases.add(env.game.phase)
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
            if terminated:
                break
    assert phases == {0, SECOND, AWARD_CHOICE, SIMULTANEOUS_PLAY}


def test_rewards_win_shared_and_margin() -> None:
    def fake(scores):
        best = max(scores)
        return types.SimpleNamespace(
            n_players=len(scores),
            scores=list(scores),
            winners=tuple(q for q, s in enumerate(scores) if s == best),
        )

    assert final_rewards(fake([50, 40, 30])) == [1.0, -1.0, -1.0]
    assert final_rewards(fake([50, 50, 30])) == [0.5, 0.5, -1.0]
    assert final_rewards(fake([7, 7, 7, 7])) == [0.25] * 4
    assert final_rewards(fake([0, 0])) == [0.5, 0.5]
    assert final_rewards(fake([50, 40, 30]), "margin") == [0.2, -0.2, -0.4]
    assert final_rewards(fake([50, 50, 30]), "margin") == [0.0, 0.0, -0.4]
    assert final_rewards(fake([0, 0]), "margin") == [0.0, 0.0]
    assert final_rewards(fake([0, 12]), "margin") == [-1.0, 1.0]
    # The margin's sign is the win reward's: + sole win, 0 shared, - loss.
    for seed in range(40):
        record_game = _advance_until(
            Game(shuffled_deal(3, seed), seed), seed, lambda g: g.phase == GAME_OVER
        )
        win = final_rewards(record_game)
        margin = final_rewards(record_game, "margin")
        for w, m in zip(win, margin, strict=True):
            assert -1.0 <= m <= 1.0
            assert (w == 1.0) == (m > 0) and (w == -1.0) == (m < 0) and (0 < w < 1) == (m == 0)
    env = MastersGalleryEnv(opponents=["random"], reward="margin", deal=shuffled_deal(2, 0))
    out = _play_random(env, seed=0)
    assert out["reward"] == final_rewards(env.game, "margin")[0]
    with pytest.raises(ValueError, match="reward"):
        MastersGalleryEnv(reward="money")


def test_gym_env_reproduces_play_game() -> None:
    # Playing the actions a random agent would play at the learner's seat gives exactly the
    # game play_game plays with the same seed: the env advances opponents like the fast path.
    for seat, n in ((0, 4), (2, 4), (1, 2), (4, 5)):
        env = MastersGalleryEnv(opponents=["random"] * (n - 1), seat=seat)
        obs, info = env.reset(seed=5 + seat)
        me = make_agent("random")
        me.reset(seat, env.game_seed)
        terminated = False
        while not terminated:
            action = me.act(env.game, env.game.legal_actions())
            obs, reward, terminated, truncated, info = env.step(action)
        agents = [make_agent("random") for _ in range(n)]
        record = play_game(env.game.deal, agents, seed=env.game_seed)
        assert record.n_actions == env.game.n_actions
        assert record.winners == env.game.winners
        assert record.final_scores == tuple(env.game.scores)
        assert record.exhibits == tuple(log.exhibits for log in env.game.rounds_log)


def test_reset_seed_reproduces_the_trajectory() -> None:
    a = _play_random(MastersGalleryEnv(), seed=42, action_seed=1)
    b = _play_random(MastersGalleryEnv(), seed=42, action_seed=1)
    assert a["actions"] == b["actions"]
    assert len(a["observations"]) == len(b["observations"])
    for x, y in zip(a["observations"], b["observations"], strict=True):
        np.testing.assert_array_equal(x, y)
    c = _play_random(MastersGalleryEnv(), seed=43, action_seed=1)
    assert not np.array_equal(a["observations"][0], c["observations"][0])  # another deal


def test_unseeded_resets_continue_the_seeded_stream() -> None:
    def seeds_and_deals() -> list[tuple[int, str]]:
        env = MastersGalleryEnv()
        out = []
        for k in range(4):
            env.reset(seed=3 if k == 0 else None)
            out.append((env.game_seed, env.game.deal.id))
        return out

    first = seeds_and_deals()
    assert first == seeds_and_deals() and len(set(first)) == 4
    assert len({deal for _, deal in first}) == 4  # a fresh fair deal each game


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = MastersGalleryEnv(deal=DEAL4)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.n_actions
    with pytest.raises(IllegalActionError, match="legal:"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="legal:"):
        env.step(A.N_ACTIONS)
    with pytest.raises(IllegalActionError, match="not an integer"):
        env.step(5.5)
    assert env.game.n_actions == before
    np.testing.assert_array_equal(encode(env.game, 0), obs)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int32(legal))  # numpy integers are accepted
    assert env.game.n_actions > before


def test_illegal_action_terminate_mode() -> None:
    env = MastersGalleryEnv(deal=DEAL4, illegal_action="terminate")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(A.DECLINE)  # illegal on a turn
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(A.DECLINE)
    with pytest.raises(ValueError, match="illegal_action"):
        MastersGalleryEnv(illegal_action="ignore")


def test_deal_sources_and_reset_options() -> None:
    deals = [shuffled_deal(4, s) for s in range(3)]
    env = MastersGalleryEnv(deal=deals)
    seen = set()
    for s in range(30):
        env.reset(seed=s)
        seen.add(env.game.deal)
    assert seen == set(deals)
    env = MastersGalleryEnv(deal=lambda rng: deals[1])
    env.reset(seed=0)
    assert env.game.deal == deals[1]
    env.reset(options={"deal": deals[2], "game_seed": 99})
    assert env.game.deal == deals[2] and env.game_seed == 99 and env.game.seed == 99
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"dael": deals[0]})
    with pytest.raises(TypeError):
        MastersGalleryEnv(deal=[1, 2])
    with pytest.raises(ValueError, match="players"):
        MastersGalleryEnv(deal=shuffled_deal(3, 0))  # 4 seats by default
    with pytest.raises(ValueError, match="players"):
        MastersGalleryEnv(deal=[deals[0], shuffled_deal(2, 0)])
    with pytest.raises(ValueError, match="players"):
        MastersGalleryEnv(deal=lambda rng: shuffled_deal(5, 0)).reset(seed=0)
    with pytest.raises(TypeError, match="not a Deal"):
        MastersGalleryEnv(deal=lambda rng: "deal").reset(seed=0)
    with pytest.raises(ValueError, match="players"):
        env.reset(options={"deal": shuffled_deal(2, 0)})


def test_a_game_over_before_the_first_decision() -> None:
    # No cards dealt in any round: the game is over at reset (gymnasium has no terminal reset,
    # so the mask is empty and step asks for a reset); the AEC env ends every agent at once.
    options = {"hand_size": 0, "deals": (0, 0, 0)}
    env = MastersGalleryEnv(game_options=options)
    obs, info = env.reset(seed=0)
    assert env.game.phase == GAME_OVER and not info["action_mask"].any()
    assert info["winners"] == (0, 1, 2, 3)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    aec = aec_env.raw_env(game_options=options)
    aec.reset(seed=0)
    assert all(aec.terminations.values())
    assert aec._cumulative_rewards == dict.fromkeys(aec.possible_agents, 0.25)
    for _agent in aec.agent_iter():
        aec.step(None)
    assert not aec.agents


def test_game_options_are_passed_on() -> None:
    env = MastersGalleryEnv(game_options={"end_count": 3, "rounds": 2})
    env.reset(seed=0)
    assert env.game.end_count == 3 and env.game.options.rounds == 2
    env = MastersGalleryEnv(game_options=GalleryOptions(award_choice=True))
    assert env.game_options.award_choice
    with pytest.raises(TypeError):
        MastersGalleryEnv(game_options=3)
    with pytest.raises(TypeError):
        MastersGalleryEnv(game_options={"no_such_option": 1})


def test_opponent_arguments_are_checked() -> None:
    agent = make_agent("random")
    with pytest.raises(ValueError, match="distinct"):
        MastersGalleryEnv(opponents=[agent, agent])
    with pytest.raises(ValueError, match="seat"):
        MastersGalleryEnv(seat=4)
    with pytest.raises(ValueError, match="opponents"):
        MastersGalleryEnv(opponents=[])
    with pytest.raises(ValueError, match="opponents"):
        MastersGalleryEnv(opponents=["random"] * 5)
    with pytest.raises(ValueError):
        MastersGalleryEnv(opponents=["nonexistent-agent"])
    with pytest.raises(TypeError):
        MastersGalleryEnv(opponents=[object()])
    env = MastersGalleryEnv(opponents=[make_agent("random"), "random"], seat=2)
    assert env.agents[2] is None and env.n_players == 3


def test_render_ansi() -> None:
    env = MastersGalleryEnv(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "phase play" in text and "seat 0: hand" in text
    assert MastersGalleryEnv().render() is None
    with pytest.raises(ValueError, match="render_mode"):
        MastersGalleryEnv(render_mode="human")


# ---------------------------------------------------------------------------------- pettingzoo


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        # Dict observations ({"observation", "action_mask"}) are the classic-env convention;
        # api_test warns about them for envs outside its own list.
        warnings.simplefilter("ignore")
        api_test(aec_env.env(), num_cycles=1000)
        for n in (2, 3, 5):
            api_test(aec_env.raw_env(n_players=n), num_cycles=300)
        api_test(aec_env.raw_env(n_players=3, game_options=ALL_SYMBOLS), num_cycles=300)
        api_test(aec_env.raw_env(deal=DEAL4, reward="margin"), num_cycles=300)


@pytest.mark.parametrize(("n_players", "reward"), [(2, "win"), (4, "margin"), (5, "win")])
def test_aec_full_game(n_players: int, reward: str) -> None:
    env = aec_env.raw_env(n_players=n_players, game_options=ALL_SYMBOLS, reward=reward)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    space = env.observation_space("player_0")
    finished: dict[str, float] = {}
    out_of_turn = 0
    for agent in env.agent_iter():
        obs, reward_now, terminated, truncated, info = env.last()
        if terminated or truncated:
            finished[agent] = reward_now
            env.step(None)
            continue
        assert reward_now == 0
        game = env.game
        assert agent == f"player_{game.acting}"
        out_of_turn += game.acting != game.current
        assert np.flatnonzero(obs["action_mask"]).tolist() == game.legal_actions()
        assert space.contains(obs)
        for other in env.agents:  # the others see the state but no legal action
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.game
    assert set(finished) == set(env.possible_agents) and not env.agents
    assert out_of_turn > 0  # simultaneous picks were asked of other seats
    expected = final_rewards(game, reward)
    assert [finished[f"player_{q}"] for q in range(n_players)] == expected


def test_aec_reproduces_play_game() -> None:
    env = aec_env.raw_env(n_players=3)
    env.reset(seed=6)
    agents = [make_agent("random") for _ in range(3)]
    for q, agent in enumerate(agents):
        agent.reset(q, env.game_seed)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated:
            env.step(None)
            continue
        q = int(agent.split("_")[1])
        env.step(agents[q].act(env.game, env.game.legal_actions()))
    record = play_game(env.game.deal, [make_agent("random") for _ in range(3)], env.game_seed)
    assert record.final_scores == tuple(env.game.scores)
    assert record.n_actions == env.game.n_actions


def test_aec_reset_seed_reproduces() -> None:
    def trajectory(seed: int) -> list[np.ndarray]:
        env = aec_env.raw_env(game_options=ALL_SYMBOLS)
        env.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(60):
            obs = env.observe(env.agent_selection)
            out.append(obs["observation"])
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    a, b, c = trajectory(8), trajectory(8), trajectory(9)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])
    seed_test(aec_env.env, num_cycles=300)  # PettingZoo's own determinism check


def test_aec_players_deals_and_errors() -> None:
    assert aec_env.raw_env(deal=shuffled_deal(3, 0)).n_players == 3
    assert aec_env.raw_env(deal=[shuffled_deal(5, 0)]).n_players == 5
    assert aec_env.raw_env().n_players == 4
    with pytest.raises(ValueError, match="players"):
        aec_env.raw_env(deal=shuffled_deal(3, 0), n_players=4)
    with pytest.raises(ValueError, match="n_players"):
        aec_env.raw_env(n_players=6)
    env = aec_env.raw_env(n_players=2)
    env.reset(options={"deal": shuffled_deal(2, 9), "game_seed": 5})
    assert env.game.deal == shuffled_deal(2, 9) and env.game_seed == 5
    env = aec_env.env()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(A.DECLINE)
    raw = aec_env.raw_env(render_mode="ansi")
    raw.reset(seed=0)
    assert "seat 0: hand" in raw.render()


def test_a_random_seat_changes_per_episode_and_replays_play_game() -> None:
    """seat="random": a seat drawn per episode (info["seat"]), the opponents on the other seats
    in their order; the game is the one play_game plays with them there."""
    env = MastersGalleryEnv(opponents=["greedy", "random"], seat="random")
    seats = []
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seat = info["seat"]
        seats.append(seat)
        me = make_agent("random")
        me.reset(seat, env.game_seed)
        terminated = False
        while not terminated:
            _, _, terminated, _, info = env.step(me.act(env.game, env.game.legal_actions()))
        others = iter(["greedy", "random"])
        agents = [make_agent("random" if q == seat else next(others)) for q in range(3)]
        record = play_game(env.game.deal, agents, seed=env.game_seed)
        assert (record.n_actions, record.final_scores) == (
            env.game.n_actions,
            tuple(env.game.scores),
        )
    assert set(seats) == {0, 1, 2}
    with pytest.raises(ValueError, match="'random'"):
        MastersGalleryEnv(seat="left")
