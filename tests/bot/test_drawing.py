"""The table as a picture: every variant and seat count draws, and only public cards show.

The reference pictures in ``tests/bot/fixtures/drawing/`` are redrawn, after a change
meant to alter the pictures, with::

    TUQUE_REDRAW=1 .venv/bin/python -m pytest -n0 tests/bot/test_drawing.py

(then look at them before committing).
"""

from __future__ import annotations

import io
import itertools
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from test_render import tuque_with_trumps_face_up

from bot import drawing
from bot.drawing import DESCRIPTION_LIMIT, HEIGHT, WIDTH, Picture, Revealed, draw_table, reveal
from bot.table import Ending, Result
from engine.actions import CallCard, Pass, Play
from engine.cards import Card, cards_in
from engine.game import Game
from engine.players import make_player
from engine.variants import VARIANTS
from engine.view import Phase, PlayerView
from engine.wording import Wording, points_text

FIXTURES = Path(__file__).parent / "fixtures" / "drawing"
REDRAW = os.environ.get("TUQUE_REDRAW") == "1"
SIZE_LIMIT = 300 * 1024
"""A picture's file stays small: Discord uploads it with every table update."""
NAMES = ("Ann", "Bob", "Cleo", "Dev", "Eve", "Fred")


def _tables() -> list[tuple[str, dict[str, object]]]:
    """Every variant at every seat count it allows (and six-hand's double pack), each
    with a short game so that a seeded random game reaches its end quickly."""
    tables = []
    for name, variant in VARIANTS.items():
        short: dict[str, object] = {}
        if "hands" in variant.adjustable:
            short["hands"] = 2
        elif "target" in variant.adjustable:
            short["target"] = min(variant.choices.get("target", (5,)))
        counts = variant.choices.get("players", (variant.players,))
        for players in counts:
            extra = {"players": players} if len(counts) > 1 else {}
            tables.append((name, short | extra))
        if "double_pack" in variant.adjustable:
            tables.append((name, short | {"double_pack": True}))
    return tables


TABLES = _tables()


def _moments(variant: str, options: dict[str, object], seed: int = 1) -> Iterator[Game]:
    """A seeded game, yielded (the same object) at the first moment of each kind: each
    phase, a trick under way, a trick just won. Its first two hands are played with
    seeded random legal moves; then seeded computer players finish it (at random, a
    game each for themself drifts below zero and never ends)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, **options)
    players = [make_player("normal", seed=seed + s) for s in range(game.variant.players)]
    seen: set[tuple[Phase, bool, bool]] = set()
    for _ in range(5000):
        view = game.view(None)
        kind = (view.phase, bool(view.trick.plays), bool(view.tricks))
        if kind not in seen:
            seen.add(kind)
            yield game
        if view.phase is Phase.GAME_OVER:
            return
        if game.turn is None:
            game.deal()
        elif view.hand_no <= 2:
            game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        else:
            seat = game.turn
            game.apply(seat, players[seat].choose(game.view(seat), game.legal_actions(seat)))
    raise AssertionError(f"a game of {variant} did not end")


def _decoded(picture: Picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.jpeg))
    image.load()
    return image


def _public(view: PlayerView) -> set[Card]:
    """The cards anyone at the table may see now (the hand before's last trick too,
    while the table shows that hand's end)."""
    previous = view.hand_just_over
    shown = () if previous is None or previous.last_trick is None else (previous.last_trick,)
    cards = {card for trick in (*view.tricks, view.trick, *shown) for _, card in trick.plays}
    cards |= {card for seat in range(view.players) for card in view.face_up(seat)}
    cards |= {c for c in (view.up_card, view.called_card) if c is not None}
    cards |= {action.card for _, action in view.bids if isinstance(action, CallCard)}
    return cards


def _hidden(game: Game) -> set[Card]:
    """The cards nobody at the table may see: hands, face-down cards, widow, kitty, discards."""
    zones = game.zones()
    mask = zones["kitty"] | zones["widow"] | zones["discard"]
    for seat in range(game.variant.players):
        mask |= zones[f"hand:{seat}"] | zones[f"tableau-down:{seat}"]
    return set(cards_in(mask)) - {game.up_card}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Card]:
    """Every face-up card the next pictures draw, recorded by a spy on the one function
    that draws a card's face."""
    cards: list[Card] = []
    face = drawing._face

    def spy(card: Card, side: int, dim: bool = False) -> Image.Image:
        cards.append(card)
        return face(card, side, dim)

    monkeypatch.setattr(drawing, "_face", spy)
    return cards


