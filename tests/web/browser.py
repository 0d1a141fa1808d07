"""The web table in a real browser: Playwright driving Debian's Chromium (``.ci/run``
installs the ``chromium`` package; without it the browser tests skip, and the run's
header says so in one line), and the page's hooks the tests read (``docs/web.md``,
"The page": ``data-action`` on every legal action, ``body[data-seq]`` and so on)."""

from __future__ import annotations

import random
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import Error as PlaywrightError

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium, or None: Playwright's own browser builds are never downloaded."""

NO_CHROMIUM = "no chromium on this machine: the browser tests skip (.ci/run installs it)"

# Chromium's defaults reach for Google's services at every start; this machine has no
# network, and root needs --no-sandbox.
_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # The Activity's test plays Discord's client at https://discord.com (routed, so
    # "public") around the bot on 127.0.0.1, which Chromium's Local Network Access
    # checks would block; in Discord both are public addresses.
    "--disable-features=LocalNetworkAccessChecks",
]

STEP = 20_000
"""Milliseconds a page may take to show what the server sent: generous, since a loaded
2-core machine runs the server, the computers and the browser at once; the tests wait
for the page's own state, never for the clock."""


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """A headless Chromium, closed on exit; skips the test where there is none."""
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(
    browser: Browser,
    url: str,
    *,
    width: int = 1280,
    height: int = 800,
    ready: str = "body[data-state='live']",
) -> Page:
    """``url`` in a fresh context (its own storage) with no motion, once ``ready`` shows
    (by default: its socket is live). Every page error fails the test: a page that throws
    is broken for a person."""
    context = await browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    page = await watched(await context.new_page())
    await page.goto(url)
    await page.wait_for_selector(ready)
    return page


_BLOCKED = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.tuqueBlocked(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`
    + ` (${event.sourceFile || document.URL}:${event.lineNumber})`);
});
"""
"""Run in every frame of a watched page: tells the test what the server's
Content-Security-Policy blocked there (docs/web.md, "Closed to other sites")."""


async def watched(page: Page) -> Page:
    """``page`` with the tests' timeout, keeping the uncaught errors it throws and what
    the Content-Security-Policy blocks in it or its frames (every one fails a test: a
    page that throws, or whose script or style is blocked, is broken for a person)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.expose_binding("tuqueBlocked", lambda source, text: errors.append(text))
    await page.add_init_script(_BLOCKED)
    page.set_default_timeout(STEP)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def page_errors(page: Page) -> list[str]:
    """The uncaught errors the page threw so far, and what the policy blocked."""
    return list(page.errors)  # type: ignore[attr-defined]


async def seq_of(page: Page) -> int:
    """The seq of the view the page shows."""
    return int(await page.get_attribute("body", "data-seq") or -1)


async def play_one(page: Page, rng: random.Random) -> bool:
    """Wait for the page to offer the viewer an action or show the game's end; click one
    of its legal actions at random and wait for the next view. False once it is over."""
    await page.wait_for_selector("[data-action]:not([disabled]), body[data-over='1']")
    if await page.get_attribute("body", "data-over") == "1":
        return False
    actions = await page.query_selector_all("[data-action]:not([disabled])")
    if not actions:
        # The view changed between the two looks: look again.
        return True
    seq = await seq_of(page)
    try:
        await rng.choice(actions).click()
    except PlaywrightError as error:
        if "not attached" not in error.message:
            raise
        return True  # a newer view redrew the page between the look and the click
    await page.wait_for_function(
        "seq => Number(document.body.dataset.seq) > seq || document.body.dataset.over === '1'",
        arg=seq,
    )
    return True


LOOKS = (("360 px", 360, 740), ("desktop", 1280, 800))
"""The widths the accessibility check looks at: a phone's portrait and a desktop."""


async def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on ``page`` as it is now, one line
    each: the rule, its impact and the elements' selectors. axe-core is the one
    axe-playwright-python ships (the test extra pins it), put in the page once."""
    if not await page.evaluate("typeof axe !== 'undefined'"):
        await page.evaluate(AXE_SCRIPT)
    found = await page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']]}"
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]


async def violations_in_every_look(page: Page) -> list[str]:
    """``serious_violations`` at 360 px and desktop width, light and dark, each line
    prefixed with its look; the page is resized and its system theme emulated in turn
    (the same page: no new game), then put back as it was."""
    size = page.viewport_size
    found: list[str] = []
    for look, width, height in LOOKS:
        await page.set_viewport_size({"width": width, "height": height})
        for theme in ("light", "dark"):
            await page.emulate_media(color_scheme=theme)
            # The table's page follows the system's theme unless told (html[data-theme]).
            await page.wait_for_function(
                "t => [undefined, t].includes(document.documentElement.dataset.theme)", arg=theme
            )
            # The felt's size follows the window a frame later (main.js's ResizeObserver).
            await page.evaluate(
                "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
            )
            found += [f"{look}, {theme}: {line}" for line in await serious_violations(page)]
    if size is not None:
        await page.set_viewport_size(size)
    return found
