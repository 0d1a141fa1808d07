"""Events, "euchre nights" (issue 42; docs/events.md): ``/tuque event new``, the sign-up
message and its buttons, the server's Discord Scheduled Event kept in step both ways,
and the runner that seats each round, opens its tables and keeps the standings.

The rules of an event are :mod:`bot.events`'s (a value: each request returns the event
after it); the store keeps it and decides races (``Store.change_event``); this cog only
asks and shows:

- a click (Join, Leave, Start, Cancel) or a gateway event (a member marks Interested in
  the Discord event, a host edits or cancels it there) is one ``change_event``;
- a round's tables open as games open today (:meth:`GameSessions.start` and ``open``:
  a thread, the table picture, each member's hand, the links), each game linked to its
  table in the transaction that creates it, and each game ends with the round's last
  hand (``Table.last_hand``);
- the cog is a screen of the session manager (:class:`bot.sessions.manager.Screen`): a
  table's end records its result, a member away or back is shown in the standings, and
  the round's last result seats the next round or ends the event;
- the standings message is edited at most once every ``standings_gap`` seconds, each
  edit taking its turn in the request budget (:mod:`bot.budget`) and showing the event
  as stored then (superseded edits merge into one);
- after a restart, :meth:`sweep` (at once when the bot is ready, then every 30 s) takes
  every open event up again from the store: tables not opened yet open, results not yet
  recorded are, clocks run on; it also starts events at their start time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import io
import logging
import secrets
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import render, replies
from bot.budget import Priority
from bot.buttons import EventButton
from bot.cogs import TuqueCog
from bot.events.event import Event, EventClosed, StaleRound, Status, TooFew
from bot.events.model import Config, EventError, Fill, Format, SitOut, TableResult, formats_for
from bot.options import VARIANT_HELP, Variant
from bot.sessions.state import record_of, table_of
from bot.store import EventNotFound, EventRow, GameStatus, SeatRow, StoreClosed, TableOpened
from bot.table import Ending, NoteKind, Table
from engine.game import SEED_LIMIT, Game
from engine.variants import MAX_TARGET, VARIANTS

if TYPE_CHECKING:
    from bot.client import TuqueBot
    from bot.sessions import Session
    from bot.table import Change

__all__ = ["STANDINGS_GAP", "EventsCog", "event_view", "setup", "table_options", "table_result"]

log = logging.getLogger(__name__)

STANDINGS_GAP = 5.0
"""Seconds between two edits of an event's standings message: Discord allows about 5
edits in 5 seconds in a channel, which the event's tables share."""
_HOURS_AHEAD = 24 * 14
"""How far ahead an event may be set, in hours (two weeks)."""
_MINUTES_A_HAND = 4
"""A hand's minutes, for the Discord event's end time when rounds go by hands."""
_RAW_USER_EVENTS = {
    "GUILD_SCHEDULED_EVENT_USER_ADD": True,
    "GUILD_SCHEDULED_EVENT_USER_REMOVE": False,
}

_QUIET = discord.AllowedMentions.none()
"""A seating names everyone: shown, not pinged (each table's thread pings its members)."""

_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


def event_view(event: Event) -> discord.ui.View | None:
    """The sign-up message's buttons: Join, Leave, Start, Cancel in sign-up; Join (a late
    sign-up), Leave and Cancel while it runs; none once it is over."""
    if event.closed:
        return None
    kinds: tuple[str, ...] = ("join", "leave", "start", "cancel")
    if event.status is not Status.SIGN_UP:
        kinds = ("join", "leave", "cancel")
    ui = discord.ui.View(timeout=None)
    for what in kinds:
        label, style = _BUTTONS[what]
        button = discord.ui.Button[Any](label=label, style=style)
        ui.add_item(EventButton.of(button, event=event.id, what=what))
    return ui


def table_options(variant: str) -> dict[str, Any]:
    """A table's game options: played to the highest target the game takes, so that the
    round's length ends it (``Table.last_hand``), not a score."""
    rules = VARIANTS[variant]
    allowed = rules.choices.get("target", (MAX_TARGET,))
    if "target" not in rules.adjustable:
        return {}
    return {"target": max(allowed)}