def _texts_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, every text the picture draws (a spy on ``_Canvas.text``, the one
    method that draws text), in order."""
    said: list[str] = []
    text = drawing._Canvas.text

    def spy(
        canvas: drawing._Canvas, at: drawing.Point, words: str, *args: object, **kw: object
    ) -> None:
        said.append(words)
        text(canvas, at, words, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(drawing._Canvas, "text", spy)
    return said


@pytest.mark.parametrize(
    ("variant", "options"), TABLES, ids=[f"{v}-{'-'.join(map(str, o.values()))}" for v, o in TABLES]
)
def test_every_table_draws_at_every_moment(
    variant: str, options: dict[str, object], drawn: list[Card]
) -> None:
    """From the deal to the game's end, each moment draws a JPEG of the picture's size,
    under the size limit, described in at most 1024 characters, with only public cards
    face up."""
    kinds = set()
    for game in _moments(variant, options):
        view = game.view(None)
        kinds.add(view.phase)
        drawn.clear()
        picture = draw_table(view, NAMES[: view.players])
        image = _decoded(picture)
        assert (image.format, image.size) == ("JPEG", (WIDTH, HEIGHT))
        assert (picture.width, picture.height) == (WIDTH, HEIGHT)
        assert len(picture.jpeg) < SIZE_LIMIT
        assert 0 < len(picture.description) <= DESCRIPTION_LIMIT
        assert set(drawn) <= _public(view)
    assert {Phase.PLAY, Phase.GAME_OVER} <= kinds


@pytest.mark.parametrize(
    ("variant", "options"), [("tuque", {}), ("six_hand", {"double_pack": True}), ("auction", {})]
)
def test_only_public_cards_are_drawn_face_up(
    variant: str, options: dict[str, object], drawn: list[Card]
) -> None:
    """All through a hand of seeded random moves, each card drawn face up is one the
    public view shows (up-card, tricks, face-up tableau, a called card); never a card in
    a hand, face down, in the widow or the kitty, or discarded."""
    rng = random.Random(5)
    game = Game(variant, seed=5, **options)
    game.deal()
    step = 0
    while game.turn is not None:
        if step % 3 == 0:
            view = game.view(None)
            drawn.clear()
            draw_table(view, NAMES[: view.players])
            assert set(drawn) <= _public(view)
            assert not set(drawn) & _hidden(game)
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        step += 1
    assert step > 10


def test_a_seats_view_is_refused() -> None:
    """A seat's view holds its hand: drawing it raises, as does a name missing."""
    game = Game("tuque", seed=1)
    game.deal()
    with pytest.raises(ValueError, match="public view"):
        draw_table(game.view(0), ("Ann", "Bob"))
    with pytest.raises(ValueError, match="2 names"):
        draw_table(game.view(None), ("Ann",))


def _tuque_mid_play(seed: int = 7) -> Game:
    return drawing._advanced(
        "tuque",
        seed,
        lambda v: v.phase is Phase.PLAY and len(v.tricks) >= 5 and len(v.trick.plays) == 1,
    )


def test_revealed_cards_are_drawn_face_up(drawn: list[Card]) -> None:
    """A replay's picture shows every hand and every face-down tableau card."""
    game = _tuque_mid_play()
    view = game.view(None)
    revealed = reveal(game)
    draw_table(view, ("Ann", "Bob"), revealed=revealed, caption="Hand 1 · trick 6")
    hidden = {c for hand in revealed.hands for c in hand}
    hidden |= {c for piles in revealed.face_down for c in piles if c is not None}
    assert hidden and hidden <= set(drawn)


def test_reveal_finds_every_hidden_card_of_a_tuque_hand() -> None:
    """The face-down cards revealed are exactly those the game holds face down, each
    under a pile the public view shows face down."""
    game = _tuque_mid_play()
    revealed = reveal(game)
    zones = game.zones()
    for seat, piles in enumerate(game.view(None).tableaus):
        down = revealed.face_down[seat]
        assert set(cards_in(zones[f"tableau-down:{seat}"])) == {c for c in down if c}
        assert [c is not None for c in down] == [p.face_down for p in piles]
        assert set(revealed.hands[seat]) == set(game.hand_of(seat))


