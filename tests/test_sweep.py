"""Regression sweeps: dump discovery, sweep.json, baselines, incremental reruns, two workers
sharing one real luigid, and the index page in real Chromium."""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import FRONTEND, REPO, generate_dump, run_cli, write_dump
from harness import start_luigid, stop_luigid
from test_cli import payload_of

from ir_trace.cache.fingerprints import dump_state
from ir_trace.errors import IRTraceError
from ir_trace.noise.normalize import IgnoreModes
from ir_trace.options import ReportOptions
from ir_trace.pipeline import Sweep, SweepBatch, SweepDump
from ir_trace.pipeline.sweep import scheduled_dumps
from ir_trace.runsafety.claims import Claim
from ir_trace.summaries.passes import LineCounts
from ir_trace.sweep.results import (
    TextSource,
    compare_passes,
    compile_ignores,
    find_dumps,
    keep_text,
    report_ignore_spec,
    split_ignore_options,
    unique_report_names,
)

SMALL = ("--functions", "5", "--lines", "10", "--passes", "8")

# ---------- helpers ----------


def luigi_env(tmp: Path, log_level: str = "WARNING") -> dict:
    """A luigi.cfg with a private cache and failing exit codes, as the docs recommend for cron."""
    config = tmp / "luigi.cfg"
    config.write_text(
        f"[ir_trace]\ncache_dir = {tmp / 'cache'}\n\n[core]\nlog_level = {log_level}\n\n"
        "[retcode]\ntask_failed = 3\nscheduling_error = 4\nunhandled_exception = 5\n",
        encoding="utf-8",
    )
    return {**os.environ, "LUIGI_CONFIG_PATH": str(config), "PYTHONPATH": str(REPO)}


def luigi_command(*args: str | os.PathLike) -> list[str]:
    return [sys.executable, "-m", "luigi", "--module", "ir_trace.pipeline", "Sweep", *map(str, args)]


