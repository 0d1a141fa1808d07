"""The rest of the family (RULES.md §4–§7), one rule per test, on explicit deals.

Seat 0 deals unless a test says otherwise, so seat 1 is eldest. Cards not named are
filled in from the pack in index order (see ``build_deal``).
"""

from __future__ import annotations

import pytest

from engine.actions import (
    Ask,
    Bid,
    CallSuit,
    GoAlone,
    NameTrump,
    OrderUp,
    Pass,
    TakeUp,
    TurnDown,
)
from engine.cards import Card, Suit
from engine.errors import IllegalAction
from engine.game import Game
from engine.view import Phase


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def play_first_legal(game: Game) -> None:
    """Finish the hand, each seat playing its first legal card."""
    while game.phase is Phase.PLAY:
        game.apply(game.turn, game.legal_actions(game.turn)[0])  # type: ignore[arg-type]


# --- §4 British Euchre ------------------------------------------------------------------------


def test_british_pack_is_25_cards_with_benny(deal_game) -> None:
    """§4 Pack: 9–A and one joker, B1."""
    game = deal_game("british")
    assert len(game.variant.pack) == 25 and Card.parse("B1") in game.variant.pack


def test_british_dealers_partner_may_turn_it_down_not_order_it_up(deal_game, act) -> None:
    """§4 Round 1: the dealer's partner passes or turns it down; eldest and the dealer's
    right order it up; the dealer takes it up."""
    game = deal_game("british", up_card="9H")
    assert game.legal_actions(1) == (Pass(), OrderUp())
    act(game, "pass")
    assert game.legal_actions(2) == (Pass(), TurnDown())
    with pytest.raises(IllegalAction, match="turn it down"):
        game.apply(2, OrderUp())
    act(game, "pass")
    assert game.legal_actions(3) == (Pass(), OrderUp())
    act(game, "pass")
    assert game.legal_actions(0) == (Pass(), TakeUp())


def test_british_turn_it_down_is_alone_in_the_turned_suit(deal_game, act) -> None:
    """§4: turning it down makes the turned suit trump, the partner alone, the dealer out."""
    game = deal_game("british", up_card="9H")
    act(game, "pass", "turn down")
    view = game.view(None)
    assert (game.trump, game.maker, game.alone, view.out) == (Suit.HEARTS, 2, 2, (0,))
    assert Card.parse("9H") not in game.hand_of(0)  # the dealer does not pick up


def test_british_benny_turned_up_dealer_names_trump_unseen(deal_game, act) -> None:
    """§4 Benny turned up: the dealer names trump before seeing their hand, is maker,
    then adds the Benny and discards."""
    game = deal_game("british", up_card="B1", hands={0: "9C TC JC QC KC"})
    view = game.view(0)
    assert (game.phase, game.turn, view.blind, view.hand) == (Phase.BLIND_NAMING, 0, True, ())
    assert game.legal_actions(0) == tuple(NameTrump(s) for s in Suit)
    act(game, "name S")
    assert (game.trump, game.maker) == (Suit.SPADES, 0)
    assert game.view(0).hand != ()
    while game.phase is Phase.GOING_ALONE:
        act(game, "pass")
    assert (game.phase, game.turn, Card.parse("B1") in game.hand_of(0)) == (Phase.DISCARD, 0, True)


def test_british_benny_turned_up_others_see_their_hands(deal_game) -> None:
    """§4: only the dealer's own hand is hidden while they name trump."""
    game = deal_game("british", up_card="B1", hands={1: "9C TC JC QC KC"})
    assert game.view(1).hand == cards("9C TC JC QC KC")


def test_british_anyone_may_go_alone_after_trump_is_made(deal_game, act) -> None:
    """§4 Alone: every player is asked in turn from the maker, defenders too."""
    game = deal_game("british", up_card="9H")
    act(game, "order")  # seat 1 makes
    asked = []
    while game.phase is Phase.GOING_ALONE:
        asked.append(game.turn)
        act(game, "pass")
    assert asked == [1, 2, 3, 0]


def test_british_a_loners_partner_is_not_asked(deal_game, act) -> None:
    """§4: a side has one loner; the loner's partner sits out and is not asked."""
    game = deal_game("british", up_card="9H")
    act(game, "order", "alone")  # seat 1 alone: seat 3 sits out
    asked = []
    while game.phase is Phase.GOING_ALONE:
        asked.append(game.turn)
        act(game, "pass")
    assert (asked, game.view(None).out) == ([2, 0], (3,))


def test_british_two_loners_the_defender_leads(deal_game, act) -> None:
    """§4: with a loner on each side the defender leads."""
    game = deal_game("british", up_card="9H", dealer=0)
    act(game, "order", "alone", "alone")  # seat 1 (maker) alone; seat 2 alone for the defenders
    assert (game.alone, game.view(None).lone_defender, game.phase, game.turn) == (
        1,
        2,
        Phase.PLAY,
        2,
    )


