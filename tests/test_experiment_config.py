"""Experiment configs: the shipped ones, validation errors, the game plan, seeds and the hash."""

from __future__ import annotations

import copy
import json
import shutil
import tomllib
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ludolab import games
from ludolab.envs.catan.engine import GameOptions
from ludolab.envs.gallery.engine import GalleryOptions
from ludolab.research.experiment import (
    AgentLineup,
    ConfigError,
    ExperimentConfig,
    condition_game_seeds,
    config_hash,
    load_experiment,
    parse_experiment,
    plan_games,
    resolved_dict,
    setup_seed,
)
from ludolab.research.experiment.config import play_hash
from ludolab.research.simulate import game_seeds

ROOT = Path(__file__).resolve().parent.parent
REGISTERED = ", ".join(games.names())
"""The registered games as the unknown-game message lists them (an installed example too)."""
# Game experiments; puzzle studies (game = "sudoku") and design searches ([design]) have their
# own loaders and tests.
SHIPPED = sorted(
    p
    for p in (ROOT / "experiments").glob("*.toml")
    if (data := tomllib.loads(p.read_text())).get("game") in ("catan", "gallery")
    and "design" not in data
)

CATAN: dict[str, Any] = {
    "name": "t",
    "game": "catan",
    "seed": 7,
    "players": 4,
    "boards": 3,
    "games_per_board": 2,
    "conditions": [
        {"name": "official", "constraints": "official", "sampler": "uniform"},
        {"name": "balanced", "constraints": "balanced", "sampler": "solver"},
        {"name": "tournament", "constraints": "tournament"},
    ],
    "lineups": [
        {"name": "greedy", "seats": "greedy"},
        {"name": "mixed", "seats": ["greedy", "random", "greedy:trade=false", "random"]},
    ],
    "comparisons": {"baseline": "official"},
}

GALLERY: dict[str, Any] = {
    "game": "gallery",
    "seed": 3,
    "players": 4,
    "deals": 2,
    "games_per_deal": 2,
    "conditions": [
        {"constraints": "fair"},
        {"constraints": "balanced-symbols", "sampler": "exact"},
        {"constraints": "skewed-seat0", "params": {"skewed-artists.min_count": 6}},
    ],
    "lineups": [{"seats": ["greedy", "random", "leader", "random"]}],
}


def parse(data: dict[str, Any], **changes: Any) -> ExperimentConfig:
    d = copy.deepcopy(data)
    d.update(changes)
    return parse_experiment(d, "exp.toml")


def error_of(data: dict[str, Any], mutate: Any) -> str:
    d = copy.deepcopy(data)
    mutate(d)
    with pytest.raises(ConfigError) as info:
        parse_experiment(d, "exp.toml")
    return str(info.value)


# ---------------------------------------------------------------------------------- shipped


