"""Information-set Monte Carlo tree search, shared by both games' search agents.

Single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley and Whitehouse, "Information
Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012). The agent cannot see the other seats'
hands or the order of the deck, so each iteration starts from a *determinisation*: a copy of
the game in which everything hidden from the agent's seat is dealt again at random,
consistently with what that seat can see (the game-specific part, :meth:`SearchAgent.determinise`).
One tree is grown over all those copies: a node is a sequence of decisions, and its children
are the actions tried there. An action is open at a node only in the copies where it is
legal, so the exploration term counts how often a child was *available* rather than how
often its parent was visited. Every seat's decisions are in the tree, each chosen by UCB1 on
the rewards of the seat deciding (rewards are kept per seat, as in max^n search).

Each iteration: (1) determinise; (2) descend while every open action has a child, choosing by
UCB1; (3) add one child (the playout policy's choice first, then the untried actions in random
order) and step into it; (4) play the copy out with the playout policy (one agent per seat,
``policy``); (5) add the outcome (per seat: 1 for a win, shared on ties) to every node on the
path. After the budget the agent plays the root's most visited action.

**Sequential halving at the root** (``root=halving``; Karnin, Koren and Somekh 2013, as in
Gumbel MuZero's root): instead of UCB1, the root's actions are all tried from the same
determinisations (common random numbers: the same hidden cards and dice for each), the worse
half dropped, and so on until one is left, the budget spread evenly over the ``log2(k)``
rounds; below each root action the tree grows as above (or, where the agent judges the decision
*flat*, the playout policy simply plays on from each root action: no tree, no random
expansions below the root; parameter ``flat``). Compared on the same determinisations,
two actions' difference no longer carries the luck they share, which matters where a game's
outcome is mostly luck (4-player Catan). Its budget is ``playouts`` (``seconds`` applies to
``root=ucb`` only).

**Progressive widening** (``widen``): a node with ``v`` visits may have at most
``max(1, round(widen * sqrt(v)))`` children. With a small budget and many legal actions (a
Catan main phase has dozens) the search then compares the playout policy's choice with a few
alternatives rather than spreading a few playouts over every action; ``widen=0`` opens every
legal action at once (plain SO-ISMCTS).

Decisions with one legal action, and actions the rules force (``game.forced_action()``), are
taken without a node. The budget is ``playouts`` iterations per decision, or ``seconds`` of
wall time when that is set (then a game depends on the machine's speed and is no longer
reproducible from its seed); every random choice comes from the agent's ``rng``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from ludolab.envs.agents import Agent, spec_string


class Node:
    """One decision point of the tree: children by action, visits, availability, and the
    summed reward of each seat over the iterations through it."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self, n_players: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * n_players

    def add(self, reward: list[float]) -> None:
        """Count one iteration through this node that ended with ``reward`` (per seat)."""
        self.visits += 1
        total = self.total
        for q in range(len(total)):
            total[q] += reward[q]


