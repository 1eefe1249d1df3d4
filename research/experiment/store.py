"""A run's folder on disk, written so that an interrupted run can be resumed exactly.

Layout of ``<root>/<experiment>/<run-id>/``::

    run.json              state: config hash, games, chunks, status (running / complete)
    config.toml           the config file as given; config.resolved.json: every default filled in
    boards.jsonl          the setups (deals.jsonl for Masters Gallery), see .setups
    chunks/chunk-NNNNN.parquet   finished chunks while the run is going (removed at the end)
    games.parquet         one row per game, in plan order (written once every chunk is done)
    provenance.json       versions, seeds, git commit, timings
    metrics/, comparisons.*, figures/, report.md, report.html   the analysis

Every file is written to a temporary name and renamed into place, so a crash leaves either the
old file or the new one, never half of one. A chunk file is the unit of progress: a resumed run
replays exactly the chunks without a file, and games.parquet is assembled from exactly one file
per chunk, so no game is lost or counted twice.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ludolab.research.files import write_json, write_parquet, write_parquet_stream

STATE_SCHEMA = "ludolab.run/2"
"""Version 2: the games' records carry the record core (ludolab.games.RECORD_CORE)."""
RUNNING, COMPLETE = "running", "complete"


class RunError(RuntimeError):
    """A run that cannot start, resume or finish as asked; the message says what to do."""


def with_metadata(table: pa.Table, meta: dict[str, Any]) -> pa.Table:
    """``table`` with ``meta`` (JSON) in its schema metadata under the key ``ludolab``."""
    return table.replace_schema_metadata({"ludolab": json.dumps(meta, sort_keys=True)})


def table_metadata(path: Path) -> dict[str, Any]:
    """The ``ludolab`` metadata of a Parquet file written by :func:`with_metadata`."""
    raw = (pq.read_schema(path).metadata or {}).get(b"ludolab")
    return json.loads(raw) if raw else {}


def folder_name(part: str, what: str) -> str:
    """``part`` if it is a plain folder name (letters, digits, ``._-``, not starting with
    ``.``), else RunError: an experiment's name and a run id become folders under the results
    root, and nothing may be written outside it."""
    if not re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", part):
        raise RunError(
            f"the experiment {what} {part!r} cannot be a folder name: use letters, digits, "
            f"'.', '_' and '-' (not starting with '.')"
        )
    return part


