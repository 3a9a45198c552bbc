"""Sweeps over every input kind (issue 17): PyPTO program output directories (every trace in one
report), bare MLIR tree directories and stream files found under the root, compared with a
baseline trace by trace; real Luigi (local scheduler, and real luigid), real mlir-opt. Also
`--against` on two MLIR trees and `--json` on the input kinds other tests leave out."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from browser_support import expect
from conftest import FRONTEND, MLIR_SAMPLES, REPO, mlir_sample, run_cli, write_dump
from harness import start_luigid, stop_luigid
from multi_trace_support import MODULE, write_program
from test_sweep import (
    done_tasks,
    failed_sweep,
    load_json,
    luigi_command,
    luigi_env,
    programs,
    start_sweep_workers,
    sweep,
)
from test_traces import SCOPE, run_mlir_opt, stream_of

from ir_trace.errors import IRTraceError
from ir_trace.sweep.results import find_dumps, load_baseline

HEADER = "// -----// IR Dump After Canonicalizer (canonicalize) ('builtin.module' operation) //----- //"
UNIT_A = Path("ptoas_passes") / "kernel_a" / MODULE


def write_tree_dir(folder: Path) -> Path:
    """A two-dump MLIR tree (module scope) in the layout --mlir-print-ir-tree-dir writes."""
    module = folder / MODULE
    module.mkdir(parents=True)
    (module / "0_canonicalize.mlir").write_text(f"{HEADER}\nmodule {{\n}}\n\n", "utf-8")
    (module / "1_cse.mlir").write_text(
        f"{HEADER.replace('Canonicalizer (canonicalize)', 'CSE (cse)')}\nmodule {{\n}}\n", "utf-8"
    )
    return folder


# ---------- finding programs, without Luigi ----------


def test_every_input_kind_is_found_once_and_nothing_inside_a_program_is_a_program(tmp_path):
    write_program(tmp_path / "out")  # out/prog: passes_dump/ + ptoas_passes/ -> one program, not three
    write_dump(tmp_path / "plain" / "passes_dump", [FRONTEND])
    write_tree_dir(tmp_path / "mlir" / "dumps")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "opt.log").write_text(f"note: some warning first\n{HEADER}\nmodule {{\n}}\n", "utf-8")
    (logs / "notes.txt").write_text("// -- not a dump header\n", "utf-8")  # a .txt without a header
    (logs / "final.mlir").write_text("module {\n}\n", "utf-8")  # compiler output, no dump
    (logs / "blob.bin").write_bytes(HEADER.encode() + b"\n")  # not a stream's name: never opened
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.log").write_text(f"{HEADER}\n", "utf-8")
    found = {f.relative: (f.name, f.input) for f in find_dumps(tmp_path)}
    assert found == {
        "out/prog": ("prog", "program"),
        "plain": ("plain", "passes_dump"),
        "mlir/dumps": ("dumps", "mlir_tree"),
        "logs/opt.log": ("opt", "mlir_stream"),
    }


def test_a_root_that_is_a_tree_or_a_program_is_one_program(tmp_path):
    tree = write_tree_dir(tmp_path / "tree")
    assert [(f.relative, f.input) for f in find_dumps(tree)] == [(".", "mlir_tree")]
    program = write_program(tmp_path / "p")
    assert [(f.relative, f.input) for f in find_dumps(program)] == [(".", "program")]
    assert [(f.relative, f.input) for f in find_dumps(program / "passes_dump")] == [(".", "passes_dump")]


def test_a_tree_and_a_stream_of_one_run_get_names_told_apart(tmp_path):
    write_tree_dir(tmp_path / "run1" / "tree")
    (tmp_path / "run1" / "stream.txt").write_text(f"{HEADER}\nmodule {{\n}}\n", "utf-8")
    write_tree_dir(tmp_path / "run2" / "tree")
    names = {f.relative: f.name for f in find_dumps(tmp_path)}
    assert names == {"run1/stream.txt": "stream", "run1/tree": "run1__tree", "run2/tree": "run2__tree"}


@pytest.mark.parametrize(
    "traces, rows, reason",
    [
        ("not a list", [], "traces field that is no list"),
        ([{"stage": "pypto"}], [], "trace without stage or unit"),
        ([{"stage": "pypto", "unit": ""}], [{"trace": 1}], "pass of a trace it does not list"),
    ],
)
def test_a_baseline_with_damaged_traces_is_refused_in_one_line(tmp_path, traces, rows, reason):
    row = {"index": 0, "name": "frontend", "sha256": "0" * 64}
    program = {"name": "p", "ok": True, "traces": traces, "passes": [{**row, **extra} for extra in rows or [{}]]}
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps({"schema": 1, "programs": [program]}), "utf-8")
    with pytest.raises(IRTraceError, match=reason):
        load_baseline(path)


# ---------- a sweep over every kind, through Luigi ----------


@pytest.fixture(scope="module")
def mixed(tmp_path_factory, mlir_opt):
    """A root with a program output dir, a passes_dump/, a real mlir-opt tree and stream; swept,
    copied aside, then swept again as a baseline after one ptoas unit's pass changed."""
    tmp = tmp_path_factory.mktemp("mixed")
    env = luigi_env(tmp)
    root, out, prev = tmp / "root", tmp / "out", tmp / "out.prev"
    program = write_program(root / "build")
    write_dump(root / "plain" / "passes_dump", [FRONTEND, ("Simplify", FRONTEND + "# simplified\n")])
    opt = root / "opt"
    opt.mkdir()
    run_mlir_opt(mlir_opt, opt, *SCOPE, f"--mlir-print-ir-tree-dir={opt / 'tree'}")
    stream_of(mlir_opt, opt, *SCOPE)
    assert (opt / "program.mlir").is_file()  # mlir-opt's input stays: a .mlir without headers is no stream
    sweep(env, root, out)
    shutil.copytree(out, prev, symlinks=True)
    cse = program / UNIT_A / "1_cse.mlir"
    cse.write_text(cse.read_text("utf-8").replace("%c7 = arith.constant 7", "%c8 = arith.constant 8"), "utf-8")
    sweep(env, root, out, "--baseline", prev / "sweep.json")
    return SimpleNamespace(tmp=tmp, env=env, root=root, out=out, prev=prev, program=program, opt=opt)


