"""The five places where this tool deliberately differs from PyPTO's own (README: "Where we differ from
PyPTO's own tool", issue 28): each behaviour held here, through the real code (the fold through the
viewer's model in real Chromium, the dump rules through the real command line)."""

from __future__ import annotations

from conftest import FRONTEND, run_cli, write_dump
from test_viewer_model import MODEL_JS, TRACES_JS, evaluate, page_of_scripts

from ir_trace.diffcore.linediff import align_replace_block
from ir_trace.inputs.discovery import discover_snapshots
from ir_trace.report.render import read_payload


def test_lines_sharing_less_than_half_their_words_are_never_paired():
    before = ["    y = pl.add(a, b)"]
    assert align_replace_block(before, ["    y = pl.add(a, c)"]) == [(0, 0)]  # 5 of 6 words shared
    assert align_replace_block(before, ["    z = pl.mul(c, d)"]) == []  # 1 of 6 (`pl`): a delete and an insert


def test_a_single_unchanged_line_between_changes_is_shown_not_folded(page):
    page_of_scripts(page, TRACES_JS, MODEL_JS, title="fold")
    script = """
      const rows = [], change = (a) => ({ kind: M.DEL, a, b: -1 });
      const same = (a) => ({ kind: M.EQ, a, b: a });
      // two changes with context 1 around each leave one line, then two lines, between them
      rows.push(change(0), same(1), same(2), same(3), change(4), same(5), same(6), same(7), same(8), change(9));
      return M.foldRows(rows, 1, new Set(), false).map((r) => (r.kind === M.FOLD ? `fold ${r.end - r.start}` : r.a));
    """
    assert evaluate(page, script) == [0, 1, 2, 3, 4, 5, "fold 2", 8, 9]


def test_a_stray_py_file_without_an_index_is_refused(tmp_path):
    dump = write_dump(tmp_path / "p" / "passes_dump", [FRONTEND, FRONTEND])
    (dump / "helpers.py").write_text("x = 1\n", encoding="utf-8")
    result = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache")
    assert result.returncode == 1 and "malformed snapshot name" in result.stderr and "helpers.py" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "r.html").exists()


def test_a_log_that_is_not_utf8_is_read_with_replacement_characters(tmp_path):
    dump = write_dump(tmp_path / "p" / "passes_dump", [FRONTEND, FRONTEND])
    (dump / "01_after_Pass1.log").write_bytes(b"warning: caf\xe9 \xff\n")
    logs = [snapshot.log for snapshot in discover_snapshots(dump).snapshots]
    assert logs == [None, "warning: caf\ufffd \ufffd\n"]


def test_a_dump_of_only_the_frontend_is_a_report_of_no_pass(tmp_path):
    dump = write_dump(tmp_path / "p" / "passes_dump", [FRONTEND])
    result = run_cli(dump, "-o", tmp_path / "r.html", "--cache-dir", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert len(read_payload((tmp_path / "r.html").read_text("utf-8"))["passes"]) == 1
