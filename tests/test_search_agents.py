"""The IS-MCTS search agents of both games: their determinisations see only what the seat may
see, are consistent with it, and the agents play legal, reproducible games."""

from __future__ import annotations

import random

import pytest

from ludolab.envs.agents import AgentSpecError
from ludolab.envs.catan.agents import make_agent as make_catan
from ludolab.envs.catan.agents import parse_agent_spec as parse_catan
from ludolab.envs.catan.engine import DEV_DECK_COUNTS, Game
from ludolab.envs.catan.play import play_game as play_catan
from ludolab.envs.gallery.agents import parse_agent_spec as parse_gallery
from ludolab.envs.gallery.cards import N_SYMBOLS, N_TYPES
from ludolab.envs.gallery.deal import shuffled_deal
from ludolab.envs.gallery.engine import PLAY as GALLERY_PLAY
from ludolab.envs.gallery.engine import SIMULTANEOUS_PLAY, GalleryOptions
from ludolab.envs.gallery.engine import Game as GalleryGame
from ludolab.envs.gallery.play import play_game as play_gallery
from ludolab.research.catan.samplers import fair_board

# ---------------------------------------------------------------------- Catan


def _catan_midgame(seed: int, turns: int = 24) -> Game:
    """A game four greedy agents have played for ``turns`` turns, stopped at a decision of
    seat 0 with more than one legal action."""
    game = Game(fair_board(seed), 4, seed)
    agents = [make_catan("greedy") for _ in range(4)]
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    while not game.done:
        forced = game.forced_action()
        if forced >= 0:
            game.step(forced)
            continue
        if game.turns >= turns and game.acting == 0 and len(game.legal_actions()) > 1:
            return game
        game.step(agents[game.acting].act(game, game.legal_actions()))
    raise AssertionError("the game ended before the position wanted")


def _catan_hidden_swapped(game: Game, rng: random.Random) -> Game:
    """The same position for seat 0 with the hidden part changed: two opponents trade a card
    of different resources (hand sizes and the bank unchanged), an opponent's development card
    changes places with one in the deck, and the deck is reshuffled."""
    other = game.clone()
    a, b = 1, 2
    ra = next((r for r in range(5) if other.hands[a][r]), None)
    rb = next((r for r in range(5) if other.hands[b][r] and r != ra), None)
    if ra is not None and rb is not None:
        other.hands[a][ra] -= 1
        other.hands[a][rb] += 1
        other.hands[b][rb] -= 1
        other.hands[b][ra] += 1
    for q in (1, 2, 3):
        held = [k for k in range(5) if other.dev_hand[q][k] > other.dev_new[q][k]]
        swap = [i for i, k in enumerate(other.dev_deck) if held and k != held[0]]
        if held and swap:
            k, i = held[0], swap[0]
            other.dev_hand[q][k] -= 1
            other.dev_hand[q][other.dev_deck[i]] += 1
            other.dev_deck[i] = k
            break
    rng.shuffle(other.dev_deck)
    other._legal = None
    return other


@pytest.mark.parametrize("seed", [3, 11])
def test_catan_determinisation_reads_nothing_hidden(seed):
    """Two games that differ only in what seat 0 cannot see give the same determinisations,
    card for card, from the same agent stream, and the same decision."""
    game = _catan_midgame(seed)
    other = _catan_hidden_swapped(game, random.Random(seed))
    assert [h[:] for h in other.hands] != [h[:] for h in game.hands] or (
        other.dev_deck != game.dev_deck
    )
    agents = []
    for g in (game, other):
        agent = parse_catan("mcts:playouts=8,search=all")
        agent.reset(0, seed)
        copies = [agent.determinise(g) for _ in range(5)]
        agents.append(
            [(c.hands, c.dev_hand, c.dev_new, c.dev_deck, c._dice_rng.random()) for c in copies]
        )
    assert agents[0] == agents[1]
    decisions = []
    for g in (game, other):
        agent = parse_catan("mcts:playouts=8,search=all,root=ucb")
        agent.reset(0, seed)
        decisions.append(agent.act(g, g.legal_actions()))
    assert decisions[0] == decisions[1]


