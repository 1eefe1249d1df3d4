"""The setups an experiment plays: boards (Catan) or deals (Masters Gallery), per condition.

Each condition's setups are generated from its own seed (:func:`.config.setup_seed`), so they
do not depend on the other conditions, on the worker count or on the backend. On disk they are
one JSON object per line (``boards.jsonl`` / ``deals.jsonl``), in condition order, each the
setup's own schema plus two fields, ``condition`` and ``setup`` (its index within the
condition); the board and deal readers ignore the extra fields, so the file also feeds
``ludolab simulate --boards`` directly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludolab import games
from ludolab.research.experiment.config import ExperimentConfig, setup_seed
from ludolab.research.experiment.store import RunError
from ludolab.research.files import write_text

Setup = Any
"""A setup of the run's game (a board, a deal...): an ``id`` and ``to_dict()``."""


@dataclass
class ConditionSetups:
    """One condition's setups and what its sampler reported (for the report and provenance).

    Attributes:
        condition: the condition's name.
        setups: the boards or deals, index ``s`` is setup ``s`` of the plan.
        seed: the seed they were generated from.
        sampler: the sampler asked for, and the method it used when it chose one (e.g.
            ``uniform (mcmc)``).
        uniform: whether that sampler draws uniformly from the satisfying setups (exactly, or
            by Markov chains whose diagnostics passed: ``chain`` holds them).
        acceptance: the share of fair shuffles that satisfy the set, when the sampler knows it
            (measured by rejection, or exact), else None.
        seconds: generation time (wall clock).
        notes: the sampler's remarks.
    """

    condition: str
    setups: list[Setup]
    seed: int
    sampler: str
    uniform: bool
    acceptance: float | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    chain: dict[str, Any] | None = None

    def summary(self) -> dict[str, Any]:
        """JSON-ready: everything but the setups themselves."""
        return {
            "condition": self.condition,
            "count": len(self.setups),
            "seed": self.seed,
            "sampler": self.sampler,
            "uniform": self.uniform,
            "acceptance": self.acceptance,
            "seconds": round(self.seconds, 3),
            "notes": list(self.notes),
            "chain": self.chain,
        }


def distinct_setups(setups: list[Setup], kind: str, notes: list[str]) -> list[Setup]:
    """``setups`` without repeats (by content id, first occurrence kept), noting how many were
    dropped: a setup drawn twice is one unit of the comparison, not two."""
    seen: set[str] = set()
    out = []
    for setup in setups:
        if setup.id not in seen:
            seen.add(setup.id)
            out.append(setup)
    if len(out) < len(setups):
        notes.append(
            f"{len(setups) - len(out)} of the {len(setups)} {kind} drawn repeat an earlier one "
            f"(a small set): the run uses the {len(out)} distinct ones, each one unit"
        )
    return out


def generate_condition(config: ExperimentConfig, name: str) -> ConditionSetups:
    """Generate condition ``name``'s setups (``config.setups`` of them, fewer when the sampler
    gives fewer distinct ones -- a sampler that lists a small set, repeats drawn from a small
    set -- then the distinct ones, with a note; see :func:`distinct_setups`)."""
    cond = config.condition(name)
    seed = setup_seed(config, name)
    described = games.get(config.game)
    draw = described.draw_setups(
        cond.constraint_set,
        config.setups,
        cond.sampler,
        seed,
        players=config.players,
        options=config.options,
        settings={"time_limit": None, **cond.settings},
    )
    notes = list(draw.notes)
    return ConditionSetups(
        name,
        distinct_setups(list(draw.setups), described.setup_plural, notes),
        seed,
        draw.method,
        draw.uniform,
        draw.acceptance,
        draw.seconds,
        notes,
        draw.diagnostics,
    )


def generate_setups(
    config: ExperimentConfig, progress: Callable[[str], None] | None = None
) -> dict[str, ConditionSetups]:
    """Every condition's setups, in config order. ``progress`` is told each condition's name
    before it is generated."""
    out = {}
    for cond in config.conditions:
        if progress is not None:
            progress(cond.name)
        out[cond.name] = generate_condition(config, cond.name)
    return out


def write_setups(setups: Mapping[str, ConditionSetups], path: Path) -> None:
    """Write every setup (with ``condition`` and ``setup`` fields) atomically, one per line."""
    write_text(
        path,
        "".join(
            json.dumps({**setup.to_dict(), "condition": name, "setup": s}) + "\n"
            for name, cs in setups.items()
            for s, setup in enumerate(cs.setups)
        ),
    )


def read_setups(path: Path, game: str) -> dict[str, list[Setup]]:
    """Setups by condition from a file written by :func:`write_setups`, in file order.

    Raises RunError naming the file and line for anything malformed (not JSON, a bad
    board or deal, missing or out-of-order ``condition``/``setup`` fields).
    """
    parse = games.get(game).setup_from_dict
    out: dict[str, list[Setup]] = {}
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise RunError(f"{path}: cannot read the setups ({exc.strerror})") from exc
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            data = json.loads(line)
            name, index = data["condition"], data["setup"]
            setups = out.setdefault(name, [])
            if index != len(setups):
                raise ValueError(f"setup {index} of {name!r} out of order (expected {len(setups)})")
            setups.append(parse(data, where))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise RunError(f"{where}: not a setup line written by 'ludolab run' ({exc})") from exc
        except ValueError as exc:  # the game's own error for a malformed setup
            raise RunError(f"{where}: {exc}") from exc
    return out
