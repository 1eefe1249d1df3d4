"""Whole-game properties of the Masters Gallery engine: invariants, records, deals, options."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.gallery import actions as A
from ludolab.envs.gallery.agents import AgentSpecError, make_agent
from ludolab.envs.gallery.cards import (
    ARTIST_CARDS,
    DEFAULT_SYMBOLS,
    N_CARDS,
    N_TYPES,
    OPEN_MODEL_SYMBOLS,
    card_types,
    symbols_as_mapping,
    symbols_from_mapping,
    type_counts,
    type_name,
)
from ludolab.envs.gallery.deal import (
    SCHEMA,
    Deal,
    DealError,
    iter_deals,
    read_deal,
    shuffled_deal,
    write_deals,
)
from ludolab.envs.gallery.engine import (
    GAME_OVER,
    GalleryOptions,
    Game,
    IllegalActionError,
    InvariantError,
)
from ludolab.envs.gallery.play import game_record, play_game
from ludolab.envs.gallery.record import recompute_scores


def random_agents(n: int) -> list:
    return [make_agent("random") for _ in range(n)]


def check_record(record, options: GalleryOptions) -> None:
    """The record's scores follow from its exhibits, extra cards and awards alone."""
    values, scores, final = recompute_scores(
        record, options.rank_tokens, options.award_value, options.rank_empty_artists
    )
    assert values == record.artist_values
    assert scores == record.round_scores
    assert final == record.final_scores
    assert record.rounds == options.rounds
    best = max(record.final_scores)
    assert record.winners == tuple(q for q, s in enumerate(record.final_scores) if s == best)
    for r in range(record.rounds):
        for a in record.rankings[r]:
            assert values[r][a] > 0 or options.award_value == 0
        # Only ranked artists pay.
        assert all(values[r][a] == 0 for a in range(5) if a not in record.rankings[r])


# Options that change the rules' flow, for the property test.
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


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    deal_seed=st.integers(0, 10_000),
    n_players=st.sampled_from([2, 3, 4, 5]),
    variant=st.sampled_from(range(len(OPTION_VARIANTS))),
)
def test_random_games_keep_every_invariant(seed, deal_seed, n_players, variant):
    # debug=True makes the engine check every invariant after every action: all 95 cards
    # accounted for, scores recomputed from the round logs, legal actions non-empty.
    options = GalleryOptions(debug=True, **OPTION_VARIANTS[variant])
    record = play_game(shuffled_deal(n_players, deal_seed), random_agents(n_players), seed, options)
    check_record(record, options)
    assert len(record.exhibits) == options.rounds
    assert all(len(e) == n_players and all(len(row) == 5 for row in e) for e in record.exhibits)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("symbols", ["default", "open-model"])
def test_many_default_games_recompute_and_never_run_dry(n, symbols):
    table = DEFAULT_SYMBOLS if symbols == "default" else OPEN_MODEL_SYMBOLS
    options = GalleryOptions(symbols=table)
    end = 5 if n == 2 else 6
    for i in range(150):
        record = play_game(shuffled_deal(n, i), random_agents(n), i, options)
        check_record(record, options)
        assert not record.deck_ran_out and record.missed_draws == 0
        # Every round ends with an artist at the end count or with no cards left.
        for r in range(4):
            counts = [
                record.extra_cards[r][a] + sum(record.exhibits[r][q][a] for q in range(n))
                for a in range(5)
            ]
            if record.round_closers[r] is not None:
                # Face-down cards (counted here, revealed at the end) and a simultaneous
                # play (cards revealed together) can take an artist past the end count.
                if symbols == "default":
                    assert max(counts) >= end
                else:
                    assert max(counts) == end


def test_a_game_is_reproducible_from_deal_agents_and_seed():
    deal = shuffled_deal(3, 42)
    first = play_game(deal, random_agents(3), 7)
    again = play_game(Deal.from_json(deal.to_json()), random_agents(3), 7)
    assert first == again
    other = [play_game(deal, random_agents(3), s) for s in range(8, 12)]
    assert any(r.round_scores != first.round_scores for r in other)


def test_the_record_is_json_ready():
    record = play_game(shuffled_deal(4, 1), random_agents(4), 1)
    data = json.loads(json.dumps(record.to_dict()))
    assert data["setup_id"] == shuffled_deal(4, 1).id
    assert data["agents"] == ["random"] * 4
    assert len(data["exhibits"]) == 4 and len(data["exhibits"][0]) == 4
    assert record.n_players == 4 and record.rounds == 4
    assert record.n_actions >= sum(record.turns_per_round)


def test_play_game_wants_one_agent_per_seat():
    with pytest.raises(ValueError, match="for 3 players but 2 agents"):
        play_game(shuffled_deal(3, 0), random_agents(2))


