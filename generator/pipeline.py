"""Running a build: its jobs, a pool of processes for them, what is already up to date, progress.

A job is one spec of one game (or one part of it: the Cubes kit for two players, or for four): it
loads and checks the spec, plans its products (faces drawn, cards imposed, parts nested) and, in a
build, writes them into the staging folder (outputs.OutputFolder). Jobs run in a pool of processes,
one per core; each writes its own files, so the output is the same, byte for byte and in the same
order, as a serial build's.

Incremental builds: the output folder keeps a manifest (.pnp-build.json) of every job's products
and of everything the job read (each file's sha256, recorded by inputs.track_reads), keyed by the
options and by a digest of the code and of the libraries that draw and write. A job whose key and
inputs are unchanged and whose files are still there, unchanged in size, is not run again; any
change to what it read, to the options or to the code runs it again. `--force` runs every job.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .signals import STOPPING, Terminated, deferred
from .errors import SpecError, WorkerDied, one_line
from .options import BuildOptions

MANIFEST = ".pnp-build.json"
MANIFEST_FORMAT = 1
# The libraries whose versions change the bytes we write.
LIBRARIES = ("reportlab", "svgwrite", "cairosvg", "cairocffi", "pillow", "ezdxf", "shapely", "fonttools",
             "pyyaml", "jsonschema", "hershey-fonts")


@dataclass(frozen=True)
class Job:
    game: str
    spec: str                 # the spec's path: relative to the project for a build's own specs
    part: str | None = None

    @property
    def id(self) -> str:
        """The job's key in the manifest (JSON keys are text): game|spec|part."""
        return f"{self.game}|{self.spec}|{self.part or ''}"

    @classmethod
    def parse(cls, job_id) -> "Job | None":
        """The job a manifest's key stands for, or None for a key not in the form `id` writes (a
        manifest is an input: anyone may edit the output folder)."""
        if not isinstance(job_id, str) or job_id.count("|") != 2:
            return None
        game, spec, part = job_id.split("|")
        return cls(game, spec, part or None) if game and spec else None

    @property
    def title(self) -> str:
        return f"{self.game}: {self.spec}" + (f" ({self.part})" if self.part else "")


@dataclass
class JobResult:
    job: Job
    products: list[str] = field(default_factory=list)   # rels, in the order the game made them
    sizes: dict[str, int] = field(default_factory=dict)
    info: dict[str, dict] = field(default_factory=dict)  # rel -> what a person does with it
    reads: dict[str, str] = field(default_factory=dict)  # real path -> sha256
    errors: list[str] = field(default_factory=list)
    exit_code: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)       # the spec's notes (Spec.notes), said once


def spec_jobs(paths: list[Path], root: Path) -> list[Job]:
    """The jobs that build these spec files: as part of their game where a game declares the file
    (decks/sorry.yaml in a project), else by their kind (a deck of the user's own). SpecError for a
    file that cannot be read as a spec, or of a kind no game builds."""
    from .games import GAMES, game_of_kind
    from .spec import display_path, load_spec
    from .errors import SpecError
    jobs = []
    for path in paths:
        rel = display_path(path, root)
        g = declared_game(path, rel)
        if g is not None:
            jobs += [Job(g, rel, part) for part in GAMES[g].parts.get(rel, (None,))]
            continue
        spec = load_spec(path, display=rel)
        game = game_of_kind(spec.kind)
        if game is None:
            raise SpecError(rel, spec.line(("kind",)), "kind", f"no game builds a {spec.kind} spec")
        where = rel if not os.path.isabs(rel) else os.path.realpath(path)
        jobs += [Job(game, where, part) for part in GAMES[game].parts.get(spec.kind, (None,))]
    return jobs


def declared_game(path: Path, rel: str, kind: str | None = None) -> str | None:
    """The game whose own spec a project's file is: one that declares its path (decks/sorry.yaml),
    if the file's `kind:` is one of that game's. A spec is what its kind says wherever it lies: a
    deck of one's own saved as decks/sorry.yaml is no part of Sorry (None: built by its kind).
    `kind`: the file's, where it was loaded already (else it is read from the file)."""
    from .games import GAMES
    for g, game in GAMES.items():
        if game.spec_root is None and rel in game.specs:
            kind = kind or peek_kind(path)
            return g if kind is None or kind in game.kinds else None
    return None


