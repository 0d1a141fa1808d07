"""The web table's links: a token opens its game and seat until it expires, and
nothing else."""

from __future__ import annotations

import pytest

from bot.web.links import Grant, LinkRefused, Links

LINKS = Links(b"a test secret of enough bytes", "https://tuque.example.org/", 600)
NOW = 1_700_000_000.0


def test_a_seat_token_opens_its_game_and_seat_until_it_expires() -> None:
    token = LINKS.token(7, 2, 101, now=NOW)
    assert LINKS.check(token, 7, now=NOW + 599) == Grant(7, 2, 101, int(NOW + 600))
    with pytest.raises(LinkRefused, match="expired"):
        LINKS.check(token, 7, now=NOW + 601)


def test_a_token_for_another_game_is_refused() -> None:
    with pytest.raises(LinkRefused, match="game #7, not game #8"):
        LINKS.check(LINKS.token(7, None, None, now=NOW), 8, now=NOW)


@pytest.mark.parametrize("token", ["", "abc", "abc.def", "."])
def test_a_token_that_is_not_ours_is_refused(token: str) -> None:
    with pytest.raises(LinkRefused, match="not valid"):
        LINKS.check(token, 7, now=NOW)


def test_a_token_signed_with_another_secret_is_refused() -> None:
    other = Links(b"another secret, long enough", LINKS.base_url, 600)
    with pytest.raises(LinkRefused, match="not valid"):
        LINKS.check(other.token(7, 0, 101, now=NOW), 7, now=NOW)


def test_a_link_names_its_game_and_no_card() -> None:
    link = LINKS.seat_link(7, 0, 101)
    assert link.startswith("https://tuque.example.org/table/7?t=")
    assert LINKS.spectator_link(7).startswith("https://tuque.example.org/table/7?t=")


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="16 bytes"):
        Links(b"short", "http://x", 60)


def test_a_renewed_token_is_made_once_a_minute_for_each_grant() -> None:
    links = Links(b"a test secret of enough bytes", "https://tuque.example.org/", 600)
    minute = 60 * (NOW // 60)
    seat, other, watcher = Grant(7, 0, 101, 0), Grant(7, 1, 102, 0), Grant(7, None, None, 0)
    first = links.renewed(seat, now=minute + 1)
    # Within the minute: the same token, opening the seat for the lifetime less under a minute.
    assert links.renewed(seat, now=minute + 59) == first
    assert links.check(first, 7, now=minute + 59).expires == int(minute + 601)
    assert (
        len({first, links.renewed(other, now=minute + 2), links.renewed(watcher, now=minute + 3)})
        == 3
    )
    # The next minute: a new one, which expires later.
    later = links.renewed(seat, now=minute + 60)
    assert later != first
    assert links.check(later, 7, now=minute + 600).expires == int(minute + 660)