def test_stepping_by_hand_matches_play_game():
    deal = shuffled_deal(2, 5)
    agents = random_agents(2)
    game = Game(deal, 9, GalleryOptions(debug=True))
    for seat, agent in enumerate(agents):
        agent.reset(seat, 9)
    while not game.done:
        legal = game.legal_actions()
        mask = game.action_mask()
        assert [a for a in range(A.N_ACTIONS) if mask[a]] == legal
        game.step(np.int64(agents[game.acting].act(game, legal)))  # numpy ints are accepted
    assert game.phase == GAME_OVER and game.legal_actions() == []
    assert game_record(game, ["random"] * 2) == play_game(deal, random_agents(2), 9)


def test_the_invariant_check_catches_a_lost_card():
    game = Game(shuffled_deal(2, 0))
    game.check_invariants()
    game.pile.pop()
    with pytest.raises(InvariantError, match="accounted for"):
        game.check_invariants()


def test_the_invariant_check_catches_a_wrong_score():
    game = Game(shuffled_deal(2, 0))
    agents = random_agents(2)
    while game.round == 0:
        game.step(agents[game.acting].act(game, game.legal_actions()))
    game.scores[0] += 1
    with pytest.raises(InvariantError, match="scores"):
        game.check_invariants()


def test_illegal_actions_name_the_action_and_the_phase():
    game = Game(shuffled_deal(2, 3))
    legal = game.legal_actions()
    bad = next(a for a in range(A.N_ACTIONS) if a not in legal)
    with pytest.raises(IllegalActionError, match=rf"action {bad} .* phase play"):
        game.step(bad)
    assert game.n_actions == 0 and game.legal_actions() == legal


# ---------------------------------------------------------------------- cards and actions


def test_the_deck_has_95_cards_and_30_symbol_cards_by_default():
    types = card_types()
    counts = type_counts()
    assert len(types) == N_CARDS == sum(ARTIST_CARDS) == sum(counts)
    assert sum(1 for k in counts if k) == 30 and len(counts) == N_TYPES
    for a in range(5):
        artist = counts[a * 6 : a * 6 + 6]
        assert artist == (ARTIST_CARDS[a] - 6, 1, 2, 1, 1, 1)
    # "symbols on about a third of the cards"
    assert sum(sum(row) for row in DEFAULT_SYMBOLS) == 30
    assert DEFAULT_SYMBOLS == ((1, 2, 1, 1, 1),) * 5
    assert type_name(7) == "Yoko+draw" and type_name(6) == "Yoko"


def test_the_open_model_table_keeps_the_earlier_reading():
    counts = type_counts(OPEN_MODEL_SYMBOLS)
    assert sum(1 for k in counts if k) == 20
    for a in range(5):
        assert counts[a * 6 : a * 6 + 6] == (ARTIST_CARDS[a] - 3, 1, 1, 1, 0, 0)


def test_the_published_defaults():
    o = GalleryOptions()
    assert o.award_choice and o.extra_card and o.extra_card_each_round
    assert o.symbols == DEFAULT_SYMBOLS and o.hand_size == 13 and o.award_tokens == 5


@pytest.mark.parametrize("each_round", [False, True])
def test_the_extra_card_is_turned_at_setup_or_every_round(each_round):
    options = GalleryOptions(extra_card_each_round=each_round)
    record = play_game(shuffled_deal(3, 5), random_agents(3), 5, options)
    extras = [sum(row) for row in record.extra_cards]
    assert extras == ([1, 1, 1, 1] if each_round else [1, 0, 0, 0])


def test_symbol_tables_by_artist_name():
    table = symbols_from_mapping({"Yoko": {"draw": 3, "award": 1}, "Krypto": {"double": 2}})
    assert table[1] == (3, 0, 1, 0, 0) and table[4] == (0, 2, 0, 0, 0) and table[0] == (0,) * 5
    assert symbols_from_mapping(symbols_as_mapping(DEFAULT_SYMBOLS)) == DEFAULT_SYMBOLS
    with pytest.raises(ValueError, match="no artist 'Vermeer'; the artists are Lite Metal"):
        symbols_from_mapping({"Vermeer": {"draw": 1}})
    with pytest.raises(ValueError, match="Yoko: no symbol 'wild'"):
        symbols_from_mapping({"Yoko": {"wild": 1}})
    with pytest.raises(ValueError, match=r"Yoko.draw: expected a whole number >= 0, got -1"):
        symbols_from_mapping({"Yoko": {"draw": -1}})
    with pytest.raises(ValueError, match="puts 19 symbols on its 18 cards"):
        symbols_from_mapping({"Yoko": {"draw": 19}})


def test_actions_are_described():
    assert A.describe(A.PLAY + 8) == "play(Yoko+double)"
    assert A.describe(A.SECOND + 12) == "second(Christin P.)"
    assert A.describe(A.AWARD_TO + 4) == "award-to(Krypto)"
    assert A.describe(A.DECLINE) == "decline"
    assert A.N_ACTIONS == 66
    assert "invalid" in A.describe(-1)


# ---------------------------------------------------------------------- deals


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deal_json_round_trip_keeps_deal_and_id(n):
    deal = shuffled_deal(n, n)
    again = Deal.from_json(deal.to_json())
    assert again == deal and again.id == deal.id
    assert deal.to_dict()["schema"] == SCHEMA
    assert sorted(deal.order) == list(range(N_CARDS))


