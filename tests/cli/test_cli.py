"""The ``tuque`` command, driven through ``main`` with scripted input and captured output.

A :class:`Keyboard` answers each prompt by reading the screen printed so far, the
way a person would; the computers play at the ``random`` level, which is fast.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

import engine.cli
from engine.actions import Action, Discard, parse_action
from engine.cards import CARDS, Card, cards_in
from engine.cli import main
from engine.game import Game
from engine.variants import VARIANTS
from engine.view import Phase, PlayerView

Policy = Callable[[str], str | None]
"""Given everything printed so far (ending with a prompt), the line to type; ``None``: EOF."""

_MENU_ENTRY = re.compile(r"^(\d+)\) (.+)$")


class Keyboard(io.TextIOBase):
    """An input stream whose every line comes from ``policy`` looking at the output."""

    def __init__(self, out: io.StringIO, policy: Policy) -> None:
        self.out = out
        self.policy = policy

    def readline(self, size: int | None = -1) -> str:
        answer = self.policy(self.out.getvalue())
        return "" if answer is None else answer + "\n"


def run(argv: list[str], policy: Policy = lambda _: None) -> tuple[int, str, str]:
    """Run ``tuque`` with ``argv``; return the exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=Keyboard(out, policy), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def last_screen(text: str) -> str:
    """The last screen printed: from its ``--- Hand`` line to the prompt."""
    return text[text.rindex("--- Hand") :]


def menu(text: str) -> dict[int, str]:
    """The numbered choices of the last screen, number -> label."""
    screen = last_screen(text)
    choices = screen[screen.rindex("\n\n") :]
    entries = (_MENU_ENTRY.match(e) for e in re.split(r"\s{3,}|\n", choices))
    return {int(m[1]): m[2] for m in entries if m}


def always_one(_: str) -> str:
    """Pick the first choice every time."""
    return "1"


def typist(seed: int) -> Policy:
    """Pick a random choice, half the time by number and half by typing the action.

    Made for ``--ascii`` screens, whose labels turn into the action notation:
    ``Play 10H (hand)`` -> ``play 10h``, ``Take it up, hearts trump`` -> ``take hearts``.
    """
    rng = random.Random(seed)

    def answer(text: str) -> str:
        choices = menu(text)
        number = rng.choice(list(choices))
        if rng.random() < 0.5:
            return str(number)
        label = choices[number].lower().removesuffix(" (hand)").removesuffix(" (tableau)")
        for verb in ("order", "take"):
            if label.startswith(f"{verb} it up, "):
                return f"{verb} {label.split(', ')[1].removesuffix(' trump')}"
        return label

    return answer


def saved_game(path: Path) -> tuple[dict[str, object], Game]:
    record = json.loads(path.read_text(encoding="utf-8"))
    return record, Game.from_record(record)


# --- playing against the computer -------------------------------------------------------


def test_whole_tuque_game_to_a_short_target_finishes(tmp_path: Path) -> None:
    """Always choosing 1, a seeded game reaches its target and is saved complete."""
    argv = ["play", "--seed", "3", "--target", "3", "--level", "random"]
    code, out, err = run([*argv, "--save", str(tmp_path / "g")], always_one)
    assert (code, err) == (0, "")
    _, game = saved_game(tmp_path / "g")
    assert game.phase is Phase.GAME_OVER
    assert "Game over:" in out and "Game saved to" in out
    assert "CPU 2 plays" in out and "wins the trick" in out
    assert "face-down card turned up:" in out
    for result in game.hand_results:
        assert f"Hand {result.hand_no}: " in out
    assert "Traceback" not in out


def test_typed_actions_play_a_whole_game(tmp_path: Path) -> None:
    """Actions typed as text ('pass', 'take hearts', 'play 10h') are understood."""
    path = tmp_path / "g.json"
    argv = ["play", "--seed", "8", "--target", "3", "--level", "random", "--ascii"]
    code, out, _ = run([*argv, "--save", str(path)], typist(8))
    assert code == 0
    assert saved_game(path)[1].phase is Phase.GAME_OVER
    assert "I don't understand" not in out and "must follow" not in out.lower()


