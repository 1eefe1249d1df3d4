"""Queens: an N x N grid divided into N coloured regions; place N queens, one in every row,
every column and every region, no two touching (diagonals included).

Rules as LinkedIn's Queens and the puzzle-games seed state them (the game is also published
as "Star Battle" with one star per row, column and region, where stars may not touch either).
Modules: ``rules`` (the independent checker), ``solve`` (SAT: counting solutions to two),
``deduce`` (human-style deductions: difficulty and hints), ``generate`` (from a random
solution, regions grown around its queens and repaired until the answer is unique), ``cli``.
"""
