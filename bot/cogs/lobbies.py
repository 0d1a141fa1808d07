"""Lobbies and challenges: ``/tuque challenge`` and ``/tuque table``, their buttons,
and their expiry. A game starts here and runs in the session manager."""

from __future__ import annotations

import asyncio
import datetime
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot import render, replies
from bot.buttons import ChallengeButton, LobbyButton, LobbySelect
from bot.cogs import TuqueCog, game_guild
from bot.layout import launch_button, show_hand_button
from bot.options import (
    DISCORD_LEVELS,
    TABLE_OPTION_HELP,
    VARIANT_HELP,
    Deals,
    Level,
    Pack,
    Players,
    Target,
    Variant,
    game_options,
)
from bot.sessions.state import NO_GUILD, TOKEN_LIFETIME
from bot.store import (
    AlreadyPlaying,
    ChallengeClosed,
    ChallengeNotFound,
    ChallengePending,
    ChallengeStatus,
    GameNotFound,
    GameStatus,
    LobbyChanged,
    LobbyClosed,
    LobbyNotFound,
    LobbyNotReady,
    LobbyRow,
    LobbyStatus,
    SeatKind,
    SeatRow,
    SeatUnavailable,
    lobby_seating,
)
from engine.variants import VARIANTS
from engine.variants import Variant as VariantRules
from engine.wording import computer_name

if TYPE_CHECKING:
    from bot.client import TuqueBot
    from bot.sessions import Session

__all__ = [
    "CHALLENGE_LIFETIME",
    "INVITATIONS_IN_A_SERVER",
    "LOBBY_LIFETIME",
    "LobbiesCog",
    "invite_seats",
    "lobby_view",
    "setup",
]

log = logging.getLogger(__name__)

INVITATIONS_IN_A_SERVER = (
    "In a DM or group DM you can challenge one member to a two-seat game, or play "
    "`/tuque bot`; invitations of several members and tables need a server."
)
"""The answer to an invitation of several members outside a server."""
CHALLENGE_LIFETIME = 600.0
"""Seconds a challenge stays open (10 minutes)."""
LOBBY_LIFETIME = 900.0
"""Seconds a lobby or an invitation of several members stays open (15 minutes)."""
_TOKEN_AGE = datetime.timedelta(seconds=TOKEN_LIFETIME)
"""How old a member's interaction with a lobby may be for their hand to come as its
follow-up when the game starts (Discord's tokens live 15 minutes)."""
_START_ATTEMPTS = 5
"""Reads of a lobby a Start tries before it asks the host to press again: each retry
follows a change another member made in between, so more than two is rare."""


def _already_playing(name: str, game_id: int) -> str:
    return f"You're already playing {name} (game #{game_id}): finish or resign it first."


def _pending(pending: ChallengePending, user_id: int, name: str) -> str:
    """Why a second challenge between two members in a channel is refused."""
    challenge = pending.challenge
    expires = f"<t:{int(challenge.expires_at)}:R>"
    if challenge.challenger_id == user_id:
        return f"Your challenge to {name} is still open here: it expires {expires}."
    return f"{name} has challenged you here already: press **Accept** on it (it expires {expires})."


def challenge_view(challenge_id: int) -> discord.ui.View:
    """Accept / Decline for a challenge message."""
    ui = discord.ui.View(timeout=None)
    accept = discord.ui.Button[Any](label="Accept", style=discord.ButtonStyle.success)
    decline = discord.ui.Button[Any](label="Decline", style=discord.ButtonStyle.secondary)
    ui.add_item(ChallengeButton.of(accept, challenge=challenge_id, answer="accept"))
    ui.add_item(ChallengeButton.of(decline, challenge=challenge_id, answer="decline"))
    return ui


_LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
    "accept": ("Accept", discord.ButtonStyle.success),
    "decline": ("Decline", discord.ButtonStyle.secondary),
}
"""A lobby's buttons: what the custom_id says, and the label and style shown."""


def _lobby_button(lobby_id: int, what: str) -> LobbyButton:
    label, style = _LOBBY_BUTTONS[what]
    button = discord.ui.Button[Any](label=label, style=style)
    return LobbyButton.of(button, lobby=lobby_id, what=what)