def test_euchre_with_a_computer_partner_finishes(tmp_path: Path) -> None:
    """In Euchre the person sits South with a computer partner against two computers."""
    path = tmp_path / "e.json"
    argv = ["play", "--variant", "euchre", "--seed", "4", "--target", "3", "--level", "random"]
    code, out, _ = run([*argv, "--ascii", "--stick-the-dealer", "--save", str(path)], typist(4))
    assert code == 0
    record, game = saved_game(path)
    assert game.phase is Phase.GAME_OVER
    assert record["options"] == {"stick_the_dealer": True, "target": 3}
    assert "Score: You & Partner" in out and "Partner plays" in out


def test_the_screen_shows_the_table() -> None:
    """The first screen shows hand, both tableaus, up-card, trump, score and the choices."""
    code, out, _ = run(["play", "--seed", "3", "--level", "random"])
    assert code == 0
    game = Game("tuque", seed=3)
    game.deal()
    view = game.view(0)
    screen = last_screen(out)
    assert f"Up-card: {view.up_card.pretty()}" in screen
    assert "Trump: not made yet" in screen
    assert "Score: You: 0 · CPU 2: 0 (to 10)" in screen
    # Grouped by suit, high to low; before trump is made the suits in the order ♣ ♦ ♥ ♠.
    assert sorted(view.hand, key=lambda c: c.index) == [
        Card.parse(c) for c in ("TC", "AC", "7D", "8H", "9H", "TH", "8S")
    ]
    assert "Your hand: A♣ 10♣ | 7♦ | 10♥ 9♥ 8♥ | 8♠\n" in screen
    for seat, name in ((0, "You"), (1, "CPU 2")):
        # 🃏 is two columns wide, so a Ben is not padded to three.
        tops = [c.pretty() if c.is_ben else f"{c.pretty():>3}" for c in view.face_up(seat)]
        piles = " ".join(f"[{top}/▮]" for top in tops)
        assert f"{name:<5}  {piles}" in screen
    assert re.search(r"^1\) Pass +2\) (Order|Take) it up$", screen, re.MULTILINE)


def test_bad_inputs_reprompt_with_clear_messages() -> None:
    """A wrong number, gibberish and illegal actions are explained, then asked again."""
    script = iter(["9", "xyzzy", "play 1x", "play AS", "order", "", "take", "42", "quit"])
    code, out, _ = run(["play", "--seed", "2", "--level", "random"], lambda _: next(script))
    assert code == 0
    assert "Your choice [1-2]: 9\nThere is no choice 9: type a number from 1 to 2.\n" in out
    assert "Sorry, I don't understand that: 'xyzzy' is not an action.\n" in out
    assert "Sorry, I don't understand that: '1x' is not a card" in out
    assert "Type a number from 1 to 2, or the action itself, e.g. 'pass' or 'take'\n" in out
    # The engine's own explanations (seat 0 deals this seeded hand).
    assert "play AS\nYou can't play a card during the round 1 bidding.\n" in out
    assert "order\nAs the dealer you take it up rather than order it up.\n" in out
    assert out.count("Your choice [1-2]: ") == 7  # one screen, asked until 'take'
    assert "You take it up: ♦ diamonds are trump." in out
    assert "There is no choice 42: type a number from 1 to 8." in out
    assert out.endswith("quit\nGame stopped.\n")


