"""The MiniZinc face of Splendor's opening constraints, and the ``minizinc`` sampler.

``models/opening.mzn`` holds the card table's columns as data and one predicate per
constraint of :mod:`ludolab.research.splendor.opening`. :func:`opening_model` writes a model
for a constraint set: the parts of the opening its constraints read as decision variables (each
level's four cards shown as ascending card indices, the nobles as ascending noble indices),
its constraints as calls of the predicates, and a randomised search. :func:`check_deals`
evaluates the predicates on given deals instead (the tests compare them with the Python face).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from functools import cache
from importlib import resources

from ludolab.envs.splendor.cards import CARDS, NOBLES
from ludolab.envs.splendor.engine import LEVELS, SLOTS, Deal
from ludolab.research.splendor.opening import (
    LEVEL_IDS,
    Constraint,
    DrawReport,
    OpeningSet,
)

CALLS = {
    "level1-prestige": "level1_prestige({shown1}, {max})",
    "level1-cost": "level1_cost({shown1}, {min}, {max})",
    "display-colours": "display_colours({shown1} ++ {shown2} ++ {shown3}, {min}, {max})",
    "noble-colours": "noble_colours({nobles}, {min})",
}
"""Each constraint's MiniZinc face: the predicate call, its parameters and the arrays it reads
(``shown1``-``shown3``, ``nobles``: the names the model gives them) by name."""

MODEL_ARRAYS = {"shown1": "shown1", "shown2": "shown2", "shown3": "shown3", "nobles": "nobles"}
"""The arrays' names in the sampling model (:func:`opening_model`)."""

PER_RUN = 50
"""Draws one fzn-gecode process makes before the next starts with a new seed."""


@cache
def _library() -> str:
    return (resources.files("ludolab.research.splendor") / "models" / "opening.mzn").read_text()


