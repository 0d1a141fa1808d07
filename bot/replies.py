"""How the bot answers an interaction: once, within Discord's 3 seconds, never with a traceback.

Every answer goes through ``send`` (a new message) or ``edit_clicked`` (the
message whose component was used), which pick the interaction's first response
or a follow-up as needed. ``deadline`` defers an interaction whose work runs long
(a slow disk under the store), and it takes the same per-interaction lock as the
answers, so a deferral and an answer never race into a double response.

``report_failure`` is the one error handler of slash commands and components: a
``UserError`` is explained to the user, anything else is logged once with an
error id and the user is told that the game is safe.

``deliver`` runs a Discord call that follows a stored change (a post, an edit, a
hand view): retried on rate limits, server errors and timeouts, and its final
failure is logged, never raised, so nothing after the commit can lose the game.

A retried call may have been performed already: Discord can do the work and lose
its answer (a 5xx after the write, a timeout). An edit done twice is harmless; a
channel post done twice is a second message. So every channel post carries a
``nonce`` from ``nonce`` and sends it in each of its tries: discord.py sends it
with ``enforce_nonce``, and Discord answers a repeat with the message it created
the first time, within a few minutes.

Three marks let the bot's metrics (``bot.metrics``, when on) see what happens here
without this module knowing of them: an interaction deferred by ``deadline`` carries
``extras[DEFERRED]``; ``report_failure`` dispatches the client event ``FAILURE_EVENT``;
and while ``deliver`` tries a call again, ``RETRY`` says why the try before failed.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, NamedTuple

import aiohttp
import discord
from discord import app_commands

from bot.budget import TRY_DEADLINE
from bot.store import StoreClosed

__all__ = [
    "CALL_TIMEOUT",
    "DEFERRED",
    "DEFER_AFTER",
    "FAILURE_EVENT",
    "NONCE_LENGTH",
    "RETRY",
    "RETRY_DELAYS",
    "RETRY_REASONS",
    "Retry",
    "Sent",
    "UserError",
    "deadline",
    "deliver",
    "deny",
    "edit_clicked",
    "nonce",
    "report_failure",
    "send",
]

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0
"""Seconds of work after which an unanswered interaction is deferred (Discord allows 3)."""

RETRY_DELAYS = (0.5, 2.0, 5.0)
"""Seconds between the attempts of a Discord call that follows a stored action."""
CALL_TIMEOUT = 20.0
"""Seconds one attempt may take, discord.py's own rate-limit waits and 5xx retries
included, the bot's own pacing not (the request budget's turn, a channel's slot:
:func:`bot.budget.pacing`)."""

NONCE_LENGTH = 24
"""Characters of a post's nonce: 15 bytes in base32 (Discord takes at most 25)."""

_TRANSIENT = (discord.DiscordServerError, discord.RateLimited, aiohttp.ClientError, OSError)
_LOCK = "tuque.reply-lock"

DEFERRED = "tuque.deferred"
"""The key of ``Interaction.extras`` that ``deadline`` sets (True) before deferring."""

FAILURE_EVENT = "tuque_interaction_failure"
"""The client event ``report_failure`` dispatches with ``(interaction, reason)``: reason
``"refused"`` (a ``UserError`` shown to the member) or ``"error"`` (unexpected). A
listener is ``on_tuque_interaction_failure``."""

RETRY_REASONS = ("rate_limited", "server_error", "timeout", "network")
"""Why a try of ``deliver`` failed and the call is tried again (``Retry.reason``)."""


@dataclass(slots=True)
class Retry:
    """A call that ``deliver`` tries again, while that try runs (:data:`RETRY`)."""

    reason: str
    """Why the try before failed: one of ``RETRY_REASONS``."""
    counted: bool = False
    """Set by whoever counts retries (the bot's metrics, at the try's first request), so
    that a try of several requests counts once."""


RETRY: ContextVar[Retry | None] = ContextVar("tuque_retry", default=None)
"""The retry under way in this task, None on a first try: ``deliver`` sets it around
each try, and the bot's HTTP trace reads it (``bot.metrics``)."""


class UserError(app_commands.AppCommandError):
    """Bad input from a member; its message is safe to show them and says what to do."""


def _lock(interaction: discord.Interaction) -> asyncio.Lock:
    return interaction.extras.setdefault(_LOCK, asyncio.Lock())


class Sent(NamedTuple):
    """A message :func:`send` made."""

    followup: int | None
    """Its id if it was sent as a follow-up, None if it is the interaction's original
    response (edit it with ``edit_original_response``)."""
    message_id: int | None
    """Its id, where Discord said it (it does for a follow-up and, with its callback
    response, for an original response)."""


async def send(interaction: discord.Interaction, **kwargs: Any) -> Sent:
    """Answer with a new message (``send_message`` keywords, e.g. ``ephemeral=True``).

    Raises:
        discord.HTTPException: Discord refused it or failed.
    """
    async with _lock(interaction):
        if interaction.response.is_done():
            message = await interaction.followup.send(wait=True, **kwargs)
            return Sent(message.id, message.id)
        callback = await interaction.response.send_message(**kwargs)
        return Sent(None, callback.message_id)