def test_british_one_loner_their_left_leads(deal_game, act) -> None:
    """§4: one loner: the player on the loner's left leads."""
    game = deal_game("british", up_card="9H", dealer=0)
    act(game, "pass", "pass", "order", "alone", "pass", "pass")  # seat 3 alone, seat 1 out
    # The dealer (seat 0) is on the defenders' side: picks up and discards first.
    act(game, "discard 9H")
    assert (game.phase, game.turn) == (Phase.PLAY, 0)


def test_british_lone_defender_who_euchres_scores_4(deal_game, act) -> None:
    """§4 Scoring: a defender alone who euchres the makers scores 4."""
    game = deal_game(
        "british",
        up_card="9C",
        hands={1: "9D TD 9S TS QD", 2: "B1 JC JS AC KC", 3: "TH 9H QS KS KD"},
    )
    act(game, "order", "pass", "alone", "pass")  # seat 2 defends alone; seat 0 sits out
    play_first_legal(game)
    result = game.hand_results[-1]
    assert (result.euchred, result.lone_defender, result.points) == (True, 2, (4, 0))


def test_british_no_alone_after_pass_option(deal_game, act) -> None:
    """§4 option: a player who passed in the round trump was made may not go alone."""
    game = deal_game("british", up_card="9H", options={"no_alone_after_pass": True})
    act(game, "pass", "pass", "order")  # seats 1 and 2 passed; seat 3 makes
    asked = []
    while game.phase is Phase.GOING_ALONE:
        asked.append(game.turn)
        act(game, "pass")
    assert asked == [3, 0]


def test_british_all_pass_twice_throws_the_hand_in(deal_game, act) -> None:
    """§4: all four pass twice: thrown in, no score, the next player deals."""
    game = deal_game("british", up_card="9H")
    act(game, *["pass"] * 8)
    assert (game.phase, game.hand_results[-1].thrown_in) == (Phase.HAND_OVER, True)
    game.deal()
    assert game.dealer == 1


@pytest.mark.parametrize("target", [10, 11, 21])
def test_british_targets(target: int) -> None:
    """§4: game to 10 by default; 11 and 21 are options."""
    assert Game("british", target=target).options.target == target


def test_british_refuses_another_target() -> None:
    with pytest.raises(ValueError, match="10, 11 or 21"):
        Game("british", target=15)


# --- §5 three- and two-hand -----------------------------------------------------------------


def test_three_hand_each_bids_for_themself_and_plays_alone(deal_game, act) -> None:
    """§5: the maker plays alone against the other two together; nobody sits out."""
    game = deal_game("three_hand", up_card="9H")
    act(game, "order", "discard 9H")
    assert (game.maker, game.phase, game.turn, game.view(None).out) == (1, Phase.PLAY, 1, ())


def test_three_hand_euchred_maker_loses_2(deal_game, act) -> None:
    """§5 Scoring: euchred, the maker loses 2 (scores may go negative)."""
    game = deal_game(
        "three_hand",
        up_card="9C",
        hands={1: "9D TD 9S TS QD", 2: "B1 JC JS AC KC", 0: "AH KH QH AS KS"},
    )
    act(game, "order", "discard 9C")
    play_first_legal(game)
    assert (game.hand_results[-1].points, game.scores) == ((0, -2, 0), (0, -2, 0))


def test_three_hand_march_scores_2(deal_game, act) -> None:
    """§5 Scoring: the march scores 2 for the maker alone."""
    game = deal_game("three_hand", up_card="9C", hands={1: "B1 JC JS AC KC", 2: "9D TD 9S TS QD"})
    act(game, "order", "discard 9C")
    play_first_legal(game)
    assert game.hand_results[-1].points == (0, 2, 0)


def test_three_hand_24_card_option_has_no_joker() -> None:
    """§5 option: 24 cards, no joker."""
    game = Game("three_hand", pack=24)
    assert len(game.variant.pack) == 24 and not any(c.is_ben for c in game.variant.pack)


def test_two_hand_is_three_hand_one_player_short() -> None:
    """§5: two players, the same rules."""
    game = Game("two_hand")
    assert (game.variant.players, game.variant.sides, game.variant.makers) == (2, (0, 1), "solo")


# --- §6 six-hand and Almonte ----------------------------------------------------------------


def test_six_hand_two_teams_of_three_alternate() -> None:
    """§6: teams of three, each player flanked by opponents; 33 cards, 5 each."""
    v = Game("six_hand").variant
    assert (v.sides, len(v.pack), v.hand_size, v.kitty_size) == ((0, 1, 0, 1, 0, 1), 33, 5, 2)