def peek_kind(path: Path) -> str | None:
    """A spec file's `kind:` as written, read without validating the spec (None if it cannot be
    read or has none: the spec's own load then says why)."""
    from .inputs import MAX_SPEC_BYTES, read_text
    from .spec.loader import parse_yaml
    try:
        data, _ = parse_yaml(read_text(path, str(path), MAX_SPEC_BYTES), str(path))
    except (SpecError, OSError):
        return None
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


def build_jobs(games: list[str]) -> list[Job]:
    """Every job of these games, in the order a serial build would run them."""
    from .games import GAMES
    jobs = []
    for g in games:
        game = GAMES[g]
        for spec in game.specs:
            # a game from outside the project names its specs in its own folder
            where = spec if game.spec_root is None else str(game.spec_root / spec)
            for part in game.parts.get(spec, (None,)):
                jobs.append(Job(g, where, part))
    return jobs


# What each job took on the 2-core machine (seconds): the order of a first build's jobs, longest
# first, so that the pool's last jobs are short ones and both cores finish together. A folder
# built before orders its jobs by its manifest's own timings instead.
FIRST_BUILD_SECONDS = {
    "capitals|decks/capitals_1961.yaml|": 1.2, "cubes|boards/cubes_kit.yaml|4p:pieces": 1.1,
    "cubes|boards/cubes_kit.yaml|2p:board": 1.0, "cubes|boards/cubes_kit.yaml|4p:board": 1.0,
    "cubes|boards/cubes_kit.yaml|2p:pieces": 0.9, "capitals|boards/capitals_walls.yaml|": 0.5,
    "mille-bornes|decks/mille_bornes.yaml|": 0.4, "mille-bornes|decks/mille_bornes_1961.yaml|": 0.35,
    "count-continuo|decks/count_continuo.yaml|": 0.3, "continuo|decks/continuo.yaml|": 0.3,
}


def job_seconds(job: Job, manifest: dict) -> float:
    """How long the job is expected to take: its last run's time, else the first build's."""
    entry = manifest.get(job.id)
    last = entry.get("seconds") if isinstance(entry, dict) else None
    if isinstance(last, (int, float)) and not isinstance(last, bool) and 0 <= last < 1e6:
        return float(last)
    return FIRST_BUILD_SECONDS.get(job.id, 0.2)


def job_path(job: Job, root: Path) -> Path:
    """A job's spec: a path as given, or one named in a project (decks/x.yaml), from the project
    if it has it, else from the games' own specs."""
    from .paths import spec_file
    return Path(job.spec) if os.path.isabs(job.spec) else spec_file(job.spec, root)


def check_jobs(jobs: list[Job], root: Path) -> tuple[dict, list[str], int]:
    """Every job's spec loaded and checked, before any job draws or writes: (job id -> (spec,
    files read), error lines, exit code). Done once, in the build's own process, so that a bad spec
    stops the build at once, and so that the pool's processes (forked after) start from them."""
    from .games import GAMES, check_spec, say_notes
    from .inputs import track_reads
    from .spec import display_path, load_spec
    from .spec.loader import SpecErrors
    loaded, errors, code = {}, [], 0
    for job in jobs:
        path = job_path(job, root)
        try:
            with track_reads() as reads:
                spec = load_spec(path, display=display_path(path, root))
                check_spec(spec)
            say_notes(spec)
            game = GAMES.get(job.game)
            if game is not None and spec.kind not in game.kinds:
                # decks/sorry.yaml is a deck of one's own: Sorry built here would read it as its deck
                raise spec.error(("kind",), f"a {spec.kind} spec where {game.title} reads its own "
                                            f"({' or '.join(game.kinds)}): {game.title} cannot be built in this "
                                            f"folder while it is here; give it another name to build both")
            loaded[job.id] = (spec, dict(reads))
        except SpecErrors as exc:
            errors += [SpecError.__str__(e) for e in exc.errors]
            code = max(code, 1)
        except SpecError as exc:
            errors.append(str(exc))
            code = max(code, 1)
    return loaded, list(dict.fromkeys(errors)), code


