"""Rules of the Masters Gallery engine on hand-made positions: the rules people get wrong.

Positions are made with :func:`rigged_deal`: a deal whose round-1 hands, extra card and next
cards of the deck are chosen card types (the rest of the deck follows in id order). Small hands
(``hand_size``) and small round-end counts (``end_count``) keep the scripts short. Card types
are written ``T(artist, symbol)``; artists LM, YO, CP, KG, KR in priority order.
"""

from __future__ import annotations

import pytest

from ludolab.envs.gallery import actions as A
from ludolab.envs.gallery.cards import (
    AWARD,
    DOUBLE,
    DRAW,
    FACE_DOWN,
    N_CARDS,
    OPEN_MODEL_SYMBOLS,
    PLAIN,
    SIMULTANEOUS,
    card_type,
    card_types,
)
from ludolab.envs.gallery.deal import Deal
from ludolab.envs.gallery.engine import (
    AWARD_CHOICE,
    GAME_OVER,
    PLAY,
    SECOND,
    SIMULTANEOUS_PLAY,
    GalleryOptions,
    Game,
    IllegalActionError,
)

LM, YO, CP, KG, KR = range(5)


def T(artist: int, symbol: int = PLAIN) -> int:
    return card_type(artist, symbol)


def rigged_deal(
    hands: list[list[int]],
    extra: int | None = None,
    top: list[int] = (),
    symbols=None,
) -> Deal:
    """A deal giving seat s the card types ``hands[s]`` in round 1, then ``extra`` (if given),
    then ``top`` as the next cards of the deck, then every other card in id order."""
    types = card_types(symbols) if symbols else card_types()
    free: dict[int, list[int]] = {}
    for card in range(N_CARDS):
        free.setdefault(types[card], []).append(card)
    order = []
    wanted = [t for h in hands for t in h] + ([extra] if extra is not None else []) + list(top)
    for t in wanted:
        order.append(free[t].pop(0))
    taken = set(order)
    order += [c for c in range(N_CARDS) if c not in taken]
    return Deal(len(hands), tuple(order))


def new_game(hands, extra=None, top=(), **options) -> Game:
    options.setdefault("hand_size", len(hands[0]))
    options.setdefault("extra_card", extra is not None)
    options.setdefault("debug", True)
    symbols = options.get("symbols")
    return Game(rigged_deal(hands, extra, top, symbols), 0, GalleryOptions(**options))


def play(game: Game, *types: int) -> None:
    """The acting seats play these card types, one turn each, in order."""
    for t in types:
        game.step(A.PLAY + t)


def hand(game: Game, seat: int) -> dict[int, int]:
    return {t: k for t, k in enumerate(game.hands[seat]) if k}


# ---------------------------------------------------------------------- the round end


def test_two_players_end_the_round_at_five_counting_the_extra_card():
    g = new_game([[T(KR)] * 4 + [T(LM)], [T(KR)] * 4 + [T(YO)]], extra=T(KR), deals=(0, 0, 0))
    assert g.end_count == 5 and g.artist_count[KR] == 1
    play(g, T(KR), T(KR), T(KR))  # 1 + 3 on the table
    assert g.round == 0 and not g.rounds_log
    play(g, T(KR))  # the 4th played, 5th on the table: seat 1 ends the round
    assert g.round == 1
    log = g.rounds_log[0]
    assert log.closer == 1 and log.turns == 4
    assert log.extra == (0, 0, 0, 0, 1)
    assert log.exhibits == ((0, 0, 0, 0, 2), (0, 0, 0, 0, 2))


def test_without_the_extra_card_five_cards_must_be_played():
    g = new_game([[T(KR)] * 3 + [T(LM)], [T(KR)] * 3 + [T(YO)]], deals=(0, 0, 0))
    play(g, T(KR), T(KR), T(KR), T(KR))
    assert g.round == 0
    play(g, T(KR))
    assert g.round == 1 and g.rounds_log[0].closer == 0