def test_six_hand_loner_asks_a_partner_for_a_card(deal_game, act) -> None:
    """§6: a loner's partners lay down their hands; the loner asks one of them for a
    card (that partner chooses it) and discards one face down."""
    game = deal_game("six_hand", up_card="7H", hands={1: "B1 JH JD AH 7C", 3: "AS KS QS JS TS"})
    act(game, "order", "alone")
    while game.phase is Phase.GOING_ALONE:
        act(game, "pass")
    act(game, "discard 7H")  # the dealer, a defender, picks up first
    assert game.phase is Phase.CARD_REQUEST and game.turn == 1
    assert game.legal_actions(1) == (Pass(), Ask(3), Ask(5))
    act(game, "ask 3")
    assert (game.phase, game.turn) == (Phase.GIVING, 3)
    act(game, "give AS")
    assert (game.phase, game.turn, Card.parse("AS") in game.hand_of(1)) == (
        Phase.DISCARD,
        1,
        True,
    )
    act(game, "discard 7C")
    view = game.view(None)
    assert (game.phase, view.out, game.turn) == (Phase.PLAY, (3, 5), 2)
    assert Card.parse("AS") not in game.view(0).hand  # nobody else saw the gift


def test_six_hand_gift_is_not_shown_to_others(deal_game, act) -> None:
    """§6: the card given is seen by the giver and the loner only."""
    game = deal_game("six_hand", up_card="7H", hands={1: "B1 JH JD AH 7C", 3: "AS KS QS JS TS"})
    act(game, "order", "alone")
    while game.phase is Phase.GOING_ALONE:
        act(game, "pass")
    act(game, "discard 7H", "ask 3", "give AS")
    for seat in (0, 2, 4, 5, None):
        view = game.view(seat)
        assert Card.parse("AS") not in view.hand
        assert all(str(a) != "give AS" for _, a in view.bids)


@pytest.mark.parametrize(
    ("made", "alone", "points"),
    [(5, False, (3, 0)), (5, True, (6, 0)), (3, False, (1, 0))],
)
def test_six_hand_scoring(made: int, alone: bool, points: tuple[int, int]) -> None:
    """§6: march 3 (alone 6); 3–4 tricks 1."""
    v = Game("six_hand").variant
    assert v.score_hand(made, 5 - made, alone) == points


def test_six_hand_euchre_scores_3() -> None:
    """§6: a euchre scores 3 (6 for a lone defender)."""
    v = Game("six_hand").variant
    assert (v.score_hand(2, 3, False), v.score_hand(2, 3, False, True)) == ((0, 3), (0, 6))


def test_six_hand_the_dealer_discards_before_the_loners_ask(deal_game, act) -> None:
    """Ruling R28: the dealer picks up and discards first; then the maker's loner asks,
    then the lone defender; a dealer who is a loner discards a second time for the gift."""
    game = deal_game("six_hand", up_card="7H", hands={0: "9S TS QS KS AS", 1: "B1 JH JD AH KH"})
    act(game, "order", "alone", "pass", "pass", "alone")  # seat 1, then seat 0 defends alone
    assert (game.alone, game.view(None).lone_defender) == (1, 0)
    assert (game.phase, game.turn, len(game.hand_of(0))) == (Phase.DISCARD, 0, 6)
    act(game, "discard 9S")
    assert (game.phase, game.turn) == (Phase.CARD_REQUEST, 1)
    act(game, "ask 3", "give QC", "discard QC")
    assert (game.phase, game.turn) == (Phase.CARD_REQUEST, 0)
    act(game, "ask 2", "give 7C")
    assert (game.phase, game.turn, len(game.hand_of(0))) == (Phase.DISCARD, 0, 6)
    act(game, "discard 7C")
    assert (game.phase, game.turn) == (Phase.PLAY, 0)  # two loners: the defender leads


def _lone_march(seat: int) -> dict[str, object]:
    """A six-hand deal on which ``seat`` holds the five best hearts, the up-card's suit."""
    return {"up_card": "7H", "hands": {seat: "B1 JH JD AH KH"}}


def test_six_hand_is_played_to_10(deal_game, build_deal, act) -> None:
    """Ruling R27: six-hand is played to 10 (§4's game): a lone march scores 6 and does
    not end it; a second one, to 12, does."""
    game = deal_game("six_hand", dealer=0, **_lone_march(1))
    assert game.options.target == 10
    act(game, "order", "alone", *["pass"] * 3, "discard 8C", "pass")
    play_first_legal(game)
    assert (game.scores, game.phase) == ((0, 6), Phase.HAND_OVER)
    game.deal(build_deal("six_hand", **_lone_march(3)))  # seat 1 deals, sits out: no pick-up
    act(game, "pass", "order", "alone", *["pass"] * 3, "pass")
    play_first_legal(game)
    assert (game.scores, game.phase, game.winner) == ((0, 12), Phase.GAME_OVER, 1)


