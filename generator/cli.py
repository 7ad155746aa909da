"""The `pnp` command: build, validate, calibrate, referee.

Exit codes: 0 done; 1 a spec or build error (nothing written); 2 bad usage or refused input.
"""
from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import warnings
from pathlib import Path

from .options import EXTRA_LAYOUTS, LAYOUTS, BuildOptions
from .paper import HOME
from .signals import (Terminated, held_back, hold_signals, ignore_signals, raise_held, stopped, stopped_by,
                    watch_signals)
from .errors import SpecError, UsageError, WorkerDied, one_line, show, plural
from .games import GAMES, check_spec, forget_notes, game_of_kind, say_notes
from .outputs import OutputFolder, UnsafeName
from .spec import display_path, find_specs, load_spec
from .spec.loader import SpecErrors
from .paths import project_root
from .project import SETTINGS


MAX_EPOCH = 2**33 - 1    # SOURCE_DATE_EPOCH: the year 2242, and well inside what every date library takes
MAX_BACK_OFFSET = 20.0   # mm: a printer that misregisters more than this needs mending, not a setting


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y in mm (e.g. 0.5,-1), got {show(text)}") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in (x, y)):
        raise argparse.ArgumentTypeError(f"expected X,Y in mm, each between -{MAX_BACK_OFFSET:g} and "
                                         f"{MAX_BACK_OFFSET:g}, got {show(text)}")
    return (x, y)