def test_revealed_must_fit_the_table() -> None:
    """A reveal with a seat or a pile missing is refused."""
    game = _tuque_mid_play()
    full = reveal(game)
    with pytest.raises(ValueError, match="as many cards"):
        draw_table(game.view(None), ("A", "B"), revealed=Revealed(full.hands[:1], full.face_down))
    short = (full.face_down[0][:2], full.face_down[1])
    with pytest.raises(ValueError, match="every tableau pile"):
        draw_table(game.view(None), ("A", "B"), revealed=Revealed(full.hands, short))


def test_any_name_is_drawn_and_described_in_full() -> None:
    """Long names, accents, emoji and scripts the font lacks draw without error; the
    description keeps each name whole."""
    names = ("Zoë the very long-named champion of Euchre", "🦊", "山田", "Ann")
    game = drawing._advanced("euchre", 2, lambda v: v.phase is Phase.PLAY)
    picture = draw_table(game.view(None), names)
    assert all(name in picture.description for name in names)
    assert drawing._short_names(names) == (
        "Zoe the very long-named champion of Euchre",
        "Seat 2",
        "Seat 3",
        "Ann",
    )


def test_the_description_fits_discords_limit_with_long_names() -> None:
    """Six names of 100 characters: the least needed sentences give way, whose turn stays."""
    names = tuple(f"{letter * 99}{seat}" for seat, letter in enumerate("ABCDEF"))
    game = drawing._advanced(
        "six_hand", 4, lambda v: v.phase is Phase.PLAY and len(v.trick.plays) >= 3
    )
    view = game.view(None)
    description = draw_table(view, names).description
    assert len(description) <= DESCRIPTION_LIMIT
    assert view.turn is not None
    assert description.endswith(f"{names[view.turn][:30]}… to play.")


def test_the_description_says_the_public_table() -> None:
    """Trump and maker, the trick with its leader, the score and whose turn it is."""
    game = _tuque_mid_play()
    view = game.view(None)
    text = draw_table(view, ("Ann", "Bob")).description
    assert view.trump is not None and view.maker is not None
    assert f"Trump {view.trump.noun}, made by {('Ann', 'Bob')[view.maker]}" in text
    leader, card = view.trick.plays[0]
    assert f"Trick: {('Ann', 'Bob')[leader]} led {card.pretty()}." in text
    assert f"Score: Ann: {view.scores[0]} · Bob: {view.scores[1]} (to 10)." in text
    assert text.endswith(f"{('Ann', 'Bob')[view.turn or 0]} to play.")
    assert not [card for card in _hidden(game) if card.pretty() in text]


@pytest.fixture
def badges(monkeypatch: pytest.MonkeyPatch) -> list[drawing.Point]:
    """Where the next pictures pin a trump chip on a face-up tableau card, recorded by
    a spy on the one method that pins it."""
    spots: list[drawing.Point] = []
    badge = drawing._Table._trump_badge

    def spy(table: drawing._Table, at: drawing.Point) -> None:
        spots.append(at)
        badge(table, at)

    monkeypatch.setattr(drawing._Table, "_trump_badge", spy)
    return spots


def test_the_tableaus_trumps_are_marked_once_trump_is_made(badges: list[drawing.Point]) -> None:
    """RULES.md §1: spades trump, the face-up J♣ (Left Bower), 🃏2 and Q♠ are each
    framed in gold with a spade chip, and the description says they are trump."""
    view = tuque_with_trumps_face_up().view(None)
    text = draw_table(view, ("Ann", "Bob")).description
    assert len(badges) == 3
    assert "Ann's tableau: J♣ (trump), 🃏2 (trump), 9♥, K♦, 7♣ face up, 5 face down." in text
    assert "Bob's tableau: A♥, 6♦, Q♠ (trump), 10♣, 8♥ face up, 5 face down." in text


def test_no_tableau_card_is_marked_trump_before_trump_is_made(
    badges: list[drawing.Point],
) -> None:
    """While the 9♠ is bid on, neither the J♣ nor the 🃏2 is marked or called trump."""
    view = tuque_with_trumps_face_up(made=False).view(None)
    text = draw_table(view, ("Ann", "Bob")).description
    assert not badges
    assert "trump" not in text.lower()
    assert "Ann's tableau: J♣, 🃏2, 9♥, K♦, 7♣ face up, 5 face down." in text