def test_almonte_pack_has_three_bens() -> None:
    """§6 Almonte: 31 cards, 8–A and B1 B2 B3; six players, game 15."""
    game = Game("almonte")
    v = game.variant
    assert (len(v.pack), v.players, v.kitty_size, game.options.target) == (31, 6, 0, 15)
    assert {c.code for c in v.pack if c.is_ben} == {"B1", "B2", "B3"}


def test_almonte_joker_up_dealer_names_the_suit_unseen(deal_game, act) -> None:
    """§6 Almonte: a joker turned up: the dealer names a suit before looking at their
    cards, and the bidding goes on for that suit."""
    game = deal_game("almonte", up_card="B2")
    assert (game.phase, game.turn, game.view(0).hand) == (Phase.BLIND_NAMING, 0, ())
    act(game, "name D")
    view = game.view(1)
    assert (game.phase, game.turn, view.bid_suit, game.maker) == (
        Phase.BIDDING_1,
        1,
        Suit.DIAMONDS,
        None,
    )
    act(game, "order")
    assert game.trump is Suit.DIAMONDS


def test_almonte_option_the_dealer_must_make(deal_game, act) -> None:
    """§6 Almonte option: the dealer who named the suit must be maker if all pass."""
    game = deal_game("almonte", up_card="B1", options={"dealer_must_make": True})
    act(game, "name C", *["pass"] * 5)
    assert game.legal_actions(0) == (TakeUp(),)
    with pytest.raises(IllegalAction, match="must take it"):
        game.apply(0, Pass())


def test_almonte_without_the_option_the_dealer_may_pass(deal_game, act) -> None:
    game = deal_game("almonte", up_card="B1")
    act(game, "name C", *["pass"] * 5)
    assert game.legal_actions(0) == (Pass(), TakeUp())


def test_almonte_round_2_after_a_named_joker_the_named_suit_is_out(deal_game, act) -> None:
    """Ruling R24: when all pass the suit the dealer named for a turned-up joker, round 2
    names another suit, as when the up-card's own suit was turned down."""
    game = deal_game("almonte", up_card="B1")
    act(game, "name C", *["pass"] * 6)
    assert game.phase is Phase.BIDDING_2
    assert game.legal_actions(1) == (Pass(), *(NameTrump(s) for s in Suit if s is not Suit.CLUBS))
    with pytest.raises(IllegalAction, match="Clubs were turned down"):
        game.apply(1, NameTrump(Suit.CLUBS))


# --- §7 Call-Ace ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(4, 25), (5, 29), (6, 33)])
def test_call_ace_pack_by_players(players: int, size: int) -> None:
    """§7: 4 players 25 cards, 5 players 29, 6 players 33."""
    v = Game("call_ace", players=players).variant
    assert (v.players, len(v.pack), v.sides) == (players, size, tuple(range(players)))


def _call_ace_hand(deal_game, act, call: str) -> Game:
    game = deal_game(
        "call_ace",
        up_card="9C",
        hands={
            1: "JC JS AC 9D TD",
            2: "B1 KC QC 9S TS",
            3: "AH KH QH AS KS",
            0: "AD KD QD JD JH",
        },
    )
    act(game, "order", "discard 9C", call)
    return game


def test_call_ace_the_called_suits_best_holder_is_the_partner(deal_game, act) -> None:
    """§7: the holder of the called suit's highest card in play is the secret partner."""
    game = _call_ace_hand(deal_game, act, "call C")  # B1 is the best club (trump): seat 2
    play_first_legal(game)
    assert game.hand_results[-1].partner == 2


def test_call_ace_the_partner_is_named_in_no_view_before_the_end(deal_game, act) -> None:
    """§7: no view, not even the partner's own, says who the partner is during the hand."""
    game = _call_ace_hand(deal_game, act, "call C")
    for seat in (0, 1, 2, 3, None):
        view = game.view(seat)
        assert view.called_suit is Suit.CLUBS
        assert "partner" not in {f for f in view.__dataclass_fields__ if getattr(view, f) == 2}


def test_call_ace_the_called_suits_best_card_ranks_as_in_play(deal_game, act) -> None:
    """Ruling R15: the called suit's best card is ranked under the trump just made: the
    J♠ is the Left Bower (a club), so calling spades finds the A♠."""
    game = _call_ace_hand(deal_game, act, "call S")  # JS at the maker, seat 1; AS at 3
    play_first_legal(game)
    assert game.hand_results[-1].partner == 3
    game = _call_ace_hand(deal_game, act, "call D")  # AD at seat 0
    play_first_legal(game)
    assert game.hand_results[-1].partner == 0