def test_catan_determinisations_are_consistent_with_the_seat_view():
    game = _catan_midgame(5, turns=40)
    agent = parse_catan("mcts:search=all")
    agent.reset(0, 1)
    seen = set()
    for _ in range(30):
        copy = agent.determinise(game)
        copy.check_invariants()  # 19 cards a resource, 25 development cards, points...
        assert copy.hands[0] == game.hands[0] and copy.dev_hand[0] == game.dev_hand[0]
        assert copy.hand_size == game.hand_size and copy.bank == game.bank
        assert len(copy.dev_deck) == len(game.dev_deck)
        for q in range(4):
            assert sum(copy.dev_hand[q]) == sum(game.dev_hand[q])
            assert sum(copy.dev_new[q]) == sum(game.dev_new[q])
            assert all(n <= h for n, h in zip(copy.dev_new[q], copy.dev_hand[q], strict=True))
            assert copy.victory_points(q) < game.options.vp_to_win
        pool = [sum(copy.dev_hand[q][k] for q in range(4)) for k in range(5)]
        assert all(
            pool[k] + copy.dev_deck.count(k) + sum(copy.dev_played[q][k] for q in range(4))
            == DEV_DECK_COUNTS[k]
            for k in range(5)
        )
        seen.add(tuple(tuple(h) for h in copy.hands[1:]))
    assert len(seen) > 1  # the others' hands are really dealt again


def test_catan_determinisation_keeps_what_an_offer_revealed():
    """During a domestic offer the seats that accepted hold the card asked for, and the
    offering seat what it offered: every determinisation must give them those cards."""
    from ludolab.envs.catan import actions as A
    from ludolab.envs.catan.engine import TRADE_CONFIRM

    for seed in range(40):
        game = Game(fair_board(seed), 4, seed)
        agents = [make_catan("greedy") for _ in range(4)]
        for q, agent in enumerate(agents):
            agent.reset(q, seed)
        while not game.done and not (game.phase == TRADE_CONFIRM and game.current != 0):
            forced = game.forced_action()
            game.step(
                forced if forced >= 0 else agents[game.acting].act(game, game.legal_actions())
            )
        if game.done:
            continue
        give, n_give, get = game.offer
        searcher = parse_catan("mcts:search=all")
        searcher.reset(0, seed)
        for _ in range(20):
            copy = searcher.determinise(game)
            assert copy.hands[game.current][give] >= n_give
            for q in game.accepted:
                if q != 0:
                    assert copy.hands[q][get] >= 1
            copy.step(next(a for a in copy.legal_actions() if a != A.CANCEL_TRADE))
            copy.check_invariants()
        return
    pytest.skip("no offer from another seat was confirmed in 40 games")


def test_catan_search_agent_plays_reproducible_games():
    board = fair_board(2)
    specs = ["mcts:playouts=20,search=setup+robber+trade", "greedy", "random", "greedy"]
    records = [play_catan(board, [parse_catan(s) for s in specs], 9) for _ in range(2)]
    assert records[0] == records[1]
    assert records[0].winner is not None


def test_catan_search_agent_searching_every_decision_plays_a_legal_game():
    """Searching every phase, its choices are legal (the engine raises on any other) and the
    search really decides: it is asked in the main phase and leaves greedy's choice there."""
    from ludolab.envs.catan.agents import MCTSAgent
    from ludolab.envs.catan.engine import MAIN

    shadow = make_catan("greedy")
    asked = differed = 0

    class Watched(MCTSAgent):
        def act(self, game, legal):
            nonlocal asked, differed
            action = super().act(game, legal)
            if game.phase == MAIN and len(legal) > 1:
                asked += 1
                differed += action != shadow.act(game, list(legal))
            return action

    watched = Watched(playouts=4, search="all", root="ucb")
    shadow.reset(0, 1)
    record = play_catan(fair_board(4), [watched, make_catan("random"), make_catan("random")], 1)
    assert record.winner is not None or record.truncated
    assert asked > 0 and differed > 0


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:playouts=0",
        "mcts:policy=alphazero",
        "mcts:search=setup+everything",
        "mcts:root=best",
        "mcts:c=-1",
    ],
)
def test_bad_search_parameters_are_refused(spec):
    with pytest.raises(AgentSpecError):
        parse_catan(spec)


@pytest.mark.parametrize("spec", ["mcts", "mcts:playouts=200,search=all", "mcts:policy=random"])
def test_search_agent_specs_round_trip(spec):
    agent = parse_catan(spec)
    assert parse_catan(agent.spec).spec == agent.spec


# ---------------------------------------------------------------------- Masters Gallery