def test_the_required_configs_are_shipped() -> None:
    names = {p.stem for p in SHIPPED}
    assert {"quickstart", "catan-constraints", "gallery-deals"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_config_loads_and_plans(path: Path) -> None:
    config = load_experiment(path)
    plan = plan_games(config)
    assert len(plan) == config.n_games
    assert [g.index for g in plan] == list(range(len(plan)))
    assert config.question
    json.dumps(resolved_dict(config))
    # every game is planned exactly once
    keys = {(g.condition, g.pair) for g in plan}
    assert len(keys) == len(plan)


def test_catan_constraints_config_asks_the_motivating_question() -> None:
    config = load_experiment(ROOT / "experiments" / "catan-constraints.toml")
    samplers = {c.name: c.sampler for c in config.conditions}
    assert set(samplers) == {"random", "official", "seed-2019", "balanced", "tournament", "clumpy"}
    assert set(samplers.values()) == {"uniform"}  # every condition uniform: no sampler confound
    assert (config.setups, config.games_per_setup) == (100, 20)
    seats = {lineup.name: set(lineup.seats) for lineup in config.lineups}
    assert seats["greedy"] == {"greedy"} and set(seats) == {"greedy", "mixed", "search"}
    assert config.comparisons.skill == ("mixed", "greedy", "search")
    assert config.comparisons.primary == ("turns",)
    assert config.comparisons.margins["turns"] == 4
    mixed = next(lineup for lineup in config.lineups if len(set(lineup.seats)) > 1)
    assert mixed.rotate_seats and len(mixed.rotations) == config.players
    assert config.comparisons.paired


def test_gallery_deals_config() -> None:
    config = load_experiment(ROOT / "experiments" / "gallery-deals.toml")
    assert config.game == "gallery" and config.players == 4
    assert {c.name for c in config.conditions} == {
        "fair",
        "balanced-symbols",
        "balanced-artists",
        "skewed-seat0",
    }
    assert [lineup.seats for lineup in config.lineups] == [
        ("greedy",) * 4,
        ("random",) * 4,
        ("mcts:playouts=250",) * 4,
    ]
    # the effects across skill, least skilled first
    assert config.comparisons.skill == ("random", "greedy", "search")


def test_quickstart_is_small() -> None:
    config = load_experiment(ROOT / "experiments" / "quickstart.toml")
    # ~250 games/s with greedy agents: about a minute at most, board generation included
    assert config.n_games <= 15_000
    assert config.setups * len(config.conditions) <= 100


# ------------------------------------------------------------------------------- validation


def set_in(path: list[Any], value: Any) -> Any:
    def mutate(d: dict[str, Any]) -> None:
        target: Any = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


ERRORS = [
    # (data, mutation, key named, a fragment of the allowed values / reason)
    (CATAN, set_in(["report"], {"style": "poster"}), "report.style",
     "expected one of paper, screen, got 'poster'"),
    (CATAN, set_in(["report"], {"font_scale": "big"}), "report.font_scale",
     "expected a number > 0, got 'big'"),
    (CATAN, set_in(["report"], {"one_column": 0}), "report.one_column", "a number > 0, got 0"),
    (CATAN, set_in(["report"], {"width": 3}), "report.width", "allowed: style, one_column"),
    (CATAN, set_in(["report"], "paper"), "report", "expected a table ([report])"),
    (CATAN, set_in(["game"], "chess"), "game",
     "unknown game 'chess'; the registered games are " + REGISTERED),
    (CATAN, lambda d: d.pop("game"), "game", "missing; give one of " + REGISTERED),
    (
        CATAN,
        set_in(["conditions", 2, "constraints"], "tournamnt"),
        "conditions[2].constraints",
        "shipped sets: balanced",
    ),
    (
        CATAN,
        set_in(["conditions", 2, "sampler"], "solvr"),
        "conditions[2].sampler",
        "'solvr' is not one of uniform, rejection, chain, solver, enumerate, optimise",
    ),
    (
        GALLERY,
        set_in(["conditions", 1, "sampler"], "solver"),
        "conditions[1].sampler",
        "is not one of auto, exact, rejection",
    ),
    (
        GALLERY,
        set_in(["conditions", 0, "constraints"], "fiar"),
        "conditions[0].constraints",
        "shipped deal sets: balanced-artists",
    ),
    (
        CATAN,
        set_in(["conditions", 1, "params"], {"intersection-cap.max": "x"}),
        "conditions[1].params",
        "expected an integer",
    ),
    (
        CATAN,
        set_in(["conditions", 1, "params"], {"no-such.max": 3}),
        "conditions[1].params",
        "has no constraint",
    ),
    (
        GALLERY,
        set_in(["conditions", 2, "params"], {"skewed-artists.min_count": -1}),
        "conditions[2].params",
        "expected an integer >= ",
    ),
    (
        CATAN,
        set_in(["conditions", 0, "objective"], "pip-spread"),
        "conditions[0].objective",
        "only with sampler = 'optimise'",
    ),
    (
        CATAN,
        set_in(["conditions", 0, "sampler"], "optimise"),
        "conditions[0].sampler",
        "set boards = 1",
    ),
    (
        CATAN,
        lambda d: [
            set_in(["conditions", 0, "sampler"], "rejection")(d),
            set_in(["conditions", 0, "time_limit"], 5)(d),
        ],
        "conditions[0].time_limit",
        "not with sampler 'rejection'",
    ),
    (
        CATAN,
        set_in(["conditions", 0, "colour"], "red"),
        "conditions[0].colour",
        "allowed keys: name, constraints, sampler, params",
    ),
    (
        CATAN,
        set_in(["lineups", 1, "seats", 2], "greedy:trad=false"),
        "lineups[1].seats[2]",
        "greedy",
    ),
    (
        CATAN,
        set_in(["lineups", 1, "seats", 3], "randm"),
        "lineups[1].seats[3]",
        "known agents: alphabeta, greedy, lookahead, mcts, mcts-value, random",
    ),
    (
        GALLERY,
        set_in(["lineups", 0, "seats", 0], "alphazero"),
        "lineups[0].seats[0]",
        "known agents: greedy, leader, lookahead, mcts, random",
    ),
    (
        CATAN,
        set_in(["lineups", 0, "seats"], ["greedy"] * 3),
        "lineups[0].seats",
        "3 agents for 4 players",
    ),
    (
        CATAN,
        set_in(["options"], {"vp_to_wn": 8}),
        "options.vp_to_wn",
        "allowed: vp_to_win, discard_limit, friendly_robber",
    ),
    (
        CATAN,
        set_in(["options"], {"vp_to_win": "ten"}),
        "options.vp_to_win",
        "expected an integer, got 'ten'",
    ),
    (
        CATAN,
        set_in(["options"], {"friendly_robber": 1}),
        "options.friendly_robber",
        "expected true or false",
    ),
    (
        CATAN,
        set_in(["options"], {"turn_limit": 2.5}),
        "options.turn_limit",
        'expected an integer or "none"',
    ),
    (CATAN, set_in(["options"], {"vp_to_win": 2}), "options.vp_to_win", "at least 3"),
    (
        GALLERY,
        set_in(["options"], {"deals": [4, "x", 0]}),
        "options.deals",
        'expected a list of integers or "none"',
    ),
    (
        GALLERY,
        set_in(["options"], {"next_round_start": "me"}),
        "options.next_round_start",
        "left_of_closer",
    ),
    (
        GALLERY,
        set_in(["options"], {"vp_to_win": 10}),
        "options.vp_to_win",
        "unknown GalleryOptions option; allowed: symbols, extra_card",
    ),
    (
        GALLERY,
        set_in(["options"], {"symbols": {"Vermeer": {"draw": 1}}}),
        "options.symbols",
        "no artist 'Vermeer'; the artists are Lite Metal, Yoko",
    ),
    (
        GALLERY,
        set_in(["options"], {"symbols": {"Yoko": {"draw": 19}}}),
        "options.symbols",
        "puts 19 symbols on its 18 cards",
    ),
    (
        GALLERY,
        set_in(["options"], {"symbols": {"Yoko": {"wild": 1}}}),
        "options.symbols.Yoko",
        "no symbol 'wild'",
    ),
    (CATAN, set_in(["metrics"], ["turns", "fun"]), "metrics[1]", "allowed: n_players, turns"),
    (
        CATAN,
        set_in(["metrics"], ["gallery.n_winners"]),
        "metrics[0]",
        "a Masters Gallery metric; this experiment plays Catan",
    ),
    (CATAN, set_in(["metrics"], ["condition.win_rate_4"]), "metrics[0]", "a seat 0..3"),
    (
        CATAN,
        set_in(["comparisons", "metrics"], ["condition.balance"]),
        "comparisons.metrics[0]",
        "comparisons test per-game metrics",
    ),
    (
        CATAN,
        set_in(["conditions", 1, "name"], "official"),
        "conditions[1].name",
        "duplicate name 'official' (also conditions[0])",
    ),
    (CATAN, set_in(["lineups", 1, "name"], "greedy"), "lineups[1].name", "duplicate name"),
    (
        GALLERY,
        lambda d: d["conditions"].append({"constraints": "fair"}),
        "conditions[3].name",
        "duplicate name 'fair'",
    ),
    (
        CATAN,
        set_in(["comparisons", "baseline"], "offical"),
        "comparisons.baseline",
        "not one of the conditions: official, balanced, tournament",
    ),
    (
        CATAN,
        set_in(["comparisons", "correction"], "fdr"),
        "comparisons.correction",
        "not one of holm, fdr_bh, bonferroni, none",
    ),
    (CATAN, set_in(["comparisons", "alpha"], 5), "comparisons.alpha", "between 0 and 1"),
    (
        CATAN,
        set_in(["conditions", 0, "options"], {"vp_to_win": "nine"}),
        "conditions[0].options.vp_to_win",
        "expected an integer",
    ),
    (
        CATAN,
        set_in(["conditions", 0, "options"], {"vp_to_wim": 9}),
        "conditions[0].options.vp_to_wim",
        "unknown GameOptions option",
    ),
    (
        CATAN,
        set_in(["conditions", 0, "options"], 9),
        "conditions[0].options",
        "expected a table of rule options",
    ),
    (
        GALLERY,
        set_in(["conditions", 1, "options"], {"hand_size": 10}),
        "conditions[1].options.hand_size",
        "shapes the Masters Gallery setups themselves",
    ),
    (
        CATAN,
        set_in(["comparisons", "margins"], {"first_seat_win": 5}),
        "comparisons.margins.first_seat_win",
        "a margin must be below 1 (a percentage? 5% is 0.05)",
    ),
    (
        CATAN,
        set_in(["comparisons", "margins"], {"turns": "2 turns"}),
        "comparisons.margins.turns",
        "expected a number in the metric's unit (turns)",
    ),
    (
        CATAN,
        set_in(["comparisons", "margins"], {"turns": -2}),
        "comparisons.margins.turns",
        "expected a positive number",
    ),
    (
        CATAN,
        set_in(["comparisons"], {"metrics": ["turns"], "margins": {"drama": 0.1}}),
        "comparisons.margins.drama",
        "'drama' is not a tested metric",
    ),
    (
        CATAN,
        set_in(["comparisons", "margins"], {"fun": 1}),
        "comparisons.margins.fun",
        "'fun' is not a tested metric",
    ),
    (
        CATAN,
        set_in(["comparisons"], {"metrics": ["turns"], "primary": "sevens"}),
        "comparisons.primary[0]",
        "'catan.sevens' is not a tested metric",
    ),
    (
        CATAN,
        set_in(["comparisons", "skill"], ["mixed", "greedyy"]),
        "comparisons.skill[1]",
        "'greedyy' is not one of the lineups: greedy, mixed",
    ),
    (
        CATAN,
        set_in(["comparisons", "skill"], ["mixed"]),
        "comparisons.skill",
        "name two or more lineups, least skilled first",
    ),
    (
        CATAN,
        set_in(["comparisons", "skill"], ["mixed", "mixed"]),
        "comparisons.skill[1]",
        "'mixed' is named twice",
    ),
    (
        CATAN,
        set_in(["comparisons", "skill"], "mixed < greedy"),
        "comparisons.skill",
        "expected a list of lineup names",
    ),
    (
        CATAN,
        set_in(["comparisons"], {"skill": ["mixed", "greedy"]}),
        "comparisons.skill",
        "needs comparisons.baseline",
    ),
    (CATAN, set_in(["boards"], -1), "boards", "expected an integer >= 1, got -1"),
    (CATAN, set_in(["games_per_board"], 0), "games_per_board", "expected an integer >= 1"),
    (GALLERY, set_in(["deals"], -5), "deals", "expected an integer >= 1"),
    (CATAN, set_in(["seed"], -3), "seed", "expected an integer >= 0"),
    (CATAN, set_in(["chunk_size"], 0), "chunk_size", "expected an integer >= 1"),
    (CATAN, set_in(["comparisons", "n_boot"], -1), "comparisons.n_boot", ">= 0"),
    (CATAN, set_in(["players"], 5), "players", "Catan takes 2-4 players"),
    (GALLERY, set_in(["players"], 6), "players", "Masters Gallery takes 2-5 players"),
    (CATAN, set_in(["deals"], 4), "deals", "for Catan (use 'boards')"),
    (GALLERY, set_in(["games_per_board"], 4), "games_per_board", "use 'games_per_deal'"),
    (CATAN, lambda d: d.pop("boards"), "boards", "missing"),
    (CATAN, set_in(["lineups"], []), "lineups", "at least one [[lineups]]"),
    (CATAN, lambda d: d.pop("conditions"), "conditions", "at least one [[conditions]]"),
    (CATAN, set_in(["conditons"], []), "conditons", "allowed keys: name, description"),
]


@pytest.mark.parametrize(
    ("data", "mutate", "key", "fragment"), ERRORS, ids=[f"{e[2]}:{e[3][:20]}" for e in ERRORS]
)
def test_validation_error_names_key_and_allowed_values(
    data: dict[str, Any], mutate: Any, key: str, fragment: str
) -> None:
    message = error_of(data, mutate)
    assert message.startswith(f"exp.toml: key '{key}': "), message
    assert fragment in message, message
    assert "\n" not in message


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "x"\ngame = "catan"\nseed = \nplayers = 4\n')
    with pytest.raises(ConfigError, match=r"broken\.toml: not valid TOML: .*line 3"):
        load_experiment(path)


def test_missing_file() -> None:
    with pytest.raises(ConfigError, match="no such experiment config file"):
        load_experiment("/nonexistent/exp.toml")


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


# ---------------------------------------------------------------------- values and defaults


def test_defaults_and_resolution() -> None:
    config = parse(GALLERY)
    assert [c.name for c in config.conditions] == ["fair", "balanced-symbols", "skewed-seat0"]
    assert [c.sampler for c in config.conditions] == ["auto", "exact", "auto"]
    assert config.conditions[2].constraint_set.entries[0][1]["min_count"] == 6
    assert config.lineups[0].name == "greedy,random,leader,random"
    assert config.comparisons.paired and config.comparisons.baseline is None
    assert config.options == GalleryOptions()
    assert "condition.balance" in config.metrics and "gallery.n_winners" in config.metrics
    assert "catan.sevens" not in config.metrics
    assert "n_players" not in config.comparisons.metrics


def test_options_are_converted() -> None:
    config = parse(CATAN, options={"turn_limit": "none", "friendly_robber": True})
    assert config.options == GameOptions(turn_limit=None, friendly_robber=True)
    config = parse(
        GALLERY,
        options={"deals": [4, 4, 0], "rank_tokens": [4, 2, 1], "symbols": [[1, 1, 1, 0, 0]] * 5},
    )
    assert config.options.deals == (4, 4, 0)
    assert config.options.rank_tokens == (4, 2, 1)


def test_agent_specs_are_canonical() -> None:
    config = parse(
        CATAN, lineups=[{"seats": ["greedy:trade=true", "random", "random", "greedy:trade=false"]}]
    )
    assert config.lineups[0].seats == ("greedy", "random", "random", "greedy:trade=false")


def test_metric_names_resolve() -> None:
    config = parse(
        CATAN,
        metrics=[
            "turns",
            "sevens",
            "catan.sevens",
            "condition.win_rate_3",
            "condition.drama_mean",
            "condition.wins_<s>",
        ],
    )
    assert config.metrics == (
        "turns",
        "catan.sevens",
        "condition.win_rate_3",
        "condition.drama_mean",
        "condition.wins_<s>",
    )
    assert config.comparisons.metrics == ("turns", "catan.sevens")


def test_constraint_set_file_resolves_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "mine.toml").write_text(
        'name = "mine"\n[[constraint]]\nname = "intersection-cap"\nmax = 11\n'
    )
    text = (
        'game = "catan"\nseed = 1\nplayers = 3\nboards = 2\ngames_per_board = 1\n'
        '[[conditions]]\nconstraints = "sets/mine.toml"\n'
        "params = { intersection-cap = { max = 10 } }\n"
        '[[lineups]]\nseats = "random"\n'
    )
    (tmp_path / "exp.toml").write_text(text)
    config = load_experiment(tmp_path / "exp.toml")
    cond = config.conditions[0]
    assert cond.path == (tmp_path / "sets" / "mine.toml").resolve()
    assert cond.params == {"intersection-cap.max": 10}
    assert "max=10" in resolved_dict(config)["conditions"][0]["set"]["constraints"][0]
    before = config_hash(config)
    # the hash covers the set's content, not just its file name
    (tmp_path / "sets" / "mine.toml").write_text(
        'name = "mine"\n[[constraint]]\nname = "intersection-cap"\nmax = 12\nscope = "three-hex"\n'
    )
    assert config_hash(load_experiment(tmp_path / "exp.toml")) != before
    # an override of a constraint the set no longer has is an error naming 'params'
    (tmp_path / "sets" / "mine.toml").write_text(
        'name = "mine"\n[[constraint]]\nname = "red-numbers-apart"\n'
    )
    with pytest.raises(ConfigError, match=r"key 'conditions\[0\]\.params'"):
        load_experiment(tmp_path / "exp.toml")