def test_call_ace_maker_may_be_their_own_partner(deal_game, act) -> None:
    """§7, ruling R25: a maker who holds the called suit's best card is their own partner:
    alone against the others, but not going alone, so a march scores 2, not 4."""
    game = deal_game(
        "call_ace",
        up_card="9C",
        hands={1: "B1 JC JS AD AC", 2: "KD QD KC QC 9D", 3: "AH KH QH AS KS", 0: "TD JD JH TC TH"},
    )
    act(game, "order", "discard 9C", "call D")  # the A♦ is the best diamond: seat 1's own
    assert game.alone is None
    play_first_legal(game)
    result = game.hand_results[-1]
    assert (result.partner, result.alone, result.tricks[1]) == (1, None, 5)
    assert result.points == (0, 2, 0, 0)


def test_call_ace_alone_the_loners_left_leads(deal_game, act) -> None:
    """Ruling R23: a Call-Ace maker who goes alone has the player on their left lead, as a
    loner in four-hand Euchre (§3), not eldest; nobody sits out."""
    game = deal_game("call_ace", up_card="9C", dealer=0)
    act(game, "pass", "pass", "order", "discard 9C", "alone")  # seat 3 alone
    assert (game.alone, game.view(None).out, game.phase, game.turn) == (3, (), Phase.PLAY, 0)


def test_call_ace_each_member_scores_the_sides_points(deal_game, act) -> None:
    """§7: each member of a side scores the side's points (§3 table)."""
    game = _call_ace_hand(deal_game, act, "call C")
    play_first_legal(game)
    result = game.hand_results[-1]
    makers = {1, 2}
    made = sum(result.tricks[s] for s in makers)
    ours, theirs = game.variant.score_hand(made, 5 - made, False)
    assert result.points == tuple(ours if s in makers else theirs for s in range(4))


def test_call_ace_maker_may_go_alone_instead(deal_game, act) -> None:
    """§7: the maker may play alone instead of calling."""
    game = deal_game("call_ace", up_card="9C")
    act(game, "order", "discard 9C")
    assert game.legal_actions(1) == (*(CallSuit(s) for s in Suit), GoAlone())
    act(game, "alone")
    assert (game.alone, game.phase, game.view(None).out) == (1, Phase.PLAY, ())


# --- §7 Jackpot -------------------------------------------------------------------------------


def test_jackpot_no_bidding_the_turned_suit_is_trump(deal_game) -> None:
    """§7 ruling: no bidding, no discard; trump is the turned card's suit; eldest leads;
    each player antes a chip."""
    game = deal_game("jackpot", up_card="9S")
    assert (game.phase, game.trump, game.turn, game.maker) == (Phase.PLAY, Suit.SPADES, 1, None)
    assert game.view(None).pool == 4


def test_jackpot_a_ben_turned_passes_to_the_next_card(deal_game) -> None:
    """§7 ruling: a Ben on top of the undealt cards is passed over; the next is turned."""
    game = deal_game("jackpot", up_card="B1", kitty="9H")
    assert (game.up_card, game.trump) == (Card.parse("9H"), Suit.HEARTS)


def test_jackpot_tricks_draw_chips_and_a_blank_pays_one(deal_game) -> None:
    """§7: each trick draws a chip while the pool lasts, in the order tricks are won;
    a player with no trick pays one into the pool."""
    game = deal_game(
        "jackpot",
        up_card="9S",
        hands={1: "AS KS AC KC AD", 2: "JS JC QS 9C TC", 3: "AH KH QH JH TH", 0: "9D TD QD KD JD"},
    )
    play_first_legal(game)
    result = game.hand_results[-1]
    chips = [-1] * 4  # the ante: the pool starts at 4
    for trick in game.view(None).tricks[:4]:  # five tricks, four chips
        chips[trick.winner] += 1  # type: ignore[index]
    blanks = [s for s in range(4) if not result.tricks[s]]
    for s in blanks:
        chips[s] -= 1
    assert (result.points, result.pool) == (tuple(chips), len(blanks))


def test_jackpot_a_march_sweeps_the_pool_and_ends_the_game(deal_game) -> None:
    """§7 ruling: the first march takes the whole pool and ends the game."""
    game = deal_game(
        "jackpot",
        up_card="9H",
        hands={1: "B1 JH JD AH KH", 2: "AS KS QS JS TS", 3: "AC KC QC JC TC", 0: "AD KD QD TD 9D"},
    )
    play_first_legal(game)
    result = game.hand_results[-1]
    assert (result.tricks[1], result.pool, game.phase, game.winner) == (
        5,
        0,
        Phase.GAME_OVER,
        1,
    )
    assert game.scores == (-2, 6, -2, -2)  # 4 antes + 3 payments: 1 draws 4 + sweeps 3


