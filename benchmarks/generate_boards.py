"""Boards per second for `official` and `balanced`: rejection, the solver samplers, the naive way.

One run prints a table: for each constraint set, the samplers of
`ludolab.research.catan.generate.generate_boards` this benchmark was made for (rejection, solver,
enumerate, optimise; the uniform sampler's chains are measured by `sample_uniform.py`) and the
naive way (one `minizinc` Python package call per board, the MiniZinc front end paid per board),
the boards made, the wall-clock seconds, boards per second and the ratio to the naive way for
that set. Then two lines check the issue's targets for `official`: at least 200 boards/s on
one core, and at least 50x the naive way. They are figures, not asserts: timing is noisy and
this script never fails on time. The exit code is 1 only when something crashed.

One core, honestly: the process pins itself to the first CPU it may run on before anything
else, and sets the OpenMP/BLAS thread counts to 1 before numpy is imported. The processes it
starts (minizinc, fzn-gecode) inherit the affinity, so they share that core with Python.

Each measurement runs in a forked worker with a deadline. When the deadline passes, the worker
is killed together with every process below it. A sampler that hangs therefore costs only its
deadline, and the run goes on.

    .venv/bin/python benchmarks/generate_boards.py [--quick] [--seed N]
"""

from __future__ import annotations

# isort: off
# First, before numpy (imported by research.* and envs.*) creates any thread pool.
from one_core import PINNED_CPU

# isort: on
import argparse  # noqa: E402
import contextlib  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import timedelta  # noqa: E402

import numpy as np  # noqa: E402

from ludolab.research.catan.constraint_set import load_constraint_set  # noqa: E402
from ludolab.research.catan.generate import generate_boards  # noqa: E402
from ludolab.research.catan.model import board_model  # noqa: E402
from ludolab.research.catan.samplers import SamplingError  # noqa: E402
from ludolab.research.solve import SolveError, find_toolchain, gecode_seed  # noqa: E402

SETS = ("official", "balanced")
TARGET_SET = "official"
TARGET_RATE = 200.0  # boards/s on one core
TARGET_RATIO = 50.0  # x the naive way


@dataclass(frozen=True)
class Budget:
    """How much work each benchmark does (default run, or --quick)."""

    uniform_n: int = 20_000
    uniform_max_draws: int = 1_000_000  # shuffles before rejection gives up
    solver_n: dict[str, int] = field(default_factory=lambda: {"official": 2_000, "balanced": 100})
    enumerate_n: int = 2_000  # the cap
    enumerate_limit: float = 10.0  # seconds of search
    optimise_limit: float = 2.0  # seconds of search
    naive_n: int = 20
    naive_board_limit: float = 10.0  # seconds per naive board (a stuck search is a lost board)
    naive_budget: float = 30.0  # no new naive board after this many seconds
    deadline: dict[str, float] = field(
        default_factory=lambda: {
            "uniform": 30.0,
            "solver": 45.0,
            "enumerate": 20.0,
            "optimise": 15.0,
            "naive": 60.0,
        }
    )


DEFAULT = Budget()
QUICK = Budget(
    uniform_n=5_000,
    uniform_max_draws=250_000,
    solver_n={"official": 500, "balanced": 20},
    enumerate_n=500,
    enumerate_limit=5.0,
    optimise_limit=1.0,
    naive_n=5,
    naive_budget=10.0,
    deadline={"uniform": 25.0, "solver": 25.0, "enumerate": 12.0, "optimise": 10.0, "naive": 30.0},
)


@dataclass
class Row:
    """One line of the table."""

    cset: str
    sampler: str
    boards: int = 0
    seconds: float = 0.0  # wall clock of the whole call (sampling + checking every board)
    uniform: bool | None = None
    note: str = ""
    failed: str | None = None  # "n/a: ..." or "error: ..."
    crashed: bool = False

    @property
    def rate(self) -> float | None:
        if self.failed or not self.boards or self.seconds <= 0:
            return None
        return self.boards / self.seconds


# -- measurements (each runs in a forked worker) -------------------------------------------------


def measure_sampler(
    cset_name: str, sampler: str, n: int, seed: int, kwargs: dict, progress: Callable[[str], None]
) -> dict:
    """Time one `generate_boards` call, as the CLI would make it."""
    cset = load_constraint_set(cset_name)
    start = time.perf_counter()
    boards, report = generate_boards(cset, n, sampler, seed, **kwargs)
    seconds = time.perf_counter() - start
    return {
        "boards": len(boards),
        "seconds": seconds,
        "uniform": report.uniform,
        "sampler_seconds": report.seconds,
        "acceptance": report.acceptance,
        "solver_runs": report.solver_runs,
        "exhausted": report.exhausted,
        "optimal": report.optimal,
        "notes": list(report.notes),
    }


