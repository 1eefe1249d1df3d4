"""The conformance suite for games: what the author of a new game runs first.

In the spirit of OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test``,
:func:`check_game` takes a game (a :class:`ludolab.games.Game`, or the name it is registered
under) through everything ludolab's generic layers rely on, and stops at the first thing that
is wrong with a :class:`ConformanceError` whose message starts with the check's name and says
what was wrong and how to fix it. The checks, in order (:data:`CHECKS`):

1. ``description``: the static facts (name, protocol, seat counts, samplers, options, config
   keys, the setup and record types, the record's core fields, a ``random`` agent).
2. ``setups``: ``fair_setup`` for each seat count is of ``setup_type``, deterministic, and
   survives JSON and ``setup_from_dict``.
3. ``determinism``: ``play`` gives the same record twice, and the reference engine
   (``new_state``, ``play_out``, ``state_record``) gives the record ``play`` gives.
4. ``legal actions``: games stepped decision by decision with random legal actions: sorted,
   distinct, non-empty legal actions, a forced action among them, a seat acting, the engine's
   own invariants after every step (``invariants`` in the message when they fail), an end.
5. ``illegal actions``: actions outside ``legal_actions()`` raise ``IllegalActionError`` and
   leave the state as it was.
6. ``clone``: a clone and its original, stepped apart, never change each other.
7. ``record core``: the record's core fields (:data:`ludolab.games.RECORD_CORE`) say what was
   played.
8. ``record table``: the records as a games table (``records_columns``) hold what
   ``to_dict()`` says.
9. ``metrics``: the per-game metrics, the common ones and the game's own, one row per game.
10. ``run``: a tiny experiment end to end (``run_experiment``), twice, with byte-identical
    games (only with ``run=True``; it needs the game to be registered).

Use it from a shell or in the game's own tests::

    from ludolab.testing import check_game

    check_game("mygame")            # raises ConformanceError at the first failure

    def test_mygame_conforms():    # pytest
        report = check_game("mygame")
        assert report.checks[-1] == "run"

An unregistered game (a ``Game`` instance not yet installed under the ``ludolab.games`` entry
points) passes ``run=False``; its ``metrics`` check then computes only the game's own metrics
(``per_game_metrics`` looks games up by registered name).

Every random choice comes from ``seed``: the setups' and the games' seeds, the actions of the
step-by-step games (a seeded choice among the legal actions, or the forced one), the probes of
the illegal-action check; the agents' seeds come from the game seeds, as in any run. Game ``i``
of ``games`` is played with the default seat count, then the minimum, the maximum and the
counts between, in turn. The step-by-step checks play every game to its end, up to
:data:`MAX_DECISIONS` decisions (a game that takes more fails ``legal actions``): with the
defaults, the built-in games pass every check but ``run`` in about a second; ``run`` takes as
long as the game's sampler takes to draw its smoke set's setups (``Game.smoke_set``, else the
first shipped set), twice.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludolab import games as registry
from ludolab.games import PROTOCOL_VERSION, RECORD_CORE, Game

MAX_DECISIONS = 100_000
"""The decisions a step-by-step game may take before ``legal actions`` calls it endless."""

ILLEGAL_PROBES = 4
"""Decisions per game at which ``illegal actions`` tries actions outside the legal ones (the
first decision, the last, and seeded choices between)."""

CHECKS: tuple[str, ...] = (
    "description",
    "setups",
    "determinism",
    "legal actions",
    "illegal actions",
    "clone",
    "record core",
    "record table",
    "metrics",
    "run",
)
"""The checks of :func:`check_game`, in the order they run."""

_NAME = re.compile(r"[a-z][a-z0-9_]*(:[a-z0-9_]+)?")  # a family's members: family:member
_SHOWN = 12  # list items a message shows before "... (N in all)"


class ConformanceError(AssertionError):
    """A game that does not conform; the message starts with the check's name and a colon."""


@dataclass(frozen=True)
class ConformanceReport:
    """What :func:`check_game` checked on a game that passed.

    Attributes:
        game: the game's registry name.
        checks: the checks passed, in order (:data:`CHECKS`, without ``run`` when not run).
        games: the games played by each game-playing check.
        decisions: the steps taken in the step-by-step games (``legal actions``).
    """

    game: str
    checks: tuple[str, ...]
    games: int
    decisions: int


@dataclass
class _Planned:
    """One game of the suite: its seats and seeds, then what the checks learnt of it."""

    index: int
    players: int
    setup_seed: int
    seed: int
    setup: Any = None
    specs: tuple[str, ...] = ()
    record: Any = None  # play()'s record
    actions: list[int] = field(default_factory=list)  # the step-by-step game's steps
    forced: int = 0  # how many of those the rules forced
    walk_record: Any = None  # state_record() of the step-by-step game

    def __str__(self) -> str:
        return (
            f"game {self.index} ({self.players} players, setup seed {self.setup_seed}, game "
            f"seed {self.seed})"
        )


@dataclass
class _Suite:
    game: Game
    seed: int
    planned: list[_Planned]


# -- helpers -----------------------------------------------------------------------------------


def _fail(check: str, message: str) -> ConformanceError:
    return ConformanceError(f"{check}: {message}")