@pytest.mark.parametrize("n", [3, 4, 5])
def test_three_to_five_players_end_the_round_at_six(n):
    hands = [[T(CP)] * 2 + [T(LM)] for _ in range(n)]
    g = new_game(hands, extra=T(CP), deals=(0, 0, 0))
    assert g.end_count == 6
    play(g, *[T(CP)] * 4)
    assert g.round == 0
    play(g, T(CP))  # 1 extra + 5 played
    assert g.round == 1 and g.rounds_log[0].closer == 4 % n


def test_the_end_count_is_an_option():
    g = new_game([[T(LM)] * 3, [T(LM)] * 3], deals=(0, 0, 0), end_count=2)
    play(g, T(LM), T(LM))
    assert g.round == 1


def test_the_round_ends_when_nobody_holds_a_card():
    g = new_game([[T(LM), T(YO)], [T(CP), T(KG)]], deals=(1, 0, 0), top=[T(KR), T(KR)])
    play(g, T(LM), T(CP), T(YO), T(KG))
    log = g.rounds_log[0]
    assert log.closer is None and log.turns == 4
    # The next round starts left of the last seat that played (seat 1): seat 0.
    assert g.round == 1 and g.starter == 0 and g.current == 0


def test_a_seat_without_cards_is_skipped():
    g = new_game(
        [[T(CP, DOUBLE), T(CP)], [T(LM), T(LM)], [T(YO), T(YO)]], deals=(0, 0, 0), end_count=9
    )
    play(g, T(CP, DOUBLE))
    g.step(A.SECOND + T(CP))  # seat 0 is out of cards
    play(g, T(LM), T(YO))
    assert g.acting == 1 and g.round == 0
    play(g, T(LM), T(YO))  # now nobody holds a card
    assert g.rounds_log[0].closer is None and g.rounds_log[0].turns == 5


# ---------------------------------------------------------------------- ranking and values


def test_ties_go_to_the_artist_earlier_in_priority_order():
    # Krypto, Yoko and Lite Metal 2 cards each: they rank in priority order.
    g = new_game([[T(KR), T(YO), T(LM)], [T(YO), T(KR), T(LM)]], deals=(0, 0, 0), end_count=3)
    play(g, T(KR), T(YO), T(YO), T(KR), T(LM))
    assert g.round == 0
    play(g, T(LM))  # the hands are empty: the round ends with 2 cards of each artist
    log = g.rounds_log[0]
    assert log.ranking == (LM, YO, KR)  # 2 each: priority order decides
    assert log.values == (3, 2, 0, 0, 1)


def test_only_the_top_three_artists_score():
    # Four artists on the table: Karl Gitter (1 card, 4th) pays nothing.
    g = new_game(
        [[T(LM), T(LM), T(CP), T(KG)], [T(YO), T(YO), T(CP), T(LM)]], deals=(0, 0, 0), end_count=3
    )
    play(g, T(LM), T(YO), T(LM), T(YO), T(KG), T(CP), T(CP), T(LM))
    log = g.rounds_log[0]
    assert log.ranking == (LM, YO, CP)
    assert log.values == (3, 2, 1, 0, 0)
    assert log.scores == (2 * 3 + 1 * 1 + 0, 2 * 2 + 1 * 1 + 1 * 3)
    assert g.scores == list(log.scores)


def test_values_accumulate_and_pay_only_when_ranked_that_round():
    # Lite Metal ranks 1st in round 1 (3), unranked in round 2 (pays 0 though it holds 3),
    # 3rd in round 3 (3 + 1 = 4).
    g = new_game(
        [
            [T(LM), T(LM), T(CP), T(CP), T(LM), T(KG)],
            [T(YO), T(YO), T(YO), T(KR), T(KR), T(KR)],
        ],
        deals=(0, 0, 0),
        end_count=2,
    )
    play(g, T(LM), T(YO), T(LM))  # round 1: LM 2, YO 1; seat 0 ends it
    r1 = g.rounds_log[0]
    assert r1.ranking == (LM, YO) and r1.values == (3, 2, 0, 0, 0)
    assert r1.scores == (6, 2)
    assert g.starter == 1  # left of seat 0
    play(g, T(YO), T(CP), T(YO))  # round 2: YO 2, CP 1; seat 1 ends it
    r2 = g.rounds_log[1]
    assert r2.ranking == (YO, CP)
    assert r2.values == (0, 5, 2, 0, 0)  # LM holds 3 but is not ranked: 0
    assert r2.scores == (2, 10)
    assert g.tokens == [3, 5, 2, 0, 0]
    assert g.starter == 0
    play(g, T(CP), T(KR), T(LM), T(KR))  # round 3: KR 2, CP 1, LM 1; seat 1 ends it
    r3 = g.rounds_log[2]
    assert r3.ranking == (KR, LM, CP)
    assert r3.values == (3 + 2, 0, 2 + 1, 0, 3)
    assert r3.scores == (1 * 3 + 1 * 5, 2 * 3)


