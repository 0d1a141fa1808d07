"""Golden playthroughs: one whole game per variant, every state and legal-action list pinned.

Each game uses a fixed seed and players choosing with ``random.Random(seed)``; every state
is rendered as plain text from the seats' views and compared byte for byte with
``tests/engine/golden/<name>.txt``. After an intended change to the engine's behaviour,
rewrite the files and review the diff::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden_playthroughs.py
"""

from __future__ import annotations

import difflib
import os
import random
from pathlib import Path

import pytest

from engine.cards import Card
from engine.game import Game
from engine.view import Phase, PlayerView

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

PLAYTHROUGHS = {
    "tuque": ("tuque", 24, {"target": 5}),
    "tuque61": ("tuque61", 7, {}),
    "euchre": ("euchre", 4, {}),
    "british": ("british", 3, {}),
    "three_hand": ("three_hand", 3, {"target": 5}),
    "two_hand": ("two_hand", 3, {"target": 5}),
    "six_hand": ("six_hand", 5, {}),
    "six_hand_double_pack": ("six_hand", 5, {"double_pack": True}),
    "almonte": ("almonte", 3, {"dealer_must_make": True}),
    "call_ace": ("call_ace", 3, {"players": 5}),
    "jackpot": ("jackpot", 3, {"hands": 4}),
    "auction": ("auction", 3, {"pack": 32}),
}
FIRST = ("tuque", "tuque61", "euchre")
"""Pinned before RULES.md §4–§7 existed: their files stay byte-identical."""
HANDS = 6
"""The later variants' playthroughs stop after this many deals: random choices can
keep a game whose scores go down (§5, §7) going for ever."""


def _cards(cards) -> str:
    return " ".join(c.code for c in cards) or "-"


def _opt(value) -> str:
    return "-" if value is None else str(value)


def _pile(up: Card | None, face_down: bool) -> str:
    return (up.code if up else "--") + ("/#" if face_down else "/.")


def render(game: Game, family: bool = False) -> str:
    """A stable text rendering of the state: the public view, then each seat's own view.

    ``family`` adds the state of RULES.md §4–§7 (loners, calls, bids, pool, widow).
    """
    public = game.view(None)
    lines = [
        f"phase: {public.phase.value} | hand {public.hand_no} | dealer {public.dealer}"
        f" | turn {_opt(public.turn)}",
        f"scores: {' '.join(map(str, public.scores))} (target {public.target})"
        f" | winner {_opt(public.winner)}",
        f"up-card: {_opt(public.up_card)}{' (turned down)' if public.up_card_turned_down else ''}"
        f" | trump {_opt(public.trump)} | maker {_opt(public.maker)}"
        f" | alone {_opt(public.alone)}",
        f"bids: {', '.join(f'{s} {a}' for s, a in public.bids) or '-'}",
        f"trick: leader {public.trick.leader} | "
        + (" ".join(f"{s}:{c}" for s, c in public.trick.plays) or "-"),
        f"tricks won: {' '.join(map(str, public.tricks_won))}",
    ]
    if public.tricks:
        last = public.tricks[-1]
        plays = " ".join(f"{s}:{c}" for s, c in last.plays)
        lines.append(f"last trick: {plays} -> {last.winner}")
    if public.last_hand is not None and public.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        h = public.last_hand
        lines.append(
            f"hand result: trump {_opt(h.trump)} maker {_opt(h.maker)} alone {_opt(h.alone)}"
            f" tricks {' '.join(map(str, h.tricks))} points {' '.join(map(str, h.points))}"
        )
    if family:
        lines.append(
            f"out: {' '.join(map(str, public.out)) or '-'} | lone defender "
            f"{_opt(public.lone_defender)} | bid suit {_opt(public.bid_suit)} | called "
            f"{_opt(public.called_suit or public.called_card)} | bid {public.bid} | pool "
            f"{public.pool} | widow {public.widow}"
        )
        if public.last_hand is not None and public.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            h = public.last_hand
            lines.append(
                f"hand result: lone defender {_opt(h.lone_defender)} partner {_opt(h.partner)}"
                f" bid {h.bid} pool {h.pool}"
            )
    for seat in range(game.variant.players):
        lines.append(_render_seat(game.view(seat), family))
    return "\n".join(lines)


def _render_seat(view: PlayerView, family: bool = False) -> str:
    assert view.seat is not None
    parts = [f"seat {view.seat}: hand {_cards(view.hand)}"]
    if family and view.blind:
        parts.append("blind")
    if family and len(view.discards) > 1:
        parts.append(f"discards {_cards(view.discards)}")
    if view.tableaus[view.seat]:
        parts.append(
            "tableau " + " ".join(_pile(p.up, p.face_down) for p in view.tableaus[view.seat])
        )
    if view.discard is not None:
        parts.append(f"discard {view.discard}")
    if view.legal_actions:
        parts.append("legal: " + ", ".join(map(str, view.legal_actions)))
    return " | ".join(parts)


def playthrough(variant: str, seed: int, options: dict) -> str:
    """The whole game as text: a header, then each state followed by the step taken."""
    game = Game(variant, seed=seed, **options)
    rng = random.Random(seed)
    out = [
        f"# {variant} {options}, seed {seed}, players choosing with random.Random({seed})",
        "# regenerate: UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden_playthroughs.py",
    ]
    step = 0
    family = variant not in FIRST
    while True:
        out += [f"== state {step}", render(game, family)]
        if game.phase is Phase.GAME_OVER or (
            family and game.turn is None and game.hand_no >= HANDS
        ):
            break
        if game.turn is None:
            deal = game.deal()
            out.append(f">> deal ({len(deal.cards)} cards)")
        else:
            seat = game.turn
            action = rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
            out.append(f">> {seat}: {action}")
        step += 1
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_playthrough(name: str) -> None:
    """The game replays exactly as recorded in its golden file."""
    variant, seed, options = PLAYTHROUGHS[name]
    text = playthrough(variant, seed, options)
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(text.encode())
    expected = path.read_bytes().decode() if path.exists() else ""
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), str(path), "now", lineterm=""
        )
        shown = "\n".join(line for _, line in zip(range(60), diff, strict=False))
        pytest.fail(f"{path.name} differs (UPDATE_GOLDEN=1 rewrites it):\n{shown}")


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_file_is_small(name: str) -> None:
    """Each golden file stays under 1 MB."""
    assert (GOLDEN / f"{name}.txt").stat().st_size < 1_000_000