def plan_game(game: str, specs: dict, opts: BuildOptions, part: str | None = None, plan=None):
    """A game's files of these specs ({path: spec}), named and laid out in a Plan under the game's
    folder (nothing written): what the game holds of them, handed to every product that takes it."""
    from .games import game_contents
    from .outputs import Plan
    from .products import make_files
    plan = plan if plan is not None else Plan()
    make_files(game_contents(game, specs, opts.paper, part), plan.sub(game), opts)
    return plan


def run_job(job: Job, root: Path, opts: BuildOptions, staging: Path | None, loaded=None) -> JobResult:
    """Load, check (unless `loaded` has the spec already), plan and (given a staging folder)
    write one job. Never raises for bad input: its errors come back as lines, with the exit code
    they call for."""
    from .draw.drawing import TextTooSmall
    from .draw.fonts import MissingLetter, set_fallbacks
    from .games import check_spec
    from .inputs import track_reads
    from .outputs import UnsafeName, new_file_path
    from .spec import display_path, load_spec
    from .spec.loader import SpecErrors
    result = JobResult(job)
    start = time.perf_counter()
    path = job_path(job, root)
    spec = None
    set_fallbacks(())        # (a deck's own fonts are the fallbacks of its own job only)
    try:
        with track_reads() as reads:
            if loaded is not None:
                spec, checked_reads = loaded
                reads.update(checked_reads)
            else:
                spec = load_spec(path, display=display_path(path, root))
                check_spec(spec)
            plan = plan_game(job.game, {str(path): spec}, opts, job.part)
            for product in plan.products.values():
                if staging is not None:
                    target = new_file_path(staging, product.rel)
                    product.write(target)
                    result.sizes[product.rel] = target.stat().st_size
                result.products.append(product.rel)
                result.info[product.rel] = product.info
        result.reads = dict(reads)
        result.notes = list(spec.notes)
    except SpecErrors as exc:
        result.errors, result.exit_code = [SpecError.__str__(e) for e in exc.errors], 1
    except SpecError as exc:
        result.errors, result.exit_code = [str(exc)], 1
    except (TextTooSmall, MissingLetter) as exc:
        # A text from the spec too long for its place (a title for a card's back), or with a letter
        # no font of it has: the spec's error, at the line of the field the text shows.
        where = spec.field_showing(exc.text or exc.char) if spec is not None else None
        error = spec.error(where, str(exc)) if where else SpecError(display_path(path, root), None, "", str(exc))
        result.errors, result.exit_code = [str(error)], 1
    except UnsafeName as exc:
        result.errors, result.exit_code = [one_line(f"pnp: {exc}")], 1
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        result.errors, result.exit_code = [one_line(f"pnp: cannot write{where}: {exc.strerror or exc}")], 2
    except Exception as exc:  # noqa: BLE001  a bug: one line, and the build stops
        result.errors = [one_line(f"pnp: internal error in {job.title} ({type(exc).__name__}: {exc}); this is "
                                  "a bug, please report it with the command and files that caused it")]
        result.exit_code = 70
    result.seconds = time.perf_counter() - start
    return result


# ---------------------------------------------------------------- what is up to date

