"""Two fuzz families of the world around the command (issue 24), seeded; used by test_fuzz.py (a few
cases in CI) and benchmarks/fuzz.py (a long campaign).

- "world": locales and closed streams. A command (validate, score, --json, the prompt, moves,
  best, a build, calibrate, bad usage) run in its own process with standard streams closed, an
  output encoding that cannot carry the players' names (Latin-1, ASCII, cp1252, the C locale
  without UTF-8 mode), SOURCE_DATE_EPOCH good or only looking like a number, HOME unset, an
  unwritable TMPDIR, an odd umask. Never an exit 70 or a traceback; stdout in its encoding (JSON
  that parses); nothing touched but what the command writes.
- "concurrent": builds into one output folder at once: two or three, of one or more games, some
  --force, by different paths to the same folder (a link, an absolute path), some in a PID
  namespace of their own, some killed (SIGKILL, SIGINT, SIGTERM) at a random moment. Each ends 0,
  is refused in one line, or ends as its signal says; afterwards a build sweeps every staging
  folder, every file a build listed is there, the folder is up to date, and nothing outside it
  changed.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from fuzzing import problems, tree

ROOT = Path(__file__).resolve().parent.parent
QUICK = ["continuo", "count-continuo", "sorry"]
NAMES = ["Zoë", "😀", "Ωmega", "\u202eevil", "名前", "Ann", "Bob", "O'Brien", "a\u0085b", "\x1b[31mred"]
ENCODINGS = {"default": {}, "latin-1": {"PYTHONIOENCODING": "latin-1"}, "ascii": {"PYTHONIOENCODING": "ascii"},
             "cp1252": {"PYTHONIOENCODING": "cp1252"},
             "C, no UTF-8 mode": {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
             "C": {"LC_ALL": "C", "LANG": "C"}, "missing Latin-1 locale": {"LC_ALL": "de_DE.ISO-8859-1"}}
BAD_EPOCHS = ["²", "٣", "1e9", "-1", "0x10", "12 34", "9" * 30, "9" * 5000, "8589934592", "", " ", "1.5"]


def world_project(work: Path) -> Path:
    """A project for the world family: the specs, the example records, a record whose players are
    named outside Latin-1."""
    for folder in ("decks", "boards"):
        shutil.copytree(ROOT / folder, work / folder)
    shutil.copytree(ROOT / "tests" / "records", work / "records")
    (work / "names.yaml").write_text(yaml.safe_dump(
        {"game": "mille-bornes", "players": ["Zoë", "😀 Smiley"], "entries": [{"player": "Zoë", "card": "go"}]},
        allow_unicode=True), encoding="utf-8")
    return work


@dataclass
class WorldCase:
    args: list[str]
    env: dict = field(default_factory=dict)       # None: unset
    closed: tuple = ()
    umask: int | None = None
    stdin: bytes = b""
    encoding: str = "default"
    json: bool = False
    bad_epoch: bool = False

    def __str__(self) -> str:
        env = {k: (v if v is None or len(v) < 20 else v[:17] + "...") for k, v in self.env.items()}
        return (f"{' '.join(a if len(a) < 40 else a[:37] + '...' for a in self.args)!r} encoding={self.encoding} "
                f"closed={self.closed} umask={oct(self.umask) if self.umask is not None else '-'} env={env}")


def world_case(rng: random.Random, i: int) -> WorldCase:
    """One case of the world family (i numbers its journal and calibration files)."""
    pick = rng.choice(["validate", "validate", "score", "json", "json", "play", "play", "moves", "best", "build",
                       "calibrate", "usage", "help"])
    two = rng.sample(NAMES, 2)
    case = WorldCase({
        "validate": lambda: ["validate", rng.choice(["decks/sorry.yaml", "decks/continuo.yaml", "boards/sorry.yaml",
                                                     "decks/no-such.yaml"])],
        "score": lambda: ["referee", "mille-bornes", "score", "names.yaml"],
        "json": lambda: ["referee", rng.choice(["mille-bornes", "sorry"]), "score",
                         "names.yaml" if rng.random() < 0.6 else "records/sorry.yaml", "--json"],
        "play": lambda: ["referee", "mille-bornes", "play", "--journal", f"journal-{i}.yaml", "--players",
                         ",".join(two)],
        "moves": lambda: ["referee", "sorry", "moves", "records/sorry.yaml", rng.choice(["1", "2", "11"])]
                         + (["--json"] if rng.random() < 0.5 else []),
        "best": lambda: ["referee", "continuo", "best", "records/continuo.yaml", str(rng.randint(1, 42))],
        "build": lambda: ["build", "continuo", "--out", "out-world"],
        "calibrate": lambda: ["calibrate", "--out", f"cal-{i}.pdf"],
        "usage": lambda: ["build", rng.choice(NAMES)],
        "help": lambda: ["--help"],
    }[pick]())
    if rng.random() < 0.3 and pick == "score":
        case.args.append("--json")
    case.json = "--json" in case.args
    if pick == "play":
        case.stdin = b"".join(rng.choice([b"go\n", b"undo\n", b"show\n", b"help\n", "Zoë\n".encode(), b"\xff\xfe\n",
                                          b"25\n", b"\x1b[A\n"]) for _ in range(rng.randint(0, 5)))
    case.encoding = rng.choice(list(ENCODINGS))
    case.env.update(ENCODINGS[case.encoding])
    case.closed = tuple(fd for fd in (0, 1, 2) if rng.random() < 0.25)
    roll = rng.random()
    if roll < 0.15:
        case.env["SOURCE_DATE_EPOCH"] = rng.choice(BAD_EPOCHS)
        case.bad_epoch = bool(case.env["SOURCE_DATE_EPOCH"].strip())   # (empty or blank: not set)
    elif roll < 0.3:
        case.env["SOURCE_DATE_EPOCH"] = str(rng.randint(0, 2**33 - 1))
    else:
        case.env["SOURCE_DATE_EPOCH"] = None
    if rng.random() < 0.25:
        case.env["HOME"] = None
    if rng.random() < 0.25:
        case.env["TMPDIR"] = rng.choice(["/nonexistent-pnp", "/proc", "names.yaml"])
    case.umask = rng.choice([None, 0o022, 0o077, 0o027, 0o002])
    return case


def _encoding_of(case: WorldCase) -> str:
    name = case.env.get("PYTHONIOENCODING")
    if name:
        return name
    return "ascii" if case.encoding == "C, no UTF-8 mode" else "utf-8"


# What the commands of the family may write: compared before and after, the rest must not change.
WORLD_WRITES = ("journal-", "cal-", "out-world", ".out-world.pnp-lock", ".out-world.pnp-build-", "__pycache__")


def run_world_case(case: WorldCase, work: Path, limit_s: float = 60.0) -> tuple[int, list[str]]:
    """Run one case in its own process: (exit code, problems found)."""
    def setup():
        if case.umask is not None:
            os.umask(case.umask)
        for fd in case.closed:
            os.close(fd)
    env = {**os.environ, **{k: v for k, v in case.env.items() if v is not None}}
    for key in [k for k, v in case.env.items() if v is None]:
        env.pop(key, None)
    before = {k: v for k, v in tree(work).items() if not k.startswith(WORLD_WRITES)}
    start = time.perf_counter()
    try:
        r = subprocess.run([sys.executable, "-m", "generator", *case.args], cwd=work, input=case.stdin,
                           capture_output=True, env=env, preexec_fn=setup, timeout=limit_s * 3)
    except subprocess.TimeoutExpired:
        return -1, [f"no answer in {limit_s * 3:.0f} s"]
    seconds = time.perf_counter() - start
    code, out, err = r.returncode, r.stdout, r.stderr.decode("utf-8", "backslashreplace")
    found = []
    if 2 in case.closed:
        if err:
            found.append(f"wrote to a closed stderr: {err[:200]!r}")
        if code not in (0, 1, 2):
            found.append(f"exit code {code}")
        if seconds > limit_s:
            found.append(f"took {seconds:.1f} s")
    else:
        found += problems(code, err, seconds, limit_s)
        if code == 2 and case.args[2:3] == ["play"] and not err and (b"refused" in out or 1 in case.closed):
            # The prompt says a refusal in its dialogue, on stdout, and ends 2 at the end of a piped input.
            found.remove("refused without saying why")
    if 1 in case.closed and out:
        found.append(f"wrote to a closed stdout: {out[:100]!r}")
    if case.bad_epoch and (code != 2 or (2 not in case.closed and "SOURCE_DATE_EPOCH" not in err)):
        found.append(f"SOURCE_DATE_EPOCH={case.env['SOURCE_DATE_EPOCH'][:20]!r} not refused (exit {code})")
    if 1 not in case.closed and out:
        try:
            text = out.decode(_encoding_of(case), "surrogateescape")
        except (UnicodeDecodeError, LookupError) as exc:
            found.append(f"stdout not in its encoding: {exc}")
        else:
            if case.json and code == 0:
                try:
                    json.loads(text)
                except ValueError as exc:
                    found.append(f"--json output is not JSON: {exc}")
    after = {k: v for k, v in tree(work).items() if not k.startswith(WORLD_WRITES)}
    touched = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    if touched:
        found.append(f"touched {touched[:5]}")
    if [p for p in work.iterdir() if p.name.startswith(".out-world.pnp-build-")]:
        found.append("a staging folder left beside out-world")
    return code, found


# ---------------------------------------------------------------- concurrent builds into one folder

def concurrent_project(work: Path) -> Path:
    """A project whose output folder holds a file of the user's, with a link to the folder."""
    for folder in ("decks", "boards"):
        shutil.copytree(ROOT / folder, work / folder)
    (work / "output").mkdir()
    (work / "output" / "keep.txt").write_text("untouched")
    (work / "alias").symlink_to(work / "output", target_is_directory=True)
    return work


