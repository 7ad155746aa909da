"""Builds stopped at random moments: SIGINT (Ctrl-C), SIGTERM or SIGKILL sent 0-1.5 s after
`python -m generator build sorry continuo capitals` has its handlers in place (it takes about 3 s;
a signal in Python's own start-up, before any of our code runs, is Python's), in a fresh copy
of the specs whose output folder holds a file of the user's; sent to the command, to its whole
process group (as a terminal's Ctrl-C, systemd or `docker stop` do), or twice 5 ms apart. Prints,
per signal and way, how the builds ended (exit code and first line of stderr) and anything that
went wrong: a traceback, an exit code other than 128 + the signal (or death by SIGKILL), a signal
lost (exit 0), the output folder changed, a staging folder left (but by SIGKILL, which the next
build sweeps), a build that would not end, a worker left running.

Then every command, at any moment, whatever it computes: `validate` and `build` of the heaviest
specs within the bounds (a Cubes kit of 26 x 26 cells, a Capitals map of 100,000 points of land:
seconds of geometry in C, where a process does not run its signal handlers; decks of one's own with
the most text, pictures and SVG their bounds allow), `validate` of every
spec, a referee's `score`, Continuo's `best`, `play` waiting at its prompt, `calibrate`, `serve`:
SIGINT or SIGTERM at a random moment of its run, to the command or to its process group. Each
must end within 2 s of the signal (the time is printed: the worst of each command), with 128 + the
signal and one line, no traceback, and no process of its group left.

    python benchmarks/interrupts.py [RUNS_PER_SIGNAL] [SEED] [--builds | --commands] [--only=TEXT]

--only=TEXT signals only the commands whose name holds TEXT (`--only=deck`: the decks of one's own
at their bounds).
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
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(args[0]) if args else 30
    rng = random.Random(args[1] if len(args) > 1 else "interrupts")
    problems = [] if "--builds" in sys.argv or "--commands" not in sys.argv else commands_answer_signals(runs, rng)
    if "--commands" in sys.argv:
        return report(problems)
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
                _handlers_in_place(p)
                delay = rng.uniform(0.0, 1.5)
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
    if "--builds" not in sys.argv:
        problems += commands_answer_signals(runs, rng)
    return report(problems)


def report(problems: list[str]) -> int:
    print(f"{len(problems)} problem(s)")
    for line in problems:
        print("  " + line)
    return 1 if problems else 0


# ---------------------------------------------------------------- every command, within 2 s

STOP_WITHIN_S = 2.0


def heavy_project(project: Path) -> None:
    """The specs, and the heaviest within their bounds (benchmarks/spec_extremes.py's worst cases):
    a Cubes kit of 26 x 26 cells and 200 cubes, the Capitals land at 100,000 points, and decks of
    one's own at their bounds (the most text in every script, the most picture bytes, the most SVG
    elements)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from spec_extremes import worst_cases
    shutil.copytree(ROOT / "decks", project / "decks")
    shutil.copytree(ROOT / "boards", project / "boards")
    for spec, what, make in worst_cases():
        if what.startswith(("26 x 26", "land of 5,000 polygons", "a deck's most text in", "a deck's most pictures",
                            "a deck's most SVG: of 20,000 and 10,000 elements")):
            make(project)


def _handlers_in_place(p: subprocess.Popen) -> float:
    """Seconds until the command's own handlers are in place, or it ends: SIGTERM caught (SigCgt in
    /proc; Python catches SIGINT itself from its start, SIGTERM only once generator/entry.py runs)."""
    start = time.perf_counter()
    while p.poll() is None and time.perf_counter() - start < 30:
        try:
            status = Path(f"/proc/{p.pid}/status").read_text()
        except OSError:
            break
        caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
        if caught & (1 << (signal.SIGTERM - 1)):
            break
        time.sleep(0.005)
    return time.perf_counter() - start