# -------------------------------------------------------------------------------- the plan


def test_plan_counts() -> None:
    config = parse(CATAN)
    # 3 conditions x 3 boards x 2 games x (1 rotation for greedy x4 + 4 for the mixed lineup)
    assert [lineup.rotations for lineup in config.lineups] == [(0,), (0, 1, 2, 3)]
    assert len(plan_games(config)) == config.n_games == 3 * 3 * 2 * (1 + 4)
    no_rotation = copy.deepcopy(CATAN)
    no_rotation["lineups"][1]["rotate_seats"] = False
    assert len(plan_games(parse(no_rotation))) == 3 * 3 * 2 * 2


def test_plan_order_and_slots() -> None:
    config = parse(CATAN)
    plan = plan_games(config)
    first = [g for g in plan if g.condition == "official" and g.lineup == "greedy"]
    assert [(g.setup, g.game) for g in first] == [(s, k) for s in range(3) for k in range(2)]
    for g in plan:
        assert g.slot == g.game * config.setups + g.setup
        assert g.setup == g.slot % config.setups
        assert g.pair == f"{g.lineup}|{g.rotation}|{g.slot}"
    assert [g.condition_index for g in plan] == sorted(g.condition_index for g in plan)


def test_paired_seeds_are_common_random_numbers() -> None:
    config = parse(CATAN)
    plan = plan_games(config)
    by_condition: dict[str, dict[str, int]] = {}
    for g in plan:
        by_condition.setdefault(g.condition, {})[g.pair] = g.seed
    seeds = list(by_condition.values())
    assert all(s == seeds[0] for s in seeds)
    # game j is `ludolab simulate`'s game j: game_seeds(master, boards * games)[j]
    expected = game_seeds(config.seed, config.slots)
    assert all(g.seed == expected[g.slot] for g in plan)
    # every rotation of a slot shares its seed; distinct slots have distinct seeds
    assert len({g.seed for g in plan}) == config.slots