def test_a_sweep_reports_every_input_kind_as_the_cli_does(mixed):
    entries = programs(mixed.prev)
    assert {name: (p["input"], p["status"], p["summary"]["traces"]) for name, p in entries.items()} == {
        "prog": ("program", "ok", 3),
        "plain": ("passes_dump", "ok", 1),
        "tree": ("mlir_tree", "ok", 1),
        "stream": ("mlir_stream", "ok", 1),
    }
    assert entries["prog"]["dump"] == str(mixed.program)
    for name, given in (("prog", mixed.program), ("tree", mixed.opt / "tree"), ("stream", mixed.opt / "stream.txt")):
        cli = mixed.tmp / f"cli-{name}.html"
        assert run_cli(given, "-o", cli, "--cache-dir", mixed.tmp / "cli-cache").returncode == 0
        assert cli.read_bytes() == (mixed.out / f"{name}.html").read_bytes(), name  # the latest sweep


def test_sweep_json_lists_each_trace_and_its_passes(mixed):
    prog = programs(mixed.prev)["prog"]
    assert [(t["stage"], t["unit"], t["passes"]) for t in prog["traces"]] == [
        ("pypto", "", 2),
        ("ptoas", "kernel_a", 2),
        ("ptoas", "kernel_b", 2),
    ]
    assert [row["trace"] for row in prog["passes"]] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [row["index"] for row in prog["passes"] if row["trace"] == 1] == [0, 1, 2]
    tree, stream = programs(mixed.prev)["tree"], programs(mixed.prev)["stream"]
    assert [p["sha256"] for p in tree["passes"]] == [p["sha256"] for p in stream["passes"]]  # one run, two forms
    assert tree["summary"]["passes"] == len(tree["passes"]) - 1 >= 8


def test_a_baseline_names_the_trace_and_pass_that_diverged(mixed):
    entries = programs(mixed.out)
    assert {name: p["status"] for name, p in entries.items()} == {
        "prog": "diverged",
        "plain": "same",
        "tree": "same",
        "stream": "same",
    }
    compared = entries["prog"]["baseline"]
    assert compared["first_divergent_trace"] == "ptoas:kernel_a"
    assert (compared["first_divergent_pass"], compared["first_divergent_name"]) == (1, "CSE (cse)")
    assert (compared["differing_passes"], compared["differing_traces"]) == (1, 1)
    assert compared["first_diff"] == {"inserted": 1, "deleted": 1}
    assert compared["link"] == "prog.html#trace=ptoas:kernel_a&pass=1"
    assert entries["tree"]["baseline"]["first_divergent_trace"] is None  # one trace: no trace to name


