"""Where outputs go, and how they get there so that nothing is half-written.

One place derives every output path: a build's products are named by a Plan (file names checked
here, never taken raw from a spec) and written into a staging folder beside the output folder;
only when every product of every game is written does the staging folder take the output
folder's place, in one rename. A failure, Ctrl-C or kill at any moment leaves the output folder
exactly as it was (a killed build's staging folder is swept away by the next build).
"""
from __future__ import annotations

import ctypes
import os
import re
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Callable

from .errors import UsageError

# A file or folder name we write: letters, digits and . _ + -, not starting with a dot. Names
# from specs (a material, a stem) are made of these before they get here, or refused at their line.
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,119}$")
MAX_MIRRORED = 20_000   # entries an existing output folder may hold (a typo'd --out ~ is refused)


class UnsafeName(ValueError):
    pass


def check_name(name: str) -> str:
    if not isinstance(name, str) or not SAFE_NAME.match(name) or name in (".", ".."):
        raise UnsafeName(f"not a safe file name: {name!r}")
    return name


def safe_name(text: str, fallback: str = "x") -> str:
    """A file-name part made from free text (a title, a material): lower-case letters, digits, '.',
    '_' and '-' ("card 0.5 mm" -> "card-0.5-mm"; "../../x" -> "x")."""
    slug = re.sub(r"[^a-z0-9._]+", "-", str(text).lower())
    slug = re.sub(r"\.{2,}", ".", slug).strip("-.")[:60].strip("-.")
    return slug or fallback


def output_path(root: Path, rel: str) -> Path:
    """root/rel for a '/'-separated rel of safe names, checked to stay inside root."""
    parts = rel.split("/")
    for part in parts:
        check_name(part)
    path = root.joinpath(*parts)
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if os.path.commonpath([real_root, real]) != real_root:
        raise UnsafeName(f"{rel!r} leads outside the output folder")
    return path


def new_file_path(root: Path, rel: str) -> Path:
    """Where to write a new file root/rel (output_path's checks), its folders made, and whatever
    stood there before removed unless it is a folder: a build writes into a copy of the output
    folder, which may hold a link or a FIFO under a product's name (by accident, or put there to
    make the build write elsewhere or hang); the file is made anew, never written through it."""
    *folders, name = rel.split("/")
    check_name(name)
    parent = root
    if folders:
        parent = output_path(root, "/".join(folders))      # the folders stay inside root
        parent.mkdir(parents=True, exist_ok=True)
        output_path(root, "/".join(folders))               # and still do, made
    return make_room(parent / name)


def make_room(path: Path) -> Path:
    """Remove what stands at path unless it is a folder (a link is removed, never followed), so
    that the file written there is new."""
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
        os.unlink(path)
    return path


# ---------------------------------------------------------------- single files

