"""The worker pools: as many computer processes as asked, and every one of them ends
when the bot dies, however it died."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.workers import NICENESS, PARENT_POLL, computer_pool, drawing_pool

ROOT = Path(__file__).resolve().parents[2]

# A stand-in for the bot: a pool of three computer workers, all started (three moves at
# once), their pids on stdout, then waiting to be killed.
BOT = """
import multiprocessing, time
from bot.workers import computer_pool

if __name__ == "__main__":
    pool = computer_pool(3)
    for move in [pool.submit(time.sleep, 0.3) for _ in range(3)]:
        move.result()
    print(*(p.pid for p in multiprocessing.active_children()), flush=True)
    time.sleep(60)
"""


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_the_computer_pool_has_the_workers_asked_for() -> None:
    """``computer_pool(n)`` thinks in up to ``n`` processes at once; below one is refused."""
    pool = computer_pool(2)
    try:
        pids = {f.result() for f in [pool.submit(_slow_pid) for _ in range(4)]}
        assert len(pids) == 2 and os.getpid() not in pids
    finally:
        pool.shutdown(wait=True)
    with pytest.raises(ValueError):
        computer_pool(0)


def test_workers_yield_the_cpu_to_the_bot() -> None:
    """Drawing and thinking run nicer than the bot, so that on a shared core the event
    loop answering clicks goes first."""
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    for pool in (computer_pool(1), drawing_pool()):
        try:
            assert pool.submit(os.getpriority, os.PRIO_PROCESS, 0).result() == min(
                mine + NICENESS, 19
            )
        finally:
            pool.shutdown(wait=True)


def _slow_pid() -> int:
    time.sleep(0.2)
    return os.getpid()


def test_every_computer_worker_dies_with_the_bot(tmp_path: Path) -> None:
    """SIGKILL to the bot: each of its three computer workers is gone within a second."""
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(workers) == 3 and all(running(pid) for pid in workers)
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(timeout=10)
        deadline = time.monotonic() + 2 * PARENT_POLL + 1
        while any(running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in workers if running(pid)] == []
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
