"""Experiment configs: one TOML file says which game setups to compare, and how.

A config names the game, the **conditions** to compare (each a constraint set for Catan boards
or a deal set for Masters Gallery deals, plus a sampler), how many setups (boards / deals) each
condition gets and how many games each setup is played, the **lineups** of agents (one agent
spec per seat), the rule options, the master seed, the metrics and the comparisons wanted::

    name = "quickstart"
    question = "Do balanced boards play differently from official ones?"
    game = "catan"                 # or "gallery"
    seed = 2024                    # the master seed: everything random derives from it
    players = 4                    # Catan 2-4, Masters Gallery 2-5
    boards = 10                    # setups per condition ("deals" for Masters Gallery)
    games_per_board = 25           # game seeds per setup ("games_per_deal" for Gallery)
    chunk_size = 250               # games per runner chunk (optional)
    metrics = ["turns", "lead_change", "catan.sevens", "condition.balance"]  # optional: all

    [options]                      # GameOptions / GalleryOptions fields (optional)
    friendly_robber = true

    [[conditions]]
    name = "official"              # optional; defaults to the constraints value
    constraints = "official"       # a shipped set, or a .toml path (relative to this file)
    sampler = "uniform"            # Catan: uniform (exact or Markov chains; never the solver)
                                   # |rejection|chain|solver (NOT uniform)|enumerate|optimise;
                                   # Gallery: auto|exact|rejection (default: uniform / auto)
    params = { "red-numbers-apart.numbers" = [6, 8] }   # optional parameter overrides
    options = { vp_to_win = 9 }    # optional: this condition's rule options, over [options]
    # objective = "pip-spread"     # optimise only; time_limit = 10.0: solver/optimise only

    [[sweep]]                      # optional: one condition per value, named NAME=VALUE
    name = "cap"
    constraints = "tournament"     # (sampler, params, time_limit as for a condition)
    parameter = "intersection-cap.max"   # a parameter of the set, or "options.vp_to_win"
    values = [10, 11, 12, 13, 14]  # two or more distinct numbers

    [[lineups]]
    name = "mixed"                 # optional; defaults to the seats joined by ","
    seats = ["greedy", "greedy", "random", "random"]   # or one spec for every seat
    rotate_seats = true            # default true

    [comparisons]                  # optional
    baseline = "official"          # compare every condition with this one; omit: all pairs
    paired = true                  # common random numbers (default true)
    correction = "holm"            # holm | fdr_bh | bonferroni | none, over the whole family
    alpha = 0.05
    n_boot = 2000
    metrics = ["turns", "lead_change"]   # per-game metrics to test; default: those in metrics
    primary = ["turns"]            # optional: the confirmatory family; other metrics exploratory
    margins = { turns = 2.0 }      # optional: smallest difference that matters, metric's unit
                                   # (equivalence tests; also of the change across skill)
    mixed_max_games = 20000        # fit the mixed-model check up to this many games (0: never)
    skill = ["mixed", "greedy"]    # optional: lineups in order of skill; tests whether each
                                   # condition's effect changes with skill (needs a baseline)

    [report]                       # optional: how the figures are drawn
    style = "paper"                # paper (3.3 / 7 in columns, the default) | screen
    one_column = 3.5               # optional: any size of the style, in inches or as a factor

Every value is checked when the file is loaded (:func:`load_experiment`); a
:class:`ConfigError` names the file, the key and the allowed values, e.g.
``exp.toml: key 'conditions[2].sampler': 'solvr' is not one of uniform, rejection, chain,
solver, enumerate, optimise``. Constraint / deal sets are loaded (with their parameter
overrides), agent specs are parsed by the game's agent registry, options are built into the
game's options class.

**Which games are played** (:class:`GamePlan`). Let ``S`` be the setups per condition and ``G``
the games per setup. Each condition has ``S * G`` *slots*; slot ``j`` is game ``g = j // S`` on
setup ``s = j % S`` (the convention of ``ludolab simulate``: game ``i`` on board ``i mod S``).
Every slot is played once by every lineup in each of the lineup's *rotations*:

* Rotation ``r`` seats ``seats[(k + r) % n]`` at seat ``k`` (``n`` players): agent ``i`` of
  the lineup plays seat ``(i - r) mod n``.
* ``rotate_seats = true`` plays the *distinct* rotations ``r = 0 .. p - 1``, where ``p`` is
  the lineup's period (the smallest ``p >= 1`` with ``seats[(k + p) % n] == seats[k]`` for all
  ``k``; ``p`` divides ``n``). All ``n`` rotations would repeat each of these ``n / p`` times,
  and a repeat is the very same game (same setup, agents, seats and seed), so the distinct ones
  give the same seat balance without duplicate games: every agent spec plays every seat equally
  often. Four identical agents have ``p = 1`` (one rotation); ``[a, b, c, d]`` has ``p = 4``;
  ``[a, b, a, b]`` has ``p = 2``. ``rotate_seats = false`` plays rotation 0 only.
* All rotations of a slot share the slot's game seed (the same dice / agent streams), so seat
  effects are compared on common random numbers too.

Games per condition: ``S * G * sum over lineups of len(rotations)``; in all, that times the
number of conditions. The plan lists them condition by condition, then lineup, setup, game,
rotation; :attr:`GameSpec.index` is the position in that list.

**Seeds.** Slot ``j``'s game seed, with ``N = S * G``:

* ``paired = true`` (the default): ``ludolab.research.simulate.game_seeds(seed, N)[j]`` — children
  of ``numpy.random.SeedSequence(seed)``, the same for every condition and lineup (common
  random numbers: game ``j`` rolls the same dice on every condition's board ``j mod S``). A
  paired condition's rotation-0 games are exactly those of ``ludolab simulate --games N
  --seed SEED`` on that condition's setups.
* ``paired = false``: children of ``SeedSequence([seed, key("games", condition name)])``, so
  every condition has its own independent seeds.

``key(tag, name)`` is the first 8 bytes of ``sha256("tag:name")`` as an integer. A condition's
setups (boards / deals) are generated from :func:`setup_seed`, a 63-bit integer from
``SeedSequence([seed, key("setups", condition name)])``: renaming or reordering other
conditions never changes them. The pairing key :attr:`GameSpec.pair` (``lineup|rotation|slot``)
is unique within a condition and equal for the games that share seeds across conditions.

:func:`resolved_dict` gives the fully resolved config (JSON-serialisable: every default filled
in, sets expanded to their constraints, agent specs in canonical form) and :func:`config_hash`
a sha256 over it; the runner saves both.

The package's modules, one concept each: :mod:`.model` (the records and constants), :mod:`.keys`
(how a key is declared: on the field of the record it fills, with its check and default),
:mod:`.schema` (the keys each table holds, and the reader that checks values and words the
errors), :mod:`.parse` (the file, conditions, sweeps, lineups), :mod:`.comparisons` (metric
names and the ``[comparisons]`` table), :mod:`.overrides` (``--set``) and :mod:`.game_plan`
(games, seeds, hashes). The names below are the package's API.
"""

