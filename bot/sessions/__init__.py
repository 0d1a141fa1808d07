"""The async session manager and its rooms: one engine game per session, one lock per game.

- :mod:`~bot.sessions.manager`: :class:`GameSessions`, the handlers of every game
  interaction, which store each change and then hand it on;
- :mod:`~bot.sessions.delivery`: what a stored change shows on Discord;
- :mod:`~bot.sessions.computers`: the moves the bot plays itself;
- :mod:`~bot.sessions.timers`: reminders, away members and stopped computers;
- :mod:`~bot.sessions.state`: the :class:`Session` they share.
"""

from bot.sessions.computers import advise, choose_action
from bot.sessions.manager import GameSessions, hint_text
from bot.sessions.state import Session, record_of

__all__ = ["GameSessions", "Session", "advise", "choose_action", "hint_text", "record_of"]
