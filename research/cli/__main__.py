"""``python -m ludolab.research.cli``: the ``ludolab`` command."""

from ludolab.research.cli import main

raise SystemExit(main())
