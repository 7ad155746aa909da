"""Does a build's worker pool always stop? Runs generator.pipeline.run_jobs RUNS times with
trivial jobs (20 jobs, 2 workers; the work is not what is measured) and, for comparison, the
multiprocessing.Pool pattern the build used until stop 20 (workers that end SIGTERM by raising
SystemExit; close(), terminate(), join()). A run that has not ended after 5 s is a hang: its
workers are killed and the count goes on. Prints, for each, runs, hangs and milliseconds a run.

    python benchmarks/pool_stop.py [RUNS]
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from generator import pipeline  # noqa: E402

JOBS = [pipeline.Job("sorry", f"spec-{i}.yaml") for i in range(20)]


def _raise_on_sigterm() -> None:
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))


def old_pool() -> list:
    """What stop 19's build did: its workers ended SIGTERM (terminate()'s own) by raising."""
    pool = multiprocessing.get_context("fork").Pool(2, initializer=_raise_on_sigterm)
    try:
        return sorted(pool.imap_unordered(str, range(len(JOBS)), chunksize=1))
    finally:
        pool.close()
        pool.terminate()
        pool.join()


def ours() -> list:
    return pipeline.run_jobs(JOBS, ROOT, None, None)


def count(run, runs: int) -> tuple[int, float]:
    hangs, start = 0, time.perf_counter()
    for _ in range(runs):
        before = {p.pid for p in multiprocessing.active_children()}
        done = threading.Event()
        threading.Thread(target=lambda: (run(), done.set()), daemon=True).start()
        if not done.wait(5):
            hangs += 1
            for pid in os.popen(f"pgrep -P {os.getpid()}").read().split():
                if int(pid) not in before:
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
    return hangs, (time.perf_counter() - start) / runs * 1000


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    pipeline.run_job = lambda job, root, opts, staging, loaded: job.spec
    for name, run in (("run_jobs (ours)", ours), ("multiprocessing.Pool, SIGTERM raising", old_pool)):
        hangs, ms = count(run, runs)
        print(f"{name:40} {runs} runs, {hangs} hung, {ms:.1f} ms a run (hangs count 5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