def test_an_illegal_card_gets_the_engines_must_follow_message() -> None:
    """Playing an off-suit card while holding the led suit shows the engine's message."""
    tried: list[str] = []

    def policy(text: str) -> str:
        if tried:
            return "quit"
        screen = last_screen(text)
        hand = re.search(r"^Your hand: (.*)$", screen, re.MULTILINE)
        if hand and re.search(r"^Trick \d+: CPU 2 led", screen, re.MULTILINE):
            legal = {label.split()[1] for label in menu(text).values()}
            # The hand's groups are separated by "|", trump's marked "(trump)".
            cards = [card for card in hand.group(1).split() if card not in ("|", "(trump)")]
            off = [card for card in cards if card not in legal]
            if off:
                tried.append(off[0])
                return f"play {off[0]}"
        return "1"

    code, out, _ = run(["play", "--seed", "5", "--level", "random", "--ascii"], policy)
    assert code == 0 and tried
    after = out[out.rindex("Your choice [1-") :]
    assert re.match(
        rf"Your choice \[1-\d+\]: play {tried[0]}\nYou must follow suit: \w+ were led",
        out[out.rindex("Your choice", 0, out.index("You must follow")) :],
    )
    assert after.endswith("quit\nGame stopped.\n")


def test_end_of_input_stops_cleanly_and_saves(tmp_path: Path) -> None:
    """EOF ends with a short message, exit code 0, and the record so far."""
    path = tmp_path / "g.json"
    code, out, err = run(["play", "--seed", "3", "--level", "random", "--save", str(path)])
    assert (code, err) == (0, "")
    assert "End of input: game stopped." in out and "Traceback" not in out
    _, game = saved_game(path)
    assert game.hand_no == 1 and game.phase is not Phase.GAME_OVER


def test_ctrl_c_stops_cleanly_with_code_130() -> None:
    """KeyboardInterrupt at the prompt ends with a short message and exit code 130."""

    def interrupt(_: str) -> str:
        raise KeyboardInterrupt

    code, out, err = run(["play", "--seed", "3", "--level", "random"], interrupt)
    assert (code, err) == (130, "")
    assert out.rstrip().endswith("Interrupted: game stopped.")


def test_hidden_cards_never_appear_on_the_persons_screens(tmp_path: Path) -> None:
    """No screen shows the other hands, a face-down card, the kitty or another's discard."""
    # Seeds where a computer dealer discards a card other than the up-card.
    for variant, seed in (("tuque", 1), ("euchre", 2)):
        path = tmp_path / f"{variant}.json"
        argv = ["play", "--variant", variant, "--seed", str(seed), "--target", "2"]
        code, out, _ = run([*argv, "--level", "random", "--save", str(path)], always_one)
        assert code == 0
        screens = re.findall(r"^--- Hand .*?^Your choice", out, re.MULTILINE | re.DOTALL)
        hands = out.split("\n=== Hand ")[1:]
        record = json.loads(path.read_text(encoding="utf-8"))
        replay = Game.from_record({**record, "actions": []})
        asked = discards = 0
        for entry in record["actions"]:
            # A forced move is made without a screen (the one legal action is played).
            if replay.turn == 0 and len(replay.legal_actions(0)) > 1:
                hidden = _hidden_from_seat_0(replay)
                screen = screens[asked]
                assert not [c.code for c in hidden if c.pretty() in screen], screen
                asked += 1
            replay.replay(entry)
            action = None if entry.startswith("deal ") else parse_action(entry)
            if isinstance(action, Discard) and action.card != replay.up_card and replay.dealer:
                assert action.card.pretty() not in hands[replay.hand_no - 1]
                discards += 1
        assert asked == len(screens) and discards


def _hidden_from_seat_0(game: Game) -> list[Card]:
    zones = game.zones()
    mask = zones["kitty"]
    for seat in range(game.variant.players):
        mask |= zones[f"tableau-down:{seat}"]
        if seat != 0:
            mask |= zones[f"hand:{seat}"]
    mask |= zones["widow"]
    mask |= zones["discard"] & ~sum(c.mask for c in game.discards_of(0))
    public = game.view(None)
    # The up-card was shown to everyone, even once the dealer has picked it up; an
    # Auction's called card is named aloud (RULES.md §7).
    return [c for c in cards_in(mask) if c not in (game.up_card, public.called_card)]