def _reference(name: str, picture: Picture) -> None:
    """``picture`` matches the stored ``name``: same size, and on average within two
    levels (of 255) per channel, which leaves room for a Pillow's rounding."""
    path = FIXTURES / f"{name}.png"
    if REDRAW or not path.exists():
        FIXTURES.mkdir(parents=True, exist_ok=True)
        # Stored lossless: the reference is the picture as decoded, pixel for pixel.
        _decoded(picture).convert("RGB").save(path, format="PNG")
        if not REDRAW:
            pytest.fail(f"{path.name} was missing: drawn now, look at it and commit it")
    expected = Image.open(path).convert("RGB")
    actual = _decoded(picture).convert("RGB")
    assert actual.size == expected.size
    difference = ImageStat.Stat(ImageChops.difference(actual, expected)).mean
    assert max(difference) < 2.0, f"{name} differs by {difference} on average"


def _euchre_bidding() -> Picture:
    game = drawing._advanced("euchre", 4, lambda v: v.phase is Phase.BIDDING_1 and len(v.bids) == 2)
    return draw_table(game.view(None), ("Ann", "Bob", "Cleo", "Dev"))


def _tuque_replay() -> Picture:
    game = _tuque_mid_play()
    return draw_table(
        game.view(None), ("Ann", "Computer"), revealed=reveal(game), caption="Hand 1 · trick 6"
    )


REFERENCES: dict[str, Callable[[], Picture]] = {
    "tuque-play": lambda: drawing.examples()["table-tuque.jpg"],
    "tuque-tableau-trumps": lambda: draw_table(
        tuque_with_trumps_face_up().view(None), ("Ann", "Computer")
    ),
    "six-trick": lambda: drawing.examples()["table-six.jpg"],
    "euchre-bidding": _euchre_bidding,
    "tuque-replay": _tuque_replay,
}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_pictures_match_their_references(name: str) -> None:
    """A few tables are drawn as they were when someone last looked at them."""
    _reference(name, REFERENCES[name]())


def test_examples_are_written(tmp_path: Path) -> None:
    """``python -m bot.drawing OUT_DIR`` writes the README's two example pictures."""
    assert drawing.main([]) == 2
    assert drawing.main([str(tmp_path)]) == 0
    for name in ("table-tuque.jpg", "table-six.jpg"):
        with Image.open(tmp_path / name) as image:
            assert image.size == (WIDTH, HEIGHT)


# --- issue 33: the table on a phone, a hand's end, a game's end, cues and replays --------


def _seat_counts() -> list[tuple[str, int]]:
    """Every variant at each seat count from 2 to 6 it can be played with."""
    return [
        (name, players)
        for name, variant in VARIANTS.items()
        for players in variant.choices.get("players", (variant.players,))
        if 2 <= players <= 6
    ]


SEAT_COUNTS = _seat_counts()
LONG_NAMES = ("Alexandra Smithson", "Alexander Smithson", "CPU 3", "CPU 4", "CPU 5", "CPU 6")


@pytest.mark.parametrize(
    ("variant", "players"), SEAT_COUNTS, ids=[f"{v}-{n}" for v, n in SEAT_COUNTS]
)
def test_every_text_reads_on_a_phone(variant: str, players: int) -> None:
    """Shown 255 px wide (a 360 px phone), every name, score and count of a table, at
    every moment of a game, and of its replay, is at least 10 px tall."""
    options: dict[str, object] = (
        {"players": players} if len(VARIANTS[variant].choices.get("players", ())) > 1 else {}
    )
    smallest = float("inf")
    for n, game in enumerate(_moments(variant, options)):
        view = game.view(None)
        names = LONG_NAMES[: view.players]
        pictures = [draw_table(view, names)]
        if n % 3 == 0:
            pictures.append(
                draw_table(view, names, revealed=reveal(game), caption="Hand 1 · the deal")
            )
        for picture in pictures:
            assert picture.text_sizes
            smallest = min(smallest, min(picture.text_sizes) * drawing.PHONE_WIDTH / picture.width)
    assert smallest >= 10, f"{variant} at {players} seats: {smallest:.1f} px"


def _next_deal(variant: str, seed: int, **options: object) -> Game:
    """A game just dealt its second hand, nobody having acted in it yet."""
    return drawing._advanced(
        variant, seed, lambda v: v.hand_no == 2 and v.turn is not None and not v.bids, **options
    )


