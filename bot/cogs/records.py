"""Records: ``/tuque leaderboard`` (paged with buttons), ``/tuque stats`` and
``/tuque replay`` (a finished game's record and story, and the game to watch step by
step: the table's picture at each deal, bidding, trick and result, every card face up)."""

from __future__ import annotations

import asyncio
import io
import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import render, replies
from bot.buttons import LeaderboardButton
from bot.cogs import TuqueCog
from bot.drawing import Revealed, draw_table
from bot.events.places import event_places
from bot.layout import replay_row
from bot.options import GameNumber, Variant
from bot.sessions import record_of
from bot.store import GameNotFound, GameRow, GameStatus, Store
from engine.replay import hand_starts, replay_frames

if TYPE_CHECKING:
    from bot.client import TuqueBot

__all__ = [
    "LEADERBOARD_PAGE",
    "REPLAY_PICTURE",
    "RecordsCog",
    "ReplayStep",
    "leaderboard_message",
    "own_stepper",
    "replay_layout",
    "replay_step",
    "setup",
]

LEADERBOARD_PAGE = 10
"""Players per leaderboard page."""


def leaderboard_view(variant: str, page: int, pages: int) -> discord.ui.View | None:
    """Previous/next buttons for a leaderboard with ``pages`` pages (none if one page)."""
    if pages <= 1:
        return None
    ui = discord.ui.View(timeout=None)
    for label, target in (("◀ Previous", max(page - 1, 0)), ("Next ▶", min(page + 1, pages - 1))):
        button = discord.ui.Button[Any](
            label=label, style=discord.ButtonStyle.secondary, disabled=target == page
        )
        ui.add_item(LeaderboardButton.of(button, variant=variant, page=target))
    return ui


