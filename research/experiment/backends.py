"""Where chunks are played: this process, local worker processes, or a Dask cluster.

Every backend takes the same :class:`~.play.ChunkTask` objects and yields ``(chunk, table)``
as chunks finish, in whatever order they finish; the runner saves each one. Results do not
depend on the backend (see :mod:`.play`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ludolab.research.experiment.store import RunError

if TYPE_CHECKING:  # imported where used: `ludolab simulate gallery` needs no Catan engine
    import pyarrow as pa

    from ludolab.research.experiment.play import ChunkTask

BACKENDS = ("local", "dask")
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
# How often the runner looks at its workers while it waits for a chunk (a dead worker can
# leave loky stuck: see _unstick). Only how soon a death is noticed depends on it.
WATCH_SECONDS = 0.5


class WorkerDied(RunError):
    """A worker process died while playing (killed, out of memory)."""


def _init_worker() -> None:
    # Ctrl-C reaches the whole process group; the parent decides what happens, so workers
    # must not die mid-chunk with a traceback of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker blocks on its task queue, whose pipe it holds open itself: if the parent is
    # killed outright, nothing would ever end the worker. Linux can tie it to the parent.
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)


def run_inline(
    tasks: Iterable[Any], play: Callable[[Any], pa.Table] | None = None
) -> Iterator[tuple[int, pa.Table]]:
    """Play the chunks one after another in this process (``play`` as for :func:`run_local`)."""
    play = play or _play_chunk()
    for task in tasks:
        yield task.chunk, play(task)


def run_local(
    tasks: Iterable[Any], workers: int, play: Callable[[Any], pa.Table] | None = None
) -> Iterator[tuple[int, pa.Table]]:
    """Play the chunks on ``workers`` local processes (``workers`` = 1: in this process).
    ``play`` (a module-level function, so that workers can import it) plays one task:
    :func:`~.play.play_chunk` of a :class:`~.play.ChunkTask` by default; any task with a
    ``chunk`` number will do.

    At most ``2 * workers`` chunks are queued at a time. On Ctrl-C the queued chunks are
    cancelled, the running ones are finished and yielded, then KeyboardInterrupt propagates.
    Raises :class:`WorkerDied` if a worker process dies.
    """
    if workers <= 1:
        yield from run_inline(tasks, play)
        return
    # loky (joblib's executor), not concurrent.futures: the standard pool can hang for good
    # when a worker is killed while it sends a result (seen here in about 1 run in 8); loky
    # notices the dead worker and fails the pending futures (TerminatedWorkerError).
    from joblib.externals.loky import ProcessPoolExecutor

    play = play or _play_chunk()
    todo = iter(tasks)
    pending: dict[Future[pa.Table], int] = {}
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker) as pool:

        def fill() -> None:
            while len(pending) < 2 * workers:
                task = next(todo, None)
                if task is None:
                    return
                pending[pool.submit(play, task)] = task.chunk

        try:
            fill()
            while pending:
                done, _ = wait(pending, timeout=WATCH_SECONDS, return_when=FIRST_COMPLETED)
                if not done and _a_worker_died(pool):
                    _unstick(pool)  # then the pending futures fail: WorkerDied below
                for future in sorted(done, key=pending.__getitem__):
                    chunk = pending.pop(future)
                    yield chunk, _result(future, chunk)
                fill()
        except KeyboardInterrupt:
            print(
                "\ninterrupted: finishing the chunks in progress, to keep them",
                file=sys.stderr,
                flush=True,
            )
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True)
            for future, chunk in sorted(pending.items(), key=lambda item: item[1]):
                if future.done() and not future.cancelled() and future.exception() is None:
                    yield chunk, future.result()
            raise
        except BrokenProcessPool as exc:  # noticed while submitting or waiting, not in a result
            raise WorkerDied(
                "a worker process died while playing a chunk (killed, or out of memory?)"
            ) from exc


def _a_worker_died(pool: Any) -> bool:
    """Whether a worker process of the (loky) pool ended abnormally (killed, out of memory)."""
    processes = list(getattr(pool, "_processes", {}).values())
    return any(p.exitcode not in (None, 0) for p in processes)


def _unstick(pool: Any) -> None:
    """After a worker died: end the other workers and close this process's end of the results
    pipe. A worker killed while it sends a result leaves half a message in the pipe, and loky's
    manager thread, reading it, would wait for the rest for ever (here, and again when the
    interpreter exits and joins it); with every writer gone the read ends, loky marks the pool
    broken and fails the pending futures."""
    for process in list(getattr(pool, "_processes", {}).values()):
        if process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)  # (loky's kill() can block here)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    handle = getattr(writer, "_handle", None)
    if handle is not None:
        # Not writer.close(): it closes the descriptor before it forgets it, and loky's
        # manager thread, woken by that very close, closes the same writer in between and
        # fails with EBADF. Forgotten first, the writer's later close() does nothing.
        writer._handle = None
        os.close(handle)


def _result(future: Future[pa.Table], chunk: int) -> pa.Table:
    try:
        return future.result()
    except BrokenProcessPool as exc:
        raise WorkerDied(
            f"a worker process died while playing chunk {chunk} (killed, or out of memory?)"
        ) from exc


def connect_dask(scheduler: str) -> Any:
    """A ``distributed.Client`` for the scheduler at ``scheduler`` (``tcp://host:8786``);
    RunError, before anything is written, when none answers within 10 s."""
    from distributed import Client

    try:
        return Client(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise RunError(
            f"--scheduler {scheduler}: cannot reach a Dask scheduler there ({exc}); start one "
            f"with 'dask scheduler' and workers with 'dask worker {scheduler}'"
        ) from exc


def _play_chunk() -> Callable[[Any], pa.Table]:
    from ludolab.research.experiment.play import play_chunk

    return play_chunk


def run_dask(tasks: Iterable[ChunkTask], client: Any) -> Iterator[tuple[int, pa.Table]]:
    """Play the chunks on the Dask cluster of ``client`` (see :func:`connect_dask`). The workers
    need this package installed. At most twice as many chunks as the cluster has workers (at
    least 4) are submitted at a time, so a plan of millions of games is never held in memory
    as tasks. Dask reschedules the chunks of a worker that dies; on Ctrl-C the chunks not yet
    finished are cancelled."""
    from distributed import as_completed

    todo = iter(tasks)
    window = max(4, 2 * len(client.scheduler_info().get("workers", {})))
    chunk_of: dict[str, int] = {}
    pending: set[Any] = set()

    def submit() -> Any:
        task = next(todo, None)
        if task is None:
            return None
        future = client.submit(_play_chunk(), task, pure=False)
        chunk_of[future.key] = task.chunk
        pending.add(future)
        return future

    first = [f for f in (submit() for _ in range(window)) if f is not None]
    finished = as_completed(first, loop=client.loop)
    try:
        for future in finished:
            table = future.result()
            # Drop our reference at once, so the cluster can forget the result (a long run
            # would otherwise keep every chunk's table in worker memory until the end).
            pending.discard(future)
            future.release()
            following = submit()
            if following is not None:
                finished.add(following)
            yield chunk_of.pop(future.key), table
    except KeyboardInterrupt:
        client.cancel(list(pending))
        raise