def test_a_hands_end_stays_until_the_next_hands_first_action(drawn: list[Card]) -> None:
    """After the next deal, until its first bid, the picture draws the hand before's
    last trick and its result (the description says them) beside the new up-card that
    the first bid is made on (issue 43), and no other card face up (the new deal's cards
    are the same pack's: only public ones are drawn); after the first bid, the hand
    before's are gone."""
    game = _next_deal("euchre", 3)
    view = game.view(None)
    result = view.last_hand
    assert result is not None and result.last_trick is not None
    names = ("Ann", "Bob", "Cleo", "Dev")
    picture = draw_table(view, names)
    last = {card for _, card in result.last_trick.plays}
    assert view.up_card is not None and set(drawn) == last | {view.up_card}
    winner = names[result.last_trick.winner or 0]
    assert "Hand 1 over. Euchred: " in picture.description
    assert f", won by {winner}." in picture.description
    game.apply(game.turn or 0, game.legal_actions(game.turn or 0)[0])
    drawn.clear()
    picture = draw_table(game.view(None), names)
    assert not last & set(drawn) and "Hand 1 over" not in picture.description


def _drawn_boxes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, drawing.Box, object]]:
    """From now on, every box and picture the canvas draws: ``("box", box, fill)`` and
    ``("paste", box, None)``, in picture pixels."""
    drawn: list[tuple[str, drawing.Box, object]] = []
    box, paste = drawing._Canvas.box, drawing._Canvas.paste

    def box_spy(canvas: drawing._Canvas, shape: drawing.Box, fill: object, *a: object) -> None:
        drawn.append(("box", shape, fill))
        box(canvas, shape, fill, *a)  # type: ignore[arg-type]

    def paste_spy(canvas: drawing._Canvas, image: Image.Image, at: drawing.Point) -> None:
        w, h = image.width, image.height
        drawn.append(("paste", (at[0], at[1], at[0] + w, at[1] + h), None))
        paste(canvas, image, at)

    monkeypatch.setattr(drawing._Canvas, "box", box_spy)
    monkeypatch.setattr(drawing._Canvas, "paste", paste_spy)
    return drawn


def test_a_hands_end_shows_whole_beside_the_next_deal_at_every_seat_count(
    monkeypatch: pytest.MonkeyPatch, drawn: list[Card]
) -> None:
    """Issue 43: once the next hand is dealt while the hand before's end still shows,
    every table draws the new up-card it is bid on, the band keeps the hand's points
    whole, and the last trick with who won it lies clear of every plate; so does who
    won a trick in play. No words or card lie under a plate or over each other."""
    boxes = _drawn_boxes(monkeypatch)
    said = _texts_drawn(monkeypatch)
    for variant, players in SEAT_COUNTS:
        counts = VARIANTS[variant].choices.get("players", ())
        options: dict[str, object] = {"players": players} if len(counts) > 1 else {}
        dealt = _next_deal(variant, 3, **options)
        won = drawing._advanced(
            variant,
            3,
            lambda v: v.phase is Phase.PLAY and bool(v.tricks) and not v.trick.plays,
            **options,
        )
        for game in (dealt, won):
            view = game.view(None)
            names = NAMES[: view.players]
            boxes.clear()
            said.clear()
            drawn.clear()
            table = drawing._Table(view, names, None, drawing._Canvas())
            table.draw(None)
            where = f"{variant} at {players}, {view.phase.value}"
            plates = [b for kind, b, _ in boxes if (b[2] - b[0], b[3] - b[1]) == (200, 92)]
            pills = [b for kind, b, fill in boxes if fill == drawing._PLATE and b not in plates]
            cards = [b for kind, b, _ in boxes if kind == "paste" and b[3] - b[1] >= 40]
            assert not [(p, q) for p in pills + cards for q in plates if _overlap(p, q)], where
            assert not [(p, c) for p in pills for c in cards if _overlap(p, c)], where
            assert not [(p, q) for p in pills for q in pills if p != q and _overlap(p, q)]
            assert any(" won" in text for text in said), where
            previous = view.hand_just_over
            # Jackpot's chips change hands at every seat: at five or six, more than a
            # band holds (the description has them all).
            chips = table.variant.chips and players > 4
            if game is dealt and previous is not None and not previous.thrown_in and not chips:
                words = Wording(table.variant, table.names)
                points = [words.side(side) for side in range(len(previous.points))]
                whole = {words.outcome(previous), points_text(previous.points, points)}
                assert whole & set(said), (where, said)
                if view.up_card is not None and view.trump is None:
                    assert view.up_card in drawn, where