def file_sha256(path: Path) -> str:
    """sha256 (hex) of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def new_run_id(config_hash: str) -> str:
    """``YYYYmmdd-HHMMSS-<first 8 hex of the config hash>`` (UTC)."""
    return f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{config_hash[:8]}"


class RunDir:
    """One run's folder: paths, state, chunk files."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    # --- paths
    @property
    def state_path(self) -> Path:
        return self.path / "run.json"

    @property
    def chunks_dir(self) -> Path:
        return self.path / "chunks"

    @property
    def games_path(self) -> Path:
        return self.path / "games.parquet"

    def chunk_path(self, chunk: int) -> Path:
        return self.chunks_dir / f"chunk-{chunk:05d}.parquet"

    # --- state
    def read_state(self) -> dict[str, Any]:
        """run.json; RunError if the folder is not a run."""
        try:
            state = json.loads(self.state_path.read_text())
        except FileNotFoundError as exc:
            raise RunError(f"{self.path}: not a run folder (no run.json)") from exc
        except (OSError, json.JSONDecodeError) as exc:
            raise RunError(f"{self.state_path}: unreadable ({exc})") from exc
        if state.get("schema") == "ludolab.run/1":
            raise RunError(
                f"{self.state_path}: a run of an older ludolab (schema ludolab.run/1, before the "
                f"record core renamed the games' fields); play it again with `ludolab run "
                f"{self.path / 'config.toml'}` (the same seeds give the same games)"
            )
        if state.get("schema") != STATE_SCHEMA:
            raise RunError(f"{self.state_path}: schema {state.get('schema')!r}, not {STATE_SCHEMA}")
        return state

    def write_state(self, state: dict[str, Any]) -> None:
        write_json(self.state_path, state)

    # --- chunks
    def finished_chunks(self, play_hash: str, ranges: list[range]) -> set[int]:
        """Chunks with a valid file. Leftover temporary files (a write cut off) are removed; a
        chunk file from another config or with the wrong games is an error, not skipped."""
        if not self.chunks_dir.is_dir():
            return set()
        for tmp in self.chunks_dir.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
        done = set()
        for path in sorted(self.chunks_dir.glob("chunk-*.parquet")):
            try:
                chunk = int(path.stem.removeprefix("chunk-"))
                meta = table_metadata(path)
                rows = pq.read_metadata(path).num_rows
            except (ValueError, OSError, pa.ArrowException) as exc:
                raise RunError(
                    f"{path}: unreadable chunk file ({exc}); delete it and resume"
                ) from exc
            expected = ranges[chunk] if 0 <= chunk < len(ranges) else None
            if (
                meta.get("play_hash") != play_hash
                or expected is None
                or meta.get("start") != expected.start
                or meta.get("stop") != expected.stop
                or rows != len(expected)
            ):
                raise RunError(
                    f"{path}: this chunk does not belong to this run's plan (config hash, game "
                    f"range or row count differ); the run folder was altered"
                )
            done.add(chunk)
        return done

    def write_chunk(self, chunk: int, games: range, table: pa.Table, play_hash: str) -> None:
        """Save a finished chunk (atomically), tagged with its config hash and game range."""
        meta = {
            "play_hash": play_hash,
            "chunk": chunk,
            "start": games.start,
            "stop": games.stop,
        }
        write_parquet(self.chunk_path(chunk), with_metadata(table, meta), scratch=True)

    def assembled(self, play_hash: str, n_games: int) -> bool:
        """Whether games.parquet already holds this run's games (a run stopped after
        assembling them, before it was marked complete)."""
        if not self.games_path.exists():
            return False
        try:
            rows = pq.read_metadata(self.games_path).num_rows
            return table_metadata(self.games_path).get("play_hash") == play_hash and (
                rows == n_games
            )
        except (OSError, pa.ArrowException, ValueError):
            return False

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the run folder for this process (a second `ludolab run` on it fails at once)."""
        self.path.mkdir(parents=True, exist_ok=True)
        with open(self.path / ".lock", "w") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as exc:
                raise RunError(
                    f"{self.path}: another 'ludolab run' is using this run folder; wait for "
                    f"it to end (or stop it) before resuming"
                ) from exc
            yield

    def assemble(self, n_chunks: int, n_games: int, meta: dict[str, Any]) -> None:
        """Stream the chunk files in order into games.parquet (atomically, one chunk in memory
        at a time, one row group per chunk), check that it holds every game of the plan exactly
        once, then remove the chunk files."""
        paths = [self.chunk_path(c) for c in range(n_chunks)]
        # One schema for all: a chunk whose games all lack a value (no winner in any of them)
        # has a null column where the others have integers.
        schemas = [pq.read_schema(p).remove_metadata() for p in paths]
        schema = pa.unify_schemas(schemas, promote_options="permissive")
        schema = schema.with_metadata({"ludolab": json.dumps(meta, sort_keys=True)})
        expected = iter(range(n_games))

        def tables() -> Iterator[pa.Table]:
            for path in paths:
                table = pq.read_table(path)
                index = table.column("index").to_pylist()
                if index != [next(expected, None) for _ in index]:
                    raise _ChunksBroken
                yield table.replace_schema_metadata(None)
            if next(expected, None) is not None:
                raise _ChunksBroken

        try:
            write_parquet_stream(self.games_path, schema, tables())
        except _ChunksBroken:
            raise RunError(
                f"{self.path}: the chunks do not hold games 0..{n_games - 1} exactly once; "
                f"delete the chunks folder and rerun"
            ) from None
        except OSError as exc:  # a full disk, a read-only folder: the chunks are still there
            raise RunError(
                f"{self.games_path}: cannot write the games ({exc.strerror or exc}); every "
                f"played chunk is kept in {self.chunks_dir}: make room, then finish with "
                f"'ludolab run CONFIG --resume {self.path}'"
            ) from None
        for path in paths:
            path.unlink(missing_ok=True)
        if not any(self.chunks_dir.iterdir()):
            self.chunks_dir.rmdir()


class _ChunksBroken(Exception):
    """The chunk files do not hold the plan's games exactly once, in order."""


def find_resumable(root: Path, experiment: str, play_hashes: tuple[str, ...]) -> RunDir:
    """The newest unfinished run of ``experiment`` under ``root`` that plays these games (its
    recorded play hash is one of ``play_hashes``)."""
    base = root / experiment
    candidates = []
    for path in sorted(base.glob("*/run.json")) if base.is_dir() else []:
        try:
            state = RunDir(path.parent).read_state()
        except RunError:
            continue
        # unfinished: games still to play, or an analysis that did not finish (a run killed
        # while analysing is complete but has no report)
        unfinished = state.get("status") != COMPLETE or state.get("analysed") is False
        if state.get("play_hash") in play_hashes and unfinished:
            candidates.append((state.get("created", ""), path.parent))
    if not candidates:
        raise RunError(
            f"no unfinished run of {experiment!r} with this config under {base}; "
            f"run without --resume to start one (or give the run folder: --resume DIR)"
        )
    return RunDir(max(candidates)[1])


def open_finished(path: str | Path) -> tuple[RunDir, dict[str, Any], dict[str, Any]]:
    """A finished run's folder, its state (run.json) and its resolved config. RunError, saying
    how to finish the run or replay its games, if it is not finished, if games.parquet is
    missing, or if games.parquet is not the file the run assembled."""
    run = RunDir(Path(path))
    state = run.read_state()
    if not run.games_path.exists():
        if state.get("status") == COMPLETE:
            raise RunError(
                f"{run.path}: games.parquet is missing from this finished run; replay its games "
                f"(the same setups and seeds give the same games) with 'ludolab run CONFIG "
                f"--resume {run.path}'"
            )
        raise RunError(
            f"{run.path}: the run is not finished (status {state.get('status')!r}); "
            f"finish it with 'ludolab run CONFIG --resume {run.path}'"
        )
    config = json.loads((run.path / "config.resolved.json").read_text())
    recorded = state.get("games_sha256")
    if recorded and file_sha256(run.games_path) != recorded:
        raise RunError(
            f"{run.games_path} is not the file this run assembled (its sha256 no longer "
            f"matches run.json): delete it and replay the games with 'ludolab run CONFIG "
            f"--resume {run.path}' (the same setups and seeds give the same games)"
        )
    return run, state, config
