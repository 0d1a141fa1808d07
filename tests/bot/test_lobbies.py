"""Tables of two to six with members and computers mixed, end to end through the Discord
double with the real discord.py client and a real database file: lobbies
(``/tuque table``), invitations of several members (``/tuque challenge``), their races
and refusals, and a six-seat game finished after a restart with the old buttons."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sqlite3
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from e2e import (
    Table,
    db_snapshot,
    dealt_from,
    game_posts,
    latest_post,
    offered,
    running_bot,
    started_game,
    table_message,
    wait_for_forced_move,
)

from bot.client import TuqueBot
from bot.sessions import Session
from engine.actions import ACTIONS, Action, GoAlone, NameTrump, OrderUp, Play, TakeUp
from engine.players import make_player
from tests.discord_double import StoredMessage
from tests.discord_double.models import User


async def member_acts(
    t: Table,
    bot: TuqueBot,
    game_id: int,
    user: User,
    rng: random.Random,
    choose: Callable[[list[Action]], Action] | None = None,
) -> None:
    """``user`` clicks, on their newest hand view for this turn (a fresh one from the
    table's "Show my hand" when none offers it), what an easy player would choose from
    what they see (or what ``choose`` picks from the legal actions): random members bid so
    wildly that a three-hand game never ends."""
    session = bot.sessions.session(game_id)
    assert session is not None
    seq = len(session.game.log)
    if session.table.forced(session.table.seat_of(user.id)) is not None:
        await wait_for_forced_move(t, session, seq)
        return
    view = session.game.view(session.table.seat_of(user.id))
    if choose is None:
        choose = partial(make_player("easy", rng.randrange(2**32)).choose, view)
    wanted = str(choose(view.legal_actions).id)
    for message in reversed(t.double.ephemerals_for(user)):
        if choices := offered(message, game_id, seq):
            break
    else:
        table = table_message(t)
        show = next(b.custom_id for b in table.buttons if b.label == "Show my hand")
        await (await t.double.click(user, table, show)).settled()  # type: ignore[arg-type]
        message = t.double.ephemerals_for(user)[-1]
        choices = offered(message, game_id, seq)
        assert choices, "the fresh hand view offers no action"
    custom_id, value = next(
        (c, v) for c, v in choices if (v if v is not None else c.rsplit(":", 1)[1]) == wanted
    )
    if value is None:
        rec = await t.double.click(user, message, custom_id)
    else:
        rec = await t.double.select(user, message, custom_id, [value])
    await rec.settled()
    await t.double.wait_until(lambda: session.finished or len(session.game.log) > seq, timeout=20)


async def play(
    t: Table, bot: TuqueBot, game_id: int, rng: random.Random, turns: int | None = None
) -> None:
    """The members play their seats (computers theirs) until the game ends or ``turns``
    members' turns have been played."""
    while (session := bot.sessions.session(game_id)) is not None and turns != 0:
        seat = session.game.turn
        user_id = session.table.seats[seat].member if seat is not None else None
        if user_id is None:
            await t.double.wait_until(
                lambda s=session: s.finished or s.table.seats[s.game.turn].member is not None,  # type: ignore[index]
                timeout=20,
            )
            await t.double.idle()
            continue
        await member_acts(t, bot, game_id, t.double.users[user_id], rng)
        turns = None if turns is None else turns - 1


def eager(legal: list[Action]) -> Action:
    """Make trump and go alone whenever allowed; else the first legal action."""
    making = (GoAlone, OrderUp, TakeUp, NameTrump)
    return next((a for a in legal if isinstance(a, making)), legal[0])


def lobby_message(t: Table) -> StoredMessage:
    """The newest lobby or invitation message in the channel."""
    for message in reversed(game_posts(t)):
        if any(": open table" in str(e) or ": invitation" in str(e) for e in message.embeds):
            return t.double.message(message.id)
    raise AssertionError("no lobby message")


def component(message: StoredMessage, what: str) -> str:
    """The custom_id of the lobby's ``what`` button or select (``join``, ``seat``, …)."""
    ids = [b.custom_id for b in message.buttons] + [s.custom_id for s in message.selects]
    found = next((c for c in ids if c and c.endswith(f":{what}")), None)
    assert found is not None, f"no {what} on the lobby: {ids}"
    return found


async def click(
    t: Table, user: User, what: str, value: str | None = None, *, forged: bool = False
) -> Any:
    message = lobby_message(t)
    if forged:
        custom_id = component(message, "join").replace(":join", f":{what}")
        rec = await t.double.forge_select(user, message, custom_id, [value or ""])
    elif value is None:
        rec = await t.double.click(user, message, component(message, what))
    else:
        rec = await t.double.select(user, message, component(message, what), [value])
    await rec.settled()
    return rec


def game_of_lobby(t: Table) -> int:
    match = re.search(r"Game #(\d+) is on", str(lobby_message(t).embeds))
    assert match, lobby_message(t).embeds
    return int(match.group(1))


def seats_of(t: Table, game_id: int) -> list[tuple[int, str, int | None, str | None]]:
    with sqlite3.connect(t.db) as db:
        return db.execute(
            "SELECT seat, kind, user_id, level FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()


async def test_a_lobby_seats_partners_and_plays_a_whole_euchre_game(table: Table) -> None:
    """RULES.md §3 at a lobby: Bob picks the seat opposite Ann (her partner), the host adds
    a hard computer and starts; the empty seat gets a computer of the table's level; the
    two members play the whole game and both get a result."""
    t = table
    async with running_bot(t) as bot:
        rec = await t.double.slash(
            t.ann, t.channel, "tuque", "table", variant="euchre", target=5, level="easy"
        )
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        text = str(lobby_message(t).embeds)
        assert "partner of seat 3" in text and "first to 5 points" in text
        await click(t, t.bob, "seat", "2")
        await click(t, t.ann, "computer", "hard")
        assert " · hard level" in str(lobby_message(t).embeds)
        await click(t, t.ann, "start")
        game_id = game_of_lobby(t)
        assert seats_of(t, game_id) == [
            (0, "human", t.ann.id, None),
            (1, "computer", None, "hard"),
            (2, "human", t.bob.id, None),
            (3, "computer", None, "easy"),
        ]
        await play(t, bot, game_id, random.Random(2))
    with sqlite3.connect(t.db) as db:
        outcomes = dict(
            db.execute("SELECT user_id, outcome FROM results WHERE user_id IS NOT NULL")
        )
    assert outcomes[t.ann.id] == outcomes[t.bob.id], "partners share the result"


async def test_three_members_invited_to_three_hand_play_it_to_the_end(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md §5 with members only: each invited member accepts; the game starts when
    the last one does, with no computer; the challenger's hand arrives under her command."""
    t = table
    # Three-hand to 5 takes 16 deals at the median and over 30 in one game of ten (the
    # lone maker is euchred, −2, often): this deal's takes 6, with a march.
    dealt_from(monkeypatch, 16)
    async with running_bot(t) as bot:
        rec = await t.double.slash(
            t.ann, t.channel, "tuque", "challenge", opponent=t.bob, opponent2=t.eve,
            variant="three_hand", target=5,
        )  # fmt: skip
        await rec.settled()
        assert t.bob.mention in lobby_message(t).text and t.eve.mention in lobby_message(t).text
        await click(t, t.bob, "accept")
        assert "Waiting for" in str(lobby_message(t).embeds)
        await click(t, t.eve, "accept")
        game_id = game_of_lobby(t)
        assert [s[1] for s in seats_of(t, game_id)] == ["human"] * 3
        assert any("is on" in m.text for m in t.double.ephemerals_for(t.ann))
        await play(t, bot, game_id, random.Random(3))
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT status FROM games").fetchone() == ("finished",)
        ranks = dict(db.execute("SELECT user_id, rank FROM results WHERE vs_computer = 0"))
        ratings = dict(db.execute("SELECT user_id, mu FROM ratings WHERE variant = 'three_hand'"))
    # A game of three members is rated as a ranking of three (openskill's Plackett-Luce).
    assert sorted(ranks) == sorted(ratings) == sorted([t.ann.id, t.bob.id, t.eve.id])
    winner = min(ranks, key=ranks.__getitem__)
    assert ratings[winner] == max(ratings.values())


async def test_a_six_seat_game_survives_a_restart_and_ends_with_the_old_buttons(
    table: Table,
) -> None:
    """RULES.md §6 with 3 members (two teams of three: Cat is Ann's partner) and 3
    computers; the bot restarts mid-game and the members finish it with the buttons of
    messages posted before the restart."""
    t = table
    cat = t.double.add_user("cat", guild=t.guild)
    rng = random.Random(6)
    async with running_bot(t) as bot:
        rec = await t.double.slash(
            t.ann, t.channel, "tuque", "challenge", opponent=t.bob, partner=cat,
            variant="six_hand", target=5, level="easy",
        )  # fmt: skip
        await rec.settled()
        await click(t, cat, "accept")
        await click(t, t.bob, "accept")
        game_id = game_of_lobby(t)
        seats = seats_of(t, game_id)
        assert [s[2] for s in seats[::2]] == [t.ann.id, cat.id, None]  # team A
        assert seats[1][2] == t.bob.id and seats[3][1] == seats[5][1] == "computer"
        await play(t, bot, game_id, rng, turns=6)
        log_before = len(bot.sessions.session(game_id).game.log)  # type: ignore[union-attr]
    messages_before = {m.id for m in game_posts(t)}
    async with running_bot(t) as bot:
        session = bot.sessions.session(game_id)
        assert session is not None and len(session.game.log) >= log_before
        assert table_message(t).id in messages_before  # the old table's "Show my hand"
        await play(t, bot, game_id, rng)
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT status FROM games").fetchone() == ("finished",)


async def test_two_members_clicking_the_last_seat_at_once_one_gets_it(table: Table) -> None:
    t = table
    cat = t.double.add_user("cat", guild=t.guild)
    async with running_bot(t):
        await (
            await t.double.slash(t.ann, t.channel, "tuque", "table", variant="three_hand")
        ).settled()
        await click(t, t.eve, "join")
        message = lobby_message(t)
        clicks = await asyncio.gather(
            t.double.click(t.bob, message, component(message, "join")),
            t.double.click(cat, message, component(message, "join")),
        )
        for rec in clicks:
            await rec.settled()
        refused = [r for r in clicks if r.original is not None and r.original.ephemeral]
        assert len(refused) == 1 and "full" in refused[0].original.text
        embeds = str(lobby_message(t).embeds)
        assert (t.bob.mention in embeds) != (cat.mention in embeds)


async def refused(
    t: Table, user: User, what: str, value: str | None = None, *, forged: bool = False
) -> str:
    """A lobby click that must get an ephemeral answer and change nothing."""
    before_db, before_lobby = db_snapshot(t), _lobby_rows(t)
    before_embeds = lobby_message(t).embeds
    rec = await click(t, user, what, value, forged=forged)
    assert rec.original is not None and rec.original.ephemeral, rec.original
    assert db_snapshot(t) == before_db and _lobby_rows(t) == before_lobby
    assert lobby_message(t).embeds == before_embeds
    return rec.original.text


def _lobby_rows(t: Table) -> tuple[Any, ...]:
    with sqlite3.connect(t.db) as db:
        return tuple(
            tuple(db.execute(f"SELECT * FROM {name}").fetchall())
            for name in ("lobbies", "lobby_seats")
        )


async def test_bad_lobby_clicks_are_explained_and_change_nothing(table: Table) -> None:
    t = table
    async with running_bot(t) as bot:
        await (
            await t.double.slash(t.ann, t.channel, "tuque", "table", variant="two_hand")
        ).settled()
        assert "Only the host" in await refused(t, t.bob, "start")
        assert "Only the host" in await refused(t, t.bob, "cancel")
        assert "Only the host" in await refused(t, t.bob, "computer", "easy")
        assert "not at this table" in await refused(t, t.bob, "leave")
        assert "host" in await refused(t, t.ann, "leave")
        assert "already at this table" in await refused(t, t.ann, "join")
        assert "not a seat" in await refused(t, t.bob, "seat", "7", forged=True)
        assert "not a computer level" in await refused(t, t.ann, "computer", "godlike", forged=True)
        await click(t, t.bob, "join")
        assert "full" in await refused(t, t.eve, "join")
        assert "taken by" in await refused(t, t.eve, "seat", "1", forged=True)
        join = component(lobby_message(t), "join")  # before the start removes it
        await click(t, t.ann, "start")
        rec = await t.double.forge_click(t.eve, lobby_message(t), join)  # a stale click
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "started" in rec.original.text
        game_id = game_of_lobby(t)
        session = bot.sessions.session(game_id)
        assert session is not None
        # The lobby's message, which now says the game is on, starts the game's thread.
        await t.double.wait_until(lambda: session.discord.table_message_id is not None, 10)
        started = lobby_message(t)
        assert session.discord.thread_id == started.id
        assert f"Game #{game_id} is on" in str(started.embeds)
        assert t.double.message(session.discord.table_message_id).channel.id == started.id
        # A stranger pressing the game's Show my hand gets told, and sees no card.
        show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
        rec = await t.double.click(t.eve, table_message(t), show)  # type: ignore[arg-type]
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "no hand in this game" in rec.original.text


async def test_invitations_refuse_outsiders_and_a_decline_ends_them(table: Table) -> None:
    t = table
    cat = t.double.add_user("cat", guild=t.guild)
    async with running_bot(t):
        rec = await t.double.slash(
            t.ann, t.channel, "tuque", "challenge", opponent=t.bob, partner=cat, variant="euchre"
        )
        await rec.settled()
        assert "not for you" in await refused(t, t.eve, "accept")
        assert "not for you" in await refused(t, t.eve, "decline")
        assert "accepted already" in await refused(t, t.ann, "accept")  # the host
        await click(t, cat, "accept")
        assert "accepted already" in await refused(t, cat, "accept")
        await click(t, t.bob, "decline")
        assert "declined" in str(lobby_message(t).embeds)
        assert not lobby_message(t).buttons
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"opponent": "bob", "partner": "eve", "variant": "three_hand"}, "no fixed partners"),
        ({"opponent": "bob", "opponent2": "bob", "variant": "three_hand"}, "invited once"),
        ({"opponent": "ann", "opponent2": "bob", "variant": "three_hand"}, "yourself"),
        (
            {
                "opponent": "bob",
                "opponent2": "eve",
                "variant": "euchre",
                "partner": "cat",
                "opponent3": "dan",
            },
            "invite fewer",
        ),
    ],
    ids=["partner-without-teams", "twice", "self", "too-many"],
)
async def test_a_challenge_that_cannot_seat_its_members_is_refused(
    table: Table, options: dict[str, str], reason: str
) -> None:
    t = table
    users = {"ann": t.ann, "bob": t.bob, "eve": t.eve}
    users |= {n: t.double.add_user(n, guild=t.guild) for n in ("cat", "dan")}
    given = {k: users.get(v, v) for k, v in options.items()}
    async with running_bot(t):
        before = db_snapshot(t), _lobby_rows(t)
        rec = await t.double.slash(t.ann, t.channel, "tuque", "challenge", **given)
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert reason in rec.original.text
        assert (db_snapshot(t), _lobby_rows(t)) == before


