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


def test_the_longest_modules_go_first_and_a_modules_tests_keep_their_order():
    from types import SimpleNamespace

    from conftest import longest_modules_first
    items = [SimpleNamespace(nodeid=n) for n in
             ("tests/a.py::x", "tests/a.py::y", "tests/b.py::x", "tests/new.py::x", "tests/c.py::x", "tests/b.py::y")]
    longest_modules_first(items, {"tests/a.py": 1.0, "tests/b.py": 5.0, "tests/c.py": 2.0})
    assert [i.nodeid for i in items] == ["tests/new.py::x", "tests/b.py::x", "tests/b.py::y", "tests/c.py::x",
                                         "tests/a.py::x", "tests/a.py::y"]
