"""The print files made again after a save, in the background: `pnp build` of what the studio shows,
run as a process of its own (a build runs a pool of processes, which a server's threads must not
fork), at a lower priority than the studio's drawing, once the saves have been quiet for QUIET
seconds. A save while it runs stops it (by its own id) and starts it again after the quiet time:
a build is all or nothing, so its output folder holds the last good build meanwhile."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from ..errors import one_line

QUIET = 1.0          # seconds without a save before the print files are built again
NICENESS = 10        # the build yields the cores to the studio's drawing


class Printer:
    """Builds the print files in `folder` (`pnp build NAMES...`) after each `saved()`; tells
    `report(state=..., said=...)` what it is doing: "waiting", "building", "current", "failed"."""

    def __init__(self, folder: Path, names: list[str], report, out: str | None = None):
        self.folder, self.names, self.report, self.out = Path(folder), list(names), report, out
        self.wanted = threading.Event()
        self.stopping = threading.Event()
        self.last_save = 0.0
        self.process: subprocess.Popen | None = None
        self.thread = threading.Thread(target=self._run, name="pnp-studio-print", daemon=True)

    def start(self) -> None:
        self.thread.start()
        self.saved()

    def saved(self) -> None:
        self.last_save = time.monotonic()
        proc = self.process
        if proc is not None and proc.poll() is None:
            try:                         # the build under way is of files now stale: stop it
                proc.send_signal(signal.SIGTERM)
            except OSError:
                pass
        self.report(state="waiting", said="a save: the print files will be built again")
        self.wanted.set()

    def stop(self) -> None:
        self.stopping.set()
        self.wanted.set()
        proc = self.process
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.thread.join(5)

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.wanted.wait()
            if self.stopping.is_set():
                return
            while time.monotonic() - self.last_save < QUIET and not self.stopping.is_set():
                time.sleep(0.1)
            self.wanted.clear()
            self._build()

    def _build(self) -> None:
        command = [sys.executable, "-m", "generator", "build", *self.names]
        if self.out:
            command += ["--out", self.out]
        self.report(state="building", said="building the print files")
        started = time.monotonic()
        try:
            self.process = subprocess.Popen(command, cwd=self.folder, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            _lower_priority(self.process.pid)
            _, err = self.process.communicate()
            code = self.process.returncode
        except OSError as exc:
            self.report(state="failed", said=one_line(f"could not start pnp build: {exc}"))
            return
        finally:
            took = time.monotonic() - started
        if self.wanted.is_set() or self.stopping.is_set():
            return                        # stopped for a newer save: that one's build says
        if code == 0:
            self.report(state="current", said=f"print files current (built at {time.strftime('%H:%M:%S')} in "
                                              f"{took:.1f} s)")
        else:
            lines = [line for line in (err or "").splitlines() if line.strip()]
            first = lines[0] if lines else f"exit {code}"
            self.report(state="failed", said=one_line(f"the print files were not built: {first}"))


def _lower_priority(pid: int) -> None:
    """The build's process (and the pool it forks) behind the studio's. (Set from here, not with a
    preexec_fn: that is unsafe in a process with threads.)"""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS))
    except (OSError, AttributeError):
        pass
