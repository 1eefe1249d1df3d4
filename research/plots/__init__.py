"""Pictures: Catan boards (board.py), the paper-style figures of a run (figures.py) and their
styles (style.py)."""
