"""Card faces as application emojis: uploaded once at start-up, found again after a
restart, and text wherever a face is missing."""

from __future__ import annotations

import logging
import random
import re

import pytest
from e2e import (
    Table,
    challenge_and_accept,
    newest_hand,
    play_turn,
    running_bot,
    table_message,
)

from bot.emojis import BACK_TEXT, TEXT_FACES, CardFaces
from bot.faces import BACK_NAME, EMOJI_NAMES, face_png, face_pngs
from engine.cards import CARDS, Card
from engine.view import Phase
from tests.discord_double.models import walk_components

UPLOAD = "POST /applications/{application_id}/emojis"


def _shown(faces: CardFaces) -> list[str]:
    return [faces.show(card) for card in CARDS] + [faces.back()]


def _face_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.emojis" and r.levelno == logging.WARNING
    ]


def test_text_faces_show_every_card_as_text() -> None:
    """Without emojis a card is its text and a face-down card ``▮``; nothing is an emoji."""
    assert [TEXT_FACES.show(c) for c in CARDS] == [c.pretty() for c in CARDS]
    assert TEXT_FACES.back() == BACK_TEXT
    assert all(TEXT_FACES.emoji(c) is None for c in CARDS)
    assert TEXT_FACES.missing == list(EMOJI_NAMES)


def test_faces_show_emoji_markdown_and_text_for_the_missing() -> None:
    """A face with an emoji is its markdown (both copies of a card alike); others stay text."""
    faces = CardFaces({"tq_10h": 11, "tq_joker3": 12, BACK_NAME: 13})
    assert faces.show(Card.parse("TH")) == "<:tq_10h:11>"
    assert faces.show(Card.parse("B3")) == "<:tq_joker3:12>"
    assert faces.back() == "<:tq_back:13>"
    assert faces.show(Card.parse("AS")) == "A♠"
    emoji = faces.emoji(Card.parse("TH"))
    assert emoji is not None and (emoji.name, emoji.id) == ("tq_10h", 11)
    assert "tq_10h" not in faces.missing and "tq_as" in faces.missing
    assert CardFaces({"tq_10h": 11, "tq_joker3": 12, BACK_NAME: 13}) == faces


def test_a_second_copy_shows_its_first_copys_face() -> None:
    faces = CardFaces({"tq_ah": 7})
    assert faces.show(Card.parse("AH'")) == faces.show(Card.parse("AH")) == "<:tq_ah:7>"


async def test_start_up_uploads_the_faces_and_a_restart_uploads_none(table: Table) -> None:
    """The first start uploads every face and the back; the next finds them by name."""
    double = table.double
    async with running_bot(table) as bot:
        first = bot.faces
        shown = _shown(bot.faces)
    assert sorted(double.emoji_uploads) == sorted(EMOJI_NAMES)
    assert first.missing == []
    for name, image in face_pngs().items():
        emoji = double.application_emoji(name)
        assert emoji is not None and emoji.image == image
    six = double.application_emoji("tq_6c")
    assert six is not None and shown[0] == six.markdown
    async with running_bot(table) as bot:
        assert bot.faces == first and _shown(bot.faces) == shown
    assert len(double.emoji_uploads) == len(EMOJI_NAMES)
    assert double.rest_calls[UPLOAD] == len(EMOJI_NAMES)


async def test_only_the_missing_faces_are_uploaded(table: Table) -> None:
    """Emojis already there are reused, an unrelated one is left alone, a deleted face
    is uploaded again."""
    double = table.double
    for name in EMOJI_NAMES[:-2]:
        double.add_application_emoji(name, face_png(CARDS[0]))
    double.add_application_emoji("party", face_png(CARDS[0]))
    async with running_bot(table) as bot:
        assert bot.faces.missing == []
    assert double.emoji_uploads == list(EMOJI_NAMES[-2:])
    double.remove_application_emoji("tq_ah")
    async with running_bot(table) as bot:
        assert bot.faces.missing == []
        assert "party" not in bot.faces.ids
    assert double.emoji_uploads[-1] == "tq_ah"


