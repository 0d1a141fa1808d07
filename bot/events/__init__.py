"""Server events ("euchre nights"): the pure core the async runner and the store build on.

* :mod:`bot.events.model`: the data: formats, options, members, entries, rounds, results;
* :mod:`bot.events.movement`: who sits where each round (progressive, round robin, Swiss);
* :mod:`bot.events.scoring`: what a table's result is worth (points, match points,
  matchpoints);
* :mod:`bot.events.standings`: the standings, places and tie-breaks;
* :mod:`bot.events.event`: the event's life (sign-up, rounds, the end) as a value.

Pure and synchronous like :mod:`bot.table`: no Discord, no asyncio, no SQL. The formats,
movements and scoring are explained, with their sources, in ``docs/events.md``.
"""