def test_unpaired_seeds_differ_between_conditions() -> None:
    config = parse(CATAN, comparisons={"paired": False})
    plan = plan_games(config)
    per_condition = {
        c.name: {g.seed for g in plan if g.condition == c.name} for c in config.conditions
    }
    names = list(per_condition)
    for i, a in enumerate(names):
        assert len(per_condition[a]) == config.slots
        for b in names[i + 1 :]:
            assert not per_condition[a] & per_condition[b]
    assert condition_game_seeds(config, "official") != game_seeds(config.seed, config.slots)


def test_seeds_depend_on_the_master_seed_and_are_reproducible() -> None:
    a, b, c = parse(CATAN), parse(CATAN), parse(CATAN, seed=8)
    assert [g.seed for g in plan_games(a)] == [g.seed for g in plan_games(b)]
    assert {g.seed for g in plan_games(a)}.isdisjoint(g.seed for g in plan_games(c))
    assert setup_seed(a, "official") == setup_seed(b, "official")
    assert setup_seed(a, "official") != setup_seed(a, "balanced")
    assert setup_seed(a, "official") != setup_seed(c, "official")
    # a condition's setups do not depend on the other conditions
    fewer = copy.deepcopy(CATAN)
    fewer["conditions"] = fewer["conditions"][1:]
    fewer["comparisons"] = {}
    assert setup_seed(parse(fewer), "balanced") == setup_seed(a, "balanced")