def test_an_artist_with_no_card_cannot_rank():
    hands = [[T(LM), T(LM), T(YO)], [T(LM), T(YO), T(YO)]]
    g = new_game(hands, deals=(0, 0, 0), end_count=9)
    play(g, T(LM), T(LM), T(LM), T(YO), T(YO), T(YO))
    log = g.rounds_log[0]
    assert log.ranking == (LM, YO)
    assert log.values == (3, 2, 0, 0, 0)


def test_with_the_option_empty_artists_rank_in_priority_order():
    hands = [[T(KR), T(KR), T(YO)], [T(KR), T(YO), T(YO)]]
    g = new_game(hands, deals=(0, 0, 0), end_count=9, rank_empty_artists=True)
    play(g, T(KR), T(KR), T(KR), T(YO), T(YO), T(YO))
    assert g.rounds_log[0].ranking == (YO, KR, LM)  # YO and KR tie at 3: Yoko first
    assert g.rounds_log[0].values == (1, 3, 0, 0, 2)


def test_the_extra_card_counts_for_ranking_but_scores_for_nobody():
    # Krypto: 1 played + the extra = 2 beats the single cards of Lite Metal and Yoko.
    g = new_game([[T(KR), T(LM)], [T(YO), T(CP)]], extra=T(KR), deals=(0, 0, 0), end_count=9)
    play(g, T(KR), T(YO), T(LM), T(CP))
    log = g.rounds_log[0]
    assert log.ranking == (KR, LM, YO) and log.extra == (0, 0, 0, 0, 1)
    assert log.scores == (1 * 3 + 1 * 2, 1 * 1)


# ---------------------------------------------------------------------- symbols


def test_an_award_adds_two_to_its_artist_for_the_rest_of_the_game():
    g = new_game(
        [[T(YO, AWARD), T(YO), T(LM)], [T(LM), T(YO), T(LM)]],
        deals=(0, 0, 0),
        end_count=3,
        award_choice=False,  # the earlier reading: the award goes on the card's own artist
    )
    play(g, T(YO, AWARD))
    assert g.awards == [0, 1, 0, 0, 0] and g.awards_left == 4
    play(g, T(LM), T(YO), T(YO))  # Yoko's 3rd card ends round 1 (seat 1)
    r1 = g.rounds_log[0]
    assert r1.ranking == (YO, LM) and r1.awards == (0, 1, 0, 0, 0)
    assert r1.values == (2, 3 + 2, 0, 0, 0)
    play(g, T(LM), T(LM))  # round 2: only Lite Metal; Yoko unranked: its award pays nothing
    assert g.rounds_log[1].values == (2 + 3, 0, 0, 0, 0)


def test_an_award_on_the_closing_card_still_counts():
    g = new_game(
        [[T(YO), T(YO, AWARD)], [T(YO), T(LM)]], deals=(0, 0, 0), end_count=3, award_choice=False
    )
    play(g, T(YO), T(YO), T(YO, AWARD))
    assert g.rounds_log[0].values[YO] == 3 + 2


def test_award_on_the_closing_card_can_be_switched_off():
    g = new_game(
        [[T(YO), T(YO, AWARD)], [T(YO), T(LM)]],
        deals=(0, 0, 0),
        end_count=3,
        closing_card_effects=False,
    )
    play(g, T(YO), T(YO), T(YO, AWARD))
    assert g.rounds_log[0].values[YO] == 3 and g.awards_left == 5


