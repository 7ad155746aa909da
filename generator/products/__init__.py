"""The products: found, not listed. Every module in this folder that declares a PRODUCT (a
ProductDeclaration: see declaration.py) is one, and so is every module in the folders named by the
environment variable PNP_PRODUCTS_PATH (separated as PATH is): a product is one file, and adding
one edits no file outside it. A game declares its contents (contents.py); `make_files` hands each
content to every product that takes it.

Found when first asked for (`products()`), not on import: a game imports contents.py alone.
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
from functools import lru_cache
from pathlib import Path

from ..errors import UsageError
from ..paths import NotCode, code_folders, import_file
from .declaration import ProductDeclaration

HERE = Path(__file__).resolve().parent
EXTRA_PATH = "PNP_PRODUCTS_PATH"


class NotAProduct(UsageError):
    """A product declared twice under one name, a PRODUCT that is not a ProductDeclaration, a
    PNP_PRODUCTS_PATH entry that is not absolute, or a module there that cannot be imported: one
    line naming it, exit 2."""


def _modules():
    """Every module that may declare a product: this folder's, then PNP_PRODUCTS_PATH's."""
    for info in pkgutil.iter_modules([str(HERE)]):
        if not info.ispkg:
            yield importlib.import_module(f"{__name__}.{info.name}")
    try:
        folders = code_folders(EXTRA_PATH)
    except NotCode as exc:
        raise NotAProduct(str(exc)) from None
    for folder in folders:
        for info in pkgutil.iter_modules([str(folder)]):
            # A module outside ours: imported from its file under a name of its own, importing
            # from generator.* as any program would.
            name = f"pnp_products_{abs(hash(str(folder)))}_{info.name}"
            path = folder / (f"{info.name}/__init__.py" if info.ispkg else f"{info.name}.py")
            try:
                yield import_file(name, path)
            except NotCode as exc:
                raise NotAProduct(f"not a product: {exc}") from None


@lru_cache(maxsize=1)
def products() -> tuple[ProductDeclaration, ...]:
    """Every product, in the order a content's files are made (rank, then name)."""
    found: dict[str, ProductDeclaration] = {}
    for module in _modules():
        declared = getattr(module, "PRODUCT", None)
        if declared is None:
            continue            # a module of helpers the products share
        if not isinstance(declared, ProductDeclaration):
            raise NotAProduct(f"{module.__name__}: PRODUCT is a ProductDeclaration")
        if declared.name in found:
            raise NotAProduct(f"{module.__name__}: the product {declared.name!r} is declared twice")
        found[declared.name] = dataclasses.replace(declared, module=module.__name__)
    return tuple(sorted(found.values(), key=lambda p: (p.rank, p.name)))


def products_digest() -> str:
    """What of the products a build's key holds: their names, and the source of those found
    outside this package (ours are in the code's digest): adding one, or editing it, builds the
    decks again."""
    import hashlib
    h = hashlib.sha256()
    for product in products():
        h.update(product.name.encode() + b"\0")
        module = sys.modules.get(product.module)
        source = Path(getattr(module, "__file__", "") or "")
        if not product.module.startswith(__name__ + ".") and source.is_file():
            h.update(source.read_bytes() + b"\0")
    return h.hexdigest()


def make_files(contents, plan, opts) -> None:
    """Every content's files, in the contents' order, each content's in its products' order: every
    product that takes the content's kind (of those it names in `only`) and that this build wants."""
    for content in contents:
        for product in products():
            if not isinstance(content, product.takes) or not product.wanted(opts):
                continue
            if (content.only is not None and product.name not in content.only) or product.name in content.skip:
                continue
            before = set(plan.products)
            product.make(content, plan, opts)
            if content.variant:
                for rel in plan.products:
                    if rel not in before:
                        plan.products[rel].info.setdefault("variant", content.variant)