def can_unshare() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    r = subprocess.run(["unshare", "--pid", "--fork", "--kill-child", "true"], capture_output=True)
    return r.returncode == 0


@dataclass
class BuildPlan:
    games: list[str]
    force: bool
    paper: str          # a4 or letter: files of other names (a build's files lost to another's swap show)
    out: str            # "", "output", "alias" or "absolute"
    delay: float        # seconds after the case starts
    fate: str           # "ends", "SIGKILL", "SIGINT", "SIGTERM"
    at: float           # seconds after it starts, for a signal
    namespace: bool     # in a PID namespace of its own

    def __str__(self) -> str:
        return (f"build {' '.join(self.games)}{' --force' if self.force else ''} --paper {self.paper} "
                f"out={self.out or 'default'} "
                f"+{self.delay:.2f}s {self.fate}{f'@{self.at:.2f}s' if self.fate != 'ends' else ''}"
                f"{' (own PID namespace)' if self.namespace else ''}")


def concurrent_case(rng: random.Random, namespaces: bool) -> tuple[bool, list[BuildPlan]]:
    """(whether the output folder starts empty, the builds)."""
    plans = []
    for _ in range(rng.choice([2, 2, 3])):
        games = rng.sample(QUICK, rng.choice([1, 1, 2]))
        namespace = namespaces and rng.random() < 0.2
        fate = "ends" if namespace else rng.choices(["ends", "SIGKILL", "SIGINT", "SIGTERM"], [70, 15, 10, 5])[0]
        plans.append(BuildPlan(games, rng.random() < 0.4, rng.choice(["a4", "letter"]),
                               rng.choice(["", "output", "alias", "absolute"]),
                               rng.uniform(0, 1.0), fate, rng.uniform(0.3, 3.0), namespace))
    return rng.random() < 0.3, plans


