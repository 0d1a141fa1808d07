"""A page's moves and hints, relayed to the process that runs their game (shards in
several processes on PostgreSQL).

A game is run by one process: it holds the game's lock and its table in memory, plays
the computers and shows each move on Discord. A page connected to another process (a
load balancer chose it) still plays: that process asks the running one to decide the
move exactly as a move from its own pages (:meth:`bot.sessions.GameSessions.act`, the
path a Discord click takes), and the running one answers whether it was refused. The
ask and its answer are a row of the store's (``bot.store.asks``), announced with
PostgreSQL's ``NOTIFY``; the move itself reaches every page the way any change does
(``bot.store.changes``).

Every process hears every ask; only one running the game decides it. An ask no process
answers within :data:`ANSWER_TIMEOUT` (no process runs the game just now: a shard's
process restarting) is given up, :class:`Unanswered`; a move made meanwhile shows all
the same, as every change does. The member was checked by the asking process (their
link); the running process checks everything else, as for its own pages.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from bot.sessions import GameSessions
from bot.sessions.manager import Refusal, RefusalKind
from bot.store import Store

__all__ = ["ANSWER_TIMEOUT", "Failed", "Relay", "Unanswered"]

log = logging.getLogger(__name__)

ANSWER_TIMEOUT = 5.0
"""Seconds an ask waits for the running process's answer."""

_EARLY = 64
"""Answers remembered that came before their ask's id was known here."""


class Unanswered(Exception):
    """No process running the game answered within :data:`ANSWER_TIMEOUT`: whether the
    move was made is unknown here (if it was, it shows as any change does)."""


class Failed(Exception):
    """The running process could not store the move (or count the hint): nothing
    changed."""


class Relay:
    """Relays this process's pages' moves and hints to the game's process, and decides
    those of other processes' pages for the games this process runs.

    Args:
        store: the shared database (PostgreSQL), which carries the asks.
        sessions: the games this process runs.
        timeout: seconds an ask waits for its answer (:data:`ANSWER_TIMEOUT`).

    Listening is its owner's: ``bot.web.remote``'s feed calls :meth:`asked` and
    :meth:`answered` with each payload of ``bot.store.asks.ASKS`` and ``ANSWERS``.
    """

    def __init__(
        self, store: Store, sessions: GameSessions, *, timeout: float = ANSWER_TIMEOUT
    ) -> None:
        self.store = store
        self.sessions = sessions
        self.timeout = timeout
        self._waiting: dict[int, asyncio.Event] = {}
        self._early: dict[int, None] = {}
        self._deciding: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        """Stop deciding asks (their askers give up in time)."""
        tasks = list(self._deciding)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def act(self, game_id: int, member: int, seq: int, action_id: int) -> None:
        """Have the game's process decide ``member``'s move, as
        :meth:`bot.sessions.GameSessions.act` decides it there.

        Raises:
            Refusal: the running process refused it (nothing changed).
            Failed: the running process could not store it (nothing changed).
            Unanswered: no process running the game answered.
            sqlalchemy.exc.SQLAlchemyError, StoreClosed: the store failed.
        """
        await self._ask(game_id, member, seq, action_id)

    async def hint(self, game_id: int, member: int, seq: int) -> tuple[int, str]:
        """The hint the game's process gives ``member`` at ``seq``, as
        :meth:`bot.sessions.GameSessions.web_hint` gives it there: the action's id and
        the hint's words.

        Raises:
            as :meth:`act`.
        """
        hint = (await self._ask(game_id, member, seq, None)).get("hint")
        if (
            not isinstance(hint, dict)
            or type(hint.get("action")) is not int
            or not isinstance(hint.get("text"), str)
        ):
            raise Failed(f"game {game_id}: the running process's hint is malformed")
        return hint["action"], hint["text"]

    async def _ask(self, game_id: int, member: int, seq: int, action: int | None) -> dict[str, Any]:
        ask_id = await self.store.ask(game_id, member, seq, action)
        heard = self._waiting[ask_id] = asyncio.Event()
        if ask_id in self._early:
            del self._early[ask_id]
            heard.set()
        try:
            async with asyncio.timeout(self.timeout):
                await heard.wait()
        except TimeoutError:
            pass  # the answer may have come unheard (the feed reconnecting): read it
        finally:
            del self._waiting[ask_id]
        answer = await self.store.take_answer(ask_id)
        if answer is None:
            raise Unanswered(f"game {game_id}: no process running it answered")
        refused = answer.get("refused")
        if isinstance(refused, dict):
            try:
                kind = RefusalKind(refused.get("kind"))
            except ValueError:
                raise Failed(f"game {game_id}: the running process failed") from None
            raise Refusal(kind, str(refused.get("reason", "")))
        return answer

    def answered(self, payload: str) -> None:
        """``{"ask"}`` was answered: its asker here, if any, reads the answer."""
        ask_id = _ids(payload, "ask")
        if ask_id is None:
            return
        waiting = self._waiting.get(ask_id[0])
        if waiting is not None:
            waiting.set()
        else:
            # Possibly this process's ask, whose id its asker has not learnt yet.
            self._early[ask_id[0]] = None
            while len(self._early) > _EARLY:
                del self._early[next(iter(self._early))]

    def asked(self, payload: str) -> None:
        """``{"ask", "game"}`` was asked: decided, in a task of its own, if the game
        runs here."""
        ids = _ids(payload, "ask", "game")
        if ids is None or self.sessions.session(ids[1]) is None:
            return
        task = asyncio.create_task(self._decide(ids[0]), name=f"relay-{ids[1]}")
        self._deciding.add(task)
        task.add_done_callback(self._deciding.discard)

    async def _decide(self, ask_id: int) -> None:
        try:
            ask = await self.store.asked(ask_id)
            if ask is None:
                return  # its asker gave up already
            answer: dict[str, Any] = {}
            try:
                if ask.action is None:
                    action, text = await self.sessions.web_hint(ask.game, ask.member, ask.seq)
                    answer["hint"] = {"action": action, "text": text}
                else:
                    await self.sessions.act(ask.game, ask.member, ask.seq, ask.action)
            except Refusal as refusal:
                answer["refused"] = {"kind": refusal.kind.value, "reason": refusal.reason}
            except Exception:
                # The store failed before the change was kept: nothing changed.
                log.exception("game %d: a relayed web action failed", ask.game)
                answer["refused"] = {"kind": "error"}
            await self.store.answer(ask_id, answer)
        except Exception:
            # The asker gives up in time; a move made shows anyway, as every change does.
            log.exception("ask %d: could not be answered", ask_id)


def _ids(payload: str, *names: str) -> tuple[int, ...] | None:
    """The integers ``names`` of a notification's JSON object; None if it is not one."""
    try:
        data = orjson.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict) or any(type(data.get(name)) is not int for name in names):
        return None
    return tuple(data[name] for name in names)
