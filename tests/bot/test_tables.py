"""Every variant on Discord: a member and computers at tables of two to six, end to end
through the Discord double with the real discord.py client and a real database file."""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
from typing import Any

import pytest
from e2e import (
    Table,
    assert_nothing_hidden_shown,
    db_snapshot,
    dealt_from,
    game_posts,
    offered,
    running_bot,
    table_message,
    wait_for_forced_move,
)

from bot.client import TuqueBot
from engine.actions import ACTIONS, Bid, Pass
from engine.game import RECORD_FORMAT, RECORD_VERSION, Game


async def member_acts(t: Table, bot: TuqueBot, game_id: int, rng: random.Random) -> None:
    """Ann, at seat 0, picks one of the buttons or select options her hand view offers
    (asking the table for a fresh hand when her newest one has none for this turn); in
    Auction's bidding and call she may first choose another suit in the suit select."""
    session = bot.sessions.session(game_id)
    assert session is not None
    seq = len(session.game.log)
    if session.table.forced(0) is not None:
        await wait_for_forced_move(t, session, seq)
        return
    for message in reversed(t.double.ephemerals_for(t.ann)):
        choices = offered(message, game_id, seq)
        if choices:
            break
    else:
        show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
        await (await t.double.click(t.ann, table_message(t), show)).settled()  # type: ignore[arg-type]
        message = t.double.ephemerals_for(t.ann)[-1]
        choices = offered(message, game_id, seq)
        assert choices, "the fresh hand view offers no action"
    suits = next((s for s in message.selects if s.custom_id.startswith("tuque:suit:")), None)
    if suits is not None and rng.random() < 0.5:
        # Auction's bids and calls come a suit at a time: choose another suit first.
        _, suit = rng.choice(suits.options)
        await (await t.double.select(t.ann, message, suits.custom_id, [suit])).settled()
        message = t.double.message(message.id)
        choices = offered(message, game_id, seq)
    custom_id, value = rng.choice(_modest(choices, rng, session.game.variant.makers == "solo"))
    if value is None:
        rec = await t.double.click(t.ann, message, custom_id)
    else:
        rec = await t.double.select(t.ann, message, custom_id, [value])
    await rec.settled()
    # A click the bot refused would leave the same turn: fail here rather than loop.
    await t.double.wait_until(lambda: session.finished or len(session.game.log) > seq, timeout=20)


def _modest(
    choices: list[tuple[str, str | None]], rng: random.Random, solo: bool
) -> list[tuple[str, str | None]]:
    """The choices Ann picks from: all of them, but in Auction's bidding mostly a pass
    and otherwise the lowest bid, and in the making of a lone maker's trump (three-hand)
    mostly a pass. A member bidding at random (15, with a partner called blind) sets
    herself and her partner so often that nobody reaches the target in hundreds of
    deals; one who orders up or names trump at random alone against two is euchred (−2)
    in most hands, and a three-hand game to 5 ran 84 deals."""
    actions = [ACTIONS[int(v if v is not None else c.rsplit(":", 1)[1])] for c, v in choices]
    passes = [choice for choice, a in zip(choices, actions, strict=True) if isinstance(a, Pass)]
    bids = [(choice, a) for choice, a in zip(choices, actions, strict=True) if isinstance(a, Bid)]
    if bids:
        lowest = min(bids, key=lambda pair: pair[1].level)[0]
        return passes if passes and rng.random() < 0.75 else [lowest]
    if solo and passes and len(choices) > 1 and rng.random() < 0.75:
        return passes
    return choices


async def play_with_computers(t: Table, bot: TuqueBot, rng: random.Random, **options: Any) -> int:
    """``/tuque bot`` with ``options``; Ann plays her seat until the game ends."""
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", **options)
    await rec.settled()
    assert rec.original is not None and rec.original.ephemeral, rec.original
    game_id = int(re.search(r"#(\d+)", rec.original.text).group(1))  # type: ignore[union-attr]
    while (session := bot.sessions.session(game_id)) is not None:
        if session.game.turn == 0:
            await member_acts(t, bot, game_id, rng)
        else:
            await t.double.wait_until(lambda s=session: s.finished or s.game.turn == 0, timeout=20)
            await t.double.idle()
    return game_id


def _results(t: Table, game_id: int) -> list[tuple[int, int | None, str, int]]:
    with sqlite3.connect(t.db) as db:
        return db.execute(
            "SELECT seat, user_id, outcome, vs_computer FROM results WHERE game_id = ? "
            "ORDER BY seat",
            (game_id,),
        ).fetchall()


@pytest.mark.parametrize(
    ("options", "seats"),
    [
        ({"variant": "euchre", "target": 5}, 4),
        ({"variant": "six_hand", "target": 5}, 6),
        ({"variant": "six_hand", "target": 5, "double_pack": True}, 6),
        ({"variant": "three_hand", "target": 5, "level": "easy"}, 3),
        ({"variant": "jackpot", "players": 5, "deals": 3}, 5),
        ({"variant": "auction", "pack": 32, "target": 8}, 5),
    ],
    ids=["euchre", "six_hand", "six_hand_double_pack", "three_hand", "jackpot", "auction"],
)
async def test_a_member_plays_a_whole_game_with_computers(
    table: Table,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    options: dict[str, Any],
    seats: int,
) -> None:
    """RULES.md §3–§7 on Discord: ``/tuque bot variant`` seats the member and computers
    in every other seat; the member plays every decision from her hand view to the end;
    the result is stored for every seat, unrated; no hidden card reaches a public message,
    a custom_id, a log line or her ephemerals."""
    t = table
    caplog.set_level(logging.DEBUG, logger="bot")
    if options["variant"] == "three_hand":
        # Three-hand to 5 takes 19 deals at the median and over 45 in one game of ten
        # (the lone maker is euchred, −2, often): this deal's takes 8, with Ann making
        # trump twice, a euchre and a march.
        dealt_from(monkeypatch, 11)
    async with running_bot(t) as bot:
        game_id = await play_with_computers(t, bot, random.Random(5), **options)
    results = _results(t, game_id)
    assert len(results) == seats
    assert results[0][1] == t.ann.id and all(r[1] is None for r in results[1:])
    assert all(r[3] == 1 for r in results)
    assert any("Game over" in m.text for m in game_posts(t))
    assert_nothing_hidden_shown(t, game_id, caplog.records, {0: t.ann}, expect_discards=False)