HIDDEN_OPTIONS = GalleryOptions(symbols=((0, 1, 0, 3, 3),) * 5, closing_card_effects=False)


def _gallery_position(seed: int, options: GalleryOptions, want_simultaneous: bool) -> GalleryGame:
    """A game between leader agents stopped at a decision of seat 0 with several options
    (during a simultaneous play if ``want_simultaneous``)."""
    game = GalleryGame(shuffled_deal(3, seed), seed, options)
    agents = [parse_gallery("leader") for _ in range(3)]
    for q, agent in enumerate(agents):
        agent.reset(q, seed)
    while not game.done:
        simultaneous = game.phase == SIMULTANEOUS_PLAY and game.simultaneous_picks
        decision = game.acting == 0 and len(game.legal_actions()) > 1 and game.turns > 3
        if decision and (simultaneous or not want_simultaneous):
            return game
        game.step(agents[game.acting].act(game, game.legal_actions()))
    raise LookupError


def _gallery_hidden_swapped(game: GalleryGame, rng: random.Random) -> GalleryGame:
    """Seat 0's view unchanged; an opponent's card swapped with a different one in the deck,
    and the deck reshuffled."""
    other = game.clone()
    q = 1
    t = next(t for t in range(N_TYPES) if other.hands[q][t])
    i = next(i for i, c in enumerate(other.pile) if other.type_of[c] != t)
    u = other.type_of[other.pile[i]]
    card = next(
        c for c in range(len(other.type_of)) if other.type_of[c] == t and c not in other.pile
    )
    other.hands[q][t] -= 1
    other.hands[q][u] += 1
    other.pile[i] = card
    rng.shuffle(other.pile)
    other._legal = None
    return other


@pytest.mark.parametrize("options", [GalleryOptions(), HIDDEN_OPTIONS], ids=["default", "hidden"])
def test_gallery_determinisation_reads_nothing_hidden(options):
    game = _gallery_position(4, options, False)
    other = _gallery_hidden_swapped(game, random.Random(4))
    assert other.hands != game.hands
    outs = []
    for g in (game, other):
        agent = parse_gallery("mcts:playouts=16")
        agent.reset(0, 7)
        copies = [agent.determinise(g) for _ in range(4)]
        outs.append(
            (
                [(c.hands, c.pile, c.face_down_types) for c in copies],
                agent.act(g, g.legal_actions()),
            )
        )
    assert outs[0] == outs[1]


@pytest.mark.parametrize("options", [GalleryOptions(), HIDDEN_OPTIONS], ids=["default", "hidden"])
def test_gallery_lookahead_reads_nothing_hidden(options):
    """The lookahead's play-outs start from determinisations: with only hidden cards changed,
    every candidate's wins and the card chosen stay the same."""
    compared = 0
    for seed in range(12):
        try:
            game = _gallery_position(seed, options, False)
        except LookupError:
            continue
        if game.phase != GALLERY_PLAY:
            continue
        other = _gallery_hidden_swapped(game, random.Random(seed))
        outs = []
        for g in (game, other):
            agent = parse_gallery("lookahead:playouts=8")
            agent.reset(0, seed)
            outs.append((agent.act(g, g.legal_actions()), agent.last_wins))
        assert outs[0] == outs[1]
        compared += len(outs[0][1]) > 1
    assert compared >= 5


def test_gallery_lookahead_with_one_candidate_is_greedy():
    deal = shuffled_deal(3, 8)
    records = [
        play_gallery(deal, [parse_gallery(s) for s in (first, "leader", "random")], 8)
        for first in ("greedy", "lookahead:candidates=1")
    ]
    assert records[0].final_scores == records[1].final_scores
    assert records[0].winners == records[1].winners


def test_gallery_lookahead_plays_legal_reproducible_games():
    options = GalleryOptions(symbols=((1, 1, 1, 1, 1),) * 5, award_choice=True, debug=True)
    for n in (2, 4):
        specs = ["lookahead:playouts=4", "greedy", "leader", "random"][:n]
        deal = shuffled_deal(n, 3)
        records = [
            play_gallery(deal, [parse_gallery(s) for s in specs], 5, options) for _ in range(2)
        ]
        assert records[0] == records[1]
    for bad in ("lookahead:candidates=0", "lookahead:playouts=2.5"):
        with pytest.raises(AgentSpecError):
            parse_gallery(bad)


