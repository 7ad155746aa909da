"""The output folder is shared with the world (issue 24, family 2): one build at a time writes it,
a live build's staging folder is never swept (whatever PID namespace the build runs in), a killed
build's always is, an --out that holds the project is refused before anything changes, folders
keep their owner, group, mode and immutable flag (or the build is refused), no tree is walked by
recursion, and a single-file output replaces only a regular file."""
from __future__ import annotations

import fcntl
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, default_signals
from fuzzing import problems, run_cli, tree

from generator import outputs
from generator.errors import UsageError
from generator.outputs import OutputFolder, remove_tree, write_synced

ROOTED = os.geteuid() == 0

# A build where what is tested is the output folder (its lock, staging, owners, depth), not what a
# build puts in it: one job, Continuo's rules sheet (0.2 s; the whole game 0.6 s), written into
# output/continuo/ as the game's build writes it. Builds that must last long enough to be caught in
# the act (killed, waited for, in a PID namespace) build whole games.
SMALL_BUILD = ["build", "decks/continuo_rules.yaml"]


@pytest.fixture
def project(tmp_path):
    """A throwaway project with the real specs and an output folder holding something of the user's."""
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / "keep.txt").write_text("untouched")
    return tmp_path


def staging_folders(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".pnp-build-" in p.name)


def one_refusal(code: int, err: str, words: str) -> None:
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, (code, err)
    assert not problems(code, err, 0), problems(code, err, 0)