async def test_a_secret_partner_is_named_only_when_the_hand_ends(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """RULES.md §7 Call-Ace: before a hand's result is posted, no channel message, custom_id
    or log line names the maker's partner; the result names them."""
    t = table
    caplog.set_level(logging.DEBUG, logger="bot")
    async with running_bot(t) as bot:
        game_id = await play_with_computers(
            t, bot, random.Random(3), variant="call_ace", players=5, target=3
        )
        session_log = [
            (m.text, [str(v.embeds) for v in (*m.history, m.snapshot())]) for m in game_posts(t)
        ]
    with sqlite3.connect(t.db) as db:
        record = db.execute(
            "SELECT variant, options, seed, first_dealer FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        actions = [
            a
            for (a,) in db.execute(
                "SELECT action FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
    game = Game.from_record(
        {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "variant": record[0],
            "options": json.loads(record[1]),
            "seed": record[2],
            "first_dealer": record[3],
            "actions": actions,
        }
    )
    results = {f"Hand {r.hand_no} result": r for r in game.hand_results}
    names = bot_names(game)
    for text, versions in session_log:
        title = next((k for k in results if k in text), None)
        if title is None:
            # Not a hand result: the table and other posts never name a partner.
            assert not any("partnered by" in v for v in versions), text
            continue
        result = results[title]
        if result.partner is not None and result.partner != result.maker:
            assert f"partnered by {names[result.partner]}" in text, text
    for entry in caplog.records:
        # The database's path holds this test's name, which says "partner".
        line = entry.getMessage().replace(str(t.db), "")
        assert "partner" not in line.lower(), line


def bot_names(game: Game) -> list[str]:
    """The names the bot gives the seats of a game Ann plays against computers."""
    return ["ann"] + [f"CPU {s + 1}" for s in range(1, game.variant.players)]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"variant": "euchre", "players": 5}, "has no number of players to choose"),
        ({"variant": "call_ace", "players": 3}, "not a number of players here"),
        ({"variant": "three_hand", "target": 6}, "choose `5`, `7`, `10`"),
        ({"variant": "auction", "pack": 25}, "choose `28`, `32`"),
        (
            {"variant": "jackpot", "deals": 0},
            "not a number of deals here: choose a number from 1 to 40",
        ),
        ({"variant": "tuque", "target": 7}, "not a target here: choose `5`, `10`"),
        ({"variant": "tuque61", "target": 61}, "has no target to choose"),
        (
            {"variant": "euchre", "stick_the_dealer": "yes"},
            "Stick the dealer must be true or false",
        ),
    ],
)
async def test_options_that_do_not_fit_the_variant_are_refused(
    table: Table, options: dict[str, Any], expected: str
) -> None:
    """Each option is checked against the variant's rules: an ephemeral reason, nothing
    written."""
    t = table
    async with running_bot(t):
        before = db_snapshot(t)
        rec = await t.double.forge_slash(t.ann, t.channel, "tuque", "bot", **options)
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert expected in rec.original.text, rec.original.text
        assert db_snapshot(t) == before


@pytest.mark.parametrize(
    ("command", "options", "focused", "offered"),
    [
        ("bot", {"variant": "tuque"}, "target", [10, 5]),
        ("bot", {"variant": "tuque61"}, "target", []),
        ("table", {"variant": "three_hand"}, "target", [10, 5, 7]),
        ("table", {"variant": "british"}, "target", [10, 11, 21]),
        ("bot", {"variant": "euchre"}, "target", [10, 5, 7, 11, 15, 21, 25, 50]),
        ("bot", {"variant": "three_hand"}, "pack", [25, 24]),
        ("bot", {"variant": "auction"}, "pack", [28, 32]),
        ("bot", {"variant": "euchre"}, "pack", []),
        ("bot", {"variant": "call_ace"}, "players", [4, 5, 6]),
        ("bot", {"variant": "tuque"}, "players", []),
        ("bot", {}, "target", [10, 5]),  # the server's default game: Tuque
    ],
)
async def test_a_number_option_offers_only_what_the_variant_takes(
    table: Table, command: str, options: dict[str, Any], focused: str, offered: list[int]
) -> None:
    """Discord shows, as the member types, only the values the chosen game takes."""
    t = table
    async with running_bot(t):
        choices = await t.double.autocomplete(
            t.ann, t.channel, "tuque", command, focused=focused, **options
        )
    assert [c["value"] for c in choices] == offered
    assert all(str(c["value"]) in c["name"] for c in choices)
    t.double.check()


async def test_deals_are_offered_as_typed(table: Table) -> None:
    t = table
    async with running_bot(t):
        choices = await t.double.autocomplete(
            t.ann, t.channel, "tuque", "bot", focused="deals", typed="2", variant="jackpot"
        )
    assert [c["value"] for c in choices] == [2, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]