def test_symbols_fall_back_to_ascii_when_the_output_cannot_print_them() -> None:
    """On an ASCII-only terminal cards print as 10H, AS, B3: no encoding error."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    code = main(
        ["play", "--seed", "3", "--target", "2", "--level", "random"],
        stdin=Keyboard(io.StringIO(), always_one),
        stdout=out,
    )
    out.flush()
    assert code == 0
    assert "Game over:" in raw.getvalue().decode("ascii")


# --- watching and replaying -------------------------------------------------------------


def test_watch_plays_computer_against_computer(tmp_path: Path) -> None:
    """--watch needs no input, shows every hand at each deal, and finishes."""
    path = tmp_path / "w.json"
    argv = ["play", "--watch", "--seed", "6", "--target", "4", "--level", "random"]
    code, out, _ = run([*argv, "--opponent-level", "easy", "--save", str(path)])
    assert code == 0
    assert out.startswith("Tuque: South (random) against North (easy). Game to 4, seed 6.")
    assert "Game over:" in out and "Your choice" not in out
    _, game = saved_game(path)
    assert len(game.hand_results) == out.count("\n=== Hand ")
    first = Game("tuque", seed=6)
    first.deal()
    for seat, name in ((0, "South"), (1, "North")):
        shown = re.search(rf"^{name} +hand +(.*)$", out, re.MULTILINE)
        assert shown is not None
        groups = [group.split() for group in shown.group(1).split(" | ")]
        # The whole hand, grouped by suit (trump is not made yet) and high to low in each.
        pretty = {c.pretty(): c for c in CARDS}
        assert {pretty[c] for group in groups for c in group} == set(first.hand_of(seat))
        for group in groups:
            cards = [pretty[c] for c in group]
            assert len({c.suit for c in cards}) == 1
            assert cards == sorted(cards, key=lambda c: -c.index)


def test_watch_shows_each_face_down_card_under_its_own_pile() -> None:
    """The deal in review pairs face-down and face-up cards as the engine turns them up."""
    argv = ["play", "--watch", "--seed", "2", "--target", "1", "--level", "random", "--ascii"]
    code, out, _ = run(argv)
    assert code == 0
    game = Game("tuque", seed=2)
    game.deal()
    public, zones = game.view(None), game.zones()
    hand_1 = out.split("\n=== Hand ")[1]
    under: dict[str, str] = {}
    rows = re.findall(r"^(\w+) +hand .*\n +tableau +(.*)$", hand_1, re.MULTILINE)
    for seat, (_, row) in enumerate(rows):
        pairs = re.findall(r"\[ *([^/\]]+)/([^\]]+)\]", row)
        assert [Card.parse(up) for up, _ in pairs] == list(public.face_up(seat))
        downs = {Card.parse(down) for _, down in pairs}
        assert downs == set(cards_in(zones[f"tableau-down:{seat}"]))
        under.update(pairs)
    checked = 0
    # In each trick a seat plays one card; if from its tableau, its next reveal is that pile's.
    for trick, reveals in re.findall(r"^(Trick .*)\n((?:.*turned up: .*\n)*)", hand_1, re.M):
        for name, card in re.findall(r"(\w+) (?:led|played) (\S+) \(tableau\)", trick):
            shown = re.search(rf"^{name}'s face-down card turned up: (\S+)\.$", reveals, re.M)
            if card in under and shown:
                assert shown.group(1) == under.pop(card)
                checked += 1
    assert checked >= 5


def test_replay_prints_every_hand_of_a_saved_game(tmp_path: Path) -> None:
    """A saved game replays hand by hand: deal, bidding, tricks, result, final score."""
    path = tmp_path / "g.json"
    argv = ["play", "--variant", "euchre", "--watch", "--seed", "9", "--target", "4"]
    assert run([*argv, "--level", "random", "--save", str(path)])[0] == 0
    _, game = saved_game(path)
    code, out, err = run(["replay", str(path)])
    assert (code, err) == (0, "")
    assert out.startswith(f"Replay of {path}: Euchre (four-hand), game to 4, seed 9")
    for result in game.hand_results:
        assert f"=== Hand {result.hand_no}: " in out
        assert f"\nHand {result.hand_no}: " in out
    tricks = sum(not r.thrown_in for r in game.hand_results) * game.variant.tricks
    assert len(re.findall(r"^Trick \d+: ", out, re.MULTILINE)) == tricks
    assert re.search(r"(passes|orders it up|takes it up|names)", out)
    assert out.rstrip().splitlines()[-1].startswith("Game over: ")


def test_replay_of_a_stopped_game_says_where_it_stops(tmp_path: Path) -> None:
    """A record saved when the person quit replays up to that point."""
    path = tmp_path / "g.json"
    script = iter(["1", "1", "1", "quit"])
    run(["play", "--seed", "3", "--level", "random", "--save", str(path)], lambda _: next(script))
    code, out, _ = run(["replay", str(path)])
    assert code == 0
    assert "The record stops during hand 1, before the game's end." in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("not json", "is not a JSON file"),
        ('{"format": "chess"}', "is not a valid game record: not a tuque-game record"),
        ("[1, 2]", "is not a valid game record"),
        ("BROKEN", "does not replay"),
        ("NOT-TEXT", "actions must be a list of strings"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"format": "tuque-game", "seed": ' + "9" * 5000 + "}", "a number too long to read"),
        (b"\xff\xfe not text", "is not a JSON file"),
        (
            json.dumps(Game("tuque", seed=1).to_record() | {"options": {"a\nb": 1}}),
            "has no adjustable option 'a\\nb'",
        ),
    ],
)
def test_a_bad_replay_file_is_one_error_line_and_exit_2(
    tmp_path: Path, content: str | bytes | None, message: str
) -> None:
    """Missing, non-JSON, foreign, corrupted, too deep or too large files: one line on
    stderr, exit code 2, no traceback."""
    path = tmp_path / "bad.json"
    if content in ("BROKEN", "NOT-TEXT"):
        game = Game("tuque", seed=1)
        game.deal()
        record = game.to_record()
        record["actions"].append("play B9" if content == "BROKEN" else 7)
        content = json.dumps(record)
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run(["replay", str(path)])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("tuque replay: error: ")
    assert message in err


# --- arguments --------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["replay", "--help"]])
def test_help_is_printed_with_exit_code_0(argv: list[str]) -> None:
    """Each help names the command's usage and exits 0."""
    code, out, _ = run(argv)
    assert code == 0
    assert out.startswith("usage: tuque")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["play", "--target", "0"], "argument --target: must be 1 or more"),
        (["play", "--level", "genius"], "argument --level: invalid choice"),
        (["play", "--variant", "pepper"], "argument --variant: invalid choice"),
        (["play", "--opponent-level", "hard"], "--opponent-level needs --watch"),
    ],
)
def test_bad_arguments_exit_2_with_a_usage_error(argv: list[str], message: str) -> None:
    """Argument errors go to stderr with the usage, exit code 2."""
    code, out, err = run(argv)
    assert (code, out) == (2, "")
    assert message in err