def table_result(table: Table, config: Config) -> TableResult:
    """What an event table's finished game counts for (``docs/events.md``): each side's
    points, the seat of each going alone that marched, a duplicate table's boards (its
    hands' points, in order), and the side that resigned or forfeited."""
    game = table.game
    loners = tuple(r.alone for r in game.hand_results if r.alone is not None and r.march)
    result = table.result
    conceded = None
    if result is not None and result.ending is not Ending.FINISHED and result.by is not None:
        conceded = table.seats[result.by].side
    if config.format is Format.DUPLICATE:
        boards = tuple((r.points[0], r.points[1]) for r in game.hand_results)
        made = TableResult.of_boards(*boards, loners=loners)
        return TableResult(made.points, loners, made.boards, conceded)
    return TableResult((game.scores[0], game.scores[1]), loners, conceded=conceded)


def _host_words(role: int | None) -> str:
    """Who may host events, in a refusal: ``members with Manage Events`` (or the role)."""
    return "members with Manage Events" + ("" if role is None else f" or the <@&{role}> role")


class _Standings:
    """One event's standings message: edits asked for merge until the next may go."""

    def __init__(self) -> None:
        self.wanted = asyncio.Event()
        self.task: asyncio.Task[None] | None = None


def _discord_times(row: EventRow) -> tuple[datetime.datetime, datetime.datetime]:
    """When the event's Discord Scheduled Event starts and ends: at the event's start, and
    its rounds' length later (with a few minutes to spare)."""
    config = row.event.config
    start = datetime.datetime.fromtimestamp(row.starts_at, datetime.UTC)
    minutes = config.minutes or (config.hands or 1) * _MINUTES_A_HAND
    return start, start + datetime.timedelta(minutes=minutes * config.rounds + 5)


