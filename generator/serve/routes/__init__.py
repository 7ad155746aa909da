"""The routes of `pnp serve`, one module a resource: pages (what a phone's browser opens), games
(what can be played, each game's controls), records (the games in the folder: made, read, drawn,
hinted), entries (writes: an entry, an undo) and events (a record's changes, as they happen). Every
handler is a plain function of the request; what a server owns is `served(request)`."""
from __future__ import annotations

from . import entries, events, games, pages, records

ROUTES = pages.ROUTES + games.ROUTES + records.ROUTES + entries.ROUTES + events.ROUTES