class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (and exit code 2, as argparse has). The games are
    named in its help only when the help is shown ({games}, {games_titled}): finding them runs the
    code of PNP_GAMES_PATH's packages, which `pnp --version` or `pnp calibrate` must not."""

    def error(self, message: str):
        self.exit(2, one_line(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")

    def format_help(self) -> str:
        text = super().format_help()
        if "{games" in text:
            text = text.replace("{games}", ", ".join(GAMES)).replace(
                "{games_titled}", ", ".join(f"{g} ({d.title})" for g, d in GAMES.items()))
        return text


def _game_id(name: str) -> str:
    """A game named on the command line (argparse's type: checked when the argument is read)."""
    if name not in GAMES:
        raise argparse.ArgumentTypeError(f"unknown game {show(name)}; known: {', '.join(GAMES)}")
    return name


def _print_errors(errors) -> None:
    # A spec that others name (a deck a board or a shoe reads) reports the same error through
    # each of them: print it once.
    for line in dict.fromkeys(str(e) for e in errors):
        print(line, file=sys.stderr)


def _load(paths: list[Path], root: Path):
    """Load, validate and check specs; return (specs by path, errors)."""
    specs, errors = {}, []
    for p in paths:
        try:
            spec = load_spec(p, display=display_path(p, root))
            check_spec(spec)
            say_notes(spec)
            specs[p] = spec
        except SpecErrors as exc:
            errors.extend(exc.errors)
        except SpecError as exc:
            errors.append(exc)
    return specs, errors


def _printer(args, say: bool = False) -> None:
    """--paper, --flip and --back-offset as the command line gives them, else as the folder's
    settings file (pnp-settings.yaml) says, else the defaults (A4, long edge, no offset). With
    `say`, one line on stderr says which were used and where they came from."""
    from .project import Settings, read_settings
    try:
        settings = read_settings(Path.cwd())
    except OSError:
        settings = Settings()
    except SpecError as exc:
        if not getattr(args, "save", False):
            raise
        # `calibrate --save` replaces the file: a bad one must not stop the command that mends it.
        print(f"pnp: {SETTINGS} is replaced (it was not read: {exc})", file=sys.stderr)
        settings = Settings()
    came = {}
    # The cutting machine the folder names (cut: MACHINE), where the command takes --cut and the
    # command line names none; kept for calibrate --save, which writes the file again.
    if getattr(args, "cut", "") is None and settings.cut and args.command in ("build", "validate"):
        args.cut = settings.cut
    args.kept_cut = settings.cut
    for key, default in (("paper", "a4"), ("flip", "long"), ("back_offset", (0.0, 0.0))):
        given = getattr(args, key, None)
        kept = getattr(settings, key)
        if given is not None:
            came[key] = "the command line"
        elif kept is not None:
            setattr(args, key, kept)
            came[key] = settings.file
        else:
            setattr(args, key, default)
    # The paper, named once here: everything below is handed the Paper itself.
    from .paper import PAPERS
    args.paper = PAPERS[args.paper] if isinstance(args.paper, str) else args.paper
    if say and any(getattr(settings, k) is not None for k in ("paper", "flip", "back_offset")):
        x, y = args.back_offset
        from_file = [k for k in ("paper", "flip", "back_offset") if came.get(k) == settings.file]
        print(f"pnp: paper {args.paper.name}, flip on {args.flip} edge, back offset {x:g},{y:g} ("
              + (f"{', '.join(k.replace('_', ' ') for k in from_file)} from {settings.file}" if from_file
                 else f"the command line over {settings.file}") + ")", file=sys.stderr)


def _options(args, out: Path | None = None) -> BuildOptions:
    return BuildOptions(out=out or Path("output"), paper=args.paper, flip=args.flip, back_offset=args.back_offset,
                        layouts=tuple(args.layout) if getattr(args, "layout", None) else LAYOUTS,
                        cmyk=args.cmyk, interleave=getattr(args, "interleave", False),
                        pdfx=getattr(args, "pdfx", False),
                        extra=_extra(args))


def _extra(args) -> dict:
    """The products' own options given (by dest); with --shop, the profile file it names too: which
    file it is (ours, or the folder's own of that name) belongs to the build's key, its edits to
    the build's reads."""
    extra = {dest: value for dest in getattr(args, "product_options", ())
             if (value := getattr(args, dest)) not in (None, False)}
    if extra.get("shop"):
        from .shops import profile_files
        path = profile_files(project_root()).get(extra["shop"])
        if path is not None:
            extra["shop_profile"] = str(path)
    return extra


def _shop_list() -> int:
    """`pnp build --shop list`: every shop profile (ours and the folder's own), what it takes."""
    from .shops import load_profile, shop_names
    root = project_root()
    for name in shop_names(root):
        try:
            p = load_profile(name, root)
        except SpecError as exc:
            print(f"{name}: {exc}")
            continue
        what = {"pdf": lambda: f"one PDF a deck ({p.pdf['standard']}, total ink at most {p.pdf['total_ink']} %)",
                "pictures": lambda: f"a {p.pictures['format'].upper()} a card side at {p.pictures['dpi']} dpi, zipped",
                "tts": lambda: f"deck sheets of up to {p.tts['columns']} x {p.tts['rows']} cards, "
                               f"{p.tts['max_pixels']} px at most, and a saved object"}[p.files]()
        products = ", ".join(f"{k} {v.width:.1f} x {v.height:.1f} mm" for k, v in p.products.items()) or "any card size"
        print(f"{name}: {p.title}: {what}; products: {products} ({p.file})")
    return 0


def _check_shop(args) -> None:
    """--shop NAME names a profile that reads: else one line and exit 2 (an unknown shop) or 1 (a
    profile of the folder's own that is wrong), before any job runs."""
    if getattr(args, "shop", None) == "list":
        raise UsageError("--shop list lists the shops: pnp build --shop list")
    if getattr(args, "shop", None):
        from .shops import ShopError, load_profile
        try:
            load_profile(args.shop, project_root())
        except ShopError as exc:
            raise UsageError(f"--shop: {exc}") from None


def _failed(results) -> int:
    """Print every job's notes and errors once, in job order; the exit code they call for (0 if
    none)."""
    for r in results:
        say_notes(r)
    lines = [line for r in results for line in r.errors]
    for line in dict.fromkeys(lines):
        print(line, file=sys.stderr)
    return max((r.exit_code for r in results), default=0)


def _clash(owners) -> int:
    """1, with its one line said, if two jobs' products share a file name (compared as the file
    systems users copy to compare names); else 0."""
    from .outputs import clashing_products
    clash = clashing_products(owners)
    if clash:
        print(one_line(f"pnp: {clash}"), file=sys.stderr)
        return 1
    return 0


def cmd_validate(args) -> int:
    from .paths import top_specs
    from .pipeline import Job, run_jobs
    _printer(args)
    _check_shop(args)
    root = project_root()
    paths = [Path(p) for p in args.paths] or top_specs(root) + find_specs(root)
    specs, errors = _load(paths, root)
    _print_errors(errors)
    # Then each good spec is planned as a build would plan it (nothing is written): a spec that
    # passes `validate` is one that `build` can make.
    from .pipeline import declared_game
    jobs, loaded = [], {}
    for p, spec in specs.items():
        rel = display_path(p, root)
        # planned as the build plans it: a game's own spec as part of that game (the Count Continuo
        # rules with Count Continuo, though Continuo's share their kind), anything else by its kind
        game = declared_game(p, rel, spec.kind) or game_of_kind(spec.kind)
        if game is not None:
            parts = GAMES[game].parts.get(rel, (None,))
            for part in parts:
                job = Job(game, rel if not os.path.isabs(rel) else os.path.realpath(p), part)
                jobs.append(job)
                # (checked here already: the workers, forked after, start from it rather than read,
                # check and draw a deck again, once a part)
                loaded[job.id] = (spec, {})
    results = run_jobs(jobs, root, _options(args), staging=None, loaded=loaded)
    code = _failed(results) or _clash([(r.job.spec, r.products) for r in results])
    if errors or code:
        return max(code, 1)
    print(f"{plural(len(specs), 'spec')} valid")
    return 0


def cmd_build(args) -> int:
    import time
    if getattr(args, "shop", None) == "list":
        return _shop_list()
    _printer(args, say=True)
    _check_shop(args)
    if getattr(args, "watch", False):
        return _watch(args)
    start = time.perf_counter()
    code, written, out = _build(args)
    if written and not args.list and sys.stdout.isatty():
        print(build_summary(written, out, time.perf_counter() - start))
    else:           # piped (a script reads the paths), or --list
        for rel in written:
            print(display_path(out / rel, Path.cwd()))
    return code


def build_summary(written: list[str], out: Path, seconds: float) -> str:
    """What a build made, where, in how long, and what to print first: a screen a person reads
    (the files one by one with --list, or when the output is piped)."""
    from .products.print_list import PDF_NAME
    per_game: dict[str, int] = {}
    for rel in written:
        game = rel.split("/", 1)[0]
        per_game[game] = per_game.get(game, 0) + 1
    where = display_path(out, Path.cwd())
    lines = [f"pnp: {plural(len(written), 'file')} written for {plural(len(per_game), 'game')} into {where}/ "
             f"in {seconds:.1f} s"]
    width = max(len(g) for g in per_game)
    for game, count in per_game.items():
        title = GAMES[game].title if game in GAMES else game
        lines.append(f"  {display_path(out / game, Path.cwd())}/{' ' * (width - len(game))}  "
                     f"{plural(count, 'file'):>9}  {title}")
    first = display_path(out / next(iter(per_game)) / PDF_NAME, Path.cwd())
    lines.append(f"Print first: each game's {PDF_NAME} ({first}, ...): every file to print or cut, on what, "
                 "in order, with the rules sheet first; README.txt beside it says the same. "
                 "`pnp build --list` names every file.")
    return "\n".join(lines)


def _watch(args) -> int:
    """Build, then build again each time a spec, a spreadsheet, a picture or a font in this folder
    is saved, a line each time; Ctrl-C (or SIGTERM) ends it, exit 0. A build that fails says why in
    one line, and the output folder keeps the last good build."""
    import time
    from datetime import datetime
    from .paths import is_project
    from .pipeline import read_manifest
    from .watching import said, saves
    here = Path.cwd()
    out = Path(args.out) if args.out else Path("output")
    outside = [os.path.realpath(out)]
    # A watch of a folder's own specs stays one: with its specs moved away it builds nothing (it
    # once built all five games instead), and says so.
    project = not args.games and is_project(here)
    read: set[str] = set()

    def once(reason: str) -> None:
        start = time.perf_counter()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, []) if hasattr(signal, "pthread_sigmask") else None
        try:
            if project and not is_project(here):
                raise UsageError(f"no specs in {here} any more: nothing to build")
            code, written, _ = _build(args, quiet=True)
            if code == 0:
                read.clear()
                read.update(p for entry in read_manifest(out).values() for p in entry["reads"])
        except Exception as exc:     # noqa: BLE001  a bad save says why and the watch goes on
            code, written = _failed_with(exc), []
        finally:
            # A build holds Ctrl-C from its swap to its end (it is done by then); the watch goes on,
            # and a Ctrl-C held meanwhile stops it here.
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        took = time.perf_counter() - start
        outcome = (f"{plural(len(written), 'file')} written" if written else "nothing to do") if code == 0 else \
            f"failed (exit {code}): the last good build stays in {out}"
        print(f"{datetime.now():%H:%M:%S} {reason}: {outcome}, {took:.2f} s", flush=True)

    try:
        once("built")
        print(f"pnp: watching {here}: save a spec, a spreadsheet or a "
              "picture to build again; Ctrl-C stops", file=sys.stderr, flush=True)
        for names in saves(here, read, outside):
            once(f"{said(names)} changed")
    except (KeyboardInterrupt, Terminated):
        print("pnp: stopped watching; the output folder holds the last good build", file=sys.stderr)
    return 0


def _build(args, quiet: bool = False) -> tuple[int, list[str], Path]:
    """One build: (exit code, the files written, --out)."""
    from .pipeline import what_to_build
    root = project_root()
    jobs = what_to_build(args.games, root)
    games = list(dict.fromkeys(job.game for job in jobs))
    out = Path(args.out) if args.out else Path("output")
    # A build replaces --out whole: refused at once if it holds what must not be replaced.
    protect = {"the specs in decks/": root / "decks", "the specs in boards/": root / "boards", "the project": root}
    try:
        protect = {"the working folder": Path.cwd(), **protect}
    except OSError:        # the working folder is gone: nothing of it to keep
        pass
    folder = OutputFolder(out, protect)
    # One build at a time into --out, from reading its manifest to the swap; the staging folders
    # of killed builds are swept first, whether or not anything needs building.
    with folder.locked():
        folder.sweep()
        code, written = _build_into(folder, out, root, games, jobs, args, quiet)
    return code, written, out


def _build_into(folder: OutputFolder, out: Path, root: Path, games: list[str], jobs: list,
                args, quiet: bool = False) -> tuple[int, list[str]]:
    """The build proper, --out locked: its exit code, and the files written (once swapped in)."""
    from .pipeline import (Job, check_jobs, code_digest, gather_job_files, job_key, job_seconds, manifest_entry,
                           read_manifest, run_jobs, up_to_date, write_manifest)
    opts = _options(args, out)

    def game_of(job_id) -> str | None:
        job = Job.parse(job_id)
        return job.game if job else None
    code = code_digest()
    keys = {job.id: job_key(job, opts, code) for job in jobs}
    # A game some of whose specs were named (`pnp build decks/continuo_rules.yaml`) is built in
    # part: its other specs' files, and their lines in its print list, stay as the last build left
    # them (they once went, as if those specs were no longer the game's). Its jobs are those a
    # build of the folder would plan, in that order, and the ones named: a job of a spec deleted
    # or renamed since, or of a part the game no longer makes, goes as in a whole build.
    named = set(args.games or ())
    in_part = {job.game for job in jobs} - named if any(n not in GAMES for n in named) else set()
    planned: dict[str, list[str]] = {g: [] for g in in_part}
    previous = read_manifest(out)
    if in_part:
        from .pipeline import what_to_build
        try:
            whole = what_to_build([], root)
        except (UsageError, SpecError, OSError):      # (the folder not plannable: what the manifest has stays)
            whole = [j for j in map(Job.parse, previous) if j]
        for job in [*whole, *jobs]:
            if job.game in in_part and job.id not in planned[job.game]:
                planned[job.game].append(job.id)
    current = {job.id for job in jobs}

    def gone(job_id) -> bool:          # a job of a game built now that the game no longer has
        g = game_of(job_id)
        return g in games and job_id not in current and job_id not in planned.get(g, ())
    # --force builds the games named whole from nothing and the specs named again; what else the
    # manifest records stays (its timings still order the jobs).
    old = {k: v for k, v in previous.items() if not (args.force and game_of(k) in games and game_of(k) not in in_part)}
    todo = [job for job in jobs if args.force or not up_to_date(old.get(job.id), keys[job.id], out, root)]
    if not todo:
        if not quiet:
            print(f"pnp: up to date ({len(jobs)} jobs); --force builds again", file=sys.stderr)
        return 0, []
    loaded, errors, failed = check_jobs(todo, root)
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return failed, []
    # Written into a staging copy of the output folder, which takes its place only when every
    # product of every job is written: --out is left as it was on any failure, Ctrl-C or kill.
    with folder as staged:
        for g in games:
            # No record of what is ours in this game's folder (or a game built whole with --force):
            # it starts empty.
            if not any(game_of(job_id) == g for job_id in old):
                staged.clear(g)
        if old:       # the files of the jobs run again go (some may not be made again)
            rerun = {j.id for j in todo}
            stale = [entry for job_id, entry in old.items() if job_id in rerun or gone(job_id)]
            for entry in stale:
                for rel in entry.get("products", []):
                    try:
                        staged.path(rel).unlink(missing_ok=True)
                    except (UnsafeName, OSError):
                        pass
            old = {k: v for k, v in old.items() if not gone(k)}
            if args.force:
                # A game built in part with --force: its folder holds its other jobs' files and
                # nothing else, as a game built whole from nothing would.
                for g in in_part:
                    staged.keep_only(g, {rel for k, v in old.items() if game_of(k) == g and k not in rerun
                                         for rel in v.get("products", [])})
        longest = sorted(range(len(todo)), key=lambda i: -job_seconds(todo[i], previous))
        results = run_jobs(todo, root, opts, staged.staging, order=longest, loaded=loaded)
        failed = _failed(results)
        if failed:
            return failed, []
        for line in dict.fromkeys(info["warning"] for r in results for info in r.info.values() if info.get("warning")):
            print(f"pnp: warning: {line}", file=sys.stderr)
        manifest = dict(old)
        for r in results:
            manifest[r.job.id] = manifest_entry(r, keys[r.job.id])
        # Two products of one name (decks/Deck.yaml and Deck.yaml, titles that fold to one file
        # name): the staging copy is thrown away, --out as it was.
        failed = _clash([(Job.parse(job_id).spec if Job.parse(job_id) else job_id, entry["products"])
                         for job_id, entry in manifest.items()])
        if failed:
            return failed, []
        gather_job_files(staged.staging, results)
        # (a game built in part lists its jobs the manifest holds, in the order a build plans them)
        listed = [j for j in jobs if j.game not in in_part] + [Job.parse(k) for g in in_part for k in planned[g]
                                                               if k in manifest]
        lists = _write_print_lists(staged.staging, games, [j for j in listed if j], manifest, opts)
        write_manifest(staged.staging, manifest)
        raise_held()        # a Ctrl-C held back from an import stops the build before the swap
        hold_signals()      # from the swap on the build is done: a late one must not undo it
        staged.commit()
    return 0, [rel for r in results for rel in r.products] + lists


def _write_print_lists(staging: Path, games: list[str], jobs, manifest: dict, opts) -> list[str]:
    """Each game's print list (GAME/README.txt and print-list.pdf), from every product of its jobs,
    rebuilt or not."""
    from .draw.fonts import set_fallbacks
    from .products.print_list import write_print_list
    written = []
    for g in games:
        products = []
        reads: set[str] = set()
        for job in jobs:
            if job.game == g:
                entry = manifest.get(job.id, {})
                products += [(rel.split("/", 1)[1], entry.get("info", {}).get(rel, {}))
                             for rel in entry.get("products", [])]
                reads.update(entry.get("reads", {}))
        title = GAMES[g].title
        set_fallbacks(_fonts_read(reads))     # a deck's title in its own font, as on its box
        try:
            written += [f"{g}/{name}" for name in write_print_list(staging, g, title, products, opts.paper, opts.cmyk)]
        finally:
            set_fallbacks(())
    return written


def _fonts_read(paths) -> list[str]:
    """The fonts among the files the game's jobs read (a deck's own fonts), loaded as they were."""
    from .draw.fonts import MAX_FONT_BYTES, font_from_bytes
    from .inputs import read_bytes
    names = []
    for path in sorted(paths):
        try:
            with open(path, "rb") as f:
                if f.read(4) not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
                    continue
            names.append(font_from_bytes(read_bytes(Path(path), path, MAX_FONT_BYTES)).name)
        except Exception:  # noqa: BLE001  (a font that read well in its job and not now: left out)
            continue
    return names


def cmd_copy(args) -> int:
    from .project import copy_game
    for rel in copy_game(args.game, Path.cwd()):
        print(rel)
    print(f"pnp: {GAMES[args.game].title}'s specs are here: edit them, then pnp build (these build instead of "
          "the game's own)", file=sys.stderr)
    return 0


def cmd_new(args) -> int:
    from .project import new_deck
    for rel in new_deck(args.name, Path.cwd()):
        print(rel)
    print(f"pnp: a deck of your own, {args.name}: edit {args.name}.yaml and {args.name}.csv, then pnp build",
          file=sys.stderr)
    return 0


def cmd_calibrate(args) -> int:
    from .products.pdf import write_pdf
    from .layout.calibrate import calibration_pages
    _printer(args)
    if args.cut:
        return _calibrate_cutter(args)
    out = Path(args.out) if args.out else Path("output") / f"calibrate-{args.paper.name}-{args.flip}.pdf"
    from .outputs import OutputFolder, refuse_unless_regular
    # Everything checked, and the sheet written, before the settings are: a refused --out (a
    # folder, a device) once ended 2 with pnp-settings.yaml rewritten all the same.
    refuse_unless_regular(out)
    pages = calibration_pages(args.paper, args.flip, args.back_offset)
    with OutputFolder.between_builds(out.parent):
        write_pdf(out, f"Duplex calibration, {args.paper.label}, flip on {args.flip} edge", pages, args.cmyk)
    if args.save:
        from .project import write_settings
        path = write_settings(Path.cwd(), args.paper.name, args.flip, args.back_offset, args.kept_cut)
        x, y = args.back_offset
        print(f"pnp: {path.name} remembers paper {args.paper.name}, flip on {args.flip} edge, back offset {x:g},{y:g}: "
              "every build in this folder uses them", file=sys.stderr)
    print(display_path(out, Path.cwd()))
    return 0


def _calibrate_cutter(args) -> int:
    """`pnp calibrate --cut MACHINE`: the cutter calibration sheet (its PDF and, beside it, its cut
    files), written whole or not at all; with --save, the folder remembers the machine too."""
    from .cutters import cutter
    from .cutters.calibration import calibration_sheet, cut_files
    from .outputs import OutputFolder, atomic_path, refuse_unless_regular
    from .products.pdf import write_pdf
    machine = cutter(args.cut)
    if machine.kind == "picture":
        raise UsageError(f"--cut {args.cut}: {machine.software} calibrates Print Then Cut itself (its menu, "
                         "Calibration, Print Then Cut): print and cut its own sheet")
    out = Path(args.out) if args.out else Path("output") / f"cutter-calibration-{args.cut}-{args.paper.name}.pdf"
    sheet, page = calibration_sheet(machine, args.paper)
    files = {out.with_suffix(f".{kind}"): data for kind, data in cut_files(machine, sheet).items()}
    for path in [out, *files]:
        refuse_unless_regular(path)
    with OutputFolder.between_builds(out.parent):
        write_pdf(out, f"Cutter calibration, {machine.title}, {args.paper.label}", [page], args.cmyk)
        for path, data in files.items():
            with atomic_path(path) as tmp:
                Path(tmp).write_bytes(data)
    if args.save:
        from .project import write_settings
        path = write_settings(Path.cwd(), args.paper.name, args.flip, args.back_offset, args.cut)
        print(f"pnp: {path.name} remembers the {machine.title}: every build in this folder makes its sheets",
              file=sys.stderr)
    for path in [out, *files]:
        print(display_path(path, Path.cwd()))
    return 0


def cmd_referee(args) -> int:
    from .referee import prompt
    game = GAMES[args.game]
    if game.referee is None:
        raise UsageError(f"{args.game} has no referee")
    rules = game.referee()
    p = Parser(prog=f"pnp referee {args.game}")
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser("score", help="replay a game record and score it")
    s.add_argument("record")
    s.add_argument("--json", action="store_true", help="print totals, winner and every turn as JSON")
    pl = sub.add_parser("play", help="take entries at a prompt, journaled; resumes an existing journal")
    pl.add_argument("--journal", help="the journal file (a record); default GAME-DATE-TIME.yaml here")
    if game.play_options is not None:
        game.play_options(pl)
    extra = game.referee_commands(sub) if game.referee_commands is not None else {}
    a = p.parse_args(args.rest)
    if a.action == "score":
        return prompt.score(rules, Path(a.record), a.json)
    if a.action == "play":
        return prompt.play(rules, Path(a.journal) if a.journal else None, a)
    return extra[a.action](a)


def cmd_serve(args) -> int:
    from .serve import serve   # the web framework is imported here only: `pnp referee` stays fast
    return serve(Path(args.dir), args.host, args.port, new_token=args.new_token)


def cmd_studio(args) -> int:
    from .studio.command import studio   # the web framework is imported here only
    return studio(args.specs, args.host, args.port, browser=not args.no_browser, printing=not args.no_print)


def product_options(sp) -> None:
    """The options products declare for themselves (a print shop's `--shop NAME`), on this command;
    their values reach the products as BuildOptions.extra (by dest)."""
    from .products import products
    before = len(sp._actions)
    for product in products():
        if product.options is not None:
            product.options(sp)
    sp.set_defaults(product_options=tuple(a.dest for a in sp._actions[before:]))


def parser(command: str | None = "build") -> argparse.ArgumentParser:
    """The command line. Products' own options (found on PNP_PRODUCTS_PATH too: code) are added to
    `build` and `validate` only when `command` is one of them: `pnp --version`, `calibrate` or
    `referee` import no product module."""
    with_products = command in ("build", "validate")
    p = Parser(prog="pnp", description="Print-and-play studio: build, validate, calibrate, referee.",
               epilog="games: {games_titled}")
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command", required=True)

    def print_options(sp):
        # No defaults here: _printer fills what the command line leaves out from the folder's
        # settings file, then a4, long, 0,0.
        sp.add_argument("--paper", choices=list(HOME), help="sheet size for home printing (default a4)")
        sp.add_argument("--flip", choices=["long", "short"],
                        help="duplex: the edge the printer turns the sheet over (default long)")
        sp.add_argument("--back-offset", type=_offset, metavar="X,Y",
                        help="shift backs by X,Y mm to correct a printer (read it off `pnp calibrate`)")
        sp.add_argument("--cmyk", action="store_true", help="write every colour as CMYK")

    b = sub.add_parser("build", help="build games into output/")
    b.add_argument("games", nargs="*", metavar="GAME|SPEC",
                   help="games ({games}) or spec files (NAME.yaml) to build; by default the specs "
                        "in this folder (a project: decks/, boards/ or specs at its top), else every game")
    b.add_argument("--out", help="output folder (default ./output)")
    b.add_argument("--layout", action="append", choices=list(LAYOUTS + EXTRA_LAYOUTS),
                   help="print layout(s) to write (default all): sheet = imposed for home printing, "
                        "shop = one card a page with bleed and TrimBox; only when named: png = a picture a "
                        "card, showcase and hand = the faces in perspective or fanned, a picture to show")
    b.add_argument("--force", action="store_true", help="build everything again, even what is up to date")
    b.add_argument("--watch", action="store_true",
                   help="build, then build again whenever a spec, spreadsheet, picture or font here is saved "
                        "(Ctrl-C stops)")
    b.add_argument("--interleave", action="store_true", help="shop PDF: face, back, face, back... "
                                                             "instead of all faces then all backs")
    b.add_argument("--pdfx", action="store_true", help="write the print shop's files (-shop, -large, the map's "
                                                       "halves) as PDF/X-1a:2001: CMYK, with an output intent")
    b.add_argument("--list", action="store_true", help="name every file written, one a line (as when the output "
                                                       "is piped), instead of the summary")
    print_options(b)
    if with_products:
        product_options(b)
    b.set_defaults(func=cmd_build)

    v = sub.add_parser("validate", help="check specs without building")
    v.add_argument("paths", nargs="*", metavar="PATH", help="spec files (default: every spec in decks/ and boards/)")
    v.add_argument("--layout", action="append", choices=list(LAYOUTS + EXTRA_LAYOUTS), help="as for build")
    print_options(v)
    if with_products:
        product_options(v)
    v.set_defaults(func=cmd_validate)

    c = sub.add_parser("calibrate", help="a duplex test sheet for reading --back-offset")
    c.add_argument("--out", help="output PDF (default output/calibrate-PAPER-FLIP.pdf)")
    c.add_argument("--save", action="store_true",
                   help=f"remember --paper, --flip and --back-offset (and --cut) in this folder ({SETTINGS}): "
                        "every build here uses them")
    from .cutters import MACHINES
    c.add_argument("--cut", choices=list(MACHINES),
                   help="instead, a cutting machine's calibration sheet and its cut file (the machine's own "
                        "offset, read off a scale after one cut)")
    print_options(c)
    c.set_defaults(func=cmd_calibrate)

    cp = sub.add_parser("copy", help="copy a game's specs here, to change them (they then build instead)")
    cp.add_argument("game", type=_game_id, metavar="GAME", help="one of: {games}")
    cp.set_defaults(func=cmd_copy)

    n = sub.add_parser("new", help="start something of your own here: pnp new deck NAME")
    n.add_argument("what", choices=["deck"], help="deck: a deck of cards from a spec and a spreadsheet")
    n.add_argument("name", help="its name (the files are NAME.yaml, NAME.csv...)")
    n.set_defaults(func=cmd_new)

    r = sub.add_parser("referee", help="score a game at the table",
                       usage="pnp referee GAME {score,play,...} ... (pnp referee GAME --help: its commands)",
                       description="The referees: `score RECORD [--json]` replays a game record, `play "
                                   "[--journal FILE]` takes entries at a prompt; some games have more "
                                   "(continuo best, sorry moves).")
    r.add_argument("game", type=_game_id, metavar="GAME", help="one of: {games}")
    r.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    r.set_defaults(func=cmd_referee)

    sv = sub.add_parser("serve", help="the referees as a web page for the phones at the table")
    sv.add_argument("--dir", default=".", help="the folder of game records (default: here)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0: your network, "
                         "with a token)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any free one)")
    sv.add_argument("--new-token", action="store_true",
                    help="make a new token for the phones (the old link stops working); by default the "
                         "token kept in DIR is used again, so phones stay in when the server restarts")
    sv.set_defaults(func=cmd_serve)

    st = sub.add_parser("studio", help="a page showing every card of this folder's decks as you save")
    st.add_argument("specs", nargs="*", metavar="SPEC", help="spec files (NAME.yaml) or games to show; by default "
                                                            "the specs in this folder")
    st.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    st.add_argument("--no-print", action="store_true", help="do not build the print files in the background")
    st.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only; "
                                                         "another: with a token, as pnp serve)")
    st.add_argument("--port", type=int, default=8010, help="port (default 8010; 0: any free one)")
    st.set_defaults(func=cmd_studio)
    return p