def invite_seats(
    v: VariantRules,
    host: discord.abc.User,
    opponents: list[discord.abc.User],
    partners: list[discord.abc.User],
) -> list[tuple[int, discord.abc.User]]:
    """The seats of a challenge's invited members: partners on the host's side (seat 0's),
    opponents on the others, in seat order (RULES.md §3–§7 seating). Raises
    ``replies.UserError`` for a member invited twice, the host, a bot, a partner in a
    game without fixed partners, or more members than the seats."""
    members = [*partners, *opponents]
    if any(m.id == host.id for m in members):
        raise replies.UserError("You can't invite yourself: you sit in seat 1.")
    if len({m.id for m in members}) != len(members):
        raise replies.UserError("Each member can be invited once.")
    if bots := [m.display_name for m in members if m.bot]:
        raise replies.UserError(f"{', '.join(bots)}: bots don't play; computers fill empty seats.")
    if partners and not v.teams:
        raise replies.UserError(f"{v.title} has no fixed partners: invite everyone as an opponent.")
    mine = [seat for seat in range(1, v.players) if v.sides[seat] == v.sides[0]]
    theirs = [seat for seat in range(1, v.players) if v.sides[seat] != v.sides[0]]
    if len(partners) > len(mine) or len(opponents) > len(theirs):
        raise replies.UserError(
            f"{v.title} seats {len(mine)} partner(s) beside you and {len(theirs)} "
            "opponent(s): invite fewer members."
        )
    return [*zip(mine, partners, strict=False), *zip(theirs, opponents, strict=False)]


def lobby_view(lobby: LobbyRow, *, activity: bool = False) -> discord.ui.View | None:
    """A lobby's components: while open, a seat select, the host's computer select,
    Join/Leave/Start/Cancel (an invitation: Accept/Decline/Cancel); once its game
    started, "Show my hand"; nothing once it closed otherwise. With ``activity`` (the
    table runs inside Discord), an open or started lobby also offers "Open the table"."""
    ui = discord.ui.View(timeout=None)
    if lobby.status is LobbyStatus.STARTED and lobby.game_id is not None:
        ui.add_item(show_hand_button(lobby.game_id))
        if activity:
            ui.add_item(launch_button())
        return ui
    if lobby.status is not LobbyStatus.OPEN:
        return None
    if lobby.invited:
        for what in ("accept", "decline", "cancel"):
            ui.add_item(_lobby_button(lobby.id, what))
        return ui
    held = {s.seat: s for s in lobby.taken}
    seats = [
        discord.SelectOption(
            label=render.lobby_seat_label(lobby, seat),
            description="empty"
            if seat not in held
            else f"{computer_name(seat)}, {held[seat].level} level",
            value=str(seat),
        )
        for seat in range(lobby.seats)
        if seat not in held or held[seat].kind is SeatKind.COMPUTER
    ]
    if seats:
        select = discord.ui.Select[Any](placeholder="Pick a seat", options=seats)
        ui.add_item(LobbySelect.of(select, lobby=lobby.id, what="seat"))
    if lobby.free:
        levels = discord.ui.Select[Any](
            placeholder="Add a computer (host)",
            options=[
                discord.SelectOption(label=f"Computer ({lvl})", value=lvl) for lvl in DISCORD_LEVELS
            ],
        )
        ui.add_item(LobbySelect.of(levels, lobby=lobby.id, what="computer"))
    for what in ("join", "leave", "start", "cancel"):
        ui.add_item(_lobby_button(lobby.id, what))
    if activity:
        ui.add_item(launch_button())
    return ui


