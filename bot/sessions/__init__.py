"""The async session manager and its rooms: one engine game per session, one lock per game.

- :mod:`~bot.sessions.manager`: :class:`GameSessions`, the handlers of every game
  interaction, the bot's moves and the turn timers, which store each change and then
  hand it to every screen;
- :mod:`~bot.sessions.delivery`: what a stored change shows on Discord;
- :mod:`~bot.sessions.computers`: decides the moves the bot plays itself;
- :mod:`~bot.sessions.state`: the :class:`Session`, whose parts each have one writer.

The rules of a table (who plays each seat, who plays on, who wins) are
:mod:`bot.table`'s.
"""

from bot.sessions.computers import advise, choose_action
from bot.sessions.manager import GameSessions, hint_text
from bot.sessions.state import Session, record_of

__all__ = ["GameSessions", "Session", "advise", "choose_action", "hint_text", "record_of"]