@contextmanager
def _calling(check: str, what: str, fix: str = "") -> Iterator[None]:
    """Turn an exception from the game's own code into a failure of ``check`` naming the call,
    so that a crash reads like any other finding (the original stays chained)."""
    try:
        yield
    except ConformanceError:
        raise
    except Exception as exc:
        tail = f"; {fix}" if fix else ""
        raise _fail(check, f"{what} raised {type(exc).__name__}: {exc}{tail}") from exc


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show(actions: Sequence[int]) -> str:
    shown = ", ".join(str(a) for a in actions[:_SHOWN])
    more = f", ... ({len(actions)} in all)" if len(actions) > _SHOWN else ""
    return f"[{shown}{more}]"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN (metrics and scores may be NaN) and sequences compared
    item by item."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # an array's ambiguous truth value: not a plain value
        return False


def _as_lists(value: Any) -> Any:
    """Tuples as lists, all the way down: how a table gives a record's values back."""
    if isinstance(value, list | tuple):
        return [_as_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_lists(v) for k, v in value.items()}
    return value


def _as_dict(record: Any) -> dict[str, Any]:
    to_dict = getattr(record, "to_dict", None)
    if callable(to_dict):
        return dict(to_dict())
    return {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}


def _difference(a: Any, b: Any) -> str | None:
    """How two records differ (the first field that does), or None if they are equal."""
    if type(a) is not type(b):
        return f"one is a {type(a).__name__}, the other a {type(b).__name__}"
    da, db = _as_dict(a), _as_dict(b)
    for key in list(da) + [k for k in db if k not in da]:
        if key not in da or key not in db:
            return f"field {key!r} is in one record only"
        if not _same(da[key], db[key]):
            return f"field {key!r} is {_short(da[key])} vs {_short(db[key])}"
    return None


def _position(state: Any) -> tuple[Any, ...]:
    """What can be seen of a state without knowing its game: over or not, the seat acting,
    its legal actions, the forced action."""
    if state.done:
        return (True,)
    return (False, state.acting, tuple(state.legal_actions()), state.forced_action())