from ludolab.research.experiment.config.comparisons import (
    allowed_metrics,
    game_metrics,
    metric_unit,
)
from ludolab.research.experiment.config.game_plan import (
    ANALYSIS_KEYS,
    GamePlan,
    condition_game_seeds,
    config_hash,
    plan_games,
    play_hash,
    play_hashes,
    resolved_dict,
    setup_seed,
    slot_seed,
)
from ludolab.research.experiment.config.model import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_MIXED_MAX_GAMES,
    NONE_WORD,
    SCHEMA,
    AgentLineup,
    Comparisons,
    Condition,
    ConfigError,
    ExperimentConfig,
    GameSpec,
)
from ludolab.research.experiment.config.overrides import apply_overrides
from ludolab.research.experiment.config.parse import load_experiment, parse_experiment
from ludolab.research.experiment.config.schema import (
    COMPARISON_KEYS,
    CONDITION_KEYS,
    LINEUP_KEYS,
    SWEEP_KEYS,
    TOP_KEYS,
    condition_keys,
    sweep_keys,
    top_keys,
)

__all__ = [
    "ANALYSIS_KEYS",
    "COMPARISON_KEYS",
    "CONDITION_KEYS",
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_MIXED_MAX_GAMES",
    "LINEUP_KEYS",
    "NONE_WORD",
    "SCHEMA",
    "SWEEP_KEYS",
    "TOP_KEYS",
    "AgentLineup",
    "Comparisons",
    "Condition",
    "ConfigError",
    "ExperimentConfig",
    "GamePlan",
    "GameSpec",
    "allowed_metrics",
    "apply_overrides",
    "condition_game_seeds",
    "config_hash",
    "game_metrics",
    "load_experiment",
    "metric_unit",
    "parse_experiment",
    "plan_games",
    "play_hash",
    "play_hashes",
    "resolved_dict",
    "condition_keys",
    "sweep_keys",
    "top_keys",
    "setup_seed",
    "slot_seed",
]
