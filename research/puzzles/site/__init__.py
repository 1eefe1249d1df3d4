"""The games page: a static site where people play the generated puzzle packs.

``ludolab site build --out DIR`` writes plain HTML, CSS and JavaScript (no server code, no
solver): an index of the games, and per game a page that lists its puzzles by difficulty and
plays them with the mouse, the keyboard or touch, checks against the stored solution, gives
hints, undoes, and keeps progress in the browser (localStorage). Packs are written as
JavaScript files (``packs/GAME.js``) rather than fetched as JSON, so that the pages work from a
static file server and from disk alike (browsers refuse ``fetch`` on ``file://``).

Every game is played the same way in the browser: a puzzle is a list of *elements* (cells, or
a grid's edges) each holding a small code (0 = nothing yet); the stored solution is a code per
element; a hint is the first step of the game's own deductions (the ones that label its
difficulty) that the player's position does not show yet. The Python side of each game turns a
pack record into that form (:mod:`ludolab.research.puzzles.site.boards`).
"""

from __future__ import annotations
