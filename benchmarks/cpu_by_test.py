"""A pytest plugin for benchmarks/suite.py: the CPU seconds each test used (its setup, call and
teardown; user and system), its wall seconds and when it began (monotonic: a test process's
timeline, which module ran when), written as JSON lines into the folder named by PNP_CPU_BY_TEST,
one file per test process.

    PYTHONPATH=benchmarks PNP_CPU_BY_TEST=/tmp/cpu .venv/bin/python -m pytest -q -p cpu_by_test

What is counted: where PNP_CPU_CGROUP names a cgroup (v1 cpuacct, made by suite.py when it runs as
root), each test process moves into a cgroup of its own under it, and every process it starts is
counted, however it ends: a browser's renderers, which its driver leaves to init, rusage never
sees (a four-phone game: 9 s of CPU by rusage, 23 s in fact). Otherwise the test process's own
CPU and that of the processes it started and waited for (getrusage).

A fixture shared by many tests (the run's one build of every game) is counted in the first test
that asks for it; a browser's CPU, by rusage, when its driver is quit (the fixture's teardown)."""
from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

_rows: list[dict] = []
_group: Path | None = None
_moved = False


def _rusage() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _cpu() -> float:
    if _group is not None:
        return int((_group / "cpuacct.usage").read_text()) / 1e9
    return _rusage()


def _own_group() -> Path | None:
    """This test process moved into a cgroup of its own under PNP_CPU_CGROUP (None where it cannot)."""
    parent = os.environ.get("PNP_CPU_CGROUP")
    if not parent:
        return None
    group = Path(parent) / f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return None
    return group


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _group, _moved
    if not _moved:                  # at the first test this process runs (xdist's controller runs none)
        _group, _moved = _own_group(), True
    start, began = _cpu(), time.monotonic()
    yield
    # wall: a test that waits (a timeout, a sleep, a disk's fsync) costs the run wall time, not CPU
    _rows.append({"test": item.nodeid, "cpu": round(_cpu() - start, 3), "wall": round(time.monotonic() - began, 3),
                  "began": round(began, 3)})


def pytest_sessionfinish(session):
    folder = os.environ.get("PNP_CPU_BY_TEST")
    if not folder or not _rows:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = Path(folder) / f"{worker}-{os.getpid()}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _rows))
