"""End to end: ``/tuque replay`` of a finished game is also a game to watch, step by step
(deal, bidding, each trick, result), the table drawn with every card face up and paged
with buttons, through the real discord.py client and the Discord double (every request
checked against Discord's specification)."""

from __future__ import annotations

import io
import random
from typing import Any

from e2e import Table, db_snapshot, running_bot
from finish import finish_game
from PIL import Image

from bot import render
from bot.buttons import ReplayButton
from bot.client import TuqueBot
from bot.drawing import HEIGHT, WIDTH
from bot.store import GameStatus, SeatRow
from engine.game import Game
from engine.replay import FrameKind, hand_starts, replay_frames
from engine.view import Phase
from tests.discord_double import StoredMessage

PICTURE = "replay.jpg"


def _played(seed: int) -> Game:
    """A Euchre game to 5 played to its end by seeded random choices."""
    rng = random.Random(seed)
    game = Game("euchre", seed=seed, first_dealer=0, target=5)
    while game.phase is not Phase.GAME_OVER:
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    return game


async def _stored(
    t: Table, bot: TuqueBot, game: Game, *, finished: bool = True, guild: int | None = None
) -> int:
    """``game`` stored as a game of Ann, Bob and two computers (finished, or still active)."""
    seats = [
        SeatRow.human(0, t.ann.id, "ann"),
        SeatRow.computer(1, "easy"),
        SeatRow.human(2, t.bob.id, "bob"),
        SeatRow.computer(3, "easy"),
    ]
    record = game.to_record()
    game_id = await bot.store.create_game(
        guild or t.guild.id,
        t.channel.id,
        "euchre",
        record["options"],
        game.seed,
        game.first_dealer,
        seats,
        record["actions"],
    )
    if finished:
        assert game.winner is not None
        scores = {s: game.scores[game.variant.sides[s]] for s in range(4)}
        await finish_game(bot.store, game_id, GameStatus.FINISHED, game.winner, scores)
    return game_id


async def _watch(t: Table, game_id: int) -> StoredMessage:
    """Eve runs ``/tuque replay``; the message to watch (after the one with the files)."""
    rec = await t.double.slash(t.eve, t.channel, "tuque", "replay", game=game_id)
    await rec.settled()
    assert rec.original is not None and not rec.original.ephemeral
    assert {a["filename"] for a in rec.original.attachments} == {
        f"game-{game_id}.json",
        f"game-{game_id}.txt",
    }
    # The picture is drawn after the files are sent: the double may look idle meanwhile.
    await t.double.wait_until(lambda: rec.followups, timeout=10)
    await t.double.idle()
    assert len(rec.followups) == 1
    return rec.followups[0]


def _buttons(message: StoredMessage) -> dict[str, Any]:
    """The replay's buttons by way (``prev``, ``next``, ...): custom_id and disabled."""
    found = {}
    for button in message.buttons:
        assert button.custom_id is not None
        match = ReplayButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)
        assert match is not None, button.custom_id
        found[match["way"]] = button
    return found


def _picture(t: Table, message: StoredMessage) -> bytes:
    """The message's one attachment, the picture its gallery shows; checked as a JPEG."""
    assert [a["filename"] for a in message.attachments] == [PICTURE]
    gallery = next(c for c in _walk(message.components) if c.get("type") == 12)
    (item,) = gallery["items"]
    assert item["media"]["url"] == f"attachment://{PICTURE}"
    assert item["description"]
    png = t.double.attachment_bytes(message.attachments[0])
    with Image.open(io.BytesIO(png)) as image:
        # Taller than a live table's: the panel of hands under it.
        assert image.format == "JPEG" and image.width == WIDTH and image.height > HEIGHT
    return png


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in components:
        out.append(c)
        out += _walk(c.get("components", []))
    return out


async def _click(t: Table, message: StoredMessage, custom_id: str) -> StoredMessage:
    """Eve clicks ``custom_id`` on ``message``: her own (ephemeral) replay moves; a
    click on the public one answers with a new replay of her own."""
    before = len(t.double.ephemerals_for(t.eve))
    rec = await t.double.click(t.eve, message, custom_id)
    await rec.settled()
    assert rec.acknowledged
    if message.ephemeral:
        assert rec.followups == []
        return t.double.message(message.id)
    await t.double.wait_until(lambda: len(t.double.ephemerals_for(t.eve)) > before, timeout=10)
    return t.double.latest_ephemeral(t.eve)