def _array(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


@cache
def card_data() -> str:
    """The data the library declares, from the engine's card and noble tables."""
    need = ", ".join(str(x) for noble in NOBLES for x in noble.need)
    return "\n".join(
        [
            f"N_CARDS = {len(CARDS)};",
            f"LEVEL = {_array([c.level for c in CARDS])};",
            f"BONUS = {_array([c.bonus + 1 for c in CARDS])};",
            f"POINTS = {_array([c.points for c in CARDS])};",
            f"COST = {_array([sum(c.cost) for c in CARDS])};",
            f"N_NOBLES = {len(NOBLES)};",
            f"NEED = array2d(1..N_NOBLES, 1..5, [{need}]);",
        ]
    )


def _reads(constraints: Sequence[Constraint]) -> tuple[list[int], bool]:
    """The levels (0-2) whose cards shown the constraints read, and whether they read the
    nobles."""
    colours = any(c.reads_colours for c in constraints)
    levels = [lv for lv in range(LEVELS) if colours or any(c.level == lv for c in constraints)]
    return levels, any(c.reads_nobles for c in constraints)


def _calls(constraints: Sequence[Constraint]) -> list[str]:
    return [f"constraint {_call(c, MODEL_ARRAYS)};" for c in constraints]


def _call(constraint: Constraint, arrays: dict[str, str]) -> str:
    """``constraint``'s predicate call on the arrays named ``arrays``."""
    return CALLS[constraint.name].format(**constraint.values, **arrays)


def opening_model(oset: OpeningSet) -> str:
    """MiniZinc source drawing the opening parts ``oset`` constrains by randomised search."""
    levels, nobles = _reads(oset.constraints)
    lines = [f"% ludolab Splendor opening model for {oset.source}", _library(), card_data()]
    arrays = []
    for level in range(LEVELS):
        ids = LEVEL_IDS[level]
        lo, hi = min(ids) + 1, max(ids) + 1
        # a level nobody reads is still declared (display-colours sums all three), but fixed
        # to its first four cards when nothing reads it, so the search never branches on it
        name = f"shown{level + 1}"
        lines.append(f"array[1..{SLOTS}] of var {lo}..{hi}: {name};")
        lines.append(f"constraint forall(i in 1..{SLOTS - 1})({name}[i] < {name}[i + 1]);")
        if level in levels:
            arrays.append(name)
        else:
            lines.append(f"constraint {name} = {_array(range(lo, lo + SLOTS))};")
    k = oset.players + 1
    lines.append(f"array[1..{k}] of var 1..N_NOBLES: nobles;")
    lines.append(f"constraint forall(i in 1..{k - 1})(nobles[i] < nobles[i + 1]);")
    if nobles:
        arrays.append("nobles")
    else:
        lines.append(f"constraint nobles = {_array(range(1, k + 1))};")
    lines += _calls(oset.constraints)
    phases = ", ".join(f"int_search({a}, first_fail, indomain_random)" for a in arrays)
    lines.append(f"solve :: seq_search([{phases}]) satisfy;")
    return "\n".join(lines) + "\n"


def check_deals(deals: Sequence[Deal], constraints: Sequence[Constraint]) -> list[list[bool]]:
    """Whether each deal satisfies each constraint, by the MiniZinc predicates (one flattening
    and one solve for them all): ``[deal][constraint]``."""
    from ludolab.research.solve import solve

    lines = [_library(), card_data()]
    for d, deal in enumerate(deals):
        for level in range(LEVELS):
            lines.append(
                f"array[1..{SLOTS}] of int: s{d}_{level + 1} = "
                f"{_array(sorted(c + 1 for c in deal.display[level]))};"
            )
        lines.append(f"array[int] of int: n{d} = {_array(sorted(n + 1 for n in deal.nobles))};")
    pairs = [(d, j) for d in range(len(deals)) for j in range(len(constraints))]
    lines.append(f"array[1..{len(pairs)}] of var bool: ok;")
    for i, (d, j) in enumerate(pairs, 1):
        arrays = {"shown1": f"s{d}_1", "shown2": f"s{d}_2", "shown3": f"s{d}_3", "nobles": f"n{d}"}
        lines.append(f"constraint ok[{i}] <-> {_call(constraints[j], arrays)};")
    lines.append("solve satisfy;")
    result = solve("\n".join(lines), label="Splendor opening check")
    flat = result.solutions[0]["ok"]
    width = len(constraints)
    return [list(flat[d * width : (d + 1) * width]) for d in range(len(deals))]


def draw_minizinc(oset: OpeningSet, n: int, seed: int) -> tuple[list[Deal], DrawReport]:
    """``n`` deals whose constrained parts come from Gecode's randomised search (valid, not
    uniform); the parts the set leaves free, the order of the cards shown and the rest of
    each deck are shuffled fairly, every random choice from ``seed``."""
    from ludolab.research.solve import compile_model

    report = DrawReport()
    start = time.perf_counter()
    rng = random.Random(f"ludolab.splendor.minizinc:{seed}")
    levels, read_nobles = _reads(oset.constraints)
    solutions: list[dict] = []
    if levels or read_nobles:
        compiled = compile_model(
            opening_model(oset), label=f"Splendor set {oset.name!r}", model_name=f"{oset.name}.mzn"
        )
        while len(solutions) < n:
            want = min(PER_RUN, n - len(solutions))
            solutions += compiled.sample(rng.getrandbits(31), n=want, luby_scale=100)
    deals = []
    for i in range(n):
        solution = solutions[i] if solutions else {}
        decks = []
        for level in range(LEVELS):
            ids = list(LEVEL_IDS[level])
            if level in levels:
                shown = [c - 1 for c in solution[f"shown{level + 1}"]]
            else:
                shown = rng.sample(ids, SLOTS)
            rng.shuffle(shown)
            rest = [c for c in ids if c not in shown]
            rng.shuffle(rest)
            decks.append(tuple(shown + rest))
        k = oset.players + 1
        nobles = (
            [x - 1 for x in solution["nobles"]]
            if read_nobles
            else rng.sample(range(len(NOBLES)), k)
        )
        rng.shuffle(nobles)
        deal = Deal((decks[0], decks[1], decks[2]), tuple(nobles), oset.players)
        if not oset.holds(deal):  # the two faces of a constraint disagree: a defect of ours
            raise RuntimeError(
                f"Gecode's deal {deal.id} satisfies the MiniZinc face of {oset.source} but not "
                f"its Python face; please report this"
            )
        deals.append(deal)
    report.hits = n
    report.seconds = time.perf_counter() - start
    return deals, report


__all__ = ["CALLS", "card_data", "check_deals", "draw_minizinc", "opening_model"]