async def leaderboard_message(
    store: Store, guild_id: int, variant: str | None, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed and paging buttons of leaderboard page ``page`` (0-based, clamped), each
    player's event wins beside their record."""
    total = await store.leaderboard_count(guild_id, variant)
    pages = max(1, math.ceil(total / LEADERBOARD_PAGE))
    page = min(max(page, 0), pages - 1)
    rows = await store.leaderboard(
        guild_id, variant, limit=LEADERBOARD_PAGE, offset=page * LEADERBOARD_PAGE
    )
    places = event_places(await store.finished_events(guild_id), variant)
    won = {user: p.won for user, p in places.items()}
    return (
        render.leaderboard_embed(rows, variant, page, pages, won),
        leaderboard_view(variant or "all", page, pages),
    )


REPLAY_PICTURE = "replay.jpg"
"""The file name of a replay's picture, attached to its message."""


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a finished game's replay, drawn: what its message shows."""

    step: int
    steps: int
    hand_starts: tuple[int, ...]
    caption: str
    jpeg: bytes
    description: str


def replay_step(row: GameRow, step: int) -> ReplayStep | None:
    """Step ``step`` (0-based) of the replay of ``row``, a game that has ENDED (the
    picture shows every hidden card); ``None`` if the replay has no such step.

    CPU work (the game replayed, the table drawn): run it off the event loop.

    Raises:
        engine.errors.RecordError: the stored log does not rebuild the game.
    """
    frames = replay_frames(record_of(row))
    if not 0 <= step < len(frames):
        return None
    frame = frames[step]
    seating = render.seating_of(row.seats)
    picture = draw_table(
        frame.view,
        seating.names,
        revealed=Revealed(frame.hands, frame.face_down),
        caption=render.replay_label(frame),
    )
    return ReplayStep(
        step,
        len(frames),
        hand_starts(frames),
        render.replay_caption(frame, seating),
        picture.jpeg,
        picture.description,
    )


def replay_layout(game_id: int, shown: ReplayStep) -> discord.ui.LayoutView:
    """A replay's message in Discord's component layout (Components V2): a title, the
    step's picture (the attachment :data:`REPLAY_PICTURE`, described for screen
    readers), its caption and which step of how many, and the buttons that page it."""
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container[Any](accent_colour=render.RESULT_COLOUR)
    container.add_item(discord.ui.TextDisplay(f"### Game #{game_id}, step by step"))
    gallery = discord.ui.MediaGallery[Any]()
    gallery.add_item(media=f"attachment://{REPLAY_PICTURE}", description=shown.description)
    container.add_item(gallery)
    container.add_item(
        discord.ui.TextDisplay(f"{shown.caption}\n-# Step {shown.step + 1} of {shown.steps}")
    )
    container.add_item(replay_row(game_id, shown.step, shown.hand_starts, shown.steps))
    layout.add_item(container)
    return layout


def own_stepper(interaction: discord.Interaction) -> bool:
    """Whether the replay clicked is the clicker's own (an ephemeral message) rather
    than the public one, which nobody's click moves."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


class RecordsCog(TuqueCog, name="Records"):
    """The server's leaderboard, a member's record and finished games' replays
    (``buttons.RecordControls``)."""

    async def page_leaderboard(
        self, interaction: discord.Interaction, variant: str, page: int
    ) -> None:
        """A leaderboard paging button: the message shows page ``page``."""
        if interaction.guild_id is None:
            await replies.deny(interaction, "Leaderboards belong to a server.")
            return
        embed, view = await leaderboard_message(
            self.bot.store, interaction.guild_id, None if variant == "all" else variant, page
        )
        await replies.edit_clicked(interaction, embed=embed, view=view)

    @app_commands.command(description="The server's top players.")
    @app_commands.describe(variant="Only this variant (default: all)")
    async def leaderboard(
        self, interaction: discord.Interaction, variant: Variant | None = None
    ) -> None:
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        embed, view = await leaderboard_message(self.bot.store, interaction.guild_id, variant, 0)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(
        description="A player's record: games, wins, hands made and euchred, events."
    )
    @app_commands.describe(member="Whose record (default: yours)", variant="Only this variant")
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        variant: Variant | None = None,
    ) -> None:
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        who = member or interaction.user
        stats = await self.bot.store.player_stats(interaction.guild_id, who.id, variant)
        places = event_places(await self.bot.store.finished_events(interaction.guild_id), variant)
        embed = render.stats_embed(stats, who.display_name, places.get(who.id))
        await interaction.response.send_message(embed=embed)

    async def _ended_game(self, interaction: discord.Interaction, game: int) -> GameRow | None:
        """Game ``game`` of this server if it has ended (its cards may be shown); else
        ``None``, the member told why."""
        try:
            row = await self.bot.store.load_game(game)
        except GameNotFound:
            row = None
        if row is None or row.guild_id != interaction.guild_id:
            await replies.deny(interaction, f"There is no game #{game} on this server.")
            return None
        if row.status is GameStatus.ACTIVE:
            await replies.deny(
                interaction,
                f"Game #{game} is still being played: its hands stay hidden until it ends. "
                f"Its table is in <#{row.channel_id}>.",
            )
            return None
        return row

    async def _replay_step(self, row: GameRow, step: int) -> ReplayStep | None:
        """:func:`replay_step` in the bot's drawing process, where the tables are drawn:
        rebuilding and drawing a replay takes tens of milliseconds of CPU."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.bot.sessions.delivery.drawer, replay_step, row, step)

    async def show_replay(self, interaction: discord.Interaction, game_id: int, step: int) -> None:
        """A replay's button: step ``step`` of game ``game_id``, for the clicker alone.

        The public replay keeps its place for everyone: a click on it answers with an
        ephemeral replay of the clicker's own at that step, and a click on that one
        moves it."""
        if interaction.guild_id is None:
            await replies.deny(interaction, "Replays belong to a server.")
            return
        async with replies.deadline(interaction):
            row = await self._ended_game(interaction, game_id)
            if row is None:
                return
            shown = await self._replay_step(row, step)
            if shown is None:
                await replies.deny(interaction, f"The replay of game #{game_id} has no such step.")
                return
            picture = discord.File(io.BytesIO(shown.jpeg), filename=REPLAY_PICTURE)
            if own_stepper(interaction):
                await replies.edit_clicked(
                    interaction, view=replay_layout(game_id, shown), attachments=[picture]
                )
            else:
                await replies.send(
                    interaction, view=replay_layout(game_id, shown), file=picture, ephemeral=True
                )

    @app_commands.command(description="Replay a finished game: watch it, with its record.")
    @app_commands.describe(game="The game's number (#12 on its table)")
    async def replay(self, interaction: discord.Interaction, game: GameNumber) -> None:
        """Post a finished game of this server in the channel: a summary, the record as
        a JSON file (``tuque replay FILE`` rebuilds it) and the hand-by-hand story with
        every card; then the game to watch step by step, with buttons. A game still
        being played shows nothing beyond its public table."""
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        row = await self._ended_game(interaction, game)
        if row is None:
            return
        record = record_of(row)
        seating = render.seating_of(row.seats)
        story = render.replay_story(record, seating)
        hands = story.count("\nHand ") + story.startswith("Hand ")
        files = [
            discord.File(
                io.BytesIO(json.dumps(record, indent=1).encode()), filename=f"game-{game}.json"
            ),
            discord.File(io.BytesIO(story.encode()), filename=f"game-{game}.txt"),
        ]
        await replies.send(interaction, embed=render.replay_embed(row, seating, hands), files=files)
        # The files come first, at once: the picture below takes a moment to draw.
        shown = await self._replay_step(row, 0)
        if shown is not None:  # a game ended before its first deal has nothing to watch
            await replies.send(
                interaction,
                view=replay_layout(game, shown),
                file=discord.File(io.BytesIO(shown.jpeg), filename=REPLAY_PICTURE),
            )


async def setup(bot: TuqueBot) -> None:
    """The extension's entry point (``Bot.load_extension``)."""
    await bot.add_cog(RecordsCog(bot))