FAMILY = {
    "british": ("british", []),
    "three_hand": ("three_hand", ["--target", "5"]),
    "two_hand": ("two_hand", ["--target", "5"]),
    "six_hand": ("six_hand", ["--target", "5"]),
    "six_hand_double_pack": ("six_hand", ["--target", "5", "--double-pack"]),
    "almonte": ("almonte", ["--target", "5", "--dealer-must-make"]),
    "call_ace": ("call_ace", ["--players", "5", "--target", "5"]),
    "jackpot": ("jackpot", ["--players", "6", "--hands", "3"]),
    "auction": ("auction", ["--target", "10", "--pack", "32"]),
}
"""Each table of RULES.md §4–§7 by name: its variant and its options' flags."""


def numbers(seed: int) -> Policy:
    """Pick a random numbered choice."""
    rng = random.Random(seed)
    return lambda text: str(rng.choice(list(menu(text))))


@pytest.mark.parametrize("table", FAMILY)
def test_every_variant_plays_from_the_terminal_without_showing_a_hidden_card(
    tmp_path: Path, table: str
) -> None:
    """RULES.md §4–§7: the person plays seat 0 to the game's end; no screen shows a card
    hidden from them (other hands, face-down cards, the widow, others' discards)."""
    path = tmp_path / f"{table}.json"
    variant, flags = FAMILY[table]
    argv = ["play", "--variant", variant, "--seed", "5", *flags, "--ascii"]
    code, out, err = run([*argv, "--save", str(path)], numbers(5))
    assert (code, err) == (0, "")
    record, game = saved_game(path)
    assert game.phase is Phase.GAME_OVER and "Game over:" in out
    screens = re.findall(r"^--- Hand .*?^Your choice", out, re.MULTILINE | re.DOTALL)
    replay = Game.from_record({**record, "actions": []})
    asked = 0
    for entry in record["actions"]:
        # A forced move is made without a screen (the one legal action is played).
        if replay.turn == 0 and len(replay.legal_actions(0)) > 1:
            hidden = _hidden_from_seat_0(replay)
            screen = screens[asked][: screens[asked].rindex("\n\n")]  # the table, not the menu
            # A card's whole form: AS is not the start of AS' (the double pack, RULES.md §6).
            shown = [
                c.code
                for c in hidden
                if re.search(rf"(?<![\w']){re.escape(c.code.replace('T', '10'))}(?![\w'])", screen)
            ]
            assert not shown, screen
            asked += 1
        replay.replay(entry)
    assert asked == len(screens) > 0


