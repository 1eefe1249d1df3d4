"""``lookahead``: plays the placement round ahead before choosing its first settlement, and
(optionally) tries each deterministic main-phase action on a copy of the game.

**The placement round** (default). For its first settlement the agent takes the
``candidates`` best spots by the greedy agent's value of a fresh spot, and for each plays the
rest of the placement round out on a copy of the game with a greedy agent in every seat, its
own included (placements draw nothing at random, so one play-out per spot is the whole
answer under that model of the others). It keeps the spot whose settlements are worth most
when the round is over: the greedy value of the first as a fresh spot plus that of the second
given the first's production (:func:`~ludolab.envs.catan.agents.greedy.spot_value`). Greedy
chooses its first settlement without asking what the others will leave for its second.

**The play-off** (``playouts``, default 128; 0 turns it off). The ``finalists`` best spots
(default 5: by the placement round's value for the first settlement, by greedy's value for the
second) are each played to the end of the game from ``playouts`` determinisations (what the
seat cannot see, the development deck and the dice, dealt again as the search agent deals them:
:func:`ludolab.envs.catan.agents.determinise.determinise`), with a greedy agent in every seat, the
same dice and tie-breaks for every spot; the spot that wins most is placed, the better-ranked
one on a tie. This is flat Monte Carlo over a few candidates, without a tree; ``mcts`` searches
every placement with a tree and a larger budget. Strength against three greedy agents:
``benchmarks/agent_strength.py`` (match ``catan-lookahead-vs-greedy``). The budget was 32
play-outs of 3 finalists until 599ee1c; a win rate from 32 games has a standard error near 8
points, larger than the differences between good spots. Every comparison run since favours 128
of 5, though none by more than its own noise (benchmarks/README.md, "The lookahead's budget").

**The main phase** (``main=true``). The agent applies every legal build (settlement, city,
road), bank trade and year-of-plenty choice to a copy of the game and scores the resulting
position with a linear value function of what its seat can see (:meth:`LookaheadAgent.value`).
It takes the best action if it beats the current position (ending the turn) by a margin.
Actions whose outcome is chance or hidden information — buying a card, knights and the robber,
monopoly (it would read opponents' hands), road building, domestic offers — follow the greedy
policy. This was the agent's only lookahead before the placement round, and on its own
(``lookahead:candidates=1,main=true``, the agent as it was) it is *weaker* than greedy against
three greedy agents; on top of the placement round it adds nothing measurable
(benchmarks/README.md). It is off by default and kept for studies that used it.

Every other decision follows the greedy policy the agent inherits from
:class:`~ludolab.envs.catan.agents.greedy.GreedyAgent`. Trials are played on copies, so
deciding never changes the real game. The main phase's copies share the random streams
(``game.clone(share_randomness=True)``; safe because only actions that draw nothing are tried,
and ~1.5x faster lookahead games, measured); the placement round's copies copy them, since
the last placement starts the first turn, whose dice are rolled at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from ludolab.envs.catan import actions as A
from ludolab.envs.catan import native
from ludolab.envs.catan.agents.determinise import determinise
from ludolab.envs.catan.agents.greedy import (
    BUILD_COSTS,
    CITY,
    DEV,
    N_RES,
    ROAD,
    SETTLEMENT,
    SETTLEMENTS_PER_PLAYER,
    GreedyAgent,
    spot_value,
)
from ludolab.envs.catan.agents.native_seats import native_seats
from ludolab.envs.catan.engine import (
    DEV_COST,
    KNIGHT,
    SETUP_ROAD,
    SETUP_SETTLEMENT,
    VICTORY_POINT,
    Game,
    tables,
)
from ludolab.envs.catan.loop import play_out

# Deterministic main-phase actions the lookahead tries: builds, bank trades, year of plenty.
_TRIED_RANGES = ((A.SETTLEMENT, A.ROBBER), (A.YEAR_OF_PLENTY, A.MONOPOLY), (A.MARITIME, A.OFFER))


# First-settlement spots played ahead, by default.
_CANDIDATES = 12
# Play-outs per finalist spot, and how many spots reach the play-off, by default.
_PLAYOUTS = 128
_FINALISTS = 5


def _tried(a: int) -> bool:
    return any(lo <= a < hi for lo, hi in _TRIED_RANGES)


# Compiled (setup.py), a class refuses Python subclasses unless allowed: a variant of this agent
# is a subclass in a researcher's own module.
@mypyc_attr(allow_interpreted_subclasses=True)
class LookaheadAgent(GreedyAgent):
    """Lookahead over the placement round (and with ``main=true`` over deterministic
    main-phase actions), greedy elsewhere; see the module docstring.

    ``candidates``: how many first-settlement spots (the best by greedy's fresh-spot value)
    are played ahead; 1 or fewer skips the placement round. ``playouts`` and ``finalists``:
    the play-off of the best spots (``playouts=0``: none; with ``candidates=1`` as well, the
    settlements are greedy's). ``main``: also look one action ahead in the main phase, scoring
    positions as follows.

    Value of a position for the agent's seat (all weights are parameters; units in brackets):

    * ``w_vp`` x its victory points (its own hidden cards included) [per point];
    * ``w_prod`` x production: pips x building level x the board's resource weights;
    * ``w_diversity`` x resources it produces at all [0..5];
    * ``w_hand`` x hand usefulness: max over builds of priority x (fraction of the cost held)^2,
      plus ``w_card`` per card held, minus ``w_discard`` per card above the discard limit;
    * ``w_dev`` x unplayed non-victory development cards;
    * ``w_harbor`` x harbor value: per 2:1 harbor its weighted production of that resource / 5,
      a 3:1 harbor 1;
    * ``w_road`` x its road length (capped at the length that would hold the card);
    * ``w_army`` x knights played;
    * ``w_expand`` x the best open settlement spot within two paths of its network (x0.6 per path
      of road still needed), while it has settlements left;
    * minus ``w_threat`` x the best opponent's public victory points.

    ``margin``: an action must beat ending the turn by this much to be taken. The greedy
    parameters (``trade``, ``offers``, ``dev_cards``, ``robber``) steer the fallback policy;
    ``trade=false`` also stops the lookahead from trying bank trades.
    """

    name = "lookahead"
    # Greedy's main phase asks game.is_legal; with ``main`` the lazy view is read in full, which
    # is still correct (a LegalView is a sequence).
    lazy_legal = True

    _DEFAULT_WEIGHTS = {
        "w_vp": 10.0,
        "w_prod": 0.6,
        "w_diversity": 1.5,
        "w_hand": 4.0,
        "w_card": 0.3,
        "w_discard": 0.5,
        "w_dev": 2.0,
        "w_harbor": 1.0,
        "w_road": 0.8,
        "w_army": 1.5,
        "w_expand": 0.4,
        "w_threat": 3.0,
        "margin": 0.05,
    }

    def __init__(
        self,
        trade: bool = True,
        offers: bool = True,
        dev_cards: bool = True,
        robber: str = "leader",
        w_vp: float = 10.0,
        w_prod: float = 0.6,
        w_diversity: float = 1.5,
        w_hand: float = 4.0,
        w_card: float = 0.3,
        w_discard: float = 0.5,
        w_dev: float = 2.0,
        w_harbor: float = 1.0,
        w_road: float = 0.8,
        w_army: float = 1.5,
        w_expand: float = 0.4,
        w_threat: float = 3.0,
        margin: float = 0.05,
        candidates: int = _CANDIDATES,
        main: bool = False,
        playouts: int = _PLAYOUTS,
        finalists: int = _FINALISTS,
    ) -> None:
        super().__init__(trade=trade, offers=offers, dev_cards=dev_cards, robber=robber)
        if isinstance(candidates, bool) or not isinstance(candidates, int):
            raise ValueError(f"candidates must be a whole number, got {candidates!r}")
        self.candidates = candidates
        for key, value in (("playouts", playouts), ("finalists", finalists)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key} must be a whole number >= 0, got {value!r}")
        self.playouts = playouts
        self.finalists = finalists
        # Per finalist spot, its play-out wins at the last settlement chosen (to inspect).
        self.last_wins: dict[int, float] = {}
        self.main = bool(main)
        # One greedy agent per seat for the placement round's play-outs (made on first use).
        self._placers: list[GreedyAgent] = []
        self._seed = 0
        self.w_vp = float(w_vp)
        self.w_prod = float(w_prod)
        self.w_diversity = float(w_diversity)
        self.w_hand = float(w_hand)
        self.w_card = float(w_card)
        self.w_discard = float(w_discard)
        self.w_dev = float(w_dev)
        self.w_harbor = float(w_harbor)
        self.w_road = float(w_road)
        self.w_army = float(w_army)
        self.w_expand = float(w_expand)
        self.w_threat = float(w_threat)
        self.margin = float(margin)

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        self._seed = seed  # the placement round's play-outs are seeded with the game's seed

    @property
    def spec(self) -> str:
        base = super().spec
        parts = [
            f"{k}={getattr(self, k):g}"
            for k, default in self._DEFAULT_WEIGHTS.items()
            if getattr(self, k) != default
        ]
        if self.candidates != _CANDIDATES:
            parts.append(f"candidates={self.candidates}")
        if self.main:
            parts.append("main=true")
        if self.playouts != _PLAYOUTS:
            parts.append(f"playouts={self.playouts}")
        if self.finalists != _FINALISTS:
            parts.append(f"finalists={self.finalists}")
        if not parts:
            return self.name + base[len(self.name) :]
        sep = "," if ":" in base else ":"
        return self.name + base[len(self.name) :] + sep + ",".join(parts)

    # ------------------------------------------------------------------ the value function

    def value(self, game: Game) -> float:
        """Value of ``game`` for this agent's seat; see the class docstring for the terms."""
        p = self.seat
        if game.winner is not None:
            return 1e9 if game.winner == p else -1e9
        info = self.info
        weight = info.weight
        prod = self.production(game, p, cached=game is self._game)
        hand = game.hands[p]
        v = self.w_vp * game.victory_points(p)

        prod_value = 0.0
        kinds = 0
        for r in range(N_RES):
            if prod[r]:
                prod_value += weight[r] * prod[r]
                kinds += 1
        v += self.w_prod * prod_value + self.w_diversity * kinds

        # Hand: how close the best build is, the cards themselves, and the 7's threat.
        has_spot = bool(game.settlements_left[p]) and bool(game.settlement_spots(p))
        on_board = SETTLEMENTS_PER_PLAYER - game.settlements_left[p]
        priorities = (
            (CITY, 1.0 if game.cities_left[p] and on_board else 0.0),
            (SETTLEMENT, 1.0 if has_spot else 0.0),
            (DEV, 0.6 if self.dev_cards and game.dev_deck else 0.0),
            (ROAD, 0.4 if game.roads_left[p] else 0.0),
        )
        useful = 0.0
        for kind, priority in priorities:
            if priority:
                cost = BUILD_COSTS[kind]
                held = sum(min(h, c) for h, c in zip(hand, cost, strict=True))
                frac = held / sum(cost)
                useful = max(useful, priority * frac * frac)
        size = game.hand_size[p]
        v += self.w_hand * useful + self.w_card * size
        over = size - game.options.discard_limit
        if over > 0:
            v -= self.w_discard * over

        dev = game.dev_hand[p]
        v += self.w_dev * (sum(dev) - dev[VICTORY_POINT])
        rates = game.rates[p]
        harbor = 0.0
        for r in range(N_RES):
            if rates[r] == 2:
                harbor += weight[r] * prod[r] / 5.0
        if min(rates) == 3 or (min(rates) == 2 and max(rates) == 3):
            harbor += 1.0
        v += self.w_harbor * harbor

        n = game.n_players
        others = [q for q in range(n) if q != p]
        longest_other = max(game.road_length[q] for q in others)
        v += self.w_road * min(game.road_length[p], max(5, longest_other + 1))
        v += self.w_army * game.dev_played[p][KNIGHT]
        if game.settlements_left[p]:
            v += self.w_expand * self._expansion(game)
        v -= self.w_threat * max(game.vp_public[q] for q in others)
        return v

    def _expansion(self, game: Game) -> float:
        """Best open spot reachable from the seat's network, discounted x0.6 per road needed."""
        p = self.seat
        owner, ro, free = game.owner, game.road_owner, game.site_free
        links = tables().node_links
        prod = self.production(game, p, cached=game is self._game)
        best = 0.0
        seen = set(game.network[p])
        frontier = [v for v in seen if owner[v] < 0 or owner[v] == p]
        scale = 1.0
        for depth in range(3):
            nxt = []
            for v in frontier:
                if free[v] and (depth or any(ro[e] == p for e, _ in links[v])):
                    value = scale * self.spot_value(v, prod)
                    if value > best:
                        best = value
                if depth == 2 or (owner[v] >= 0 and owner[v] != p):
                    continue
                for e, w in links[v]:
                    if w not in seen and ro[e] < 0:
                        seen.add(w)
                        nxt.append(w)
            frontier = nxt
            scale *= 0.6
        return best

    def _best_build_value(self, game: Game) -> float:
        """Best value after one more build (settlement, city, road) in ``game``; -inf if none."""
        best = float("-inf")
        for a in game.legal_actions():
            if A.SETTLEMENT <= a < A.ROBBER:
                trial = game.clone(share_randomness=True)
                trial.step(a)
                best = max(best, self.value(trial))
        return best

    # ------------------------------------------------------------------ the placement round

    def _setup_settlement(self, game: Game, legal: Sequence[int]) -> int:
        p = self.seat
        first = not any(self.production(game, p))
        if not first or self.candidates <= 1:
            best = super()._setup_settlement(game, legal)
            if self.playouts and self.finalists > 1 and len(legal) > 1:
                values = self.setup_spot_values(game, legal)
                ranked = sorted(range(len(legal)), key=lambda i: -values[i])
                # Greedy's choice first (its tie-break), then the next best spots.
                others = [legal[i] for i in ranked if legal[i] != best]
                return self._play_off(game, [best, *others][: self.finalists])
            return best
        fresh = self.info.fresh_value
        spots = sorted(legal, key=lambda a: -fresh[a - A.SETTLEMENT])[: self.candidates]
        placers = self._placement_agents(game.n_players)
        valued: list[tuple[float, int]] = []
        for a in spots:
            # A full copy, random streams too: the last placement rolls the first turn's dice.
            trial = game.clone()
            trial.step(a)
            for q, placer in enumerate(placers):
                # The game's seed for every spot: the others break ties alike in each play-out.
                placer.reset(q, self._seed)
            while trial.phase == SETUP_SETTLEMENT or trial.phase == SETUP_ROAD:
                placer = placers[trial.acting]
                trial.step(placer.act(trial, trial.legal_actions()))
            valued.append((self._placement_value(trial, a - A.SETTLEMENT), a))
        # Stable: equal values keep greedy's order.
        valued.sort(key=lambda va: -va[0])
        if self.playouts and self.finalists > 1:
            return self._play_off(game, [a for _, a in valued[: self.finalists]])
        return valued[0][1]

    def _placement_agents(self, n_players: int) -> list[GreedyAgent]:
        if len(self._placers) != n_players:
            self._placers = [
                GreedyAgent(self.trade, self.offers, self.dev_cards, self.robber)
                for _ in range(n_players)
            ]
        return self._placers

    def _play_off(self, game: Game, spots: list[int]) -> int:
        """The spot of ``spots`` (best first) that wins most play-outs: from each of
        ``playouts`` determinisations (what the seat cannot see dealt again), every spot is
        placed and the game played to its end by greedy agents in every seat, with the same
        dice and tie-breaks for each spot. A tie keeps the earlier spot."""
        placers = self._placement_agents(game.n_players)
        me = self.seat
        wins = [0.0] * len(spots)
        # The native core plays the trials when it is built (not in debug mode): the same
        # games, with its copies of the greedy placers (tests/test_native_core.py).
        in_core = not game.options.debug and native_seats(placers, 0) is not None
        for _ in range(self.playouts):
            deal = determinise(game, me, self.rng)
            seed = self.rng.getrandbits(62)
            mirror = native.mirror_of(deal) if in_core else None
            seats = native_seats(placers, seed) if mirror is not None else None
            for k, a in enumerate(spots):
                winner: int | None
                if mirror is not None:
                    copy: Any = mirror.core.clone()
                    copy.step(a)
                    copy.play(seats)
                    winner = copy.winner
                else:
                    trial = deal.clone()
                    trial.step(a)
                    play_out(trial, placers, seed)
                    winner = trial.winner
                if winner == me:
                    wins[k] += 1.0
                elif winner is None:  # cut off at the turn limit: a share
                    wins[k] += 1.0 / game.n_players
        self.last_wins = dict(zip(spots, wins, strict=True))
        best = 0
        for k in range(1, len(spots)):
            if wins[k] > wins[best]:
                best = k
        return spots[best]

    def _placement_value(self, game: Game, first: int) -> float:
        """The seat's buildings after the placement round, by greedy's spot values: ``first``
        as a fresh spot, then each other building given the production before it."""
        p = self.seat
        info = self.info
        prod = list(info.node_pips[first])
        value = info.fresh_value[first]
        for v in sorted(game.network[p]):
            if v != first and game.owner[v] == p:
                value += spot_value(info, v, prod)
                k = game.building[v]
                row = info.node_pips[v]
                for r in range(N_RES):
                    prod[r] += k * row[r]
        return value

    # ------------------------------------------------------------------ the main phase

    def _main(self, game: Game, legal: Sequence[int]) -> int:
        if not self.main:
            return super()._main(game, legal)
        p = self.seat
        if self.dev_cards:
            play = self._dev_play(game, legal)
            # Year of plenty is tried below with the other deterministic actions.
            if play is not None and not A.YEAR_OF_PLENTY <= play < A.MONOPOLY:
                return play

        base = self.value(game)
        best, best_value = A.END_TURN, base + self.margin
        rand = self.rng.random
        for a in legal:
            if not _tried(a):
                continue
            if not self.trade and A.MARITIME <= a < A.OFFER:
                continue
            if not self.dev_cards and A.YEAR_OF_PLENTY <= a < A.MONOPOLY:
                continue
            trial = game.clone(share_randomness=True)
            trial.step(a)
            value = self.value(trial)
            if A.MARITIME <= a < A.OFFER and trial.winner is None:
                # A trade is worth what it enables: look one build further.
                value = max(value, self._best_build_value(trial))
            value += 1e-6 * rand()
            if value > best_value:
                best, best_value = a, value
        if self.dev_cards and A.BUY_DEV in legal:
            # The card drawn is hidden: value the purchase as the hand after paying plus the
            # expected worth of an unknown card (``w_dev`` plus a 5-in-25 chance of a point).
            trial = game.clone(share_randomness=True)
            hand, bank = trial.hands[p], trial.bank
            for r in range(N_RES):
                hand[r] -= DEV_COST[r]
                bank[r] += DEV_COST[r]
            trial.hand_size[p] -= sum(DEV_COST)
            value = self.value(trial) + self.w_dev + 0.2 * self.w_vp
            if value > best_value:
                best, best_value = A.BUY_DEV, value
        if best != A.END_TURN:
            return best

        if self.offers:
            offer = self._offer(game, legal)
            if offer is not None:
                return offer
        return A.END_TURN


__all__ = ["LookaheadAgent"]
