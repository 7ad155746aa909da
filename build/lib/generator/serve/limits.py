"""What a connection to `pnp serve` may cost: the server is on a network shared with strangers, so
every resource a client can hold is bounded.

uvicorn bounds the size of a request's headers (h11) and, with limit_concurrency, the connections
and requests at once; it has no time limit on headers that trickle in, so a few hundred slow
clients could hold every connection. TimedH11Protocol closes a connection whose request headers
are not complete within HEADER_SECONDS of its first byte (or of the connection, or of the end of
the last response on a kept-alive one). The body's own time limit is the app's (app.Guard).
"""
from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0     # a request's line and headers arrive within this
LIMIT_CONNECTIONS = 512   # connections and requests at once; past it uvicorn answers 503


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on request headers."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        if self._header_timer is None and self._between_requests():
            self._start_header_timer()
        super().data_received(data)
        if not self._between_requests():            # the headers are in: the app has the request
            self._stop_header_timer()

    def connection_lost(self, exc) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._stop_header_timer()                   # keep-alive's own timer now counts the idle time

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(HEADER_SECONDS, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self._between_requests() and not self.transport.is_closing():
            self.transport.close()


def enough_descriptors(want: int = 4 * LIMIT_CONNECTIONS) -> None:
    """Raise this process's open-file limit (within what the system allows) so that LIMIT_CONNECTIONS
    connections and the record files behind them never run it out: many systems start at 1,024."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass
