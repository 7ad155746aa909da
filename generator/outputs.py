"""Where outputs go, and how they get there so that nothing is half-written.

One place derives every output path: a build's products are named by a Plan (file names checked
here, never taken raw from a spec) and written into a staging folder beside the output folder;
only when every product of every game is written does the staging folder take the output
folder's place, in one rename. A failure, Ctrl-C or kill at any moment leaves the output folder
exactly as it was (a killed build's staging folder is swept away by the next build).

The output folder is shared with the world: one build at a time writes it (a lock beside it,
held for the build's life), the folders kept in it keep their owner, group and mode, and a
folder pnp cannot replace as it was (immutable, another user's) is refused before anything
changes. A single file written outside a build (`pnp calibrate --out`) replaces only a regular
file, never a device, a FIFO or a link.
"""
from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import stat
import sys
import tempfile
import time
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Callable

from .errors import UsageError, show

# A file or folder name we write: letters, digits and . _ + -, not starting with a dot. Names
# from specs (a material, a stem) are made of these before they get here, or refused at their line.
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,119}$")
MAX_MIRRORED = 20_000   # entries an existing output folder may hold (a typo'd --out ~ is refused)


class UnsafeName(ValueError):
    pass


def check_name(name: str) -> str:
    if not isinstance(name, str) or not SAFE_NAME.match(name) or name in (".", ".."):
        raise UnsafeName(f"not a safe file name: {show(name)}")
    return name