@pytest.mark.parametrize("simultaneous", [False, True])
def test_gallery_determinisations_are_consistent(simultaneous):
    options = GalleryOptions(debug=True, symbols=HIDDEN_OPTIONS.symbols, closing_card_effects=False)
    for seed in range(30):
        try:
            game = _gallery_position(seed, options, simultaneous)
        except LookupError:
            continue
        agent = parse_gallery("mcts")
        agent.reset(0, seed)
        for _ in range(10):
            copy = agent.determinise(game)
            copy.check_invariants()
            assert copy.hands[0] == game.hands[0]
            assert copy.face_down_types[0] == game.face_down_types[0]
            assert copy.hand_size == game.hand_size and len(copy.pile) == len(game.pile)
            assert [sum(row) for row in copy.face_down] == [sum(row) for row in game.face_down]
            assert [q for q, _ in copy.simultaneous_picks] == [
                q for q, _ in game.simultaneous_picks
            ]
            while not copy.done:  # every determinisation plays on to a legal end
                copy.step(copy.legal_actions()[0])
        if not simultaneous or game.simultaneous_picks:
            return
    pytest.fail("no position found")


def test_gallery_search_agent_plays_reproducible_games_under_every_symbol():
    options = GalleryOptions(symbols=((1, 1, 1, 1, 1),) * 5, award_choice=True)
    for n in (2, 4):
        specs = ["mcts:playouts=12", "greedy", "leader", "random"][:n]
        deal = shuffled_deal(n, 3)
        records = [
            play_gallery(deal, [parse_gallery(s) for s in specs], 5, options) for _ in range(2)
        ]
        assert records[0] == records[1]


def test_gallery_clone_is_independent():
    game = _gallery_position(2, GalleryOptions(), False)
    copy = game.clone()
    before = (game.hands[0][:], game.pile[:], game.scores[:], game.n_actions)
    while not copy.done:
        copy.step(copy.legal_actions()[-1])
    assert (game.hands[0], game.pile, game.scores, game.n_actions) == before


def test_gallery_determinisation_ignores_what_an_opponent_put_face_down():
    """An opponent's face-down card is hidden (artist included): changing it for a card from
    the deck changes no determinisation and no decision of seat 0."""
    for seed in range(40):
        try:
            game = _gallery_position(seed, HIDDEN_OPTIONS, False)
        except LookupError:
            continue
        owner = next((q for q in (1, 2) if sum(game.face_down[q])), None)
        if owner is None:
            continue
        other = game.clone()
        t = next(t for t in range(N_TYPES) if other.face_down_types[owner][t])
        i = next(
            i for i, c in enumerate(other.pile) if other.type_of[c] // N_SYMBOLS != t // N_SYMBOLS
        )
        u = other.type_of[other.pile[i]]
        other.pile[i] = next(
            c for c in range(len(other.type_of)) if other.type_of[c] == t and c not in other.pile
        )
        for types, d in ((t, -1), (u, 1)):
            other.face_down_types[owner][types] += d
            other._table_types[types] += d
        other.check_invariants()
        assert other.face_up_types == game.face_up_types
        outs = []
        for g in (game, other):
            agent = parse_gallery("mcts:playouts=16")
            agent.reset(0, seed)
            copies = [agent.determinise(g) for _ in range(4)]
            decision = agent.act(g, g.legal_actions())
            outs.append(([(c.hands, c.pile, c.face_down_types) for c in copies], decision))
        assert outs[0] == outs[1]
        return
    pytest.fail("no position with an opponent's face-down card")


def test_gallery_search_agent_judges_flat_when_asked(monkeypatch):
    """``flat=true`` (shared with Catan's agents) grows no tree below the root's actions; the
    default does; ``flat`` needs ``root=halving``."""
    from ludolab.envs.search import SearchAgent

    with pytest.raises(AgentSpecError):
        parse_gallery("mcts:flat=true,root=ucb")
    game = _gallery_position(2, GalleryOptions(), False)
    iterate = SearchAgent._iterate
    for flat in (True, False):
        agent = parse_gallery(f"mcts:playouts=16,flat={str(flat).lower()}")
        assert parse_gallery(agent.spec).spec == agent.spec
        agent.reset(0, 2)
        roots = []

        def watched(self, root, g, players, roots=roots):
            roots.append(root)
            return iterate(self, root, g, players)

        monkeypatch.setattr(SearchAgent, "_iterate", watched)
        assert agent.act(game, game.legal_actions()) in game.legal_actions()
        assert (not roots) == flat
