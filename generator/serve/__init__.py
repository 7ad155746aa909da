"""`pnp serve`: the referees on the phones round the table. A local web server (Starlette on
uvicorn) serving a start page, a table page a game and a JSON API over the same records and the
same referees as `pnp referee` (see app.py for the API, store.py for how records are kept).

This package is imported only by the serve command, so `pnp referee` starts as fast as before."""
from __future__ import annotations

import ipaddress
import os
import re
import secrets
import socket
import stat
import sys
import tempfile
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
    """This machine's IPv4 addresses other than loopback, as phones on the same network reach it,
    best first: the address of the route to a private network, then the host name's, then every
    interface's. None found means no network a phone could share."""
    found: list[str] = []

    def add(addr: str | None) -> None:
        try:
            ip = ipaddress.ip_address(addr or "")
        except ValueError:
            return
        if ip.version == 4 and not ip.is_loopback and not ip.is_unspecified and addr not in found:
            found.append(addr)
    for probe in ("192.168.1.1", "10.255.255.255", "172.16.0.1", "8.8.8.8"):
        # Connecting a UDP socket sends nothing: it only asks the system which address it would use.
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                add(s.getsockname()[0])
        except OSError:
            pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            add(info[4][0])
    except OSError:
        pass
    for addr in _interface_addresses():
        add(addr)
    # link-local (169.254.x.x) last: it works only on a cable or an ad-hoc link
    return sorted(found, key=lambda a: ipaddress.ip_address(a).is_link_local)


def _interface_addresses() -> list[str]:
    """Each network interface's IPv4 address (Linux: SIOCGIFADDR; elsewhere none)."""
    out = []
    try:
        import fcntl
        import struct
        names = [name for _, name in socket.if_nameindex()]
    except (ImportError, OSError, AttributeError):
        return out
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names[:64]:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                out.append(socket.inet_ntoa(packed[20:24]))
            except OSError:
                continue
    return out


def _url(host: str, port: int, token: str | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def print_qr(url: str, out) -> None:
    try:
        import segno
    except ImportError:    # the URL is printed anyway
        return
    segno.make(url, error="m").terminal(out=out, compact=True)


TOKEN_FILE = ".pnp-serve-token"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{24,64}")


def session_token(folder: Path, new: bool = False) -> str:
    """The token phones need, kept in the records' folder (readable by its owner only) so that a
    server started again lets in the phones already at the table; a new one with `new`, or when the
    file is missing, unreadable, not the owner's own, open to others, or not a token."""
    path = folder / TOKEN_FILE
    if not new:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            try:
                st = os.fstat(fd)
                text = os.read(fd, 256).decode("ascii", "replace").strip() if stat.S_ISREG(st.st_mode) else ""
            finally:
                os.close(fd)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077 \
                    and _TOKEN.fullmatch(text):
                return text
        except OSError:
            pass
    token = secrets.token_urlsafe(18)
    fd, tmp = tempfile.mkstemp(prefix=TOKEN_FILE + ".", suffix=".part", dir=folder)   # made 0600
    try:
        with os.fdopen(fd, "w") as f:
            f.write(token + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return token


def listen(host: str, port: int, folder: Path, new_token: bool = False):
    """A socket listening on host:port (port 0: any free one), as `pnp serve` and `pnp studio` both
    listen: (socket, its port, the token every request must carry (None on loopback), the Host
    values a request may name (None off loopback: the token guards it instead))."""
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    loopback = is_loopback(host)
    try:
        token = None if loopback else session_token(folder, new_token)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot keep the token in {show(str(folder))}: {exc.strerror or exc}") from None
    if loopback:
        # The address it was asked to listen on, and loopback's usual names for it.
        own = {host, "localhost"} | ({"127.0.0.1"} if ":" not in host else {"::1"})
        hosts = tuple(f"[{h}]:{port}" if ":" in h else f"{h}:{port}" for h in own)
    else:
        hosts = None
    return sock, port, token, hosts


def serve(folder: Path, host: str, port: int, out=None, new_token: bool = False) -> int:
    out = out or sys.stdout
    import uvicorn
    from .app import make_app
    from .limits import LIMIT_CONNECTIONS, TimedH11Protocol, enough_descriptors
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"--dir {show(str(folder))} is not a folder")
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, got {port}")
    sock, port, token, hosts = listen(host, port, folder, new_token)
    loopback = token is None
    app = make_app(folder, token=token, allowed_hosts=hosts)
    wildcard = host in ("0.0.0.0", "::", "")
    addresses = local_addresses() if wildcard else [host]
    urls = [_url(h, port, token) for h in addresses]
    print(f"pnp serve: the games in {folder.resolve()}", file=out)
    for url in urls:
        print(f"  open {url}", file=out)
    if wildcard and not addresses:
        print(f"  No network address found for this machine: phones cannot reach it until it joins their network.\n"
              f"  Once it has, find its address (`ip -4 addr` on Linux, the network settings elsewhere) and open\n"
              f"  http://ADDRESS:{port}/?token={token} on each phone.", file=out)
    if token:
        print("  (the link carries this table's token: only phones given it can enter; it is kept in\n"
              f"  {TOKEN_FILE} in that folder, so phones stay in when the server starts again: --new-token\n"
              "  shuts them out)", file=out)
        if urls:
            print_qr(urls[0], out)
    else:
        print("  (this machine only; --host 0.0.0.0 lets phones on your network in, with a token)", file=out)
    print("Ctrl-C stops it; every entry is already in its file.", file=out)
    out.flush()
    enough_descriptors()
    # A worker thread drawing a position hands the interpreter back to the event loop every 1 ms,
    # not every 5: the other phones' small requests are not kept waiting behind a drawing.
    sys.setswitchinterval(0.001)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", ws="none",
                            http=TimedH11Protocol, limit_concurrency=LIMIT_CONNECTIONS,
                            timeout_keep_alive=5, timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