async def test_a_lobby_expires_with_a_clear_message(table: Table) -> None:
    t = table
    async with running_bot(t) as bot:
        await (await t.double.slash(t.ann, t.channel, "tuque", "table", variant="euchre")).settled()
        join = component(lobby_message(t), "join")
        await bot.get_cog("Lobbies").expire(now=time.time() + 901)  # type: ignore[union-attr]
        await t.double.idle()
        assert "Nobody started this table in time" in str(lobby_message(t).embeds)
        assert not lobby_message(t).buttons
        rec = await t.double.forge_click(t.bob, lobby_message(t), join)
        await rec.settled()
        assert rec.original is not None and "expired" in rec.original.text


async def partners_with_computers(t: Table, bot: TuqueBot) -> tuple[int, Session]:
    """A Euchre table: Ann (seat 1) and Bob (seat 3, her partner) and two easy computers."""
    await (
        await t.double.slash(t.ann, t.channel, "tuque", "table", variant="euchre", level="easy")
    ).settled()
    await click(t, t.bob, "seat", "2")
    await click(t, t.ann, "start")
    game_id = game_of_lobby(t)
    session = bot.sessions.session(game_id)
    assert session is not None
    return game_id, session


async def test_an_away_partner_is_played_by_the_computer_and_the_game_goes_on(
    table: Table,
) -> None:
    """docs/rulings.md R9: Bob, Ann's partner, lets his turn time out; the computer plays
    his seat, and after the hand the game goes on for Ann with the computer in his seat
    until "Show my hand" brings him back."""
    t = table
    rng = random.Random(4)
    async with running_bot(t) as bot:
        bot.get_cog("Games").sweeper.cancel()  # type: ignore[union-attr]  # the test sweeps
        game_id, session = await partners_with_computers(t, bot)
        while session.game.turn != 2:
            if session.game.turn == 0:
                await member_acts(t, bot, game_id, t.ann, rng)
            else:
                await t.double.wait_until(lambda: session.game.turn in (0, 2), timeout=20)
        hand_no = session.game.hand_no
        await bot.sessions.tick(300, 600, now=time.time() + 601)
        assert session.table.away == {2}
        while session.game.hand_no == hand_no:
            if session.game.turn == 0:
                await member_acts(t, bot, game_id, t.ann, rng)
            else:
                await t.double.wait_until(
                    lambda: session.game.turn == 0 or session.game.hand_no != hand_no, timeout=20
                )
        assert not session.finished and session.table.away == {2}
        await t.double.idle()
        assert any("keeps their seat" in m.text for m in game_posts(t))
        show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
        await (await t.double.click(t.bob, table_message(t), show)).settled()  # type: ignore[arg-type]
        assert session.table.away == set()
        await t.double.idle()
        assert "is back" in latest_post(t).text


