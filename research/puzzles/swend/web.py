"""Swend on the games page: Wend's page with Swedish words (see wend/web.py)."""

from __future__ import annotations

from ludolab.research.puzzles.swend.cli import GAME
from ludolab.research.puzzles.wend.web import web_game

WEB = web_game(GAME, "Swedish")
