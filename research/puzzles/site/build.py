"""Write the games page: ``build_site(out, packs)``.

The folder it writes::

    index.html          the games, each with its puzzles per difficulty level
    GAME.html           one page per game: the puzzle list, the board, Check / Hint / Undo / Reset
    site.css, site.js   the shared look and play loop (checking, hints, undo, saved progress)
    games/GAME.js       how a game draws its board and takes moves
    packs/GAME.js       the game's puzzles in browser form (see ``boards``), as a script

Every puzzle is verified first, as ``ludolab puzzle GAME verify`` does (rules checker,
uniqueness counted to two, the difficulty label repeated by the deductions, which also give its
hints), the games in parallel processes; the folder is written
in a staging folder beside ``out`` and moved into place at the end, so a failure leaves
nothing behind.
"""

from __future__ import annotations

import html
import json
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from ludolab.research.files import umask
from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.pack import read_pack
from ludolab.research.puzzles.site.boards import WEB_MODULES, WebGame, web_game

STATIC = resources.files("ludolab.research.puzzles.site") / "static"
SHIPPED_PACKS = resources.files("ludolab.research.puzzles.site") / "packs"


@dataclass(frozen=True)
class SiteSummary:
    """What a build wrote: the folder, and per game its puzzles by level."""

    out: Path
    puzzles: dict[str, dict[str, int]]


def shipped_packs(game: str) -> list[Path]:
    """The packs the site uses for ``game`` when none is given (research/puzzles/site/packs:
    ``GAME-SIZE.json``, smaller grids first)."""
    folder = Path(str(SHIPPED_PACKS))
    return sorted(folder.glob(f"{game}-*.json"), key=lambda p: int(p.stem.rpartition("-")[2]))


def read_packs(paths: Sequence[str | Path]) -> dict[str, list[Path]]:
    """The given packs by game, in the order given; PuzzleError for a pack of a game the page
    does not have."""
    chosen: dict[str, list[Path]] = {}
    for path in map(Path, paths):
        game = read_pack(path).game
        if game not in WEB_MODULES:
            raise PuzzleError(
                f"{path}: a pack of {game!r}; the games page has {', '.join(WEB_MODULES)}"
            )
        chosen.setdefault(game, []).append(path)
    return chosen


def build_site(
    out: str | Path, packs: Sequence[str | Path] = (), replace: bool = False, workers: int = 2
) -> SiteSummary:
    """Write the games page to ``out`` from ``packs`` (files; a game with none given uses its
    shipped packs, a game with some given only those). PuzzleError, with nothing written, when
    ``out`` exists (and not ``replace``) or a pack fails verification. ``workers``: processes
    for the games (joblib)."""
    out = Path(out)
    if out.exists() and not replace:
        raise PuzzleError(f"--out {out}: exists; pass --force to replace it (nothing was written)")
    if out.exists() and not out.is_dir():
        raise PuzzleError(f"--out {out}: not a folder")
    if not out.parent.is_dir():
        raise PuzzleError(f"--out {out}: the folder {out.parent} does not exist")
    chosen = read_packs(packs)
    names = list(WEB_MODULES)
    paths = [[str(p) for p in chosen.get(name) or shipped_packs(name)] for name in names]
    from joblib import Parallel, delayed

    # Games in parallel (their deductions are most of the build); errors come back as text.
    results = Parallel(n_jobs=min(workers, len(names)))(
        delayed(_game_boards)(name, game_paths) for name, game_paths in zip(names, paths,
                                                                           strict=True)
    )
    problem = next((r for r in results if isinstance(r, str)), None)
    if problem is not None:
        raise PuzzleError(problem)
    games = [web_game(name) for name in names]
    boards = dict(zip(names, results, strict=True))
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        staging.chmod(0o777 & ~umask())  # mkdtemp's 0700 would hide the site from a server
        _write(staging, games, boards)
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return SiteSummary(
        out=out,
        puzzles={
            game.name: {
                lv: sum(b["level"] == lv for b in boards[game.name]) for lv in game.puzzle.levels
            }
            for game in games
        },
    )


def _game_boards(name: str, paths: list[str]) -> list[dict] | str:
    """The browser form of every puzzle of a game's packs, each checked as ``verify`` checks
    it (the rules checker, uniqueness counted to two, and the stored level against the
    deductions', which the hints use too, so they run once); or the first problem, as text."""
    game = web_game(name)
    boards: list[dict] = []
    seen: set[str] = set()
    try:
        for path in paths:
            for i, p in enumerate(read_pack(path, name).puzzles):
                problem = game.puzzle.check(p)
                board = game.board(p) if problem is None else None
                if board is not None and board["level"] != p.difficulty["level"]:
                    problem = (f"labelled {p.difficulty['level']!r}, the deductions say "
                               f"{board['level']!r}")
                if problem is not None:
                    return f"{path}: puzzles[{i}] ({p.id}): {problem}"
                if p.id in seen:
                    return f"{name} packs: puzzle {p.id!r} is in two packs"
                seen.add(p.id)
                boards.append(board)
    except PuzzleError as exc:
        return str(exc)
    return boards


def _write(folder: Path, games: list[WebGame], all_boards: dict[str, list[dict]]) -> None:
    (folder / "games").mkdir()
    (folder / "packs").mkdir()
    for name in ("site.css", "site.js"):
        (folder / name).write_text((STATIC / name).read_text())
    page = Template((STATIC / "game.html").read_text())
    cards = []
    for game in games:
        boards = all_boards[game.name]
        data = {
            "game": game.name,
            "title": game.title,
            "levels": list(game.puzzle.levels),
            "puzzles": boards,
        }
        (folder / "games" / game.script_file).write_text(
            (STATIC / "games" / game.script_file).read_text()
        )
        (folder / "packs" / f"{game.name}.js").write_text(
            "Ludolab.pack(" + json.dumps(data, separators=(",", ":")) + ");\n"
        )
        (folder / f"{game.name}.html").write_text(
            page.substitute(
                game=game.name,
                script=game.script_file,
                title=html.escape(game.title),
                rules=game.rules,
                controls=game.controls,
            )
        )
        counts = ", ".join(
            f"{sum(b['level'] == lv for b in boards)} {lv}"
            for lv in game.puzzle.levels
            if any(b["level"] == lv for b in boards)
        )
        cards.append(
            f'<li class="game-card"><a href="{game.name}.html"><h2>{html.escape(game.title)}</h2>'
            f"<p>{game.rules}</p><p class=\"counts\">{len(boards)} puzzles: {counts}</p></a></li>"
        )
    index = Template((STATIC / "index.html").read_text())
    (folder / "index.html").write_text(index.substitute(games="\n".join(cards)))


__all__ = ["SiteSummary", "build_site", "read_packs", "shipped_packs"]