async def edit_clicked(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message whose component was used (``content``, ``embed``, ``view``).

    Raises:
        discord.HTTPException: Discord refused it or failed.
    """
    async with _lock(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)


async def deny(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` with an ephemeral explanation; nothing else happens."""
    await send(interaction, content=text, ephemeral=True)


@asynccontextmanager
async def deadline(
    interaction: discord.Interaction, *, ephemeral: bool = True
) -> AsyncIterator[None]:
    """Defer ``interaction`` if the block has not answered it within ``DEFER_AFTER`` seconds.

    A component is deferred as an update of its message; a slash command as
    "thinking…", ephemeral or not as its answer will be. The answers in the block
    then arrive as edits and follow-ups through ``send``/``edit_clicked``.
    """

    async def defer() -> None:
        async with _lock(interaction):
            if interaction.response.is_done():
                return
            interaction.extras[DEFERRED] = True
            try:
                if interaction.type is discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            except discord.HTTPException as err:
                log.warning("interaction could not be deferred (%s)", err.status)

    # A timer, not a task per interaction: almost every block answers well within it.
    deferral: asyncio.Task[None] | None = None

    def due() -> None:
        nonlocal deferral
        deferral = asyncio.create_task(defer(), name="defer-watchdog")

    timer = asyncio.get_running_loop().call_later(DEFER_AFTER, due)
    try:
        yield
    finally:
        timer.cancel()
        if deferral is not None:
            # A deferral already on the wire finishes: cancelling it would leave Discord
            # and discord.py disagreeing about whether the interaction was answered.
            await asyncio.gather(deferral, return_exceptions=True)


def _where(interaction: discord.Interaction) -> str:
    # The custom_id's namespace only (e.g. "tuque:act"): its numbers may name an
    # action of a hand, which no log line shows.
    if interaction.type is discord.InteractionType.component:
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        return "button " + ":".join(custom_id.split(":")[:2])
    command = interaction.command
    return f"/{command.qualified_name}" if command is not None else "interaction"


async def report_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed slash command or component; log what was unexpected.

    ``UserError`` (also when wrapped by discord.py as a command's cause) is shown
    to the user as it is. A failed check has answered already. Anything else is
    logged with a short error id, and the user is told that nothing was lost: a
    failure before the store write changes nothing, one after it cannot undo it.
    """
    cause = error.__cause__ if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(cause, UserError):
        text = str(cause)
        interaction.client.dispatch(FAILURE_EVENT, interaction, "refused")
    elif isinstance(cause, app_commands.CheckFailure) and interaction.response.is_done():
        return
    elif isinstance(cause, StoreClosed):
        # Nothing unexpected: the click arrived as the bot stopped, and changed nothing.
        log.info("%s: not done, the bot is stopping", _where(interaction))
        text = "The bot is restarting: try again in a moment. Nothing was lost."
    else:
        error_id = secrets.token_hex(4)
        log.error("%s failed (error id %s)", _where(interaction), error_id, exc_info=cause or error)
        text = f"Something went wrong; the game is safe. (Error id `{error_id}`.)"
        interaction.client.dispatch(FAILURE_EVENT, interaction, "error")
    try:
        await deny(interaction, text)
    except discord.HTTPException as err:
        log.warning("could not tell the user about a failure (%s)", err.status)


def nonce(*key: object) -> str:
    """The nonce of one channel post: every try of that post sends the same one, so
    Discord creates the message once (``channel.send(..., nonce=nonce(...))``).

    ``key`` names the post for all time, e.g. ``("hand result", game_id, seed, n)``:
    a post that fails for good and is made again later (the table, at the next move)
    is still made once, if Discord remembers the nonce. A key must not recur with
    another database, so it holds something random of its row (a game's seed, a
    lobby's creation time) besides the ids. No key: a random nonce, for a post with
    no name to give (its retries share it as long as it is made once, before them).

    Returns:
        ``NONCE_LENGTH`` characters of ``[a-z2-7]`` (a hash of ``key``, base32).
    """
    raw = (
        hashlib.blake2s(repr(key).encode(), digest_size=15).digest()
        if key
        else secrets.token_bytes(15)
    )
    return base64.b32encode(raw).decode().lower()


async def deliver(what: str, call: Callable[[], Awaitable[object]]) -> bool:
    """Run a Discord call, retrying on rate limits, server errors and timeouts.

    Returns whether it succeeded; a final failure is logged once and never
    raised. ``what`` names the game or challenge and the call, never a card. Each try
    after the first runs with :data:`RETRY` set. A try has :data:`CALL_TIMEOUT` seconds,
    not counting its waits for the bot's own pacing (:func:`bot.budget.pacing`).
    """
    failure = ""
    retry: Retry | None = None
    task = asyncio.current_task()
    assert task is not None, "deliver runs in a task"
    for delay in (0.0, *RETRY_DELAYS):
        if delay:
            await asyncio.sleep(delay)
        marked = RETRY.set(retry)
        try:
            async with asyncio.timeout(CALL_TIMEOUT) as deadline:
                # The budget's turn and a channel's slot stop this try's clock (pacing).
                timed = TRY_DEADLINE.set((deadline, task))
                try:
                    await call()
                finally:
                    TRY_DEADLINE.reset(timed)
            return True
        except TimeoutError:
            failure = f"no answer in {CALL_TIMEOUT:.0f} s"
            retry = Retry("timeout")
        except _TRANSIENT as err:
            failure = getattr(err, "status", None) or type(err).__name__
            retry = Retry(_retry_reason(err))
        except discord.HTTPException as err:
            # A 4xx (unknown message, expired token, missing access) does not heal.
            log.warning("%s refused (%s %s)", what, err.status, err.code)
            return False
        except StoreClosed:
            # The bot is stopping; what was committed is redone from the store at start.
            log.info("%s not finished: the bot is stopping", what)
            return False
        except Exception:
            log.exception("%s failed", what)
            return False
        finally:
            RETRY.reset(marked)
    log.warning("%s failed after %d tries (%s)", what, 1 + len(RETRY_DELAYS), failure)
    return False


def _retry_reason(error: BaseException) -> str:
    """The ``RETRY_REASONS`` word for a transient failure of a try."""
    if isinstance(error, discord.RateLimited):
        return "rate_limited"
    if isinstance(error, discord.DiscordServerError):
        return "server_error"
    return "network"