async def test_a_click_from_a_partner_sitting_out_changes_nothing(table: Table) -> None:
    """RULES.md §3 going alone: Ann goes alone, so Bob, her partner, sits out the hand; a
    click from his seat (an action of his at the current turn, as a modified client
    could send) is refused with an ephemeral answer and changes nothing."""
    t = table
    async with running_bot(t) as bot:
        game_id, session = await partners_with_computers(t, bot)
        rng = random.Random(1)
        for _ in range(400):
            if session.game.view(None).alone == 0 and session.game.turn not in (None, 2):
                break
            turn = session.game.turn
            if turn in (0, 2):
                user = t.ann if turn == 0 else t.bob
                await member_acts(t, bot, game_id, user, rng, choose=eager)
            else:
                await t.double.wait_until(
                    lambda: session.game.turn in (0, 2) or session.game.view(None).alone == 0,
                    timeout=20,
                )
        else:
            pytest.fail("Ann never went alone")
        seq = len(session.game.log)
        play = next(a for a in ACTIONS if isinstance(a, Play))
        forged = f"tuque:act:{game_id}:{seq}:{play.id}"
        before_db, before_game = db_snapshot(t), session.game.to_record()
        # On his newest hand message: a click from any other is refused as replaced.
        hand = t.double.ephemerals_for(t.bob)[-1]
        rec = await t.double.forge_click(t.bob, hand, forged)
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral, rec.original
        assert "not your turn" in rec.original.text
        assert db_snapshot(t) == before_db and session.game.to_record() == before_game