def measure_naive(
    cset_name: str,
    n: int,
    seed: int,
    board_limit: float,
    budget: float,
    progress: Callable[[str], None],
) -> dict:
    """One fresh `minizinc` Python package call per board: the front end runs every time.

    Same model text (`board_model(cset, search="random")`), same solver, and the same include
    directory `ludolab.research.solve` adds on this toolchain, so the FlatZinc is the one the solver
    sampler reuses; only the per-board front end differs. Looking up the solver happens once,
    outside the timing, and the naive boards are neither completed (harbours) nor checked:
    both favour the naive way, so the ratios are if anything understated.
    """
    import minizinc

    warnings.filterwarnings("ignore", category=minizinc.error.MiniZincWarning)
    text = board_model(load_constraint_set(cset_name), search="random")
    gecode = minizinc.Solver.lookup("gecode")
    flags = {}
    for directory in find_toolchain().compat_include_dirs:
        flags["-I"] = str(directory)  # one directory at most on this toolchain
    seeds = np.random.SeedSequence(seed).generate_state(n, dtype=np.uint32) >> 1
    boards = tried = 0
    start = time.perf_counter()
    for s in seeds:
        if time.perf_counter() - start > budget:
            break
        model = minizinc.Model()
        model.add_string(text)
        instance = minizinc.Instance(gecode, model)
        result = instance.solve(
            random_seed=gecode_seed(int(s)), time_limit=timedelta(seconds=board_limit), **flags
        )
        tried += 1
        if result.status.has_solution():
            boards += 1
        progress("board")
    return {
        "boards": boards,
        "seconds": time.perf_counter() - start,
        "uniform": False,
        "tried": tried,
    }


# -- running a measurement with a deadline ---------------------------------------------------------


class Deadline(Exception):
    """The worker did not finish in time (it was killed with its children)."""

    def __init__(self, seconds: float, events: list[str]):
        self.seconds = seconds
        self.events = events
        super().__init__(f"no result within {seconds:g} s")


def _worker(conn, fn, args) -> None:

    def progress(event: str) -> None:
        conn.send(("progress", event))

    try:
        conn.send(("ok", fn(*args, progress)))
    except BaseException as exc:  # reported to the parent, which decides
        sampling = isinstance(exc, SamplingError | SolveError)
        conn.send(("failed", type(exc).__name__, str(exc), sampling, traceback.format_exc()))
    finally:
        conn.close()


def run_with_deadline(fn, args: tuple, deadline: float) -> dict:
    """``fn(*args, progress)`` in a forked worker; raise `Deadline` if it takes too long."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_worker, args=(child, fn, args), daemon=True)
    proc.start()
    child.close()
    events: list[str] = []
    end = time.monotonic() + deadline
    try:
        while True:
            left = end - time.monotonic()
            if left <= 0 or not parent.poll(left):
                raise Deadline(deadline, events)
            try:
                message = parent.recv()
            except EOFError:
                raise RuntimeError(f"the worker died (exit code {proc.exitcode})") from None
            if message[0] == "progress":
                events.append(message[1])
            elif message[0] == "ok":
                return message[1]
            else:
                _, kind, text, sampling, trace = message
                raise WorkerFailed(kind, text, sampling, trace)
    finally:
        # Whether or not the worker is done: it is not reaped yet, so its pid cannot have been
        # reused, and any minizinc/fzn-gecode it left behind go with it.
        kill_tree(proc.pid)
        proc.join()
        parent.close()


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid`` and every process below it.

    A process-group kill is not enough: MiniZinc starts its solver in a process group of its
    own, so killing the worker's group would orphan a running fzn-gecode. So: stop the tree
    from the top down (a stopped process cannot start new ones), until no new process
    appears, then kill every process found.
    """
    found: list[int] = []
    while True:
        tree = _children()
        todo, new = [pid], []
        while todo:
            p = todo.pop()
            if p not in found:
                new.append(p)
            todo += tree.get(p, [])
        if not new:
            break
        for p in new:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGSTOP)
        found += new
    for p in found:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, signal.SIGKILL)


class WorkerFailed(Exception):
    def __init__(self, kind: str, text: str, expected: bool, trace: str):
        self.kind, self.text, self.expected, self.trace = kind, text, expected, trace
        super().__init__(f"{kind}: {text}")


