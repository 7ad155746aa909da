"""The `pnp` command: build, validate, calibrate, referee.

Exit codes: 0 done; 1 a spec or build error (nothing written); 2 bad usage or refused input.
"""
from __future__ import annotations

import argparse
import math
import os
import signal
import sys
from pathlib import Path

from .options import LAYOUTS, BuildOptions
from .entry import (Terminated, held_back, hold_signals, ignore_signals, raise_held, stopped, stopped_by,
                    watch_signals)
from .errors import SpecError, UsageError, WorkerDied, one_line, show, plural
from .games import GAMES, check_spec, game_module, game_of_kind
from .outputs import OutputFolder, UnsafeName
from .spec import display_path, find_specs, load_spec
from .spec.loader import SpecErrors
from .paths import project_root


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
    """argparse, with its errors on one line (and exit code 2, as argparse has)."""

    def error(self, message: str):
        self.exit(2, one_line(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n")


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
            specs[p] = spec
        except SpecErrors as exc:
            errors.extend(exc.errors)
        except SpecError as exc:
            errors.append(exc)
    return specs, errors


def _options(args, out: Path | None = None) -> BuildOptions:
    return BuildOptions(out=out or Path("output"), paper=args.paper, flip=args.flip, back_offset=args.back_offset,
                        layouts=tuple(args.layout) if getattr(args, "layout", None) else LAYOUTS,
                        cmyk=args.cmyk, interleave=getattr(args, "interleave", False),
                        pdfx=getattr(args, "pdfx", False))


def _failed(results) -> int:
    """Print every job's errors once, in job order; the exit code they call for (0 if none)."""
    lines = [line for r in results for line in r.errors]
    for line in dict.fromkeys(lines):
        print(line, file=sys.stderr)
    return max((r.exit_code for r in results), default=0)


def cmd_validate(args) -> int:
    from .pipeline import Job, run_jobs
    root = project_root()
    paths = [Path(p) for p in args.paths] or find_specs(root)
    specs, errors = _load(paths, root)
    _print_errors(errors)
    # Then each good spec is planned as a build would plan it (nothing is written): a spec that
    # passes `validate` is one that `build` can make.
    jobs = []
    for p, spec in specs.items():
        game = game_of_kind(spec.kind)
        if game is not None:
            rel = display_path(p, root)
            parts = getattr(game_module(game), "PARTS", {}).get(rel, (None,))
            jobs += [Job(game, rel if not os.path.isabs(rel) else str(p.resolve()), part) for part in parts]
    code = _failed(run_jobs(jobs, root, _options(args), staging=None))
    if errors or code:
        return max(code, 1)
    print(f"{plural(len(specs), 'spec')} valid")
    return 0


def cmd_build(args) -> int:
    from .pipeline import (build_jobs, check_jobs, code_digest, job_key, job_seconds, manifest_entry, read_manifest, run_jobs,
                           up_to_date, write_manifest)
    root = project_root()
    games = list(dict.fromkeys(args.games)) or list(GAMES)
    for g in games:
        if g not in GAMES:
            raise UsageError(f"unknown game {show(g)}; known: {', '.join(GAMES)}")
    out = Path(args.out) if args.out else root / "output"
    opts = _options(args, out)
    jobs = build_jobs(games)
    code = code_digest()
    keys = {job.id: job_key(job, opts, code) for job in jobs}
    previous = read_manifest(out)      # --force rebuilds all, but its timings still order the jobs
    old = {} if args.force else previous
    todo = [job for job in jobs if not up_to_date(old.get(job.id), keys[job.id], out, root)]
    if not todo:
        print(f"pnp: up to date ({len(jobs)} jobs); --force builds again", file=sys.stderr)
        return 0
    loaded, errors, failed = check_jobs(todo, root)
    if errors:
        for line in errors:
            print(line, file=sys.stderr)
        return failed
    # Written into a staging copy of the output folder, which takes its place only when every
    # product of every job is written: --out is left as it was on any failure, Ctrl-C or kill.
    with OutputFolder(out) as staged:
        for g in games:
            # Built again from nothing (--force), or no record of what is ours in this game's
            # folder: it starts empty.
            if args.force or not any(job_id.split("|")[0] == g for job_id in old):
                staged.clear(g)
        if old:       # the files of the jobs run again go (some may not be made again)
            current = {job.id for job in jobs}
            stale = [entry for job_id, entry in old.items()
                     if job_id in {j.id for j in todo} or (job_id.split("|")[0] in games and job_id not in current)]
            for entry in stale:
                for rel in entry.get("products", []):
                    try:
                        staged.path(rel).unlink(missing_ok=True)
                    except (UnsafeName, OSError):
                        pass
            old = {k: v for k, v in old.items() if not (k.split("|")[0] in games and k not in current)}
        longest = sorted(range(len(todo)), key=lambda i: -job_seconds(todo[i], previous))
        results = run_jobs(todo, root, opts, staged.staging, order=longest, loaded=loaded)
        failed = _failed(results)
        if failed:
            return failed
        manifest = dict(old)
        for r in results:
            manifest[r.job.id] = manifest_entry(r, keys[r.job.id])
        lists = _write_print_lists(staged.staging, games, jobs, manifest, opts)
        write_manifest(staged.staging, manifest)
        raise_held()        # a Ctrl-C held back from an import stops the build before the swap
        hold_signals()      # from the swap on the build is done: a late one must not undo it
        staged.commit()
    for r in results:
        for rel in r.products:
            print(display_path(out / rel, root))
    for rel in lists:
        print(display_path(out / rel, root))
    return 0


def _write_print_lists(staging: Path, games: list[str], jobs, manifest: dict, opts) -> list[str]:
    """Each game's print list (GAME/README.txt and print-list.pdf), from every product of its jobs,
    rebuilt or not."""
    from .printlist import write_print_list
    written = []
    for g in games:
        products = []
        for job in jobs:
            if job.game == g:
                entry = manifest.get(job.id, {})
                products += [(rel.split("/", 1)[1], entry.get("info", {}).get(rel, {}))
                             for rel in entry.get("products", [])]
        title = getattr(game_module(g), "TITLE", g)
        written += [f"{g}/{name}" for name in write_print_list(staging, g, title, products, opts.paper, opts.cmyk)]
    return written


def cmd_calibrate(args) -> int:
    from .layout.calibrate import write_calibration
    root = project_root()
    out = Path(args.out) if args.out else root / "output" / f"calibrate-{args.paper}-{args.flip}.pdf"
    write_calibration(out, args.paper, args.flip, args.back_offset, args.cmyk)
    print(display_path(out, root))
    return 0


def cmd_referee(args) -> int:
    from .referee import prompt
    module = game_module(args.game)
    rules = getattr(module, "REFEREE", None)
    if rules is None:
        raise UsageError(f"the {args.game} referee is not built yet")
    p = Parser(prog=f"pnp referee {args.game}")
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser("score", help="replay a game record and score it")
    s.add_argument("record")
    s.add_argument("--json", action="store_true", help="print totals, winner and every turn as JSON")
    pl = sub.add_parser("play", help="take entries at a prompt, journaled; resumes an existing journal")
    pl.add_argument("--journal", help="the journal file (a record); default GAME-DATE-TIME.yaml here")
    if hasattr(module, "play_options"):
        module.play_options(pl)
    extra = module.referee_commands(sub) if hasattr(module, "referee_commands") else {}
    a = p.parse_args(args.rest)
    if a.action == "score":
        return prompt.score(rules, Path(a.record), a.json)
    if a.action == "play":
        return prompt.play(rules, Path(a.journal) if a.journal else None, a)
    return extra[a.action](a)


def cmd_serve(args) -> int:
    from .serve import serve   # the web framework is imported here only: `pnp referee` stays fast
    return serve(Path(args.dir), args.host, args.port, new_token=args.new_token)


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="pnp", description="Print-and-play studio: build, validate, calibrate, referee.")
    p.add_argument("--version", action="version", version=f"pnp {_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    def print_options(sp):
        sp.add_argument("--paper", choices=["a4", "letter"], default="a4", help="sheet size for home printing")
        sp.add_argument("--flip", choices=["long", "short"], default="long",
                        help="duplex: the edge the printer turns the sheet over (default long)")
        sp.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y",
                        help="shift backs by X,Y mm to correct a printer (read it off `pnp calibrate`)")
        sp.add_argument("--cmyk", action="store_true", help="write every colour as CMYK")

    b = sub.add_parser("build", help="build games into output/")
    b.add_argument("games", nargs="*", metavar="GAME", help=f"games to build (default all): {', '.join(GAMES)}")
    b.add_argument("--out", help="output folder (default output/)")
    b.add_argument("--layout", action="append", choices=list(LAYOUTS),
                   help="print layout(s) to write (default all): sheet = imposed for home printing, "
                        "shop = one card a page with bleed and TrimBox")
    b.add_argument("--force", action="store_true", help="build everything again, even what is up to date")
    b.add_argument("--interleave", action="store_true", help="shop PDF: face, back, face, back... "
                                                             "instead of all faces then all backs")
    b.add_argument("--pdfx", action="store_true", help="write the print shop's files (-shop, -large, the map's "
                                                       "halves) as PDF/X-1a:2001: CMYK, with an output intent")
    print_options(b)
    b.set_defaults(func=cmd_build)

    v = sub.add_parser("validate", help="check specs without building")
    v.add_argument("paths", nargs="*", metavar="PATH", help="spec files (default: every spec in decks/ and boards/)")
    v.add_argument("--layout", action="append", choices=list(LAYOUTS), help="as for build")
    print_options(v)
    v.set_defaults(func=cmd_validate)

    c = sub.add_parser("calibrate", help="a duplex test sheet for reading --back-offset")
    c.add_argument("--out", help="output PDF (default output/calibrate-PAPER-FLIP.pdf)")
    print_options(c)
    c.set_defaults(func=cmd_calibrate)

    r = sub.add_parser("referee", help="score a game at the table",
                       usage="pnp referee GAME {score,play,...} ... (pnp referee GAME --help: its commands)",
                       description="The referees: `score RECORD [--json]` replays a game record, `play "
                                   "[--journal FILE]` takes entries at a prompt; some games have more "
                                   "(continuo best, sorry moves).")
    r.add_argument("game", choices=list(GAMES), metavar="GAME", help=f"one of: {', '.join(GAMES)}")
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
    return p


def main(argv=None) -> int:
    previous = watch_signals()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, []) if hasattr(signal, "pthread_sigmask") else None
    try:
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


def _check_environment() -> None:
    # reportlab reads SOURCE_DATE_EPOCH for the date it writes in a PDF (builds are reproducible);
    # a value that is not a whole number of seconds would stop it in the middle of a build.
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isdigit() and int(epoch) < 2**33):
        raise UsageError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, got {show(epoch)}")


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("pnp-generator")
    except (ImportError, PackageNotFoundError):   # run from a checkout that was never installed
        return "(not installed)"


def _main(argv) -> int:
    try:
        _check_environment()
        if not (sys.argv[1:] if argv is None else argv):
            # A bare `pnp`: the help, as `pnp --help` gives it, not argparse's "the following
            # arguments are required".
            parser().print_help()
            return 0
        args = parser().parse_args(argv)
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