def test_by_default_the_seat_picks_the_awards_artist():
    # "give an Award to an artist of the player's choice" (CMON): the default
    g = new_game([[T(YO, AWARD), T(LM)], [T(LM), T(LM)]], deals=(0, 0, 0), end_count=9)
    play(g, T(YO, AWARD))
    assert g.phase == AWARD_CHOICE and g.acting == 0
    assert g.legal_actions() == [A.AWARD_TO + a for a in range(5)]
    g.step(A.AWARD_TO + KR)
    assert g.awards == [0, 0, 0, 0, 1] and g.phase == PLAY and g.acting == 1


def test_a_double_plays_a_second_card_of_the_same_artist():
    g = new_game(
        [[T(CP, DOUBLE), T(CP), T(CP, DRAW), T(LM)], [T(LM)] * 4], deals=(0, 0, 0), end_count=9
    )
    play(g, T(CP, DOUBLE))
    assert g.phase == SECOND and g.acting == 0
    assert g.legal_actions() == [A.SECOND + T(CP), A.SECOND + T(CP, DRAW), A.DECLINE]
    g.step(A.SECOND + T(CP))
    assert g.exhibit[0][CP] == 2 and g.phase == PLAY and g.acting == 1
    assert g.turns == 1


def test_the_second_card_carries_out_its_own_symbol():
    g = new_game(
        [[T(CP, DOUBLE), T(CP, DRAW)], [T(LM)] * 2], top=[T(KR)], deals=(0, 0, 0), end_count=9
    )
    play(g, T(CP, DOUBLE))
    g.step(A.SECOND + T(CP, DRAW))
    assert hand(g, 0) == {T(KR): 1} and g.drawn == [1, 0]


def test_the_second_card_of_a_double_is_optional():
    g = new_game([[T(CP, DOUBLE), T(CP)], [T(LM)] * 2], deals=(0, 0, 0), end_count=9)
    play(g, T(CP, DOUBLE))
    g.step(A.DECLINE)
    assert g.exhibit[0][CP] == 1 and hand(g, 0) == {T(CP): 1} and g.acting == 1


def test_a_double_without_a_card_of_its_artist_plays_no_second():
    g = new_game([[T(CP, DOUBLE), T(LM)], [T(LM)] * 2], deals=(0, 0, 0), end_count=9)
    play(g, T(CP, DOUBLE))
    assert g.phase == PLAY and g.acting == 1


def test_a_double_that_ends_the_round_plays_no_second():
    g = new_game(
        [[T(CP), T(CP, DOUBLE), T(CP)], [T(CP), T(LM), T(LM)]], deals=(0, 0, 0), end_count=3
    )
    play(g, T(CP), T(CP), T(CP, DOUBLE))
    assert g.round == 1 and g.rounds_log[0].exhibits[0][CP] == 2


def test_the_second_card_can_end_the_round():
    g = new_game([[T(CP, DOUBLE), T(CP)], [T(CP), T(LM)]], deals=(0, 0, 0), end_count=3)
    play(g, T(CP, DOUBLE))
    g.step(A.SECOND + T(CP))
    assert g.round == 0 and g.artist_count[CP] == 2
    play(g, T(CP))
    assert g.round == 1 and g.rounds_log[0].closer == 1


def test_draw_one_draws_the_top_card_and_it_is_playable_this_round():
    g = new_game(
        [[T(LM, DRAW), T(LM)], [T(YO), T(YO)]],
        top=[T(KR, DOUBLE), T(LM)],
        deals=(0, 0, 0),
        end_count=9,
    )
    play(g, T(LM, DRAW))
    assert hand(g, 0) == {T(LM): 1, T(KR, DOUBLE): 1}
    play(g, T(YO))
    assert A.PLAY + T(KR, DOUBLE) in g.legal_actions()
    play(g, T(KR, DOUBLE))
    assert g.exhibit[0][KR] == 1