def short_reason(text: str, limit: int = 90) -> str:
    """The first clause of an error message, without the model / constraint-set prefix."""
    text = _PREFIX.sub("", text, count=1)
    for stop in (". ", "; ", " ("):
        text = text.split(stop, 1)[0]
    return text if len(text) <= limit else text[: limit - 3] + "..."


# "constraint set 'x': ..." (SamplingError) or "x.mzn (constraint set 'x'): ..." (SolveError).
_PREFIX = re.compile(r"^(?:[\w.-]+\.mzn )?\(?constraint set '[^']*'\)?: ")


# -- the benchmark -------------------------------------------------------------------------------


def plan(budget: Budget, seed: int) -> list[tuple[str, str, Callable, tuple, float]]:
    """(set, sampler, function, args, deadline) for every row, in table order."""
    rows = []
    for name in SETS:
        rows += [
            (
                name,
                "rejection",
                measure_sampler,
                (
                    name,
                    "rejection",
                    budget.uniform_n,
                    seed,
                    {"max_draws": budget.uniform_max_draws},
                ),
                budget.deadline["uniform"],
            ),
            (
                name,
                "solver",
                measure_sampler,
                (name, "solver", budget.solver_n[name], seed, {}),
                budget.deadline["solver"],
            ),
            (
                name,
                "enumerate",
                measure_sampler,
                (
                    name,
                    "enumerate",
                    budget.enumerate_n,
                    seed,
                    {"time_limit": budget.enumerate_limit},
                ),
                budget.deadline["enumerate"],
            ),
            (
                name,
                "optimise",
                measure_sampler,
                (name, "optimise", 1, seed, {"time_limit": budget.optimise_limit}),
                budget.deadline["optimise"],
            ),
            (
                name,
                "naive",
                measure_naive,
                (name, budget.naive_n, seed, budget.naive_board_limit, budget.naive_budget),
                budget.deadline["naive"],
            ),
        ]
    return rows


def describe(sampler: str, result: dict, budget: Budget) -> str:
    """The note column: what the number means for this sampler."""
    if sampler == "rejection":
        acc = result.get("acceptance")
        note = f"acceptance {acc:.3f}" if acc is not None else "exact draws from an enumeration"
    elif sampler == "solver":
        note = f"{result.get('solver_runs')} fzn-gecode runs, flattened once"
    elif sampler == "enumerate":
        if result.get("exhausted"):
            done = "every board"
        elif result["boards"] < budget.enumerate_n:
            done = f"stopped by the {budget.enumerate_limit:g} s limit"
        else:
            done = f"cap {budget.enumerate_n:,}"
        note = f"{done}; the solver's order, not random"
    elif sampler == "optimise":
        limit = budget.optimise_limit
        proven = "proven optimal" if result.get("optimal") else f"best in {limit:g} s"
        note = f"one board ({proven})"
    else:
        lost = result.get("tried", 0) - result["boards"]
        note = "one minizinc.Instance.solve per board"
        if lost:
            note += f"; {lost} hit the {budget.naive_board_limit:g} s limit"
        return note
    if "sampler_seconds" in result and result["seconds"] > 0:
        share = result["sampler_seconds"] / result["seconds"]
        note += f"; {share:.0%} sampling, rest checks"
    return note


def measure(budget: Budget, seed: int, log) -> list[Row]:
    rows = []
    for name, sampler, fn, args, deadline in plan(budget, seed):
        log(f"  {name:<9} {sampler:<9} ...")
        row = Row(name, sampler)
        start = time.perf_counter()
        try:
            result = run_with_deadline(fn, args, deadline)
        except Deadline:
            row.failed = f"n/a: no result within the {deadline:g} s deadline"
        except WorkerFailed as exc:
            if exc.expected:
                row.failed = f"n/a: {short_reason(exc.text)}"
            else:
                row.failed = f"error: {exc.kind}: {short_reason(exc.text, 120)}"
                row.crashed = True
                log(exc.trace)
        except Exception as exc:  # the worker itself died
            row.failed = f"error: {exc}"
            row.crashed = True
        else:
            row.boards = result["boards"]
            row.seconds = result["seconds"]
            row.uniform = result["uniform"]
            row.note = describe(sampler, result, budget)
            if not row.boards:
                row.failed = "n/a: no board"
        if row.failed:
            row.seconds = time.perf_counter() - start  # how long it took to give up
        rows.append(row)
    return rows


# -- printing ------------------------------------------------------------------------------------


