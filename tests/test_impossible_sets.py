"""A constraint set with no board ends every command that draws boards, with a message that says
so: cheap arithmetic proofs first (research/catan/feasibility.py), Gecode's proof where it is
quick, else a budget after which the set "may be impossible"."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludolab.envs.catan.board import RESOURCES
from ludolab.research.catan import samplers
from ludolab.research.catan.catalog import FIRST_BOARD_SECONDS, shipped_sets
from ludolab.research.catan.constraint_set import load_constraint_set, parse_constraint_set
from ludolab.research.catan.feasibility import impossibility
from ludolab.research.catan.generate import generate_boards
from ludolab.research.catan.samplers import ImpossibleSet, SamplingError, Shuffle
from ludolab.research.cli import main
from ludolab.research.solve import UnknownResult

# The issue's set: resource-pips minimums that add to 75 pips (a board has 58).
IMPOSSIBLE = """
name = "impossible"

[[constraint]]
name = "resource-pips"
resources = ["ore", "grain", "wool"]
min = 15

[[constraint]]
name = "resource-pips"
resources = ["brick", "lumber"]
min = 15
"""

# No arithmetic check catches this one, and Gecode proves it at the root: the desert is fixed on
# the coast and required in the centre (the numbers constraint keeps the fixed board from being
# checked whole).
PROVED_BY_GECODE = """
name = "desert-nowhere"

[[constraint]]
name = "fixed"
terrain = ["desert", "ore", "wool", "lumber", "grain", "brick", "wool", "grain", "lumber",
           "ore", "grain", "lumber", "brick", "wool", "lumber", "grain", "wool", "brick", "ore"]

[[constraint]]
name = "desert-placement"
rings = [0]

[[constraint]]
name = "red-numbers-apart"
"""


def a_set(entries: list[dict]):
    return parse_constraint_set({"constraint": entries}, "test", "test", {})


@pytest.fixture
def impossible_file(tmp_path: Path) -> Path:
    path = tmp_path / "impossible.toml"
    path.write_text(IMPOSSIBLE)
    return path


def test_the_issues_set_is_proved_impossible_with_its_numbers(impossible_file):
    reason = impossibility(load_constraint_set(impossible_file))
    assert reason is not None
    assert "resource-pips" in reason and "at most 28" in reason and "brick and ore" in reason


def test_every_shipped_set_passes_the_checks():
    for name in shipped_sets():
        assert impossibility(load_constraint_set(name)) is None, name


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        ([{"name": "resource-pips", "resources": ["ore"], "min": 16}], "at most 15"),
        ([{"name": "resource-pips", "max": 10}], "at most 40 pips in all"),
        ([{"name": "resource-pips", "resources": ["wool"], "max": 5}], "at least 6"),
        (
            [{"name": "red-numbers-on-different-resources", "numbers": [5, 6, 8, 9]}],
            "8 tokens",
        ),
        ([{"name": "number-placement", "numbers": [6, 8], "rings": [0]}], "1 hex"),
    ],
)
def test_arithmetic_proofs(entries, words):
    reason = impossibility(a_set(entries))
    assert reason is not None and words in reason


def test_a_fixed_board_that_breaks_the_set_is_caught():
    terrain = ["desert", *(["ore"] * 3), *(["wool"] * 4), *(["lumber"] * 4), *(["grain"] * 4)]
    terrain += ["brick"] * 3
    cset = a_set([{"name": "fixed", "terrain": terrain}, {"name": "desert-placement"}])
    reason = impossibility(cset)
    assert reason is not None and "desert-placement" in reason


@settings(max_examples=60, deadline=None)
@given(
    bounds=st.lists(
        st.tuples(
            st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=5, unique=True),
            st.integers(0, 20),
            st.integers(0, 30),
        ),
        min_size=1,
        max_size=3,
    ),
    red=st.lists(st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]), max_size=6, unique=True),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_set_that_some_board_satisfies_is_never_called_impossible(bounds, red, seed):
    """Soundness: the checks are necessary conditions, so a board that satisfies the set
    (found among fair shuffles) means that no check may fire."""
    entries = [
        {"name": "resource-pips", "resources": r, "min": lo, "max": max(lo, hi)}
        for r, lo, hi in bounds
    ]
    if red:
        entries.append({"name": "red-numbers-on-different-resources", "numbers": red})
    cset = a_set(entries)
    rng, shuffle = np.random.default_rng(seed), Shuffle()
    terrain = shuffle.draw_terrain(rng, 20_000)
    numbers = shuffle.draw_numbers(rng, terrain)
    harbors = shuffle.draw_harbors(rng, 20_000)
    if cset.check(terrain, numbers, harbors).any():
        assert impossibility(cset) is None


@pytest.mark.parametrize("sampler", ["uniform", "rejection", "chain", "solver", "enumerate"])
def test_generate_ends_at_once_on_the_issues_set(sampler, impossible_file, tmp_path, capsys):
    out = tmp_path / "boards.jsonl"
    args = ["generate", "catan", "-c", str(impossible_file), "-n", "5", "--sampler", sampler]
    assert main([*args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "has no board" in err and "at most 28" in err
    assert not out.exists()


def test_optimise_and_count_end_at_once_on_the_issues_set(impossible_file, tmp_path, capsys):
    out = tmp_path / "best.jsonl"
    assert main(["generate", "catan", "-c", str(impossible_file), "--sampler", "optimise",
                 "--out", str(out)]) == 2  # fmt: skip
    assert main(["count", "-c", str(impossible_file)]) == 2
    err = capsys.readouterr().err
    assert err.count("has no board") == 2 and not out.exists()


def _config(tmp_path: Path, constraints: str, extra: str = "") -> Path:
    path = tmp_path / "study.toml"
    path.write_text(
        f"""name = "study"
