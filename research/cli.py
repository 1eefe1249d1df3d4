"""`ludolab` command line."""


def main(argv: list[str] | None = None) -> int:
    raise SystemExit("ludolab: not yet implemented")
