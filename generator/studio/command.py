"""`pnp studio [SPEC...]`: the studio's server on this machine (or, with --host, on the network with
the token `pnp serve` uses), its page opened in the browser, the folder followed as `pnp build
--watch` follows it (generator/watching.py: the files the last reading read, and any a build may
read), and the print files built again behind each save."""
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from ..errors import UsageError


def studio(names: list[str], host: str = "127.0.0.1", port: int = 8010, browser: bool = True,
           printing: bool = True, out=None) -> int:
    import uvicorn
    from ..paths import project_root
    from ..serve import _url, listen, local_addresses
    from ..serve.app import make_studio_app
    from ..serve.limits import LIMIT_CONNECTIONS, TimedH11Protocol
    from .cards import Studio
    from .printing import Printer
    out = out or sys.stdout
    here = Path.cwd()
    model = Studio(project_root(), names)
    model.specs()                    # UsageError now (no specs here, no such file), before listening
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, got {port}")
    sock, port, token, hosts = listen(host, port, here)
    loopback = token is None
    app = make_studio_app(model, token=token, allowed_hosts=hosts)
    # this machine's own name for it (a browser here opens it), and on a network each address others reach
    wildcard = host in ("0.0.0.0", "::", "")
    url = _url("localhost" if wildcard or host in ("127.0.0.1", "localhost") else host, port, token)
    print(f"pnp studio: the cards of {here}", file=out)
    print(f"  open {url}", file=out)
    for address in (local_addresses() if wildcard else [] if loopback else [host]):
        if _url(address, port, token) != url:
            print(f"  or, from another computer, {_url(address, port, token)}", file=out)
    print("  (every save shows at once; the print files follow in output/; Ctrl-C stops)", file=out)
    out.flush()

    stop = threading.Event()
    printer = Printer(here, names, lambda **status: model.set_printing(**status)) if printing else None
    watcher = threading.Thread(target=follow, args=(model, here, stop, printer), name="pnp-studio-watch", daemon=True)
    watcher.start()
    if printer is not None:
        printer.start()
    if browser:
        import webbrowser
        threading.Timer(0.5, lambda: webbrowser.open(url)).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", ws="none",
                            http=TimedH11Protocol, limit_concurrency=LIMIT_CONNECTIONS,
                            timeout_keep_alive=5, timeout_graceful_shutdown=2)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        stop.set()
        if printer is not None:
            printer.stop()
        watcher.join(5)
        print("pnp studio: stopped; output/ holds the last good build of the print files", file=sys.stderr)
    return 0


def follow(model, here: Path, stop: threading.Event, printer=None) -> None:
    """Read the folder, then again on each save of a file it read (or one a build may read), until
    `stop`; each save that changed what a build reads starts the print files again. The watch starts
    first: a save made while the folder is first read (a thousand cards take seconds) is seen."""
    from ..watching import saves
    read: set[str] = set()
    outside = [os.path.realpath(here / "output")]
    first = True
    for names in saves(here, read, outside, stop_event=stop, debounce=150, step=30,
                       yield_on_timeout=True, rust_timeout=300):
        if not names and not first:
            continue                 # (the watch's own wake-ups, nothing saved)
        first = False
        try:
            model.refresh()
        except Exception as exc:  # noqa: BLE001  a bug: said at the top of the page, and the watch goes on
            model.failed(exc)
        read.clear()
        read.update(model.read)
        if printer is not None and names:
            printer.saved()
