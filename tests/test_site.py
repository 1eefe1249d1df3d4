"""The games page in a real browser: Debian's headless Chromium driven by Selenium.

For every game on the page: load a puzzle of each level from disk (file://), play its stored
solution through the page's own controls (clicks and keys, as a player would), and see it
solved; a wrong move shows as wrong on Check; a hint marks cells, and asked again makes its
moves; a reload keeps the progress. One game is also played from a plain static file server.
`make test` installs Chromium and ChromeDriver (Debian packages chromium, chromium-driver).
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ludolab.research.puzzles import PuzzleError
from ludolab.research.puzzles.pack import read_pack, write_pack
from ludolab.research.puzzles.site.boards import WEB_MODULES, web_game
from ludolab.research.puzzles.site.build import build_site, shipped_packs


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "games"
    build_site(out)
    return out


def boards(game: str) -> list[dict]:
    """The browser form of the shipped pack's puzzles."""
    web = web_game(game)
    return [web.board(p) for path in shipped_packs(game) for p in read_pack(path).puzzles]


def open_puzzle(driver, url: str, puzzle_id: str, fresh: bool = True) -> None:
    driver.get(url)
    if fresh:
        driver.execute_script("window.localStorage.clear();")
    driver.get(f"{url}#{puzzle_id}")
    driver.refresh()  # the hash alone does not reload the page


def cell(driver, i: int):
    return driver.find_element("css selector", f'#board [data-index="{i}"]')


def code(driver, i: int) -> int:
    return int(cell(driver, i).get_attribute("data-code"))


def click_to(driver, i: int, target: int) -> None:
    """Click cell ``i`` until it shows ``target`` (games that cycle a cell's marks)."""
    for _ in range(6):
        if code(driver, i) == target:
            return
        cell(driver, i).click()
    raise AssertionError(f"cell {i} never showed code {target}")


def write(driver, i: int, value: int, by_key: bool) -> None:
    """Sudoku: select cell ``i``, then the number pad's button (touch) or the digit's key."""
    cell(driver, i).click()
    if by_key:
        cell(driver, i).send_keys(str(value))
    else:
        driver.find_element("css selector", f'#pad button[data-code="{value}"]').click()
    assert code(driver, i) == value


def play(driver, game: str, i: int, target: int, by_key: bool = False) -> None:
    if game == "sudoku":
        write(driver, i, target, by_key)
    else:
        click_to(driver, i, target)


# The marks a player may leave out (crosses, grass): the solution holds them, a solve need not.
OPTIONAL = {"queens": {1}, "tents": {1}, "sudoku": set(), "nonogram": {1}, "zip": {1}, "loopy": {1},
            "patches": set(), "wend": set(), "swend": set()}


def patch_of(board: dict, code: int) -> tuple[int, int]:
    """Patches: the first and last cell (row by row) of the patch whose cells hold ``code``."""
    cells = [i for i, s in enumerate(board["solution"]) if s == code]
    return cells[0], cells[-1]


# Pointer moves take no time (Selenium's default is 250 ms each): the page sees the same
# press, moves over each cell and release, without a quarter second per cell.
def drag(driver, a: int, b: int) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver, duration=0).click_and_hold(cell(driver, a)).move_to_element(
        cell(driver, b)).release().perform()


def trace(driver, cells: list[int]) -> None:
    """Wend: drag through ``cells`` and let go."""
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(driver, duration=0).click_and_hold(cell(driver, cells[0]))
    for i in cells[1:]:
        chain = chain.move_to_element(cell(driver, i))
    chain.release().perform()


def play_solution(driver, game: str, board: dict) -> None:
    """Every cell the solution needs (not the optional marks), half of Sudoku's by keys;
    Patches by dragging each patch from corner to corner (a tap for a single cell)."""
    if game in ("wend", "swend"):
        for k, path in enumerate(board["paths"]):
            trace(driver, [r * board["cols"] + c for r, c in (path if k % 2 else path[::-1])])
        return
    if game == "patches":
        for code in range(1, len(board["clues"]) + 1):
            a, b = patch_of(board, code)
            if a == b:
                cell(driver, a).click()
            else:
                drag(driver, a, b)
        return
    for k, (i, target) in enumerate(enumerate(board["solution"])):
        if board["start"][i] == 0 and target not in OPTIONAL[game]:
            play(driver, game, i, target, by_key=k % 2 == 1)


def wrong_patch(board: dict) -> tuple[int, int, int]:
    """Patches: (a clue's cell, a side-by-side cell outside its patch and clueless, the
    clue's code)."""
    n = board["cols"]
    clue_cells = {c["cell"][0] * n + c["cell"][1] for c in board["clues"]}
    for k, clue in enumerate(board["clues"]):
        r, c = clue["cell"]
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            j = rr * n + cc
            if (0 <= rr < n and 0 <= cc < n and j not in clue_cells
                    and board["solution"][j] != k + 1):
                return r * n + c, j, k + 1
    raise AssertionError("no clue with a clueless neighbour outside its patch")