def test_a_unit_gone_and_a_unit_new_are_divergences_of_their_program(mixed, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(mixed.program, root / "prog", symlinks=True)
    units = root / "prog" / "ptoas_passes"
    (units / "kernel_b").rename(units / "kernel_c")
    out = tmp_path / "out"
    sweep(mixed.env, root, out, "--baseline", mixed.out / "sweep.json")
    compared = programs(out)["prog"]["baseline"]
    assert compared["differing_traces"] == 2  # kernel_c only now, kernel_b only in the baseline
    assert compared["first_divergent_trace"] == "ptoas:kernel_c" and compared["first_divergent_pass"] == 0
    assert compared["link"] == "prog.html#trace=ptoas:kernel_c"  # the trace alone: its first changed pass
    assert load_json(out / "sweep.json")["totals"] == {
        "programs": 1,
        "ok": 0,
        "same": 0,
        "diverged": 1,
        "new": 0,
        "invalid": 0,
        "gone": 3,
    }


def test_an_older_baseline_without_traces_still_compares(mixed, tmp_path):
    document = load_json(mixed.prev / "sweep.json")
    for program in document["programs"]:  # as a sweep before traces wrote it: PyPTO dumps only
        program.pop("traces", None)
        for row in program["passes"] or []:
            row.pop("trace", None)
    document["programs"] = [p for p in document["programs"] if p["name"] == "plain"]
    old = tmp_path / "old" / "sweep.json"
    old.parent.mkdir()
    old.write_text(json.dumps(document), "utf-8")
    out = tmp_path / "out"
    sweep(mixed.env, mixed.root / "plain", out, "--baseline", old)
    assert programs(out)["plain"]["status"] == "same"


def test_workers_on_one_luigid_share_programs_of_every_kind(mixed, tmp_path):
    env = luigi_env(tmp_path, log_level="INFO")
    state = tmp_path / "luigid"
    state.mkdir()
    out = tmp_path / "out"
    luigid, port = start_luigid(state, env=env, cwd=tmp_path)
    try:
        workers = start_sweep_workers(env, mixed.root, out, port, 2, tmp_path)
        logs = [worker.communicate(timeout=300)[0] for worker in workers]
        reported = done_tasks(port)
    finally:
        stop_luigid(luigid)
    assert [worker.returncode for worker in workers] == [0, 0], logs
    done = [line for log in logs for line in log.splitlines() if re.search(r"\) done\s+SweepDump\(", line)]
    assert sorted(re.search(r", name=(\w+)", line)[1] for line in done) == ["plain", "prog", "stream", "tree"]
    messages = {t["params"]["name"]: t["status_message"] for t in reported.values() if t["name"] == "SweepDump"}
    assert messages == {name: f"{name}: done" for name in ("plain", "prog", "stream", "tree")}
    for name in ("prog", "tree", "stream"):
        assert (out / f"{name}.html").read_bytes() == (mixed.out / f"{name}.html").read_bytes()


@pytest.mark.parametrize(
    ("inside", "kind"),
    [
        ("out/prog/reports", "program directory"),  # beside passes_dump/ and ptoas_passes/
        ("out/prog/ptoas_passes/kernel_a/reports", "program directory"),
        ("plain/reports", "program directory"),  # the directory of a passes_dump/ found alone
        ("mlir/dumps/reports", "MLIR tree"),
        ("mlir/dumps/builtin_module_no-symbol-name/reports", "MLIR tree"),
    ],
)
def test_an_out_dir_inside_a_program_or_an_mlir_tree_it_sweeps_is_refused(tmp_path, inside, kind):
    """Like one inside a passes_dump/: the input stays as the compiler left it, and a report written
    into a tree or a program directory would be read with it next time."""
    root = tmp_path / "root"
    write_program(root / "out")
    write_dump(root / "plain" / "passes_dump", [FRONTEND])
    write_tree_dir(root / "mlir" / "dumps")
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    out = root / inside
    output = failed_sweep(luigi_env(tmp_path), root, out)
    container = next(p for p in (out, *out.parents) if p.relative_to(root).as_posix() in _CONTAINERS[kind])
    assert f"failed: --out-dir {out} is inside the {kind} {container}; write it elsewhere\n" in output
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before  # nothing created, no report


_CONTAINERS = {"program directory": ("out/prog", "plain"), "MLIR tree": ("mlir/dumps",)}


def test_an_out_dir_beside_the_programs_under_the_root_is_accepted(tmp_path):
    root = tmp_path / "root"
    write_program(root / "out")
    write_tree_dir(root / "mlir" / "dumps")
    sweep(luigi_env(tmp_path), root, root / "reports")
    assert sorted(p.name for p in (root / "reports").glob("*.html")) == ["dumps.html", "index.html", "prog.html"]


# ---------- --against on MLIR trees, --json on the remaining kinds ----------


@pytest.mark.samples
def test_against_on_the_two_tile_size_trees(tmp_path):
    a = mlir_sample(MLIR_SAMPLES / "d2_ireeopt_affine_tile16") / "tree"
    b = mlir_sample(MLIR_SAMPLES / "d2_ireeopt_affine_tile32") / "tree"
    report, summary = tmp_path / "cmp.html", tmp_path / "cmp.json"
    result = run_cli(a, "--against", b, "-o", report, "--json", summary, "--cache-dir", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    document = json.loads(summary.read_text("utf-8"))
    assert (document["mode"], document["a"], document["b"]) == ("against", str(a), str(b))
    first = document["passes"][0]
    # the tiling pass is the first snapshot of both: tile-size=16 against 32, all else alike
    assert first["a"]["name"] == first["b"]["name"] == "AffineLoopTiling (affine-loop-tile)"
    assert first["status"] == "matched" and first["differs"] and first["inserted"] == first["deleted"] > 0
    assert all(p["status"] == "matched" for p in document["passes"])
    assert "8 passes compared" in result.stderr and report.read_text("utf-8").rstrip().endswith("</html>")


def test_json_on_ptoas_passes_and_on_one_unit(tmp_path):
    program = write_program(tmp_path)
    for given, units in (
        (program / "ptoas_passes", ["kernel_a", "kernel_b"]),
        (program / "ptoas_passes" / "kernel_a", None),
    ):
        summary = tmp_path / "s.json"
        result = run_cli(given, "-o", tmp_path / "r.html", "--json", summary, "--cache-dir", tmp_path / "cache")
        assert result.returncode == 0, result.stderr
        document = json.loads(summary.read_text("utf-8"))
        if units is None:  # one unit: one trace, its passes at the top
            assert document["kind"] == "mlir" and [p["name"] for p in document["passes"]] == [
                "CSE (cse)",
                "SymbolDCE (symbol-dce)",
            ]
        else:
            assert [(t["stage"], t["unit"]) for t in document["traces"]] == [("ptoas", unit) for unit in units]
            assert all(p["file"].startswith(f"{t['unit']}/") for t in document["traces"] for p in t["passes"])


def test_the_index_opens_a_report_of_several_traces_at_the_trace_and_pass_that_diverged(mixed, browser):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto((mixed.out / "index.html").as_uri())
    row = page.locator("tr[data-name=prog]")
    assert row.locator("td").nth(2).inner_text() == "3"  # the Traces column
    # the First divergent and the First different pass columns: one pass of one trace, one place in the report
    links = row.get_by_role("link", name="ptoas:kernel_a · 1 CSE (cse)")
    assert (
        links.evaluate_all("links => links.map(a => a.getAttribute('href'))")
        == ["prog.html#trace=ptoas:kernel_a&pass=1"] * 2
    )
    links.nth(1).click()
    expect(page.locator("#trace-select")).to_have_value("1")  # the second trace: kernel_a
    assert page.url.startswith((mixed.out / "prog.html").as_uri())
    assert "cse" in page.locator("#pass-title").inner_text()
    assert "does not have" not in page.locator("body").inner_text()
    assert errors == []
    page.close()


def test_tree_files_below_a_root_inside_their_tree_are_no_streams(tmp_path):
    module = write_tree_dir(tmp_path / "tree") / MODULE  # the root is inside the tree: its files name no tree here
    assert find_dumps(module) == []


def test_task_processes_forked_by_several_workers_finish_however_long_a_program_takes(tmp_path):
    # Luigi forks each task process while holding its fork lock; the inner build's keep-alive thread
    # takes that lock at its first ping. A ping every 10 ms makes every program outlast one.
    env = luigi_env(tmp_path)
    config = Path(env["LUIGI_CONFIG_PATH"])
    config.write_text(config.read_text("utf-8") + "\n[worker]\nping_interval = 0.01\n", "utf-8")
    root = tmp_path / "root"
    write_program(root / "a")
    write_program(root / "b")
    command = luigi_command("--root", root, "--out-dir", tmp_path / "out", "--workers", "2", "--local-scheduler")
    result = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert {name: p["status"] for name, p in programs(tmp_path / "out").items()} == {"a__prog": "ok", "b__prog": "ok"}


def test_a_stream_whose_name_is_not_utf8_is_listed_as_invalid(tmp_path):
    env, root, out = luigi_env(tmp_path), tmp_path / "root", tmp_path / "out"
    root.mkdir()
    odd = os.fsdecode(bytes(root) + b"/caf\xe9.log")
    Path(odd).write_text(f"{HEADER}\nmodule {{\n}}\n", "utf-8")
    write_tree_dir(root / "fine")
    sweep(env, root, out)
    entries = programs(out)
    assert entries["fine"]["status"] == "ok"
    assert entries["caf"]["error"] == f"file name is not UTF-8: {root}/caf\\xe9.log (rename it)"
