"""What the command groups share: the error a user can fix, the checks every command's
arguments pass, the options several commands take, a command per registered game, the setups
of a file, and a game's rule options as flags."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import textwrap
import tomllib
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludolab import games
from ludolab.research.cli_types import check_fits

if TYPE_CHECKING:
    from ludolab.games import Game


class SimulationError(ValueError):
    """A simulate request that cannot run as given."""


# The exceptions a user can cause and fix (one line and exit 2, never a traceback), by module,
# besides each game's own (its description's user_errors): a class whose module is not loaded
# cannot have been raised, so nothing is imported to check.
USER_ERRORS = (
    ("ludolab.games", "UnknownGameError"),
    ("ludolab.games", "SetupSetError"),
    ("ludolab.games", "GameRegistrationError"),
    ("ludolab.research.experiment.config", "ConfigError"),
    ("ludolab.research.experiment.store", "RunError"),
    ("ludolab.research.puzzles", "PuzzleError"),
    ("ludolab.research.solve", "SolveError"),
)


def is_user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`USER_ERRORS`, a :class:`SimulationError` or a missing,
    misplaced or forbidden file."""
    if isinstance(exc, SimulationError | FileNotFoundError | NotADirectoryError | PermissionError):
        return True
    for module, name in USER_ERRORS:
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(exc, getattr(loaded, name)):
            return True
    return any(holder.raised_user_error(exc) for holder in games.user_error_holders())


SIZE_ARGUMENTS = {"n": "-n", "games": "--games", "draws": "--draws"}


def check_sizes(args: argparse.Namespace) -> None:
    """Counts at least 1, and small enough to hold in memory (see cli_types.check_fits), for
    the commands that draw or play that many things: their parser's defaults set ``sized`` to
    what ``-n`` counts ("boards", "deals")."""
    noun = getattr(args, "sized", None)
    if noun is None:
        return  # other commands' -n / --n mean something else (a board size, a count cap)
    for name, flag in SIZE_ARGUMENTS.items():
        value = getattr(args, name, None)
        if not isinstance(value, int):
            continue
        if value < 1:
            raise SimulationError(f"{flag} must be at least 1, got {value}")
        what = {"n": noun}.get(name, name)
        try:
            check_fits(value, what, flag)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None


def refuse_to_overwrite(args: argparse.Namespace) -> None:
    """A command that writes one file (``--out``) keeps an existing one unless ``--force``."""
    if not hasattr(args, "force") or not getattr(args, "out", None):
        return
    out = Path(args.out)
    if out.is_dir():
        raise SimulationError(f"--out {out}: is a folder; name the file to write")
    if out.exists() and not args.force:
        raise SimulationError(
            f"--out {out}: the file exists; pass --force to replace it (nothing was written)"
        )