def main(argv=None) -> int:
    previous = watch_signals()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, []) if hasattr(signal, "pthread_sigmask") else None
    try:
        with quiet_libraries():
            code = _main(argv)
        late = held_back()      # a signal held back from an import, the command done meanwhile
        return stopped(late) if late is not None else code
    finally:
        # A signal held since a build was swapped in is dropped (the build is done), then the
        # caller's handlers and mask are put back.
        if mask is not None and set(signal.pthread_sigmask(signal.SIG_BLOCK, [])) != set(mask):
            ignore_signals()
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def quiet_libraries():
    """Python's warnings silenced while the command runs (its build workers, forked, too): a
    library's warning about a user's file (Pillow's "Tag data larger than file" for a JPEG's
    damaged EXIF) once reached the terminal as two lines of Python, a path and a source line. What
    the tool has to say of a file it says itself, in one line naming it. `python -W` or
    PYTHONWARNINGS shows them, for a developer."""
    if sys.warnoptions:
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _check_environment() -> None:
    # reportlab reads SOURCE_DATE_EPOCH for the date it writes in a PDF (builds are reproducible);
    # a value that is not a whole number of seconds would stop it in the middle of a build.
    # Only ASCII digits: str.isdigit() is true of "²" and "٣", which int() refuses or reads as 3.
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isascii() and epoch.isdigit() and len(epoch) <= 11 and int(epoch) <= MAX_EPOCH):
        raise UsageError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, from 0 to {MAX_EPOCH}, "
                         f"got {show(epoch)}")


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("pnp-generator")
    except (ImportError, PackageNotFoundError):   # run from a checkout that was never installed
        return "(not installed)"