async def test_a_finished_game_is_watched_step_by_step_from_its_deal(table: Table) -> None:
    """The replay's message shows the first deal: the picture (described for screen
    readers), its caption, step 1 of all, and only the buttons that move forward."""
    t = table
    game = _played(3)
    frames = replay_frames(game.to_record())
    async with running_bot(t) as bot:
        game_id = await _stored(t, bot, game)
        watch = await _watch(t, game_id)
    _picture(t, watch)
    assert "Hand 1 · ann deals and turns up" in watch.text
    assert f"Step 1 of {len(frames)}" in watch.text
    buttons = _buttons(watch)
    assert [w for w, b in buttons.items() if b.disabled] == ["prevhand", "prev"]
    assert buttons["next"].custom_id == f"tuque:replay:{game_id}:1:next"
    assert (
        buttons["nexthand"].custom_id == f"tuque:replay:{game_id}:{hand_starts(frames)[1]}:nexthand"
    )


async def test_next_and_back_page_the_same_message(table: Table) -> None:
    """▶ on the public replay gives the clicker a replay of their own at the next step;
    there ▶ shows the next step in the same message (a new picture replaces the old
    one), ◀ goes back, ⏭ jumps to the next deal and ⏮ to the start of the hand. The
    public replay stays where it was, for everyone else."""
    t = table
    game = _played(3)
    frames = replay_frames(game.to_record())
    second_hand = hand_starts(frames)[1]
    async with running_bot(t) as bot:
        game_id = await _stored(t, bot, game)
        watch = await _watch(t, game_id)
        first = _picture(t, watch)
        shown = await _click(t, watch, _buttons(watch)["next"].custom_id)
        own = shown.id
        assert shown.ephemeral and shown.ephemeral_for is t.eve
        assert frames[1].kind is FrameKind.BIDDING
        assert "Hand 1 · trump" in shown.text and f"Step 2 of {len(frames)}" in shown.text
        assert _picture(t, shown) != first
        shown = await _click(t, shown, _buttons(shown)["next"].custom_id)
        assert "Hand 1 · trick 1 of 5 ·" in shown.text and "wins it" in shown.text
        shown = await _click(t, shown, _buttons(shown)["prev"].custom_id)
        assert f"Step 2 of {len(frames)}" in shown.text
        shown = await _click(t, shown, _buttons(shown)["nexthand"].custom_id)
        assert f"Step {second_hand + 1} of" in shown.text and "Hand 2 · CPU 2 deals" in shown.text
        shown = await _click(t, shown, _buttons(shown)["next"].custom_id)
        shown = await _click(t, shown, _buttons(shown)["prevhand"].custom_id)
        assert f"Step {second_hand + 1} of" in shown.text
        assert not _buttons(shown)["prevhand"].disabled  # from a deal: the hand before
        assert shown.id == own and shown.edit_count == 5
        public = t.double.message(watch.id)
        assert public.edit_count == 0 and "Step 1 of" in public.text
        assert len(t.double.channel_messages(t.channel)) == 2


async def test_the_last_step_is_the_final_score_and_the_forward_buttons_stop(
    table: Table,
) -> None:
    """At the last step the caption gives the last hand's result and who won; ▶ and ⏭
    are disabled, ◀ and ⏮ are not."""
    t = table
    game = _played(3)
    last = len(replay_frames(game.to_record())) - 1
    async with running_bot(t) as bot:
        game_id = await _stored(t, bot, game)
        watch = await _watch(t, game_id)
        # The ⏭ of the last hand's deal leads to the last step.
        while (target := _buttons(watch)["nexthand"]).custom_id != (
            f"tuque:replay:{game_id}:{last}:nexthand"
        ):
            watch = await _click(t, watch, target.custom_id)
        watch = await _click(t, watch, target.custom_id)
    _picture(t, watch)
    computers = "CPU 2 & CPU 4"
    winners = "ann & bob" if game.winner == 0 else computers
    assert f"Step {last + 1} of {last + 1}" in watch.text
    assert f"Score: ann & bob: {game.scores[0]} · {computers}: {game.scores[1]}." in watch.text
    assert f"Game over: {winners} won the game." in watch.text
    assert [w for w, b in _buttons(watch).items() if b.disabled] == ["next", "nexthand"]