def add_batches(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--batch`` and ``--resume``: how a ``simulate`` command plays."""
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes (default %(default)s)"
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=1000,
        help="games per batch: each finished batch is saved, so a stopped simulation keeps "
        "it (default %(default)s)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue a stopped simulation (same arguments): play only its missing batches",
    )


def add_force(parser: argparse.ArgumentParser) -> None:
    """``--force``: replace the ``--out`` file (see :func:`refuse_to_overwrite`)."""
    parser.add_argument("--force", action="store_true", help="replace the --out file if it exists")


def parse_params(items: list[str]) -> dict:
    """``--param CONSTRAINT.PARAM=VALUE`` items as ``{"CONSTRAINT.PARAM": value}``, each value
    read as TOML (a bare word stays a string)."""
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or "." not in key:
            raise SimulationError(
                f"--param {item!r}: expected CONSTRAINT.PARAM=VALUE, e.g. "
                f"red-numbers-apart.numbers=[6,8]"
            )
        out[key.strip()] = toml_value(value)
    return out


def toml_value(text: str) -> Any:
    """``text`` read as a TOML value (``22``, ``[6,8]``, ``true``), or as it is when it is not
    one: a bare word, e.g. a choice like seed-2019-block."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parquet_out(text: str) -> Path:
    """The ``--out`` of a ``simulate`` command: a ``.parquet`` name in a folder that exists."""
    out = Path(text)
    if out.suffix != ".parquet":
        raise SimulationError(f"--out {out}: expected a .parquet file name")
    if not out.parent.is_dir():
        raise NotADirectoryError(f"--out {out}: the folder {out.parent} does not exist")
    return out


def wrapped(text: str, indent: str = "    ") -> str:
    """``text`` with its whitespace collapsed, wrapped at 96 characters after ``indent``, and
    its later lines indented two more: one entry of a listing (``ludolab constraints list``)."""
    return textwrap.fill(
        " ".join(text.split()), 96, initial_indent=indent, subsequent_indent=indent + "  "
    )


# --- a command per registered game -------------------------------------------------------------


def add_game_commands(
    sub: argparse._SubParsersAction,
    command: str,
    argv: Sequence[str],
    help_of: Callable[[Game], str],
    build: Callable[[argparse.ArgumentParser, Game], None],
) -> None:
    """A subcommand of ``command`` per registered game (``ludolab simulate GAME``), in
    ``sub``. Only the one ``argv`` names gets its flags from ``build``: they come from the
    game's modules (its rule options, agents, samplers), whose engines load numpy and
    Gymnasium, which ``ludolab --help`` and ``ludolab completion`` need not wait for (so a
    completion script completes the games' names, not their flags). A family's member
    (``mylib:chess``) gets its subcommand when ``argv`` names it."""
    chosen = argv[1] if len(argv) > 1 and argv[0] == command else None
    member = [chosen] if chosen not in games.names() and games.known(chosen) else []
    for name in games.names() + member:
        game = games.get(name)
        parser = sub.add_parser(name, help=help_of(game), description=help_of(game))
        if name == chosen:
            build(parser, game)


# --- setups from a file and the seats they are for ---------------------------------------------


def read_setups(game: Game, path: str, flag: str) -> list[Any]:
    """The setups of the file ``path`` given as ``flag``: one per line of a ``.jsonl`` file
    (blank lines skipped; a run's ``boards.jsonl`` / ``deals.jsonl`` too), or the one a
    ``.json`` file holds, each read by the game's ``setup_from_dict``. SimulationError naming
    the file (and line) when one cannot be read."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SimulationError(f"{flag} {path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise SimulationError(
            f"{flag} {path}: not UTF-8 text (byte {exc.start}); a {game.setup_noun} file is "
            "JSON, saved as UTF-8"
        ) from None
    except OSError as exc:
        raise SimulationError(f"{flag} {path}: cannot read it ({exc.strerror})") from None
    lines = text.splitlines() if file.suffix == ".jsonl" else [text]
    setups = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}" if file.suffix == ".jsonl" else path
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SimulationError(f"{where}: not JSON ({exc.msg}, column {exc.colno})") from None
        try:
            setups.append(game.setup_from_dict(data, where))
        except ValueError as exc:  # the game's message names the place and the field
            raise SimulationError(str(exc)) from None
    if not setups:
        raise SimulationError(f"{flag} {path}: no {game.setup_plural} in the file")
    return setups


def dealt_for_seats(game: Game) -> bool:
    """Whether the game deals its setups for a number of seats (a setup with ``n_players``, as
    a Masters Gallery deal): then no seat count goes without saying."""
    cls = game.setup_type
    if dataclasses.is_dataclass(cls):
        return "n_players" in {f.name for f in dataclasses.fields(cls)}
    return hasattr(cls, "n_players")


def seat_count(game: Game, players: int | None, setups: Sequence[Any] | None, ask: str) -> int:
    """The seats a command plays or deals for: ``players`` when given, else the seats the
    ``setups`` are dealt for, else the game's ``default_players`` (SimulationError ``ask``
    instead when the game deals its setups for a number of seats, which the user must say,
    unless the game has only one)."""
    if players is None and setups:
        players = getattr(setups[0], "n_players", None)
    if players is None and game.min_players == game.max_players:
        players = game.min_players
    if players is None:
        if dealt_for_seats(game):
            raise SimulationError(ask)
        players = game.default_players
    try:
        game.check_players(players)
    except ValueError as exc:
        raise SimulationError(f"--players: {exc}") from None
    return players


# --- a game's rule options as flags --------------------------------------------------------------

OPTION_DEST = "option:"
"""The ``dest`` prefix of the rule-option flags (no other flag's starts so): ``option:vp_to_win``
holds ``--vp-to-win``'s value, present only when the flag was given."""


class _TextReader:
    """Reads a flag's text as a value of a type hint (an argparse ``type``): int, float, str, a
    tuple of one of them (comma-separated), or any of these or None (``none``, as a config
    writes None)."""

    SCALARS: typing.ClassVar[dict[type, str]] = {
        int: "an integer",
        float: "a number",
        str: "a word",
    }

    def __init__(self, hint: Any) -> None:
        self.hint = hint

    @classmethod
    def of(cls, hint: Any) -> _TextReader | None:
        """The reader of ``hint``, or None when a flag cannot spell it."""
        return cls(hint) if cls._spelled(hint) else None

    @classmethod
    def _spelled(cls, hint: Any) -> bool:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            rest = [a for a in args if a is not type(None)]
            return type(None) in args and len(rest) == 1 and cls._spelled(rest[0])
        if origin is tuple:
            return len(args) == 2 and args[1] is Ellipsis and args[0] in cls.SCALARS
        return hint in cls.SCALARS

    @property
    def is_list(self) -> bool:
        """The flag takes several values, comma-separated."""
        hint = self.hint
        if typing.get_origin(hint) in (typing.Union, types.UnionType):
            hint = next(a for a in typing.get_args(hint) if a is not type(None))
        return typing.get_origin(hint) is tuple

    def words(self, hint: Any = None) -> str:
        """What the flag takes, in words."""
        hint = self.hint if hint is None else hint
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            rest = next(a for a in args if a is not type(None))
            return f"{self.words(rest)} or none"
        if origin is tuple:
            one = self.SCALARS[args[0]].removeprefix("an ").removeprefix("a ")
            return f"{one}s, comma-separated"
        return self.SCALARS[hint]

    def __call__(self, text: str) -> Any:
        try:
            return self._read(text.strip(), self.hint)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {self.words()}, got {text!r}") from None

    def _read(self, text: str, hint: Any) -> Any:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            if text.lower() == "none":
                return None
            return self._read(text, next(a for a in args if a is not type(None)))
        if origin is tuple:
            return tuple(self._read(part.strip(), args[0]) for part in text.split(",") if part)
        return hint(text)


def field_docs(cls: type) -> dict[str, str]:
    """The entries of the ``Attributes:`` section of ``cls``'s docstring, by name, each joined
    into one line (the help of a derived flag; the docs' reference pages); an entry for
    several names (``min_players, max_players: ...``) gives each of them."""
    import inspect

    docs: dict[str, str] = {}
    inside, indent, names = False, -1, []
    for line in inspect.cleandoc(cls.__doc__ or "").splitlines():
        if line.strip() == "Attributes:":
            inside = True
            continue
        if not inside or not line.strip():
            continue
        entry = re.match(r"^( +)(\w+(?:, \w+)*): (.*)$", line)
        if entry and indent in (-1, len(entry[1])):
            indent, names = len(entry[1]), entry[2].split(", ")
            for name in names:
                docs[name] = entry[3]
        elif names and len(line) - len(line.lstrip()) > indent >= 0:
            for name in names:
                docs[name] += " " + line.strip()
        else:
            break  # the section is over
    return docs


def add_option_flags(parser: argparse.ArgumentParser, game: Game) -> None:
    """A flag for every rule option of ``game`` (its ``options_type``'s fields) a flag can
    spell, as :class:`ludolab.games.OptionFlag` describes, in a group of ``parser``'s help;
    :func:`read_options` builds the options from them."""
    group = parser.add_argument_group(
        "rule options", f"{game.title}'s rules; each defaults to the published rule"
    )
    cls = game.options_type
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an annotation that names what its module does not import
        hints = {}
    docs = field_docs(cls)
    spelled = game.option_flags()
    named: dict[str, str] = {}
    for f in dataclasses.fields(cls):
        own = spelled.get(f.name) or games.OptionFlag()
        hint = hints.get(f.name, f.type)
        reader = _TextReader.of(hint)
        if own.parse is None and reader is None and hint is not bool:
            continue  # a type no flag spells: the published rule (a run's config can set it)
        flags = list(own.flags) or [_free_flag(parser, f.name)]
        named[f.name] = flags[0]
        text = _plain(own.help or docs.get(f.name) or f.name.replace("_", " "))
        if own.parse is None:
            text += f" (default: {_shown(_default_of(f), game.option_units.get(f.name))})"
        where = {"dest": OPTION_DEST + f.name, "default": argparse.SUPPRESS, "help": text}
        metavar = own.metavar or f.name.upper()
        if own.metavar is None and reader is not None and reader.is_list:
            metavar += ",..."
        if own.parse is not None:
            group.add_argument(*flags, metavar=metavar, **where)  # read when the command runs
        elif hint is bool:
            group.add_argument(*flags, action=argparse.BooleanOptionalAction, **where)
        else:
            group.add_argument(*flags, type=reader, metavar=metavar, **where)
        for switch in own.off:
            group.add_argument(
                switch,
                action="store_const",
                const=False,
                dest=OPTION_DEST + f.name,
                default=argparse.SUPPRESS,
                help=f"the same as --no-{flags[0].removeprefix('--')}",
            )
    parser.set_defaults(option_flags=named)


def _plain(doc: str) -> str:
    """Docstring words as help: ``x`` and :role:`x` as x, no closing full stop, ``%`` escaped
    for argparse."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", doc).replace("``", "")
    return text.rstrip().removesuffix(".").replace("%", "%%")


def _free_flag(parser: argparse.ArgumentParser, name: str) -> str:
    """``--vp-to-win`` for ``vp_to_win``; ``--rule-deals`` where ``--deals`` is taken (a
    command's own flag, e.g. Masters Gallery's setup file)."""
    flag = f"--{name.replace('_', '-')}"
    return flag if flag not in parser._option_string_actions else f"--rule-{flag[2:]}"


def _default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def _shown(value: Any, unit: str | None) -> str:
    """A default as the help says it: on/off, none, 3,2,1, 10 VP."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return f"{value} {unit}" if unit else str(value)


def read_options(game: Game, args: argparse.Namespace) -> Any:
    """The rule options the flags of :func:`add_option_flags` ask for: the published rules
    with every option given changed. SimulationError (one line, naming the flag) when a value
    is not one the option takes."""
    spelled = game.option_flags()
    given = vars(args)
    values = {}
    for name in game.option_names():
        if OPTION_DEST + name not in given:
            continue
        value = given[OPTION_DEST + name]
        parse = (spelled.get(name) or games.OptionFlag()).parse
        if parse is not None:
            try:
                value = parse(value)
            except ValueError as exc:  # its message names the flag
                raise SimulationError(str(exc)) from None
        values[name] = value
    try:
        return dataclasses.replace(game.default_options(), **values)
    except (ValueError, TypeError) as exc:
        cls = game.options_type.__name__
        message = str(exc).replace(f"{cls}.", "")
        blamed = re.search(rf"{cls}\.(\w+)", str(exc))
        flag = args.option_flags.get(blamed[1]) if blamed else None
        raise SimulationError(f"{flag or 'rule options'}: {message}") from None
