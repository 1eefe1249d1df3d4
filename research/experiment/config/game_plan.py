"""Which games a config plays, with which seeds, and the hashes a run is known by."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any

import numpy as np

from ludolab import games
from ludolab.research.experiment.config.model import SCHEMA, Condition, ExperimentConfig, GameSpec
from ludolab.research.plots.style import style_table
from ludolab.research.simulate import game_seed, game_seeds, seed_of


def _name_key(tag: str, name: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{tag}:{name}".encode()).digest()[:8], "big")


def setup_seed(config: ExperimentConfig, condition: str) -> int:
    """The seed for generating ``condition``'s setups (boards / deals): a 63-bit integer from
    ``SeedSequence([config.seed, key("setups", condition)])``."""
    return seed_of(np.random.SeedSequence([config.seed, _name_key("setups", condition)]))


def _slot_entropy(config: ExperimentConfig, condition: str) -> int | list[int]:
    """The entropy whose spawned children seed ``condition``'s slots (module docstring)."""
    if config.comparisons.paired:
        return config.seed
    return [config.seed, _name_key("games", condition)]


def slot_seed(config: ExperimentConfig, condition: str, slot: int) -> int:
    """Game seed of one slot of ``condition``: child ``slot`` of the condition's seed sequence
    (``SeedSequence(entropy).spawn(n)[slot]`` is ``SeedSequence(entropy, spawn_key=(slot,))``,
    so no list of every slot's seed is needed)."""
    return game_seed(_slot_entropy(config, condition), slot)


def condition_game_seeds(config: ExperimentConfig, condition: str) -> list[int]:
    """Game seed of every slot of ``condition`` (module docstring: the same for all conditions
    when paired)."""
    return game_seeds(_slot_entropy(config, condition), config.slots)


class GamePlan:
    """Every game of the experiment, in a fixed order (module docstring: slots, rotations,
    seeds), computed on demand: ``plan[i]`` is game ``i`` and ``plan.games(range)`` a run of
    them, so a plan of millions of games costs no memory until its chunks are played."""

    def __init__(self, config: ExperimentConfig) -> None:
        self.config = config
        self._rotated = [
            (lineup.name, [(r, lineup.seats_for(r)) for r in lineup.rotations])
            for lineup in config.lineups
        ]
        self._per_condition = config.slots * sum(len(rots) for _, rots in self._rotated)

    def __len__(self) -> int:
        return self._per_condition * len(self.config.conditions)

    def __getitem__(self, index: int) -> GameSpec:
        if not 0 <= index < len(self):
            raise IndexError(f"game {index} is not in a plan of {len(self)} games")
        config = self.config
        ci, rest = divmod(index, self._per_condition)
        cond = config.conditions[ci]
        which_lineup = 0
        while rest >= config.slots * len(self._rotated[which_lineup][1]):
            rest -= config.slots * len(self._rotated[which_lineup][1])
            which_lineup += 1
        name, rotations = self._rotated[which_lineup]
        setup, rest = divmod(rest, config.games_per_setup * len(rotations))
        game, which = divmod(rest, len(rotations))
        r, seats = rotations[which]
        slot = game * config.setups + setup
        return GameSpec(
            index=index,
            condition=cond.name,
            condition_index=ci,
            setup=setup,
            lineup=name,
            rotation=r,
            game=game,
            slot=slot,
            seed=slot_seed(config, cond.name, slot),
            seats=seats,
            pair=f"{name}|{r}|{slot}",
        )

    def games(self, indices: range) -> list[GameSpec]:
        """The games at ``indices`` (a chunk of the plan), in order."""
        return [self[i] for i in indices]


def plan_games(config: ExperimentConfig) -> list[GameSpec]:
    """Every game of the experiment as a list (:class:`GamePlan` computes them on demand)."""
    plan = GamePlan(config)
    return plan.games(range(len(plan)))


def _set_dict(game: str, cond: Condition) -> dict[str, Any]:
    return games.get(game).set_as_data(cond.constraint_set)


def resolved_dict(config: ExperimentConfig) -> dict[str, Any]:
    """The fully resolved config as plain JSON data (defaults filled in, sets expanded)."""
    out = {
        "schema": SCHEMA,
        "name": config.name,
        "description": config.description,
        "question": config.question,
        "game": config.game,
        "seed": config.seed,
        "players": config.players,
        "setup_kind": config.setup_kind,
        "setups": config.setups,
        "games_per_setup": config.games_per_setup,
        "conditions": [
            {
                "name": c.name,
                "constraints": c.constraints,
                "sampler": c.sampler,
                "params": dict(sorted(c.params.items())),
                # the two settings every resolved config has carried (the resolved config's
                # hash, which resume checks, stays the same), then any other of the game's
                "objective": c.settings.get("objective"),
                "time_limit": c.settings.get("time_limit"),
                **{k: v for k, v in c.settings.items() if k not in ("objective", "time_limit")},
                "setup_seed": setup_seed(config, c.name),
                "set": _set_dict(config.game, c),
                # only when given: configs without condition options keep their hashes
                **({"options": dict(c.rule_changes)} if c.rule_changes else {}),
                **(
                    {
                        "sweep": c.sweep,
                        "sweep_parameter": c.sweep_parameter,
                        "sweep_value": c.sweep_value,
                    }
                    if c.sweep
                    else {}
                ),
            }
            for c in config.conditions
        ],
        "lineups": [
            {
                "name": lineup.name,
                "seats": list(lineup.seats),
                "rotate_seats": lineup.rotate_seats,
                "rotations": list(lineup.rotations),
            }
            for lineup in config.lineups
        ],
        "options": asdict(config.options),
        "metrics": list(config.metrics),
        "comparisons": asdict(config.comparisons),
        "chunk_size": config.chunk_size,
        "n_games": config.n_games,
        "report": style_table(config.report),
    }
    return json.loads(json.dumps(out))  # tuples -> lists; proves it serialises


def config_hash(config: ExperimentConfig) -> str:
    """sha256 (hex) of :func:`resolved_dict`, as canonical JSON (sorted keys, no spaces)."""
    return _sha256(resolved_dict(config))


# What only the analysis reads: changing these never changes a game.
ANALYSIS_KEYS = ("description", "question", "metrics", "comparisons", "report")


def play_hash(config: ExperimentConfig) -> str:
    """sha256 (hex) of what decides the games: :func:`resolved_dict` without
    :data:`ANALYSIS_KEYS`. Runs resume on it, so a run can be resumed (or re-analysed) after
    its question, metrics, comparisons or figure style were edited, but never with other
    games."""
    return play_hashes(config)[0]


def play_hashes(config: ExperimentConfig) -> tuple[str, str]:
    """:func:`play_hash`, and the play hash runs started before ``report`` was an analysis key
    recorded (it held the ``[report]`` table): a run either names may be resumed."""
    resolved = resolved_dict(config)
    played = {k: v for k, v in resolved.items() if k not in ANALYSIS_KEYS}
    before = {**played, "report": resolved["report"]}
    return _sha256(played), _sha256(before)


def _sha256(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