def wrong_move(board: dict, game: str) -> tuple[int, int]:
    """An empty cell and a code the solution does not have there (a queen or tent where the
    answer is a mark; a Sudoku value one off; a cell of the wrong patch)."""
    if game == "patches":
        _, j, k = wrong_patch(board)
        return j, k
    if game == "sudoku":
        i = board["start"].index(0)
        return i, board["solution"][i] % board["rows"] + 1
    i = next(i for i, s in enumerate(board["solution"]) if s == 1 and board["start"][i] == 0)
    return i, 2


def status(driver):
    return driver.find_element("id", "status")


def first_of_each_level(game: str) -> list[dict]:
    """The shipped pack's first puzzle of each level; the pack has every level of the game."""
    levels: dict[str, dict] = {}
    for board in boards(game):
        levels.setdefault(board["level"], board)
    assert set(levels) == set(web_game(game).puzzle.levels)
    return list(levels.values())


@pytest.mark.parametrize("game", list(WEB_MODULES))
def test_a_puzzle_plays_to_solved_from_disk(site: Path, browser, game: str) -> None:
    """One level of each game (a game's levels share its page and differ in their clues; the
    slow test plays them all)."""
    play_to_solved(browser, (site / f"{game}.html").as_uri(), game, first_of_each_level(game)[:1])


@pytest.mark.slow
@pytest.mark.parametrize("game", list(WEB_MODULES))
def test_each_level_plays_to_solved_from_disk(site: Path, browser, game: str) -> None:
    play_to_solved(browser, (site / f"{game}.html").as_uri(), game, first_of_each_level(game))


def play_to_solved(browser, url: str, game: str, puzzles: list[dict]) -> None:
    """Each board: opened fresh, its solution played through the page, and shown solved."""
    for board in puzzles:
        open_puzzle(browser, url, board["id"])
        assert "solved" not in status(browser).get_attribute("class")
        play_solution(browser, game, board)
        assert "solved" in status(browser).get_attribute("class"), status(browser).text
        entry = browser.find_element("css selector", f'#puzzles button[data-id="{board["id"]}"]')
        assert "solved" in entry.get_attribute("class")


@pytest.mark.parametrize("game", list(WEB_MODULES))
def test_a_wrong_move_shows_as_wrong_and_reload_keeps_progress(
    site: Path, browser, game: str
) -> None:
    url = (site / f"{game}.html").as_uri()
    board = boards(game)[1]
    open_puzzle(browser, url, board["id"])
    if game in ("wend", "swend"):  # a trace that is not a hidden word is refused, and said so
        first, second = board["paths"][0], board["paths"][1]
        n = board["cols"]
        wrong_trace = [r * n + c for r, c in first[:2]]
        trace(browser, wrong_trace)
        assert "bad" in status(browser).get_attribute("class")
        assert "not one of the hidden words" in status(browser).text
        assert all(code(browser, i) == 0 for i in wrong_trace)
        trace(browser, [r * n + c for r, c in second])
        open_puzzle(browser, url, board["id"], fresh=False)  # kept across the reload
        assert all(code(browser, r * n + c) == board["solution"][r * n + c] for r, c in second)
        return
    wrong, bad = wrong_move(board, game)
    right = next(i for i, s in enumerate(board["solution"])
                 if board["start"][i] == 0 and s not in OPTIONAL[game] and i != wrong)
    if game == "sudoku":
        write(browser, wrong, bad, by_key=True)
    elif game in ("zip", "loopy"):
        cell(browser, wrong).click()  # a link or edge the answer does not use
    elif game == "patches":
        drag(browser, wrong_patch(board)[0], wrong)
    else:
        cell(browser, wrong).click()  # focus it (a click also cycles once)
        cell(browser, wrong).send_keys({"queens": "q", "tents": "t", "nonogram": "f"}[game])
    assert code(browser, wrong) == bad
    if game == "patches":  # a whole patch elsewhere, by keyboard: Enter on two corners
        code_right = next(c for c in range(1, len(board["clues"]) + 1)
                          if c not in (bad, board["solution"][wrong]))
        a, b = patch_of(board, code_right)
        cell(browser, a).send_keys("\n")
        cell(browser, b).send_keys("\n")
        right = a
    else:
        play(browser, game, right, board["solution"][right])
    browser.find_element("id", "check").click()
    assert "wrong" in cell(browser, wrong).get_attribute("class")
    assert "wrong" not in cell(browser, right).get_attribute("class")
    assert "bad" in status(browser).get_attribute("class")
    assert "1 cell is wrong" in status(browser).text

    open_puzzle(browser, url, board["id"], fresh=False)
    # kept across the reload
    assert code(browser, wrong) == bad and code(browser, right) == board["solution"][right]
    browser.find_element("id", "undo").click()  # undo is per visit: nothing to undo
    assert code(browser, wrong) == bad
    cell(browser, wrong).send_keys("\b")  # Backspace clears
    assert code(browser, wrong) == 0


