"""Tents (also "Tents and Trees"): a grid with trees and a count of tents for every row and
column; place as many tents as trees so that tents and trees pair one to one, each tent beside
its own tree (up, down, left or right; it may touch other trees too), no two tents touching,
diagonals included, and every row and column holding its count.

Rules as gridpuzzle.com/tents and brainbashers.com (Kevin Stone) state them. Modules:
``rules`` (the independent checker, matching by scipy), ``solve`` (SAT: tent placements counted
to two), ``deduce`` (deductions for difficulty and hints), ``generate``, ``cli``.
"""
