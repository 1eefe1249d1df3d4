"""``python -m ludolab.research.cli``: the ``ludolab`` command."""

from ludolab.research.cli import main

if __name__ == "__main__":  # (the API reference imports this module too)
    raise SystemExit(main())