async def test_a_secret_partner_reaches_no_other_members_view(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """RULES.md §7 Call-Ace with two members and three computers: the maker's partner is
    named only in the channel's hand results, never in a member's ephemeral, another
    channel post, a custom_id or a log line."""
    t = table
    caplog.set_level(logging.DEBUG, logger="bot")
    async with running_bot(t) as bot:
        rec = await t.double.slash(
            t.ann, t.channel, "tuque", "challenge", opponent=t.bob,
            variant="call_ace", players=5, target=6, level="easy",
        )  # fmt: skip
        await rec.settled()
        await click(t, t.bob, "accept")
        game_id = game_of_lobby(t)
        await play(t, bot, game_id, random.Random(8))
    named = 0
    for message in game_posts(t):
        for version in (*message.history, message.snapshot()):
            shown = str(version.content) + str(version.embeds)
            if "partnered by" in shown:
                assert "result" in shown, shown
                named += 1
            components = str(version.components)
            # The table names the partner of the hand just over (its end stays on the
            # table until the next hand's first action), never the hand's in play.
            if "partnered by" in components:
                assert "won the last trick" in components, components
                named += 1
            else:
                assert "partnered" not in components
    assert named, "no hand named its partner: the check did not run"
    for user in (t.ann, t.bob):
        for message in t.double.ephemerals_for(user):
            for version in (*message.history, message.snapshot()):
                shown = str(version.embeds) + str(version.content) + str(version.components)
                assert "partnered by" not in shown
    for entry in caplog.records:
        line = entry.getMessage().replace(str(t.db), "")
        assert "partner" not in line.lower(), line


async def test_an_invitation_whose_start_was_refused_starts_on_a_later_accept(
    table: Table,
) -> None:
    """Ann and Bob already play each other: the invitation's last Accept is told so and
    the invitation stays open; once that game is resigned, an Accept starts it."""
    t = table
    async with running_bot(t) as bot:
        first, _, _ = await started_game(t, bot)
        rec = await t.double.slash(
            t.ann, t.channel, "tuque", "challenge", opponent=t.bob, opponent2=t.eve,
            variant="three_hand",
        )  # fmt: skip
        await rec.settled()
        await click(t, t.bob, "accept")
        refused = await click(t, t.eve, "accept")
        assert refused.original is not None and refused.original.ephemeral
        assert "already playing together" in refused.original.text
        await t.double.idle()
        assert "Everyone has accepted" in str(lobby_message(t).embeds)
        assert "Game #" not in str(lobby_message(t).embeds)
        await (await t.double.slash(t.bob, t.channel, "tuque", "resign")).settled()
        confirm = t.double.ephemerals_for(t.bob)[-1]
        await (await t.double.click(t.bob, confirm, confirm.buttons[0].custom_id)).settled()  # type: ignore[arg-type]
        assert bot.sessions.session(first) is None
        await click(t, t.eve, "accept")
        game = bot.sessions.session(game_of_lobby(t))
        assert game is not None and len(game.rows) == 3


def _hand_of(rec: Any, game_id: int) -> bool:
    """Whether the interaction ``rec`` brought its member their hand of ``game_id``."""
    return any(f"Game #{game_id} · hand" in m.text for m in [rec.original, *rec.followups] if m)


async def test_every_member_of_a_lobby_gets_their_hand_when_the_game_starts(
    table: Table,
) -> None:
    """Issue 33: Bob joins Ann's three-hand table, Cat picks a seat, Ann starts: each of
    them gets their hand at once, Bob and Cat as a follow-up of their own click, and
    nobody is called to the table's Show my hand."""
    t = table
    cat = t.double.add_user("cat", guild=t.guild)
    async with running_bot(t):
        await (
            await t.double.slash(t.ann, t.channel, "tuque", "table", variant="three_hand")
        ).settled()
        bob_joins = await click(t, t.bob, "join")
        cat_sits = await click(t, cat, "seat", "2")
        start = await click(t, t.ann, "start")
        game_id = game_of_lobby(t)
        await t.double.idle()
        assert all(_hand_of(rec, game_id) for rec in (start, bob_joins, cat_sits))
        assert not any("Press **Show my hand**" in m.text for m in game_posts(t))


async def test_a_member_whose_join_is_too_old_is_called_to_the_game_with_show_my_hand(
    table: Table,
) -> None:
    """Issue 33: Cat's Join is older than its token lives (15 minutes), so Discord
    refuses her hand as its follow-up: she is mentioned in the game's thread with a Show
    my hand button, which brings her hand; Bob's came with his Join, and he is not
    mentioned. (The bot skips a token it knows is 14 minutes old; the double ages only
    its own record of the click, so here the follow-up is tried and refused.)"""
    t = table
    cat = t.double.add_user("cat", guild=t.guild)
    async with running_bot(t):
        await (
            await t.double.slash(t.ann, t.channel, "tuque", "table", variant="three_hand")
        ).settled()
        cat_joins = await click(t, cat, "join")
        bob_joins = await click(t, t.bob, "join")
        cat_joins.dispatched_at -= 15 * 60 + 1
        await click(t, t.ann, "start")
        game_id = game_of_lobby(t)
        await t.double.idle()
        assert _hand_of(bob_joins, game_id) and not _hand_of(cat_joins, game_id)
        [call] = [m for m in game_posts(t) if "Press **Show my hand**" in m.text]
        assert cat.mention in call.text and t.bob.mention not in call.text
        assert call.channel.id != t.channel.id  # in the game's thread
        [show] = [b.custom_id for b in call.buttons if b.label == "Show my hand"]
        rec = await t.double.click(cat, call, show)  # type: ignore[arg-type]
        await rec.settled()
        assert _hand_of(rec, game_id)
    [refused] = t.double.take_problems()
    assert "401 50027 Invalid Webhook Token" in refused and ":join" in refused
