"""What a product module declares about itself, once, as its PRODUCT: what it takes, the files it
writes, its print-list entry, where it comes, and how it makes its files.

A product's `make(content, plan, opts)` adds its files to the plan (named and laid out, every check
made; nothing is written until the build writes the plan). `entry` is what its files' print-list
entries share (stock, sides, order, how to make them, the tools); `make` adds what depends on the
content (what the file is, its pages). A product with options of its own (`--shop NAME`) adds them
to `pnp build`'s parser with `options(parser)` and reads their values from `opts.extra.get(dest)`
(an option left out, None or False, is not there);
`wanted(opts)` says whether a build makes it at all (a shop's files only when asked for).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


def always(opts) -> bool:
    return True


@dataclass(frozen=True)
class ProductDeclaration:
    name: str                               # "sheet": what a content's `only` and the docs call it
    takes: tuple[type, ...]                 # the kinds of content it makes files of (contents.py)
    files: str                              # the files it writes, as a person reads the pattern
    make: Callable[[Any, Any, Any], None]   # (content, plan, opts) -> None: adds its files to the plan
    entry: Mapping[str, Any] = field(default_factory=dict)   # its files' print-list entry, shared part
    rank: int = 50                          # among the products of one content, smaller first
    wanted: Callable[[Any], bool] = always  # (opts) -> whether this build makes it
    options: Callable[[Any], None] | None = None   # adds its own options to `pnp build`'s parser
    module: str = ""                        # filled in when found: the module that declares it