def code_digest() -> str:
    """A digest of our code, schemas and data files, of the drawing libraries' versions and of the
    products found (those from PNP_PRODUCTS_PATH with their source): any change to them may change
    the files a job writes."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for p in sorted(package.rglob("*")):
        if p.suffix in (".py", ".yaml", ".json", ".ttf", ".txt") and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(package)).encode() + b"\0" + p.read_bytes() + b"\0")
    for lib, version in _library_versions():
        h.update(f"{lib}={version}\0".encode())
    h.update(f"python={sys.version_info[:2]}".encode())
    from .products import products_digest
    h.update(products_digest().encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def _library_versions() -> tuple[tuple[str, str], ...]:
    """Each drawing library's version ("-" if it is not installed), as importlib.metadata.version
    gives it: its metadata's Version header. Read once a process (the libraries a process has
    imported stay what they are), and read from the header alone: version() parses the whole
    file with the email package, a library's long description and all (0.1 s of every build)."""
    from importlib import metadata
    out = []
    for lib in LIBRARIES:
        try:
            dist = metadata.distribution(lib)
        except metadata.PackageNotFoundError:
            out.append((lib, "-"))
            continue
        text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
        head = text.split("\n\n", 1)[0]
        found = re.search(r"^Version:(.*)$", head, re.M)
        out.append((lib, found.group(1).strip() if found else dist.version))
    return tuple(out)


def job_key(job: Job, opts: BuildOptions, code: str) -> str:
    text = json.dumps({"job": job.id, "options": opts.products_key(), "code": code}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def read_manifest(folder: Path) -> dict:
    """The output folder's manifest, or {} (build everything) if it is missing or not ours: read
    as any input is (a regular file, bounded: a FIFO there must not hang the build)."""
    from .inputs import MAX_RECORD_BYTES, read_text
    try:
        data = json.loads(read_text(folder / MANIFEST, MANIFEST, MAX_RECORD_BYTES))
    except (SpecError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT or not isinstance(data.get("jobs"), dict):
        return {}
    # Entries not in the form manifest_entry writes are left out: their jobs run again, and
    # nothing below has to doubt a type.
    return {job_id: entry for job_id, entry in data["jobs"].items() if _well_formed(entry)}


def _well_formed(entry) -> bool:
    from .products.print_list import info_ok
    def mapping(value, values) -> bool:
        return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, values) for k, v in value.items())
    return (isinstance(entry, dict) and isinstance(entry.get("key"), str)
            and isinstance(entry.get("products"), list) and all(isinstance(p, str) for p in entry["products"])
            and mapping(entry.get("reads"), str) and mapping(entry.get("sizes"), int)
            and mapping(entry.get("info"), dict) and all(info_ok(i) for i in entry["info"].values())
            and isinstance(entry.get("seconds"), (int, float)) and not isinstance(entry["seconds"], bool))


def up_to_date(entry: dict | None, key: str, out: Path, root: Path) -> bool:
    """Whether a job's files in `out` still stand for what it read. The manifest lives in the
    output folder, where anyone may have edited it: only files inside the project are hashed (a
    path it names elsewhere, a FIFO or a device makes the job run again, never a read of it)."""
    from .inputs import file_digest
    if not isinstance(entry, dict) or entry.get("key") != key:
        return False
    from .paths import spec_roots
    trusted = [os.path.realpath(r) for r in spec_roots(root)]   # the project's specs and the games' own
    try:
        for p, digest in entry["reads"].items():
            real = os.path.realpath(p)
            if not any(os.path.commonpath([t, real]) == t for t in trusted) or file_digest(real) != digest:
                return False
        return all((out / rel).is_file() and (out / rel).stat().st_size == size
                   for rel, size in entry["sizes"].items())
    except (KeyError, AttributeError, TypeError, ValueError, OSError):
        return False


def manifest_entry(result: JobResult, key: str) -> dict:
    return {"key": key, "reads": dict(sorted(result.reads.items())), "products": result.products,
            "sizes": result.sizes, "info": result.info, "seconds": round(result.seconds, 2)}


def write_manifest(folder: Path, jobs: dict) -> None:
    text = json.dumps({"format": MANIFEST_FORMAT, "jobs": dict(sorted(jobs.items()))}, indent=1, sort_keys=True)
    from .outputs import make_room
    make_room(folder / MANIFEST).write_text(text + "\n", encoding="utf-8")


# ---------------------------------------------------------------- running jobs

