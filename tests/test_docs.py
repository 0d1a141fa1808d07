"""The repository's documents stand on their own: a fresh clone has every file they name."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_a_document_names_no_file_outside_the_repository(path: Path) -> None:
    """No ``../shared/RULES.md``: readers of a clone have ``tuque rules`` and docs/ only."""
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in _LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        linked = (path.parent / target).resolve()
        assert linked.is_relative_to(ROOT), f"{path.name} links outside: {target}"
        assert linked.exists(), f"{path.name} links to a missing {target}"


def test_the_invite_permissions_integer_is_the_permissions_the_readme_names() -> None:
    """README.md's invite step: the integer is exactly the bold permissions it lists."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    step = readme[readme.index("bot permissions **") : readme.index("Open the generated URL")]
    names = re.findall(r"\*\*([A-Z][A-Za-z ]+)\*\*", step)
    attributes = {name.lower().replace(" ", "_").replace("channels", "channel") for name in names}
    (integer,) = re.findall(r"`(\d+)`", step)
    assert discord.Permissions(**dict.fromkeys(attributes, True)).value == int(integer)
    assert {"attach_files", "create_public_threads", "send_messages_in_threads"} <= attributes