def until(seen: str, policy: Policy, most: int = 300) -> Policy:
    """``policy`` until the output shows ``seen`` (a regular expression) or after
    ``most`` answers; then end of input, which stops the game."""
    answers = 0

    def answer(text: str) -> str | None:
        nonlocal answers
        answers += 1
        return None if answers > most or re.search(seen, text, re.MULTILINE) else policy(text)

    return answer


def test_auction_tells_the_called_partner_and_each_run_of_discards_once() -> None:
    """RULES.md §7 Auction: the opening line says the bidder calls a partner (not "each
    for yourself"), and a computer maker's hidden discards are one line, "Seat 3
    discards 3 cards.", not "Seat 3 discards a card." three times."""
    argv = ["play", "--variant", "auction", "--seed", "5", "--ascii"]
    code, out, err = run(argv, until(r"^Seat \d discards 3 cards\.$", numbers(5)))
    assert (code, err) == (0, "")
    assert "each for yourself" not in out
    assert "each hand the highest bidder calls a card, and whoever holds it" in out
    assert re.search(r"^Seat \d discards 3 cards\.$", out, re.MULTILINE)
    assert "discards a card" not in out


def test_jackpot_never_says_game_to_100(tmp_path: Path) -> None:
    """RULES.md §7 Jackpot ruling: the game ends on deals (or a march), not on a target;
    its target is a bound no score reaches. Playing, watching and replaying say the
    deals ("2 deals or a march", "deal 1 of 2"), never "game to 100"."""
    path = tmp_path / "jackpot.json"
    argv = ["play", "--variant", "jackpot", "--seed", "5", "--hands", "2", "--save", str(path)]
    code, out, err = run(argv, numbers(5))
    assert (code, err) == (0, "")
    assert "2 deals or a march, seed 5." in out and ", deal 1 of 2)" in out
    code, watched, _ = run(["play", "--variant", "jackpot", "--seed", "5", "--watch"])
    assert code == 0 and "12 deals or a march, seed 5." in watched
    code, replayed, _ = run(["replay", str(path)])
    assert code == 0 and "Jackpot Euchre, 2 deals or a march, seed 5" in replayed
    assert "to 100" not in out + watched + replayed