class _VersionAction(argparse.Action):
    """--version, the version looked up only when asked for: importlib.metadata and its search of
    every installed distribution took 20 to 40 ms of every command's start. (argparse's own takes
    the text when the parser is made; its class is private.)"""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show pnp's version and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"pnp {_version()}")
        parser.exit()


def _main(argv) -> int:
    try:
        _check_environment()
        if not (sys.argv[1:] if argv is None else argv):
            # A bare `pnp`: the help, as `pnp --help` gives it, not argparse's "the following
            # arguments are required".
            parser(None).print_help()
            return 0
        argv = sys.argv[1:] if argv is None else argv
        # the command: argparse's first positional (only --version and --help may come before it)
        args = parser(next((a for a in argv if not a.startswith("-")), None)).parse_args(argv)
        forget_notes()
        if args.func not in (cmd_calibrate, cmd_new):
            GAMES.load()      # before any spec is read: a game from PNP_GAMES_PATH brings its kinds
        return args.func(args)
    except (KeyboardInterrupt, Terminated):
        return stopped()
    except Exception as exc:  # noqa: BLE001  the last line of defence: one line, never a traceback
        if stopped_by:      # a signal, come out of a library as some other error
            return stopped()
        return _failed_with(exc)


def _failed_with(exc: Exception) -> int:
    """The one line and exit code an error gets."""
    if isinstance(exc, UsageError):
        print(one_line(f"pnp: {exc}"), file=sys.stderr)
        return 2
    if isinstance(exc, SpecError):
        print(str(exc), file=sys.stderr)
        return 1
    if isinstance(exc, (WorkerDied, UnsafeName)):
        print(one_line(f"pnp: {exc}"), file=sys.stderr)
        return 1
    if isinstance(exc, BrokenPipeError):
        # Output piped into `head` and the like: stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
    if isinstance(exc, OSError):
        where = f" {exc.filename}" if exc.filename else ""
        print(one_line(f"pnp: cannot read or write{where}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    print(one_line(f"pnp: internal error ({type(exc).__name__}: {exc}); this is a bug, please report "
                   "it with the command and files that caused it"), file=sys.stderr)
    return 70


if __name__ == "__main__":
    sys.exit(main())
