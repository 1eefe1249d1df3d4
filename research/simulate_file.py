"""``ludolab simulate``'s games written to a Parquet file in batches: flat memory, worker
processes, and a resumable stop.

While the games are played, each finished batch is its own file in a hidden folder beside the
output (``.<name>.parts/part-NNNNN.parquet``), tagged with a key of the request (game, agents,
seed, options, setups, batch size). At the end the parts are streamed, in order, into the
output file (atomically: a temporary name renamed into place), and the folder is removed. A
stopped simulation (Ctrl-C, a killed process, a full disk) keeps its finished batches; the same
command with ``--resume`` plays only the missing ones, and the output is the same file as an
uninterrupted run's.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ludolab.research.experiment.backends import run_local
from ludolab.research.files import write_parquet, write_parquet_stream
from ludolab.research.progress import bar as progress_bar
from ludolab.research.simulate import BatchTask, play_batch


class SimulationStopped(RuntimeError):
    """A simulation cannot start, resume or finish as asked; the message says what to do."""


def request_key(parts: dict[str, Any]) -> str:
    """A sha256 over the request (JSON), naming the games a batch file holds."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def parts_folder(out: Path) -> Path:
    """Where the finished batches of a simulation writing ``out`` wait."""
    return out.with_name(f".{out.name}.parts")


def _done(folder: Path, key: str, n_batches: int, resume: bool, out: Path) -> set[int]:
    if not folder.exists():
        return set()
    files = sorted(folder.glob("part-*.parquet"))
    if not files:
        return set()  # a start that failed before its first batch: nothing to keep
    if not resume:
        raise SimulationStopped(
            f"{folder} holds {len(files)} finished batches of an interrupted simulation to "
            f"{out}: continue it with the same command and --resume, or delete the folder"
        )
    done = set()
    for path in files:
        try:
            meta = json.loads((pq.read_schema(path).metadata or {}).get(b"ludolab", b"{}"))
        except (OSError, pa.ArrowException, ValueError):
            path.unlink()  # a batch cut short by a crash: played again
            continue
        if meta.get("key") != key:
            raise SimulationStopped(
                f"{folder}: its batches come from another request (other agents, seed, "
                f"options, setups or --batch); resume with the same arguments, or delete the "
                f"folder"
            )
        chunk = int(path.stem.removeprefix("part-"))
        if 0 <= chunk < n_batches:
            done.add(chunk)
    return done


def simulate_to_file(
    out: Path,
    tasks: Callable[[set[int]], Iterator[BatchTask]],
    n_games: int,
    batch: int,
    *,
    key: str,
    metadata: dict[str, Any],
    workers: int = 1,
    resume: bool = False,
    progress: bool = True,
) -> None:
    """Play ``n_games`` games in batches of ``batch`` and write them to ``out``.

    ``tasks(skip)`` yields the tasks of the batches not in ``skip``; ``key`` identifies the
    request (see :func:`request_key`); ``metadata`` goes into the output's schema under
    ``ludolab``. Each batch is saved when it finishes; on Ctrl-C the finished batches stay
    (the KeyboardInterrupt propagates after a line that says how to resume).
    """
    folder = parts_folder(out)
    n_batches = (n_games + batch - 1) // batch
    done = _done(folder, key, n_batches, resume, out)
    folder.mkdir(parents=True, exist_ok=True)
    bar = progress_bar(
        total=n_games,
        initial=sum(min(batch, n_games - c * batch) for c in done),
        unit="game",
        quiet=not progress,
        leave=True,
    )

    def saved() -> str:
        return (
            f"{len(list(folder.glob('part-*.parquet')))} of {n_batches} batches saved in "
            f"{folder}; continue with the same command and --resume"
        )

    try:
        for chunk, table in run_local(tasks(done), workers, play_batch):
            meta = {"key": key, "chunk": chunk}
            table = table.replace_schema_metadata({"ludolab": json.dumps(meta)})
            write_parquet(folder / f"part-{chunk:05d}.parquet", table, scratch=True)
            bar.update(table.num_rows)
    except KeyboardInterrupt:
        bar.close()
        print(f"interrupted: {saved()}", file=sys.stderr, flush=True)
        raise
    except OSError as exc:
        bar.close()
        raise SimulationStopped(f"{exc.strerror or exc}: {saved()}") from None
    except BaseException:
        bar.close()
        if not any(folder.iterdir()):  # failed before a batch finished: leave nothing behind
            folder.rmdir()
        raise
    bar.close()
    paths = [folder / f"part-{c:05d}.parquet" for c in range(n_batches)]
    schema = pa.unify_schemas(
        [pq.read_schema(p).remove_metadata() for p in paths], promote_options="permissive"
    )
    schema = schema.with_metadata({"ludolab": json.dumps(metadata)})
    try:
        write_parquet_stream(out, schema, (pq.read_table(p) for p in paths))
    except OSError as exc:
        raise SimulationStopped(
            f"{out}: cannot write the games ({exc.strerror or exc}); every batch is kept in "
            f"{folder}: make room, then finish with the same command and --resume"
        ) from None
    shutil.rmtree(folder)