class LobbiesCog(TuqueCog, name="Lobbies"):
    """Challenges and lobbies until their game starts (``buttons.LobbyControls``)."""

    def __init__(self, bot: TuqueBot) -> None:
        super().__init__(bot)
        self.sessions = bot.sessions
        # The challenger's interaction, to show them their hand when the game starts.
        self._challengers: dict[int, discord.Interaction] = {}
        # Per open lobby, each member's newest interaction with it (the command that
        # opened it, a Join, a seat, an Accept, a Rematch): its token brings them their
        # hand when the game starts, for 15 minutes (``_start``).
        self._members: dict[int, dict[int, discord.Interaction]] = {}
        # Striped by lobby id: edits of one lobby's message run one at a time (``_showing``).
        self._edit_locks = tuple(asyncio.Lock() for _ in range(64))

    async def sweep(self) -> None:
        await self.expire()

    async def expire(self, now: float | None = None) -> None:
        """Close the challenges and lobbies whose time ran out, and say so on their
        messages (``now``: seconds since the epoch; tests pass their own)."""
        now = time.time() if now is None else now
        for challenge in await self.bot.store.expire_challenges(now):
            challenger = self._challengers.pop(challenge.id, None)
            message_id = challenge.message_id
            if message_id is None:
                continue
            text = (
                f"The challenge from <@{challenge.challenger_id}> to "
                f"<@{challenge.opponent_id}> expired."
            )
            if challenge.guild_id == NO_GUILD:
                # A follow-up of the challenger's command, reached through its token
                # (which outlives the challenge); after a restart it stays as it was,
                # and its Accept says the challenge expired.
                if challenger is not None:
                    edit = partial(
                        challenger.followup.edit_message, message_id, content=text, view=None
                    )
                    await replies.deliver(f"challenge {challenge.id}: expiry", edit)
                continue
            channel = self.bot.get_partial_messageable(challenge.channel_id)
            await replies.deliver(
                f"challenge {challenge.id}: expiry",
                partial(channel.get_partial_message(message_id).edit, content=text, view=None),
            )
        for lobby in await self.bot.store.expire_lobbies(now):
            self._members.pop(lobby.id, None)
            await self._show(lobby, "expiry")

    # --- /tuque challenge -----------------------------------------------------------------

    @app_commands.command(description="Challenge members of this server to a game.")
    @app_commands.describe(
        opponent="Who you want to play",
        variant=VARIANT_HELP,
        target=TABLE_OPTION_HELP["target"],
        partner="Team games: a member to invite as your partner",
        opponent2="Another member to invite against you",
        partner2="Six-seat team games: a second partner",
        opponent3="Another member to invite against you",
        opponent4="Another member to invite (games of five or six)",
        opponent5="Another member to invite (games of six)",
        **{k: TABLE_OPTION_HELP[k] for k in ("level", "players", "pack")},
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        variant: Variant | None = None,
        target: Target | None = None,
        partner: discord.User | None = None,
        opponent2: discord.User | None = None,
        partner2: discord.User | None = None,
        opponent3: discord.User | None = None,
        opponent4: discord.User | None = None,
        opponent5: discord.User | None = None,
        level: Level = "normal",
        players: Players | None = None,
        pack: Pack | None = None,
    ) -> None:
        """One opponent at a two-seat game: Accept/Decline (``challenges``). Anything
        more: an invitation (a lobby with reserved seats) that starts when every
        invited member has accepted, computers of ``level`` in the other seats."""
        variant = await self.variant_or_default(game_guild(interaction), variant)
        options = game_options(variant, target=target, players=players, pack=pack)
        opponents = [m for m in (opponent, opponent2, opponent3, opponent4, opponent5) if m]
        partners = [m for m in (partner, partner2) if m]
        v = VARIANTS[variant].configured(VARIANTS[variant].options(**options))
        if v.players == 2 and not partners and len(opponents) == 1:
            await self.start_challenge(interaction, opponent, variant, options)
            return
        if interaction.guild_id is None:
            # An invitation lives in a message the lobby's sweep edits for 15 minutes and
            # more, which a DM's interaction tokens cannot promise.
            await replies.deny(interaction, INVITATIONS_IN_A_SERVER)
            return
        invited = invite_seats(v, interaction.user, opponents, partners)
        await self.invite(interaction, variant, options, level, invited)

    async def start_challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User,
        variant: str,
        options: dict[str, Any],
    ) -> None:
        """Post Accept/Decline for ``opponent``; expires in 10 minutes.

        ``options`` are the game's, already checked (``options.game_options``)."""
        user = interaction.user
        if interaction.channel_id is None:
            await replies.deny(interaction, "Challenges are made in a channel.")
            return
        guild_id = game_guild(interaction)
        if opponent.id == user.id:
            await replies.deny(interaction, "You can't challenge yourself. Try `/tuque bot`.")
            return
        if opponent.bot:
            await replies.deny(
                interaction, f"{opponent.display_name} is a bot. Play the computer: `/tuque bot`."
            )
            return
        async with replies.deadline(interaction):
            running = await self.bot.store.active_game_between(guild_id, user.id, opponent.id)
            if running is not None:
                await replies.deny(interaction, _already_playing(opponent.display_name, running.id))
                return
            await self.bot.store.upsert_player(guild_id, user.id, user.display_name)
            await self.bot.store.upsert_player(guild_id, opponent.id, opponent.display_name)
            try:
                challenge = await self.bot.store.create_challenge(
                    guild_id,
                    interaction.channel_id,
                    user.id,
                    opponent.id,
                    variant,
                    options,
                    lifetime=CHALLENGE_LIFETIME,
                )
            except ChallengePending as pending:
                await replies.deny(interaction, _pending(pending, user.id, opponent.display_name))
                return
            self._challengers[challenge.id] = interaction
            await replies.deliver(
                f"challenge {challenge.id}: answer",
                lambda: replies.send(
                    interaction,
                    content=f"Challenge sent to {opponent.display_name}. "
                    "If they accept, your hand appears here.",
                    ephemeral=True,
                ),
            )
        title = VARIANTS[variant].title
        goal = VARIANTS[variant].options(**options).target
        channel = self.bot.get_partial_messageable(interaction.channel_id)

        # Every try sends one nonce: Discord answers a repeat of a post it made but whose
        # answer was lost with that message, so the challenge has one message.
        nonce = replies.nonce("challenge", challenge.id, challenge.created_at)

        text = (
            f"{opponent.mention}, {user.mention} challenges you to **{title}** (to {goal}). "
            f"This challenge expires <t:{int(challenge.expires_at)}:R>."
        )

        async def post() -> None:
            if guild_id == NO_GUILD:
                # In a DM or group DM the bot posts nothing: a public follow-up of the
                # command, which mentions the opponent as a post would.
                message = await interaction.followup.send(
                    text, view=challenge_view(challenge.id), wait=True
                )
            else:
                message = await channel.send(text, view=challenge_view(challenge.id), nonce=nonce)
            await self.bot.store.set_challenge_message(challenge.id, message.id)

        if not await replies.deliver(f"challenge {challenge.id}: post", post):
            # Nobody can accept a challenge that is not in the channel.
            await self.bot.store.resolve_challenge(challenge.id, ChallengeStatus.CANCELLED)
            self._challengers.pop(challenge.id, None)
            await _tell_not_posted(interaction, f"challenge {challenge.id}", "the challenge is off")

    async def answer_challenge(
        self, interaction: discord.Interaction, challenge_id: int, accept: bool
    ) -> None:
        """Accept or Decline: only the challenged member; once; before it expires.

        Accepting re-checks, in the transaction that creates the game, that the two
        members have no active game together: of two challenges accepted at once,
        one starts a game and the other is answered why not.
        """
        async with replies.deadline(interaction):
            try:
                challenge = await self.bot.store.load_challenge(challenge_id)
            except ChallengeNotFound:
                await replies.deny(interaction, "This challenge no longer exists.")
                return
            if interaction.user.id != challenge.opponent_id:
                who = (
                    "your own challenge"
                    if interaction.user.id == challenge.challenger_id
                    else "a challenge made to someone else"
                )
                await replies.deny(interaction, f"You can't answer {who}.")
                return
            closed = "This challenge has expired or was already answered."
            if challenge.status is not ChallengeStatus.OPEN:
                await replies.deny(interaction, closed)
                return
            self_name = interaction.user.display_name
            if not accept:
                if not await self.bot.store.resolve_challenge(
                    challenge_id, ChallengeStatus.DECLINED
                ):
                    await replies.deny(interaction, closed)
                    return
                self._challengers.pop(challenge_id, None)
                await replies.deliver(
                    f"challenge {challenge_id}: decline",
                    lambda: replies.edit_clicked(
                        interaction,
                        content=f"{self_name} declined the challenge from "
                        f"<@{challenge.challenger_id}>.",
                        view=None,
                    ),
                )
                return
            challenger = self._challengers.get(challenge_id)
            challenger_name = challenger.user.display_name if challenger else None
            seats = [
                SeatRow.human(0, challenge.challenger_id, challenger_name),
                SeatRow.human(1, interaction.user.id, self_name),
            ]
            try:
                session = await self.sessions.start(
                    challenge.guild_id,
                    challenge.channel_id,
                    challenge.variant,
                    challenge.options,
                    seats,
                    accepting=challenge_id,
                )
            except ChallengeClosed:
                await replies.deny(interaction, closed)
                return
            except AlreadyPlaying as err:
                name = challenger_name or f"<@{challenge.challenger_id}>"
                await replies.deny(
                    interaction,
                    _already_playing(name, err.game_id)
                    + " This challenge stays open until it expires.",
                )
                return
            self._challengers.pop(challenge_id, None)
            accepted = await replies.deliver(
                f"game {session.id}: accept",
                lambda: replies.edit_clicked(
                    interaction,
                    content=f"{self_name} accepted the challenge from "
                    f"<@{challenge.challenger_id}>: game #{session.id} is on.",
                    view=None,
                ),
            )
        greetings = [(interaction, 1, f"Game #{session.id} is on.")]
        if challenger is not None:
            # The challenge's own interaction still lives (challenges expire first), so the
            # challenger's hand arrives as a follow-up under "Challenge sent".
            greetings.append((challenger, 0, f"Game #{session.id} is on."))
        # The challenge, now saying the game is on, starts the game's thread: one post
        # fewer at a game's start, where a crowd's starts share the bot's request budget.
        starter = challenge.message_id if accepted else None
        await self.sessions.open(session, greetings, starter=starter)

    # --- lobbies --------------------------------------------------------------------------

    @app_commands.command(
        name="table", description="Open a table: members join, computers fill the rest."
    )
    @app_commands.describe(variant=VARIANT_HELP, **TABLE_OPTION_HELP)
    async def open_table(
        self,
        interaction: discord.Interaction,
        variant: Variant | None = None,
        level: Level = "normal",
        target: Target | None = None,
        players: Players | None = None,
        pack: Pack | None = None,
        stick_the_dealer: bool | None = None,
        no_alone_after_pass: bool | None = None,
        dealer_must_make: bool | None = None,
        deals: Deals | None = None,
        double_pack: bool | None = None,
    ) -> None:
        """Post a lobby for ``variant``: the host in seat 1, the other seats open."""
        assert interaction.guild_id is not None  # TuqueTree.interaction_check
        variant = await self.variant_or_default(interaction.guild_id, variant)
        options = game_options(
            variant,
            target=target,
            players=players,
            pack=pack,
            stick_the_dealer=stick_the_dealer,
            no_alone_after_pass=no_alone_after_pass,
            dealer_must_make=dealer_must_make,
            hands=deals,
            double_pack=double_pack,
        )
        await self.invite(interaction, variant, options, level, [])

    async def invite(
        self,
        interaction: discord.Interaction,
        variant: str,
        options: dict[str, Any],
        level: str,
        invited: list[tuple[int, discord.abc.User]],
    ) -> None:
        """Open a lobby (``invited`` empty) or an invitation of the ``(seat, member)``
        pairs, and post it in the channel; the command's answer is ephemeral."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        user = interaction.user
        v = VARIANTS[variant].configured(VARIANTS[variant].options(**options))
        async with replies.deadline(interaction):
            lobby = await self.bot.store.create_lobby(
                interaction.guild_id,
                interaction.channel_id,
                (user.id, user.display_name),
                variant,
                options,
                seats=v.players,
                level=level,
                lifetime=LOBBY_LIFETIME,
                invited=[(seat, m.id, m.display_name) for seat, m in invited],
            )
            self._remember(lobby.id, interaction)
            what = "invitation" if invited else "table"
            await replies.deliver(
                f"lobby {lobby.id}: answer",
                lambda: replies.send(
                    interaction,
                    content=f"Your {what} is open below. When the game starts, your hand "
                    "appears here.",
                    ephemeral=True,
                ),
            )
        mentions = " ".join(m.mention for _, m in invited)
        content = f"{mentions}, {user.mention} invites you to play." if invited else None
        await self._post_lobby(interaction, lobby, content, "the table is closed")

    async def _post_lobby(
        self, interaction: discord.Interaction, lobby: LobbyRow, content: str | None, off: str
    ) -> None:
        """Post ``lobby`` in its channel with ``content``. If Discord will not take it,
        close the lobby (nobody can join a lobby that is not in the channel) and tell the
        member who opened it that ``off``."""
        channel = self.bot.get_partial_messageable(lobby.channel_id)

        # Every try sends one nonce: Discord answers a repeat of a post it made but whose
        # answer was lost with that message, so the lobby has one message, one set of
        # live buttons.
        nonce = replies.nonce("lobby", lobby.id, lobby.created_at)

        async def post() -> None:
            kwargs: dict[str, Any] = {"embed": render.lobby_embed(lobby), "nonce": nonce}
            if (view := lobby_view(lobby, activity=self.bot.activities)) is not None:
                kwargs["view"] = view
            message = await channel.send(content, **kwargs)
            await self.bot.store.set_lobby_message(lobby.id, message.id)

        if not await replies.deliver(f"lobby {lobby.id}: post", post):
            await self.bot.store.close_lobby(lobby.id, LobbyStatus.CANCELLED)
            self._members.pop(lobby.id, None)
            await _tell_not_posted(interaction, f"lobby {lobby.id}", off)

    async def _show(self, lobby: LobbyRow, what: str) -> bool:
        """Edit the lobby's message to show ``lobby`` (after a change whose click was not
        answered with the lobby: expiry, a refused start). Returns whether it did."""
        if lobby.message_id is None:
            return False
        message = self.bot.get_partial_messageable(lobby.channel_id).get_partial_message(
            lobby.message_id
        )

        async def edit(latest: LobbyRow) -> None:
            view = lobby_view(latest, activity=self.bot.activities)
            await message.edit(embed=render.lobby_embed(latest), view=view)

        return await replies.deliver(f"lobby {lobby.id}: {what}", self._showing(lobby.id, edit))

    def _showing(
        self, lobby_id: int, edit: Callable[[LobbyRow], Awaitable[object]]
    ) -> Callable[[], Awaitable[None]]:
        """A Discord call that shows lobby ``lobby_id`` as the store has it when the call
        runs: concurrent clicks edit its message one at a time, each with the lobby read
        under the lock, so a slow answer to a Join never paints an open table over the
        game its Start began."""

        async def call() -> None:
            async with self._edit_locks[lobby_id % len(self._edit_locks)]:
                await edit(await self.bot.store.load_lobby(lobby_id))

        return call

    async def on_lobby(
        self, interaction: discord.Interaction, lobby_id: int, what: str, value: str | None
    ) -> None:
        """A click on a lobby's button or select (``buttons.LobbyButton``/``LobbySelect``).

        Every refusal (a closed or full table, a taken seat, a non-host pressing a host's
        button, a member of an invitation it is not for) is an ephemeral explanation
        and changes nothing; a change is shown by editing the lobby's message."""
        user = interaction.user
        store = self.bot.store
        async with replies.deadline(interaction):
            try:
                lobby = await store.load_lobby(lobby_id)
                if what in ("start", "cancel", "computer") and user.id != lobby.host_id:
                    raise SeatUnavailable(f"Only the host, <@{lobby.host_id}>, can do that.")
                match what:
                    case "join":
                        lobby = await store.take_seat(lobby_id, (user.id, user.display_name))
                    case "seat":
                        seat = int(value) if value and value.isdigit() else -1
                        if not 0 <= seat < lobby.seats:
                            raise SeatUnavailable("That is not a seat of this table.")
                        lobby = await store.take_seat(lobby_id, (user.id, user.display_name), seat)
                    case "leave":
                        lobby = await store.leave_seat(lobby_id, user.id)
                    case "computer":
                        if value not in DISCORD_LEVELS:
                            raise SeatUnavailable("That is not a computer level here.")
                        lobby = await store.add_computer(lobby_id, value)
                    case "cancel":
                        lobby = await store.close_lobby(lobby_id, LobbyStatus.CANCELLED)
                    case "decline":
                        if user.id not in lobby.waiting_for:
                            raise SeatUnavailable("This invitation is not for you to decline.")
                        lobby = await store.close_lobby(lobby_id, LobbyStatus.DECLINED)
                    case "accept":
                        if not (lobby.invited and not lobby.waiting_for):
                            lobby = await store.accept_seat(lobby_id, user.id)
                        elif lobby.seat_of(user.id) is None:
                            raise SeatUnavailable("This invitation is not for you.")
                        # Everyone has accepted but the start was refused (two of them
                        # still shared a game then): any invited member's Accept retries.
                        if not lobby.waiting_for:
                            await self._start(interaction, lobby)
                            return
                    case "start":
                        await self._start(interaction, lobby)
                        return
            except LobbyNotFound:
                await replies.deny(interaction, "This table no longer exists.")
                return
            except LobbyClosed as closed:
                await replies.deny(interaction, _closed_text(closed.status))
                return
            except SeatUnavailable as refused:
                await replies.deny(interaction, str(refused))
                return
            if lobby.status is not LobbyStatus.OPEN:
                self._members.pop(lobby_id, None)
            elif what == "leave":
                self._members.get(lobby_id, {}).pop(user.id, None)
            elif what in ("join", "seat", "accept"):
                self._remember(lobby_id, interaction)
            await replies.deliver(
                f"lobby {lobby_id}: {what}", self._showing(lobby_id, partial(_answer, interaction))
            )

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """ "Rematch" on a finished game's message (``buttons.RematchButton``): the same
        seats again. A member alone with computers starts at once; with other members it
        opens an invitation they accept (Rematch from another member accepts it too).

        Outside a server, where no invitation can live (``INVITATIONS_IN_A_SERVER``), a
        game of two members is rematched by a challenge to the other member
        (:meth:`_rematch_challenge`).

        Strangers, games not over, and a second click of the same member are refused
        ephemerally and change nothing."""
        user = interaction.user
        store = self.bot.store
        if interaction.guild_id is None and await self._rematch_challenge(interaction, game_id):
            return
        async with replies.deadline(interaction):
            try:
                lobby, opened = await store.open_rematch(
                    game_id, (user.id, user.display_name), lifetime=LOBBY_LIFETIME
                )
                if not opened:
                    if user.id in lobby.waiting_for:
                        lobby = await store.accept_seat(lobby.id, user.id)
                        self._remember(lobby.id, interaction)
                    elif lobby.seat_of(user.id) is None:
                        raise SeatUnavailable("Only the players of this game can join its rematch.")
                    elif lobby.waiting_for:
                        waiting = ", ".join(f"<@{u}>" for u in lobby.waiting_for)
                        raise SeatUnavailable(
                            f"You're in this rematch already; waiting for {waiting}."
                        )
                # Everyone is in (or an earlier start was refused): start, or retry it.
                if not lobby.waiting_for:
                    await self._start(interaction, lobby, clicked_lobby=False)
                    return
            except LobbyClosed as closed:
                await replies.deny(interaction, _closed_text(closed.status))
                return
            except SeatUnavailable as refused:
                await replies.deny(interaction, str(refused))
                return
            if not opened:
                await self._show(lobby, "rematch accepted")
                waiting = ", ".join(f"<@{u}>" for u in lobby.waiting_for)
                await replies.deliver(
                    f"lobby {lobby.id}: answer",
                    lambda: replies.send(
                        interaction,
                        content=f"You're in. Waiting for {waiting} to accept.",
                        ephemeral=True,
                    ),
                )
                return
            self._remember(lobby.id, interaction)
            await replies.deliver(
                f"lobby {lobby.id}: answer",
                lambda: replies.send(
                    interaction,
                    content=f"Rematch of game #{game_id} asked (invitation #{lobby.id}). "
                    "When everyone accepts, your hand appears here.",
                    ephemeral=True,
                ),
            )
        mentions = " ".join(f"<@{u}>" for u in lobby.waiting_for)
        content = f"{mentions}, {user.mention} asks for a rematch of game #{game_id}."
        await self._post_lobby(interaction, lobby, content, "the rematch is off")

    async def _rematch_challenge(self, interaction: discord.Interaction, game_id: int) -> bool:
        """Rematch a finished game of two members in a DM or group DM: the clicker
        challenges the other member to the same game (Accept/Decline, as
        ``/tuque challenge`` there); a second click, or the other member's while it is
        open, is told of the open challenge. False where the game had one member: its
        rematch starts at once, as in a server.

        A stranger's click, or one on a game not over, is refused and changes nothing."""
        user = interaction.user
        try:
            game = await self.bot.store.load_game(game_id)
        except GameNotFound:
            await replies.deny(interaction, "This game no longer exists.")
            return True
        members = [s.user_id for s in game.seats if s.user_id is not None]
        if len(members) < 2:
            return False
        if user.id not in members:
            await replies.deny(interaction, "Only the players of this game can join its rematch.")
            return True
        if game.status is GameStatus.ACTIVE:
            await replies.deny(interaction, "This game isn't over yet.")
            return True
        other = next(member for member in members if member != user.id)
        opponent = self.bot.get_user(other)
        if opponent is None:
            try:
                opponent = await self.bot.fetch_user(other)
            except discord.HTTPException:
                await replies.deny(interaction, "Discord did not say who played: try again.")
                return True
        await self.start_challenge(interaction, opponent, game.variant, game.options)
        return True

    def _remember(self, lobby_id: int, interaction: discord.Interaction) -> None:
        """Keep ``interaction`` as its member's newest with the lobby (``_members``)."""
        self._members.setdefault(lobby_id, {})[interaction.user.id] = interaction

    async def _create_game(self, lobby: LobbyRow) -> Session:
        """Store and run the lobby's game with the seats the store finds in the
        transaction that creates it (a lobby read earlier is read again when another
        member changed it meanwhile). Raises ``LobbyClosed``, ``AlreadyPlaying`` and
        ``SeatUnavailable`` (an invited member has not accepted: a forged Start)."""
        v = VARIANTS[lobby.variant].configured(VARIANTS[lobby.variant].options(**lobby.options))
        for _ in range(_START_ATTEMPTS):
            names = {s.user_id: s.display_name for s in lobby.taken}
            seats = [
                SeatRow.human(seat, user_id, names.get(user_id), side=v.sides[seat])
                if user_id is not None
                else SeatRow.computer(seat, level, side=v.sides[seat])
                for seat, (_, user_id, level) in sorted(lobby_seating(lobby).items())
            ]
            try:
                return await self.sessions.start(
                    lobby.guild_id, lobby.channel_id, lobby.variant, lobby.options, seats,
                    lobby=lobby.id,
                )  # fmt: skip
            except LobbyChanged:
                # A Join, Leave or seat change committed after the lobby was read: it
                # stands, and the game seats the lobby as it is now.
                lobby = await self.bot.store.load_lobby(lobby.id)
            except LobbyNotReady as waiting:
                who = ", ".join(f"<@{u}>" for u in waiting.waiting_for)
                raise SeatUnavailable(
                    f"Waiting for {who} to accept: the game starts by itself when everyone has."
                ) from None
        raise SeatUnavailable("The table kept changing as you started: press **Start** again.")

    async def _start(
        self, interaction: discord.Interaction, lobby: LobbyRow, *, clicked_lobby: bool = True
    ) -> None:
        """Start the lobby's game: its members and computers where they sit, computers of
        the lobby's level in the empty seats, as the store finds them in the transaction
        that creates the game. ``clicked_lobby``: ``interaction`` is a click on the
        lobby's own message (else a Rematch on a game's). Raises ``LobbyClosed`` and
        ``SeatUnavailable`` (an invited member has not accepted: a forged Start)."""
        try:
            session = await self._create_game(lobby)
        except AlreadyPlaying as err:
            a, b = err.user_ids
            await replies.deny(
                interaction,
                f"<@{a}> and <@{b}> are already playing together (game #{err.game_id}): "
                "they finish or resign it first. The table stays open.",
            )
            await self._show(lobby, "start refused")
            return
        if clicked_lobby:
            shown = await replies.deliver(
                f"lobby {lobby.id}: start", self._showing(lobby.id, partial(_answer, interaction))
            )
        else:
            shown = await self._show(lobby, "start")
        # Each member gets their hand as the start shows it: the clicker as the answer,
        # the others as a follow-up of their newest interaction with the lobby while its
        # token lives; the rest are pinged in the game's thread (docs/bot.md, Lobbies).
        note = f"Game #{session.id} is on."
        tokens = {**self._members.pop(lobby.id, {}), interaction.user.id: interaction}
        greetings: list[tuple[discord.Interaction, int, str]] = []
        pinged: list[int] = []
        for seat in sorted(session.table.seats, key=lambda s: s.member != interaction.user.id):
            if seat.member is None:
                continue
            token = tokens.get(seat.member)
            if token is not None and discord.utils.utcnow() - token.created_at < _TOKEN_AGE:
                greetings.append((token, seat.number, note))
            else:
                pinged.append(seat.number)
        # The lobby's message, now saying the game is on, starts the game's thread.
        starter = lobby.message_id if shown else None
        await self.sessions.open(session, greetings, pinged, starter=starter)
        if lobby.rematch_of is not None:
            self.sessions.background.spawn(
                self.sessions.delivery.retire_rematch_buttons(lobby.rematch_of, session.id),
                f"rematch-{lobby.rematch_of}",
            )


async def setup(bot: TuqueBot) -> None:
    """The extension's entry point (``Bot.load_extension``)."""
    await bot.add_cog(LobbiesCog(bot))


async def _answer(interaction: discord.Interaction, lobby: LobbyRow) -> None:
    """Answer a click on the lobby's message by showing ``lobby`` in it."""
    client = cast("TuqueBot", interaction.client)
    view = lobby_view(lobby, activity=client.activities)
    await replies.edit_clicked(interaction, embed=render.lobby_embed(lobby), view=view)


def _closed_text(status: LobbyStatus) -> str:
    return {
        LobbyStatus.STARTED: "This table's game has started already.",
        LobbyStatus.CANCELLED: "The host cancelled this table.",
        LobbyStatus.DECLINED: "This invitation was declined.",
    }.get(status, "This table has expired.")


async def _tell_not_posted(interaction: discord.Interaction, what: str, outcome: str) -> None:
    """Tell the member who asked that Discord would not take the post, so ``outcome``."""
    await replies.deliver(
        f"{what}: cancellation",
        lambda: replies.send(
            interaction,
            content=f"Discord would not take the post, so {outcome}. Please try again in a moment.",
            ephemeral=True,
        ),
    )