def safe_name(text: str, fallback: str = "x") -> str:
    """A file-name part made from free text (a title, a material): lower-case letters, digits, '.',
    '_' and '-' ("card 0.5 mm" -> "card-0.5-mm"; "../../x" -> "x"; "Décor" and "Ｄécor" -> "decor":
    compatibility forms and accents folded before anything else is dropped)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", str(text)) if not unicodedata.combining(c))
    slug = re.sub(r"[^a-z0-9._]+", "-", folded.casefold())
    slug = re.sub(r"\.{2,}", ".", slug).strip("-.")[:60].strip("-.")
    return slug or fallback


def name_key(rel: str) -> str:
    """A path as the file systems users copy a build to compare names (macOS, Windows, a USB
    stick's FAT): without regard to case or Unicode form. Two products with one key are one file."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", rel).casefold())


def clashing_products(owners) -> str | None:
    """The one-line error for two products of one name, or None: `owners` is (who makes them: a
    spec as the build names it, their rels) for every job of a build, and of the builds before it
    whose files stay in the output folder."""
    seen: dict[str, tuple[str, str]] = {}
    for owner, rels in owners:
        for rel in rels:
            other = seen.setdefault(name_key(rel), (owner, rel))
            if other != (owner, rel):
                same = other[1] == rel
                return (f"{other[0]} and {owner} would both write {show(other[1])}"
                        + ("" if same else f" and {show(rel)} (one name, told apart by no case-blind file system)")
                        + ": rename one of them (their products are named after their files); nothing was written")
    return None


def output_path(root: Path, rel: str) -> Path:
    """root/rel for a '/'-separated rel of safe names, checked to stay inside root."""
    parts = rel.split("/")
    for part in parts:
        check_name(part)
    path = root.joinpath(*parts)
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if os.path.commonpath([real_root, real]) != real_root:
        raise UnsafeName(f"{show(rel)} leads outside the output folder")
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

_KINDS = {stat.S_IFDIR: "a folder", stat.S_IFLNK: "a link", stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket",
          stat.S_IFCHR: "a device", stat.S_IFBLK: "a device"}


def refuse_unless_regular(final: Path) -> None:
    """A single file is written by renaming a new one over `final`: refused (UsageError) unless
    `final` is a regular file or nothing. Renamed over, /dev/null (run as root) or a FIFO would be
    replaced by a plain file, and a link by a file where the link was."""
    try:
        mode = os.lstat(final).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(f"{final}: cannot write: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
        raise UsageError(f"{final} is {kind}, not a regular file: pnp replaces only a regular file; name another path")


@contextmanager
def atomic_path(final: str | Path):
    """Yield a temporary path beside `final`; rename it onto `final` only if the block succeeds
    (and `final` is still a regular file or nothing)."""
    final = Path(final)
    refuse_unless_regular(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".part", dir=final.parent)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())
    try:
        yield tmp
        refuse_unless_regular(final)      # (what stood there may have changed while we wrote)
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
    refuse_unless_regular(final)
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
    """What a person does with a product, for the game's print list (products/print_list.py). Made, and so
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
    with_laser: bool | None = None    # printed at home but needed only with the laser files (a kit's
                                      # assembly sheet): its paper is counted with their stock
    preview: bool | None = None   # a picture to look over, not to print
    order: int | None = None      # where it comes in its group and in the steps (smaller first)
    upload: tuple | None = None   # for a print shop: where it goes, line by line (product, slot, front with back)
    warning: str | None = None    # what the build found wrong with it but made it anyway (a shop's safe zone)

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
              "with_laser": bool, "preview": bool, "order": int, "upload": tuple, "warning": str}


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
        key = name_key(rel)
        if any(name_key(other) == key for other in self.products):
            raise UnsafeName(f"two products named {show(rel)}")
        self.products[rel] = Product(rel, write, ProductInfo.of(info).as_dict())
        return rel

    def move_before(self, rel: str, other: str) -> None:
        """List `rel` just before `other` (a print list lists products of one order as they were
        added: a piece's assembly sheet goes just before the piece). In place: views share the dict."""
        items = list(self.products.items())
        moved = self.products[rel]
        self.products.clear()
        for key, product in items:
            if key == other:
                self.products[rel] = moved
            if key != rel:
                self.products[key] = product

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

MAX_DEPTH = 32          # folders deep an existing output folder may be (pnp makes two: GAME/file)
LOCK_WAIT_S = 10.0      # how long a build waits for another build into the same folder to end
FS_IOC_GETFLAGS = 0x80086601
UNCHANGEABLE = 0x10 | 0x20      # FS_IMMUTABLE_FL, FS_APPEND_FL: `chattr +i`, `chattr +a`
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


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


def _try_lock(fd: int) -> bool | None:
    """An exclusive flock on the open file: True if taken, False if another process holds it, None
    where the file system has no locks. The kernel lets go of it when the last process holding it
    ends, however it ends and in whatever PID namespace it ran: no PID is ever compared."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    except OSError:         # ENOLCK, EOPNOTSUPP, EINVAL: no locks here
        return None


def _unchangeable(path) -> bool:
    """Whether a file or folder is immutable or append-only (`chattr +i`, `+a`): it cannot be
    replaced, and a copy of it would not keep the flag. False where there are no such flags."""
    try:
        import fcntl
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (ImportError, OSError):
        return False
    try:
        flags = int.from_bytes(fcntl.ioctl(fd, FS_IOC_GETFLAGS, bytes(8))[:4], sys.byteorder)
    except OSError:
        return False
    finally:
        os.close(fd)
    return bool(flags & UNCHANGEABLE)


def remove_tree(path) -> None:
    """`rm -rf path`, links never followed, at any depth: no recursion (a tree 100,000 folders deep
    goes as one 2 deep does) and no path longer than a name (each folder is opened from the one
    above it), with two descriptors open at most."""
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
            return
        fd = os.open(path, _FOLDER)
    except FileNotFoundError:
        return
    above: list[tuple[int, int, list[str], str]] = []   # (dev, inode, folders left, name gone into)
    try:
        pending = _empty_but_folders(fd)
        while True:
            if pending:
                name = pending.pop()
                try:
                    child = os.open(name, _FOLDER, dir_fd=fd)
                except FileNotFoundError:
                    continue
                except OSError as exc:
                    if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                        raise
                    os.unlink(name, dir_fd=fd)     # a folder replaced by a file or a link meanwhile
                    continue
                st = os.fstat(fd)
                above.append((st.st_dev, st.st_ino, pending, name))
                os.close(fd)
                fd = child
                pending = _empty_but_folders(fd)
                continue
            if not above:
                break
            dev, ino, pending, name = above.pop()
            parent = os.open("..", _FOLDER, dir_fd=fd)
            st = os.fstat(parent)
            os.close(fd)
            fd = parent
            if (st.st_dev, st.st_ino) != (dev, ino):
                raise OSError(errno.EBUSY, "a folder was moved while it was being removed", str(path))
            os.rmdir(name, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(path)


def _empty_but_folders(fd: int) -> list[str]:
    """Remove everything in the open folder but its folders; their names."""
    folders = []
    with os.scandir(fd) as it:
        for entry in it:
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.name)
            else:
                try:
                    os.unlink(entry.name, dir_fd=fd)
                except FileNotFoundError:
                    pass
    return folders


class OutputFolder:
    """The output folder of one build, staged: `with OutputFolder(out) as staged:` gives a
    folder that starts as a copy of `out`; write into it, call `staged.commit()`, and it becomes
    `out` in one rename. Leaving the block any other way (an error, Ctrl-C, a signal) removes the
    staging folder and leaves `out` untouched.

    One build at a time: `locked()` (or the block itself) holds an flock on a file beside `out`
    (`.NAME.pnp-lock`, left there) for the build's life; another build waits for it up to
    LOCK_WAIT_S, then is refused. The staging folder is locked too, so that a killed build's is
    told from a live one's without trusting a process id (a build in a container sharing the
    folder has ids of its own)."""

    PREFIX = ".pnp-build-"
    LOCK = ".pnp-lock"

    def __init__(self, out: Path, protect: dict[str, Path] | None = None):
        """protect: {what: a folder} that `out` must not be, nor hold (the working folder, the
        project): a build replaces `out` whole, and a failed build must not have changed it."""
        out = Path(os.path.abspath(out))
        if os.path.islink(out):
            out = Path(os.path.realpath(out))   # the folder the link names is the one to replace
        if os.path.lexists(out) and not out.is_dir():
            raise UsageError(f"--out {out} is not a folder")
        if os.path.ismount(out):
            raise UsageError(f"--out {out} is a mount point: name a folder inside it")
        real = os.path.realpath(out)
        for what, folder in (protect or {}).items():
            inside = os.path.realpath(folder)
            if os.path.commonpath([real, inside]) == real:
                raise UsageError(f"--out {out} holds {what} ({inside}): a build replaces its output folder "
                                 "whole; name a folder of its own, such as output/")
        self.out = out
        self.staging: Path | None = None
        self._lock_fd: int | None = None
        self._own_lock = False
        self._staging_fd: int | None = None
        self._kept_folders: set[str] = set()        # folders of the staged copy kept from out ("." itself)
        self._owner: tuple[int, int] | None = None  # owner and group of out (or of the folder it is made in)

    # -- one build at a time

    def lock(self, wait: float | None = None) -> None:
        """Take the folder's lock, waiting up to `wait` seconds (LOCK_WAIT_S) for a build that
        holds it; UsageError if it is still held then."""
        if self._lock_fd is not None:
            return
        wait = LOCK_WAIT_S if wait is None else wait
        parent = self.out.parent
        if not parent.is_dir():
            return      # no build writes into it yet; the lock is taken once its folder is made (__enter__)
        path = parent / f".{self.out.name}{self.LOCK}"
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0),
                         0o644)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                return      # nothing can be written beside it (staging will say so): nothing to keep out
            raise UsageError(f"--out {self.out}: cannot use its lock {path}: {exc.strerror}") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise UsageError(f"--out {self.out}: its lock {path} is {_KINDS.get(stat.S_IFMT(st.st_mode), 'odd')}, "
                                 "not a regular file: remove it")
            if st.st_uid == os.geteuid():
                # Readable by every build of the folder, whatever the umask; as root, the folder owner's.
                try:
                    if stat.S_IMODE(st.st_mode) != 0o644:
                        os.fchmod(fd, 0o644)
                    owner = os.stat(parent)
                    if os.geteuid() == 0 and owner.st_uid != 0:
                        os.fchown(fd, owner.st_uid, owner.st_gid)
                except OSError:
                    pass
            deadline, said = time.monotonic() + wait, False
            while _try_lock(fd) is False:
                if time.monotonic() >= deadline:
                    raise UsageError(f"--out {self.out}: another build is writing it (waited {wait:g} s); "
                                     "try again when it has finished")
                if not said:
                    print(f"pnp: another build is writing {self.out}; waiting for it (up to {wait:g} s)",
                          file=sys.stderr)
                    said = True
                time.sleep(0.05)
        except BaseException:
            os.close(fd)
            raise
        self._lock_fd = fd

    @classmethod
    @contextmanager
    def between_builds(cls, folder: Path):
        """For a file written into `folder` outside a build (calibrate's sheet): the folder's build
        lock, held for the block, if builds write that folder (its lock is there); a build's swap
        would otherwise throw away a file written while it ran."""
        # The folder itself or any folder above it may be a build's output (calibrate --out
        # output/sub/x.pdf), and a build locks beside the folder a link names: look at the real path.
        here = Path(os.path.realpath(folder))
        built = next((f for f in (here, *here.parents) if f.name and os.path.isfile(f.parent / f".{f.name}{cls.LOCK}")),
                     None)
        if built is None:
            yield
            return
        with cls(built).locked():
            yield

    def unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)       # closing the descriptor lets go of the lock
            self._lock_fd = None

    @contextmanager
    def locked(self):
        """The lock, held for the block (a build holds it from reading the manifest to the swap)."""
        self.lock()
        try:
            yield self
        finally:
            self.unlock()

    def sweep(self) -> None:
        """Remove the staging folders of builds into this folder that were killed. A live build
        holds a lock on its staging folder, so a folder whose lock can be taken is no live
        build's; one whose lock is held, or that cannot be locked, is left alone."""
        prefix = f".{self.out.name}{self.PREFIX}"
        try:
            with os.scandir(self.out.parent) as it:
                names = [e.name for e in it if e.name.startswith(prefix)]
        except OSError:
            return
        for name in names:
            path = self.out.parent / name
            try:
                fd = os.open(path, _FOLDER)
            except OSError:
                continue        # gone, or not a folder (a link is never followed)
            try:
                if _try_lock(fd):
                    remove_tree(path)
            except OSError:
                pass
            finally:
                os.close(fd)

    # -- the staged copy

    def __enter__(self) -> "OutputFolder":
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--out {self.out}: cannot make its folder: {exc.strerror}") from None
        if self._lock_fd is None:
            self.lock()
            self._own_lock = self._lock_fd is not None
        self.sweep()
        try:
            self.staging = Path(tempfile.mkdtemp(prefix=f".{self.out.name}{self.PREFIX}{os.getpid()}-",
                                                 dir=self.out.parent))
        except OSError as exc:
            self._release()
            raise UsageError(f"--out {self.out}: cannot write beside it: {exc.strerror}") from None
        try:
            self._staging_fd = os.open(self.staging, _FOLDER)
            _try_lock(self._staging_fd)
            if self.out.is_dir():
                st = os.stat(self.out)
                self._owner = (st.st_uid, st.st_gid)
                if _unchangeable(self.out):
                    raise UsageError(f"--out {self.out} is immutable or append-only (chattr +i or +a): a build "
                                     "replaces it; remove the flag (chattr -i) or name another folder")
                self._keep_owner(self.staging, st, ".")
                shutil.copystat(self.out, self.staging)
                self._kept_folders.add(".")
                self._mirror()
            else:
                st = os.stat(self.out.parent)
                self._owner = (st.st_uid, st.st_gid)
                os.chmod(self.staging, 0o777 & ~_umask())
        except BaseException:
            self._remove_staging()
            self._release()
            raise
        return self

    def _keep_owner(self, target: Path, st: os.stat_result, rel: str, folder: bool = True) -> None:
        """target (new) given the owner and group of what it copies (st). A folder whose owner
        or group cannot be kept (it is another user's, and we are not root) is refused: after the
        swap it would be ours. A file or a link keeps them where it can."""
        have = os.lstat(target)
        if (have.st_uid, have.st_gid) == (st.st_uid, st.st_gid):
            return
        try:
            os.chown(target, st.st_uid, st.st_gid, follow_symlinks=False)
        except OSError:
            if folder:
                raise UsageError(f"--out {self.out}: {rel} belongs to user {st.st_uid}, group {st.st_gid}; a build "
                                 "replaces it and could not keep that owner: build as its owner (or root), or "
                                 "name another folder") from None

    def _mirror(self) -> None:
        """The staging folder as a copy of out made of hard links (files are never changed in
        place, only replaced, so sharing them is safe and costs nothing). Folders keep their
        owner, group and mode. No recursion: a stack, at most MAX_DEPTH folders deep."""
        budget = MAX_MIRRORED
        todo = [(self.out, self.staging, 1)]
        while todo:
            src, dst, depth = todo.pop()
            with os.scandir(src) as it:
                entries = list(it)
            for entry in entries:
                budget -= 1
                if budget < 0:
                    raise UsageError(f"--out {self.out} holds more than {MAX_MIRRORED} files: name an empty "
                                     "folder, or one pnp built")
                target = dst / entry.name
                rel = os.path.relpath(entry.path, self.out)
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISLNK(st.st_mode):
                    os.symlink(os.readlink(entry.path), target)
                    self._keep_owner(target, st, rel, folder=False)
                elif stat.S_ISDIR(st.st_mode):
                    if depth > MAX_DEPTH:
                        raise UsageError(f"--out {self.out} holds folders more than {MAX_DEPTH} deep: name an empty "
                                         "folder, or one pnp built")
                    if os.path.ismount(entry.path):
                        raise UsageError(f"--out {self.out} has a mount point inside ({rel}): name another folder")
                    if _unchangeable(entry.path):
                        raise UsageError(f"--out {self.out}: {rel} is immutable or append-only (chattr +i or +a): "
                                         "a build replaces it; remove the flag (chattr -i) or name another folder")
                    os.mkdir(target)
                    self._keep_owner(target, st, rel)
                    shutil.copystat(entry.path, target, follow_symlinks=False)
                    self._kept_folders.add(rel)
                    todo.append((Path(entry.path), target, depth + 1))
                elif stat.S_ISREG(st.st_mode):
                    try:
                        os.link(entry.path, target, follow_symlinks=False)
                    except OSError:
                        # Not linkable: immutable or append-only (refused: a copy would drop the
                        # flag), or another user's where links to those are protected (copied).
                        if _unchangeable(entry.path):
                            raise UsageError(f"--out {self.out}: {rel} is immutable or append-only (chattr +i or "
                                             "+a): a build may replace it; remove the flag or name another "
                                             "folder") from None
                        shutil.copy2(entry.path, target, follow_symlinks=False)
                        self._keep_owner(target, st, rel, folder=False)
                elif stat.S_ISFIFO(st.st_mode):
                    os.mkfifo(target)
                    self._keep_owner(target, st, rel, folder=False)
                    shutil.copystat(entry.path, target, follow_symlinks=False)
                # (sockets and devices in an output folder are not ours to carry over)

    def path(self, rel: str) -> Path:
        return output_path(self.staging, rel)

    def clear(self, folder: str) -> None:
        """Empty a folder of the staged copy (a game about to be rebuilt: no stale files left)."""
        p = self.path(folder)
        if p.is_symlink() or p.is_file():
            p.unlink()
        elif p.is_dir():
            remove_tree(p)
        self._kept_folders = {f for f in self._kept_folders if f != folder and not f.startswith(folder + "/")}

    def keep_only(self, folder: str, keep: set[str]) -> None:
        """Empty a folder of the staged copy but for the files in keep (paths from the staging
        root, as a manifest names them): a game built in part, from nothing for the specs named
        (--force), keeps its other jobs' files and nothing else."""
        top = self.path(folder)
        if top.is_symlink() or top.is_file():
            top.unlink()
            return
        if not top.is_dir():
            return
        for dirpath, dirnames, filenames in os.walk(top, topdown=False):
            here = Path(dirpath)
            for name in [*filenames, *(d for d in dirnames if (here / d).is_symlink())]:
                if (here / name).relative_to(self.staging).as_posix() not in keep:
                    (here / name).unlink()
            if here != top:
                try:
                    here.rmdir()                      # an emptied folder goes, a kept file's stays
                    self._kept_folders.discard(here.relative_to(self.staging).as_posix())
                except OSError:
                    pass

    def _give_new_entries(self) -> None:
        """Run as root in another user's folder, what the build made (game folders, products) is
        given to that user, as what it kept is: a folder of root's in it would be one its owner
        cannot empty. Made by the build: a folder not kept from out (by its path: an inode number
        freed by clear() is soon another's), a file with one link (every file kept is a hard link
        to out's, which out still holds)."""
        if os.geteuid() != 0 or self._owner is None or self._owner[0] == 0:
            return
        todo = ["."]
        while todo:
            rel = todo.pop()
            path = self.staging / rel
            st = os.lstat(path)
            if stat.S_ISDIR(st.st_mode):
                made = rel not in self._kept_folders
                with os.scandir(path) as it:
                    todo += [e.name if rel == "." else f"{rel}/{e.name}" for e in it]
            else:
                made = stat.S_ISREG(st.st_mode) and st.st_nlink == 1
            if made and st.st_uid == 0:
                os.chown(path, *self._owner, follow_symlinks=False)

    def commit(self) -> None:
        self._give_new_entries()
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
            try:
                remove_tree(self.staging)
            except OSError:
                pass
        self.staging = None
        if self._staging_fd is not None:
            os.close(self._staging_fd)
            self._staging_fd = None

    def _release(self) -> None:
        if self._own_lock:
            self.unlock()
            self._own_lock = False

    def __exit__(self, *exc) -> None:
        # After a commit the staging path holds the old folder; before one, the unfinished build.
        self._remove_staging()
        self._release()