def test_jackpot_ends_after_its_deals() -> None:
    """§7 ruling: without a march the game ends after ``hands`` deals (most chips win)."""
    from engine.players import make_player

    game = Game("jackpot", seed=3, hands=2)
    players = [make_player("random", seed=s) for s in range(4)]
    while game.phase is not Phase.GAME_OVER:
        if game.turn is None:
            game.deal()
        else:
            game.apply(
                game.turn,
                players[game.turn].choose(game.view(game.turn), game.legal_actions(game.turn)),
            )
    marched = any(max(r.tricks) == 5 for r in game.hand_results)
    assert marched or game.hand_no >= 2
    assert game.scores[game.winner] == max(game.scores)  # type: ignore[index]


# Jackpot deals where seat 0 takes four tricks with its trumps (spades) and seat
# ``x`` the fifth with the A♥ (seats ``y`` and ``z`` take none): the plays follow
# suit as they must, from the leader of each trick.
def _four_and_the_ace(x: int, y: int, z: int) -> dict[str, object]:
    return {
        "up_card": "9S",
        "kitty": "TH JH QH KH",
        "hands": {
            0: "B1 JS JC AS 9H",
            x: "AH 9C TC QC KC",
            y: "KS QS TS AC 9D",
            z: "TD JD QD KD AD",
        },
    }


_FOUR_AND_THE_ACE = {
    # (eldest, x): the cards of the five tricks, each in play order from its leader
    (1, 1): ("9C AC TD JS", "B1 TC KS JD", "JC QC QS QD", "AS KC TS KD", "9H AH 9D AD"),
    (2, 1): ("9D TD JS 9C", "B1 TC KS JD", "JC QC QS QD", "AS KC TS KD", "9H AH AC AD"),
    (3, 2): ("TD JS 9D 9C", "B1 KS TC JD", "JC QS QC QD", "AS TS KC KD", "9H AC AH AD"),
    (1, 2): ("9D 9C TD JS", "B1 KS TC JD", "JC QS QC QD", "AS TS KC KD", "9H AC AH AD"),
}


def _play_tricks(act, game: Game, tricks: tuple[str, ...]) -> None:
    for trick in tricks:
        act(game, *(f"play {card}" for card in trick.split()))


def test_jackpot_a_march_that_leaves_a_tie_plays_one_more_deal(deal_game, build_deal, act) -> None:
    """§7 ruling: a march ends the game; if it leaves a tie for the most chips, one more
    deal is played, after which the highest wins (not the rest of the ``hands`` deals)."""
    game = deal_game("jackpot", dealer=0, **_four_and_the_ace(1, 2, 3))
    _play_tricks(act, game, _FOUR_AND_THE_ACE[1, 1])
    game.deal(build_deal("jackpot", **_four_and_the_ace(1, 2, 3)))
    _play_tricks(act, game, _FOUR_AND_THE_ACE[2, 1])
    game.deal(build_deal("jackpot", **_four_and_the_ace(2, 1, 3)))
    _play_tricks(act, game, _FOUR_AND_THE_ACE[3, 2])
    assert (game.scores, game.view(None).pool) == ((9, -3, -4, -6), 4)
    # Seat 1 marches with the five best trumps: 5 draws and the pool, the others pay.
    game.deal(build_deal("jackpot", up_card="9S", kitty="QS TS", hands={1: "B1 JS JC AS KS"}))
    play_first_legal(game)
    assert game.hand_results[-1].tricks == (0, 5, 0, 0)
    assert (game.scores, game.phase, game.winner) == ((7, 7, -6, -8), Phase.HAND_OVER, None)
    assert game.view(None).tie_break
    game.deal(build_deal("jackpot", **_four_and_the_ace(2, 1, 3)))  # seat 1 is eldest
    _play_tricks(act, game, _FOUR_AND_THE_ACE[1, 2])
    assert (game.hand_no, game.phase, game.winner) == (5, Phase.GAME_OVER, 0)
    assert game.scores[0] > max(game.scores[1:])


# Jackpot deals where seat 0 takes the first two tricks, seat 1 the next two and seat 2
# the last (seat 3 none): seats 0 and 1 gain alike, so a tie at the top stays a tie.
_TWO_TWO_ONE = {
    "up_card": "9S",
    "kitty": "QS TS KD AD",
    "hands": {
        0: "B1 JS 9C TC QC",
        1: "JC AS KS 9H 9D",
        2: "TD AH KH QH JH",
        3: "TH KC AC JD QD",
    },
}
_TWO_TWO_ONE_PLAYS = {
    # eldest: the plays of the five tricks, each from its leader
    1: ("9D TD JD JS", "B1 KS KH QD", "9C JC QH KC", "AS JH AC TC", "9H AH TH QC"),
    2: ("TD QD JS 9D", "B1 KS KH JD", "9C JC QH KC", "AS JH AC TC", "9H AH TH QC"),
}