async def test_a_failed_upload_leaves_its_card_as_text_and_the_others_go_on(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A refused upload: one warning naming it, its card shows as text, every other face
    is uploaded, the bot runs; the next start uploads the one left."""
    double = table.double
    double.fail(UPLOAD, 503, match=lambda path, body: body["name"] == "tq_9d")
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        async with running_bot(table) as bot:
            faces = bot.faces
            assert bot.is_ready()
    (warning,) = _face_warnings(caplog)
    assert "1 of 40 show as text (tq_9d)" in warning and "503" in warning
    assert double.emoji_uploads == [name for name in EMOJI_NAMES if name != "tq_9d"]
    assert faces.missing == ["tq_9d"]
    assert faces.show(Card.parse("9D")) == "9♦" and faces.back().startswith("<:tq_back:")
    assert faces.show(Card.parse("6C")).startswith("<:tq_6c:")
    async with running_bot(table) as bot:
        assert bot.faces.missing == []
    assert double.emoji_uploads[-1] == "tq_9d"


async def test_a_failed_first_upload_is_retried_without_a_restart(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 503 on the very first upload (twice): the other 39 go on, the card shows as text
    meanwhile, and later rounds, with a growing pause, upload it while the bot runs."""
    double = table.double
    monkeypatch.setattr("bot.emojis.RETRY_FIRST", 0.3)
    first = EMOJI_NAMES[0]
    fault = double.fail(UPLOAD, 503, times=2, match=lambda path, body: body["name"] == first)
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        async with running_bot(table) as bot:
            assert bot.faces.missing == [first]
            assert bot.faces.show(Card.parse("6C")) == "6♣"
            await double.wait_until(lambda: not bot.faces.missing, timeout=5)
            assert bot.faces.show(Card.parse("6C")).startswith(f"<:{first}:")
    assert fault.hits == 2
    assert sorted(double.emoji_uploads) == sorted(EMOJI_NAMES)
    pauses = [re.search(r"again in (\d+) s", w)[1] for w in _face_warnings(caplog)]  # type: ignore[index]
    assert pauses == ["0", "1"]


async def test_an_upload_whose_answer_was_lost_is_found_not_uploaded_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord creates the emoji and the answer is lost: the next round lists it, so the
    face is not uploaded twice (Discord would refuse the name as taken)."""
    double = table.double
    monkeypatch.setattr("bot.emojis.RETRY_FIRST", 0.05)
    double.fail(UPLOAD, 503, performed=True, match=lambda path, body: body["name"] == "tq_ah")
    async with running_bot(table) as bot:
        await double.wait_until(lambda: not bot.faces.missing, timeout=5)
        emoji = double.application_emoji("tq_ah")
        assert emoji is not None and bot.faces.ids["tq_ah"] == emoji.id
    assert sorted(double.emoji_uploads) == sorted(EMOJI_NAMES)


async def test_an_emoji_list_that_failed_is_tried_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list fails once: nothing is uploaded blind, and the next round does it all."""
    double = table.double
    monkeypatch.setattr("bot.emojis.RETRY_FIRST", 0.05)
    double.fail("GET /applications/{application_id}/emojis", 503)
    async with running_bot(table) as bot:
        await double.wait_until(lambda: not bot.faces.missing, timeout=5)
    assert sorted(double.emoji_uploads) == sorted(EMOJI_NAMES)


async def test_the_emoji_limit_leaves_text(table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """At Discord's limit of application emojis the rest of the faces stay text."""
    double = table.double
    double.application_emoji_limit = 3
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        async with running_bot(table) as bot:
            faces = bot.faces
    assert len(_face_warnings(caplog)) == 1
    assert double.emoji_uploads == list(EMOJI_NAMES[:3])
    assert sorted(faces.ids) == sorted(EMOJI_NAMES[:3])
    assert _shown(faces)[3:] == _shown(TEXT_FACES)[3:]


async def test_an_unlisted_emoji_list_leaves_text(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """When the emojis cannot be listed nothing is uploaded (it could duplicate a name)."""
    double = table.double
    double.fail("GET /applications/{application_id}/emojis", 503)
    with caplog.at_level(logging.WARNING, logger="bot.emojis"):
        async with running_bot(table) as bot:
            assert bot.faces == TEXT_FACES
    assert len(_face_warnings(caplog)) == 1 and double.emoji_uploads == []


def test_the_double_pack_faces_are_among_the_uploads() -> None:
    """Every card's face name is one the start-up uploads (the second copies' included)."""
    faces = CardFaces({name: i for i, name in enumerate(EMOJI_NAMES, 1)})
    assert all(faces.emoji(card) is not None for card in CARDS)


async def test_the_table_the_hand_and_the_buttons_show_the_faces(table: Table) -> None:
    """RULES.md §1 Tuque: the table's picture, described for screen readers with the
    face-up tableau cards; the hand's card buttons carry their card's face beside a
    label that keeps the text."""
    t = table
    async with running_bot(t) as bot:
        game_id = await challenge_and_accept(t, target=5)
        session = bot.sessions.session(game_id)
        assert session is not None
        rng = random.Random(4)
        while session.game.phase is not Phase.PLAY:
            await play_turn(t, bot, game_id, rng)
        await t.double.idle()
        faces = bot.faces
        seat = session.game.turn
        assert seat is not None
        user = t.ann if session.table.seats[seat].member == t.ann.id else t.bob
        show = next(b for b in table_message(t).buttons if b.label == "Show my hand")
        await (await t.double.click(user, table_message(t), show.custom_id or "")).settled()
        hand = newest_hand(t, user)
        view = session.game.view(seat)
    # The table is a picture of the faces; its description names the face-up cards.
    shown = table_message(t)
    assert [a["filename"] for a in shown.attachments] == ["table.jpg"]
    (gallery,) = [c for c in walk_components(shown.components) if c.get("type") == 12]
    description = gallery["items"][0]["description"]
    for card in view.face_up(0) + view.face_up(1):
        assert card.pretty() in description
    assert hand is not None
    cards = [b for b in hand.buttons if b.custom_id and b.custom_id.startswith("tuque:act:")]
    assert cards and all(b.emoji and b.emoji.startswith("<:tq_") for b in cards)
    for button in cards:
        # "Play 10♥" ("Play 10♥ (tableau)", or "(tableau, trump)", from the tableau), or
        # "Discard 10♥".
        label = re.sub(r" \(tableau(, trump)?\)$", "", button.label or "").split(" ", 1)[1]
        card = next(c for c in CARDS if c.pretty() == label)
        assert button.emoji == faces.show(card)