def test_call_ace_tells_the_secret_partner() -> None:
    """RULES.md §7 Call-Ace: the opening line tells the partner the maker calls."""
    code, out, err = run(["play", "--variant", "call_ace", "--seed", "5"], lambda _: None)
    assert (code, err) == (0, "")
    assert "each for yourself" not in out
    assert "whoever holds its best card is the maker's secret partner" in out


# --- rules, forced moves, stepping, colour ----------------------------------------------


def test_rules_prints_tuque_by_default_and_lists_the_other_games() -> None:
    """``tuque rules``: Tuque's rules in words (ranks as the cards show them, the
    scoring table, the legend), then the other games to ask for."""
    code, out, err = run(["rules"])
    assert (code, err) == (0, "")
    assert out.startswith("Tuque: the rules\n\nThe game\n")
    assert "🃏3 > 🃏2 > 🃏1 > Right Bower > Left Bower" in out
    assert "- 15 to 17: the maker scores 3" in out
    assert "[K♠/▮] a tableau pile" in out
    assert "RULES" not in out and "§" not in out
    assert "Other games: tuque61, euchre, british" in out
    assert all(len(line) <= 78 for line in out.splitlines())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_of_every_variant_in_ascii(variant: str) -> None:
    """Each variant's rules print; with --ascii in the notation only (B3 > B2 > B1)."""
    code, out, _ = run(["rules", variant, "--ascii"])
    assert code == 0
    assert out.startswith(f"{VARIANTS[variant].title}: the rules\n")
    assert out.isascii()
    if variant == "almonte":
        assert "B3 > B2 > B1 > Right Bower" in out


def test_rules_of_an_unknown_game_is_a_usage_error() -> None:
    """A variant that does not exist: exit code 2 and the choices."""
    code, out, err = run(["rules", "pepper"])
    assert (code, out) == (2, "")
    assert "invalid choice: 'pepper'" in err


def test_a_forced_move_is_made_for_the_person_with_a_line_saying_so() -> None:
    """Tuque's 17th trick leaves one card: it is played without asking, and said so."""
    code, out, _ = run(["play", "--seed", "3", "--target", "1", "--level", "random"], always_one)
    assert code == 0
    forced = re.findall(
        r"^Trick (\d+): .*your only choice is made for you: Play (\S+) \((hand|tableau)\)\.\n"
        r"(.*)$",
        out,
        re.M,
    )
    assert "17" in [trick for trick, _, _, _ in forced]
    for _, card, source, said in forced:
        # The card named is the card played, narrated on the next line.
        assert said == f"You play {card}" + (" from the tableau." if source == "tableau" else ".")
    assert "Your choice [1]" not in out


def test_step_waits_for_enter_between_moves_and_quit_stops() -> None:
    """``--watch --step``: after the deal and after each move shown, an Enter is awaited."""
    answers = iter(["", "", "", "quit"])
    argv = ["play", "--watch", "--step", "--seed", "6", "--level", "random"]
    code, out, _ = run(argv, lambda _: next(answers))
    assert code == 0
    prompts = re.findall(r"^Enter: next move; 'quit' stops\. (.*)$", out, re.M)
    assert prompts == ["", "", "", "quit"]
    after_deal = out[out.index("=== Hand 1") :]
    assert re.search(r"tableau .*\nEnter: next move", after_deal)
    assert out.endswith("quit\nGame stopped.\n")


def test_step_needs_watch() -> None:
    """--step without --watch is a usage error (the person's own moves already wait)."""
    code, _, err = run(["play", "--step"])
    assert code == 2 and "--step needs --watch" in err


def test_replay_step_stops_at_end_of_input(tmp_path: Path) -> None:
    """``tuque replay --step`` waits after each move; end of input stops the replay."""
    path = tmp_path / "g.json"
    run(
        [
            "play",
            "--watch",
            "--seed",
            "2",
            "--target",
            "1",
            "--level",
            "random",
            "--save",
            str(path),
        ]
    )
    answers = iter(["", ""])
    code, out, _ = run(["replay", "--step", str(path)], lambda _: next(answers, None))
    assert code == 0
    assert out.count("Enter: next move") == 3
    assert out.endswith("Replay stopped.\n")