def fmt_rate(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def fmt_ratio(x: float) -> str:
    return f"{fmt_rate(x)}x"


def table(rows: list[Row]) -> str:
    naive = {r.cset: r.rate for r in rows if r.sampler == "naive"}
    head = ("set", "sampler", "boards", "seconds", "boards/s", "vs naive", "uniform", "note")
    lines = []
    for r in rows:
        uniform = "yes" if r.sampler == "rejection" else "no"
        if r.failed:
            lines.append((r.cset, r.sampler, "-", f"{r.seconds:.2f}", "-", "-", uniform, r.failed))
            continue
        base = naive.get(r.cset)
        ratio = fmt_ratio(r.rate / base) if base else "-"
        lines.append(
            (
                r.cset,
                r.sampler,
                f"{r.boards:,}",
                f"{r.seconds:.2f}",
                fmt_rate(r.rate),
                ratio,
                "yes" if r.uniform else "no",
                r.note,
            )
        )
    widths = [max(len(str(x[i])) for x in [head, *lines]) for i in range(len(head) - 1)]
    right = {2, 3, 4, 5}

    def line(cells) -> str:
        out = []
        for i, cell in enumerate(cells[:-1]):
            out.append(str(cell).rjust(widths[i]) if i in right else str(cell).ljust(widths[i]))
        return "  ".join(out) + "  " + str(cells[-1])

    rule = "-" * (sum(widths) + 2 * len(widths) + 4)
    return "\n".join([line(head), rule, *(line(x) for x in lines)])


def target_checks(rows: list[Row]) -> list[str]:
    mine = [r for r in rows if r.cset == TARGET_SET and r.sampler != "naive" and r.rate]
    naive = next((r.rate for r in rows if r.cset == TARGET_SET and r.sampler == "naive"), None)
    if not mine:
        return [f"{TARGET_SET} best: no sampler produced boards (target >= {TARGET_RATE:g}): MISS"]
    best = max(mine, key=lambda r: r.rate)
    ok = "OK" if best.rate >= TARGET_RATE else "MISS"
    out = [
        f"{TARGET_SET} best: {fmt_rate(best.rate)} boards/s with {best.sampler} "
        f"(target >= {TARGET_RATE:g}): {ok}"
    ]
    if naive:
        ratio = best.rate / naive
        ok = "OK" if ratio >= TARGET_RATIO else "MISS"
        out.append(
            f"{TARGET_SET} best vs naive: {fmt_ratio(ratio)} (target >= {TARGET_RATIO:g}x): {ok}"
        )
    else:
        out.append(
            f"{TARGET_SET} best vs naive: no naive figure (target >= {TARGET_RATIO:g}x): n/a"
        )
    return out


def header(args, budget: Budget) -> str:
    tc = find_toolchain()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return "\n".join(
        [
            f"ludolab board-generation benchmark ({'quick' if args.quick else 'default'} run, "
            f"seed {args.seed})",
            f"  pinned to CPU {PINNED_CPU} of {os.cpu_count()} (minizinc and fzn-gecode inherit "
            f"it); load average {load}",
            f"  Python {platform.python_version()}, numpy {np.__version__}, "
            f"MiniZinc {tc.minizinc_version}, Gecode {tc.gecode_version}",
            "  seconds: wall clock of one generate_boards call (sampling, then every board "
            "validated and checked by the Python faces)",
            f"  uniform max_draws {budget.uniform_max_draws:,}; enumerate cap "
            f"{budget.enumerate_n:,} within {budget.enumerate_limit:g} s; optimise "
            f"{budget.optimise_limit:g} s; naive {budget.naive_n} boards "
            f"(at most {budget.naive_budget:g} s)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards (about 40 s)")
    parser.add_argument("--seed", type=int, default=2024, help="master seed (default 2024)")
    args = parser.parse_args(argv)
    budget = QUICK if args.quick else DEFAULT

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    # Warm the process-wide caches (toolchain probe, model library) before forking workers,
    # so no row pays for them.
    find_toolchain()
    board_model(load_constraint_set(TARGET_SET))
    print(header(args, budget), flush=True)
    log("measuring:")
    start, cpu0 = time.perf_counter(), os.times()
    rows = measure(budget, args.seed, log)
    wall, cpu1 = time.perf_counter() - start, os.times()
    cpu = sum(cpu1[:4]) - sum(cpu0[:4])  # user + system, this process and reaped children
    log(f"done in {wall:.0f} s")
    print()
    print(table(rows))
    print()
    share = cpu / wall
    print(
        f"total {wall:.0f} s; CPU time {cpu:.0f} s = {share:.0%} of the wall time"
        + (
            " (well under 100%: the pinned core was probably shared with other work, so the "
            "rates are low)"
            if share < 0.9
            else ""
        )
    )
    for text in target_checks(rows):
        print(text)
    return 1 if any(r.crashed for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