@pytest.mark.parametrize("game", list(WEB_MODULES))
def test_hints_follow_the_deductions_and_undo_takes_them_back(
    site: Path, browser, game: str
) -> None:
    url = (site / f"{game}.html").as_uri()
    board = boards(game)[2]
    open_puzzle(browser, url, board["id"])
    step = board["hints"][0]
    hint = browser.find_element("id", "hint")
    hint.click()
    hinted = browser.find_elements("css selector", "#board .hinted")
    assert sorted(int(e.get_attribute("data-index")) for e in hinted) == sorted(
        i for i, _ in step["set"]
    )
    assert step["rule"] in status(browser).text
    hint.click()  # the same hint again: its moves are made
    assert all(code(browser, i) == c for i, c in step["set"])
    browser.find_element("id", "undo").click()
    assert all(code(browser, i) == board["start"][i] for i, _ in step["set"])


def test_zip_is_drawn_by_dragging_through_the_cells(site: Path, browser) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    board = boards("zip")[0]
    open_puzzle(browser, (site / "zip.html").as_uri(), board["id"])
    path = read_path(board)
    at = {c.get_attribute("data-cell"): c for c in
          browser.find_elements("css selector", "#board .zip-cell")}
    drag = ActionChains(browser, duration=0).click_and_hold(at["{},{}".format(*path[0])])
    for r, c in path[1:]:
        drag = drag.move_to_element(at[f"{r},{c}"])
    drag.release().perform()
    assert "solved" in status(browser).get_attribute("class"), status(browser).text
    # Back over the last link erases it.
    (a, b), (c, d) = path[-1], path[-2]
    ActionChains(browser, duration=0).click_and_hold(at[f"{a},{b}"]).move_to_element(
        at[f"{c},{d}"]).release().perform()
    assert "solved" not in status(browser).get_attribute("class")


def read_path(board: dict) -> list[tuple[int, int]]:
    """The stored solution's path of a Zip puzzle of the shipped pack."""
    pack = [p for path in shipped_packs("zip") for p in read_pack(path).puzzles]
    return [tuple(c) for c in next(p for p in pack if p.id == board["id"]).solution["path"]]


def test_played_from_a_static_file_server(site: Path, browser) -> None:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        browser.get(f"{base}/index.html")
        links = browser.find_elements("css selector", ".game-card a")
        assert [a.get_attribute("href").rsplit("/", 1)[1] for a in links] == [
            f"{g}.html" for g in WEB_MODULES
        ]
        board = boards("tents")[0]
        open_puzzle(browser, f"{base}/tents.html", board["id"])
        play_solution(browser, "tents", board)
        assert "solved" in status(browser).get_attribute("class")
    finally:
        server.shutdown()


def test_site_build_refuses_bad_packs_and_writes_nothing(tmp_path: Path) -> None:
    pack = read_pack(shipped_packs("queens")[0])
    first = pack.puzzles[0]
    regions = [row[:] for row in first.clues["regions"]]
    regions[0][0], regions[-1][-1] = regions[-1][-1], regions[0][0]
    tampered = type(pack)(pack.game, pack.generator, (
        type(first)(first.id, first.size, {"regions": regions}, first.solution,
                    first.difficulty, first.provenance),
        *pack.puzzles[1:],
    ))
    write_pack(tmp_path / "tampered.json", tampered)
    out = tmp_path / "site"
    with pytest.raises(PuzzleError, match=r"tampered.json: puzzles\[0\]"):
        build_site(out, [tmp_path / "tampered.json"])
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["tampered.json"]

    cli = [sys.executable, "-m", "ludolab.research.cli", "site", "build", "--out", str(out)]
    done = subprocess.run([*cli, str(tmp_path / "tampered.json")], capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not out.exists()
    done = subprocess.run([*cli, str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert done.returncode == 2 and "missing.json: no such file" in done.stderr
    out.mkdir()
    done = subprocess.run(cli, capture_output=True, text=True)
    assert done.returncode == 2 and "pass --force" in done.stderr
    for args in (["puzzle", "chess", "generate", "--n", "3", "--out", "x.json"],
                 ["puzzle", "chess", "verify", "x.json"]):
        done = subprocess.run([*cli[:3], *args], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "no puzzle game 'chess'" in done.stderr and not (tmp_path / "x.json").exists()
    assert not any(out.iterdir())
