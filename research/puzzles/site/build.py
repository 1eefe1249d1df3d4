"""Write the games page: ``build_site(out, packs)``.

The folder it writes::

    index.html          the games, each with its puzzles per difficulty level
    GAME.html           one page per game: the puzzle list, the board, Check / Hint / Undo / Reset
    site.css, site.js   the shared look and play loop (checking, hints, undo, saved progress)
    games/GAME.js       how a game draws its board and takes moves
    packs/GAME.js       the game's puzzles in browser form (see ``boards``), as a script

Every pack is verified first (rules checker, uniqueness counted to two, difficulty labels
repeated; :func:`~ludolab.research.puzzles.pack_cli.verify_pack`), and the folder is written
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
from ludolab.research.puzzles.pack import PackPuzzle, read_pack
from ludolab.research.puzzles.pack_cli import verify_pack
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
    out: str | Path, packs: Sequence[str | Path] = (), replace: bool = False
) -> SiteSummary:
    """Write the games page to ``out`` from ``packs`` (files; a game with none given uses its
    shipped packs, a game with some given only those). PuzzleError, with nothing written, when
    ``out`` exists (and not ``replace``) or a pack fails verification."""
    out = Path(out)
    if out.exists() and not replace:
        raise PuzzleError(f"--out {out}: exists; pass --force to replace it (nothing was written)")
    if out.exists() and not out.is_dir():
        raise PuzzleError(f"--out {out}: not a folder")
    if not out.parent.is_dir():
        raise PuzzleError(f"--out {out}: the folder {out.parent} does not exist")
    chosen = read_packs(packs)
    games = [web_game(name) for name in WEB_MODULES]
    verified: dict[str, list[PackPuzzle]] = {}
    for game in games:
        paths = chosen.get(game.name) or shipped_packs(game.name)
        puzzles = [p for path in paths for p in verify_pack(path, game.puzzle).puzzles]
        ids = [p.id for p in puzzles]
        if len(set(ids)) < len(ids):
            twice = next(i for i in ids if ids.count(i) > 1)
            raise PuzzleError(f"{game.name} packs: puzzle {twice!r} is in two packs")
        verified[game.name] = puzzles
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        staging.chmod(0o777 & ~umask())  # mkdtemp's 0700 would hide the site from a server
        _write(staging, games, verified)
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return SiteSummary(
        out=out,
        puzzles={
            game.name: {
                lv: sum(p.difficulty["level"] == lv for p in verified[game.name])
                for lv in game.puzzle.levels
            }
            for game in games
        },
    )


def _write(folder: Path, games: list[WebGame], puzzles: dict[str, list[PackPuzzle]]) -> None:
    (folder / "games").mkdir()
    (folder / "packs").mkdir()
    for name in ("site.css", "site.js"):
        (folder / name).write_text((STATIC / name).read_text())
    page = Template((STATIC / "game.html").read_text())
    cards = []
    for game in games:
        boards = [game.board(p) for p in puzzles[game.name]]
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
