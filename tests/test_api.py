"""The Python API (ir_trace.render, ir_trace.summarize): the command's results, its refusals as
IRTraceError, and a result Jupyter shows inline, escaped."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FRONTEND, REPO, demo_passes, run_cli, write_dump

import ir_trace
from ir_trace.options import DEFAULT_CONTEXT, ReportOptions, RunOptions


def test_render_returns_what_it_wrote_and_then_reuses_it(demo_dump: Path, tmp_path: Path, cache_dir: Path):
    out = tmp_path / "r.html"
    first = ir_trace.render(demo_dump, out, cache_dir=cache_dir)
    assert isinstance(first, ir_trace.RenderResult)
    assert first.output == out.absolute() and first.bytes == out.stat().st_size
    assert (first.pairs, first.rediffed, first.reused) == (2, 2, False)  # two distinct changes, one no-op pass
    assert first.summary.counts.passes == 3 and first.summary.counts.changed == 2
    again = ir_trace.render(str(demo_dump), str(out), cache_dir=str(cache_dir))
    assert (again.rediffed, again.reused, again.summary) == (0, True, first.summary)


def test_summarize_is_what_json_prints(demo_dump: Path, tmp_path: Path, cache_dir: Path):
    for options, flags in [({}, []), ({"ignore": "ssa", "context": 0}, ["--ignore", "ssa", "--context", "0"])]:
        printed = run_cli(demo_dump, "-o", tmp_path / "r.html", "--json", "-", "--cache-dir", cache_dir, *flags)
        assert printed.returncode == 0, printed.stderr
        summary = ir_trace.summarize(demo_dump, cache_dir=cache_dir, **options)
        assert isinstance(summary, ir_trace.ReportSummary)
        assert summary.trace == json.loads(printed.stdout)
    assert summary.trace["ignore"] == {"modes": ["ssa"], "regex": None}
    assert not any(tmp_path.glob("*/report.html"))  # summarize's own report went with its directory


def test_a_comparison_renders_too(demo_dump: Path, tmp_path: Path, cache_dir: Path):
    other = write_dump(tmp_path / "b" / "passes_dump", demo_passes()[:3])
    result = ir_trace.render(demo_dump, tmp_path / "ab.html", against=other, cache_dir=cache_dir)
    assert result.summary.comparison is not None and result.summary.comparison.only_a == 1


@pytest.mark.parametrize(
    "options, message",
    [
        ({"ignore": "ssa,bogus"}, "ignore: unknown ignore mode 'bogus'"),
        ({"ignore_regex": "(a+)+"}, "a quantifier on a group"),
        ({"context": -1}, "context must be a non-negative integer, got -1"),
        ({"workers": 0}, "workers must be a positive integer, got 0"),
        ({"cache_dir": "c", "no_cache": True}, "cache_dir and no_cache exclude each other"),
    ],
)
def test_bad_options_are_an_irtraceerror(demo_dump: Path, tmp_path: Path, options: dict, message: str):
    with pytest.raises(ir_trace.IRTraceError, match=message.replace("(", r"\(").replace("+", r"\+")):
        ir_trace.render(demo_dump, tmp_path / "r.html", **options)
    assert not (tmp_path / "r.html").exists()


def test_what_the_command_refuses_is_an_irtraceerror_with_its_line(demo_dump: Path, tmp_path: Path, cache_dir: Path):
    missing = tmp_path / "nope"
    with pytest.raises(ir_trace.IRTraceError, match=f"input directory does not exist: {missing}"):
        ir_trace.render(missing, tmp_path / "r.html", cache_dir=cache_dir)
    with pytest.raises(ir_trace.IRTraceError, match="output directory does not exist"):
        ir_trace.render(demo_dump, tmp_path / "no-such-dir" / "r.html", cache_dir=cache_dir)
    broken = write_dump(tmp_path / "broken" / "passes_dump", ["", "x = 1\n"])
    (broken / "00_frontend.py").unlink()
    with pytest.raises(ir_trace.IRTraceError, match="missing 00_frontend.py"):
        ir_trace.summarize(broken, cache_dir=cache_dir)


def test_the_notebook_view_escapes_paths_and_links_the_report(tmp_path: Path, cache_dir: Path, monkeypatch):
    hostile = tmp_path / 'a<script>alert("x")</script>&b'
    dump = write_dump(hostile / "passes_dump", [FRONTEND, FRONTEND.replace("t1", "t2")])
    monkeypatch.chdir(hostile)
    result = ir_trace.render(dump, hostile / "r'<i>.html", cache_dir=cache_dir)
    shown = result._repr_html_()
    assert "<script>" not in shown and "<i>" not in shown
    assert "a&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;b" in shown
    link = "r&#x27;&lt;i&gt;.html"  # relative to the working directory: Jupyter serves it
    assert f'href="{link}"' in shown and f'src="{link}"' in shown
    assert "1 passes (1 changed, 0 no-op, 0 warnings)" in shown
    elsewhere = ir_trace.RenderResult(tmp_path / "x.html", 1, 0, 0, False, result.summary)
    assert f'href="{(tmp_path / "x.html").as_uri()}"' in elsewhere._repr_html_()  # outside the working directory


def test_the_package_loads_its_api_only_when_asked():
    """`import ir_trace` stays as light as the command's start-up needs (app/launch.py)."""
    script = (
        "import sys, ir_trace; before = 'ir_trace.api' in sys.modules; ir_trace.render; "
        "print(before, 'ir_trace.api' in sys.modules, 'render' in dir(ir_trace))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.stdout.split() == ["False", "True", "True"], result.stderr
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ir_trace.nope  # noqa: B018


def test_report_options_are_one_stable_value():
    options = ReportOptions(0, RunOptions.build("d", ignore="whitespace,ssa", ignore_regex="#.*").report.ignore)
    assert options.to_json() == '{"context": 0, "ignore": "ssa,whitespace|#.*"}'
    assert ReportOptions.from_json(options.to_json()) == options
    with pytest.raises(ValueError):
        ReportOptions.from_json('{"context": -2, "ignore": ""}')


def test_the_context_default_is_declared_once():
    from luigi.parameter import _no_value

    from ir_trace.app.cli import build_parser
    from ir_trace.pipeline import RenderReport, Sweep, SweepDump

    assert build_parser().parse_args(["d"]).context == DEFAULT_CONTEXT == RunOptions("d").report.context
    for task in (RenderReport, Sweep):
        assert task.context._default not in (_no_value, None) and task.context._default == DEFAULT_CONTEXT
    assert SweepDump.options._default.context == DEFAULT_CONTEXT


def test_the_tasks_run_with_rare_garbage_collections_and_the_thresholds_come_back(
    demo_dump: Path, tmp_path: Path, cache_dir: Path
):
    # At the default thresholds full collections rewalked every live snapshot line: 40 % of a big cold run.
    import gc

    import luigi

    seen: list[tuple[int, ...]] = []

    def note_threshold(_task):
        seen.append(gc.get_threshold())

    before = gc.get_threshold()
    luigi.Task.event_handler(luigi.Event.START)(note_threshold)
    try:
        ir_trace.render(str(demo_dump), str(tmp_path / "r.html"), cache_dir=str(cache_dir))
    finally:
        luigi.Task._event_callbacks[luigi.Task][luigi.Event.START].discard(note_threshold)
    assert seen and all(threshold[0] >= 100_000 for threshold in seen)
    assert gc.get_threshold() == before
