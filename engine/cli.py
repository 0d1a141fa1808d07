"""The ``tuque`` command: play against the computer, watch computers play, replay a saved game.

``main`` takes its arguments and streams as parameters so that tests drive it
with scripted input; ``docs/terminal.md`` shows a session. All the text comes
from :mod:`engine.render_text`; this module only runs the game loop and talks
to the person.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TextIO

from engine.actions import Action, Discard, Play, parse_action
from engine.cards import Card
from engine.errors import IllegalAction, RecordError
from engine.game import Deal, Game
from engine.players import LEVELS, make_player
from engine.render_text import FullPile, TextRenderer
from engine.variants import VARIANTS, Variant
from engine.view import Phase, PlayerView

__all__ = ["main"]

EXIT_OK = 0
EXIT_SAVE_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # the shell's code for a program ended by Ctrl-C (128 + SIGINT)

_QUIT_WORDS = frozenset({"quit", "exit", "q"})
_HELP_WORDS = frozenset({"help", "?", "h"})
_SYMBOLS = "♣♦♥♠🃏▮—"


class Console:
    """The person's terminal: lines out, answers in.

    Args:
        stdin: where answers are read; end of input raises :class:`EOFError`.
        stdout: where every line is written.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout

    def say(self, text: str = "") -> None:
        """Write ``text`` and a newline."""
        self.stdout.write(text + "\n")

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the answer without its newline.

        Raises:
            EOFError: the input has ended.
        """
        if self.stdin is sys.stdin and self.stdout is sys.stdout and sys.stdin.isatty():
            return input(prompt)  # a real terminal: input() gives line editing
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        answer = line.rstrip("\r\n")
        self.stdout.write(answer + "\n")  # echoed so that a transcript reads like a session
        return answer


class _Quit(Exception):
    """The person typed ``quit``."""


class Table:
    """Runs one game and prints what its reader may see as it happens.

    Args:
        game: the game, in any phase.
        renderer: the text for this table.
        console: where the narration goes.
        reader: the seat whose view is narrated (``None``: the public view).
        review: watching or replaying: every hand is shown at the deal, every
            discard is named, and each trick is printed on one line once complete.
    """

    def __init__(
        self,
        game: Game,
        renderer: TextRenderer,
        console: Console,
        *,
        reader: int | None,
        review: bool,
    ) -> None:
        self.game = game
        self.renderer = renderer
        self.console = console
        self.reader = reader
        self.review = review
        self._from_tableau: set[Card] = set()

    def run(self, choose: Callable[[int], Action]) -> None:
        """Deal and play until the game is over; ``choose(seat)`` gives each seat's action."""
        game = self.game
        while game.phase is not Phase.GAME_OVER:
            if game.turn is None:
                game.deal()
                self.dealt()
            else:
                seat = game.turn
                self.step(seat, choose(seat))

    def dealt(self) -> None:
        """Announce the hand just dealt (with every card in review)."""
        view = self.game.view(self.reader)
        if not self.review:
            self.console.say(self.renderer.hand_start(view))
            return
        deal = self.game.log[-1]
        assert isinstance(deal, Deal)
        hands = [self.game.hand_of(s) for s in range(view.players)]
        self.console.say(self.renderer.full_deal(view, hands, _tableaus(self.game.variant, deal)))

    def step(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` and narrate it and whatever it completes.

        Raises:
            IllegalAction: the action is not legal (nothing is printed or changed).
        """
        game, r, say = self.game, self.renderer, self.console.say
        before = game.view(self.reader)
        game.apply(seat, action)
        after = game.view(self.reader)
        if isinstance(action, Play) and action.card in before.face_up(seat):
            self._from_tableau.add(action.card)
        if not (self.review and isinstance(action, Play)):
            say(r.action_line(before, seat, action, after, reveal=self.review))
        if len(after.tricks) > len(before.tricks):
            if self.review:
                say(r.trick_summary(after, frozenset(self._from_tableau)))
            else:
                say(r.trick_won(after))
            self._from_tableau.clear()
            for line in r.turned_up(before, after):
                say(line)
        if after.last_hand is not before.last_hand and after.last_hand is not None:
            say(r.hand_result(after.last_hand, after.target))
        if after.phase is Phase.GAME_OVER:
            say(r.game_result(after))


def _tableaus(variant: Variant, deal: Deal) -> list[list[FullPile]]:
    """Each seat's piles as dealt, in the layout :meth:`Game.deal` documents.

    Seat by seat: the face-down cards of the piles, the face-up cards on them, then
    the hand (docs/rulings.md R3). No view pairs a face-down card with its pile,
    so review reads the deal itself.
    """
    piles, stride = variant.tableau_piles, 2 * variant.tableau_piles + variant.hand_size
    result = []
    for seat in range(variant.players):
        start = seat * stride
        down = deal.cards[start : start + piles]
        up = deal.cards[start + piles : start + 2 * piles]
        result.append(list(zip(up, down, strict=True)))
    return result


class Person:
    """The person at the keyboard: shows their screen and reads their choice.

    Args:
        game: the game being played.
        seat: the person's seat.
        renderer: the text for this table.
        console: the terminal.
    """

    def __init__(self, game: Game, seat: int, renderer: TextRenderer, console: Console) -> None:
        self.game = game
        self.seat = seat
        self.renderer = renderer
        self.console = console

    def choose(self) -> Action:
        """Show the screen and the numbered choices, and ask until a legal action is given.

        Raises:
            EOFError: the input ended.
            _Quit: the person typed ``quit``.
        """
        view = self.game.view(self.seat)
        legal = view.legal_actions
        say = self.console.say
        say()
        say(self.renderer.screen(view))
        say(self.renderer.menu(view))
        while True:
            choices = "1" if len(legal) == 1 else f"1-{len(legal)}"
            text = self.console.ask(f"Your choice [{choices}]: ").strip()
            word = text.lower()
            if word in _QUIT_WORDS:
                raise _Quit
            if not text or word in _HELP_WORDS:
                say(self.renderer.input_help(view))
                continue
            if text.isdigit():
                number = int(text)
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                say(f"There is no choice {number}: type a number from 1 to {len(legal)}.")
                continue
            try:
                action = self._parse(text, view)
            except ValueError as err:
                say(f"Sorry, I don't understand that: {err}.")
                say(self.renderer.input_help(view))
                continue
            try:
                self.game.check(self.seat, action)
            except IllegalAction as err:
                say(str(err))
                continue
            return action

    def _parse(self, text: str, view: PlayerView) -> Action:
        """An action from a menu label, the action notation, or a bare card.

        Raises:
            ValueError: none of these.
        """
        legal = view.legal_actions
        for action in legal:
            if self.renderer.action_label(view, action).lower() == text.lower():
                return action
        try:
            return parse_action(text)
        except ValueError as not_an_action:
            # A bare card ("10h") plays it, or discards it while the dealer discards.
            verb = Discard if any(isinstance(a, Discard) for a in legal) else Play
            try:
                return verb(Card.parse(text))
            except ValueError:
                raise not_an_action from None


# --- commands -------------------------------------------------------------------------


def _seat_name(variant: Variant, seat: int) -> str:
    return TextRenderer(variant).names[seat]


def _seat_seed(game: Game, seat: int) -> int:
    # Each computer gets its own seed, derived from the game's, so a seeded game
    # replays the same and two computers never mirror each other's random choices.
    return game.seed * 16 + seat


def _new_game(args: argparse.Namespace) -> Game:
    """The game the options ask for.

    Raises:
        ValueError: an option the variant does not allow (the message says which).
    """
    variant = VARIANTS[args.variant]
    options: dict[str, object] = {
        "target": args.target,
        "players": args.players,
        "pack": args.pack,
        "hands": args.hands,
    }
    # Tuque always sticks the dealer (RULES.md §1), so the flag only matters elsewhere.
    if args.stick_the_dealer and not variant.defaults.stick_the_dealer:
        options["stick_the_dealer"] = True
    for flag in ("no_alone_after_pass", "dealer_must_make", "double_pack"):
        if getattr(args, flag):
            options[flag] = True
    return Game(variant, seed=args.seed, **options)


def _save(game: Game, path: Path | None, console: Console, err: TextIO) -> bool:
    """Write the game record to ``path`` (if any); ``False`` when writing failed."""
    if path is None:
        return True
    try:
        path.write_text(json.dumps(game.to_record(), indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        err.write(f"tuque: could not save the game to {path}: {error.strerror or error}\n")
        return False
    console.say(f"Game saved to {path}.")
    return True


def _play(args: argparse.Namespace, console: Console, err: TextIO) -> int:
    if args.opponent_level and not args.watch:
        err.write("tuque play: error: --opponent-level needs --watch (use --level)\n")
        return EXIT_USAGE
    try:
        game = _new_game(args)
    except ValueError as error:
        err.write(f"tuque play: error: {error}\n")
        return EXIT_USAGE
    variant = game.variant
    target = game.options.target
    if args.watch:
        renderer = TextRenderer(variant, ascii_only=args.ascii)
        levels = [
            args.level if variant.sides[s] == 0 else args.opponent_level or args.level
            for s in range(variant.players)
        ]
        computers = {s: make_player(levels[s], _seat_seed(game, s)) for s in range(variant.players)}
        sides = " against ".join(
            f"{name} ({levels[variant.sides.index(side)]})"
            for side, name in enumerate(renderer.side_names)
        )
        console.say(f"{variant.title}: {sides}. Game to {target}, seed {game.seed}.")
        table = Table(game, renderer, console, reader=None, review=True)
        person = None
    else:
        renderer = TextRenderer(variant, you=0, ascii_only=args.ascii)
        computers = {
            s: make_player(args.level, _seat_seed(game, s)) for s in range(1, variant.players)
        }
        person = Person(game, 0, renderer, console)
        goal = f"{game.options.hands} deals or a march" if variant.chips else f"Game to {target}"
        console.say(
            f"{variant.title} against the computer ({args.level}). {goal}, seed {game.seed}."
        )
        if variant.teams:
            partners = [
                renderer.names[s] for s in range(1, variant.players) if variant.sides[s] == 0
            ]
            console.say(
                f"You sit {_seat_name(variant, 0)}; your partners ({', '.join(partners)}) "
                "are computers too."
            )
        elif variant.players > 2:
            console.say(f"You play each for yourself against {variant.players - 1} computers.")
        console.say("Type the number of a choice or the action itself; 'help' explains more.")
        table = Table(game, renderer, console, reader=0, review=False)

    def choose(seat: int) -> Action:
        if person is not None and seat == person.seat:
            return person.choose()
        return computers[seat].choose(game.view(seat), game.legal_actions(seat))

    code = EXIT_OK
    try:
        table.run(choose)
    except KeyboardInterrupt:
        console.say("\nInterrupted: game stopped.")
        code = EXIT_INTERRUPTED
    except EOFError:
        console.say("\nEnd of input: game stopped.")
    except _Quit:
        console.say("Game stopped.")
    if not _save(game, args.save, console, err):
        return code or EXIT_SAVE_FAILED
    return code


def _replay(args: argparse.Namespace, console: Console, err: TextIO) -> int:
    path: Path = args.file
    try:
        text = path.read_text(encoding="utf-8")
        try:
            record = json.loads(text)
        except RecursionError:
            raise RecordError("its JSON is nested too deeply") from None
        except ValueError as error:
            if isinstance(error, json.JSONDecodeError):
                raise
            # Python refuses to read integers of more than 4,300 digits.
            raise RecordError("it holds a number too long to read") from None
        Game.from_record(record)  # check the whole record before printing anything
    except OSError as error:
        err.write(f"tuque replay: error: cannot read {path}: {error.strerror or error}\n")
        return EXIT_USAGE
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        err.write(f"tuque replay: error: {path} is not a JSON file: {error}\n")
        return EXIT_USAGE
    except RecordError as error:
        err.write(f"tuque replay: error: {path} is not a valid game record: {error}\n")
        return EXIT_USAGE
    game = Game.from_record({**record, "actions": []})
    renderer = TextRenderer(game.variant, ascii_only=args.ascii)
    first = renderer.names[game.first_dealer]
    console.say(
        f"Replay of {path}: {game.variant.title}, game to {game.options.target}, "
        f"seed {game.seed}, {first} dealt first."
    )
    table = Table(game, renderer, console, reader=None, review=True)
    try:
        for entry in record["actions"]:
            if entry.startswith("deal "):
                game.replay(entry)
                table.dealt()
            else:
                assert game.turn is not None
                table.step(game.turn, parse_action(entry))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    if game.phase is not Phase.GAME_OVER:
        console.say(renderer.unfinished(game.view(None)))
    return EXIT_OK


# --- arguments ------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _parser() -> argparse.ArgumentParser:
    levels = list(LEVELS)
    display = argparse.ArgumentParser(add_help=False)
    display.add_argument(
        "--ascii",
        action="store_true",
        help="show cards as 10H, AS, B3 instead of 10♥, A♠, 🃏3 (for terminals without "
        "those symbols; chosen automatically when the output cannot print them)",
    )
    parser = argparse.ArgumentParser(
        prog="tuque",
        description="Tuque and the Euchre family in a terminal: play against the computer, "
        "watch computers play, or replay a saved game. Output is plain text.",
        epilog="Run 'tuque COMMAND --help' for a command's options.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser(
        "play",
        parents=[display],
        help="play a game against the computer (or watch one with --watch)",
        description=(
            "Play a whole game against the computer. Each turn shows your hand, the\n"
            "tableaus, trump and the trick, then numbered choices: type a number or the\n"
            "action itself ('pass', 'order', 'name hearts', 'play 10h'). 'quit', Ctrl-C\n"
            "or Ctrl-D stop the game. In Euchre your partner (North) is a computer too."
        ),
        epilog=(
            "examples:\n"
            "  tuque play\n"
            "  tuque play --variant euchre --level hard --save game.json\n"
            "  tuque play --watch --seed 7 --level easy --opponent-level hard"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument(
        "--variant",
        choices=list(VARIANTS),
        default="tuque",
        help="the game (RULES.md): "
        + "; ".join(f"{name}: {v.title}" for name, v in VARIANTS.items())
        + "; default: %(default)s",
    )
    play.add_argument(
        "--players",
        type=int,
        choices=(4, 5, 6),
        help="call_ace and jackpot: seats at the table (default 4)",
    )
    play.add_argument(
        "--pack",
        type=int,
        choices=(24, 25, 28, 32),
        help="three_hand and two_hand: 25 (with the joker) or 24; auction: 28 or 32",
    )
    play.add_argument(
        "--hands", type=_positive, metavar="N", help="jackpot: deals before the game ends"
    )
    play.add_argument(
        "--no-alone-after-pass",
        action="store_true",
        help="british, six_hand: a player who passed in the round trump was made can't go alone",
    )
    play.add_argument(
        "--dealer-must-make",
        action="store_true",
        help="almonte: the dealer who named the suit for a turned-up Ben must take it",
    )
    play.add_argument(
        "--double-pack",
        action="store_true",
        help="six_hand: the 50-card double pack (two of each 9-A, two jokers)",
    )
    play.add_argument("--seed", type=int, help="seed for the deals and the computers")
    play.add_argument(
        "--target", type=_positive, metavar="N", help="points that win (default: the variant's)"
    )
    play.add_argument(
        "--level",
        choices=levels,
        default="normal",
        help="the computer's level (with --watch: South's side); default: %(default)s",
    )
    play.add_argument(
        "--opponent-level",
        choices=levels,
        help="with --watch: the other side's level (default: the same as --level)",
    )
    play.add_argument(
        "--stick-the-dealer",
        action="store_true",
        help="Euchre: the dealer must name trump if all pass twice (always so in Tuque)",
    )
    play.add_argument(
        "--watch",
        action="store_true",
        help="computer against computer, every card shown",
    )
    play.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record (JSON) to FILE when the game ends or stops",
    )
    play.set_defaults(run=_play)
    replay = commands.add_parser(
        "replay",
        parents=[display],
        help="print a saved game hand by hand",
        description="Print a game saved with 'tuque play --save': each deal with every "
        "hand and tableau, the bidding, every trick, each hand's result and the score.",
    )
    replay.add_argument("file", type=Path, metavar="FILE", help="the saved game (JSON)")
    replay.set_defaults(run=_replay)
    return parser


def _can_print_symbols(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True  # an in-memory stream holds any text
    try:
        _SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the ``tuque`` command and return its exit code.

    Args:
        argv: the arguments (default: the command line).
        stdin, stdout, stderr: the streams (default: the process's).

    Returns:
        0 on success or when the person stops the game; 1 if the game could not be
        saved; 2 for bad arguments or a bad replay file; 130 after Ctrl-C.
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    try:
        # argparse prints help and usage errors on sys.stdout/sys.stderr itself.
        with redirect_stdout(out), redirect_stderr(err):
            args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    args.ascii = args.ascii or not _can_print_symbols(out)
    console = Console(stdin if stdin is not None else sys.stdin, out)
    try:
        return args.run(args, console, err)
    except BrokenPipeError:
        # The reader went away (e.g. `tuque replay game.json | head`): stop quietly,
        # and point stdout at nothing so the interpreter's final flush cannot fail.
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
