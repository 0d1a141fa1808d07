"""``replies.nonce``: the one nonce of a channel post, within Discord's 25 characters."""

from __future__ import annotations

import re

from bot.replies import NONCE_LENGTH, nonce


def test_a_named_post_has_one_nonce_and_other_posts_others() -> None:
    """The same key gives the same nonce (every try, every process); another key,
    another nonce; all fit Discord's limit of 25 characters."""
    key = ("hand result", 7, 123456789, 0)
    assert nonce(*key) == nonce(*key)
    others = {nonce("hand result", 7, 123456789, n) for n in range(1, 50)}
    others |= {nonce("game over", 7, 123456789), nonce("hand result", 8, 123456789, 0)}
    assert nonce(*key) not in others and len(others) == 51
    assert all(re.fullmatch(r"[a-z2-7]+", n) and len(n) == NONCE_LENGTH <= 25 for n in others)


def test_a_nonce_without_a_name_is_random() -> None:
    drawn = {nonce() for _ in range(100)}
    assert len(drawn) == 100 and all(len(n) == NONCE_LENGTH for n in drawn)