async def test_a_forged_step_or_game_is_refused_and_changes_nothing(table: Table) -> None:
    """A step past the end, a game that does not exist, another server's game and a game
    still being played are each explained to the clicker alone; the message stays."""
    t = table
    game = _played(3)
    steps = len(replay_frames(game.to_record()))
    async with running_bot(t) as bot:
        game_id = await _stored(t, bot, game)
        running = await _stored(t, bot, _played(4), finished=False)
        elsewhere = await _stored(t, bot, _played(5), guild=t.guild.id + 1)
        watch = await _watch(t, game_id)
        before = (watch.snapshot(), list(watch.attachments), db_snapshot(t))
        for custom_id, said in (
            (f"tuque:replay:{game_id}:{steps}:next", "no such step"),
            (f"tuque:replay:{game_id}:{2**62}:next", "no such step"),
            (f"tuque:replay:{game_id + 100}:1:next", f"no game #{game_id + 100}"),
            (f"tuque:replay:{elsewhere}:1:next", f"no game #{elsewhere}"),
            (f"tuque:replay:{running}:1:next", "still being played"),
            ("tuque:replay:0:1:next", "isn't one this bot made"),
        ):
            rec = await t.double.forge_click(t.eve, watch, custom_id)
            await rec.settled()
            reply = rec.original
            assert reply is not None and reply.ephemeral and said in reply.text, custom_id
            assert not reply.attachments
            now = t.double.message(watch.id)
            assert (now.snapshot(), now.attachments, db_snapshot(t)) == before


async def test_a_game_still_being_played_has_no_replay(table: Table) -> None:
    """``/tuque replay`` of a running game is refused as before: nothing is posted and
    no card is named."""
    t = table
    game = _played(4)
    async with running_bot(t) as bot:
        running = await _stored(t, bot, game, finished=False)
        rec = await t.double.slash(t.eve, t.channel, "tuque", "replay", game=running)
        await rec.settled()
    assert rec.original is not None and rec.original.ephemeral
    assert "still being played" in rec.original.text
    assert rec.followups == [] and not rec.original.attachments
    assert t.double.channel_messages(t.channel) == []


def test_each_kind_of_step_has_its_caption() -> None:
    """The caption under the picture says the hand and what the step shows: the deal and
    its up-card, trump and its maker, a trick and its winner, the result and the game's
    winner, or where a record stops; the picture's own label is plain words."""
    seating = render.Seating(("ann", "C2", "bob", "C4"), (1, None, 2, None))
    game = _played(3)
    record = game.to_record()
    frames = replay_frames(record)
    first = {}
    for frame in frames:
        first.setdefault(frame.kind, frame)
    captions = {kind: render.replay_caption(f, seating) for kind, f in first.items()}
    up = frames[0].view.up_card
    assert up is not None
    assert captions[FrameKind.DEAL] == f"Hand 1 · ann deals and turns up {up.pretty()}"
    maker = seating.who(first[FrameKind.BIDDING].view.maker)
    assert captions[FrameKind.BIDDING].startswith("Hand 1 · trump ")
    assert f"made by {maker}" in captions[FrameKind.BIDDING]
    winner = seating.who(first[FrameKind.TRICK].view.trick.winner)
    assert captions[FrameKind.TRICK] == f"Hand 1 · trick 1 of 5 · {winner} wins it"
    assert captions[FrameKind.RESULT].startswith("Hand 1 · ")
    assert "Score: ann & bob" in captions[FrameKind.RESULT]
    assert "Game over" not in captions[FrameKind.RESULT]
    assert "Game over" in render.replay_caption(frames[-1], seating)
    stopped = replay_frames({**record, "actions": record["actions"][:12]})[-1]
    assert render.replay_caption(stopped, seating) == (
        "Hand 1 · the game ended here, in the middle of the hand."
    )
    assert [render.replay_label(first[k]) for k in (FrameKind.DEAL, FrameKind.TRICK)] == [
        "Hand 1 · the deal",
        "Hand 1 · trick 1",
    ]


def test_a_replays_tricks_read_like_the_score() -> None:
    """Issue 33: a replay's result gives each seat's tricks as the score is written,
    ``CPU 2: 3``, never ``CPU 2 3``."""
    seating = render.Seating(("Ann", "CPU 2", "Bob", "CPU 4"), (1, None, 2, None))
    frame = next(f for f in replay_frames(_played(3).to_record()) if f.kind is FrameKind.RESULT)
    assert frame.view.last_hand is not None
    tricks = frame.view.last_hand.tricks
    said = " · ".join(f"{name}: {n}" for name, n in zip(seating.names, tricks, strict=True))
    assert f"Tricks: {said}." in render.replay_caption(frame, seating)
