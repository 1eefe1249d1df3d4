"""Source images for Nonogram: glyphs of the DejaVu fonts, rasterised to small grids.

The fonts ship with matplotlib (``mpl-data/fonts/ttf``: DejaVu Sans and DejaVu Sans Bold, under
the DejaVu licence, a free licence derived from Bitstream Vera's; its text is the file
``LICENSE_DEJAVU`` beside them), so no image is downloaded or committed: the pictures are
letters, digits, chess pieces, card suits, stars, snowflakes and other symbols. A glyph is
drawn large with Pillow, cropped to its ink, centred on a square canvas with a margin, and
reduced to ``size`` x ``size`` cells by averaging; a cell is shaded where the ink covers more
than ``threshold`` of it. The generator draws the glyph, the threshold and the margin from its
random stream, so a pack of any length has varied pictures.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

SYMBOLS = (  # solid enough to read at 8 x 8 (outline glyphs such as the white chess pieces
    # vanish at the threshold; tests/test_nonogram.py checks every glyph)
    "♔♙♚♛♜♝♞♟♠♣♥♦☀☁☂★☎☘☢☮☯☺☻⚓⚑✈✉✎✓✔✗✚✪✿❀❄❤➔⌂⌘♀♂⚒⚔⚗⚘⚙✱✲✴✵✶✷✸✹❁❂❃❅❆"
    "❇❈❉❊❋❖❦❧"
)
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789&@?#%$"
GLYPHS = tuple(SYMBOLS + LETTERS)

_RENDER = 192  # pixels: the glyph is drawn this large before it is reduced


def font_folder() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


@functools.cache
def _font(bold: bool):  # -> PIL.ImageFont.FreeTypeFont
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(os.fspath(font_folder() / name), _RENDER)


def rasterise(glyph: str, size: int, threshold: float = 0.5, margin: float = 0.06) -> list[
    list[int]
]:
    """``glyph`` as ``size`` rows of ``size`` cells, 1 where shaded (module docstring)."""
    import numpy as np
    from PIL import Image, ImageDraw

    font = _font(glyph in LETTERS)
    canvas = Image.new("L", (_RENDER * 2, _RENDER * 2), 0)
    ImageDraw.Draw(canvas).text((_RENDER // 2, _RENDER // 2), glyph, fill=255, font=font)
    box = canvas.getbbox()
    if box is None:
        raise ValueError(f"glyph {glyph!r} draws nothing")
    ink = canvas.crop(box)
    side = round(max(ink.size) * (1 + 2 * margin))
    square = Image.new("L", (side, side), 0)
    square.paste(ink, ((side - ink.size[0]) // 2, (side - ink.size[1]) // 2))
    cells = np.asarray(square.resize((size, size), Image.Resampling.BOX), dtype=float) / 255
    return (cells > threshold).astype(int).tolist()


__all__ = ["GLYPHS", "LETTERS", "SYMBOLS", "font_folder", "rasterise"]