def test_draw_one_on_an_empty_deck_draws_nothing():
    # 5 seats x 19 cards: the whole deck is dealt and no extra card is left to turn.
    options = GalleryOptions(hand_size=19, debug=True, symbols=OPEN_MODEL_SYMBOLS)
    g = Game(rigged_deal_all(), 0, options)
    assert not g.pile and g.deck_ran_out and g.extra_count == [0] * 5
    assert g.acting == 0 and g.hands[0][T(LM, DRAW)] == 1
    play(g, T(LM, DRAW))
    assert g.hand_size[0] == 18 and g.missed_draws == 1 and g.drawn == [0] * 5
    assert g.phase == PLAY and g.acting == 1


def rigged_deal_all() -> Deal:
    # Seat 0 gets the five draw cards among its 19 (ids 0, 17, 35, 54, 74 are the draw cards).
    draws = [0, 17, 35, 54, 74]
    rest = [c for c in range(N_CARDS) if c not in draws]
    return Deal(5, tuple(draws + rest))


def test_the_deck_running_out_is_no_crash():
    from ludolab.envs.gallery.agents import make_agent
    from ludolab.envs.gallery.play import play_game

    # Three draw cards per artist and big later deals exhaust the deck.
    options = GalleryOptions(symbols=((3, 1, 1, 0, 0),) * 5, deals=(10, 10, 10), debug=True)
    record = play_game(rigged_deal_all(), [make_agent("random") for _ in range(5)], 1, options)
    assert record.deck_ran_out and record.deck_left == 0
    assert record.rounds == 4 and sum(record.final_scores) > 0


def test_a_face_down_card_is_revealed_at_the_round_end():
    symbols = ((0, 0, 0, 1, 0),) * 5
    g = new_game(
        [[T(LM, FACE_DOWN), T(KR), T(LM)], [T(LM), T(LM), T(YO)]],
        deals=(0, 0, 0),
        end_count=3,
        symbols=symbols,
    )
    play(g, T(LM, FACE_DOWN))
    assert g.phase == SECOND
    assert g.legal_actions() == [A.SECOND + T(LM), A.SECOND + T(KR), A.DECLINE]
    g.step(A.SECOND + T(LM))
    assert g.artist_count[LM] == 1 and g.face_down[0][LM] == 1  # not towards the round end
    play(g, T(LM))
    assert g.round == 0  # 2 face up (+1 face down) < 3
    play(g, T(KR), T(LM))  # 3rd face-up Lite Metal: round ends
    log = g.rounds_log[0]
    assert log.exhibits[0] == (2, 0, 0, 0, 1)  # the face-down card counts once revealed
    assert log.ranking == (LM, KR)


def test_a_simultaneous_card_lets_every_seat_add_a_card_at_once():
    symbols = ((0, 0, 0, 0, 1),) * 5
    g = new_game(
        [[T(YO, SIMULTANEOUS), T(KR), T(LM)], [T(YO), T(LM), T(LM)], [T(CP), T(LM), T(LM)]],
        deals=(0, 0, 0),
        end_count=9,
        symbols=symbols,
    )
    play(g, T(YO, SIMULTANEOUS))
    assert g.phase == SIMULTANEOUS_PLAY and g.acting == 0
    g.step(A.PLAY + T(KR))
    assert g.acting == 1 and g.exhibit[0][KR] == 0  # face down until all have chosen
    g.step(A.DECLINE)
    g.step(A.PLAY + T(CP))
    assert g.exhibit[0][KR] == 1 and g.exhibit[2][CP] == 1 and g.exhibit[1] == [0] * 5
    assert g.phase == PLAY and g.acting == 1 and g.turns == 1


# ---------------------------------------------------------------------- rounds and deals


def test_the_next_round_starts_left_of_the_seat_that_ended_it():
    hands = [[T(LM), T(YO)], [T(LM), T(YO)], [T(KR), T(KG)]]
    g = new_game(hands, deals=(0, 0, 0), end_count=2)
    play(g, T(LM), T(LM))  # seat 1 ends round 1
    assert g.round == 1 and g.starter == 2 and g.acting == 2


def test_the_next_round_can_start_with_the_closer():
    hands = [[T(LM), T(YO)], [T(LM), T(YO)], [T(KR), T(KG)]]
    g = new_game(hands, deals=(0, 0, 0), end_count=2, next_round_start="closer")
    play(g, T(LM), T(LM))
    assert g.starter == 1 and g.acting == 1