class Progress:
    """One line on a terminal that says what is being built and how far along it is; silent when
    stderr is not a terminal (a log, a pipe, CI)."""

    def __init__(self, total: int, stream=None):
        self.stream = stream or sys.stderr
        self.on = total > 0 and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.total, self.done, self.running = total, 0, []
        self.start = time.perf_counter()

    def _show(self) -> None:
        if not self.on:
            return
        doing = ", ".join(self.running[:2]) + (" ..." if len(self.running) > 2 else "")
        width = 20
        filled = width * self.done // max(1, self.total)
        line = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}  {doing}"
        self.stream.write("\r\x1b[2K" + line[:max(20, _columns() - 1)])
        self.stream.flush()

    def started(self, job: Job) -> None:
        self.running.append(job.title)
        self._show()

    def finished(self, job: Job) -> None:
        if job.title in self.running:
            self.running.remove(job.title)
        self.done += 1
        self._show()

    def close(self) -> None:
        if self.on:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        return 80


def workers_for(count: int) -> int:
    """How many processes: one per core (PNP_JOBS overrides), never more than the jobs."""
    try:
        wanted = int(os.environ.get("PNP_JOBS", "0"))
    except ValueError:
        wanted = 0
    return max(1, min(count, wanted if wanted > 0 else (os.cpu_count() or 1)))


_WORK: tuple = ()


# Our own small pool rather than multiprocessing.Pool: the Pool's workers share one task queue
# behind one lock, and its terminate() takes that lock and then sends SIGTERM. A worker killed
# while it held the lock (a SIGTERM to the whole process group) made terminate() wait forever;
# a worker that ended SIGTERM by raising instead could take the signal just before it blocked on
# the lock and sleep there forever (`pnp validate` hung so in a test run; benchmarks/pool_stop.py
# counts about 1 pool in 500). Here each worker has its own pipe and shares nothing, so a worker
# may die anywhere, at any moment: the parent reads the end of its pipe and stops, and stopping a
# worker is SIGKILL. (A worker also inherits the process sentinels of those made before it: unused,
# and harmless, since a worker learns of its parent's death by PR_SET_PDEATHSIG.)

def _worker(conn, parent: int, mask, others: list) -> None:
    """A worker: job indices in through its pipe, (index, result) out, until the pipe closes."""
    # Ctrl-C is the parent's to handle: it stops the workers and tidies up. SIGTERM and SIGHUP
    # keep their default (the worker dies at once: it holds nothing another process waits on).
    # A worker reports everything through its results (run_job never raises), so whatever the
    # machinery might print on the way out is noise.
    sys.stderr = open(os.devnull, "w")
    for sig in STOPPING:
        if sig == signal.SIGINT:
            signal.signal(sig, signal.SIG_IGN)
        elif signal.getsignal(sig) != signal.SIG_IGN:    # left ignored where the command was (nohup)
            signal.signal(sig, signal.SIG_DFL)
    for other in others:          # the parent's ends of its pipe and of those made before it: the
        other.close()             # pipe ends (recv() returns EOF) when the parent closes its end
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)     # the parent held them while forking
    # A worker dies with its parent (even a parent killed outright), never writing on alone;
    # and a parent that died before this line was reached is seen here.
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)
    jobs, root, opts, staging, loaded = _WORK
    while True:
        try:
            index = conn.recv()
        except EOFError:
            return
        try:
            conn.send((index, run_job(jobs[index], root, opts, job_folder(staging, jobs[index]),
                                       loaded.get(jobs[index].id))))
        except Exception as exc:
            # A bug (run_job never raises; a result that cannot be sent): said as such, with its
            # cause, rather than as a worker gone (this process's stderr is not shown).
            import traceback
            cause = traceback.format_exception_only(exc)[-1].strip()
            conn.send((index, RuntimeError(f"a build process failed on {jobs[index].id}: {cause}")))


def _died() -> WorkerDied:
    # Killed by the system (out of memory, say), or by someone: its job will never answer.
    return WorkerDied("a build process died before it finished (killed by the system, out of "
                      "memory?); nothing was written")