def test_the_last_trick_of_a_hand_is_public_in_every_variant() -> None:
    """A hand's result keeps its last trick: its cards are the hand's last plays, its
    winner the one who took the last trick."""
    for variant in ("tuque", "euchre", "six_hand", "auction", "jackpot"):
        game = Game(variant, seed=9)
        rng = random.Random(9)
        plays: list[tuple[int, Card]] = []
        while not game.hand_results:
            if game.turn is None:
                game.deal()
                continue
            seat = game.turn
            action = rng.choice(game.legal_actions(seat))
            if isinstance(action, Play):
                plays.append((seat, action.card))
            game.apply(seat, action)
        (result,) = game.hand_results
        if result.thrown_in:
            assert result.last_trick is None
            continue
        assert result.last_trick is not None
        size = len(result.last_trick.plays)
        assert result.last_trick.plays == tuple(plays[-size:])
        assert result.last_trick.winner == result.last_trick.plays[0][0] or size > 1


def _near(pixel: object, colour: drawing.Colour) -> bool:
    """Whether a decoded pixel is ``colour``, give or take the JPEG's rounding."""
    assert isinstance(pixel, tuple)
    return max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < 12


def _resigned_result(winner: int, by: int) -> Result:
    return Result(Ending.RESIGNED, winner, by, (0, 0), (2, 1), (False, True), False, (), ())


def test_a_resigned_game_shows_nobody_to_act_and_names_the_winner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine's game goes on after a resignation: the picture draws no plate gold,
    and its banner and description name who resigned and who won."""
    game = _tuque_mid_play()
    view = game.view(None)
    assert view.turn is not None
    said = _texts_drawn(monkeypatch)
    picture = draw_table(view, ("Ann", "Bob"), result=_resigned_result(1, 0))
    image = _decoded(picture).convert("RGB")
    gold = sum(1 for pixel in image.get_flattened_data() if _near(pixel, drawing._ACTIVE))
    assert gold < 200
    assert "Ann resigned" in said and "Bob won!" in said
    assert picture.description.endswith("Game over: Ann resigned; Bob won the game.")


def test_computer_seats_and_long_names_stay_distinct_on_their_plates() -> None:
    """Plates with a score (three-hand) tell ``Computer 2`` from ``Computer 3``, keep
    ``CPU n`` whole, and tell apart long names cut alike."""
    game = drawing._advanced("three_hand", 4, lambda v: v.phase is Phase.PLAY)
    for names in (
        ("Ann", "Computer 2", "Computer 3"),
        ("Ann", "CPU 2", "CPU 3"),
        ("Alexandra Smithson", "Alexander Smithson", "CPU 3"),
    ):
        table = drawing._Table(game.view(None), names, None, drawing._Canvas())
        plates = table.plate_names
        assert len(set(plates)) == 3, plates
        assert all(len(plate.strip("…")) >= 3 for plate in plates), plates
        if names[1].startswith("CPU"):
            assert plates[1:] == names[1:]


def _bids_until(variant: str, seed: int, until: Callable[[PlayerView], bool]) -> Game:
    return drawing._advanced(variant, seed, until)


def test_a_maker_who_does_not_go_alone_is_not_shown_passing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Euchre maker who declines to go alone: the bubble says ``Not alone``, as the
    button did (issue 43), never ``Pass``, and the description says they did not go
    alone."""
    for seed in range(40):
        game = Game("euchre", seed=seed)
        game.deal()
        rng = random.Random(seed)
        while game.phase is not Phase.PLAY and game.turn is not None:
            seat = game.turn
            legal = game.legal_actions(seat)
            if game.phase is Phase.GOING_ALONE:
                game.apply(seat, next(a for a in legal if isinstance(a, Pass)))
                break
            bids = [a for a in legal if not isinstance(a, Pass)] if seed % 2 else legal
            game.apply(seat, rng.choice(bids or legal))
        view = game.view(None)
        if view.bids and isinstance(view.bids[-1][1], Pass) and view.phase is Phase.DISCARD:
            break
    else:
        pytest.skip("no seeded game declined to go alone before a discard")
    maker = view.bids[-1][0]
    said = _texts_drawn(monkeypatch)
    names = ("Ann", "Bob", "Cleo", "Dev")
    picture = draw_table(view, names)
    assert "Not alone" in said and "Pass" not in said[-3:]
    assert f"{names[maker]} didn't go alone" in picture.description
    assert f"{names[maker]} passed" not in picture.description


def test_the_seat_to_act_trump_and_the_tricks_winner_each_have_their_own_colour() -> None:
    """Gold marks only the seat to act: a trump in a tableau and a trick's winner have
    colours of their own."""
    cues = {drawing._ACTIVE, drawing._TRUMP, drawing._WON}
    assert len(cues) == 3
    view = tuque_with_trumps_face_up().view(None)
    image = _decoded(draw_table(view, ("Ann", "Bob"))).convert("RGB")
    assert sum(1 for p in image.get_flattened_data() if _near(p, drawing._TRUMP)) > 500


