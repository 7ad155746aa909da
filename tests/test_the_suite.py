"""The suite's own machinery, as pyproject.toml sets it up."""
import os

import pytest


def test_a_modules_tests_run_in_one_test_process(request):
    """`--dist loadgroup` keeps a module's tests on one worker (conftest marks each module a group),
    so that its module fixtures are made once a run: xdist writes the group into the test's id.
    (Under pytest 9.2 it did not, and each worker made every module's fixtures again.)"""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.skip("one test process: nothing to group")
    assert request.node.nodeid.endswith("@tests/test_the_suite.py"), request.node.nodeid


def test_xdist_keeps_the_order_the_suite_gives(request):
    """xdist hands the groups out in the order conftest sorts them (longest first); by default it
    sorts them again by their count of tests, and the browsers' 90 s, in few tests, went midway."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.skip("one test process: nothing handed out")
    assert request.config.getoption("loadscopereorder") is False


def test_the_longest_modules_go_first_and_a_modules_tests_keep_their_order():
    from types import SimpleNamespace

    from conftest import longest_modules_first
    items = [SimpleNamespace(nodeid=n) for n in
             ("tests/a.py::x", "tests/a.py::y", "tests/b.py::x", "tests/new.py::x", "tests/c.py::x", "tests/b.py::y")]
    longest_modules_first(items, {"tests/a.py": 1.0, "tests/b.py": 5.0, "tests/c.py": 2.0})
    assert [i.nodeid for i in items] == ["tests/new.py::x", "tests/b.py::x", "tests/b.py::y", "tests/c.py::x",
                                         "tests/a.py::x", "tests/a.py::y"]


def test_modules_sharing_a_group_go_as_long_as_the_group(monkeypatch):
    """The browser modules share one worker (GROUPS): the group is as long as its modules together,
    and goes before a module longer than each of them but shorter than all."""
    from types import SimpleNamespace

    import conftest
    monkeypatch.setattr(conftest, "GROUPS", {"a.py": "shared", "c.py": "shared"})
    items = [SimpleNamespace(nodeid=n) for n in ("tests/a.py::x", "tests/b.py::x", "tests/c.py::x")]
    conftest.longest_modules_first(items, {"tests/a.py": 3.0, "tests/b.py": 5.0, "tests/c.py": 3.0})
    assert [i.nodeid for i in items] == ["tests/a.py::x", "tests/c.py::x", "tests/b.py::x"]


def test_every_test_and_module_left_out_of_the_quick_subset_by_name_exists_once():
    """SLOW_TESTS names test functions, SLOW_MODULES files: a name renamed away would quietly put a
    slow test back into the quick subset, and one written twice would take another with it; a
    GROUPS name renamed away would quietly leave its worker."""
    import re
    from pathlib import Path

    from conftest import GROUPS, SLOW_MODULES, SLOW_TESTS
    here = Path(__file__).parent
    defined: dict = {}
    # A test function's line (ast.parse of every module took 0.8 s, a line's pattern 0.02 s).
    test_def = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(test_\w+)[ \t]*\(", re.M)
    for path in here.glob("test_*.py"):
        for name in test_def.findall(path.read_text(encoding="utf-8")):
            defined.setdefault(name, set()).add(path.name)
    assert {name: defined.get(name, set()) for name in SLOW_TESTS if len(defined.get(name, ())) != 1} == {}
    assert [name for name in SLOW_MODULES if not (here / name).is_file()] == []
    assert [name for name in GROUPS if not (here / name).is_file()] == []


def test_a_broken_timing_cache_orders_nothing():
    from types import SimpleNamespace

    from conftest import _module_seconds
    def config(kept):
        return SimpleNamespace(cache=SimpleNamespace(get=lambda key, default: kept),
                               getoption=lambda name: "not slow")
    assert _module_seconds(config({"tests/a.py": "lots", "tests/b.py": 2, "tests/c.py": True, 3: 1.0})) == {"tests/b.py": 2.0}
    assert _module_seconds(config(["not", "a", "dict"])) == {}
    assert _module_seconds(SimpleNamespace()) == {}


def test_the_runs_files_go_to_memory_only_where_a_tmpfs_has_room(tmp_path):
    from conftest import memory_folder
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/vda / ext4 rw 0 0\nshm /dev/shm tmpfs rw,nosuid 0 0\n")
    assert memory_folder(str(mounts), wanted=0) == "/dev/shm"
    assert memory_folder(str(mounts), wanted=1 << 62) is None           # a container's 64 MB
    mounts.write_text("/dev/vda / ext4 rw 0 0\n/dev/vdb /dev/shm ext4 rw 0 0\nbroken\n")
    assert memory_folder(str(mounts), wanted=0) is None
    assert memory_folder(str(tmp_path / "no-such-file"), wanted=0) is None