@contextmanager
def atomic_path(final: str | Path):
    """Yield a temporary path beside `final`; rename it onto `final` only if the block succeeds."""
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".part", dir=final.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())
    try:
        yield tmp
        os.replace(tmp, final)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def write_synced(final: Path, data: bytes, exclusive: bool = False) -> None:
    """Replace `final` with `data` so that a crash or a pulled plug leaves either the old file or
    the new one, whole: a temporary file, fsynced, renamed over it, the folder fsynced. With
    `exclusive`, refuse (FileExistsError) if `final` exists by the time we are done."""
    final = Path(final)
    folder = final.parent if str(final.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            mode = stat.S_IMODE(os.stat(final).st_mode)
        except OSError:
            mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        if exclusive:
            os.link(tmp, final)   # fails if final exists: never overwrites a file made meanwhile
            os.unlink(tmp)
        else:
            os.replace(tmp, final)
        _fsync_folder(folder)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ---------------------------------------------------------------- a build's products

@dataclass
class Product:
    """One file a build makes: its path under the output folder, how to write it, and what a
    person does with it (for the game's print list: ProductInfo, as a mapping)."""
    rel: str                            # '/'-separated, e.g. "sorry/sorry-shop.pdf"
    write: Callable[[Path], None]       # writes the whole file at the path given
    info: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ProductInfo:
    """What a person does with a product, for the game's print list (printlist.py). Made, and so
    checked, where a product is added to a plan: a key that is not one of these, or a value of
    another type, is a mistake in our code and stops the build there, not when a list is written."""
    what: str | None = None       # what the file is, in a few words
    pages: int | None = None      # pages in a PDF
    sheets: int | None = None     # sheets of stock, where pages do not say (a laser sheet: SVG 1, DXF 0)
    stock: str | None = None      # what to print or cut it on ("card stock, 250-300 g/m2")
    sides: int | None = None      # 1 or 2 (two-sided)
    flip: str | None = None       # for two-sided printing, the edge turned over (long, short)
    paper: str | None = None      # the sheet size it is laid out for (a4, letter)
    make: str | None = None       # how to make it: cutting, folding, assembling
    step: str | None = None       # its step in putting the game together (a sentence)
    tools: tuple | None = None    # what that takes ("craft knife or scissors", "glue stick")
    variant: str | None = None    # the alternative it belongs to ("2 players"): totals are per variant
    shop: bool | None = None      # for a print shop
    laser: bool | None = None     # a laser cutter's or cutting plotter's file
    preview: bool | None = None   # a picture to look over, not to print
    order: int | None = None      # where it comes in its group and in the steps (smaller first)

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            kind = INFO_KINDS[f.name]
            if kind is tuple:
                if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                    raise TypeError(f"product info {f.name}: a list of text, got {value!r}")
                object.__setattr__(self, f.name, tuple(value))
            elif not isinstance(value, kind) or (kind is int and (isinstance(value, bool) or not 0 <= value <= 100_000)):
                raise TypeError(f"product info {f.name}: expected {kind.__name__}, got {value!r}")

    @classmethod
    def of(cls, info: dict) -> "ProductInfo":
        """From a mapping (TypeError for a key that is not one of the above)."""
        return cls(**info)

    def as_dict(self) -> dict:
        """The keys that are set, as the manifest and the print list keep them (tools as a list)."""
        return {f.name: list(v) if isinstance(v, tuple) else v for f in fields(self)
                if (v := getattr(self, f.name)) is not None}


INFO_KINDS = {"what": str, "pages": int, "sheets": int, "stock": str, "sides": int, "flip": str, "paper": str,
              "make": str, "step": str, "tools": tuple, "variant": str, "shop": bool, "laser": bool,
              "preview": bool, "order": int}


@dataclass
class Plan:
    """Every file a build will write, named before anything is written. Games add their products
    under their own folder; a name is checked here, when it is added, so `validate` catches it."""
    folder: str = ""
    products: dict[str, Product] = field(default_factory=dict)

    def sub(self, folder: str) -> "Plan":
        """A view of this plan whose names are under `folder`."""
        for part in folder.split("/"):
            check_name(part)
        view = Plan(f"{self.folder}/{folder}" if self.folder else folder, self.products)
        return view

    def add(self, name: str, write: Callable[[Path], None], **info) -> str:
        rel = f"{self.folder}/{name}" if self.folder else name
        for part in rel.split("/"):
            check_name(part)
        if rel in self.products:
            raise UnsafeName(f"two products named {rel!r}")
        self.products[rel] = Product(rel, write, ProductInfo.of(info).as_dict())
        return rel

    def add_bytes(self, name: str, make: Callable[[], bytes], **info) -> str:
        return self.add(name, lambda path: Path(path).write_bytes(make()), **info)

    def write_into(self, folder: Path) -> list[Path]:
        """Write every product straight into folder (tests and tools; a build stages its writes)."""
        written = []
        for product in self.products.values():
            path = output_path(Path(folder), product.rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            product.write(path)
            written.append(path)
        return written


# ---------------------------------------------------------------- the output folder, whole

def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    AT_FDCWD, RENAME_EXCHANGE = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    return False


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _mirror(src: Path, dst: Path, budget: list[int]) -> None:
    """dst as a copy of src made of hard links (files are never changed in place, only replaced,
    so sharing them is safe and costs nothing)."""
    with os.scandir(src) as it:
        for entry in it:
            budget[0] -= 1
            if budget[0] < 0:
                raise UsageError(f"--out {src} holds more than {MAX_MIRRORED} files: name an empty "
                                 "folder, or one pnp built")
            target = dst / entry.name
            if entry.is_symlink():
                os.symlink(os.readlink(entry.path), target)
            elif entry.is_dir(follow_symlinks=False):
                if os.path.ismount(entry.path):
                    raise UsageError(f"--out {src} has a mount point inside ({entry.name}): name another folder")
                os.mkdir(target)
                shutil.copystat(entry.path, target, follow_symlinks=False)
                _mirror(Path(entry.path), target, budget)
            elif entry.is_file(follow_symlinks=False):
                try:
                    os.link(entry.path, target, follow_symlinks=False)
                except OSError:
                    shutil.copy2(entry.path, target, follow_symlinks=False)
            elif stat.S_ISFIFO(entry.stat(follow_symlinks=False).st_mode):
                os.mkfifo(target)
            # sockets and devices in an output folder are not ours to carry over


class OutputFolder:
    """The output folder of one build, staged: `with OutputFolder(out) as staged:` gives a
    folder that starts as a copy of `out`; write into it, call `staged.commit()`, and it becomes
    `out` in one rename. Leaving the block any other way (an error, Ctrl-C, a signal) removes the
    staging folder and leaves `out` untouched."""

    PREFIX = ".pnp-build-"

    def __init__(self, out: Path):
        out = Path(os.path.abspath(out))
        if os.path.islink(out):
            out = Path(os.path.realpath(out))   # the folder the link names is the one to replace
        if os.path.lexists(out) and not out.is_dir():
            raise UsageError(f"--out {out} is not a folder")
        if os.path.ismount(out):
            raise UsageError(f"--out {out} is a mount point: name a folder inside it")
        self.out = out
        self.staging: Path | None = None

    def _sweep(self) -> None:
        """Remove staging folders of builds that were killed (their process is gone)."""
        pattern = re.compile(rf"^\.{re.escape(self.out.name)}{re.escape(self.PREFIX)}(\d+)-")
        try:
            siblings = list(os.scandir(self.out.parent))
        except OSError:
            return
        for entry in siblings:
            m = pattern.match(entry.name)
            if m and entry.is_dir(follow_symlinks=False) and not _pid_alive(int(m.group(1))):
                shutil.rmtree(entry.path, ignore_errors=True)

    def __enter__(self) -> "OutputFolder":
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--out {self.out}: cannot make its folder: {exc.strerror}") from None
        self._sweep()
        try:
            self.staging = Path(tempfile.mkdtemp(prefix=f".{self.out.name}{self.PREFIX}{os.getpid()}-",
                                                 dir=self.out.parent))
        except OSError as exc:
            raise UsageError(f"--out {self.out}: cannot write beside it: {exc.strerror}") from None
        try:
            if self.out.is_dir():
                shutil.copystat(self.out, self.staging)
                _mirror(self.out, self.staging, [MAX_MIRRORED])
            else:
                os.chmod(self.staging, 0o777 & ~_umask())
        except BaseException:
            self._remove_staging()
            raise
        return self

    def path(self, rel: str) -> Path:
        return output_path(self.staging, rel)

    def clear(self, folder: str) -> None:
        """Empty a folder of the staged copy (a game about to be rebuilt: no stale files left)."""
        p = self.path(folder)
        if p.is_symlink() or p.is_file():
            p.unlink()
        elif p.is_dir():
            shutil.rmtree(p)

    def commit(self) -> None:
        if self.out.exists():
            if not _exchange(self.staging, self.out):
                # No atomic swap here: two renames, with the old folder kept until the new is in place.
                aside = self.staging.with_name(self.staging.name + "-old")
                os.rename(self.out, aside)
                os.rename(self.staging, self.out)
                os.rename(aside, self.staging)
        else:
            os.rename(self.staging, self.out)
            self.staging = None

    def _remove_staging(self) -> None:
        if self.staging is not None and os.path.lexists(self.staging):
            shutil.rmtree(self.staging, ignore_errors=True)
        self.staging = None

    def __exit__(self, *exc) -> None:
        # After a commit the staging path holds the old folder; before one, the unfinished build.
        self._remove_staging()
