"""Swend: Wend with Swedish words (Debian's wswedish); see ``ludolab puzzle wend --help``.

  ludolab puzzle swend generate --n 40 --size 5 --difficulty mixed --seed 1 --out swend.json
  ludolab puzzle swend verify swend.json
"""

from __future__ import annotations

from ludolab.research.puzzles import pack_cli
from ludolab.research.puzzles.wend.cli import game_of

GAME = game_of("swend", "Swend")
add_arguments, run = pack_cli.commands(GAME)
