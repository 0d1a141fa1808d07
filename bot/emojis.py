"""Card faces as the application's emojis: uploaded once, found by name after every restart.

:class:`CardFaces` says how a card looks in a message: its face's emoji, or its text
where the face has no emoji. :class:`FaceEmojis` keeps one current from start-up on: it
lists the application's emojis (application emojis work in every guild and need no
permission there), then uploads the faces missing from them; a face whose upload
failed is tried again later, with a growing pause, until every face is there.

The emojis are the application's, one set for the whole bot: of a bot split into shard
processes only one uploads (the process of shard 0); the others only list them, again
later while some are missing, and show those cards as text meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from types import MappingProxyType

import aiohttp
import discord

from bot.faces import BACK_NAME, EMOJI_NAMES, emoji_name, face_pngs
from engine.cards import Card

__all__ = ["BACK_TEXT", "RETRY_FIRST", "RETRY_MOST", "TEXT_FACES", "CardFaces", "FaceEmojis"]

log = logging.getLogger(__name__)

BACK_TEXT = "▮"
"""A face-down card in text."""

_FAILURES = (discord.DiscordException, aiohttp.ClientError, OSError)
"""What a REST call to Discord may raise: an HTTP error status, a refused request (no
application id), a connection lost or timed out (``TimeoutError`` is an ``OSError``)."""

RETRY_FIRST = 30.0
"""Seconds after a round of uploads that left faces missing before the next round."""
RETRY_MOST = 3600.0
"""The longest pause between two rounds, in seconds: each pause doubles up to it."""
_EMOJI_LIMIT_REACHED = 30018
"""Discord's error code for "Maximum number of emojis reached": the next upload of the
round would meet it too."""


class CardFaces:
    """How cards appear in messages: each face's custom emoji, or the card's text.

    Built from the emoji ids by name (``{"tq_10h": 1234, ...}``, see
    :func:`bot.faces.emoji_name`). A card whose face has no emoji shows its text
    (``10♥``), so :data:`TEXT_FACES` (no emojis) shows every card as text. Both copies
    of a double-pack card show one face. Immutable.
    """

    __slots__ = ("_emojis", "_ids", "_shown")

    def __init__(self, ids: Mapping[str, int] | None = None) -> None:
        self._ids = MappingProxyType(dict(ids or {}))
        # Each card's emoji and text, made when first asked: a hand message shows its
        # cards twice (its words and its buttons), every time a seat's turn comes.
        self._emojis: dict[Card, discord.PartialEmoji | None] = {}
        self._shown: dict[Card, str] = {}

    @property
    def ids(self) -> Mapping[str, int]:
        """Emoji id by emoji name, for the faces that have one (read-only)."""
        return self._ids

    @property
    def missing(self) -> list[str]:
        """The names of the faces (and the back) with no emoji, in :data:`EMOJI_NAMES` order."""
        return [name for name in EMOJI_NAMES if name not in self._ids]

    def emoji(self, card: Card) -> discord.PartialEmoji | None:
        """``card``'s face as an emoji for a button or a select option; None without one."""
        try:
            return self._emojis[card]
        except KeyError:
            emoji = self._emojis[card] = self._partial(emoji_name(card))
            return emoji

    def show(self, card: Card) -> str:
        """``card`` in message text: ``<:tq_10h:1234>``, or ``10♥`` when its face has no emoji."""
        try:
            return self._shown[card]
        except KeyError:
            emoji = self.emoji(card)
            shown = self._shown[card] = card.pretty() if emoji is None else str(emoji)
            return shown

    def back(self) -> str:
        """A face-down card in message text: ``<:tq_back:1234>``, or ``▮`` without the emoji."""
        emoji = self._partial(BACK_NAME)
        return BACK_TEXT if emoji is None else str(emoji)

    def _partial(self, name: str) -> discord.PartialEmoji | None:
        emoji_id = self._ids.get(name)
        return None if emoji_id is None else discord.PartialEmoji(name=name, id=emoji_id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardFaces) and self._ids == other._ids

    def __hash__(self) -> int:
        return hash(frozenset(self._ids.items()))

    def __repr__(self) -> str:
        return f"CardFaces({len(self._ids)} of {len(EMOJI_NAMES)} emojis)"


