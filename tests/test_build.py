"""The build itself: byte-reproducible, incremental (only what a change touches is made again),
the same in parallel as in series, quiet when not on a terminal."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from fuzzing import run_cli

from generator.pipeline import MANIFEST


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != MANIFEST}


GAMES_OF_EVERY_KIND = ["mille-bornes", "sorry", "continuo"]   # PDF, SVG, DXF, PNG and print lists among them


@pytest.mark.slow      # the run's build of every game and the module's
def test_two_builds_serial_and_parallel_give_identical_files_listed_in_one_order(output, tmp_path_factory,
                                                                                built_once):
    """A second build, from nothing, in another folder (a project of its own) and another process,
    one job at a time (the module's one build): every file (PDF, SVG, DXF, PNG, print lists) is byte
    for byte the same as the run's first build's, which ran its jobs in parallel; and the files are
    listed in the same order by both."""
    from conftest import built_listing
    project, listed = built_once
    first = {k: v for k, v in files(output).items() if k.split("/")[0] in GAMES_OF_EVERY_KIND}
    second = files(project / "output")
    assert first.keys() == second.keys()
    differ = [name for name in first if first[name] != second[name]]
    assert differ == []
    kinds = {Path(name).suffix for name in first}
    assert {".pdf", ".svg", ".dxf", ".png", ".txt"} <= kinds
    # The listing of what was written comes in the same order, in parallel as in series: each game's
    # files (the run's build listed every game).
    serial = [Path(line).relative_to("output").as_posix() for line in listed.splitlines()]
    parallel = [Path(line).relative_to(output).as_posix() for line in built_listing(tmp_path_factory)]
    for game in GAMES_OF_EVERY_KIND:
        ours = [rel for rel in serial if rel.startswith(game + "/")]
        assert ours == [rel for rel in parallel if rel.startswith(game + "/")] and len(ours) > 5, game
    assert [Path(rel).name for rel in serial if rel.startswith("sorry/")][:3] == \
        ["sorry-sheet-a4.pdf", "sorry-shop.pdf", "sorry-contact.png"]


def test_source_date_epoch_is_the_pdf_date(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")   # 2001-09-09 01:46:40 UTC
    # Continuo's rules sheet alone, and its print list: every PDF is written by one canvas
    # (draw/pdf.py), so a one-page sheet tells as well as the Sorry shop file once did, at a fifth
    # of the cost.
    assert run_cli(["build", "decks/continuo_rules.yaml", "--out", tmp_path], ROOT)[0] == 0
    for name in ("rules-a4.pdf", "print-list.pdf"):
        assert b"D:20010909014640" in (tmp_path / "continuo" / name).read_bytes(), name


@pytest.fixture
def project(tmp_path):
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    return tmp_path


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> tuple[Path, str]:
    """(a project with the real specs and GAMES_OF_EVERY_KIND built into its output/ once for the
    module, the lines the build printed): built one job at a time, to be compared with the run's
    shared build, which ran its jobs in parallel."""
    folder = tmp_path_factory.mktemp("built-once")
    shutil.copytree(ROOT / "decks", folder / "decks")
    shutil.copytree(ROOT / "boards", folder / "boards")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PNP_JOBS", "1")
        code, listed, err, _ = run_cli(["build", *GAMES_OF_EVERY_KIND], folder)
    assert code == 0, err
    return folder, listed


@pytest.fixture
def project_built(built_once, tmp_path) -> Path:
    """A project of this test's own as `pnp build mille-bornes sorry continuo` leaves it: a copy of the
    module's one build (its specs, output/ and manifest), the manifest's paths moved to the copy as
    a build here would have written them (the files read are named by their real paths). It is up to
    date (the test of an unchanged build sees it is); each test saves a build from nothing."""
    built, _ = built_once
    project = tmp_path / "project"
    shutil.copytree(built, project, symlinks=True)
    manifest = project / "output" / MANIFEST
    there, here = (json.dumps(os.path.realpath(folder))[1:-1] + "/" for folder in (built, project))
    text = manifest.read_text()
    assert there in text                    # (else every test here would quietly build from nothing)
    manifest.write_text(text.replace(there, here))
    return project


def stamps(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


@pytest.mark.slow      # builds, again and again
def test_an_unchanged_build_does_nothing_and_an_edit_rebuilds_what_depends_on_it(project_built):
    project = project_built                 # mille-bornes and sorry (and continuo) built there
    out = project / "output"
    before = stamps(out)
    code, written, err, _ = run_cli(["build", "mille-bornes", "sorry"], project)
    assert code == 0 and written == "" and "up to date" in err
    assert stamps(out) == before
    # The 1961 deck changes: its own files are made again, and the card shoe's, which reads
    # the published deck only, are not; the Sorry files are not.
    deck = project / "decks" / "mille_bornes_1961.yaml"
    deck.write_text(deck.read_text().replace("title: Mille Bornes (1961 patent deck)", "title: Mille Bornes 1961"))
    code, written, err, _ = run_cli(["build", "mille-bornes", "sorry"], project)
    assert code == 0, err
    remade = {Path(line).name for line in written.splitlines()}
    assert {"mille_bornes_1961-shop.pdf", "mille_bornes_1961-sheet-a4.pdf"} <= remade
    assert not any(name.startswith(("sorry", "mille_bornes-", "mille-bornes-shoe")) for name in remade)
    after = stamps(out)
    assert after["sorry/sorry-shop.pdf"] == before["sorry/sorry-shop.pdf"]
    assert after["mille-bornes/mille_bornes-shop.pdf"] == before["mille-bornes/mille_bornes-shop.pdf"]
    # The published deck changes: the shoe, which takes its cards' size from it, is made again.
    deck = project / "decks" / "mille_bornes.yaml"
    deck.write_text(deck.read_text().replace("card: {width: 63, height: 88", "card: {width: 63, height: 89"))
    code, written, err, _ = run_cli(["build", "mille-bornes"], project)
    assert code == 0, err
    assert any("shoe" in line for line in written.splitlines())
    # Another option is another build; a deleted file is made again.
    (out / "sorry" / "sorry-contact.png").unlink()
    code, written, err, _ = run_cli(["build", "sorry"], project)
    assert code == 0 and "sorry-contact.png" in written


@pytest.mark.slow      # the module's build, and a spec's build twice
def test_a_spec_built_alone_leaves_its_games_other_files_and_their_print_list_lines(project_built):
    """`pnp build decks/continuo_rules.yaml` makes the rules sheet again and leaves the deck's files
    and their lines in the game's print list as the last build made them (they once went: the
    folder held 3 files of 11), with --force too; the manifest still holds every job of every game
    but one the game no longer has."""
    out = project_built / "output" / "continuo"
    before, readme = files(out), (out / "README.txt").read_text()
    # A job the game no longer has (its spec renamed or deleted since): its file goes, as in a whole
    # build (found in review: it stayed, listed in the print list, and its name could clash).
    manifest = project_built / "output" / MANIFEST
    record = json.loads(manifest.read_text())
    record["jobs"]["continuo|decks/continuo_renamed.yaml|"] = {**record["jobs"]["continuo|decks/continuo.yaml|"],
                                                               "products": ["continuo/renamed-sheet-a4.pdf"]}
    manifest.write_text(json.dumps(record))
    (out / "renamed-sheet-a4.pdf").write_text("old")
    rules = project_built / "decks" / "continuo_rules.yaml"
    rules.write_text(rules.read_text() + "# edited\n")
    for force in ([], ["--force"]):
        if force:
            (out / "stray.pdf").write_text("no job's")     # --force: the game's folder as from nothing
        code, written, err, _ = run_cli(["build", "decks/continuo_rules.yaml", *force], project_built)
        assert code == 0, err
        assert sorted(Path(line).name for line in written.splitlines()) == ["README.txt", "print-list.pdf",
                                                                            "rules-a4.pdf"], force
        after = files(out)
        assert after.keys() == before.keys() and len(after) > 5, force
        assert [name for name in after if name.startswith("continuo") and after[name] != before[name]] == []
        assert (out / "README.txt").read_text() == readme, force
        # (--force of one spec once dropped every other game's record: their next build was a whole one)
        jobs = json.loads(manifest.read_text())["jobs"]
        assert {job.split("|")[0] for job in jobs} == {"continuo", "sorry", "mille-bornes"}, force
        assert "continuo|decks/continuo_renamed.yaml|" not in jobs
    code, written, err, _ = run_cli(["build", "continuo", "sorry"], project_built)
    assert code == 0 and written == "" and "up to date" in err, err


@pytest.fixture(scope="module")
def continuo_piped(tmp_path_factory) -> tuple[int, str, str]:
    """`pnp build continuo --out out` with its output not a terminal, run in a folder of its own (in
    this process: a pipe is what the command sees there, as a script's is): (code, stdout, stderr)."""
    folder = tmp_path_factory.mktemp("piped")
    code, out, err, _ = run_cli(["build", "continuo", "--out", "out"], folder)
    return code, out, err


@pytest.mark.slow      # a build
def test_progress_is_quiet_off_a_terminal(continuo_piped):
    code, out, err = continuo_piped
    assert code == 0 and err == "" and "\r" not in out


def test_progress_line_on_a_terminal():
    import io
    from generator.pipeline import Job, Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True
    stream = Tty()
    p = Progress(2, stream)
    job = Job("sorry", "decks/sorry.yaml")
    p.started(job)
    p.finished(job)
    p.close()
    text = stream.getvalue()
    assert "sorry: decks/sorry.yaml" in text and "1/2" in text and text.endswith("\r\x1b[2K")


def test_jobs_start_longest_first_whatever_the_manifest_says():
    """A first build orders its jobs by the measured table (the Capitals deck and the Cubes
    kit's halves first); a manifest's own timings win where they are numbers, and a hand-edited
    one cannot stop it."""
    from generator.games import GAMES
    from generator.pipeline import FIRST_BUILD_SECONDS, build_jobs, job_seconds
    jobs = build_jobs(list(GAMES))
    assert set(FIRST_BUILD_SECONDS) <= {j.id for j in jobs}     # the table names real jobs
    first = sorted(jobs, key=lambda j: -job_seconds(j, {}))
    assert first[0].game in ("capitals", "cubes") and job_seconds(first[-1], {}) < job_seconds(first[0], {})
    job = jobs[0]
    assert job_seconds(job, {job.id: {"seconds": 9.5}}) == 9.5
    for bad in ([1], "x", {"seconds": float("nan")}, {"seconds": True}, {"seconds": -1}, {"seconds": "3"}):
        assert job_seconds(job, {job.id: bad}) == job_seconds(job, {})


@pytest.mark.slow      # every Capitals job run
def test_every_capitals_job_depends_on_the_deck_its_board_reads():
    """The board is made once and kept (the check and three jobs read it), yet each job still
    counts the deck and the coastlines among what it read: an edit to the deck remakes them all."""
    from generator.pipeline import build_jobs, check_jobs, run_job
    from generator.options import BuildOptions
    jobs = [j for j in build_jobs(["capitals"]) if "rules" not in j.spec]
    loaded, errors, _ = check_jobs(jobs, ROOT)
    assert not errors
    for job in jobs:
        reads = run_job(job, ROOT, BuildOptions(out=ROOT / "output"), None, loaded[job.id]).reads
        names = {Path(p).name for p in reads}
        want = {"capitals_1961.yaml", "capitals_world_map.yaml"}
        if job.spec.startswith("boards/"):     # the map and the walls draw or place by the board
            want.add("ne_110m_land.json")
        assert want <= names, (job.spec, names)


def test_what_is_made_from_files_is_made_again_when_a_file_changes(tmp_path):
    """inputs.MadeFromFiles: kept while the files it read are the same bytes (and those files
    counted as read by whoever gets it); made again after an edit, as `pnp serve` must see a
    spec edited while it runs."""
    from generator.inputs import MadeFromFiles, read_bytes, track_reads
    f = tmp_path / "a.txt"
    f.write_text("one")
    cache, made = MadeFromFiles(), []

    def make():
        made.append(read_bytes(f, "a.txt", 100))
        return object()
    first = cache.get("k", make)
    with track_reads() as reads:
        assert cache.get("k", make) is first and len(made) == 1
    assert list(reads) == [os.path.realpath(f)]
    f.write_text("two")
    assert cache.get("k", make) is not first and made[-1] == b"two"
    owner_a, owner_b = object(), object()
    a = cache.get("o", object, owner=owner_a)
    assert cache.get("o", object, owner=owner_a) is a and cache.get("o", object, owner=owner_b) is not a


@pytest.mark.slow      # the module's build, and a build
def test_a_manifest_naming_other_files_only_makes_its_jobs_run_again(project_built):
    """The manifest lives in the output folder, where anyone may edit it: a read it names
    outside the project, a device or a FIFO is never read (no hang), its job simply runs again."""
    project = project_built                 # sorry built there
    manifest = project / "output" / MANIFEST
    data = json.loads(manifest.read_text())
    fifo = project / "decks" / "pipe"
    os.mkfifo(fifo)
    jobs = [entry for job_id, entry in data["jobs"].items() if job_id.startswith("sorry|")]
    jobs[0]["reads"]["/dev/zero"] = "0" * 64
    jobs[1]["reads"][str(fifo)] = "0" * 64
    manifest.write_text(json.dumps(data))
    code, written, err, _ = run_cli(["build", "sorry"], project)
    assert code == 0, err
    assert written and "up to date" not in err


@pytest.mark.slow      # a build each
@pytest.mark.parametrize("manifest", ["fifo", "[" * 100_000, "not json", "{\"format\": 1, \"jobs\": [1]}"])
def test_a_manifest_that_is_not_ours_builds_everything(project, manifest):
    # Continuo's rules sheet, one job and its print list: how a manifest is read depends neither on
    # the game nor on how many jobs it has (Sorry took twice as long as Continuo, Continuo's two
    # jobs 0.5 s of CPU).
    out = project / "output"
    out.mkdir()
    if manifest == "fifo":
        os.mkfifo(out / MANIFEST)
    else:
        (out / MANIFEST).write_text(manifest)
    code, written, err, _ = run_cli(["build", "decks/continuo_rules.yaml"], project)
    assert code == 0, err
    assert "continuo/rules-a4.pdf" in written and "continuo/print-list.pdf" in written


@pytest.mark.slow      # the module's build, and a build
def test_links_and_fifos_in_the_output_folder_are_replaced_never_written_through(project_built, tmp_path_factory):
    """A link (or a FIFO) left in the output folder under the name of a file the build writes,
    its print list or a product: the build makes a new file there, and nothing outside the
    folder is touched (it used to write the print list through the link)."""
    project = project_built                 # sorry built there
    victim = tmp_path_factory.mktemp("elsewhere") / "precious.txt"
    victim.write_text("precious")
    game = project / "output" / "sorry"
    for name in ("README.txt", "sorry-shop.pdf"):
        (game / name).unlink()
        (game / name).symlink_to(victim)
    (game / "print-list.pdf").unlink()
    os.mkfifo(game / "print-list.pdf")
    # An edit to both Sorry specs: their jobs run again, into the folder as it is.
    for spec in ("decks/sorry.yaml", "decks/sorry_rules.yaml"):
        path = project / spec
        path.write_text(path.read_text() + "\n# edited\n")
    code, written, err, _ = run_cli(["build", "sorry"], project)
    assert code == 0, err
    assert victim.read_text() == "precious"
    for name in ("README.txt", "sorry-shop.pdf", "print-list.pdf"):
        assert (game / name).is_file() and not (game / name).is_symlink(), name


@pytest.mark.slow      # the module's build, and a build each
@pytest.mark.parametrize("corrupt", [
    lambda e: 5,
    lambda e: {**e, "products": 5},
    lambda e: {**e, "products": ["sorry/../../x", 3, None]},
    lambda e: {**e, "reads": [], "sizes": 3, "seconds": "x"},
    lambda e: {**e, "info": {rel: {"pages": "lots", "order": "x", "tools": "glue", "sides": True}
                             for rel in e["info"]}},
], ids=["not-a-mapping", "products-not-a-list", "products-not-names", "wrong-types", "info-wrong-types"])
def test_a_manifest_entry_not_in_our_form_makes_its_job_run_again(project_built, corrupt):
    """Found reviewing the change: entries of the right JSON but the wrong shape were internal
    errors (the stale files' removal, the print list's sorting); now such a job runs again.
    (Continuo, two jobs, the deck's entry read; Sorry's four took twice as long: how an entry is
    read does not depend on the game.)"""
    project = project_built                 # continuo built there
    manifest = project / "output" / MANIFEST
    data = json.loads(manifest.read_text())
    data["jobs"] = {job_id: corrupt(entry) for job_id, entry in data["jobs"].items()}
    manifest.write_text(json.dumps(data))
    # One spec edited, so that the others' entries are kept and used (the print list reads them).
    path = project / "decks" / "continuo_rules.yaml"
    path.write_text(path.read_text() + "\n# edited\n")
    code, written, err, _ = run_cli(["build", "continuo"], project)
    assert code == 0, err
    assert "continuo/continuo-shop.pdf" in written and "continuo/README.txt" in written


@pytest.mark.slow      # a build in a process on a terminal
def test_the_first_screen_of_a_build_is_a_summary_and_the_paths_when_piped(tmp_path, continuo_piped):
    """`pnp build` on a terminal says what it made, where, in how long and what to print first, not
    every path (146 for the five games); piped, or with --list, it names every file a line, as a
    script wants."""
    import pty
    out = tmp_path / "out"
    ours, theirs = pty.openpty()
    try:
        r = subprocess.run([sys.executable, "-m", "generator", "build", "continuo", "--out", out], cwd=tmp_path,
                           stdout=theirs, stderr=subprocess.PIPE, text=True, timeout=300)
        os.close(theirs)
        screen = b""
        while True:
            try:
                chunk = os.read(ours, 65536)
            except OSError:          # the terminal's other end closed: all read
                break
            if not chunk:
                break
            screen += chunk
    finally:
        os.close(ours)
    screen = screen.decode().replace("\r\n", "\n")
    assert r.returncode == 0, r.stderr
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != ".pnp-build.json")
    assert re.match(rf"pnp: {len(files)} files written for 1 game into out/ in \d+\.\d s\n", screen), screen
    assert "out/continuo/" in screen and "Continuo" in screen
    assert "Print first:" in screen and "out/continuo/print-list.pdf" in screen
    assert "continuo-sheet-a4.pdf" not in screen and len(screen.splitlines()) == 3
    # The same build piped (the module's, into an out/ of its own) names every file the terminal's made.
    code, piped, err = continuo_piped
    assert code == 0, err
    assert sorted(piped.split()) == sorted(str(p.relative_to(tmp_path)) for p in files)
