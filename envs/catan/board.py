"""The Board: what a Catan setup puts on the table, with JSON read/write and validation.

JSON schema (``ludolab.catan.board/1``), one object per board (``.json``) or per line (``.jsonl``)::

    {
      "schema":  "ludolab.catan.board/1",
      "layout":  "standard",                  # a layout name, see envs/catan/layouts/
      "terrain": ["ore", "wool", ...],        # one per hex, hexes in reading order (19)
      "numbers": [10, 2, ..., null, ...],     # token per hex, 2..12 (not 7); null on the desert
      "harbors": ["generic", "brick", ...],   # harbor type per harbor slot (9)
      "robber":  9,                           # hex index where the robber starts (the desert)
      "id":      "3f2c..."                    # optional; checked against the content if present
    }

Terrains: lumber, wool, grain, brick, ore, desert. Harbor types: generic (3:1) or a resource
(2:1). Counts must match the layout (standard: 4/4/4/3/3/1 hexes; tokens 2 and 12 once, 3-6 and
8-11 twice; 4 generic and 5 resource harbors).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ludolab.envs.catan.topology import Layout, LayoutError, load_layout
from ludolab.envs.jsonl import iter_records, read_record, write_records

SCHEMA = "ludolab.catan.board/1"
RESOURCES: tuple[str, ...] = ("lumber", "wool", "grain", "brick", "ore")
TERRAINS: tuple[str, ...] = (*RESOURCES, "desert")
DESERT = TERRAINS.index("desert")
HARBOR_TYPES: tuple[str, ...] = ("generic", *RESOURCES)
# The names as JSON strings (for Board._canonical).
_TERRAIN_JSON = tuple(json.dumps(t) for t in TERRAINS)
_HARBOR_JSON = tuple(json.dumps(h) for h in HARBOR_TYPES)
NUMBERS: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def pips(number: int) -> int:
    """Dots on a number token: the number of ways (out of 36) two dice roll it; 0 for no token."""
    return 0 if number == 0 else 6 - abs(7 - number)


class BoardError(ValueError):
    """A board (or board file) is not a valid Catan setup. The message names file and field."""


@dataclass(frozen=True)
class Board:
    """One setup. Integer codes index ``TERRAINS`` and ``HARBOR_TYPES``; number 0 = no token.

    Attributes:
        terrain: terrain code per hex, shape (n_hexes,).
        numbers: number token per hex, shape (n_hexes,), 0 on the desert.
        harbors: harbor-type code per harbor slot, shape (n_slots,).
        robber: hex index where the robber starts.
        layout: name of the layout the indices refer to.
    """

    terrain: tuple[int, ...]
    numbers: tuple[int, ...]
    harbors: tuple[int, ...]
    robber: int
    layout: str = "standard"

    @property
    def topology(self) -> Layout:
        return load_layout(self.layout)

    @property
    def id(self) -> str:
        """Canonical id: a hash of the content (layout, terrain, numbers, harbors, robber)."""
        return hashlib.sha256(self._canonical().encode()).hexdigest()[:16]

    def _canonical(self) -> str:
        """``json.dumps(self._content(), separators=(",", ":"), sort_keys=True)``, written out
        (a quarter of the time: every game record asks for the id)."""
        return (
            f'{{"harbors":[{",".join(_HARBOR_JSON[h] for h in self.harbors)}],'
            f'"layout":{json.dumps(self.layout)},'
            f'"numbers":[{",".join(str(n) if n else "null" for n in self.numbers)}],'
            f'"robber":{int(self.robber)},'
            f'"terrain":[{",".join(_TERRAIN_JSON[t] for t in self.terrain)}]}}'
        )

    def _content(self) -> dict:
        return {
            "layout": self.layout,
            "terrain": [TERRAINS[t] for t in self.terrain],
            "numbers": [n if n else None for n in self.numbers],
            "harbors": [HARBOR_TYPES[h] for h in self.harbors],
            "robber": self.robber,
        }

    def to_dict(self) -> dict:
        """The board as a JSON-ready dict in the documented schema (with its id)."""
        return {"schema": SCHEMA, **self._content(), "id": self.id}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "))

    @classmethod
    def from_dict(cls, data: object, source: str = "<board>") -> Board:
        """Parse and validate a board dict; raise :class:`BoardError` naming source and field."""
        if not isinstance(data, dict):
            raise BoardError(
                f"{source}: expected a JSON object with fields "
                f"terrain, numbers, harbors, robber; got {type(data).__name__}"
            )
        schema = data.get("schema", SCHEMA)
        if schema != SCHEMA:
            raise BoardError(
                f"{source}: field 'schema' is {schema!r}; this version reads {SCHEMA!r}"
            )
        layout_name = data.get("layout", "standard")
        try:
            layout = load_layout(str(layout_name))
        except LayoutError as exc:
            raise BoardError(f"{source}: field 'layout': {exc}") from exc
        for field in ("terrain", "numbers", "harbors", "robber"):
            if field not in data:
                raise BoardError(f"{source}: missing field {field!r}")
        terrain = _codes(data["terrain"], TERRAINS, "terrain", layout.n_hexes, source)
        harbors = _codes(data["harbors"], HARBOR_TYPES, "harbors", len(layout.harbor_slots), source)
        raw_numbers = data["numbers"]
        if not isinstance(raw_numbers, list) or len(raw_numbers) != layout.n_hexes:
            raise BoardError(
                f"{source}: field 'numbers' must be a list of {layout.n_hexes} "
                f"entries (a token 2..12 per hex, null on the desert)"
            )
        numbers = []
        for i, n in enumerate(raw_numbers):
            if n is None or n == 0:
                numbers.append(0)
            elif isinstance(n, int) and not isinstance(n, bool) and n in NUMBERS:
                numbers.append(n)
            else:
                raise BoardError(
                    f"{source}: field 'numbers[{i}]' is {n!r}; expected one of "
                    f"{', '.join(map(str, NUMBERS))} or null on the desert"
                )
        robber = data["robber"]
        if (
            not isinstance(robber, int)
            or isinstance(robber, bool)
            or not 0 <= robber < layout.n_hexes
        ):
            raise BoardError(
                f"{source}: field 'robber' is {robber!r}; expected a hex index "
                f"0..{layout.n_hexes - 1}"
            )
        board = cls(tuple(terrain), tuple(numbers), tuple(harbors), robber, layout.name)
        board.validate(source)
        if "id" in data and data["id"] != board.id:
            raise BoardError(
                f"{source}: field 'id' is {data['id']!r} but the content hashes to "
                f"{board.id!r}; the file was edited or corrupted (drop 'id' to accept)"
            )
        return board

    @classmethod
    def from_json(cls, text: str, source: str = "<board>") -> Board:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BoardError(
                f"{source}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
            ) from exc
        return cls.from_dict(data, source)

    def validate(self, source: str = "<board>") -> None:
        """Check counts and placement against the layout; raise :class:`BoardError` if wrong."""
        layout = self.topology
        _check_counts(
            source,
            "terrain",
            "hexes",
            layout.name,
            TERRAINS,
            Counter({TERRAINS.index(t): n for t, n in layout.resource_counts.items()}),
            Counter(self.terrain),
        )
        for i, (t, n) in enumerate(zip(self.terrain, self.numbers, strict=True)):
            if t == DESERT and n:
                raise BoardError(
                    f"{source}: field 'numbers[{i}]' is {n} but hex {i} is the "
                    f"desert, which carries no number (use null)"
                )
            if t != DESERT and not n:
                raise BoardError(
                    f"{source}: field 'numbers[{i}]' is empty but hex {i} is "
                    f"{TERRAINS[t]}; every producing hex needs a token"
                )
        _check_counts(
            source,
            "numbers",
            "token(s)",
            layout.name,
            None,
            Counter(layout.number_counts),
            Counter(n for n in self.numbers if n),
        )
        _check_counts(
            source,
            "harbors",
            "harbor(s)",
            layout.name,
            HARBOR_TYPES,
            Counter({HARBOR_TYPES.index(h): n for h, n in layout.harbor_counts.items()}),
            Counter(self.harbors),
        )
        if not 0 <= self.robber < layout.n_hexes:
            raise BoardError(
                f"{source}: field 'robber' is {self.robber}; expected a hex index "
                f"0..{layout.n_hexes - 1}"
            )
        if self.terrain[self.robber] != DESERT:
            raise BoardError(
                f"{source}: field 'robber' is hex {self.robber} "
                f"({TERRAINS[self.terrain[self.robber]]}); the robber starts on "
                f"the desert"
            )


def _codes(
    values: object, names: tuple[str, ...], field: str, length: int, source: str
) -> list[int]:
    if not isinstance(values, list) or len(values) != length:
        raise BoardError(
            f"{source}: field {field!r} must be a list of {length} names from {', '.join(names)}"
        )
    codes = []
    for i, v in enumerate(values):
        if v not in names:
            raise BoardError(
                f"{source}: field '{field}[{i}]' is {v!r}; expected one of {', '.join(names)}"
            )
        codes.append(names.index(v))
    return codes


def shuffled_board(rng: np.random.Generator, layout: str = "standard") -> Board:
    """A fair shuffle of the layout's tiles, tokens and harbors; the robber on the desert.

    Uniform over arrangements with the official counts (no 6/8 rule or any other constraint);
    the research package's samplers are the place for constrained boards.
    """
    lay = load_layout(layout)
    terrain = np.repeat(np.arange(len(TERRAINS)), [lay.resource_counts.get(t, 0) for t in TERRAINS])
    terrain = rng.permutation(terrain)
    values = sorted(lay.number_counts)
    tokens = rng.permutation(np.repeat(values, [lay.number_counts[v] for v in values]))
    numbers = np.zeros(terrain.size, dtype=np.int64)
    numbers[terrain != DESERT] = tokens
    harbors = rng.permutation(
        np.repeat(np.arange(len(HARBOR_TYPES)), [lay.harbor_counts.get(h, 0) for h in HARBOR_TYPES])
    )
    robber = int(np.flatnonzero(terrain == DESERT)[0])
    return Board(
        tuple(int(t) for t in terrain),
        tuple(int(x) for x in numbers),
        tuple(int(h) for h in harbors),
        robber,
        layout,
    )


def read_board(path: str | Path) -> Board:
    """Read one board from a ``.json`` file (or the first line of a ``.jsonl``)."""
    return read_record(path, Board.from_json, BoardError, "board")


def iter_boards(path: str | Path) -> Iterator[Board]:
    """Boards from a ``.jsonl`` file, one per line; errors name the file and line."""
    return iter_records(path, Board.from_json, BoardError, "board")


def write_boards(boards: Iterable[Board], path: str | Path) -> int:
    """Write boards atomically, one JSON object per line; return how many were written.

    The file appears only when complete: a failure part-way leaves no partial file behind.
    """
    return write_records(boards, path)


def _check_counts(
    source: str,
    field: str,
    unit: str,
    layout: str,
    names: tuple[str, ...] | None,
    want: Counter,
    have: Counter,
) -> None:
    """Raise a BoardError naming the first value whose count differs from the layout's."""
    for key in sorted(set(want) | set(have)):
        if want[key] != have[key]:
            what = names[key] if names else f"'{key}'"
            raise BoardError(
                f"{source}: field {field!r} has {have[key]} {what} {unit}; "
                f"the {layout} layout needs {want[key]}"
            )