def start_sweep_workers(
    env: dict, root: Path, out: Path, port: int, hosts: int, caches: Path
) -> list[subprocess.Popen]:
    """`hosts` Sweep workers on the luigid at `port`, each "host" with its own local cache below `caches`."""
    return [
        subprocess.Popen(
            luigi_command(
                *("--root", root, "--out-dir", out, "--workers", "1"),
                *("--scheduler-host", "127.0.0.1", "--scheduler-port", port),
                *("--ir-trace-cache-dir", caches / f"host{host}-cache"),
            ),
            env=env,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for host in range(hosts)
    ]


def sweep(env: dict, root: Path, out: Path, *extra: str | os.PathLike) -> subprocess.CompletedProcess:
    result = subprocess.run(
        luigi_command("--root", root, "--out-dir", out, *extra, "--local-scheduler"),
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def make_corpus(root: Path) -> dict[str, Path]:
    """Three generated programs (one nested deep), one invalid dump, and a symlink loop."""
    dumps = {
        "alpha": root / "alpha" / "passes_dump",
        "beta": root / "group" / "beta" / "passes_dump",
        "deep": root / "a" / "b" / "c" / "d" / "e" / "f" / "deep" / "passes_dump",
    }
    for seed, dump in enumerate(dumps.values(), 1):
        generate_dump(dump, *SMALL, "--seed", str(seed))
    broken = write_dump(root / "broken" / "passes_dump", [FRONTEND, FRONTEND])
    (broken / "00_frontend.py").unlink()
    (root / "group" / "loop").symlink_to("..", target_is_directory=True)
    return dumps


def load_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def programs(out: Path) -> dict[str, dict]:
    return {p["name"]: p for p in load_json(out / "sweep.json")["programs"]}


def records(out: Path) -> dict[str, dict]:
    return {path.stem: load_json(path) for path in (out / ".sweep" / "records").glob("*.json")}


def mtimes(out: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in out.rglob("*") if path.is_file()}


def edit_pass(dump: Path, index: int) -> None:
    """Change one line of one snapshot, keeping every other snapshot as it was."""
    snapshot = next(dump.glob(f"{index:02d}_after_*.py"))
    lines = snapshot.read_text(encoding="utf-8").split("\n")
    lines[8] += "  # regressed"
    snapshot.write_text("\n".join(lines), encoding="utf-8")


def done_tasks(port: int) -> dict:
    """luigid's own view of the finished tasks, through the API its web page uses."""
    query = urllib.parse.quote(json.dumps({"status": "DONE"}))
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/task_list?data={query}", timeout=30) as response:
        return json.load(response)["response"]


# ---------- the core, without Luigi ----------


def test_find_dumps_walks_any_depth_survives_loops_and_names_reports_uniquely(tmp_path):
    for relative in ("x/prog", "y/prog", "z/deep/er/still/Prog", "index", "we ird:name", "solo"):
        write_dump(tmp_path / relative / "passes_dump", [FRONTEND])
    (tmp_path / "x" / "back").symlink_to(tmp_path, target_is_directory=True)  # a loop to the root
    (tmp_path / "alias").symlink_to(tmp_path / "solo", target_is_directory=True)  # the same dump twice
    found = find_dumps(tmp_path)
    names = {f.relative: f.name for f in found}
    assert names == {
        "alias": "alias",
        "index": "index_program",
        "we ird:name": "we_ird_name",
        "x/prog": "x__prog",
        "y/prog": "y__prog",
        "z/deep/er/still/Prog": "z__deep__er__still__Prog",
    }
    assert len({f.name.casefold() for f in found}) == len(found)


def test_unique_report_names_fall_back_to_numbers():
    assert unique_report_names([("p", "a/p"), ("p", "a_p"), ("q", "q")]) == ["a__p", "a_p", "q"]
    assert unique_report_names([("p", "a__p"), ("p", "a/p")]) == ["a__p", "a__p-2"]


def test_dump_state_is_stable_and_sees_rewrites(tmp_path):
    dump = write_dump(tmp_path / "passes_dump", [FRONTEND, FRONTEND])
    first = dump_state(dump)
    assert dump_state(dump) == first
    os.utime(dump / "01_after_Pass1.py", ns=(1, 1))
    assert dump_state(dump) != first


def _passes(texts: list[str], store: Path) -> list[dict]:
    rows = []
    for index, text in enumerate(texts):
        sha = hashlib.sha256(text.encode()).hexdigest()
        keep_text(store, sha, text.encode())
        rows.append({"index": index, "name": f"P{index}", "sha256": sha})
    return rows


def test_compare_passes_finds_first_divergence_and_ignores_noise(tmp_path):
    then_store, now_store = tmp_path / "then", tmp_path / "now"
    base = ["a = 1\n", "a = kb_inline5\nb = 2\n", "a = kb_inline5\nb = 3\n"]
    noisy = ["a = 1\n", "a = kb_inline7\nb = 2\n", "a = kb_inline7\nb = 4\nc = 5\n"]
    then, now = _passes(base, then_store), _passes(noisy, now_store)
    plain = compare_passes(now, then, TextSource(now_store, []), TextSource(then_store, []))
    assert (plain.first_divergent_pass, plain.differing_passes) == (1, 2)
    assert plain.first_diff == LineCounts(inserted=1, deleted=1)
    ignoring = compare_passes(
        now,
        then,
        TextSource(now_store, compile_ignores([r"kb_inline\d+"])),
        TextSource(then_store, compile_ignores([r"kb_inline\d+"])),
    )
    assert (ignoring.first_divergent_pass, ignoring.differing_passes, ignoring.ignored_passes) == (2, 1, 1)
    assert ignoring.first_diff == LineCounts(inserted=2, deleted=1)
    shorter = compare_passes(now[:2], then, TextSource(now_store, []), TextSource(then_store, []))
    assert shorter.differing_passes == 2  # pass 2 is gone: that is a difference too


def test_compare_without_baseline_text_counts_hash_differences(tmp_path):
    then = _passes(["x\n", "kb_inline5\n"], tmp_path / "then")
    now = _passes(["x\n", "kb_inline7\n"], tmp_path / "now")
    ignores = compile_ignores([r"kb_inline\d+"])
    result = compare_passes(now, then, TextSource(tmp_path / "now", ignores), TextSource(tmp_path / "gone", ignores))
    assert (result.first_divergent_pass, result.first_diff) == (1, None)


def test_invalid_ignore_regex_is_one_clear_error():
    with pytest.raises(IRTraceError, match=r"invalid --ignore regex '\(unclosed'"):
        compile_ignores(["(unclosed"])


# ---------- a nightly sweep, then a sweep against it as the baseline ----------


@pytest.fixture(scope="module")
def nightly(tmp_path_factory):
    """Sweep a corpus into OUT; copy OUT aside; change pass 5 of beta; sweep again with the copy as baseline."""
    tmp = tmp_path_factory.mktemp("nightly")
    env = luigi_env(tmp)
    root, out, prev = tmp / "build_output", tmp / "reports", tmp / "reports.prev"
    dumps = make_corpus(root)
    first = sweep(env, root, out)
    shutil.copytree(out, prev, symlinks=True)
    before = mtimes(out)
    edit_pass(dumps["beta"], 5)
    sweep(env, root, out, "--baseline", prev / "sweep.json")
    return SimpleNamespace(
        tmp=tmp,
        env=env,
        root=root,
        out=out,
        prev=prev,
        dumps=dumps,
        before=before,
        first_log=first.stdout + first.stderr,
    )


def test_every_dump_gets_the_report_the_cli_writes(nightly):
    assert sorted(p.name for p in nightly.prev.glob("*.html")) == ["alpha.html", "beta.html", "deep.html", "index.html"]
    cli_report = nightly.tmp / "cli-deep.html"
    assert run_cli(nightly.dumps["deep"], "-o", cli_report, "--cache-dir", nightly.tmp / "cli-cache").returncode == 0
    assert cli_report.read_bytes() == (nightly.prev / "deep.html").read_bytes()
    assert not list(nightly.out.glob(".*.tmp")), "an atomic write left its temporary file behind"


def test_sweep_json_describes_every_program_and_pass(nightly):
    document = load_json(nightly.prev / "sweep.json")
    assert document["schema"] == 1 and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", document["created"])
    assert document["options"] == {
        "root": str(nightly.root),
        "out_dir": str(nightly.out),
        "baseline": None,
        "context": 3,
        "ignore": [],
        "ignore_modes": [],
        "ignore_regex": [],
    }
    assert document["totals"]["programs"] == 4 and document["totals"]["invalid"] == 1
    entries = {p["name"]: p for p in document["programs"]}
    broken = entries["broken"]
    assert (broken["status"], broken["report"], broken["passes"]) == ("invalid", None, None)
    assert "missing 00_frontend.py" in broken["error"] and "\n" not in broken["error"]
    alpha, dump = entries["alpha"], nightly.dumps["alpha"]
    files = sorted(dump.glob("*.py"), key=lambda path: int(path.name.split("_")[0]))
    assert [p["index"] for p in alpha["passes"]] == list(range(9))
    assert [p["sha256"] for p in alpha["passes"]] == [hashlib.sha256(f.read_bytes()).hexdigest() for f in files]
    assert [p["warning"] for p in alpha["passes"]] == [f.with_suffix(".log").exists() for f in files]
    assert alpha["passes"][1]["name"] == files[1].stem.split("_after_")[1]
    assert sum(p["inserted"] for p in alpha["passes"]) == alpha["summary"]["inserted"] > 0
    assert sum(p["changed"] for p in alpha["passes"]) == alpha["summary"]["changed"]


def test_index_is_self_contained_and_lists_every_program(nightly):
    page = html.unescape((nightly.prev / "index.html").read_text(encoding="utf-8"))
    assert "default-src 'none'" in page and "connect-src 'none'" in page
    assert not re.search(r"""(src|href)=["']https?:""", page)
    data = json.loads(re.search(r'<script type="application/json" id="sweep-data">(.*?)</script>', page, re.S)[1])
    assert sorted(row["name"] for row in data["rows"]) == ["alpha", "beta", "broken", "deep"]
    assert data["rows"][0]["name"] == "broken"  # problems first


def test_the_index_names_no_absolute_path_of_the_machine(nightly):
    """index.html is shared like the reports: the root by its name, dumps from it on; sweep.json keeps them."""
    page = html.unescape((nightly.out / "index.html").read_text(encoding="utf-8"))
    assert str(nightly.tmp) not in page
    data = json.loads(re.search(r'<script type="application/json" id="sweep-data">(.*?)</script>', page, re.S)[1])
    assert data["options"]["root"] == "build_output"
    assert data["baseline"]["path"] == "reports.prev/sweep.json"
    dumps = {row["name"]: row["dump"] for row in data["rows"]}
    assert dumps["alpha"] == str(Path("build_output") / nightly.dumps["alpha"].relative_to(nightly.root))
    assert load_json(nightly.out / "sweep.json")["options"]["root"] == str(nightly.root)


def test_baseline_flags_exactly_the_changed_program_at_the_changed_pass(nightly):
    entries = programs(nightly.out)
    assert {name: p["status"] for name, p in entries.items()} == {
        "alpha": "same",
        "beta": "diverged",
        "broken": "invalid",
        "deep": "same",
    }
    beta = entries["beta"]["baseline"]
    assert (beta["first_divergent_pass"], beta["differing_passes"], beta["link"]) == (5, 1, "beta.html#pass=5")
    assert beta["first_diff"] == {"inserted": 1, "deleted": 1}
    different = {"index": 5, "name": beta["first_divergent_name"], "link": "beta.html#pass=5"}
    assert beta["first_different"] == different  # the pass that behaved differently, linked into the report
    assert entries["alpha"]["baseline"]["first_different"] is None
    assert load_json(nightly.out / "sweep.json")["totals"]["diverged"] == 1


def test_after_one_dump_changes_only_its_report_is_rebuilt(nightly):
    after = mtimes(nightly.out)
    rewritten = {name for name, stamp in after.items() if nightly.before.get(name) != stamp}
    assert rewritten >= {"beta.html", "beta.json", "index.html", "sweep.json"}
    assert not rewritten & {"alpha.html", "deep.html", "alpha.json", "deep.json", "broken.json"}
    work = records(nightly.out)["beta"]["work"]
    assert work["reused"] is False and 1 <= work["rediffed"] <= 2 < work["pairs"]


def test_new_and_gone_programs_are_reported(nightly, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(nightly.root / "alpha", root / "alpha", symlinks=True)
    generate_dump(root / "gamma" / "passes_dump", *SMALL, "--seed", "9")
    out = tmp_path / "out"
    sweep(nightly.env, root, out, "--baseline", nightly.prev / "sweep.json")
    document = load_json(out / "sweep.json")
    assert {p["name"]: p["status"] for p in document["programs"]} == {"alpha": "same", "gamma": "new"}
    assert [g["name"] for g in document["gone"]] == ["beta", "broken", "deep"]
    assert document["totals"]["gone"] == 3


@pytest.fixture(scope="module")
def shortened(nightly, tmp_path_factory):
    """Against the nightly baseline: alpha lost its last pass; beta, deep and broken are gone; a
    program with a long name (as real ones have) is new."""
    tmp = tmp_path_factory.mktemp("shortened")
    root, out = tmp / "root", tmp / "out"
    alpha = root / "alpha" / "passes_dump"
    shutil.copytree(nightly.dumps["alpha"], alpha)
    shutil.copytree(nightly.dumps["deep"], root / "nightly_qwen3_decode_explicit_paged_attention" / "passes_dump")
    for path in alpha.glob("08_after_*"):
        path.unlink()
    sweep(nightly.env, root, out, "--baseline", nightly.prev / "sweep.json")
    return out


def test_a_pass_only_in_the_baseline_links_to_the_last_pass_the_report_has(shortened):
    alpha = programs(shortened)["alpha"]["baseline"]
    assert (alpha["first_divergent_pass"], alpha["differing_passes"]) == (8, 1)
    assert alpha["link"] == "alpha.html#pass=7"  # the report has no pass 8 to open


# ---------- reruns ----------


def test_rerun_with_nothing_changed_does_no_diff_or_render_work(tmp_path):
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "out"
    for seed in (1, 2):
        generate_dump(root / f"p{seed}" / "passes_dump", *SMALL, "--seed", str(seed))
    sweep(env, root, out)
    first = mtimes(out)
    sweep(env, root, out)
    assert mtimes(out) == first  # every task was already complete: nothing ran
    for path in root.rglob("*.py"):
        os.utime(path)  # a rebuild that printed the same text: the tasks rerun, the work does not
    sweep(env, root, out)
    work = [r["work"] for r in records(out).values()]
    assert [(w["reused"], w["rediffed"]) for w in work] == [(True, 0), (True, 0)]
    assert all(w["pairs"] > 0 for w in work)


def test_ignore_makes_renumbered_names_count_as_the_same(tmp_path):
    env, root = luigi_env(tmp_path), tmp_path / "root"
    numbered = [FRONTEND.replace("t1", f"kb_inline{n}") for n in (5, 5, 5)]
    dump = write_dump(root / "qwen" / "passes_dump", [FRONTEND, *numbered])
    sweep(env, root, tmp_path / "night1")
    write_dump(dump, [FRONTEND, numbered[0], *(t.replace("kb_inline5", "kb_inline7") for t in numbered[1:])])
    sweep(env, root, tmp_path / "night2", "--baseline", tmp_path / "night1" / "sweep.json")
    noisy = programs(tmp_path / "night2")["qwen"]["baseline"]
    assert (noisy["first_divergent_pass"], noisy["differing_passes"]) == (2, 2)
    assert noisy["first_diff"] == {"inserted": 2, "deleted": 2}  # every line naming kb_inline changed
    night3 = sweep(
        env,
        root,
        tmp_path / "night3",
        "--baseline",
        tmp_path / "night1" / "sweep.json",
        "--ignore",
        json.dumps([r"kb_inline\d+", "unused"]),
    )
    # Still read as regexes, with a warning that names the form to use (--ignore-regex), once per value.
    assert night3.stderr.count("is read as a regex; this reading is deprecated") == 2, night3.stderr
    assert "FutureWarning: --ignore 'unused' is not ignore mode names" in night3.stderr
    assert "pass --ignore-regex 'unused' instead" in night3.stderr
    quiet = programs(tmp_path / "night3")["qwen"]
    assert quiet["status"] == "same" and quiet["baseline"]["ignored_passes"] == 2
    assert load_json(tmp_path / "night3" / "sweep.json")["options"]["ignore"] == [r"kb_inline\d+", "unused"]
    stored = tmp_path / "night3" / ".sweep" / "text"
    assert {gzip.decompress(p.read_bytes()).decode() for p in stored.iterdir()} == {
        FRONTEND,
        numbered[0],
        numbered[1].replace("5", "7"),
    }


def failed_sweep(env: dict, root: Path, out: Path, *extra: str | os.PathLike) -> str:
    """A sweep that must fail: exit code 3 ([retcode] task_failed), its output for the reason."""
    result = subprocess.run(
        luigi_command("--root", root, "--out-dir", out, *extra, "--local-scheduler"),
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 3, result.stdout + result.stderr
    return result.stdout + result.stderr


@pytest.mark.parametrize(
    "baseline, reason",
    [
        ("{}", "not a sweep.json of schema 1: {path}"),
        ('{"schema": 1, "programs": [{"name": "p"}]}', "baseline {path} is damaged: programs[0] (p) has no ok flag"),
        (
            '{"schema": 1, "programs": [{"name": "p", "ok": true, "passes": [{"index": 0}]}]}',
            "baseline {path} is damaged: programs[0] (p) has a pass without index, name or sha256",
        ),
    ],
)
def test_a_bad_baseline_fails_the_sweep_with_one_line(tmp_path, baseline, reason):
    env, root = luigi_env(tmp_path), tmp_path / "root"
    write_dump(root / "p" / "passes_dump", [FRONTEND])
    bogus = tmp_path / "bogus.json"
    bogus.write_text(baseline, encoding="utf-8")
    output = failed_sweep(env, root, tmp_path / "out", "--baseline", bogus)
    assert "failed: " + reason.format(path=bogus) + "\n" in output
    assert "Traceback" not in output.split("failed: ")[-1]
    assert not (tmp_path / "out" / "sweep.json").exists()


def test_the_baseline_is_normalised_before_comparing_with_the_file_being_written(tmp_path):
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "reports"
    write_dump(root / "p" / "passes_dump", [FRONTEND])
    sweep(env, root, out)
    (tmp_path / "link.json").symlink_to(out / "sweep.json")
    for spelling in (tmp_path / "reports" / ".." / "reports" / "sweep.json", tmp_path / "link.json"):
        output = failed_sweep(env, root, out, "--baseline", spelling)
        assert f"failed: --baseline {spelling} is the sweep.json this sweep overwrites" in output


def test_an_out_dir_that_is_a_file_fails_with_one_line(tmp_path):
    env, root = luigi_env(tmp_path), tmp_path / "root"
    write_dump(root / "p" / "passes_dump", [FRONTEND])
    (tmp_path / "out").write_text("not a directory", encoding="utf-8")
    output = failed_sweep(env, root, tmp_path / "out")
    assert f"failed: --out-dir is not a directory: {tmp_path / 'out'}\n" in output
    assert (tmp_path / "out").read_text(encoding="utf-8") == "not a directory"


def test_an_out_dir_that_cannot_be_created_fails_the_sweep_once(tmp_path):
    env, root = luigi_env(tmp_path), tmp_path / "root"
    for name in ("p", "q"):
        write_dump(root / name / "passes_dump", [FRONTEND])
    (tmp_path / "file").write_text("not a directory", encoding="utf-8")
    output = failed_sweep(env, root, tmp_path / "file" / "out")
    assert f"Sweep(root={root}, out_dir={tmp_path / 'file' / 'out'}" in output
    assert output.count(" failed: ") == 1 and "SweepDump" not in output  # one reason, not one per dump
    assert f"failed: --out-dir cannot be created: {tmp_path / 'file' / 'out'}: Not a directory\n" in output


def test_relative_sweep_paths_are_the_same_sweep_from_another_directory(tmp_path, monkeypatch):
    env, root, out = luigi_env(tmp_path, log_level="INFO"), tmp_path / "root", tmp_path / "out"
    write_dump(root / "p" / "passes_dump", [FRONTEND])
    sweep(env, root, out)
    again = subprocess.run(
        luigi_command("--root", "root/", "--out-dir", "./out", "--local-scheduler"),
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0 and "Did not run any tasks" in again.stderr, again.stderr
    monkeypatch.chdir(tmp_path)  # one task id, whatever the working directory
    assert Sweep(root="root/", out_dir="./out").task_id == Sweep(root=str(root), out_dir=str(out)).task_id


def test_an_out_dir_inside_a_dump_fails_with_one_line_and_writes_nothing(tmp_path):
    env, root = luigi_env(tmp_path), tmp_path / "root"
    dump = write_dump(root / "p" / "passes_dump", [FRONTEND])
    output = failed_sweep(env, root, dump / "reports")
    assert f"failed: --out-dir {dump / 'reports'} is inside the dump directory {dump}" in output
    assert sorted(p.name for p in dump.iterdir()) == ["00_frontend.py"]


@pytest.mark.parametrize("task", ["RenderReport", "RenderComparison"])
def test_a_report_task_never_writes_into_a_dump(tmp_path, task):
    """The command line refuses `-o DUMP/00_frontend.py`; the Luigi tasks, run directly, must too."""
    dump = write_dump(tmp_path / "passes_dump", [FRONTEND, FRONTEND + "x = 1\n"])
    snapshot = dump / "00_frontend.py"
    against = ["--against", dump] if task == "RenderComparison" else []
    result = subprocess.run(
        [sys.executable, "-m", "luigi", "--module", "ir_trace.pipeline", task, "--dump", dump, *against]
        + ["--report", snapshot, "--local-scheduler"],
        env=luigi_env(tmp_path),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 3, result.stdout + result.stderr
    assert f"the report {snapshot} is inside the dump directory {dump}" in result.stdout + result.stderr
    assert snapshot.read_text(encoding="utf-8") == FRONTEND


def test_an_io_fault_fails_the_task_while_an_invalid_dump_is_a_result(tmp_path):
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "out"
    generate_dump(root / "good" / "passes_dump", *SMALL, "--seed", "1")
    write_dump(root / "broken" / "passes_dump", [FRONTEND, FRONTEND]).joinpath("00_frontend.py").unlink()
    (out / "good.html").mkdir(parents=True)  # the report cannot be renamed into place
    output = failed_sweep(env, root, out)
    assert f"failed: {out / 'good.html'} is a directory" in output
    assert not (out / "sweep.json").exists() and not list(out.glob(".*.tmp"))
    (out / "good.html").rmdir()
    sweep(env, root, out)
    assert {name: p["status"] for name, p in programs(out).items()} == {"broken": "invalid", "good": "ok"}


def test_any_directory_name_and_symlink_loops(tmp_path):
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "out"
    generate_dump(root / "fine" / "passes_dump", *SMALL, "--seed", "1")
    latin1 = os.fsdecode(b"caf\xe9")  # a Latin-1 name: its bytes are not UTF-8
    write_dump(root / latin1 / "passes_dump", [FRONTEND])
    (root / "self").symlink_to("self")  # a loop ending nowhere
    (root / "fine" / "up").symlink_to("..", target_is_directory=True)  # a loop back to the root
    sweep(env, root, out)
    entries = programs(out)
    assert entries["fine"]["status"] == "ok"
    odd = entries["caf"]
    assert odd["status"] == "invalid" and odd["report"] is None
    assert odd["error"] == f"directory name is not UTF-8: {root}/caf\\xe9/passes_dump (rename it)"
    assert "caf" in (out / "index.html").read_text(encoding="utf-8")


def test_index_shows_a_program_by_its_own_name_when_the_report_name_differs(tmp_path, browser):
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "out"
    for program in ("café", "模型", "plain"):
        write_dump(root / program / "passes_dump", [FRONTEND, FRONTEND + "x = 1\n"])
    sweep(env, root, out)
    assert sorted(programs(out)) == ["caf", "plain", "program"]  # file-safe report names
    page = browser.new_page()
    page.goto((out / "index.html").as_uri())
    table = page.get_by_role("table", name="Programs")
    for label, report in (("café (caf)", "caf.html"), ("模型 (program)", "program.html"), ("plain", "plain.html")):
        assert table.get_by_role("link", name=label, exact=True).get_attribute("href") == report
    page.get_by_role("searchbox", name="Filter programs").fill("模")
    assert row_names(page) == ["program"]
    page.close()


# ---------- claims ----------


def test_a_claim_is_exclusive_released_and_broken_when_stale(tmp_path):
    path = tmp_path / "claims" / "p.claim"
    with Claim(path) as first:
        assert first.token in path.read_text(encoding="utf-8")
        with pytest.raises(IRTraceError, match=r"p is still being written by .* pid \d+"):
            Claim(path, wait=0).__enter__()
    assert not path.exists()
    with Claim(path):
        os.utime(path, (1, 1))  # as if its worker had died long ago
        with Claim(path, wait=5, stale=60) as thief:
            assert thief.waited and thief.token == path.read_text(encoding="utf-8")
    assert not path.exists()


def dead_holder_token() -> str:
    """The claim token of a process of this host that has exited (a `luigi` killed mid-sweep)."""
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return f"{socket.gethostname()} pid {int(finished.stdout)} {'0' * 32}"


def test_a_claim_whose_holder_died_on_this_host_is_broken_at_once(tmp_path):
    path = tmp_path / "claims" / "p.claim"
    path.parent.mkdir()
    path.write_text(dead_holder_token(), encoding="utf-8")
    with Claim(path, wait=0) as claim:  # fresh, but its process is gone: no wait, no failure
        assert path.read_text(encoding="utf-8") == claim.token
    path.write_text(f"{socket.gethostname()} pid {os.getpid()} {'0' * 32}", encoding="utf-8")
    with pytest.raises(IRTraceError, match="still being written"):
        Claim(path, wait=0).__enter__()  # a live holder keeps its claim


def test_a_sweep_killed_while_writing_a_report_resumes_at_once(tmp_path):
    """`kill` (cron's timeout, a reboot) ends `luigi` without releasing its claim; the next run
    must not wait ten minutes for a process that no longer exists, then fail."""
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "out"
    generate_dump(root / "p" / "passes_dump", *SMALL, "--seed", "1")
    claim = out / ".sweep" / "claims" / "p.claim"
    claim.parent.mkdir(parents=True)
    claim.write_text(dead_holder_token(), encoding="utf-8")
    sweep(env, root, out)
    assert programs(out)["p"]["status"] == "ok" and not claim.exists()


# ---------- several workers (as on several hosts), one luigid ----------


def watch_for_partial_reports(out: Path, stop: threading.Event, seen: list[str]) -> None:
    """Read every visible report over and over while the sweep runs: each must be whole."""
    while not stop.is_set():
        for report in out.glob("*.html"):
            try:
                text = report.read_text(encoding="utf-8")
            except (FileNotFoundError, IsADirectoryError):
                continue
            if not text.rstrip().endswith("</html>"):
                seen.append(report.name)
        stop.wait(0.05)


def test_workers_with_their_own_caches_share_one_luigid_and_one_output_dir(tmp_path):
    env = luigi_env(tmp_path, log_level="INFO")
    root, out = tmp_path / "root", tmp_path / "out"
    for seed in range(1, 7):
        generate_dump(root / f"prog{seed}" / "passes_dump", *SMALL, "--seed", str(seed))
    state = tmp_path / "luigid"
    state.mkdir()
    luigid, port = start_luigid(state, env=env, cwd=tmp_path)
    stop, partial = threading.Event(), []
    watcher = threading.Thread(target=watch_for_partial_reports, args=(out, stop, partial))
    watcher.start()
    try:
        workers = start_sweep_workers(env, root, out, port, 3, tmp_path)
        logs = [worker.communicate(timeout=300)[0] for worker in workers]
        reported = done_tasks(port)
    finally:
        stop.set()
        watcher.join()
        stop_luigid(luigid)
    assert [worker.returncode for worker in workers] == [0, 0, 0], logs
    done = [line for log in logs for line in log.splitlines() if re.search(r"\) done\s+Sweep(Dump)?\(", line)]
    per_dump = [re.search(r"name=(prog\d)", line)[1] for line in done if "SweepDump(" in line]
    assert sorted(per_dump) == [f"prog{n}" for n in range(1, 7)], "every report written exactly once"
    assert len(done) - len(per_dump) == 1, "the index written exactly once"
    assert sorted(programs(out)) == [f"prog{n}" for n in range(1, 7)]
    for n in range(1, 7):
        assert (out / f"prog{n}.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert partial == [] and not list(out.glob(".*.tmp"))
    assert not list((out / ".sweep" / "claims").iterdir()), "every claim released"
    progress = {
        task["params"]["name"]: (task["progress_percentage"], task["status_message"])
        for task in reported.values()
        if task["name"] == "SweepDump"
    }
    assert progress == {f"prog{n}": (100, f"prog{n}: done") for n in range(1, 7)}  # what luigid's page shows
    assert [t["status_message"] for t in reported.values() if t["name"] == "Sweep"] == [
        "6 programs: 0 diverged, 0 invalid, 0 new, 0 gone"
    ]


# ---------- the index in Chromium ----------


def row_names(page) -> list[str]:
    return page.locator("#rows tr").evaluate_all("rows => rows.map(r => r.dataset.name)")


def test_index_sorts_filters_and_opens_reports_at_the_divergent_pass(nightly, browser):
    page = browser.new_page()
    errors, requests = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("request", lambda req: None if req.url.startswith(("file:", "data:")) else requests.append(req.url))
    page.goto((nightly.out / "index.html").as_uri())
    assert row_names(page) == ["beta", "broken", "alpha", "deep"]  # regressions first
    table = page.get_by_role("table", name="Programs")
    assert "missing 00_frontend.py" in table.locator("tr[data-name=broken]").inner_text()

    page.get_by_role("button", name="Program").click()
    assert row_names(page) == ["alpha", "beta", "broken", "deep"]
    assert page.locator("th[data-key=name]").get_attribute("aria-sort") == "ascending"
    page.get_by_role("button", name="Program").click()
    assert row_names(page) == ["deep", "broken", "beta", "alpha"]
    page.get_by_role("button", name="+Inserted").click()
    inserted = {name: p["summary"]["inserted"] for name, p in programs(nightly.out).items() if p["summary"]}
    assert row_names(page)[:3] == sorted(inserted, key=lambda name: (inserted[name], name))

    page.get_by_role("searchbox", name="Filter programs").fill("ET")
    assert row_names(page) == ["beta"]
    page.get_by_role("searchbox", name="Filter programs").fill("")
    assert len(row_names(page)) == 4

    divergent = page.locator("tr[data-name=beta] td").nth(COLUMN_ORDER.index("First divergent pass"))
    divergent.get_by_role("link", name="5 ").click()
    page.wait_for_function("location.hash.startsWith('#pass=5')")
    current = page.get_by_role("navigation", name="Passes").locator('button[aria-current="true"]')
    assert current.get_attribute("data-k") == "5"
    assert page.url.startswith((nightly.out / "beta.html").as_uri())
    assert errors == [] and requests == []
    page.close()


def test_the_index_links_each_programs_first_different_pass_into_its_report(nightly, browser):
    page = browser.new_page()
    page.goto((nightly.out / "index.html").as_uri())
    assert page.get_by_role("columnheader", name="First different pass", exact=True).is_visible()
    column = COLUMN_ORDER.index("First different pass")
    name = programs(nightly.out)["beta"]["baseline"]["first_divergent_name"]
    assert page.locator("tr[data-name=alpha] td").nth(column).inner_text() == "—"  # same as the baseline
    cell = page.locator("tr[data-name=beta] td").nth(column)
    assert cell.inner_text() == f"5 {name}"
    cell.get_by_role("link").click()
    page.wait_for_function("location.hash.startsWith('#pass=5')")
    current = page.get_by_role("navigation", name="Passes").locator('button[aria-current="true"]')
    assert current.get_attribute("data-k") == "5"
    page.close()


def test_index_with_a_baseline_fits_1280_and_counts_rows_as_rows(shortened, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((shortened / "index.html").as_uri())
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # no column cut at the right
    for heading in ("Passes", "−Deleted", "Differing passes"):
        cell = page.locator("tr[data-name=alpha] td").nth(COLUMN_ORDER.index(heading))
        header = page.get_by_role("columnheader", name=heading, exact=True)
        assert header.evaluate("(th) => getComputedStyle(th).textAlign") == cell.evaluate(
            "(td) => getComputedStyle(td).textAlign"
        )
    # five rows (three of them gone), while the totals count two programs: never "5 of 5 programs"
    assert page.locator("#count").inner_text() == "5 of 5 rows"
    assert page.locator("#totals").inner_text().startswith("2 programs ·")
    first = page.locator("tr[data-name=alpha] td").nth(COLUMN_ORDER.index("First divergent pass"))
    assert first.inner_text().endswith("(only in the baseline)")
    page.close()


COLUMN_ORDER = [
    "Program",
    "Status",
    "Traces",
    "Passes",
    "Changed",
    "No-op",
    "Warnings",
    "+Inserted",
    "−Deleted",
    "First divergent pass",
    "First different pass",
    "Differing passes",
    "First pass vs baseline",
]


def test_ignore_modes_make_a_rename_only_regression_not_a_divergence(tmp_path):
    env, root = luigi_env(tmp_path), tmp_path / "root"
    dump = write_dump(root / "qwen" / "passes_dump", [FRONTEND, FRONTEND, FRONTEND])
    sweep(env, root, tmp_path / "night1")
    renamed = FRONTEND.replace("t1", "t1__ssa_v3")
    write_dump(dump, [FRONTEND, renamed, renamed.replace("pl.add(t0, t0)", "pl.add(t0, t0)  # hot")])
    baseline = ("--baseline", tmp_path / "night1" / "sweep.json")
    sweep(env, root, tmp_path / "night2", *baseline)
    assert programs(tmp_path / "night2")["qwen"]["baseline"]["differing_passes"] == 2
    sweep(env, root, tmp_path / "night3", *baseline, "--ignore", "ssa,whitespace")
    result = programs(tmp_path / "night3")["qwen"]
    assert (result["status"], result["baseline"]["ignored_passes"]) == ("diverged", 1)
    assert result["baseline"]["first_divergent_pass"] == 2
    assert result["baseline"]["first_diff"] == {"inserted": 1, "deleted": 1}
    options = load_json(tmp_path / "night3" / "sweep.json")["options"]
    assert (options["ignore_modes"], options["ignore_regex"]) == (["ssa", "whitespace"], [])
    report = tmp_path / "night3" / "qwen.html"
    assert payload_of(report)["ignore"] == {"modes": ["ssa", "whitespace"], "regex": None}
    sweep(env, root, tmp_path / "night4", *baseline, "--ignore", "ssa", "--ignore-regex", r'["\\s*#.*", "x"]')
    assert programs(tmp_path / "night4")["qwen"]["status"] == "same"
    assert payload_of(tmp_path / "night4" / "qwen.html")["ignore"]["regex"] == r"(?:\s*#.*)|(?:x)"


def test_split_ignore_options_keeps_old_regexes_working():
    with pytest.warns(FutureWarning, match=r"--ignore 'kb_inline\\\\d\+' is not ignore mode names") as caught:
        modes, regexes = split_ignore_options(["ssa", r"kb_inline\d+", "memref,whitespace"], ["x"])
    assert len(caught) == 1  # mode names are not regexes: no warning for them
    assert (modes.names, regexes) == (["ssa", "memref", "whitespace"], [r"kb_inline\d+", "x"])
    assert report_ignore_spec(modes, []) == "ssa,memref,whitespace"
    with pytest.raises(IRTraceError, match=r"invalid --ignore regex '\(a\+\)\+': a quantifier on a group"):
        compile_ignores(["(a+)+"])


def test_sweeps_refuse_links_out_of_a_dump_and_follow_inner_ones_only_when_configured(tmp_path):
    root, secret = tmp_path / "root", tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2\n")
    leaky = write_dump(root / "leaky" / "passes_dump", [FRONTEND, FRONTEND + "# one\n"])
    (leaky / "02_after_Leak.py").symlink_to(secret)
    linked = write_dump(root / "linked" / "passes_dump", [FRONTEND, FRONTEND + "# one\n"])
    (linked / "02_after_Again.py").symlink_to("01_after_Pass1.py")
    out, env = tmp_path / "out", luigi_env(tmp_path)

    sweep(env, root, out)
    found = programs(out)
    assert (found["leaky"]["status"], found["linked"]["status"]) == ("invalid", "invalid")
    assert f"symlink to a file outside the dump: {leaky / '02_after_Leak.py'}" in found["leaky"]["error"]
    assert "--follow-inner-symlinks" in found["linked"]["error"]

    sweep(env, root, out, "--ir-trace-follow-inner-symlinks")
    found = programs(out)
    assert (found["leaky"]["status"], found["linked"]["status"]) == ("invalid", "ok")
    assert len(found["linked"]["passes"]) == 3  # the frontend and two passes
    stored = b"".join(gzip.decompress(p.read_bytes()) for p in (out / ".sweep" / "text").glob("*.txt.gz"))
    assert b"hunter2" not in stored and b"hunter2" not in (out / "index.html").read_bytes()


def test_a_dump_task_takes_the_report_options_as_one_value():
    """SweepDump's options travel as one canonical JSON text: parsed back equal, one task id, one fingerprint."""
    options = ReportOptions(2, IgnoreModes(frozenset({"whitespace", "ssa"}), r"kb\d+"))
    task = SweepDump(dump="/d", out_dir="/o", name="n", state="s", options=options)
    assert task.to_str_params()["options"] == r'{"context": 2, "ignore": "ssa,whitespace|kb\\d+"}'
    again = SweepDump.from_str_params(task.to_str_params())
    assert (again.options, again.task_id, again.fingerprint()) == (options, task.task_id, task.fingerprint())
    other = SweepDump(dump="/d", out_dir="/o", name="n", state="s", options=ReportOptions(3, options.ignore))
    assert other.task_id != task.task_id and other.fingerprint() != task.fingerprint()


# ---------- many dumps: few tasks for luigid ----------


def test_dumps_beyond_the_task_limit_are_scheduled_in_batches_of_consecutive_whole_dumps():
    tasks = [SweepDump(dump=f"/d/{n}", out_dir="/o", name=f"p{n}", state=f"s{n}") for n in range(10)]
    assert scheduled_dumps(tasks, 10) == tasks  # few dumps: a task each, as before
    batches = scheduled_dumps(tasks, 4)
    assert [type(batch) for batch in batches] == [SweepBatch] * 4
    assert [member for batch in batches for member in batch.members()] == tasks  # each dump once, in order
    assert repr(batches[0]) == "SweepBatch(3 dumps: p0 .. p2)"
    again = SweepBatch.from_str_params(batches[0].to_str_params())
    assert again.task_id == batches[0].task_id and again.members() == batches[0].members()


def test_a_sweep_of_more_dumps_than_sweep_tasks_is_batches_on_luigid_and_reruns_as_nothing(tmp_path):
    env = luigi_env(tmp_path)
    config = Path(env["LUIGI_CONFIG_PATH"])
    config.write_text(config.read_text().replace("[ir_trace]\n", "[ir_trace]\nsweep_tasks = 2\n"))
    root, out = tmp_path / "root", tmp_path / "out"
    for seed in range(1, 6):
        generate_dump(root / f"prog{seed}" / "passes_dump", *SMALL, "--seed", str(seed))
    broken = write_dump(root / "broken" / "passes_dump", [FRONTEND, FRONTEND])
    (broken / "00_frontend.py").unlink()  # invalid: a result in its batch, not a failed task
    state = tmp_path / "luigid"
    state.mkdir()
    luigid, port = start_luigid(state, env=env, cwd=tmp_path)
    try:
        command = luigi_command("--root", root, "--out-dir", out, "--workers", "2")
        command += ["--scheduler-host", "127.0.0.1", "--scheduler-port", str(port)]
        first = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
        reported = done_tasks(port)
        written = mtimes(out)
        second = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True, timeout=300)
    finally:
        stop_luigid(luigid)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert sorted(task["name"] for task in reported.values()) == ["Sweep", "SweepBatch", "SweepBatch"]
    shown = sorted((t["progress_percentage"], t["status_message"]) for t in reported.values() if t["name"] != "Sweep")
    assert shown == [(100, "3 programs: done"), (100, "3 programs: done")]
    found = programs(out)
    assert sorted(found) == ["broken", *(f"prog{n}" for n in range(1, 6))]
    assert [found[f"prog{n}"]["ok"] for n in range(1, 6)] == [True] * 5 and not found["broken"]["ok"]
    for n in range(1, 6):
        assert (out / f"prog{n}.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert mtimes(out) == written  # every batch complete: nothing ran again
    assert not list((out / ".sweep" / "claims").iterdir()), "every claim released"
