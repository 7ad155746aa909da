"""Builds stopped at random moments: SIGINT (Ctrl-C), SIGTERM or SIGKILL sent 0.05-1.5 s after
`python -m generator build sorry continuo capitals` starts (it takes about 3 s), in a fresh copy
of the specs whose output folder holds a file of the user's; sent to the command, to its whole
process group (as a terminal's Ctrl-C, systemd or `docker stop` do), or twice 5 ms apart. Prints,
per signal and way, how the builds ended (exit code and first line of stderr) and anything that
went wrong: a traceback, an exit code other than 128 + the signal (or death by SIGKILL), a signal
lost (exit 0), the output folder changed, a staging folder left (but by SIGKILL, which the next
build sweeps), a build that would not end, a worker left running.

    python benchmarks/interrupts.py [RUNS_PER_SIGNAL] [SEED]
"""
from __future__ import annotations

import collections
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import default_signals  # noqa: E402  (a `benchmarks/interrupts.py &` ignores Ctrl-C)
from fuzzing import tree  # noqa: E402  (every file's size and mtime: the tests' own)


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    rng = random.Random(sys.argv[2] if len(sys.argv) > 2 else "interrupts")
    problems = []
    for sig, way in [(s, w) for s in (signal.SIGINT, signal.SIGTERM) for w in ("command", "group", "twice")] + \
            [(signal.SIGKILL, "command")]:
        ends = collections.Counter()
        for i in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                project = Path(tmp)
                shutil.copytree(ROOT / "decks", project / "decks")
                shutil.copytree(ROOT / "boards", project / "boards")
                (project / "output").mkdir()
                (project / "output" / "keep.txt").write_text("the user's")
                before = tree(project / "output")
                p = subprocess.Popen([sys.executable, "-m", "generator", "build", "sorry", "continuo", "capitals"],
                                     cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, start_new_session=True,
                                     preexec_fn=default_signals)
                delay = rng.uniform(0.05, 1.5)
                time.sleep(delay)
                if way == "group":
                    os.killpg(p.pid, sig)
                else:
                    p.send_signal(sig)
                    if way == "twice":
                        time.sleep(0.005)
                        p.send_signal(sig)
                case = f"{sig.name} to the {way} after {delay:.2f} s"
                try:
                    _, err = p.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    p.kill()
                    problems.append(f"{case}: did not end")
                    continue
                first = err.strip().splitlines()[0] if err.strip() else ""
                ends[(p.returncode, first)] += 1
                if p.returncode == 0:
                    problems.append(f"{case}: the signal was lost (exit 0)")
                    continue
                if "Traceback" in err or "internal error" in err:
                    problems.append(f"{case}: {err.strip()[-3000:]}")
                if p.returncode not in (128 + sig, -sig) or (p.returncode == -sig and sig != signal.SIGKILL
                                                               and first):
                    problems.append(f"{case}: exit {p.returncode}: {first}")
                if tree(project / "output") != before:
                    problems.append(f"{case}: the output folder changed")
                staging = [q.name for q in project.iterdir() if "pnp-build" in q.name]
                if staging and sig != signal.SIGKILL:
                    problems.append(f"{case}: staging left: {staging}")
        print(f"{sig.name} to the {way}: " + "; ".join(f"{n} x exit {code} {line!r}" for (code, line), n in sorted(ends.items())))
    time.sleep(1)
    left = subprocess.run(["pgrep", "-f", "generator build sorry continuo capitals"], capture_output=True,
                          text=True).stdout.split()
    if left:
        problems.append(f"workers left running: {left}")
    print(f"{len(problems)} problem(s)")
    for line in problems:
        print("  " + line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
