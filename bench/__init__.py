"""The benches: each module is a command, run from the repository root as
``.venv/bin/python -m bench.NAME`` (see bench/README.md). Run that way, the root is on
``sys.path``, so a bench imports ``engine``, ``bot``, another bench (``bench.oracle``)
and what it shares with the tests (``tests.discord_double``, ``tests.postgres``) by
their package names, and no module here is named like a package it could shadow."""