def _stop_workers(workers: list, mask) -> None:
    """Every worker killed and reaped (an idle one holds nothing; a busy one's files are staged,
    never kept; one stopped by SIGSTOP would never read the end of its pipe), then the caller's
    signal mask put back. A signal landing meanwhile (a SIGTERM to the whole group reaches the
    parent a moment after its workers) would leave workers unreaped: the stopping signals wait,
    and one already due as they were held (or taken by another thread) starts the tidying again."""
    stopped = None
    while True:
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
            for process, conn in workers:
                conn.close()
                if process.pid is not None:      # started
                    process.kill()
            for process, _ in workers:
                if process.pid is not None:
                    process.join()
            break
        except (KeyboardInterrupt, Terminated) as exc:
            stopped = stopped or exc
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)     # a signal that came meanwhile lands here
    if stopped is not None:
        raise stopped


def job_folder(staging: Path | None, job: Job) -> Path | None:
    """Where one job of a build writes its files: a folder of its own in the staging copy, so
    that two jobs whose products would have one name (decks/Deck.yaml and deck.yaml) never write
    one file at once; the build refuses them when every job is done (cli's clash check) and only
    then gathers each job's files into place (gather_job_files)."""
    if staging is None:
        return None
    return staging / (".pnp-job-" + hashlib.sha256(job.id.encode()).hexdigest()[:16])


def gather_job_files(staging: Path, results: list[JobResult]) -> None:
    """Every job's files moved from its own folder to their places in the staging copy (whatever
    stood there made room for, as a file written there would be), and the job folders gone."""
    import shutil
    from .outputs import new_file_path, output_path
    for result in results:
        folder = job_folder(staging, result.job)
        for rel in result.products:
            os.replace(output_path(folder, rel), new_file_path(staging, rel))
        shutil.rmtree(folder, ignore_errors=True)


def _import_what_every_worker_imports(loaded: dict) -> None:
    """What each worker would import and read for its first job, done once here before they are
    forked, so that they start with it rather than each do it again: the drawing libraries
    (reportlab, with the urllib and ssl it imports; cairo through cffi; Pillow), the shipped fonts
    read by fontTools and registered with reportlab (the build's own process needs them anyway,
    for the print lists it writes after the jobs), and, for a deck of one's own, cairosvg, which
    draws its SVG pictures (0.4 s of CPU to import: its C declarations are parsed), and shapely,
    which cuts every game's kit, board or fold-up and every deck's tuck box (0.3 s, with numpy;
    the tuck box's product imports it for a deck without a box too).
    Done for one worker too: a process that builds again (`pnp build --watch` at each save, or
    any caller of the command's main) forked a worker that imported them afresh each time (0.3 s
    of CPU a one-deck validate), and a one-off build pays them once either way."""
    from .draw import cairo_lib, pdf, raster  # noqa: F401
    from .draw.fonts import FONT_FILES, get_font
    import PIL.Image  # noqa: F401
    cairo_lib.cairo()
    for name in FONT_FILES:
        font = get_font(name)
        font.cmap, font.tt["hmtx"]       # (fontTools reads a table when it is first asked for)
        pdf.register_font(font)
    if any(spec.kind == "deck" for spec, _ in loaded.values()):
        import cairosvg  # noqa: F401
    if not loaded or any(not spec.kind.endswith("-rules") for spec, _ in loaded.values()):
        import shapely.geometry  # noqa: F401     (a rules sheet alone cuts nothing: 0.2 s saved)