class SearchAgent(Agent):
    """The game-independent part of an IS-MCTS agent; each game's subclass supplies
    :meth:`determinise`, :meth:`outcome` and the playout policies it allows.

    Parameters: ``playouts`` iterations per decision (>= 1); ``seconds`` a wall-time budget
    per decision instead (0 = use ``playouts``); ``c`` the UCB1 exploration constant (rewards
    are in [0, 1]); ``policy`` the playout policy, a registry name of the same game
    (``random``, ``greedy``, ...); ``widen`` the progressive-widening constant (0 = off);
    ``root`` how the root's action is chosen, ``ucb`` (most visited) or ``halving``
    (sequential halving; see the module docstring); ``flat`` (with ``root=halving``) judge each
    root action by play-outs alone, the playout policy playing on from it with no tree below
    it (a game's agent may keep some decisions out: :meth:`judged_flat`).
    """

    name = "mcts"
    policies: tuple[str, ...] = ("random", "greedy")
    _DEFAULTS: dict[str, object] = {
        "playouts": 200,
        "seconds": 0.0,
        "c": 0.7,
        "policy": "greedy",
        "widen": 1.0,
        "root": "ucb",
        "flat": False,
    }

    def __init__(
        self,
        playouts: int = 200,
        seconds: float = 0.0,
        c: float = 0.7,
        policy: str = "greedy",
        widen: float = 1.0,
        root: str = "ucb",
        flat: bool = False,
    ) -> None:
        super().__init__()
        if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
            raise ValueError(f"playouts must be a whole number >= 1, got {playouts!r}")
        for key, value in (("seconds", seconds), ("c", c), ("widen", widen)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{key} must be a number >= 0, got {value!r}")
        if policy not in self.policies:
            raise ValueError(f"policy must be one of {', '.join(self.policies)}, got {policy!r}")
        self.playouts = playouts
        self.seconds = float(seconds)
        self.c = float(c)
        self.policy = policy
        if root not in ("ucb", "halving"):
            raise ValueError(f"root must be ucb or halving, got {root!r}")
        if root == "halving" and seconds:
            raise ValueError("seconds applies to root=ucb; with root=halving give playouts")
        if not isinstance(flat, bool):
            raise ValueError(f"flat must be true or false, got {flat!r}")
        if flat and root != "halving":
            raise ValueError("flat applies to root=halving (the root's actions compared flat)")
        self.widen = float(widen)
        self.root = root
        self.flat = flat
        self._players: list[Agent] = []
        self._policy_seeds: list[int] = []  # what each of _players was reset with
        self.playouts_done = 0  # play-outs (iterations) since reset: benchmarks/search_cost.py

    @property
    def spec(self) -> str:
        return spec_string(self.name, self._parameters(), self._DEFAULTS)

    def _parameters(self) -> dict[str, object]:
        """The parameters a spec records, by name (a game's agent may add its own)."""
        return {
            "playouts": self.playouts,
            "seconds": self.seconds,
            "c": self.c,
            "policy": self.policy,
            "widen": self.widen,
            "root": self.root,
            "flat": self.flat,
        }

    # -- the game-specific part -------------------------------------------------------------

    def determinise(self, game: Any) -> Any:
        """A copy of ``game`` with everything hidden from ``self.seat`` dealt again from
        ``self.rng``, consistently with what the seat can see."""
        raise NotImplementedError

    def outcome(self, game: Any) -> list[float]:
        """Per seat, the reward of a finished (or cut-off) game, in [0, 1]."""
        raise NotImplementedError

    def make_policy(self, name: str) -> Agent:
        """A fresh playout agent of this game by registry name."""
        raise NotImplementedError

    def policy_action(self, agent: Agent, game: Any) -> int:
        """The playout agent's choice in ``game`` (a game may pass it a cheaper view of the
        legal actions)."""
        return agent.act(game, game.legal_actions())

    # -- the search -------------------------------------------------------------------------

    def reset(self, seat: int, seed: int) -> None:
        super().reset(seat, seed)
        self._players = []
        self.playouts_done = 0

    def _policy_agents(self, n_players: int) -> list[Agent]:
        if len(self._players) != n_players:
            self._players = [self.make_policy(self.policy) for _ in range(n_players)]
            # Their own streams, apart from the real game's agents and from this one's (the
            # seeds kept: a game's native copies of the agents are seeded alike).
            self._policy_seeds = [self.rng.getrandbits(62) for _ in range(n_players)]
            for q, agent in enumerate(self._players):
                agent.reset(q, self._policy_seeds[q])
        return self._players

    def budget(self, game: Any) -> int:
        """The iterations for the decision in ``game`` (a game's agent may give some decisions
        more than others); ``playouts`` here."""
        return self.playouts

    def act(self, game: Any, legal: Sequence[int]) -> int:
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        players = self._policy_agents(game.n_players)
        budget = self.budget(game)
        if self.root == "halving":
            return self._halving(game, legal, players, budget)
        root = Node(game.n_players)
        deadline = time.perf_counter() + self.seconds if self.seconds else 0.0
        done = 0
        while True:
            self._iterate(root, self.determinise(game), players)
            done += 1
            self.playouts_done += 1
            if (deadline and time.perf_counter() >= deadline) or (not deadline and done >= budget):
                break
        me = self.seat

        def rank(a: int) -> tuple[int, float]:
            child = root.children.get(a)
            if child is None:
                return (-1, 0.0)
            return (child.visits, child.total[me] / child.visits)

        return max(legal, key=rank)

    def _halving(self, game: Any, legal: list[int], players: list[Agent], budget: int) -> int:
        """Sequential halving at the root (Karnin, Koren and Somekh 2013): every action left
        is tried from the same determinisations (common random numbers), then the worse half
        goes, until one is left; below each root action the tree grows as usual. ``budget``:
        the iterations, spread evenly over the rounds."""
        me, n = self.seat, game.n_players
        children = {a: Node(n) for a in legal}  # each iteration from one adds to its totals
        left = list(legal)
        rounds = math.ceil(math.log2(len(left)))
        flat = self.judged_flat(game)
        for _ in range(rounds):
            reps = max(1, budget // (len(left) * rounds))
            self.playouts_done += reps * len(left)
            if flat:
                self._flat_round(game, left, players, reps, children)
            else:
                for _ in range(reps):
                    shared = self.determinise(game)
                    for a in left:
                        copy = self.copy(shared)
                        copy.step(a)
                        self._iterate(children[a], copy, players)
            # stable: ties keep legal order
            left.sort(key=lambda a: -children[a].total[me] / children[a].visits)
            left = left[: math.ceil(len(left) / 2)]
        return left[0]

    def _flat_round(
        self, game: Any, left: list[int], players: list[Agent], reps: int, children: dict[int, Node]
    ) -> None:
        """One round of sequential halving judged flat: ``reps`` determinisations, and from each
        every action of ``left`` played out by the playout policy, its outcome added to the
        action's node in ``children`` (a game's agent may do the same faster, draw for draw)."""
        for _ in range(reps):
            shared = self.determinise(game)
            for a in left:
                copy = self.copy(shared)
                copy.step(a)
                self._play_out(copy, players)
                children[a].add(self.outcome(copy))

    def judged_flat(self, game: Any) -> bool:
        """Whether, at this decision, sequential halving judges each root action by play-outs
        alone (the playout policy plays on from it, no tree below it): ``flat`` here; a game's
        agent may keep some decisions out (Catan's placements)."""
        return self.flat

    def copy(self, game: Any) -> Any:
        """An independent copy of a determinisation, its random streams copied too (each root
        action then meets the same dice)."""
        return game.clone()

    def _iterate(self, root: Node, game: Any, players: list[Agent]) -> list[float]:
        """One iteration from ``root`` on the determinisation ``game``; the rewards."""
        node = root
        path = [root]
        rng = self.rng
        while not game.done:
            forced = game.forced_action()
            if forced >= 0:
                game.step(forced)
                continue
            legal = game.legal_actions()
            if len(legal) == 1:
                game.step(legal[0])
                continue
            children = node.children
            open_children = [a for a in legal if a in children]
            cap = len(legal)
            if self.widen:
                cap = min(cap, max(1, round(self.widen * math.sqrt(node.visits))))
            for a in open_children:
                children[a].avail += 1
            if len(open_children) < cap:  # add a child, then play out from it
                if not children:
                    a = self.policy_action(players[game.acting], game)
                else:
                    untried = [x for x in legal if x not in children]
                    a = untried[int(rng.random() * len(untried))]
                child = children[a] = Node(game.n_players)
                child.avail = 1
                game.step(a)
                path.append(child)
                break
            seat = game.acting
            best, best_score = -1, -math.inf
            for a in open_children:
                child = children[a]
                score = child.total[seat] / child.visits + self.c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best, best_score = a, score
            node = children[best]
            game.step(best)
            path.append(node)
        self._play_out(game, players)
        reward = self.outcome(game)
        for visited in path:
            visited.add(reward)
        return reward

    def _play_out(self, game: Any, players: list[Agent]) -> None:
        while not game.done:
            forced = game.forced_action()
            game.step(forced if forced >= 0 else self.policy_action(players[game.acting], game))