def test_the_starter_without_cards_is_skipped():
    hands = [[T(LM), T(YO)], [T(LM), T(YO)], [T(KR), T(KR)]]
    g = new_game(hands, deals=(0, 0, 0), end_count=2)
    play(g, T(LM), T(LM))  # round 2 would start with seat 2
    play(g, T(KR), T(YO), T(YO))  # YO 2: seat 1 ends round 2; seat 2 still holds KR
    assert g.round == 2 and g.starter == 2 and g.acting == 2
    play(g, T(KR))  # seat 2 plays its last card; seats 0 and 1 are empty: round 3 ends
    assert g.rounds_log[2].closer is None and g.rounds_log[2].turns == 1
    # Round 4 deals nothing: nobody holds a card, it ends at once and the game is over.
    assert g.rounds_log[3].turns == 0 and g.phase == GAME_OVER


@pytest.mark.parametrize(
    ("n", "later"), [(2, (6, 6, 3)), (3, (6, 6, 0)), (4, (4, 4, 0)), (5, (2, 2, 0))]
)
def test_later_deals_by_player_count(n, later):
    from ludolab.envs.gallery.agents import make_agent
    from ludolab.envs.gallery.deal import shuffled_deal
    from ludolab.envs.gallery.play import play_game

    g = Game(shuffled_deal(n, 7), 0, GalleryOptions())
    assert g.later_deals == later
    assert g.hand_size == [13] * n
    record = play_game(shuffled_deal(n, 7), [make_agent("random") for _ in range(n)], 3)
    assert record.cards_dealt == (13 + sum(later),) * n


def test_round_one_hands_and_extra_card_come_from_the_deal_in_blocks():
    g = Game(rigged_deal([[T(LM), T(YO)], [T(CP), T(KG)]], T(KR)), 0, GalleryOptions(hand_size=2))
    assert hand(g, 0) == {T(LM): 1, T(YO): 1} and hand(g, 1) == {T(CP): 1, T(KG): 1}
    assert g.extra_count == [0, 0, 0, 0, 1]


def test_later_deals_come_in_seat_order_from_the_top():
    g = new_game([[T(LM)], [T(LM)]], top=[T(YO), T(YO), T(CP), T(CP)], deals=(2, 0, 0), end_count=2)
    play(g, T(LM), T(LM))
    assert hand(g, 0) == {T(YO): 2} and hand(g, 1) == {T(CP): 2}


def test_four_rounds_then_shared_wins():
    g = new_game([[T(LM)] * 4, [T(LM)] * 4], deals=(0, 0, 0), end_count=2)
    for _ in range(4):
        play(g, T(LM), T(LM))
    assert g.phase == GAME_OVER and g.round == 4
    assert g.scores[0] == g.scores[1] and g.winners == (0, 1) and g.winner is None


# ---------------------------------------------------------------------- illegal actions


def test_an_illegal_action_is_a_clear_error_and_changes_nothing():
    g = new_game([[T(LM), T(YO)], [T(CP), T(KG)]], deals=(0, 0, 0))
    before = (g.n_actions, [h.copy() for h in g.hands], g.phase)
    with pytest.raises(IllegalActionError, match=r"action 12 \(play\(Christin P\.\)\).*phase play"):
        g.step(A.PLAY + T(CP))  # seat 1's card, seat 0 to act
    with pytest.raises(IllegalActionError, match="decline.*phase play"):
        g.step(A.DECLINE)
    with pytest.raises(IllegalActionError, match="invalid action 999"):
        g.step(999)
    with pytest.raises(IllegalActionError, match="not an integer"):
        g.step("play")  # type: ignore[arg-type]
    assert (g.n_actions, g.hands, g.phase) == before


def test_actions_after_the_game_are_errors():
    g = new_game([[T(LM)] * 4, [T(LM)] * 4], deals=(0, 0, 0), end_count=2)
    for _ in range(4):
        play(g, T(LM), T(LM))
    with pytest.raises(IllegalActionError, match="game is over"):
        g.step(A.PLAY + T(LM))
