"""Following a folder as a person designs in it: `pnp build --watch` and `pnp studio` both wait here
for a save of a file the last build (or drawing) read, or of any file a build may read that a
person saves (a new picture, a new spec), and are told which files changed."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

# What a build may read that a person saves while designing, whatever the case of its name
# (STAR.SVG): with every file the last build read (its manifest's), a save of these starts a
# rebuild; a save of any other file (the output folder's own, an editor's swap file) does not.
WATCHED = (".yaml", ".yml", ".csv", ".tsv", ".txt", ".png", ".jpg", ".jpeg", ".svg", ".ttf", ".otf", ".json")


def relevant(read: set[str], outside: list[str]) -> Callable[[object, str], bool]:
    """watchfiles' filter: a file read last time, or one of WATCHED's kinds, not inside `outside`
    (real paths: the output folder), not a build's own file nor a hidden one (an editor's)."""
    def keep(change, path: str) -> bool:
        real = os.path.realpath(path)
        return (real in read or path.lower().endswith(WATCHED)) \
            and not any(real == o or real.startswith(o + os.sep) for o in outside) \
            and ".pnp-build" not in path and not os.path.basename(path).startswith(".")
    return keep


def saves(here: Path, read: set[str], outside: list[str], stop_event=None, **timing) -> Iterator[list[str]]:
    """Each save in `here` (a few at once are one), as the changed files' names relative to it,
    sorted; until Ctrl-C (KeyboardInterrupt), or `stop_event` (a threading.Event) is set. `read` is
    looked at on each change: the caller keeps it to what was read last. With `yield_on_timeout`
    (watchfiles'), an empty list each `rust_timeout` ms nothing is saved."""
    import watchfiles
    timing = {"debounce": 150, "step": 50, **timing}
    for changes in watchfiles.watch(here, watch_filter=relevant(read, outside), raise_interrupt=stop_event is None,
                                    ignore_permission_denied=True, stop_event=stop_event, **timing):
        yield sorted({os.path.relpath(p, here) for _, p in changes})


def said(names: list[str]) -> str:
    """The changed files in a few words: "cards.csv", "cards.csv and 2 more"."""
    return f"{names[0]}{f' and {len(names) - 1} more' if len(names) > 1 else ''}"
