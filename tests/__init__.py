"""The test suite, a package so that what it shares with the benches imports by one name
from the repository root: ``tests.discord_double`` (the loopback Discord API) and
``tests.postgres`` (a PostgreSQL server from the ``pgserver`` wheel), as
``python -m bench.discord_load`` does. Its subfolders are not packages: pytest puts each
on ``sys.path`` for the test files and helpers (``e2e``, ``launch_bot``) in it."""