def test_deal_id_changes_with_content():
    deal = shuffled_deal(3, 0)
    swapped = list(deal.order)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert Deal(3, tuple(swapped)).id != deal.id
    assert Deal(4, deal.order).id != deal.id


def test_shuffled_deals_are_seeded():
    assert shuffled_deal(2, 1) == shuffled_deal(2, 1)
    assert shuffled_deal(2, 1) != shuffled_deal(2, 2)
    assert shuffled_deal(2, random.Random(5)) == shuffled_deal(2, random.Random(5))


def test_round1_hands_and_from_hands_agree():
    deal = shuffled_deal(3, 8)
    hands = deal.round1_hands()
    assert [len(h) for h in hands] == [13, 13, 13]
    assert Deal.from_hands(hands, deal.order[39:]) == deal


def _edited(**changes) -> dict:
    data = shuffled_deal(2, 0).to_dict()
    del data["id"]
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "expected a JSON object"),
        ({"order": list(range(95))}, "missing field 'n_players'"),
        (_edited(schema="other/1"), "field 'schema'"),
        (_edited(n_players=6), "field 'n_players' is 6"),
        (_edited(n_players=True), "field 'n_players'"),
        (_edited(order=list(range(94))), "field 'order' must hold the 95"),
        (_edited(order="0,1,2"), "field 'order' must be a list"),
        (_edited(order=[*range(94), 95]), r"field 'order\[94\]' is 95"),
        (_edited(order=[*range(94), 3]), r"field 'order\[94\]' repeats card 3"),
        (_edited(order=[*range(94), "x"]), r"field 'order\[94\]' is 'x'"),
        ({**shuffled_deal(2, 0).to_dict(), "id": "0" * 16}, "field 'id'"),
    ],
)
def test_deal_validation_errors_name_the_field(data, message):
    with pytest.raises(DealError, match=message):
        Deal.from_dict(data, "deals.json")
    with pytest.raises(DealError, match="deals.json"):
        Deal.from_dict(data, "deals.json")


def test_deal_files_round_trip_and_errors_name_file_and_line(tmp_path):
    deals = [shuffled_deal(n, n) for n in (2, 3, 4, 5)]
    path = tmp_path / "deals.jsonl"
    assert write_deals(deals, path) == 4
    assert list(iter_deals(path)) == deals
    assert read_deal(path) == deals[0]
    single = tmp_path / "one.json"
    single.write_text(deals[1].to_json())
    assert read_deal(single) == deals[1]
    path.write_text(deals[0].to_json() + "\n{not json\n")
    with pytest.raises(DealError, match=r"deals.jsonl:2: not valid JSON"):
        list(iter_deals(path))
    with pytest.raises(DealError, match="cannot read"):
        read_deal(tmp_path / "missing.json")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(DealError, match="holds no deals"):
        list(iter_deals(tmp_path / "empty.jsonl"))


# ---------------------------------------------------------------------- options and agents


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"symbols": ((1, 1, 1, 0, 0),) * 4}, "symbols must list 5 artists"),
        ({"symbols": ((1, 1, 1, 0),) * 5}, r"symbols\[0\] \(Lite Metal\)"),
        ({"symbols": ((1, 1, 1, 0, 0),) * 4 + ((20, 1, 1, 0, 0),)}, r"symbols\[4\] \(Krypto\)"),
        ({"end_count": 0}, "end_count"),
        ({"hand_size": 20}, "hand_size"),
        ({"deals": (1, 2)}, "deals must give 3 counts"),
        ({"rank_tokens": ()}, "rank_tokens"),
        ({"award_value": -1}, "award_value"),
        ({"next_round_start": "right"}, "next_round_start"),
        ({"rounds": 0}, "rounds"),
    ],
)
def test_options_are_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GalleryOptions(**kwargs)


def test_option_defaults_follow_the_player_count():
    options = GalleryOptions()
    assert [options.end_count_for(n) for n in (2, 3, 4, 5)] == [5, 6, 6, 6]
    assert options.deals_for(2) == (6, 6, 3) and options.deals_for(5) == (2, 2, 0)
    assert GalleryOptions(rounds=5).deals_for(2) == (6, 6, 3, 0)


def test_agents_are_made_by_name():
    agent = make_agent("random")
    assert agent.spec == "random"
    with pytest.raises(AgentSpecError, match="unknown gallery agent"):
        make_agent("genius")


def test_envs_gallery_never_imports_research():
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1] / "envs" / "gallery"
    for path in root.rglob("*.py"):
        text = path.read_text()
        assert "import research" not in text and "from research" not in text, path


def test_from_hands_checks_the_hand_size():
    with pytest.raises(DealError, match="13 cards per seat"):
        Deal.from_hands([list(range(10)), list(range(10, 20))], list(range(20, 95)))
    with pytest.raises(DealError, match="is empty"):
        Deal.from_hands([], list(range(95)))
