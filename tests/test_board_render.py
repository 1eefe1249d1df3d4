"""Board pictures: files are complete, in the right format, with the numbers as text."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from matplotlib.figure import Figure

from ludolab.envs.catan.board import Board
from ludolab.envs.catan.topology import load_layout
from ludolab.research.catan import picture as plot_board
from ludolab.research.catan.picture import render_board, render_board_grid
from ludolab.research.catan.samplers import fair_board

LAYOUT = load_layout("standard")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def random_board(seed: int) -> Board:
    board = fair_board(seed)
    board.validate()
    return board


def svg_texts(path) -> list[str]:
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return ["".join(el.itertext()).strip() for el in root.iter() if el.tag.endswith("text")]


def test_png(tmp_path):
    out = render_board(random_board(1), tmp_path / "board.png", title="a board")
    assert out == tmp_path / "board.png"
    data = out.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000
    assert [p.name for p in tmp_path.iterdir()] == ["board.png"]  # no temp file left behind


def test_svg_has_every_number_and_harbor_as_text(tmp_path):
    board = random_board(2)
    out = render_board(board, tmp_path / "board.svg")
    texts = svg_texts(out)
    tokens = sorted(n for n in board.numbers if n)
    assert sorted(int(t) for t in texts if t.isdigit()) == tokens
    assert texts.count("3:1") == 4
    assert texts.count("2:1") == 5
    for resource in ("lumber", "wool", "grain", "brick", "ore"):
        assert resource in texts  # harbor labels (and the legend)


def test_pdf(tmp_path):
    out = render_board(random_board(3), tmp_path / "board.pdf")
    assert out.read_bytes().startswith(b"%PDF")


def test_grid(tmp_path):
    boards = [random_board(s) for s in range(5)]
    out = render_board_grid(
        boards, tmp_path / "grid.svg", titles=[f"b{i}" for i in range(5)], ncols=3
    )
    texts = svg_texts(out)
    assert all(f"b{i}" in texts for i in range(5))
    assert texts.count("3:1") == 4 * 5
    png = render_board_grid(boards[:2], tmp_path / "grid.png")
    assert png.read_bytes().startswith(PNG_MAGIC)
    with pytest.raises(ValueError, match="titles"):
        render_board_grid(boards, tmp_path / "bad.png", titles=["x"])
    with pytest.raises(ValueError, match="at least one"):
        render_board_grid([], tmp_path / "empty.png")
    assert not (tmp_path / "bad.png").exists() and not (tmp_path / "empty.png").exists()


@pytest.mark.parametrize("name", ["board.jpg", "board", "board.PNG.txt"])
def test_unsupported_suffix(tmp_path, name):
    with pytest.raises(ValueError, match=r"\.png.*\.svg.*\.pdf"):
        render_board(random_board(4), tmp_path / name)
    with pytest.raises(ValueError, match=r"\.png"):
        render_board_grid([random_board(4)], tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_failure_leaves_no_partial_file(tmp_path, monkeypatch):
    def broken_savefig(self, fh, **kwargs):
        fh.write(b"half a picture")
        raise RuntimeError("disk full")

    monkeypatch.setattr(Figure, "savefig", broken_savefig)
    target = tmp_path / "board.png"
    with pytest.raises(RuntimeError, match="disk full"):
        render_board(random_board(5), target)
    assert list(tmp_path.iterdir()) == []


def test_failure_keeps_the_old_picture(tmp_path, monkeypatch):
    target = tmp_path / "board.png"
    target.write_bytes(b"old")
    monkeypatch.setattr(
        plot_board, "_draw_board", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom"))
    )
    with pytest.raises(RuntimeError, match="boom"):
        render_board(random_board(6), target)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["board.png"]


def test_robber_off_the_desert_still_draws(tmp_path):
    board = random_board(7)
    moved = Board(
        board.terrain,
        board.numbers,
        board.harbors,
        next(h for h, n in enumerate(board.numbers) if n),
    )
    out = render_board(moved, tmp_path / "moved.svg")
    assert sorted(int(t) for t in svg_texts(out) if t.isdigit()) == sorted(
        n for n in board.numbers if n
    )