def commands_answer_signals(runs: int, rng: random.Random) -> list[str]:
    """SIGINT or SIGTERM at a random moment of each command's run: the time to its end, its exit
    code and line, and nothing of it left running."""
    records = str(ROOT / "tests" / "records")
    # (name, arguments, the longest it runs before it is signalled, stdin)
    commands = [
        ("validate the heavy Cubes kit", ["validate", "boards/cubes_kit.yaml"], 6.0, None),
        ("validate the 100,000-point map", ["validate", "boards/capitals_world_map.yaml"], 5.0, None),
        ("build the heavy Cubes kit", ["build", "cubes", "--force"], 12.0, None),
        ("build the 100,000-point map", ["build", "capitals", "--force"], 10.0, None),
        ("validate a deck's most text, in every script", ["validate", "decks/own_scripts.yaml"], 6.0, None),
        ("validate a deck's most text in Hebrew and Arabic, styled inside words", ["validate", "decks/own_styled.yaml"],
         6.0, None),
        ("validate a deck's most pictures", ["validate", "decks/own_pictures.yaml"], 4.0, None),
        ("validate a deck's most SVG", ["validate", "decks/own_svgs.yaml"], 5.0, None),
        ("build a deck's most SVG", ["build", "decks/own_svgs.yaml", "--force"], 12.0, None),
        ("validate every spec", ["validate"], 6.0, None),
        ("score a Capitals record", ["referee", "capitals", "score", f"{records}/capitals.yaml", "--json"], 0.6, None),
        ("Continuo's best", ["referee", "continuo", "best", f"{records}/continuo.yaml", "1"], 0.6, None),
        ("play, waiting at the prompt", ["referee", "sorry", "play", "--journal", "j.yaml"], 2.0, "wait"),
        ("calibrate", ["calibrate", "--out", "c.pdf"], 0.8, None),
        ("serve", ["serve", "--port", "0"], 2.0, None),
    ]
    only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")), "")
    commands = [c for c in commands if only in c[0]]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        heavy_project(project)
        for name, argv, longest, stdin in commands:
            latencies, ends = [], collections.Counter()
            for i in range(max(2, runs // 3)):
                sig = rng.choice([signal.SIGINT, signal.SIGTERM])
                group = rng.random() < 0.5
                p = subprocess.Popen([sys.executable, "-m", "generator", *argv], cwd=project,
                                     stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                                     start_new_session=True, preexec_fn=default_signals)
                # From when its handlers are in place (Python's own start-up, before any of our code,
                # is Python's: README), at a random moment of its run.
                watched = _handlers_in_place(p)
                delay = rng.uniform(0.0, longest)
                time.sleep(delay)
                case = f"{name}: {sig.name} to the {'group' if group else 'command'} {delay:.2f} s after its " \
                       f"handlers were in place ({watched:.2f} s from its start)"
                if p.poll() is not None:
                    ends[(p.returncode, "ended before the signal")] += 1
                    continue
                sent = time.perf_counter()
                if group:
                    os.killpg(p.pid, sig)
                else:
                    p.send_signal(sig)
                try:
                    out, err = p.communicate(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.communicate()
                    problems.append(f"{case}: did not end in 30 s")
                    continue
                took = time.perf_counter() - sent
                latencies.append(took)
                first = err.strip().splitlines()[0] if err.strip() else ""
                # Exit 0 with its answer printed: the signal came once the command had its answer
                # (its file written), which a late signal must not change (signals.ignore_signals).
                answered = p.returncode == 0 and bool(out.strip())
                ends[(p.returncode, "answered before the signal" if answered and not first else first)] += 1
                if took > STOP_WITHIN_S:
                    problems.append(f"{case}: ended {took:.2f} s after the signal")
                if p.returncode not in (128 + sig, 0) or (p.returncode == 0 and argv[0] != "build" and not answered):
                    problems.append(f"{case}: exit {p.returncode}: {first}")
                if "Traceback" in err or "internal error" in err:
                    problems.append(f"{case}: {err.strip()[-2000:]}")
                staging = [q.name for q in project.iterdir() if "pnp-build" in q.name]
                if staging:
                    problems.append(f"{case}: staging left: {staging}")
                time.sleep(0.2)
                try:
                    os.killpg(p.pid, 0)
                    problems.append(f"{case}: a process of its group still runs")
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            worst = f"{max(latencies):.2f} s" if latencies else "-"
            print(f"{name}: {len(latencies)} signalled, the slowest to end {worst} after its signal; "
                  + "; ".join(f"{n} x exit {code} {line[:70]!r}" for (code, line), n in sorted(ends.items())), flush=True)
    return problems


if __name__ == "__main__":
    sys.exit(main())