def hold(path: Path) -> int:
    """An exclusive flock on path, as another process's build would hold it (closing the
    descriptor lets go)."""
    fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def start_build(project: Path, *args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator", "build", *args], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_signals, env={**os.environ, "PNP_JOBS": "2"}, **popen)


def wait_for_staging(folder: Path, p: subprocess.Popen, timeout: float = 120, written: bool = True) -> list[str]:
    """The staging folders beside folder/output once one holds a file (the build is writing), or
    (written=False) once there is one (the build holds the lock and its jobs are starting)."""
    deadline = time.time() + timeout
    while time.time() < deadline and p.poll() is None:
        found = staging_folders(folder)
        try:
            if found and not written or any(f.is_file() for name in found for f in (folder / name).rglob("*")):
                return found
        except FileNotFoundError:
            pass
        time.sleep(0.02)
    raise AssertionError("the build never wrote into a staging folder")


# ---------------------------------------------------------------- one build at a time

@pytest.mark.slow      # a build
def test_a_second_build_waits_for_the_first_then_is_refused(project, monkeypatch):
    """The lock beside --out is held (as a build in another process holds it): a build waits for it
    LOCK_WAIT_S, then is refused in one line, --out as it was, nothing left beside it."""
    monkeypatch.setattr(outputs, "LOCK_WAIT_S", 0.3)
    before = tree(project / "output")
    fd = hold(project / ".output.pnp-lock")
    try:
        code, out, err, _ = run_cli(SMALL_BUILD, project)
    finally:
        os.close(fd)
    assert code == 2 and not out, err
    lines = err.strip().splitlines()
    assert lines[0].startswith("pnp: another build is writing") and "waiting" in lines[0], err
    assert lines[-1].startswith("pnp: --out ") and "another build is writing it (waited 0.3 s)" in lines[-1], err
    assert tree(project / "output") == before and staging_folders(project) == []
    code, _, err, _ = run_cli(SMALL_BUILD, project)       # let go: it builds
    assert code == 0, err


@pytest.mark.slow      # two builds in processes
def test_two_builds_at_once_take_turns(project):
    """Two builds into one folder at the same moment: the second waits for the first (it once swapped
    its own copy in over the first's files); both end 0 and the folder holds every file of both,
    as listed, with a manifest that says so (a third build is up to date)."""
    # The second starts once the first holds the lock and starts its jobs: the Capitals deck's job
    # (1.2 s, the longest of all), the time the second has to start and wait on a loaded machine.
    # (That job alone: the game's other three jobs only made the first build longer, 4.6 s of CPU.)
    first = start_build(project, "decks/capitals_1961.yaml", "--force")
    wait_for_staging(project, first, written=False)
    second = start_build(project, "decks/count_continuo_rules.yaml")   # (one job)
    out1, err1 = first.communicate(timeout=300)
    out2, err2 = second.communicate(timeout=300)
    assert first.returncode == 0, err1
    assert "another build is writing" in err2 and "waiting" in err2, err2
    if second.returncode == 2:      # the first took over LOCK_WAIT_S (a slow machine): refused whole
        assert err2.strip().splitlines()[-1].startswith("pnp: --out ") and not out2, err2
    else:
        assert second.returncode == 0 and any("count-continuo" in f for f in out2.split()), err2
    listed = out1.split() + out2.split()
    assert any("capitals/" in f for f in listed)
    assert all((project / f).is_file() for f in listed), [f for f in listed if not (project / f).is_file()]
    assert staging_folders(project) == [] and (project / "output" / "keep.txt").read_text() == "untouched"
    if second.returncode == 0:
        code, _, err, _ = run_cli(["build", "decks/capitals_1961.yaml", "decks/count_continuo_rules.yaml"], project)
        assert code == 0 and "up to date" in err, err


def test_a_link_to_the_folder_is_the_same_folder(project, monkeypatch):
    """--out through a link takes the lock of the folder the link names, not one of its own."""
    monkeypatch.setattr(outputs, "LOCK_WAIT_S", 0.2)
    (project / "alias").symlink_to(project / "output", target_is_directory=True)
    fd = hold(project / ".output.pnp-lock")
    try:
        code, _, err, _ = run_cli([*SMALL_BUILD, "--out", "alias"], project)
    finally:
        os.close(fd)
    assert code == 2 and "another build is writing" in err, err


def test_the_lock_is_a_regular_file_or_the_build_is_refused(project):
    (project / ".output.pnp-lock").symlink_to("/etc/passwd")
    code, _, err, _ = run_cli(SMALL_BUILD, project)
    one_refusal(code, err, "lock")
    os.unlink(project / ".output.pnp-lock")
    os.mkfifo(project / ".output.pnp-lock")
    code, _, err, _ = run_cli(SMALL_BUILD, project)       # (opened without waiting for a writer)
    one_refusal(code, err, "a FIFO, not a regular file")


# ---------------------------------------------------------------- staging folders: live ones kept, dead ones swept

def test_a_live_staging_folder_is_never_swept(project):
    """A staging folder whose lock is held is a live build's, whatever its name says (a build in a
    container numbers its processes from 1): left alone. Let go, the next build sweeps it."""
    live = project / ".output.pnp-build-1-live"      # pid 1 is alive here too: the name is not read
    dead = project / ".output.pnp-build-999999999-dead"
    for folder in (live, dead):
        (folder / "sorry").mkdir(parents=True)
        (folder / "sorry" / "x.pdf").write_text("staged")
    fd = os.open(live, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        code, _, err, _ = run_cli(SMALL_BUILD, project)
        assert code == 0, err
        assert staging_folders(project) == [live.name]
        assert (live / "sorry" / "x.pdf").read_text() == "staged"
        # (and what else --out holds stays: the quick subset's check of it)
        assert (project / "output" / "keep.txt").read_text() == "untouched"
    finally:
        os.close(fd)
    code, _, err, _ = run_cli(SMALL_BUILD, project)
    assert code == 0 and "up to date" in err, err
    assert staging_folders(project) == []


@pytest.mark.slow      # a build in a process, killed
def test_a_killed_builds_staging_folder_is_swept_when_the_next_is_up_to_date(project):
    code, _, err, _ = run_cli(SMALL_BUILD, project)
    assert code == 0, err
    # Capitals: its deck's job (1.2 s) still runs long after a first file is written, loaded machine or not.
    p = start_build(project, "capitals")
    wait_for_staging(project, p)
    p.kill()                          # its workers die with it (PR_SET_PDEATHSIG)
    p.communicate(timeout=60)
    # Killed while it wrote (not ended before the kill): its staging folder is left for the next build.
    assert p.returncode == -signal.SIGKILL and staging_folders(project), p.returncode
    deadline = time.time() + 30
    while staging_folders(project) and time.time() < deadline:
        code, _, err, _ = run_cli(SMALL_BUILD, project)    # up to date: nothing to build
        assert code == 0 and "up to date" in err, err
        time.sleep(0.1)               # (a worker may still hold the lock for a moment after the kill)
    assert staging_folders(project) == []


@pytest.mark.slow      # a build in a process of its own namespace
@pytest.mark.skipif(not ROOTED or not shutil.which("unshare"), reason="a PID namespace needs root and unshare")
def test_a_build_in_another_pid_namespace_keeps_its_staging_folder(project):
    """A build in a PID namespace of its own (a container sharing the folder) is process 1 there: its
    staging folder was once swept by a build outside, which saw no process of that id. Now the
    outside sweep leaves it (its lock is held), and the build ends whole."""
    # (Sorry alone, four jobs: still writing when the sweep outside comes, as Sorry and Continuo were)
    inner = subprocess.Popen(["unshare", "--pid", "--fork", sys.executable, "-m", "generator", "build", "sorry"],
                             cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=default_signals)
    try:
        found = wait_for_staging(project, inner)
    except AssertionError:
        out, err = inner.communicate(timeout=60)
        if "unshare" in err:
            pytest.skip(f"no PID namespace here: {err.strip()}")
        raise
    OutputFolder(project / "output").sweep()        # what a build outside does first
    assert set(found) <= set(staging_folders(project))
    out, err = inner.communicate(timeout=300)
    assert inner.returncode == 0, err
    assert all((project / f).is_file() for f in out.split()) and staging_folders(project) == []


@pytest.mark.slow      # 3,000 folders made and removed
def test_removing_a_tree_deeper_than_any_path(tmp_path):
    """A tree 3,000 folders deep (9,000 characters of path, over PATH_MAX): removed without
    recursion and without a path longer than a name."""
    top = tmp_path / "deep"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for i in range(3000):
        os.mkdir("dd", dir_fd=fd)
        if i % 500 == 0:
            os.close(os.open("f", os.O_CREAT | os.O_WRONLY, dir_fd=fd))
            os.symlink("/etc", "link", dir_fd=fd)
        child = os.open("dd", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(fd)
    remove_tree(top)
    assert not top.exists() and Path("/etc/passwd").exists()


@pytest.mark.slow      # 1,500 folders made, a build
def test_an_out_tree_1500_folders_deep_is_refused_in_one_line(project):
    before_top = sorted(p.name for p in (project / "output").iterdir())
    path = project / "output" / "mine"
    path.mkdir()
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(1500):
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(fd)
    code, _, err, _ = run_cli(SMALL_BUILD, project)
    one_refusal(code, err, f"holds folders more than {outputs.MAX_DEPTH} deep")
    assert staging_folders(project) == []
    assert sorted(p.name for p in (project / "output").iterdir()) == sorted(before_top + ["mine"])
    # A killed build's staging folder as deep (a copy made by an older pnp): swept all the same.
    os.rename(project / "output" / "mine", project / ".output.pnp-build-4242-old")
    remove_tree(project / "output")
    code, _, err, _ = run_cli(SMALL_BUILD, project)
    assert code == 0 and staging_folders(project) == [], err


# ---------------------------------------------------------------- --out holding the project

@pytest.mark.parametrize("out, cwd", [(".", "."), ("decks", "."), ("boards", "."), ("..", "."), ("..", "output/sub"),
                                      ("../..", "output/sub")])
def test_an_out_holding_the_project_or_the_working_folder_is_refused_before_anything_changes(project, out, cwd):
    """`pnp build sorry --out .` in the project folder once swapped the build in, then ended 2: a
    failed build that changed the folder. Refused now, first, in one line."""
    (project / "output" / "sub").mkdir()
    before = tree(project.parent)
    code, stdout, err, _ = run_cli(["build", "sorry", "--out", out], project / cwd)
    one_refusal(code, err, "a build replaces its output folder whole")
    assert "holds " in err and not stdout
    assert tree(project.parent) == before


# ---------------------------------------------------------------- owner, group, mode and flags

@pytest.mark.slow      # four builds
@pytest.mark.skipif(not ROOTED, reason="giving files to another user needs root")
def test_run_as_root_a_users_folder_stays_the_users(project):
    """Run as root on a user's 700 folder: --out and every folder kept in it keep their owner, group
    and mode; what the build makes is given to the folder's owner; the lock too."""
    out = project / "output"
    os.chown(project, 1000, 1000)
    os.chown(out, 1000, 1000)
    os.chmod(out, 0o700)
    (out / "mine").mkdir()
    os.chown(out / "mine", 1001, 1002)
    os.chmod(out / "mine", 0o2750)
    (out / "mine" / "notes.txt").write_text("mine")
    os.chown(out / "mine" / "notes.txt", 1001, 1002)
    (out / "roots").mkdir()          # a folder of root's in it stays root's
    code, stdout, err, _ = run_cli(SMALL_BUILD, project)
    assert code == 0, err

    def who(p: Path) -> tuple:
        st = os.lstat(p)
        return st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)
    assert who(out) == (1000, 1000, 0o700)
    assert who(out / "mine") == (1001, 1002, 0o2750) and who(out / "mine" / "notes.txt")[:2] == (1001, 1002)
    assert who(out / "roots")[:2] == (0, 0)
    made = [out / "continuo", *(out / "continuo").iterdir(), out / ".pnp-build.json"]
    assert all(who(p)[:2] == (1000, 1000) for p in made), [(p.name, who(p)) for p in made]
    assert who(project / ".output.pnp-lock") == (1000, 1000, 0o644)
    # Built again (a forced rebuild makes the spec's files anew, and a game built whole its folder,
    # whose inode number a new folder may then take: what was made is told by its path, not its
    # number): the same.
    for _ in range(3):
        code, _, err, _ = run_cli([*SMALL_BUILD, "--force"], project)
        made = [out / "continuo", *(out / "continuo").iterdir(), out / ".pnp-build.json"]
        assert code == 0 and who(out) == (1000, 1000, 0o700) and who(out / "roots")[:2] == (0, 0), err
        assert all(who(p)[:2] == (1000, 1000) for p in made), [(p.name, who(p)) for p in made]


@pytest.mark.skipif(not ROOTED, reason="needs root to make a folder of another user's")
def test_a_folder_whose_owner_cannot_be_kept_is_refused(project, monkeypatch):
    """Built by a user who is not root into a folder holding another user's folder (chown is refused
    to such a user, as here): the copy would be the builder's after the swap, so the build is
    refused, --out as it was."""
    out = project / "output"
    (out / "theirs").mkdir()
    os.chown(out / "theirs", 1001, 1001)
    before = tree(out)

    def chown(path, uid, gid, **kw):
        raise PermissionError(1, "Operation not permitted", str(path))
    monkeypatch.setattr(outputs.os, "chown", chown)
    code, _, err, _ = run_cli(SMALL_BUILD, project)
    one_refusal(code, err, "theirs belongs to user 1001, group 1001")
    assert tree(out) == before and staging_folders(project) == []


def _chattr(flag: str, path: Path) -> bool:
    r = subprocess.run(["chattr", flag, str(path)], capture_output=True)
    return r.returncode == 0


@pytest.mark.skipif(not ROOTED or not shutil.which("chattr"), reason="chattr +i needs root")
@pytest.mark.parametrize("what", ["out", "folder", "file", "append-only"])
def test_an_immutable_folder_or_file_is_refused_not_dropped(project, what):
    """`chattr +i` on --out, a folder or a file in it: a build would replace it by a copy without the
    flag. Refused, in one line; the flag and the folder as they were."""
    out = project / "output"
    (out / "mine").mkdir()
    (out / "mine" / "notes.txt").write_text("mine")
    target = {"out": out, "folder": out / "mine", "file": out / "mine" / "notes.txt",
              "append-only": out / "mine"}[what]
    flag = "+a" if what == "append-only" else "+i"
    if not _chattr(flag, target):
        pytest.skip("this file system has no immutable flag")
    try:
        before = tree(out)
        code, _, err, _ = run_cli(SMALL_BUILD, project)
        one_refusal(code, err, "immutable or append-only")
        assert tree(out) == before and staging_folders(project) == []
        assert outputs._unchangeable(target)
    finally:
        _chattr(flag.replace("+", "-"), target)


# ---------------------------------------------------------------- single files

def _things(tmp_path: Path) -> dict[str, Path]:
    things = {}
    os.mkfifo(tmp_path / "fifo.pdf")
    things["a FIFO"] = tmp_path / "fifo.pdf"
    (tmp_path / "dangling.pdf").symlink_to(tmp_path / "nowhere.pdf")
    things["a link"] = tmp_path / "dangling.pdf"
    (tmp_path / "real.pdf").write_text("mine")
    (tmp_path / "link.pdf").symlink_to(tmp_path / "real.pdf")
    things["a link "] = tmp_path / "link.pdf"
    (tmp_path / "folder.pdf").mkdir()
    things["a folder"] = tmp_path / "folder.pdf"
    if ROOTED:
        os.mknod(tmp_path / "null.pdf", 0o666 | stat.S_IFCHR, os.makedev(1, 3))    # /dev/null's twin
        things["a device"] = tmp_path / "null.pdf"
    return things


def test_calibrate_replaces_only_a_regular_file(tmp_path):
    """`pnp calibrate --out /dev/null` run as root once replaced the null device with a PDF; a FIFO
    or a link likewise, exit 0. Each is refused in one line and left as it was."""
    for kind, path in _things(tmp_path).items():
        before = os.lstat(path)
        code, out, err, _ = run_cli(["calibrate", "--out", path], tmp_path)
        one_refusal(code, err, f"is {kind.strip()}, not a regular file")
        after = os.lstat(path)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert (tmp_path / "real.pdf").read_text() == "mine"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    code, out, err, _ = run_cli(["calibrate", "--out", tmp_path / "real.pdf"], tmp_path)
    assert code == 0 and (tmp_path / "real.pdf").read_bytes().startswith(b"%PDF"), err


def test_every_single_file_writer_refuses_what_is_not_a_regular_file(tmp_path):
    for kind, path in _things(tmp_path).items():
        with pytest.raises(UsageError, match="not a regular file"):
            write_synced(path, b"x")
        with pytest.raises(UsageError, match="not a regular file"):
            with outputs.atomic_path(path):
                pass
    write_synced(tmp_path / "new.yaml", b"x")
    assert (tmp_path / "new.yaml").read_bytes() == b"x"


@pytest.mark.slow      # a process waiting 3 s, interrupted
def test_a_signal_while_waiting_for_the_lock_stops_the_build(project):
    """Waiting for another build is not deafness: Ctrl-C ends the wait (130), nothing changed."""
    fd = hold(project / ".output.pnp-lock")
    try:
        p = start_build(project, *SMALL_BUILD[1:])
        time.sleep(3.0)          # started, and waiting (for up to LOCK_WAIT_S, 10 s)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    finally:
        os.close(fd)
    assert p.returncode == 130 and "Traceback" not in err, err
    assert staging_folders(project) == [] and tree(project / "output").keys() == {"keep.txt"}


def test_a_failed_build_into_a_new_folder_makes_nothing(project):
    """A spec error stops a build into a folder that does not exist yet: neither the folder, nor the
    folders above it, nor a lock beside it is made."""
    text = (project / "decks" / "continuo.yaml").read_text()
    (project / "decks" / "continuo.yaml").write_text(text.replace("expected_total: 42", "expected_total: 41"))
    before = tree(project)
    code, _, err, _ = run_cli(["build", "continuo", "--out", "new/deep/out"], project)
    assert code == 1 and err.startswith("decks/continuo.yaml:"), err
    assert tree(project) == before


def test_calibrate_waits_for_a_held_lock_then_is_refused_with_nothing_written(project, monkeypatch):
    """The quick subset's check of calibrate and a build's lock (the whole suite's test below builds
    first): a folder whose lock a build holds gets no sheet, a wait and a one-line refusal."""
    monkeypatch.setattr(outputs, "LOCK_WAIT_S", 0.1)
    fd = hold(project / ".output.pnp-lock")
    try:
        code, out, err, _ = run_cli(["calibrate"], project)
    finally:
        os.close(fd)
    assert code == 2 and not out and not (project / "output" / "calibrate-a4-long.pdf").exists(), err
    assert err.strip().splitlines()[-1].startswith("pnp: --out ") and "another build is writing it" in err, err


@pytest.mark.slow      # a build, then calibrate six times (calibrate's own file is tested quick above)
def test_calibrate_waits_for_a_build_writing_its_folder(project, monkeypatch):
    """`pnp calibrate` writes into output/ too: while a build holds the folder's lock (its swap would
    throw the sheet away) it waits, then is refused in one line, nothing written; free, it writes.
    Into a folder no build writes, it leaves no lock behind."""
    monkeypatch.setattr(outputs, "LOCK_WAIT_S", 0.3)
    code, _, err, _ = run_cli(SMALL_BUILD, project)
    assert code == 0 and (project / ".output.pnp-lock").is_file(), err
    sheet = project / "output" / "calibrate-a4-long.pdf"
    fd = hold(project / ".output.pnp-lock")
    try:
        code, out, err, _ = run_cli(["calibrate"], project)
    finally:
        os.close(fd)
    assert code == 2 and not out and not sheet.exists(), err
    assert err.strip().splitlines()[-1].startswith("pnp: --out ") and "another build is writing it" in err, err
    (project / "alias").symlink_to(project / "output", target_is_directory=True)
    for out_arg in ("output/sub/cal.pdf", "alias/cal.pdf"):     # below the built folder; through a link to it
        fd = hold(project / ".output.pnp-lock")
        try:
            code, out, err, _ = run_cli(["calibrate", "--out", out_arg], project)
        finally:
            os.close(fd)
        assert code == 2 and "another build is writing it" in err and not (project / out_arg).exists(), (out_arg, err)
    code, out, err, _ = run_cli(["calibrate"], project)
    assert code == 0 and sheet.is_file(), err
    code, out, err, _ = run_cli(["calibrate", "--out", "elsewhere/cal.pdf"], project)
    assert code == 0 and (project / "elsewhere" / "cal.pdf").is_file(), err
    assert not (project / ".elsewhere.pnp-lock").exists()