TEXT_FACES = CardFaces()
"""Every card as text: for tests, and until the emojis are known."""


class FaceEmojis:
    """Finds the card faces among the application's emojis and uploads the missing ones.

    :attr:`faces` is current at every moment: text at first, then each face as it is
    found or uploaded, so a message rendered while uploads go on shows the faces known
    so far. Emojis are matched by name, so after a restart nothing is uploaded again.

    Args:
        client: a logged-in client (its ``application_id`` is known).
        images: the PNG of every emoji by name; drawn off the event loop, and only when
            a face is missing.
        uploads: whether this process uploads the missing faces; False in every shard
            process but one, which only finds the faces that one uploads.
    """

    def __init__(
        self,
        client: discord.Client,
        images: Callable[[], Mapping[str, bytes]] = face_pngs,
        *,
        uploads: bool = True,
    ) -> None:
        self.faces = TEXT_FACES
        self.first_round = asyncio.Event()
        """Set when the first round is over (every face found or tried once): start-up
        waits for it, not for the retries."""
        self._client = client
        self._images = images
        self.uploads = uploads
        self._pngs: Mapping[str, bytes] | None = None

    async def sync(self) -> None:
        """Find or upload every face's emoji, in rounds, until none is missing.

        A round lists the application's emojis, then uploads each missing face, one at
        a time: a failed upload (an HTTP error, no network) does not stop the others,
        except at Discord's emoji limit, which ends the round. A round that leaves
        faces missing logs one warning, and the next comes ``RETRY_FIRST`` seconds
        later, each pause twice the last, at most ``RETRY_MOST``; meanwhile those
        cards show as text. Listing first finds an upload whose answer was lost, so no
        face is uploaded twice. Discord's rate limits are waited out by discord.py.
        Never raises but on cancellation.

        Without :attr:`uploads` a round only lists: faces still missing are another
        process's to upload, and are looked for again after the same pauses (logged at
        INFO: they are on their way, not failed).
        """
        pause = RETRY_FIRST
        while True:
            try:
                missing, why = await self._round()
            finally:
                self.first_round.set()
            if not missing:
                return
            log.log(
                logging.WARNING if self.uploads or why else logging.INFO,
                "card faces: %d of %d show as text (%s); trying again in %.0f s: %s",
                len(missing),
                len(EMOJI_NAMES),
                _names(missing),
                pause,
                why or "the process of shard 0 uploads them",
            )
            await asyncio.sleep(pause)
            pause = min(2 * pause, RETRY_MOST)

    async def _round(self) -> tuple[list[str], str]:
        """List the emojis, then upload the missing faces.

        Returns:
            the names of the faces still missing (all of them if the list failed), and
            the first failure in words ("" if none failed).
        """
        try:
            present = await self._client.fetch_application_emojis()
        except _FAILURES as error:
            # Nothing is uploaded blind: a face already there would be refused as a
            # duplicate name.
            return self.faces.missing, f"cannot list the application's emojis: {_said(error)}"
        ids = {e.name: e.id for e in present if e.name in EMOJI_NAMES}
        self.faces = CardFaces(ids)
        missing = self.faces.missing
        if not missing:
            return [], ""
        if not self.uploads:
            return missing, ""
        if self._pngs is None:
            self._pngs = await asyncio.to_thread(self._images)
        failed: list[str] = []
        why = ""
        for done, name in enumerate(missing):
            try:
                emoji = await self._client.create_application_emoji(
                    name=name, image=self._pngs[name]
                )
            except _FAILURES as error:
                failed.append(name)
                why = why or _said(error)
                if getattr(error, "code", None) == _EMOJI_LIMIT_REACHED:
                    failed += missing[done + 1 :]
                    break
                continue
            ids[name] = emoji.id
            self.faces = CardFaces(ids)
        uploaded = len(missing) - len(failed)
        log.info("card faces: uploaded %d of %d missing emojis", uploaded, len(missing))
        return failed, why


def _said(error: BaseException) -> str:
    """``error`` on one line: discord.py puts each field's error on a line of its own."""
    return "; ".join(str(error).splitlines()) or type(error).__name__


def _names(names: list[str], most: int = 5) -> str:
    """``names`` for a log line, the first ``most`` of them and how many more."""
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"