def test_rotation_puts_every_agent_in_every_seat_equally_often() -> None:
    config = parse(CATAN)
    plan = plan_games(config)
    mixed = [g for g in plan if g.lineup == "mixed"]
    counts = Counter((seat, spec) for g in mixed for seat, spec in enumerate(g.seats))
    lineup = config.lineups[1]
    for spec, copies in Counter(lineup.seats).items():
        per_seat = {counts[(seat, spec)] for seat in range(config.players)}
        assert per_seat == {copies * len(mixed) // config.players}
    # rotation r seats seats[(k + r) % n] at seat k
    for g in mixed:
        assert g.seats == tuple(lineup.seats[(k + g.rotation) % 4] for k in range(4))


@pytest.mark.parametrize(
    ("seats", "period"),
    [
        (("a",) * 4, 1),
        (("a", "b") * 2, 2),
        (("a", "a", "b", "b"), 4),
        (("a", "b", "c"), 3),
        (("a", "b"), 2),
        (("a", "a", "a", "b"), 4),
    ],
)
def test_distinct_rotations_keep_seats_balanced(seats: tuple[str, ...], period: int) -> None:
    lineup = AgentLineup("x", seats)
    assert lineup.period == period and lineup.rotations == tuple(range(period))
    n = len(seats)
    played = [lineup.seats_for(r) for r in lineup.rotations]
    assert len(set(played)) == len(played)  # no duplicate games
    everything = [lineup.seats_for(r) for r in range(n)]
    assert set(everything) == set(played)
    for spec in set(seats):
        per_seat = Counter(k for s in played for k in range(n) if s[k] == spec)
        assert len(set(per_seat.values())) == 1 and len(per_seat) == n
    assert AgentLineup("x", seats, rotate_seats=False).rotations == (0,)


# ------------------------------------------------------------------------------ the hash


def test_config_hash_is_stable_across_loads(tmp_path: Path) -> None:
    src = ROOT / "experiments" / "quickstart.toml"
    copy_path = tmp_path / "quickstart.toml"
    shutil.copy(src, copy_path)
    hashes = {
        config_hash(load_experiment(src)),
        config_hash(load_experiment(src)),
        config_hash(load_experiment(copy_path)),
    }
    assert len(hashes) == 1
    assert len(hashes.pop()) == 64


def test_config_hash_ignores_spelling_but_not_values() -> None:
    base = config_hash(parse(CATAN))
    spelled = copy.deepcopy(CATAN)
    spelled["lineups"][0]["seats"] = ["greedy:trade=true"] * 4
    spelled["conditions"][2]["sampler"] = "uniform"  # the default, written out
    spelled["options"] = {"vp_to_win": 10}
    assert config_hash(parse(spelled)) == base
    for changes in [
        {"seed": 8},
        {"boards": 4},
        {"options": {"vp_to_win": 11}},
        {"comparisons": {"paired": False}},
        {"metrics": ["turns"]},
    ]:
        assert config_hash(parse(CATAN, **changes)) != base, changes
    changed = copy.deepcopy(CATAN)
    changed["conditions"][1]["params"] = {"intersection-cap.max": 21}
    assert config_hash(parse(changed)) != base


def test_resolved_dict_is_json_and_complete() -> None:
    config = load_experiment(ROOT / "experiments" / "quickstart.toml")
    data = resolved_dict(config)
    assert json.loads(json.dumps(data)) == data
    assert data["schema"] == "ludolab.experiment/1"
    assert data["n_games"] == len(plan_games(config))
    assert data["options"]["turn_limit"] == 1000  # defaults filled in
    assert data["conditions"][1]["set"]["constraints"]  # the set's constraints, expanded
    raw = tomllib.loads((ROOT / "experiments" / "quickstart.toml").read_text())
    assert data["seed"] == raw["seed"]


# ------------------------------------------------------------------ the plan is playable


def test_a_planned_game_can_be_played() -> None:
    """The resolved conditions and specs feed the generators and engines as they are."""
    from ludolab.envs.catan.agents import parse_agent_spec as catan_agent
    from ludolab.envs.catan.play import play_game as play_catan
    from ludolab.envs.gallery.agents import parse_agent_spec as gallery_agent
    from ludolab.envs.gallery.play import play_game as play_gallery
    from ludolab.research.catan.generate import generate_boards
    from ludolab.research.gallery.deals import generate_deals

    config = parse(CATAN, conditions=[CATAN["conditions"][0]], comparisons={})
    cond = config.conditions[0]
    boards, _ = generate_boards(
        cond.constraint_set, config.setups, cond.sampler, setup_seed(config, cond.name)
    )
    spec = plan_games(config)[-1]
    record = play_catan(
        boards[spec.setup], [catan_agent(s) for s in spec.seats], spec.seed, config.options
    )
    assert record.turns > 0

    config = parse(GALLERY)
    cond = config.conditions[1]
    deals, _ = generate_deals(
        cond.constraint_set,
        config.players,
        config.setups,
        setup_seed(config, cond.name),
        method=cond.sampler,
        symbols=config.options.symbols,
        hand_size=config.options.hand_size,
    )
    spec = next(g for g in plan_games(config) if g.condition == cond.name)
    record = play_gallery(
        deals[spec.setup], [gallery_agent(s) for s in spec.seats], spec.seed, config.options
    )
    assert record.final_scores


def test_primary_metrics_and_margins_resolve() -> None:
    config = parse(
        CATAN,
        comparisons={
            "baseline": "official",
            "metrics": ["turns", "catan.trades", "drama"],
            "primary": "trades",
            "margins": {"turns": 2, "drama": 0.02},
        },
    )
    assert config.comparisons.primary == ("catan.trades",)
    assert config.comparisons.margins == {"turns": 2.0, "drama": 0.02}


def test_a_condition_sets_its_own_rule_options_on_top_of_the_run() -> None:
    data = copy.deepcopy(CATAN)
    data["options"] = {"turn_limit": 500}
    data["conditions"][0]["options"] = {"vp_to_win": 9}
    config = parse_experiment(data, "exp.toml")
    first, second = config.conditions[0], config.conditions[1]
    assert first.options.vp_to_win == 9 and first.options.turn_limit == 500
    assert second.options.vp_to_win == config.options.vp_to_win and not second.rule_changes
    assert dict(first.rule_changes) == {"vp_to_win": 9}
    resolved = resolved_dict(config)
    assert resolved["conditions"][0]["options"] == {"vp_to_win": 9}
    assert "options" not in resolved["conditions"][1]  # unchanged hashes for plain configs
    data["conditions"][0]["options"] = {"vp_to_win": 8}
    assert play_hash(parse_experiment(data, "exp.toml")) != play_hash(config)


SWEEP = {
    "game": "catan",
    "seed": 1,
    "players": 4,
    "boards": 2,
    "games_per_board": 1,
    "sweep": [
        {
            "name": "cap",
            "constraints": "tournament",
            "parameter": "intersection-cap.max",
            "values": [11, 12, 14],
        },
        {"constraints": "official", "parameter": "options.vp_to_win", "values": [8, 12]},
    ],
    "lineups": [{"seats": "greedy"}],
}


def test_a_sweep_expands_into_one_condition_per_value() -> None:
    config = parse_experiment(copy.deepcopy(SWEEP), "exp.toml")
    names = [c.name for c in config.conditions]
    assert names == ["cap=11", "cap=12", "cap=14", "vp_to_win=8", "vp_to_win=12"]
    cap = config.conditions[2]
    assert cap.sweep == "cap" and cap.sweep_value == 14.0
    assert cap.sweep_parameter == "intersection-cap.max"
    assert cap.params == {"intersection-cap.max": 14}
    assert config.conditions[4].options.vp_to_win == 12
    resolved = resolved_dict(config)["conditions"][0]
    assert resolved["sweep"] == "cap" and resolved["sweep_value"] == 11.0


@pytest.mark.parametrize(
    ("change", "key", "fragment"),
    [
        (
            {"parameter": "intersection-cap.maxx"},
            "sweep[0].parameter",
            "'intersection-cap.maxx' is not a parameter of set 'tournament'; its parameters: "
            "red-numbers-apart.numbers",
        ),
        (
            {"parameter": "options.vp_to_wim"},
            "sweep[0].parameter",
            "is not a rule option a condition can set",
        ),
        ({"values": [12]}, "sweep[0].values", "two or more distinct numbers"),
        ({"values": ["low", "high"]}, "sweep[0].values", "two or more distinct numbers"),
        ({"extra": 1}, "sweep[0].extra", "unknown key"),
    ],
)
def test_a_bad_sweep_names_its_key(change: dict[str, Any], key: str, fragment: str) -> None:
    data = copy.deepcopy(SWEEP)
    data["sweep"][0].update(change)
    with pytest.raises(ConfigError) as info:
        parse_experiment(data, "exp.toml")
    assert str(info.value).startswith(f"exp.toml: key '{key}': "), str(info.value)
    assert fragment in str(info.value)


def test_a_gallery_sweep_varies_rule_options_only() -> None:
    data = copy.deepcopy(GALLERY)
    data["sweep"] = [{"constraints": "fair", "parameter": "options.hand_size", "values": [10, 13]}]
    with pytest.raises(ConfigError, match="not a rule option a condition can set"):
        parse_experiment(data, "exp.toml")
    data["sweep"] = [{"constraints": "fair", "parameter": "options.award_value", "values": [1, 2]}]
    names = [c.name for c in parse_experiment(data, "exp.toml").conditions]
    assert names[-2:] == ["award_value=1", "award_value=2"]


def test_a_gallery_symbols_table_by_artist_name() -> None:
    data = copy.deepcopy(GALLERY)
    data["options"] = {"symbols": {"Yoko": {"draw": 3, "award": 2}, "Krypto": {"double": 4}}}
    config = parse_experiment(data, "exp.toml")
    table = config.conditions[0].options.symbols
    assert table[1] == (3, 0, 2, 0, 0) and table[4] == (0, 4, 0, 0, 0) and table[0] == (0,) * 5


def test_the_report_style_is_read_resolved_and_drawn(tmp_path: Path) -> None:
    from ludolab.research.plots.figures import length_distributions
    from ludolab.research.plots.style import STYLES, figure_style

    data = copy.deepcopy(CATAN)
    data["report"] = {"style": "screen", "one_column": 4.5}
    config = parse(data)
    assert config.report == replace(STYLES["screen"], one_column=4.5)
    assert resolved_dict(config)["report"]["one_column"] == 4.5
    assert parse(CATAN).report == STYLES["paper"]  # the default
    games = pd.DataFrame({"condition": ["a", "a", "b", "b"], "turns": [60, 70, 65, 80]})
    with figure_style(config.report):
        wide = length_distributions(games)
    assert wide.get_size_inches()[0] == 4.5
    assert length_distributions(games).get_size_inches()[0] == 3.3  # paper again after