class Terminal(io.StringIO):
    """An output that says it is a terminal, as a person's screen is."""

    def isatty(self) -> bool:
        return True


def run_on_terminal(argv: list[str], policy: Policy) -> str:
    out = Terminal()
    assert main(argv, stdin=Keyboard(out, policy), stdout=out) == 0
    return out.getvalue()


def test_on_a_terminal_cards_are_coloured_and_computers_think(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red suits print red, trump is bold and underlined, and "thinking…" shows while a
    computer decides; none of it reaches a file (the other tests' output)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    out = run_on_terminal(["play", "--seed", "3", "--level", "random"], always_one)
    red = re.compile(r"\x1b\[31m(?:10|[6-9JQKA])[♥♦]\x1b\[0m")
    assert red.search(out)
    assert re.search(r"\x1b\[1;4;(?:31m(?:10|[6-9JQKA])[♥♦]|35m🃏\d)", out)  # a trump card
    assert "CPU 2 is thinking…" in out
    plain = run(["play", "--seed", "3", "--level", "random"], always_one)[1]
    assert "\x1b" not in plain and "thinking" not in plain


def test_no_color_keeps_a_terminal_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR set: no colour or style codes around the text (no-color.org)."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    out = run_on_terminal(["play", "--seed", "3", "--level", "random"], always_one)
    assert not re.search(r"\x1b\[[0-9;]*m", out)
    assert "Your hand: A♣ 10♣ | 7♦ | 10♥ 9♥ 8♥ | 8♠\n" in out


_HINT = re.compile(r"^(💡 )?Hint: (\d+)\) (.+?) (—|-) (.+)\. ([A-Z].*)\.$", re.M)
_SURE = ("A clear choice", "The best choice", "A narrow choice", "A close call", "A rule of thumb")


@pytest.mark.parametrize("ascii_only", [False, True])
def test_hint_names_the_menu_choice_why_and_how_sure(
    monkeypatch: pytest.MonkeyPatch, ascii_only: bool
) -> None:
    """'hint' shows the hard computer's choice by its menu number and label, why in a
    player's words, and how sure in words (engine/advice.py); asked twice on one screen
    it says the same without searching again; following it plays on."""
    monkeypatch.setattr("engine.cli.HINT_SECONDS", 0.05)
    searches = 0
    real = engine.cli._advisor

    def counted(seed: int | None) -> engine.cli.Advice:
        advise = real(seed)

        def count(view: PlayerView) -> tuple[Action, Mapping[int, float]]:
            nonlocal searches
            searches += 1
            return advise(view)

        return count

    monkeypatch.setattr("engine.cli._advisor", counted)

    def policy(text: str) -> str:
        if text.count("--- Hand") > 6:
            return "quit"
        hints = _HINT.findall(last_screen(text))
        return "hint" if len(hints) < 2 else hints[-1][1]

    argv = ["play", "--seed", "2", "--level", "random", "--variant", "euchre"]
    code, out, _ = run(argv + ["--ascii"] * ascii_only, policy)
    assert code == 0 and out.endswith("quit\nGame stopped.\n")
    screens = out.split("--- Hand")[1:-1]
    assert len(screens) == 6 and searches == 6
    for screen in screens:
        choices = screen[: screen.index("Your choice")]
        entries = (_MENU_ENTRY.match(e) for e in re.split(r"\s{3,}|\n", choices))
        labels = {int(m[1]): m[2] for m in entries if m}
        first, second = _HINT.findall(screen)
        assert first == second
        emoji, number, label, dash, why, sure = first
        assert (emoji, dash) == (("", "-") if ascii_only else ("💡 ", "—"))
        assert labels[int(number)] == label  # the hint marks the choice it means
        assert why[0].islower() and sure.startswith(_SURE)
        assert f"Your choice [1-{len(labels)}]: {number}\n" in screen  # and it was followed
    if ascii_only:
        assert "💡" not in out and " — " not in out
