"""`pnp serve`: the referees on the phones round the table. A local web server (Starlette on
uvicorn) serving a start page, a table page a game and a JSON API over the same records and the
same referees as `pnp referee` (see app.py for the API, store.py for how records are kept).

This package is imported only by the serve command, so `pnp referee` starts as fast as before."""
from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
from pathlib import Path

from ..errors import UsageError, show

def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit this: a response's headers and body go out at once, not the
    # body ~40 ms later behind the client's delayed ACK (Nagle), which halved keep-alive clients' speed.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def local_addresses() -> list[str]:
    """This machine's addresses other than loopback, as phones on the same network reach it."""
    found = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = info[4][0]
            if not ipaddress.ip_address(addr).is_loopback and addr not in found:
                found.append(addr)
    except OSError:
        pass
    return found


def _url(host: str, port: int, token: str | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def print_qr(url: str, out) -> None:
    try:
        import segno
    except ImportError:    # the URL is printed anyway
        return
    segno.make(url, error="m").terminal(out=out, compact=True)


def serve(folder: Path, host: str, port: int, out=None) -> int:
    out = out or sys.stdout
    import uvicorn
    from .app import make_app
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"--dir {show(str(folder))} is not a folder")
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, got {port}")
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    loopback = is_loopback(host)
    token = None if loopback else secrets.token_urlsafe(18)
    hosts = tuple(f"{h}:{port}" for h in ("127.0.0.1", "localhost", "[::1]")) if loopback else None
    app = make_app(folder, token=token, allowed_hosts=hosts)
    urls = [_url("127.0.0.1" if loopback else h, port, token)
            for h in ([host] if loopback or host not in ("0.0.0.0", "::") else local_addresses() or [host])]
    print(f"pnp serve: the games in {folder.resolve()}", file=out)
    for url in urls:
        print(f"  open {url}", file=out)
    if token:
        print("  (the link carries this session's token: only phones given it can enter)", file=out)
        print_qr(urls[0], out)
    else:
        print("  (this machine only; --host 0.0.0.0 lets phones on your network in, with a token)", file=out)
    print("Ctrl-C stops it; every entry is already in its file.", file=out)
    out.flush()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