def test_jackpot_a_tie_after_the_deciding_deal_plays_another(deal_game, build_deal, act) -> None:
    """Ruling R22: a deal that should end the game but leaves a tie for the most chips is
    followed by one more; still a tie, by another, until one player has the most."""
    game = deal_game("jackpot", dealer=0, options={"hands": 1}, **_TWO_TWO_ONE)
    _play_tricks(act, game, _TWO_TWO_ONE_PLAYS[1])
    assert (game.scores, game.phase, game.view(None).tie_break) == (
        (1, 1, -1, -2),
        Phase.HAND_OVER,
        True,
    )
    game.deal(build_deal("jackpot", **_TWO_TWO_ONE))
    _play_tricks(act, game, _TWO_TWO_ONE_PLAYS[2])
    assert (game.scores, game.phase) == ((2, 2, -1, -4), Phase.HAND_OVER)
    game.deal(build_deal("jackpot", **_four_and_the_ace(2, 1, 3)))  # seat 3 is eldest
    _play_tricks(act, game, _FOUR_AND_THE_ACE[3, 2])
    assert (game.phase, game.winner, game.view(None).tie_break) == (Phase.GAME_OVER, 0, False)


# --- §7 Auction -------------------------------------------------------------------------------


def test_auction_each_bid_must_beat_the_last(deal_game, act) -> None:
    """§7: one bid each in turn, naming trump: 3, 4, 5, 8, 15; each beats the last."""
    game = deal_game("auction", dealer=0)
    assert (game.phase, game.turn, game.up_card, game.view(None).widow) == (
        Phase.AUCTION,
        1,
        None,
        3,
    )
    act(game, "bid 4 H")
    assert Bid(4, Suit.SPADES) not in game.legal_actions(2)
    assert Bid(5, Suit.CLUBS) in game.legal_actions(2)
    with pytest.raises(IllegalAction, match="higher than the last"):
        game.apply(2, Bid(3, Suit.CLUBS))


def test_auction_no_view_shows_trump_or_a_maker_while_the_bidding_is_open(deal_game, act) -> None:
    """§7: a bid names its trump, but trump and the maker are made when the bidding
    closes; until then views show the bids only."""
    game = deal_game("auction", dealer=0)
    act(game, "bid 4 H", "pass")
    for seat in (None, 0, 1, 2):
        view = game.view(seat)
        assert (view.trump, view.maker, view.bid) == (None, None, 4)
    act(game, "pass", "pass", "pass")
    assert (game.view(None).trump, game.view(None).maker) == (Suit.HEARTS, 1)


def test_auction_all_pass_throws_in(deal_game, act) -> None:
    """§7 ruling: if all five pass, the hand is thrown in."""
    game = deal_game("auction")
    act(game, *["pass"] * 5)
    assert game.hand_results[-1].thrown_in


def test_auction_maker_takes_the_widow_discards_and_calls_a_card(deal_game, act) -> None:
    """§7: the maker takes the widow, discards 3, then names a card not in their hand;
    its holder is the partner."""
    game = deal_game(
        "auction",
        hands={1: "JH JD AH KH QH", 3: "AS KS QS JS TS"},
        widow="8C 9C TC",
    )
    act(game, "bid 4 H", "pass", "pass", "pass", "pass")
    assert (game.phase, game.turn, len(game.hand_of(1))) == (Phase.DISCARD, 1, 8)
    act(game, "discard 8C", "discard 9C", "discard TC")
    assert game.phase is Phase.CALLING
    assert all(str(a) != "call JH" for a in game.legal_actions(1))
    act(game, "call AS")
    assert (game.phase, game.view(None).called_card) == (Phase.PLAY, Card.parse("AS"))
    play_first_legal(game)
    assert (game.hand_results[-1].partner, game.hand_results[-1].bid) == (3, 4)


def test_auction_bid_15_is_alone_with_the_hand_as_dealt(deal_game, act) -> None:
    """§7: a bid of 15 plays alone without the widow and without a partner."""
    game = deal_game("auction")
    act(game, "bid 15 S", "pass", "pass", "pass", "pass")
    assert (game.phase, game.alone, game.view(None).widow) == (Phase.PLAY, 1, 3)


def test_auction_bid_8_is_alone_after_the_exchange(deal_game, act) -> None:
    """§7: a bid of 8 takes the widow and discards, then plays alone (no call)."""
    game = deal_game("auction")
    act(game, "bid 8 S", "pass", "pass", "pass", "pass")
    assert game.phase is Phase.DISCARD
    for card in game.hand_of(1)[:3]:
        act(game, f"discard {card}")
    assert (game.phase, game.alone) == (Phase.PLAY, 1)


def test_auction_bid_15_eldest_leads_not_the_makers_left(deal_game, act) -> None:
    """§7: eldest leads, even when the maker plays alone with a bid of 15."""
    game = deal_game("auction", dealer=0)
    act(game, "pass", "bid 15 S", "pass", "pass", "pass")  # seat 2 alone: seat 3 on its left
    assert (game.phase, game.alone, game.turn) == (Phase.PLAY, 2, 1)