def _argv(plan: BuildPlan, work: Path) -> list[str]:
    argv = [sys.executable, "-m", "generator", "build", *plan.games, "--paper", plan.paper] + \
        (["--force"] if plan.force else [])
    if plan.out:
        argv += ["--out", str(work / "output") if plan.out == "absolute" else plan.out]
    if plan.namespace:
        argv = ["unshare", "--pid", "--fork", "--kill-child"] + argv
    return argv


def _staging(work: Path) -> list[str]:
    return [p.name for p in work.iterdir() if ".pnp-build-" in p.name]


OUTSIDE = ("output/", ".output.pnp-lock", ".output.pnp-build-", "__pycache__")


def run_concurrent_case(case: tuple[bool, list[BuildPlan]], work: Path) -> tuple[int, list[str]]:
    """Run the builds of one case at once, then the checks: (commands run, problems found)."""
    fresh, plans = case
    if fresh:
        for p in (work / "output").iterdir():
            if p.name != "keep.txt":
                shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
    def default_signals():
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
    before = {k: v for k, v in tree(work).items() if not k.startswith(OUTSIDE)}
    env = {**os.environ, "PNP_JOBS": "2"}
    started = time.monotonic()
    running = []
    for plan in sorted(plans, key=lambda p: p.delay):
        time.sleep(max(0.0, started + plan.delay - time.monotonic()))
        p = subprocess.Popen(_argv(plan, work), cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env, preexec_fn=default_signals)
        running.append((plan, p, time.monotonic()))
    # Signals sent at their moments, and when each build ended (the order their swaps happened in).
    signals = sorted([(t0 + plan.at, i) for i, (plan, p, t0) in enumerate(running) if plan.fate != "ends"])
    ended: dict[int, float] = {}
    deadline = time.monotonic() + 300
    while len(ended) < len(running) and time.monotonic() < deadline:
        now = time.monotonic()
        while signals and signals[0][0] <= now:
            _, i = signals.pop(0)
            if running[i][1].poll() is None:
                running[i][1].send_signal(getattr(signal, running[i][0].fate))
        for i, (_, p, _) in enumerate(running):
            if i not in ended and p.poll() is not None:
                ended[i] = now
        time.sleep(0.01)
    found, built = [], []
    for i, (plan, p, _) in enumerate(running):
        try:
            out, err = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            found.append(f"{plan}: no answer in 300 s")
        code = p.returncode
        fine = {"ends": {0, 2}, "SIGKILL": {0, 2, -9}, "SIGINT": {0, 2, 130}, "SIGTERM": {0, 2, 143}}[plan.fate]
        if code not in fine:
            found.append(f"{plan}: exit code {code}: {err.strip()[-300:]!r}")
        if code == 2 and "another build is writing it" not in err:
            found.append(f"{plan}: refused, but not for another build: {err.strip()[-300:]!r}")
        if code != -9:      # (a process killed outright may be cut off mid-line)
            found += [f"{plan}: {x}" for x in problems(1 if code in (130, 143) else code, err, 0)]
        if code == 0:
            built.append((ended.get(i, deadline), plan, out.split()))
    # Right after: every file a build listed is there (a build swapping in its copy of the folder
    # once threw away the files of one that ended meanwhile), unless a later build of its game on
    # other paper replaced them; and every file the manifest names is there, at the size it records.
    missing = [f for when, plan, files in built for f in files if not (work / f).is_file() and not any(
        later > when and other.paper != plan.paper and Path(f).parent.name in other.games
        for later, other, _ in built)]
    if missing:
        found.append(f"files listed by a build are missing: {missing[:5]}")
    found += _manifest_problems(work / "output")
    # The next build sweeps what the killed left, and makes the folder whole and up to date: a build
    # of the games this case built (the sweep and the manifest's check are of the whole folder; a
    # game no build of the case touched has nothing to be made whole).
    games = [g for g in QUICK if any(g in plan.games for plan in plans)]
    deadline = time.monotonic() + 30
    runs = len(plans)
    while True:
        runs += 1
        r = subprocess.run([sys.executable, "-m", "generator", "build", *games], cwd=work, capture_output=True,
                           text=True, env=env, timeout=300)
        if r.returncode != 2 or time.monotonic() > deadline:   # (2: a killed build's worker still going)
            break
        time.sleep(0.2)
    if r.returncode != 0:
        found.append(f"the build after: exit {r.returncode}: {r.stderr.strip()[-300:]!r}")
    runs += 1
    again = subprocess.run([sys.executable, "-m", "generator", "build", *games], cwd=work, capture_output=True,
                           text=True, env=env, timeout=300)
    if again.returncode != 0 or "up to date" not in again.stderr:
        found.append(f"not up to date after: {again.stderr.strip()[-300:]!r}")
    if _staging(work):
        found.append(f"staging folders left: {_staging(work)}")
    keep = work / "output" / "keep.txt"
    if not keep.is_file() or keep.read_text() != "untouched":
        found.append("the user's file in the output folder is gone or changed")
        keep.parent.mkdir(exist_ok=True)
        keep.write_text("untouched")
    after = {k: v for k, v in tree(work).items() if not k.startswith(OUTSIDE)}
    touched = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    if touched:
        found.append(f"touched outside the output folder: {touched[:5]}")
    return runs, found


def _manifest_problems(out: Path) -> list[str]:
    """What is wrong with the output folder's manifest: a file it names missing or of another size."""
    try:
        jobs = json.loads((out / ".pnp-build.json").read_text(encoding="utf-8"))["jobs"]
    except FileNotFoundError:
        return []
    except (ValueError, KeyError, TypeError) as exc:
        return [f"the manifest is not whole: {exc}"]
    wrong = [rel for entry in jobs.values() for rel, size in entry["sizes"].items()
             if not (out / rel).is_file() or (out / rel).stat().st_size != size]
    return [f"the manifest names files missing or changed: {wrong[:5]}"] if wrong else []