def _position_change(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    def say(position: tuple[Any, ...]) -> str:
        if position[0]:
            return "done"
        _, acting, legal, forced = position
        return f"seat {acting} acting, legal_actions() {_show(legal)}, forced_action() {forced}"

    return f"it was {say(before)}; now {say(after)}"


def _agents(game: Game, players: int) -> list[Any]:
    return [game.agents.parse("random") for _ in range(players)]


def _seat_counts(game: Game) -> list[int]:
    """The default seat count first, then the minimum, the maximum and those between: the
    counts most likely to break come early when fewer games are played."""
    first = [game.default_players, game.min_players, game.max_players]
    counts = list(dict.fromkeys(first + list(game.players)))
    return [p for p in counts if game.min_players <= p <= game.max_players]


def _registered(check: str, name: str) -> Game | None:
    """The game registered as ``name``, or None."""
    if not registry.known(name):
        return None
    with _calling(check, f"ludolab.games.get({name!r})"):
        return registry.get(name)


def _new_state(suite: _Suite, planned: _Planned, check: str) -> Any:
    with _calling(check, f"new_state(setup, {planned.players}, {planned.seed}) for {planned}"):
        return suite.game.new_state(planned.setup, planned.players, planned.seed)


_PURE = (
    "a game must be a function of its setup, seat count, seed and actions (draw chance "
    "events from the seed only)"
)


def _replay(
    check: str,
    planned: _Planned,
    state: Any,
    start: int,
    stop: int,
    who: str = "the state",
    fix: str = _PURE,
) -> None:
    """Step ``state`` through the step-by-step game's actions ``start:stop``, which must all
    be legal again (``fix`` says what to do when one is not)."""
    for k in range(start, stop):
        action = planned.actions[k]
        if state.done:
            raise _fail(
                check,
                f"replaying the actions of {planned}, {who} was over at decision {k}, where the "
                f"same game went on before; {fix}",
            )
        with _calling(
            check,
            f"replaying the actions of {planned}, step({action}) on {who} at decision {k}",
            fix,
        ):
            state.step(action)


# -- the checks ----------------------------------------------------------------------------


def _check_description(suite: _Suite) -> None:
    """The static facts are sane: the name, the protocol, the seat counts, the samplers, the
    options, the config keys, the setup and record types (the record's first fields the
    core's), a ``random`` agent."""
    _describe_identity(suite.game)
    _describe_options(suite.game)
    _describe_types(suite.game)


def _describe_identity(game: Game) -> None:
    c = "description"
    name = getattr(game, "name", None)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise _fail(
            c,
            f"name is {name!r}; it must be a lower-case identifier ([a-z][a-z0-9_]*; a "
            f"family's member: family:member), as configs and the command line write it",
        )
    for other in registry.names():
        if other != name and _registered_quietly(other) is game:
            raise _fail(c, f"the game named {name!r} is registered as {other!r}; make them equal")
    if game.protocol != PROTOCOL_VERSION:
        raise _fail(
            c,
            f"protocol is {game.protocol!r} but this ludolab speaks version {PROTOCOL_VERSION}; "
            f"update the game to protocol {PROTOCOL_VERSION} and set protocol accordingly",
        )
    if not isinstance(getattr(game, "title", None), str) or not game.title:
        raise _fail(c, "title must be the game's name in prose, a non-empty string")
    seats = (game.min_players, game.default_players, game.max_players)
    if not all(_is_int(s) for s in seats) or not 1 <= seats[0] <= seats[1] <= seats[2]:
        raise _fail(
            c,
            f"min_players, default_players, max_players are {seats}; they must be ints with "
            f"1 <= min_players <= default_players <= max_players",
        )
    with _calling(c, "samplers"):
        samplers = game.samplers
    if not samplers or not all(isinstance(s, str) for s in samplers):
        raise _fail(c, f"samplers is {samplers!r}; it must name at least one sampler (strings)")
    if game.default_sampler not in samplers:
        raise _fail(
            c,
            f"default_sampler {game.default_sampler!r} is not one of samplers "
            f"{list(samplers)}; name one of them",
        )
    for attribute in ("setups_key", "games_per_setup_key", "setups_file"):
        value = getattr(game, attribute)
        if not isinstance(value, str) or not value:
            raise _fail(c, f"{attribute} is {value!r}; it must be a non-empty string")


def _describe_options(game: Game) -> None:
    c = "description"
    with _calling(c, "options_type()", "every rule option needs a default (the published rules)"):
        options = game.options_type()
    params = getattr(game.options_type, "__dataclass_params__", None)
    if not dataclasses.is_dataclass(options) or not getattr(params, "frozen", False):
        raise _fail(
            c,
            f"options_type {game.options_type!r} must be a frozen dataclass whose defaults "
            f"are the published rules",
        )
    with _calling(c, "default_options()"):
        game.default_options()
    names = game.option_names()
    for attribute, keys in (
        ("setup_options", game.setup_options),
        ("option_units", list(game.option_units)),
    ):
        unknown = [k for k in keys if k not in names]
        if unknown:
            raise _fail(
                c,
                f"{attribute} names {unknown}, which are not rule options (option_names(): "
                f"{names}); name fields of options_type",
            )


def _describe_types(game: Game) -> None:
    c = "description"
    with _calling(c, "setup_type"):
        setup_type = game.setup_type
    if not isinstance(setup_type, type):
        raise _fail(c, f"setup_type is {setup_type!r}; it must be the class of a setup")
    with _calling(c, "record_type"):
        record_type = game.record_type
    if not (isinstance(record_type, type) and dataclasses.is_dataclass(record_type)):
        raise _fail(c, f"record_type {record_type!r} must be a dataclass (frozen, with to_dict())")
    core = list(RECORD_CORE)
    first = [f.name for f in dataclasses.fields(record_type)][: len(core)]
    if first != core:
        missing = [k for k in core if k not in first]
        why = f" ({', '.join(missing)} missing)" if missing else ""
        raise _fail(
            c,
            f"record_type {record_type.__name__}'s first fields are {first}{why}; a record must "
            f"start with ludolab.games.RECORD_CORE's fields in that order, {core}, then the "
            f"game's own",
        )
    with _calling(
        c, "agents.parse('random')", "every game registers a 'random' agent (the suite plays it)"
    ):
        agent = game.agents.parse("random")
    if not isinstance(agent.spec, str):
        raise _fail(c, f"the random agent's spec is {agent.spec!r}; it must be a string")


def _registered_quietly(name: str) -> Game | None:
    # Another package's broken registration is that package's problem, not this game's.
    try:
        return registry.get(name)
    except Exception:  # noqa: BLE001
        return None


def _check_setups(suite: _Suite) -> None:
    """For each seat count the game allows (all of them, or the minimum, default and maximum
    when there are more than eight), ``fair_setup`` gives a ``setup_type`` that is the same for
    the same seed, survives ``json.dumps``/``json.loads`` and ``setup_from_dict``, and says its
    seat count if it has one."""
    game, c = suite.game, "setups"
    counts = list(game.players)
    if len(counts) > 8:
        counts = sorted({game.min_players, game.default_players, game.max_players})
    seed = random.Random(f"ludolab.testing:{suite.seed}:setups").randrange(2**31)
    for players in counts:
        call = f"fair_setup({players}, {seed})"
        with _calling(c, call):
            setup = game.fair_setup(players, seed)
            again = game.fair_setup(players, seed)
        if not isinstance(setup, game.setup_type):
            raise _fail(
                c,
                f"{call} returned a {type(setup).__name__}, not the game's setup_type "
                f"{game.setup_type.__name__}",
            )
        with _calling(c, f"{call}.to_dict()"):
            data = setup.to_dict()
        if not _same(data, again.to_dict()):
            raise _fail(
                c,
                f"{call} gave two different setups; every random choice of fair_setup must "
                f"come from its seed",
            )
        _round_trip(game, setup, data, call)
        n = getattr(setup, "n_players", players)
        if n != players:
            raise _fail(
                c,
                f"{call} is a setup for n_players = {n!r}; a setup dealt for a seat count "
                f"must say that count",
            )


def _round_trip(game: Game, setup: Any, data: Any, call: str) -> None:
    """``setup`` (whose ``to_dict()`` is ``data``) back from its JSON, with the same id."""
    c = "setups"
    ident = getattr(setup, "id", None)
    if not isinstance(ident, str):
        raise _fail(
            c,
            f"{call}.id is {ident!r}; a setup's id must be a string, equal for equal setups "
            f"(a hash of its content, say)",
        )
    with _calling(c, f"json.dumps({call}.to_dict())", "to_dict() must give JSON data"):
        loaded = json.loads(json.dumps(data))
    with _calling(c, f"setup_from_dict() of {call}'s JSON"):
        back = game.setup_from_dict(loaded, "<conformance>")
    if not isinstance(back, game.setup_type) or getattr(back, "id", None) != ident:
        raise _fail(
            c,
            f"setup_from_dict() of {call}'s JSON gave {_short(back)} with id "
            f"{getattr(back, 'id', None)!r}, not the setup with id {ident!r}; it must give "
            f"back an equal setup",
        )
    if not _same(_as_lists(back.to_dict()), _as_lists(data)):
        raise _fail(
            c,
            f"setup_from_dict() of {call}'s JSON gave a setup whose to_dict() differs: "
            f"{_short(back.to_dict())} vs {_short(data)}",
        )


def _check_determinism(suite: _Suite) -> None:
    """``play`` twice with fresh ``random`` agents gives equal records, leaving its setup
    alone; ``new_state`` then ``play_out`` then ``state_record`` gives the same record (a
    native fast path must agree with the reference engine)."""
    from ludolab.envs.agents import play_out

    game, c = suite.game, "determinism"
    fix = (
        "every random choice must come from the game seed (the agents' from their reset), "
        "none from a global or unseeded generator, the clock or the order of a set"
    )
    for planned in suite.planned:
        with _calling(c, f"fair_setup({planned.players}, {planned.setup_seed})"):
            planned.setup = game.fair_setup(planned.players, planned.setup_seed)
        before = planned.setup.to_dict()
        records = []
        for _ in range(2):
            agents = _agents(game, planned.players)
            planned.specs = tuple(a.spec for a in agents)
            with _calling(c, f"play() of {planned}"):
                records.append(game.play(planned.setup, agents, planned.seed))
        diff = _difference(*records)
        if diff:
            raise _fail(
                c,
                f"play() gave different records for {planned} with the same setup, fresh "
                f"agents {list(planned.specs)} and seed: {diff}; {fix}",
            )
        if not _same(planned.setup.to_dict(), before):
            raise _fail(c, f"play() of {planned} changed its setup; a setup must not change")
        state = _new_state(suite, planned, c)
        agents = _agents(game, planned.players)
        with _calling(c, f"play_out() of new_state() for {planned}"):
            play_out(state, agents, planned.seed)
        with _calling(c, f"state_record() of {planned}"):
            reference = game.state_record(state, planned.specs)
        diff = _difference(records[0], reference)
        if diff:
            raise _fail(
                c,
                f"play() and the reference engine (new_state, play_out, state_record) disagree "
                f"on {planned}: {diff}; play() must play the game new_state() plays (a native "
                f"fast path must agree with the reference), and {fix}",
            )
        planned.record = records[0]


def _check_legal_actions(suite: _Suite) -> None:
    """Each game stepped decision by decision, a seeded random choice among
    ``legal_actions()`` (or the forced action): while not done, ``legal_actions()`` is a
    non-empty sorted list of distinct ints, ``forced_action()`` is -1 or one of them,
    ``acting`` is a seat, ``check_invariants()`` passes (initially and after every step; the
    message says ``invariants`` when it fails), and the game ends within
    :data:`MAX_DECISIONS`."""
    c = "legal actions"
    for planned in suite.planned:
        rng = random.Random(f"ludolab.testing:{suite.seed}:walk:{planned.index}")
        state = _new_state(suite, planned, c)
        _invariants(state, planned, "after new_state()")
        actions: list[int] = []
        while not state.done:
            k = len(actions)
            if k >= MAX_DECISIONS:
                raise _fail(
                    c,
                    f"{planned} did not end within {MAX_DECISIONS} decisions of random legal "
                    f"actions; a game must end (add a turn limit that sets truncated)",
                )
            at = f"at decision {k} of {planned}"
            legal, forced = _decision(state, planned.players, at)
            action = forced if forced >= 0 else rng.choice(legal)
            planned.forced += forced >= 0
            with _calling(
                c,
                f"step({action}) {at}, {action} being in legal_actions() {_show(legal)},",
                "every action legal_actions() lists must be playable",
            ):
                state.step(action)
            actions.append(action)
            _invariants(state, planned, f"after step({action}) at decision {k}")
        planned.actions = actions
        with _calling(c, f"state_record() of {planned} stepped to its end"):
            planned.walk_record = suite.game.state_record(state, planned.specs)


def _decision(state: Any, players: int, at: str) -> tuple[list[int], int]:
    """The legal actions and the forced action of a state that is not done, checked."""
    c = "legal actions"
    acting = state.acting
    if not _is_int(acting) or not 0 <= acting < players:
        raise _fail(c, f"acting is {acting!r} {at}; it must be a seat, 0..{players - 1}")
    legal = state.legal_actions()
    if not isinstance(legal, list) or not all(_is_int(a) for a in legal):
        raise _fail(c, f"legal_actions() is {_short(legal)} {at}; it must be a list of ints")
    if not legal:
        raise _fail(
            c,
            f"legal_actions() is empty {at} while done is False; a seat that must decide "
            f"needs a legal action (or the game is over: make done True)",
        )
    if any(a >= b for a, b in zip(legal, legal[1:], strict=False)):
        raise _fail(
            c, f"legal_actions() is {_show(legal)} {at}; it must be sorted and have no repeats"
        )
    forced = state.forced_action()
    if not _is_int(forced) or (forced != -1 and forced not in legal):
        raise _fail(
            c,
            f"forced_action() is {forced!r} {at}, but legal_actions() is {_show(legal)}; it "
            f"must be -1 (the seat chooses) or the legal action the rules force",
        )
    return legal, forced


def _invariants(state: Any, planned: _Planned, when: str) -> None:
    with _calling(
        "invariants",
        f"check_invariants() {when} of {planned}",
        "the engine broke one of its own rules: fix the step that led here (the state "
        "before it passed)",
    ):
        state.check_invariants()


_MUST_REFUSE = "step must raise ludolab.envs.rules.IllegalActionError"


def _check_illegal_actions(suite: _Suite) -> None:
    """At :data:`ILLEGAL_PROBES` decisions per game, on a ``clone()``: one above the largest
    legal action, one in a gap between legal actions or below the first (when there is one)
    and -1 (``forced_action``'s "none") must raise ``ludolab.envs.rules.IllegalActionError``,
    leaving the clone and the original as they were; then the original itself refuses one
    mid-game and plays on to the same record (a refused action changes nothing, even where
    nothing can be seen)."""
    c = "illegal actions"
    for planned in suite.planned:
        rng = random.Random(f"ludolab.testing:{suite.seed}:illegal:{planned.index}")
        n = len(planned.actions)
        if not n:
            continue
        between = rng.sample(range(1, n - 1), min(ILLEGAL_PROBES - 2, max(0, n - 2)))
        probes = sorted({0, n - 1, *between})
        state = _new_state(suite, planned, c)
        done = 0
        for k in probes:
            _replay(c, planned, state, done, k)
            done = k
            _probe_clones(state, f"at decision {k} of {planned}", rng)
        _refuse_on_the_original(suite, planned, probes[len(probes) // 2])


def _probe_clones(state: Any, at: str, rng: random.Random) -> None:
    """Actions outside ``legal_actions()``, each on its own clone of ``state``."""
    from ludolab.envs.rules import IllegalActionError

    c = "illegal actions"
    before = _position(state)
    legal = list(state.legal_actions())
    tries = [legal[-1] + 1, -1]
    # A gap found from neighbouring legal actions, not by listing every index below the
    # largest: action ids may be sparse.
    gaps = [(a, b) for a, b in zip([-1, *legal], legal, strict=False) if b - a > 1]
    if gaps:
        low, high = rng.choice(gaps)
        tries.insert(1, rng.randrange(low + 1, high))
    for action in tries:
        with _calling(c, f"clone() {at}"):
            copy = state.clone()
        try:
            copy.step(action)
        except IllegalActionError:
            pass
        except Exception as exc:
            raise _fail(
                c,
                f"step({action}) raised {type(exc).__name__}: {exc} {at}, where "
                f"legal_actions() is {_show(legal)}; {_MUST_REFUSE}",
            ) from exc
        else:
            raise _fail(
                c,
                f"step({action}) was accepted {at}, but {action} is not in legal_actions() "
                f"{_show(legal)}; {_MUST_REFUSE}",
            )
        if _position(copy) != before:
            raise _fail(
                c,
                f"step({action}) was refused {at} but changed the state: "
                f"{_position_change(before, _position(copy))}; check legality before "
                f"changing anything",
            )
        if _position(state) != before:
            raise _fail(
                c,
                f"the original changed when its clone refused step({action}) {at}: "
                f"{_position_change(before, _position(state))}; clone() must copy, and a "
                f"refused action change nothing",
            )


def _refuse_on_the_original(suite: _Suite, planned: _Planned, k: int) -> None:
    """The game refuses an action at decision ``k`` and then plays on as it did: a change
    made before the refusal may show only in how the rest of the game goes."""
    from ludolab.envs.rules import IllegalActionError

    c, at = "illegal actions", f"at decision {k} of {planned}"
    state = _new_state(suite, planned, c)
    _replay(c, planned, state, 0, k)
    action = state.legal_actions()[-1] + 1
    try:
        state.step(action)
    except IllegalActionError:
        pass
    except Exception as exc:
        raise _fail(
            c,
            f"step({action}) raised {type(exc).__name__}: {exc} {at} (its clone raised "
            f"IllegalActionError); {_MUST_REFUSE}",
        ) from exc
    else:
        raise _fail(c, f"step({action}) was accepted {at}, though its clone refused it")
    _replay(c, planned, state, k, len(planned.actions), f"the state that refused step({action})")
    with _calling(c, f"state_record() of {planned} replayed"):
        record = suite.game.state_record(state, planned.specs)
    diff = _difference(planned.walk_record, record)
    if diff:
        raise _fail(
            c,
            f"{planned} played differently after refusing step({action}) at decision {k}: "
            f"{diff}; a refused action must leave the state exactly as it was (check legality "
            f"before changing anything)",
        )


_SHARE = (
    "clone() must copy every mutable part of the state (lists, dicts, sets, random "
    "generators, logs) rather than share it"
)


def _check_clone(suite: _Suite) -> None:
    """At a mid-game decision, ``clone()``; stepping the clone to the end leaves the original
    as it was, which then ends with the same actions in the same record as the clone and as
    the game played straight through. The other way round too: at a third of the game, the
    original stepped to its end leaves the clone as it was."""
    for planned in suite.planned:
        n = len(planned.actions)
        _clone_apart(suite, planned, n // 2, step_the_clone=True)
        _clone_apart(suite, planned, n // 3, step_the_clone=False)


def _clone_apart(suite: _Suite, planned: _Planned, k: int, step_the_clone: bool) -> None:
    """Clone at decision ``k``, step one of the pair to the end, check the other is as it
    was, step it to the end too, and compare the records."""
    c, n = "clone", len(planned.actions)
    state = _new_state(suite, planned, c)
    _replay(c, planned, state, 0, k)
    before = _position(state)
    with _calling(c, f"clone() at decision {k} of {planned}"):
        copy = state.clone()
    if _position(copy) != before:
        raise _fail(
            c,
            f"the clone made at decision {k} of {planned} differs from its original: "
            f"{_position_change(before, _position(copy))}",
        )
    first, second = (copy, state) if step_the_clone else (state, copy)
    stepped, other = ("clone", "original") if step_the_clone else ("original", "clone")
    _replay(c, planned, first, k, n, f"the {stepped}", _SHARE)
    if _position(second) != before:
        raise _fail(
            c,
            f"stepping the {stepped} from decision {k} of {planned} to the end changed the "
            f"{other}: {_position_change(before, _position(second))}; {_SHARE}",
        )
    _replay(c, planned, second, k, n, f"the {other}, after the {stepped} had ended,", _SHARE)
    records = []
    for which, s in ((stepped, first), (other, second)):
        with _calling(c, f"state_record() of the {which} of {planned}"):
            records.append(suite.game.state_record(s, planned.specs))
    diff = _difference(planned.walk_record, records[1])
    if diff:
        raise _fail(
            c,
            f"the {other} of {planned}, continued from decision {k} after its {stepped} had "
            f"been stepped to the end, ended differently from the game played straight "
            f"through: {diff}; {_SHARE}",
        )
    diff = _difference(records[0], records[1])
    if diff:
        raise _fail(
            c,
            f"a clone made at decision {k} of {planned} and its original, given the same "
            f"actions, ended differently: {diff}; {_SHARE}",
        )


def _check_record_core(suite: _Suite) -> None:
    """Each record's core (``play``'s and the step-by-step game's) says what was played:
    ``setup_id``, ``seed`` and ``agents`` as given, distinct winning seats, a final score per
    seat, ``score_by_step`` of shape (steps, players) ending on the final scores, counts that
    are non-negative ints, a bool ``truncated`` and no winner in a truncated game; and the
    step-by-step game's ``n_actions`` counts its steps (forced ones may be left out)."""
    for planned in suite.planned:
        _core(suite.game, planned, planned.record, f"play()'s record of {planned}")
        _core(
            suite.game,
            planned,
            planned.walk_record,
            f"state_record() of {planned} stepped with random legal actions",
        )
        n_actions, steps = planned.walk_record.n_actions, len(planned.actions)
        if not steps - planned.forced <= n_actions <= steps:
            raise _fail(
                "record core",
                f"n_actions is {n_actions} in state_record() of {planned}, which took {steps} "
                f"steps ({planned.forced} of them forced); n_actions counts the decisions "
                f"taken, every seat's",
            )


def _core(game: Game, planned: _Planned, record: Any, what: str) -> None:
    c, p = "record core", planned.players
    if not isinstance(record, game.record_type):
        raise _fail(
            c,
            f"{what} is a {type(record).__name__}, not the game's record_type "
            f"{game.record_type.__name__}",
        )
    expected = (
        ("setup_id", planned.setup.id, "the id of the setup played"),
        ("seed", planned.seed, "the game seed"),
        ("agents", planned.specs, "the agents' specs, in seat order, as a tuple"),
    )
    for name, value, meaning in expected:
        got = getattr(record, name)
        if not _same(got, value):
            raise _fail(c, f"{what} has {name} = {_short(got)}, not {_short(value)} ({meaning})")
    winners = record.winners
    if (
        not isinstance(winners, tuple)
        or not all(_is_int(w) and 0 <= w < p for w in winners)
        or len(set(winners)) != len(winners)
    ):
        raise _fail(
            c,
            f"{what} has winners = {_short(winners)}; they must be a tuple of distinct seats, "
            f"0..{p - 1}",
        )
    final = record.final_scores
    if not isinstance(final, tuple) or len(final) != p or not all(map(_is_number, final)):
        raise _fail(
            c,
            f"{what} has final_scores = {_short(final)}; it must be a tuple of {p} numbers, one "
            f"per seat",
        )
    steps = record.score_by_step
    if not isinstance(steps, tuple) or not all(
        isinstance(row, tuple) and len(row) == p and all(map(_is_number, row)) for row in steps
    ):
        raise _fail(
            c,
            f"{what} has score_by_step = {_short(steps)}; it must be a tuple of rows, each a "
            f"tuple of {p} numbers (shape (steps, players))",
        )
    if steps and not _same(steps[-1], final):
        raise _fail(
            c,
            f"{what} has score_by_step ending on {steps[-1]} but final_scores {final}; the "
            f"scores after the last step are the final ones",
        )
    for name in ("turns", "rounds", "n_actions"):
        value = getattr(record, name)
        if not _is_int(value) or value < 0:
            raise _fail(c, f"{what} has {name} = {value!r}; it must be an int >= 0")
    if not isinstance(record.truncated, bool):
        raise _fail(c, f"{what} has truncated = {record.truncated!r}; it must be a bool")
    if record.truncated and winners:
        raise _fail(
            c,
            f"{what} is truncated but has winners {winners}; a game cut off has no winner "
            f"(winners = ())",
        )


def _records_table(suite: _Suite) -> Any:
    from ludolab.research.simulate import records_columns

    records = [planned.record for planned in suite.planned]
    with _calling("record table", "records_columns(records, {})"):
        return records_columns(records, {})


def _check_record_table(suite: _Suite) -> None:
    """``records_columns(records, {})`` has one row per record, a column per record field and
    nothing else, and each row holds the record's ``to_dict()`` (tuples read back as lists)."""
    c = "record table"
    records = [planned.record for planned in suite.planned]
    table = _records_table(suite)
    if table.num_rows != len(records):
        raise _fail(c, f"the table of {len(records)} records has {table.num_rows} rows")
    fields = [f.name for f in dataclasses.fields(records[0])]
    if table.column_names != fields:
        raise _fail(
            c,
            f"the table's columns are {table.column_names}, not the record's fields {fields}",
        )
    for i, (row, record) in enumerate(zip(table.to_pylist(), records, strict=True)):
        with _calling(c, f"to_dict() of record {i}"):
            expected = _as_lists(record.to_dict())
        if list(expected) != fields:
            raise _fail(
                c,
                f"to_dict() of record {i} has keys {list(expected)}, not the record's fields "
                f"{fields}; it must give every field, in order",
            )
        for name in fields:
            if not _same(row[name], expected[name]):
                raise _fail(
                    c,
                    f"row {i}'s {name} is {_short(row[name])} but to_dict() says "
                    f"{_short(expected[name])}; a field must hold plain values (ints, floats, "
                    f"strings, bools, None and tuples of them) that a table keeps as they are",
                )


def _check_metrics(suite: _Suite) -> None:
    """``per_game_metrics(table, name)`` has one row per game with every column of
    ``GAME_METRICS`` and every one of the game's own ``metrics`` (only for a registered game);
    ``own_metric_values(table)`` gives exactly the declared metrics, one value per row; the
    metrics' labels are of declared metrics, and no own metric takes a common one's name."""
    from ludolab.research.metrics.registry import GAME_METRICS

    game, c = suite.game, "metrics"
    table = _records_table(suite)
    own = list(game.metrics)
    clash = [m for m in own if m in GAME_METRICS]
    if clash:
        raise _fail(
            c,
            f"the game's own metrics {clash} have the names of metrics every game has; rename them",
        )
    stray = [m for m in game.metric_labels if m not in own]
    if stray:
        raise _fail(c, f"metric_labels has labels of {stray}, which are not in metrics {own}")
    if _registered(c, game.name) is not None:
        from ludolab.research.metrics.games import per_game_metrics

        with _calling(c, f"per_game_metrics(table, {game.name!r})"):
            frame = per_game_metrics(table, game.name)
        if len(frame) != table.num_rows:
            raise _fail(
                c,
                f"per_game_metrics() gave {len(frame)} rows for {table.num_rows} games; it "
                f"must give one per game (own_metric_values() too: one value per row)",
            )
        missing = [m for m in [*GAME_METRICS, *own] if m not in frame.columns]
        if missing:
            raise _fail(c, f"per_game_metrics() has no column {missing}")
    with _calling(c, "own_metric_values(table)"):
        values = game.own_metric_values(table)
    if set(values) != set(own):
        extra = sorted(set(values) - set(own))
        lacking = sorted(set(own) - set(values))
        raise _fail(
            c,
            f"own_metric_values() gives {sorted(values)}; it must give exactly the declared "
            f"metrics {own} (missing {lacking}, undeclared {extra})",
        )
    for name, column in values.items():
        if len(column) != table.num_rows:
            raise _fail(
                c,
                f"own_metric_values() gives {len(column)} values of {name!r} for "
                f"{table.num_rows} rows; one value per row",
            )


def _check_run(suite: _Suite) -> None:
    """A tiny experiment end to end: the default seat count, 2 setups of the first shipped
    set with the default sampler, 2 games per setup, ``random`` at every seat, run twice in a
    temporary folder: each run's ``games.parquet`` has the 4 games, and the two runs' games
    (and setups files) are byte for byte the same."""
    import pyarrow.parquet as pq
    import tomli_w

    from ludolab.research.experiment.runner import run_experiment

    game, c = suite.game, "run"
    known = _registered(c, game.name)
    if known is None:
        raise _fail(
            c,
            f"no game is registered as {game.name!r}, and a run finds its game by name; "
            f"register it (entry-point group {registry.ENTRY_POINT_GROUP} in pyproject.toml, "
            f"then pip install -e .) or pass run=False",
        )
    if type(known) is not type(game):
        raise _fail(
            c,
            f"the game registered as {game.name!r} is a {type(known).__qualname__}, not this "
            f"{type(game).__qualname__}, and a run plays the registered one; register this "
            f"one or pass run=False",
        )
    with _calling(c, "shipped_sets()"):
        sets = game.shipped_sets()
    if not sets:
        raise _fail(
            c,
            f"{game.title} ships no constraint set (shipped_sets() is empty); a game must ship "
            f"at least one, so that a config can name it (e.g. its fair setups, with no "
            f"constraint)",
        )
    if game.smoke_set is not None and game.smoke_set not in sets:
        raise _fail(
            c,
            f"smoke_set {game.smoke_set!r} is not one of the shipped sets ({', '.join(sets)}); "
            f"name a shipped set, or None for the first",
        )
    setups, per_setup = 2, 2
    config = {
        "name": f"conformance-{game.name.replace(':', '-')}",
        "game": game.name,
        "seed": suite.seed,
        "players": game.default_players,
        game.setups_key: setups,
        game.games_per_setup_key: per_setup,
        "conditions": [
            {
                "name": "shipped",
                "constraints": game.smoke_set or sets[0],
                "sampler": game.default_sampler,
            }
        ],
        "lineups": [{"name": "random", "seats": "random"}],
    }
    with tempfile.TemporaryDirectory(prefix="ludolab-conformance-") as tmp:
        path = Path(tmp) / "conformance.toml"
        path.write_text(tomli_w.dumps(config))
        files = []
        for attempt in ("first", "second"):
            with _calling(c, f"run_experiment() of {config} ({attempt} run)"):
                result = run_experiment(
                    path, out=Path(tmp) / attempt, workers=1, analyse=False, quiet=True
                )
            folder = Path(result.path)
            games_file, setups_file = folder / "games.parquet", folder / game.setups_file
            for f in (games_file, setups_file):
                if not f.is_file():
                    raise _fail(c, f"the run of {config} left no {f.name} in {folder}")
            rows = pq.read_metadata(games_file).num_rows
            if rows != setups * per_setup:
                raise _fail(
                    c,
                    f"the run of {config} played {rows} games, not {setups} {game.setups_key} x "
                    f"{per_setup} {game.games_per_setup_key} = {setups * per_setup}; "
                    f"draw_setups() must give the setups asked for",
                )
            files.append((games_file.read_bytes(), setups_file.read_bytes()))
        for i, name in enumerate(("games.parquet", game.setups_file)):
            if files[0][i] != files[1][i]:
                raise _fail(
                    c,
                    f"two runs of {config} wrote different {name} files; every random choice "
                    f"(draw_setups(), play()) must come from the seeds given",
                )


_CHECK_FUNCTIONS: tuple[tuple[str, Callable[[_Suite], None]], ...] = (
    ("description", _check_description),
    ("setups", _check_setups),
    ("determinism", _check_determinism),
    ("legal actions", _check_legal_actions),
    ("illegal actions", _check_illegal_actions),
    ("clone", _check_clone),
    ("record core", _check_record_core),
    ("record table", _check_record_table),
    ("metrics", _check_metrics),
    ("run", _check_run),
)


def _plan(game: Game, games: int, seed: int) -> list[_Planned]:
    rng = random.Random(f"ludolab.testing:{seed}:plan")
    counts = _seat_counts(game)
    return [
        _Planned(i, counts[i % len(counts)], rng.randrange(2**31), rng.randrange(2**31))
        for i in range(games)
    ]


def check_game(
    game: Game | str, *, games: int = 3, seed: int = 0, run: bool = True
) -> ConformanceReport:
    """Run every conformance check (:data:`CHECKS`) on ``game`` (a :class:`Game`, or the name
    it is registered under), stopping at the first failure.

    Args:
        game: the game, or its registry name.
        games: the games each game-playing check plays (game ``i`` with the default seat
            count, the minimum, the maximum, then the others, in turn), each to its end (at
            most :data:`MAX_DECISIONS` decisions).
        seed: where every random choice of the suite comes from.
        run: also run a tiny experiment end to end (the ``run`` check: the game must be
            registered).

    Returns the :class:`ConformanceReport`. Raises :class:`ConformanceError` (an
    AssertionError, so pytest shows it as a failed assertion) whose message starts with the
    failing check's name and a colon; ValueError if ``games`` is below 1.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if isinstance(game, str):
        try:
            game = registry.get(game)
        except (registry.UnknownGameError, registry.GameRegistrationError) as exc:
            raise _fail(
                "description",
                f"{exc}; register the game under the entry-point group "
                f"{registry.ENTRY_POINT_GROUP} (pyproject.toml), reinstall (pip install -e .), "
                f"or pass the Game instance",
            ) from exc
    if not isinstance(game, Game):
        raise _fail("description", f"{game!r} is not a ludolab.games.Game")
    suite = _Suite(game, seed, [])
    passed = []
    for name, check in _CHECK_FUNCTIONS:
        if name == "run" and not run:
            continue
        check(suite)
        passed.append(name)
        if name == "description":  # the seat counts are known to be sane from here on
            suite.planned = _plan(game, games, seed)
    return ConformanceReport(
        game.name, tuple(passed), games, sum(len(p.actions) for p in suite.planned)
    )


__all__ = [
    "CHECKS",
    "ILLEGAL_PROBES",
    "MAX_DECISIONS",
    "ConformanceError",
    "ConformanceReport",
    "check_game",
]
