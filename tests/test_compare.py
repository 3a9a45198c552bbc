"""Run against run: pass matching, the comparison payload and `--against` on the command line."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import EXAMPLE_DUMP, SAMPLES, run_cli
from test_cli import expect_error, payload_of

from ir_trace.report.against import Comparison, PassMatch, match_passes, run_names
from ir_trace.report.page_model import Report
from ir_trace.report.pass_diff import PassDiff
from ir_trace.report.render import read_payload


def test_matching_by_position_and_name():
    a = ["frontend", "SSA", "Flatten", "Outline", "Sync"]
    b = ["frontend", "SSA", "Outline", "Canon", "Sync2"]
    assert match_passes(a, b) == [
        PassMatch(0, 0, "matched"),
        PassMatch(1, 1, "matched"),
        PassMatch(2, None, "only-a"),
        PassMatch(3, 2, "matched"),
        PassMatch(4, 3, "renamed"),
        PassMatch(None, 4, "only-b"),
    ]


def test_runs_of_one_title_are_named_by_the_ends_of_their_paths():
    def run(dump: str, title: str) -> Report:
        return Report("g", title, dump, 0, "UNKNOWN", ())

    # two MLIR trees both named `tree`, two programs `llama` of two nightly runs, two different titles
    trees = run("/s/d2_tile16/tree", "tree"), run("/s/d2_tile32/tree", "tree")
    assert run_names(*trees) == ("d2_tile16/tree", "d2_tile32/tree")
    programs = run("/n/1201/x/llama/passes_dump", "llama"), run("/n/1202/x/llama/passes_dump", "llama")
    assert run_names(*programs) == ("1201/x/llama", "1202/x/llama")
    assert run_names(run("/a/nightly", "nightly"), run("/a/patched", "patched")) == ("nightly", "patched")
    assert run_names(run("/a/tree", "tree"), run("/a/tree", "tree")) == ("tree", "tree")  # one dump twice
    assert run_names(run("tree", "tree"), run("b/tree", "tree")) == ("tree", "b/tree")


def test_identical_pipelines_match_one_to_one():
    names = ["frontend", "A", "B", "A"]
    assert all(m.status == "matched" and m.a == m.b for m in match_passes(names, list(names)))


def make_run_b(tmp_path):
    run_b = tmp_path / "b" / "passes_dump"
    shutil.copytree(EXAMPLE_DUMP, run_b)
    sync = run_b / "06_after_InsertSync.py"
    sync.write_text(sync.read_text().replace("event=0", "event=2"))
    (run_b / "05_after_Simplify.py").rename(run_b / "05_after_Canonicalize.py")
    return run_b


def test_against_reports_where_runs_differ(tmp_path, cache_dir):
    run_b = make_run_b(tmp_path)
    out, summary = tmp_path / "cmp.html", tmp_path / "cmp.json"
    result = run_cli(EXAMPLE_DUMP, "--against", run_b, "-o", out, "--cache-dir", cache_dir, "--json", summary)
    assert result.returncode == 0, result.stderr
    assert (
        "6 passes compared (1 differ, 1 renamed, 0 only in A, 0 only in B; first at pass 06 InsertSync)"
        in result.stderr
    )
    rows = json.loads(summary.read_text())["passes"]
    assert [(r["status"], r["differs"]) for r in rows] == [("matched", False)] * 5 + [
        ("renamed", False),
        ("matched", True),
    ]
    assert rows[6]["inserted"] == rows[6]["deleted"] == 2
    payload = payload_of(out)
    assert payload["mode"] == "against" and len(payload["runs"]) == 2
    hunks = PassDiff.from_json(payload["matches"][6]).hunks
    assert hunks and all("event=2" in line for hunk in hunks for line in hunk.after_lines)


def test_against_errors_name_the_bad_input(tmp_path, cache_dir):
    expect_error(
        run_cli(EXAMPLE_DUMP, "--against", tmp_path / "nope", "-o", tmp_path / "r.html", "--cache-dir", cache_dir),
        "input directory does not exist",
        str(tmp_path / "nope"),
    )
    expect_error(
        run_cli(tmp_path / "gone", "--against", EXAMPLE_DUMP, "-o", tmp_path / "r.html", "--cache-dir", cache_dir),
        "input directory does not exist",
        str(tmp_path / "gone"),
    )


def test_a_frontend_difference_alone_is_no_differing_pass(tmp_path, cache_dir):
    """README: the frontend is not a pass, so it is never the "first" differing one either."""
    run_b = tmp_path / "b" / "passes_dump"
    shutil.copytree(EXAMPLE_DUMP, run_b)
    frontend = run_b / "00_frontend.py"
    frontend.write_text(frontend.read_text() + "# a comment only the frontend has\n")
    summary = tmp_path / "cmp.json"
    result = run_cli(
        EXAMPLE_DUMP, "--against", run_b, "-o", tmp_path / "cmp.html", "--cache-dir", cache_dir, "--json", summary
    )
    assert result.returncode == 0, result.stderr
    assert "(0 differ, 0 renamed, 0 only in A, 0 only in B; identical pass outputs, the frontends differ)" in (
        result.stderr
    )
    assert "first at pass" not in result.stderr
    assert json.loads(summary.read_text())["passes"][0]["differs"] is True  # the row is still there


@pytest.mark.samples
@pytest.mark.parametrize("ignore", [(), ("--ignore", "ssa,memref")], ids=["exact", "ignoring"])
def test_a_comparison_payload_round_trips_through_its_typed_model(tmp_path, cache_dir, ignore):
    levels = ("explicit", "concise")
    explicit, concise = (SAMPLES / "real" / f"qwen3_decode_{level}" / "passes_dump" for level in levels)
    out = tmp_path / "r.html"
    result = run_cli(explicit, "--against", concise, "-o", out, "--cache-dir", cache_dir, *ignore)
    assert result.returncode == 0, result.stderr
    payload = read_payload(out.read_text(encoding="utf-8"), as_written=True)
    comparison = Comparison.from_json(payload)
    assert comparison.to_json() == payload
    assert json.dumps(comparison.to_json()) == json.dumps(payload)  # keys in the page's order too
    assert any(row.behaviour == "different" for row in comparison.matches)
    assert all(row.diff is not None for row in comparison.matches if row.a is not None and row.b is not None)
    assert (comparison.ignore is not None) == bool(ignore)
    assert bool(ignore) == any(row.differs_ignoring is not None for row in comparison.matches)
