"""`--ignore` / `--ignore-regex`: the report's initial modes, the --json counts under them, usage errors."""

from __future__ import annotations

import json

import pytest
from conftest import SAMPLES, run_cli
from test_cli import payload_of

LLAMA = SAMPLES / "real" / "llama_mini_explicit" / "passes_dump"


def _trace(result) -> dict:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_rename_only_pass_is_unchanged_when_ignoring_ssa(demo_dump, tmp_path):
    out = tmp_path / "r.html"
    trace = _trace(run_cli(demo_dump, "-o", out, "--cache-dir", tmp_path / "c", "--ignore", "ssa", "--json", "-", "-q"))
    assert trace["ignore"] == {"modes": ["ssa"], "regex": None}
    ssa, noop, grown = trace["passes"]
    assert (ssa["changed"], ssa["inserted"], ssa["deleted"]) == (True, 2, 2)  # the exact counts stay
    assert ssa["ignoring"] == {
        "changed": False,
        "inserted": 0,
        "deleted": 0,
        "functions": {},
        "outside_functions": {"inserted": 0, "deleted": 0},
    }
    assert noop["ignoring"]["changed"] is False
    assert grown["ignoring"]["inserted"] == 1 and grown["ignoring"]["functions"] == {
        "Demo.kernel": {"inserted": 1, "deleted": 0}
    }
    assert payload_of(out)["ignore"] == {"modes": ["ssa"], "regex": None}


def test_without_ignore_the_summary_has_no_ignoring_counts(demo_dump, tmp_path):
    out = tmp_path / "r.html"
    trace = _trace(run_cli(demo_dump, "-o", out, "--cache-dir", tmp_path / "c", "--json", "-", "-q"))
    assert trace["ignore"] is None
    assert all("ignoring" not in p for p in trace["passes"])
    assert payload_of(out)["ignore"] is None


def test_the_summary_line_says_what_changes_when_ignoring(demo_dump, tmp_path):
    result = run_cli(demo_dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "c", "--ignore", "ssa")
    assert result.returncode == 0, result.stderr
    assert "1 changed when ignoring SSA versions" in result.stderr


def test_a_custom_regex_is_a_mode_of_its_own(demo_dump, tmp_path):
    args = (demo_dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "c", "--json", "-", "-q")
    trace = _trace(run_cli(*args, "--ignore-regex", r"__ssa_v\d+"))
    assert trace["ignore"] == {"modes": [], "regex": r"__ssa_v\d+"}
    assert trace["passes"][0]["ignoring"]["changed"] is False


def test_changing_the_modes_rewrites_the_report(demo_dump, tmp_path):
    out, cache = tmp_path / "r.html", tmp_path / "c"
    first = run_cli(demo_dump, "-o", out, "--cache-dir", cache, "--ignore", "ssa")
    second = run_cli(demo_dump, "-o", out, "--cache-dir", cache, "--ignore", "ssa,whitespace")
    assert first.returncode == second.returncode == 0
    assert "report unchanged" not in second.stderr
    assert payload_of(out)["ignore"]["modes"] == ["ssa", "whitespace"]
    third = run_cli(demo_dump, "-o", out, "--cache-dir", cache, "--ignore", "whitespace,ssa")
    assert "report unchanged" in third.stderr  # the same modes in another order


@pytest.mark.parametrize(
    "args, message",
    [
        (("--ignore", "ssa,tabs"), "argument --ignore: unknown ignore mode 'tabs'"),
        (("--ignore-regex", "(a+)+"), "argument --ignore-regex: a quantifier on a group that holds a quantifier"),
        (("--ignore-regex", "(?<=x)y"), "argument --ignore-regex: lookaround"),
        (("--ignore-regex", ""), "argument --ignore-regex: the regex is empty"),
    ],
)
def test_bad_modes_are_usage_errors(demo_dump, tmp_path, args, message):
    out = tmp_path / "r.html"
    args = [arg.format(dump=demo_dump) for arg in args]
    result = run_cli(demo_dump, "-o", out, "--cache-dir", tmp_path / "c", *args)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].startswith(f"pypto-ir-trace: error: {message}")
    assert not out.exists()


@pytest.mark.samples
def test_issue_table_comes_out_of_the_json_summary(tmp_path):
    """llama_mini_explicit passes 04, 32, 34, 35: exact, ignoring SSA, ignoring memory annotations
    (see test_normalize.test_issue_table_on_llama_mini_explicit for why 324/405/105, not 344/445/275)."""
    table = {}
    for modes in ("ssa", "memref"):
        args = (LLAMA, "-o", tmp_path / f"{modes}.html", "--cache-dir", tmp_path / "c", "--json", "-", "-q")
        trace = _trace(run_cli(*args, "--ignore", modes))
        for p in trace["passes"]:
            if p["index"] in (4, 32, 34, 35):
                exact = p["inserted"] + p["deleted"]
                table.setdefault(p["index"], [exact]).append(p["ignoring"]["inserted"] + p["ignoring"]["deleted"])
    assert table == {4: [324, 0, 324], 32: [405, 405, 105], 34: [108, 108, 32], 35: [78, 78, 0]}


def test_a_rebuild_counts_the_unchanged_pairs_under_the_modes_from_the_cache(demo_dump, tmp_path):
    """The --json counts by function under --ignore come from each pair's keyed diff, kept in the cache by the
    pair's contents: after one pass changed, the other pairs' are read back (a planted entry shows it), not
    diffed again."""
    import hashlib

    from ir_trace.cache.fingerprints import ignoring_key
    from ir_trace.cache.store import ResultCache
    from ir_trace.noise.normalize import IgnoreModes

    cache_dir, out = tmp_path / "c", tmp_path / "r.html"
    args = ("-o", out, "--cache-dir", cache_dir, "--ignore", "ssa", "--json", "-", "-q")
    first = _trace(run_cli(demo_dump, *args))
    frontend = hashlib.sha256((demo_dump / "00_frontend.py").read_bytes()).hexdigest()
    key = ignoring_key(frontend, first["passes"][0]["sha256"], "pypto", IgnoreModes.from_spec("ssa").spec())
    cache = ResultCache(cache_dir)
    assert cache.get(key) == []  # ConvertToSSA only renamed: nothing changed under the mode
    cache.put(key, [[0, 0, 0, 5]])  # planted: five lines inserted
    last = sorted(demo_dump.glob("03_*.py"))[0]
    last.write_text(last.read_text() + "# rebuilt\n")
    again = _trace(run_cli(demo_dump, *args))
    assert again["passes"][0]["ignoring"]["inserted"] == 5  # read back, not diffed again
    assert again["passes"][2]["ignoring"]["inserted"] == first["passes"][2]["ignoring"]["inserted"] + 1