game = "catan"
seed = 1
players = 4
boards = 4
games_per_board = 2

[[conditions]]
name = "official"
constraints = "official"

[[conditions]]
name = "mine"
constraints = "{constraints}"
{extra}

[[lineups]]
name = "greedy"
seats = "greedy"

[comparisons]
baseline = "official"
"""
    )
    return path


def test_plan_and_run_refuse_the_issues_set_before_anything(impossible_file, tmp_path, capsys):
    config = _config(tmp_path, impossible_file.name)
    out = tmp_path / "results"
    assert main(["plan", str(config)]) == 2
    assert main(["run", str(config), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "running" not in err  # plan's "running N pilot(s)" only for a config that loads
    assert err.count("conditions[1].constraints") == 2 and "has no board" in err
    assert not out.exists()


def test_a_run_whose_setups_cannot_be_drawn_leaves_no_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "nowhere.toml").write_text(PROVED_BY_GECODE)
    config = _config(tmp_path, "nowhere.toml", 'sampler = "solver"\ntime_limit = 5')
    out = tmp_path / "results"
    assert main(["run", str(config), "--out", str(out), "-q"]) == 2
    assert "proved that none exists" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("sampler", ["uniform", "solver", "enumerate"])
def test_a_set_gecode_proves_impossible_is_said_so(sampler):
    cset = parse_constraint_set(
        __import__("tomllib").loads(PROVED_BY_GECODE), "nowhere.toml", "nowhere", {}
    )
    assert impossibility(cset) is None  # not caught by the arithmetic
    with pytest.raises(
        ImpossibleSet, match="(proved that none exists|listing found none|allow no terrain layout)"
    ):
        generate_boards(cset, 3, sampler, 0)


class FakeClock:
    """time.perf_counter for the sampler, advanced by the solver runs it is asked for."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class EmptyRuns:
    """A compiled model whose every run uses its whole time limit and finds nothing."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock, self.limits = clock, []

    def sample(self, seed, *, n, time_limit, luby_scale):
        self.limits.append((self.clock.now, time_limit))
        self.clock.now += time_limit
        raise UnknownResult(time_limit=time_limit)


def _no_board_anywhere(monkeypatch) -> tuple[FakeClock, EmptyRuns]:
    clock = FakeClock()
    runs = EmptyRuns(clock)
    monkeypatch.setattr(samplers.time, "perf_counter", clock)
    monkeypatch.setattr(samplers, "compile_model", lambda *a, **k: runs)

    runs.proofs = 0

    def unknown(*args, **kwargs):
        runs.proofs += 1
        raise UnknownResult(time_limit=kwargs.get("time_limit"))

    monkeypatch.setattr(samplers, "solve", unknown)
    return clock, runs


@pytest.mark.parametrize("limit", [20.0, None])
def test_the_solver_sampler_stops_at_its_time_limit(monkeypatch, limit):
    """No run outlasts the budget that is left (the issue: --time-limit 20 ran 60 s), and the
    sampler stops at the budget (the default without a limit) saying what it could not find."""
    clock, runs = _no_board_anywhere(monkeypatch)
    start = clock.now
    cset = a_set([{"name": "red-numbers-apart"}])
    with pytest.raises(SamplingError, match="may be impossible") as err:
        samplers.sample_solver(cset, 5, np.random.default_rng(0), time_limit=limit)
    budget = FIRST_BOARD_SECONDS if limit is None else limit
    assert f"no board found in {budget:.0f} s" in str(err.value)
    assert clock.now - start == pytest.approx(budget)
    assert all(at + seconds <= start + budget + 1e-9 for at, seconds in runs.limits)
    assert "count -c SET --method depth-first" in str(err.value)
    # a limit the user gave bounds the whole call: no proof attempt after it
    assert runs.proofs == (0 if limit is not None else 1)


def test_the_chains_starting_boards_have_a_budget(monkeypatch):
    """The uniform sampler's last resort, the solver's search for starting boards, stops at the
    budget too (it used to search for ever)."""
    _no_board_anywhere(monkeypatch)
    monkeypatch.setattr(samplers, "random_boards", lambda space, k, rng, tries: [])
    cset = a_set([{"name": "red-numbers-apart"}, {"name": "no-equal-numbers-adjacent"}])
    pilot = samplers._Rejection(cset, np.random.default_rng(0))
    space = samplers.Space.of(cset)
    with pytest.raises(SamplingError, match="may be impossible"):
        samplers._starts(cset, space, pilot, 4, np.random.default_rng(0), seconds=30.0)


# No arithmetic check catches this one and Gecode cannot prove it in seconds: only the budget
# ends the search.
CONTRADICTION = """
name = "contra"