def test_auction_bid_8_eldest_leads_not_the_makers_left(deal_game, act) -> None:
    """§7: eldest leads after a bid of 8 and its exchange, not the player on the maker's left."""
    game = deal_game("auction", dealer=0)
    act(game, "pass", "pass", "bid 8 H", "pass", "pass")  # seat 3 alone: seat 4 on its left
    for card in game.hand_of(3)[:3]:
        act(game, f"discard {card}")
    assert (game.phase, game.alone, game.turn) == (Phase.PLAY, 3, 1)


def test_auction_bid_15_seeded_deal_eldest_leads() -> None:
    """§7: the reported deal (seed 1022365706949, seat 2 dealing): seat 4 bids 15 and
    eldest, seat 3, leads (the maker's left, seat 0, led before the fix)."""
    game = Game("auction", seed=1022365706949, first_dealer=2)
    game.deal()
    for text in ("pass", "bid 15 D", "pass", "pass", "pass"):
        game.replay(text)
    assert (game.phase, game.maker, game.alone, game.turn) == (Phase.PLAY, 4, 4, 3)


@pytest.mark.parametrize(
    ("bid", "made", "points"), [(3, 3, 3), (4, 3, -4), (5, 5, 5), (8, 4, -8), (15, 5, 15)]
)
def test_auction_scoring(bid: int, made: int, points: int) -> None:
    """§7 ruling: makers with at least the bid score it, else lose it; 8 and 15 need 5."""
    v = Game("auction").variant
    assert v.score_hand(made, 5 - made, bid >= 8, False, bid) == (points, 0)


def test_auction_32_card_pack_has_a_blind_of_5() -> None:
    """§7 option: 32 cards, a blind of 5, two out of play."""
    v = Game("auction", pack=32).variant
    assert (len(v.pack), v.widow, v.kitty_size) == (32, 5, 2)


def test_auction_called_card_nobody_holds_means_no_partner(deal_game, act) -> None:
    """§7 ruling: a called card the maker discarded gives no partner."""
    game = deal_game("auction", hands={1: "JH JD AH KH QH"}, widow="8C 9C TC")
    act(game, "bid 3 H", *["pass"] * 4, "discard 8C", "discard 9C", "discard TC", "call 8C")
    play_first_legal(game)
    assert game.hand_results[-1].partner is None


def test_auction_the_winning_bids_suit_is_trump_in_play(deal_game, act) -> None:
    """§7: an overcall names trump anew; play follows the last bid's suit, and every
    card offered is in the hand of the seat to play."""
    game = deal_game("auction")
    act(game, "bid 3 H", "pass", "pass", "bid 4 C", "pass")  # seat 4 overcalls in clubs
    for card in game.hand_of(4)[:3]:
        act(game, f"discard {card}")
    act(game, f"call {next(c for c in game.variant.pack if c not in game.hand_of(4))}")
    assert game.trump is Suit.CLUBS
    while game.phase is Phase.PLAY:
        seat = game.turn
        legal = game.legal_actions(seat)  # type: ignore[arg-type]
        assert {a.card for a in legal} <= set(game.hand_of(seat))  # type: ignore[attr-defined,arg-type]
        game.apply(seat, legal[-1])  # type: ignore[arg-type]


def _bid_3_and_call(maker: int, holder: int, called: str) -> dict[str, object]:
    """An Auction deal on which ``maker`` holds the five best hearts and ``holder`` the
    card the maker will call."""
    return {"widow": "8C 9C TC", "hands": {maker: "JH JD AH KH QH", holder: called}}


def test_auction_maker_and_partner_reaching_the_target_together(deal_game, build_deal, act) -> None:
    """Ruling R29: both makers score the bid; if both reach the target in one hand, an
    exact tie plays on and then the higher total wins (a game to 3, ruling R30)."""
    game = deal_game("auction", dealer=0, options={"target": 3}, **_bid_3_and_call(1, 3, "AS"))
    act(game, "bid 3 H", *["pass"] * 4, "discard 8C", "discard 9C", "discard TC", "call AS")
    play_first_legal(game)
    assert (game.scores, game.phase, game.winner) == ((0, 3, 0, 3, 0), Phase.HAND_OVER, None)
    game.deal(build_deal("auction", **_bid_3_and_call(1, 2, "KS")))  # seat 1 deals, bids last
    act(game, *["pass"] * 4, "bid 3 H", "discard 8C", "discard 9C", "discard TC", "call KS")
    play_first_legal(game)
    assert game.hand_results[-1].partner == 2
    assert (game.scores, game.phase, game.winner) == ((0, 6, 3, 3, 0), Phase.GAME_OVER, 1)
