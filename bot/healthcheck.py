"""``python -m bot.healthcheck``: the container's health check (the Dockerfile's
``HEALTHCHECK``), from the bot's metrics endpoint.

With ``METRICS_PORT`` set (environment or ``.env``, as the bot reads it) it fetches
``/metrics`` with the standard library (the image has no curl) and the bot is healthy
(exit 0) when the endpoint answers within ``TIMEOUT`` seconds and every shard of the
process has its gateway connection open (``tuque_discord_gateway_connected`` is 1). The
endpoint is served by the bot's event loop, so an answer also says that the loop turns:
a process gone, a loop stuck, a shard that lost Discord are each unhealthy (exit 1), in
one line saying which.

With ``METRICS_PORT`` unset there is nothing to ask, and the check passes (exit 0,
saying so): the container then stands or falls with the bot's process, and a compose
``depends_on: condition: service_healthy`` still works. Set ``METRICS_PORT`` for a
check that means something.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError

from bot.settings import Settings

__all__ = ["TIMEOUT", "check", "main", "verdict"]

TIMEOUT = 5.0
"""Seconds the endpoint has to answer (the Dockerfile gives the whole check 10)."""

CONNECTED = "tuque_discord_gateway_connected"


def verdict(exposition: str) -> str | None:
    """Why the bot whose metrics are ``exposition`` (Prometheus text) is unhealthy; None
    if it is healthy (every shard connected, and at least one)."""
    shards = {
        sample.labels.get("shard", "?"): sample.value
        for family in text_string_to_metric_families(exposition)
        if family.name == CONNECTED
        for sample in family.samples
    }
    if not shards:
        return "no gateway connection yet"
    down = sorted(shard for shard, value in shards.items() if value != 1)
    if down:
        return f"gateway disconnected on shard {', '.join(down)}"
    return None


def _url(host: str, port: int) -> str:
    """The endpoint's URL from inside the container: a wildcard address is asked on the
    loopback."""
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/metrics"


def check(settings: Settings) -> tuple[bool, str]:
    """``(healthy, what to say)`` for the bot run with ``settings``."""
    if settings.metrics_port is None:
        return True, "metrics off (METRICS_PORT unset): nothing to check"
    url = _url(settings.metrics_host, settings.metrics_port)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            exposition = response.read().decode("utf-8")
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", None) or error
        return False, f"no answer from {url}: {reason}"
    problem = verdict(exposition)
    if problem is not None:
        return False, problem
    return True, f"healthy: {url}"


def main() -> int:
    """Run the check; 0 if healthy, 1 if not (one line on stdout either way)."""
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"settings invalid ({error.error_count()} problems): the bot cannot run")
        return 1
    healthy, said = check(settings)
    print(said)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
