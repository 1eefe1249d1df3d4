"""The site's figures (mkdocs-gen-files runs this during ``make docs``): each is made here, by the
build, from a real draw or a real run of ludolab, never pasted. What made each one is in
``FIGURES`` below and in its caption on the page that shows it.

- ``figures/board-official.png``: a Catan board drawn uniformly from the ``official`` set
  (seed 7), as ``ludolab show`` draws it;
- ``figures/turns.png``: player turns on ``official`` and ``balanced`` boards with four greedy
  seats, 40 games on 10 boards of each set (``ludolab.simulate``, seeds 1 and 7).
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import mkdocs_gen_files  # noqa: E402

import ludolab  # noqa: E402
from ludolab import games  # noqa: E402

DPI = 110


def board_official() -> plt.Figure:
    """One Catan board from ``official``, drawn as ``ludolab show`` draws it."""
    boards = ludolab.generate("official", n=1, seed=7)
    return games.get("catan").example_figure({"official": boards}, 1)


def turns() -> plt.Figure:
    """Player turns on ``official`` and ``balanced`` boards, four greedy seats: 10 boards of each
    set (seed 1), 40 games a set (seed 7: game i has the same dice on both), as the tutorial's
    study recipe plays them."""
    import pandas as pd
    import seaborn as sns

    tables = [
        ludolab.simulate(
            "catan",
            ["greedy"] * 4,
            40,
            setups=ludolab.generate(name, n=10, seed=1),
            seed=7,
            condition=name,
        ).metrics
        for name in ("official", "balanced")
    ]
    with warnings.catch_warnings():
        # seaborn 0.13 passes matplotlib a boxplot keyword that matplotlib 3.9 renamed: not ours
        warnings.simplefilter("ignore", matplotlib.MatplotlibDeprecationWarning)
        grid = sns.catplot(
            data=pd.concat(tables), x="condition", y="turns", kind="box", height=3, aspect=1.5
        )
    grid.set_axis_labels("", "player turns")
    return grid.figure


FIGURES: dict[str, Callable[[], plt.Figure]] = {
    "figures/board-official.png": board_official,
    "figures/turns.png": turns,
}


def write(path: str, make: Callable[[], plt.Figure]) -> None:
    figure = make()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(figure)
    with mkdocs_gen_files.open(path, "wb") as fh:
        fh.write(buffer.getvalue())


for path, make in FIGURES.items():
    write(path, make)