def _boxes_of(monkeypatch: pytest.MonkeyPatch) -> list[tuple[drawing.Box, object]]:
    boxes: list[tuple[drawing.Box, object]] = []
    box = drawing._Canvas.box

    def spy(
        canvas: drawing._Canvas, shape: drawing.Box, fill: object, *args: object, **kw: object
    ) -> None:
        boxes.append((shape, fill))
        box(canvas, shape, fill, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(drawing._Canvas, "box", spy)
    return boxes


def _overlap(a: drawing.Box, b: drawing.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_auction_bubbles_leave_the_widow_count_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through an Auction's bidding, no bid bubble covers the widow's count."""
    boxes = _boxes_of(monkeypatch)
    rng = random.Random(2)
    game = Game("auction", seed=2)
    game.deal()
    checked = 0
    while game.phase is Phase.AUCTION:
        boxes.clear()
        draw_table(game.view(None), NAMES[: game.variant.players])
        bubbles = [shape for shape, fill in boxes if fill == drawing._WHITE]
        widow = [
            shape for shape, fill in boxes if fill == drawing._PLATE and shape[3] - shape[1] == 36
        ]
        assert len(widow) == 1
        assert not [b for b in bubbles if _overlap(b, widow[0])]
        checked += bool(bubbles)
        game.apply(game.turn or 0, rng.choice(game.legal_actions(game.turn or 0)))
    assert checked


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_trick_cards_lie_clear_of_the_plates(players: int) -> None:
    """At every seat count, live or in a replay, each trick card (its winner's ring
    too) lies clear of every plate and of the other cards."""
    variant = {2: "two_hand", 3: "three_hand", 4: "euchre", 5: "auction", 6: "six_hand"}
    name = variant[players] if variant[players] in VARIANTS else "tuque"
    game = drawing._advanced(name, 3, lambda v: v.phase is Phase.PLAY)
    for revealed in (None, reveal(game)):
        table = drawing._Table(game.view(None), NAMES[:players], revealed, drawing._Canvas())
        half = table.card / 2 + 6
        cards = [
            (x - half, y - half, x + half, y + half) for x, y in (s.trick for s in table.spots)
        ]
        plates = [
            (
                x - drawing._PLATE_W / 2,
                y - table.plate_h / 2,
                x + drawing._PLATE_W / 2,
                y + table.plate_h / 2,
            )
            for x, y in (s.plate for s in table.spots)
        ]
        assert not [(c, p) for c in cards for p in plates if _overlap(c, p)]


def test_a_replay_shows_each_hand_whole_and_its_caption_uncut(
    monkeypatch: pytest.MonkeyPatch, badges: list[drawing.Point]
) -> None:
    """A Tuque replay's seven-card hands are drawn without overlap, its caption whole,
    and a trump chip pinned on a tableau card leaves the suit of the revealed card
    above it clear."""
    pasted: list[tuple[float, float, int]] = []
    paste = drawing._Canvas.paste

    def spy(canvas: drawing._Canvas, image: Image.Image, at: drawing.Point) -> None:
        pasted.append((at[0], at[1], image.width))
        paste(canvas, image, at)

    monkeypatch.setattr(drawing._Canvas, "paste", spy)
    said = _texts_drawn(monkeypatch)
    game = drawing._advanced("tuque", 7, lambda v: v.phase is Phase.PLAY and not v.tricks)
    caption = "Hand 1 · trick 6 of 17 · Computer 2 wins it"
    draw_table(game.view(None), ("Ann", "Computer 2"), revealed=reveal(game), caption=caption)
    assert caption in said
    hand = [(x, y) for x, y, side in pasted if side == drawing._HAND_CARD]
    rows: dict[float, list[float]] = {}
    for x, y in hand:
        rows.setdefault(y, []).append(x)
    assert sorted(map(len, rows.values())) == sorted(map(len, reveal(game).hands))
    for xs in rows.values():
        xs.sort()
        assert all(b - a >= drawing._HAND_CARD for a, b in itertools.pairwise(xs))
    # A card's suit lies in the middle of its lower half, 0.29 to 0.71 of its width
    # (bot.faces): the revealed card above a trump keeps it clear of the trump's chip.
    chips = [x for x, _, side in pasted if side == drawing._TRUMP_CHIP]
    assert badges and len(chips) == len(badges)
    for (card_left, _), chip_left in zip(badges, chips, strict=True):
        assert chip_left - 3 >= card_left + drawing._CARD * 0.71


def test_the_descriptions_counts_read_like_the_score() -> None:
    """Issue 33: the text alternative gives tricks won and cards in hand as the score is
    written, ``CPU 2: 3``, never ``CPU 2 3``."""
    game = Game("euchre", seed=2, first_dealer=0, stick_the_dealer=True)  # never thrown in
    game.deal()
    while game.phase is not Phase.PLAY or not game.view(None).tricks:
        assert game.turn is not None
        game.apply(game.turn, game.legal_actions(game.turn)[0])
    view = game.view(None)
    names = ("Ann", "CPU 2", "Bob", "CPU 4")
    text = drawing.describe(view, names)
    won, held = view.tricks_won, view.hand_sizes
    assert f"Tricks won: Ann: {won[0]} · CPU 2: {won[1]} · Bob: {won[2]} · CPU 4: {won[3]}" in text
    assert f"Cards in hand: Ann: {held[0]} · CPU 2: {held[1]} · Bob: {held[2]}" in text


_CASE = '''
import hashlib, random
from bot.drawing import draw_table, reveal
from engine.game import Game


def picture(variant, seed, actions, names, revealed):
    """The SHA-256 of the picture of a seeded game after ``actions`` seeded random
    actions (deals included), a replay's if ``revealed``."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    for _ in range(actions):
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    more = {"revealed": reveal(game), "caption": "Hand 1"} if revealed else {}
    return hashlib.sha256(draw_table(game.view(None), names, **more).jpeg).hexdigest()
'''
"""Draws one table of a seeded game, here and in a fresh interpreter alike."""
_CASES = {
    "tuque": ("tuque", 7, 20, ("Ann", "Bob"), False),
    "tuque renamed": ("tuque", 7, 20, ("Zed", "Computer 2"), False),
    "tuque replay": ("tuque", 7, 20, ("Ann", "Bob"), True),
    "tuque later": ("tuque", 7, 23, ("Ann", "Bob"), False),
    "six": ("six_hand", 13, 40, NAMES, False),
    "euchre bidding": ("euchre", 4, 3, NAMES[:4], False),
}
"""Tables as :data:`_CASE` draws them (variant, seed, actions, names, replay), by name."""


def _fresh(case: str) -> subprocess.Popen[str]:
    """A fresh interpreter drawing only ``case``: nothing cached but what that picture drew."""
    code = f"{_CASE}\nprint(picture(*{_CASES[case]!r}))"
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )


def test_a_picture_is_the_same_whatever_was_drawn_before() -> None:
    """Issue 41: the caches and the reused canvas never carry one table into another.
    Tables drawn one after another here (the same table with other names, its replay
    with every hidden card face up, other seat counts, then the first again) are each
    the same file as a fresh interpreter draws of that table alone."""
    runs = {case: _fresh(case) for case in _CASES}
    fresh = {case: run.communicate(timeout=120)[0].strip() for case, run in runs.items()}
    assert all(run.returncode == 0 for run in runs.values())
    space: dict[str, Callable[..., str]] = {}
    exec(_CASE, space)
    order = ["tuque", "six", "tuque replay", "tuque", "euchre bidding", "tuque renamed"]
    order += ["tuque later", "tuque replay", "six", "tuque", "euchre bidding"]
    drawn = [space["picture"](*_CASES[case]) for case in order]
    assert drawn == [fresh[case] for case in order]
    assert len(set(fresh.values())) == len(_CASES)


def test_after_a_replay_the_live_table_shows_no_hidden_card_nor_other_names(
    drawn: list[Card],
) -> None:
    """A replay turns every hidden card face up and names its seats: the live table drawn
    next, with other names, draws only public cards face up and its own names (every
    text drawn is recorded by a spy on the one method that draws text)."""
    game = _tuque_mid_play()
    view = game.view(None)
    draw_table(view, ("Xavier", "Yolanda"), revealed=reveal(game), caption="Hand 1")
    assert _hidden(game) & set(drawn)
    drawn.clear()
    with pytest.MonkeyPatch.context() as patch:
        said = _texts_drawn(patch)
        live = draw_table(view, ("Ann", "Bob"))
    assert set(drawn) <= _public(view)
    assert not set(drawn) & _hidden(game)
    assert not [words for words in said if "Xavier" in words or "Yolanda" in words]
    assert {"Ann", "Bob"} <= set(said)
    assert live == draw_table(view, ("Ann", "Bob"))