class EventsCog(TuqueCog, name="Events"):
    """Events ("euchre nights"): ``buttons.EventControls`` and the runner."""

    event = app_commands.Group(name="event", description="Euchre nights: rounds at changing tables")

    def __init__(self, bot: TuqueBot) -> None:
        super().__init__(bot)
        self.sessions = bot.sessions
        self.standings_gap = STANDINGS_GAP
        """Seconds between two edits of a standings message (tests shorten it)."""
        # Each running table's game: (event, round, table).
        self._games: dict[int, tuple[int, int, int]] = {}
        # One runner step of an event at a time in this process (the store decides
        # between processes): a table's result, a round's end and the next seating.
        self._locks: dict[int, asyncio.Lock] = {}
        self._standings: dict[int, _Standings] = {}
        self._parsers: dict[str, Callable[[Any], None]] = {}

    # --- loading ---------------------------------------------------------------------

    async def cog_load(self) -> None:
        await super().cog_load()
        self.sessions.screens.append(self)
        self._listen_to_interest()
        # Before the session manager restores its games: an event table's game ends with
        # its round's last hand from its first move after a restart.
        for row in await self.bot.store.open_events():
            if row.event.status is Status.RUNNING:
                if row.event.rounds[-1].away:
                    # Being away lasts for a process's run (R9): the restored tables
                    # have nobody away, so a member who comes is never "back" to them.
                    row = await self.bot.store.change_event(row.id, _nobody_away)
                    self._refresh_standings(row)
                self._track(row)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        if self in self.sessions.screens:
            self.sessions.screens.remove(self)
        self.bot._connection.parsers.update(self._parsers)
        for standings in self._standings.values():
            if standings.task is not None:
                standings.task.cancel()

    def _listen_to_interest(self) -> None:
        """Hear the members who mark Interested in an event's Discord event. discord.py
        dispatches ``scheduled_event_user_add`` only for a user in its cache, which
        without the members intent rarely holds them: the two gateway events are read
        here by their ids instead, before discord.py's own handling."""
        parsers = self.bot._connection.parsers
        for name, interested in _RAW_USER_EVENTS.items():
            original = parsers[name]
            self._parsers[name] = original

            def parse(
                data: Any, original: Callable[[Any], None] = original, add: bool = interested
            ) -> None:
                self.sessions.background.spawn(
                    self._interest(data, add), f"event-interest-{data.get('user_id')}"
                )
                original(data)

            parsers[name] = parse

    def _track(self, row: EventRow) -> None:
        """Follow the games of the round in play of a running event."""
        event = row.event
        for table, game_id in row.round_games(event.round_no).items():
            self._games[game_id] = (row.id, event.round_no, table)
            self._show_round(row, game_id)
            if event.config.hands is not None:
                self.sessions.last_hands.setdefault(game_id, event.config.hands)

    def _show_round(self, row: EventRow, game_id: int) -> None:
        """Have the table message of ``game_id`` show the round and its clock."""
        self.sessions.delivery.round_lines[game_id] = render.round_line(
            row.event, row.round_ends_at
        )

    def _lock(self, event_id: int) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    # --- /tuque event new ------------------------------------------------------------

    @event.command(name="new", description="Announce a euchre night: sign-ups, then rounds.")
    @app_commands.describe(
        name="The event's name",
        game=VARIANT_HELP,
        format="How members are seated and scored (see docs/events.md)",
        rounds="How many rounds",
        hands="A round's length in hands (duplicate: its boards)",
        minutes="A round's length in minutes (the hand in play is finished)",
        starts_in="Minutes from now until it starts by itself (the host may start earlier)",
        fill="When the count does not fill the tables: computers, or members sit out in turn",
        loner_bonus="Progressive: points added for each going alone that marched",
        sit_out="Progressive: what a member who sits out scores",
        sit_out_points="Progressive: the points of a sit-out, when sit_out is points",
        location="Where the Discord event says it is (default: this channel)",
    )
    @app_commands.choices(
        format=[app_commands.Choice(name=f.label, value=f.value) for f in Format],
        fill=[app_commands.Choice(name=f.value, value=f.value) for f in Fill],
        sit_out=[app_commands.Choice(name=s.value, value=s.value) for s in SitOut],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        game: Variant,
        format: str,
        rounds: app_commands.Range[int, 1, 20],
        hands: app_commands.Range[int, 1, 24] | None = None,
        minutes: app_commands.Range[int, 1, 180] | None = None,
        starts_in: app_commands.Range[int, 1, _HOURS_AHEAD * 60] = 30,
        fill: str = Fill.COMPUTERS.value,
        loner_bonus: app_commands.Range[int, 0, 10] = 0,
        sit_out: str = SitOut.AVERAGE.value,
        sit_out_points: app_commands.Range[int, 0, 100] = 0,
        location: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Create the event: its Discord Scheduled Event and its sign-up message. Event
        hosts only (:meth:`_hosts`); every refusal is ephemeral and creates nothing."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        hosts, role = await self._hosts(interaction)
        if not hosts:
            await replies.deny(interaction, f"Only {_host_words(role)} can create an event.")
            return
        try:
            config = Config(
                name,
                game,
                Format(format),
                rounds=rounds,
                seed=secrets.randbelow(SEED_LIMIT),
                hands=hands,
                minutes=minutes,
                fill=Fill(fill),
                loner_bonus=loner_bonus,
                sit_out=SitOut(sit_out),
                sit_out_points=sit_out_points,
            )
        except (EventError, ValueError) as error:
            fits = ", ".join(f.label for f in formats_for(VARIANTS[game]))
            await replies.deny(interaction, f"{error} ({VARIANTS[game].title}: {fits or 'none'})")
            return
        starts_at = time.time() + starts_in * 60
        async with replies.deadline(interaction):
            row = await self.bot.store.create_event(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                config,
                starts_at=starts_at,
            )
            await replies.deliver(
                f"event {row.id}: answer",
                lambda: replies.send(
                    interaction,
                    content=f"**{config.name}** is announced below and in the server's Events.",
                    ephemeral=True,
                ),
            )
        await self._post_sign_up(row)
        await self._schedule(row, location)

    @event.command(name="move", description="Move the start of this channel's euchre night.")
    @app_commands.describe(starts_in="Minutes from now until it starts by itself")
    async def move(
        self,
        interaction: discord.Interaction,
        starts_in: app_commands.Range[int, 1, _HOURS_AHEAD * 60],
    ) -> None:
        """Move the start of the newest event signing up in this channel, and its
        Discord Scheduled Event with it. Its host or an event host only; refused
        (ephemeral, nothing changed) once it has started."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        here = await self.bot.store.open_events_here(interaction.guild_id, interaction.channel_id)
        signing_up = [row for row in here if row.event.status is Status.SIGN_UP]
        if not signing_up:
            await replies.deny(interaction, "No euchre night is signing up in this channel.")
            return
        row = signing_up[-1]
        if not await self._may_run(interaction, row):
            await replies.deny(interaction, f"Only the host can move {row.event.config.name}.")
            return
        # Whole seconds: the Discord event's start comes back as it was set.
        starts_at = float(int(time.time()) + starts_in * 60)
        try:
            row = await self.bot.store.set_event_start(row.id, starts_at)
        except EventError as error:
            await replies.deny(interaction, str(error))
            return
        when = f"<t:{int(starts_at)}:F>"
        await replies.deliver(
            f"event {row.id}: move answer",
            lambda: replies.send(
                interaction,
                content=f"**{row.event.config.name}** now starts {when}.",
                ephemeral=True,
            ),
        )
        await self._show_sign_up(row)
        await self._move_discord_event(row)

    async def _post_sign_up(self, row: EventRow) -> None:
        channel = self.bot.get_partial_messageable(row.channel_id)
        nonce = replies.nonce("event", row.id, row.event.config.seed)

        async def post() -> None:
            kwargs: dict[str, Any] = {"embed": render.event_embed(row), "nonce": nonce}
            if (view := event_view(row.event)) is not None:
                kwargs["view"] = view
            message = await channel.send(**kwargs)
            await self.bot.store.set_event_messages(row.id, signup_message_id=message.id)

        await replies.deliver(f"event {row.id}: sign-up post", post)

    async def _schedule(self, row: EventRow, location: str | None) -> None:
        """Create the event's Discord Scheduled Event (an external one, at ``location``
        or this channel), and remember it."""
        guild = self.bot.get_guild(row.guild_id)
        if guild is None:
            log.warning("event %d: guild not in the cache, no Discord event", row.id)
            return
        config = row.event.config
        start, end = _discord_times(row)
        channel = guild.get_channel(row.channel_id)
        where = location or (f"#{channel.name}" if channel is not None else "this server")
        description = (
            f"{VARIANTS[config.variant].title} · {config.format.label} · {config.rounds} "
            f"rounds of {render.round_length(config)}. Mark Interested to sign up."
        )

        async def create() -> None:
            created = await guild.create_scheduled_event(
                name=config.name,
                start_time=start,
                end_time=end,
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=where,
                description=description,
            )
            await self.bot.store.set_event_messages(row.id, scheduled_event_id=created.id)

        await replies.deliver(f"event {row.id}: Discord event", create)

    async def _move_discord_event(self, row: EventRow) -> None:
        """Give the event's Discord Scheduled Event the event's start (and an end after it)."""
        scheduled = await self._discord_event(row)
        if scheduled is None or scheduled.status is not discord.EventStatus.scheduled:
            return
        start, end = _discord_times(row)
        await replies.deliver(
            f"event {row.id}: Discord event moved",
            partial(scheduled.edit, start_time=start, end_time=end),
        )

    async def _discord_event(self, row: EventRow) -> discord.ScheduledEvent | None:
        """The event's Discord Scheduled Event, from the cache or asked of Discord."""
        guild = self.bot.get_guild(row.guild_id)
        if guild is None or row.scheduled_event_id is None:
            return None
        found = guild.get_scheduled_event(row.scheduled_event_id)
        if found is not None:
            return found
        try:
            return await guild.fetch_scheduled_event(row.scheduled_event_id)
        except discord.HTTPException:
            return None

    async def _set_discord_status(self, row: EventRow, status: discord.EventStatus) -> None:
        """Move the Discord event to ``status`` (active, completed, cancelled), unless it
        is there or over already (Discord refuses any change to a finished event). Discord
        completes only an active event and cancels only one not started: an event that
        ends before its Discord event started starts it first, and a cancelled event
        whose Discord event is active completes it."""
        scheduled = await self._discord_event(row)
        over = (status, discord.EventStatus.completed, discord.EventStatus.cancelled)
        if scheduled is None or scheduled.status in over:
            return
        if (
            status is discord.EventStatus.cancelled
            and scheduled.status is discord.EventStatus.active
        ):
            status = discord.EventStatus.completed

        async def move() -> None:
            event = scheduled
            if (
                status is not discord.EventStatus.cancelled
                and event.status is discord.EventStatus.scheduled
            ):
                event = await event.start()
            if status is discord.EventStatus.completed:
                await event.end()
            elif status is discord.EventStatus.cancelled:
                await event.cancel()

        await replies.deliver(f"event {row.id}: Discord event {status.name}", move)

    # --- the sign-up message's buttons -------------------------------------------------

    async def _hosts(self, interaction: discord.Interaction) -> tuple[bool, int | None]:
        """Whether the member may host events: Discord's Manage Events permission, or the
        server's event-host role (``/tuque settings``); and that role's id (None: none)."""
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        role = (await self.guild_settings(interaction.guild_id)).event_host_role_id
        member = interaction.user
        has_role = role is not None and isinstance(member, discord.Member) and member.get_role(role)
        return bool(interaction.permissions.manage_events or has_role), role

    async def _may_run(self, interaction: discord.Interaction, row: EventRow) -> bool:
        """Whether the clicker may start or cancel: the host, or an event host."""
        return interaction.user.id == row.host_id or (await self._hosts(interaction))[0]

    async def on_event(self, interaction: discord.Interaction, event_id: int, what: str) -> None:
        """A click on an event's Join, Leave, Start or Cancel (``buttons.EventButton``).
        Every refusal (a stranger's Start, a second Join, a click on an event over, a
        Start after the start) is an ephemeral sentence and changes nothing."""
        user = interaction.user
        store = self.bot.store
        async with replies.deadline(interaction):
            try:
                row = await store.load_event(event_id)
                if row.guild_id != interaction.guild_id:
                    raise EventError("This event is another server's.")
                if what in ("start", "cancel") and not await self._may_run(interaction, row):
                    raise EventError(f"Only the host, <@{row.host_id}>, can do that.")
                match what:
                    case "join":
                        await store.upsert_player(row.guild_id, user.id, user.display_name)
                        row = await store.change_event(
                            event_id, lambda e: e.join(user.id), joining=user.id
                        )
                        said = f"You're in **{row.event.config.name}**."
                        if row.event.status is not Status.SIGN_UP:
                            said += " You play from the next round."
                    case "leave":
                        row = await self._leave(row, user.id)
                        said = f"You left **{row.event.config.name}**."
                    case "start":
                        row = await self._start(row)
                        said = f"**{row.event.config.name}** has started."
                    case _:
                        row = await self._cancel(row)
                        said = f"**{row.event.config.name}** is cancelled."
            except EventNotFound:
                await replies.deny(interaction, "This event no longer exists.")
                return
            except EventError as refused:
                await replies.deny(interaction, str(refused))
                return
            await replies.deliver(
                f"event {event_id}: {what}",
                lambda: replies.edit_clicked(
                    interaction, embed=render.event_embed(row), view=event_view(row.event)
                ),
            )
            await replies.deliver(
                f"event {event_id}: {what} said",
                lambda: replies.send(interaction, content=said, ephemeral=True),
            )

    async def _leave(self, row: EventRow, member: int) -> EventRow:
        """``member`` leaves; at a table of the round in play, a computer takes their seat
        (R34). Raises ``EventError``."""
        row = await self.bot.store.change_event(row.id, lambda e: e.leave(member))
        event = row.event
        if event.status is Status.RUNNING:
            seat = event.rounds[-1].seating_of(member)
            game_id = None if seat is None else row.round_games(event.round_no).get(seat.table)
            if game_id is not None:
                await self.sessions.resign_member(game_id, member)
            self._refresh_standings(row)
        return row

    async def _cancel(self, row: EventRow) -> EventRow:
        """The host cancels: the event ends, its Discord event too; tables in play play on
        without counting. Raises ``EventError``."""
        row = await self.bot.store.change_event(row.id, lambda e: e.cancel())
        self.sessions.background.spawn(
            self._set_discord_status(row, discord.EventStatus.cancelled), f"event-{row.id}-cancel"
        )
        for game_id, (event_id, _, _) in list(self._games.items()):
            if event_id == row.id:
                del self._games[game_id]
        return row

    # --- the runner ------------------------------------------------------------------

    async def _start(self, row: EventRow) -> EventRow:
        """Close sign-up and seat round 1 (the store decides: of two Starts one starts),
        then set the Discord event active and open the tables. Raises ``EventError``."""
        async with self._lock(row.id):
            row = await self.bot.store.change_event(row.id, lambda e: e.start(), seated=True)
            self.sessions.background.spawn(
                self._run_round(row, first=True), f"event-{row.id}-start"
            )
        return row

    async def _run_round(self, row: EventRow, *, first: bool = False) -> None:
        """Show the round just seated and open its tables."""
        if first:
            await self._set_discord_status(row, discord.EventStatus.active)
            await self._show_sign_up(row)
            await self._post_standings(row)
        channel = self.bot.get_partial_messageable(row.channel_id)
        text = render.seating_text(row.event)
        nonce = replies.nonce("event-round", row.id, row.event.config.seed, row.event.round_no)
        await replies.deliver(
            f"event {row.id}: round {row.event.round_no} seating",
            partial(channel.send, text, nonce=nonce, allowed_mentions=_QUIET),
        )
        await self._open_tables(row)
        self._refresh_standings(row)

    async def _open_tables(self, row: EventRow) -> None:
        """Open every table of the round in play that has no game yet."""
        event = row.event
        config = event.config
        rnd = event.rounds[-1]
        sides = VARIANTS[config.variant].sides
        opened = row.round_games(rnd.number)
        for seating in rnd.seatings:
            if seating.table in opened:
                continue
            seats = [
                SeatRow.computer(n, "normal", side=sides[n])
                if m is None
                else SeatRow.human(n, m, side=sides[n])
                for n, m in enumerate(seating.seats)
            ]
            try:
                session = await self.sessions.start(
                    row.guild_id,
                    row.channel_id,
                    config.variant,
                    table_options(config.variant),
                    seats,
                    seed=seating.seed,
                    event_table=(row.id, rnd.number, seating.table),
                    last_hand=config.hands,
                )
            except TableOpened:
                continue
            except (StaleRound, EventClosed):
                return
            self._games[session.id] = (row.id, rnd.number, seating.table)
            self._show_round(row, session.id)
            pinged = [n for n, m in enumerate(seating.seats) if m is not None]
            await self.sessions.open(session, [], pinged)

    def show(self, session: Session, change: Change) -> None:
        """A stored change of a table (the session manager's screens): an event table's
        end records its result; a member away or back is shown in the standings."""
        where = self._games.get(session.id)
        if where is None:
            return
        background = self.sessions.background
        if change.result is not None:
            self._games.pop(session.id, None)
            self.sessions.delivery.round_lines.pop(session.id, None)
            made = partial(table_result, change.after)
            background.spawn(self._table_over(where, made), f"event-{where[0]}-result")
        for note in change.notes:
            member = change.after.seats[note.seat].member
            if note.kind in (NoteKind.AWAY, NoteKind.BACK) and member is not None:
                away = note.kind is NoteKind.AWAY
                background.spawn(self._away(where, member, away), f"event-{where[0]}-away")

    async def _away(self, where: tuple[int, int, int], member: int, away: bool) -> None:
        event_id, round_no, _ = where
        try:
            row = await self.bot.store.change_event(
                event_id,
                lambda e: e.away(member) if away else e.back(member),
            )
        except (EventError, StoreClosed):
            return
        if row.event.round_no == round_no:
            self._refresh_standings(row)

    async def _table_over(
        self, where: tuple[int, int, int], made: Callable[[Config], TableResult]
    ) -> None:
        """Record a table's result (``made`` of the event's options), then end the round
        if it was the last."""
        event_id, round_no, table_no = where
        async with self._lock(event_id):
            row = await self.bot.store.load_event(event_id)
            result = made(row.event.config)
            try:
                row = await self.bot.store.change_event(
                    event_id, lambda e: e.record(round_no, table_no, result)
                )
            except EventError as refused:
                log.info(
                    "event %d: table %d's result not recorded: %s", event_id, table_no, refused
                )
                return
            await self._advance(row)

    async def _advance(self, row: EventRow) -> None:
        """After a result: the round's end, the next round seated, or the event's end."""
        store = self.bot.store
        current = row.event.current
        if current is not None and current.over:
            row = await store.change_event(row.id, lambda e: e.end_round())
        if row.event.status is Status.BETWEEN:
            try:
                row = await store.change_event(row.id, lambda e: e.next_round(), seated=True)
            except TooFew:
                row = await store.change_event(row.id, lambda e: e.finish())
            else:
                self.sessions.background.spawn(self._run_round(row), f"event-{row.id}-round")
                return
        if row.event.status is Status.FINISHED:
            await self._finish(row)
            return
        self._refresh_standings(row)

    async def _finish(self, row: EventRow) -> None:
        """The event is over: the Discord event completed, the results posted with their
        CSV file, the standings and the sign-up message final."""
        await self._set_discord_status(row, discord.EventStatus.completed)
        await self._show_sign_up(row)
        self._refresh_standings(row)
        event = row.event
        members = [m.id for m in event.members]
        names = await self.bot.store.player_names(row.guild_id, members)
        data = render.results_csv(event, names).encode()
        channel = self.bot.get_partial_messageable(row.channel_id)
        nonce = replies.nonce("event-results", row.id, event.config.seed)

        async def post() -> None:
            file = discord.File(io.BytesIO(data), filename=f"event-{row.id}-results.csv")
            await channel.send(embed=render.results_embed(event), file=file, nonce=nonce)

        await replies.deliver(f"event {row.id}: results", post)

    async def _show_sign_up(self, row: EventRow) -> None:
        if row.signup_message_id is None:
            row = await self.bot.store.load_event(row.id)
        if row.signup_message_id is None:
            return
        message = self.bot.get_partial_messageable(row.channel_id).get_partial_message(
            row.signup_message_id
        )
        await replies.deliver(
            f"event {row.id}: sign-up edit",
            partial(message.edit, embed=render.event_embed(row), view=event_view(row.event)),
        )

    # --- standings -------------------------------------------------------------------

    async def _post_standings(self, row: EventRow) -> None:
        channel = self.bot.get_partial_messageable(row.channel_id)
        nonce = replies.nonce("event-standings", row.id, row.event.config.seed)

        async def post() -> None:
            embed = render.standings_embed(row.event, self._standings_link(row))
            message = await channel.send(embed=embed, nonce=nonce)
            await self.bot.store.set_event_messages(row.id, standings_message_id=message.id)

        await replies.deliver(f"event {row.id}: standings post", post)

    def _standings_link(self, row: EventRow) -> str | None:
        """The live standings page's link (``docs/events.md``, "On the web"), fresh at
        each edit, where the web table is on."""
        links = self.sessions.delivery.links
        return None if links is None else links.event_link(row.id)

    def _refresh_standings(self, row: EventRow) -> None:
        """Ask for an edit of the standings message; edits asked meanwhile merge."""
        standings = self._standings.setdefault(row.id, _Standings())
        standings.wanted.set()
        if standings.task is None or standings.task.done():
            standings.task = self.sessions.background.spawn(
                self._edit_standings(row.id, standings), f"event-{row.id}-standings"
            )

    async def _edit_standings(self, event_id: int, standings: _Standings) -> None:
        """Edit the standings message while edits are wanted, ``standings_gap`` apart,
        each with its turn in the request budget and the event as stored then."""
        while standings.wanted.is_set():
            standings.wanted.clear()
            await self.bot.budget.turn(Priority.ROUTINE)
            with self.bot.budget.prepaid():  # a turn left unused frees its place
                try:
                    row = await self.bot.store.load_event(event_id)
                except StoreClosed:
                    return
                if row.standings_message_id is not None:
                    channel = self.bot.get_partial_messageable(row.channel_id)
                    message = channel.get_partial_message(row.standings_message_id)
                    await replies.deliver(
                        f"event {event_id}: standings",
                        partial(
                            message.edit,
                            embed=render.standings_embed(row.event, self._standings_link(row)),
                        ),
                    )
            if row.event.closed:
                return
            await asyncio.sleep(self.standings_gap)

    # --- the Discord event's side ----------------------------------------------------

    async def _interest(self, data: Any, interested: bool) -> None:
        """A member marked (or unmarked) Interested in a Discord event: if it is one of
        ours, they join (or leave) the event."""
        try:
            scheduled_id, user_id = int(data["guild_scheduled_event_id"]), int(data["user_id"])
        except (KeyError, TypeError, ValueError):
            return
        if self.bot.user is not None and user_id == self.bot.user.id:
            return
        row = await self.bot.store.event_by_scheduled_event(scheduled_id)
        if row is None:
            return
        try:
            if interested:
                row = await self.bot.store.change_event(
                    row.id, lambda e: e.join(user_id), joining=user_id
                )
            else:
                row = await self._leave(row, user_id)
        except EventError:
            return
        await self._show_sign_up(row)

    @TuqueCog.listener()
    async def on_scheduled_event_update(
        self, before: discord.ScheduledEvent, after: discord.ScheduledEvent
    ) -> None:
        """The Discord event was edited in Discord: cancelled there cancels ours; a new
        start time moves ours while in sign-up."""
        row = await self.bot.store.event_by_scheduled_event(after.id)
        if row is None or row.event.closed:
            return
        try:
            if after.status is discord.EventStatus.cancelled:
                row = await self.bot.store.change_event(row.id, lambda e: e.cancel())
            elif (
                after.start_time.timestamp() != row.starts_at and row.event.status is Status.SIGN_UP
            ):
                row = await self.bot.store.set_event_start(row.id, after.start_time.timestamp())
            else:
                return
        except EventError:
            return
        await self._show_sign_up(row)

    @TuqueCog.listener()
    async def on_scheduled_event_delete(self, scheduled: discord.ScheduledEvent) -> None:
        """The Discord event was deleted: ours is cancelled."""
        row = await self.bot.store.event_by_scheduled_event(scheduled.id)
        if row is None or row.event.closed:
            return
        try:
            row = await self.bot.store.change_event(row.id, lambda e: e.cancel())
        except EventError:
            return
        await self._show_sign_up(row)

    # --- the clock -------------------------------------------------------------------

    async def sweep(self, now: float | None = None) -> None:
        """Start the events whose time came, take up the running ones after a restart
        (tables to open, results to record, the next round to seat) and end the rounds
        whose clock ran out (the hand in play is finished)."""
        now = time.time() if now is None else now
        for row in await self.bot.store.open_events():
            try:
                await self._tend(row, now)
            except EventError as refused:
                log.info("event %d: %s", row.id, refused)

    async def _tend(self, row: EventRow, now: float) -> None:
        event = row.event
        if event.status is Status.SIGN_UP:
            if row.starts_at <= now:
                try:
                    await self._start(row)
                except TooFew as few:
                    await self._cancel(row)
                    channel = self.bot.get_partial_messageable(row.channel_id)
                    text = f"**{event.config.name}** is cancelled: {few}"
                    await replies.deliver(f"event {row.id}: too few", partial(channel.send, text))
                    await self._show_sign_up(await self.bot.store.load_event(row.id))
            return
        if event.status is Status.BETWEEN or event.rounds[-1].over:
            # Between rounds, or every result in but the round not ended: stopped
            # between the round's last result and the next seating.
            async with self._lock(row.id):
                await self._advance(await self.bot.store.load_event(row.id))
            return
        self._track(row)
        games = row.round_games(event.round_no)
        if len(games) < len(event.rounds[-1].seatings):
            await self._open_tables(row)
            row = await self.bot.store.load_event(row.id)
            games = row.round_games(event.round_no)
        minutes = event.config.minutes
        late = minutes is not None and (row.round_started_at or now) + minutes * 60 <= now
        for table, game_id in games.items():
            if event.rounds[-1].results[table - 1] is not None:
                continue
            session = self.sessions.session(game_id)
            if session is None:
                # Ended while the bot was down, or before its result was recorded.
                await self._record_stored(row, table, game_id)
            elif late:
                await self.sessions.end_after(game_id)

    async def _record_stored(self, row: EventRow, table: int, game_id: int) -> None:
        """Record the result of a table whose game ended while no process ran it (or
        before its result was recorded), from the game as stored."""
        game = await self.bot.store.load_game(game_id)
        if game.status is GameStatus.ACTIVE:
            return
        replayed = Game.from_record(record_of(game))
        stored = table_of(game.id, game.seats, replayed, game.guild_id)
        winner = stored.best_side() if game.winner_seat is None else game.winner_seat % 2
        if game.status is GameStatus.FINISHED:
            ending, by = Ending.FINISHED, None
        else:
            # The side that did not win conceded (R26, R9): any seat of it.
            ending, by = Ending.RESIGNED, next(s.number for s in stored.seats if s.side != winner)
        ended = dataclasses.replace(stored, result=stored.standings(ending, winner, by))
        await self._table_over((row.id, row.event.round_no, table), partial(table_result, ended))


def _nobody_away(event: Event) -> Event:
    """``event`` with every member of the round in play back at their seat."""
    for member in event.rounds[-1].away:
        event = event.back(member)
    return event


async def setup(bot: TuqueBot) -> None:
    """The extension's entry point (``Bot.load_extension``)."""
    await bot.add_cog(EventsCog(bot))