[[constraint]]
name = "no-equal-resources-adjacent"

[[constraint]]
name = "equal-resource-pairs"
min = 1
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["generate", "catan", "--sampler", "uniform"],
        ["generate", "catan", "--sampler", "solver"],
        ["generate", "catan", "--sampler", "enumerate"],
        ["count"],
    ],
)
def test_the_default_budget_ends_a_set_nothing_proves(command, tmp_path, capsys):
    """Each command, with its defaults, ends on its own and says the set may be impossible (the
    issue: generate, count and solver runs searched for ever)."""
    path = tmp_path / "contra.toml"
    path.write_text(CONTRADICTION)
    out = ["--out", str(tmp_path / "b.jsonl")] if command[0] == "generate" else []
    assert main([*command, "-c", str(path), "-q", *out]) == 2
    err = capsys.readouterr().err
    assert "no board found in" in err and "may be impossible" in err
    assert not (tmp_path / "b.jsonl").exists()


def test_gecode_is_asked_before_a_long_search():
    """Four red tokens apart on the inner ring's six hexes (the desert in the centre) is a
    contradiction no arithmetic check sees and Gecode proves at once: count and the uniform
    sampler ask it as soon as their quick methods find no board, not after their budget."""
    from ludolab.research.catan.counting import count_boards

    cset = a_set(
        [{"name": "desert-placement"}, {"name": "number-placement"}, {"name": "red-numbers-apart"}]
    )
    assert impossibility(cset) is None
    with pytest.raises(ImpossibleSet, match="proved that none exists"):
        count_boards(cset, np.random.default_rng(0))
    with pytest.raises(ImpossibleSet, match="proved that none exists"):
        generate_boards(cset, 3, "uniform", 0)


def test_the_starting_searches_in_two_goes_draw_what_one_go_draws():
    """The chains' starting boards do not move: random_boards in two goes (a quick one, then
    the rest) consumes the random stream exactly as the one go it replaced."""
    from ludolab.research.catan.space import Space, random_boards

    space = Space.of(load_constraint_set("balanced"))
    whole = random_boards(space, 6, np.random.default_rng(11), tries=40)
    rng = np.random.default_rng(11)
    first = random_boards(space, 6, rng, tries=3)
    rest = random_boards(space, 6 - len(first), rng, tries=37)
    assert 0 < len(first) < 6
    assert np.array_equal(whole, np.concatenate([first, rest]))


def test_a_design_on_a_set_with_no_board_names_its_own_key(impossible_file, tmp_path, capsys):
    """The design reads its base set as an experiment's condition: the error names the key the
    user wrote, design.constraints, not the probe's conditions[0]."""
    design = tmp_path / "design.toml"
    design.write_text(
        f'name = "d"\ngame = "catan"\nseed = 1\nplayers = 4\nboards = 4\n'
        f'games_per_board = 2\n[[lineups]]\nname = "greedy"\nseats = "greedy"\n'
        f'[design]\nconstraints = "{impossible_file.name}"\ntrials = 2\n'
        '[[design.parameters]]\nname = "resource-pips"\nchoices = ["on", "off"]\n'
        '[[design.objectives]]\nmetric = "turns"\ngoal = "minimize"\n'
    )
    assert main(["design", str(design), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "key 'design.constraints'" in err and "has no board" in err, err
    assert "conditions[0]" not in err and not (tmp_path / "out").exists()