def run_jobs(jobs: list[Job], root: Path, opts: BuildOptions, staging: Path | None,
             order: list[int] | None = None, loaded: dict | None = None) -> list[JobResult]:
    """Every job's result, in the jobs' order, run in forked worker processes (started longest
    first, by `order`), one per core, never more than the jobs: one job, or one core, still gets
    a worker of its own. Planning a product is geometry in C (GEOS, through shapely) that can run
    for long in one call, and a process inside a C call does not run its signal handlers: the
    command's own process only waits on its workers' pipes, a wait that Ctrl-C or SIGTERM breaks
    into at once, and stopping a worker is SIGKILL, whatever it is computing. (Serial, in this
    process, only where there is no fork.)"""
    global _WORK
    if not jobs:
        return []
    progress = Progress(len(jobs))
    results: list[JobResult | None] = [None] * len(jobs)
    order = order or list(range(len(jobs)))
    loaded = loaded or {}
    count = workers_for(len(jobs))
    try:
        if not hasattr(os, "fork"):
            for i in order:
                progress.started(jobs[i])
                results[i] = run_job(jobs[i], root, opts, job_folder(staging, jobs[i]), loaded.get(jobs[i].id))
                progress.finished(jobs[i])
        else:
            import multiprocessing
            from multiprocessing.connection import wait
            context = multiprocessing.get_context("fork")
            _import_what_every_worker_imports(loaded)
            _WORK = (jobs, root, opts, staging, loaded)
            workers: list = []                  # (process, the parent's end of its pipe)
            # Ctrl-C or SIGTERM landing while the workers are being made would leave one that is
            # not yet in `workers`: hold them until every worker is listed, and the finally below
            # stops every one.
            held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
            try:
                for _ in range(count):
                    ours, theirs = context.Pipe()
                    process = context.Process(target=_worker, daemon=True,
                                              args=(theirs, os.getpid(), held, [ours] + [c for _, c in workers]))
                    workers.append((process, ours))     # listed before it starts: stopped whatever happens
                    with deferred():                    # and known by its pid once started
                        process.start()
                    theirs.close()
                signal.pthread_sigmask(signal.SIG_SETMASK, held)   # a signal held meanwhile lands here
                waiting = list(order)
                idle = list(workers)
                busy: dict = {}                 # the parent's end of a busy worker's pipe -> that worker
                while waiting or busy:
                    while idle and waiting:
                        worker, i = idle.pop(0), waiting.pop(0)
                        busy[worker[1]] = worker
                        try:
                            worker[1].send(i)
                        except OSError:             # it died between two jobs
                            raise _died() from None
                        progress.started(jobs[i])
                    for conn in wait(list(busy)):
                        try:
                            i, result = conn.recv()
                        except (EOFError, OSError):
                            raise _died() from None
                        if isinstance(result, Exception):
                            raise result
                        results[i] = result
                        progress.finished(jobs[i])
                        idle.append(busy.pop(conn))
            finally:
                try:
                    _stop_workers(workers, held)
                finally:
                    _WORK = ()
    finally:
        progress.close()
    return results


def what_to_build(names: list[str], root: Path) -> list:
    """The jobs of a build: of the games and spec files named; with none named, of what the working
    folder holds (its specs: the games they belong to, and decks of the user's own), or else of
    every game."""
    from .errors import UsageError, show
    from .games import GAMES
    from .paths import is_project, top_specs
    from .spec import display_path, find_specs
    games, paths = [], []
    for name in dict.fromkeys(names):
        if name in GAMES:
            games.append(name)
        elif name.endswith((".yaml", ".yml")) or os.sep in name:
            if not os.path.isfile(name):
                raise UsageError(f"no spec file {show(name)}")
            paths.append(Path(name))
        else:
            raise UsageError(f"unknown game {show(name)}; known: {', '.join(GAMES)} (or a spec file, NAME.yaml)")
    if games or paths:
        return build_jobs(games) + spec_jobs(paths, root)
    here = Path.cwd()
    if root != here or not is_project(here):
        return build_jobs(list(GAMES))
    found = [*top_specs(here), *find_specs(here)]
    # A file where a game's spec is (decks/sorry.yaml) is that game's only if its kind is one of the
    # game's: a deck of one's own saved under that name builds as the deck (spec_jobs).
    rels = [display_path(p, root) for p in found]
    owner = [declared_game(p, rel) for p, rel in zip(found, rels)]
    games = [g for g in GAMES if g in owner]
    others = [p for p, g in zip(found, owner) if g is None]
    return build_jobs(games) + spec_jobs(others, root)
