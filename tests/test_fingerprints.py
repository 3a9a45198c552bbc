"""Versions, digests, states and fingerprints (ir_trace/cache/fingerprints.py): what decides that a cached
result or a report is current."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

from conftest import write_dump

from ir_trace.cache import fingerprints
from ir_trace.cache.fingerprints import (
    DIFF_VERSION,
    NORMALIZE_VERSION,
    SLICER_VERSION,
    digest,
    dump_state,
    module_sources,
    report_fingerprint,
    source_version,
    versions,
)


def test_the_diff_version_covers_every_module_the_diff_imports():
    def sources(root: str) -> list[str]:
        return [path.relative_to(fingerprints.PACKAGE).as_posix() for path in module_sources(root)]

    syntax = [
        "syntax/__init__.py",
        "syntax/chunks.py",
        "syntax/functions.py",
        "syntax/mlir_opline.py",
        "syntax/mlir_outline.py",
        "syntax/pypto_outline.py",
    ]
    diffcore = [
        "diffcore/intraline.py",
        "diffcore/linediff.py",
        "diffcore/long_lines.py",
        "diffcore/matching.py",
        "diffcore/structure.py",
    ]
    assert sources("diffcore.linediff") == [*diffcore, "noise/mlir_normalize.py", *syntax]  # other packages too
    assert sources("noise.normalize") == ["noise/mlir_normalize.py", "noise/normalize.py", "syntax/mlir_opline.py"]
    # the slicer's version covers the op-line reader the Function list reads symbol ops with
    assert sources("syntax.functions") == syntax


def test_algorithm_versions_are_hashes_of_their_sources():
    assert DIFF_VERSION == source_version("diff", "diffcore.linediff") and DIFF_VERSION.startswith("diff-")
    assert SLICER_VERSION.startswith("slice-") and NORMALIZE_VERSION.startswith("normalize-")
    assert len({DIFF_VERSION, SLICER_VERSION, NORMALIZE_VERSION}) == 3
    assert {DIFF_VERSION, SLICER_VERSION, NORMALIZE_VERSION} <= set(versions())


def test_editing_a_module_the_diff_imports_gives_a_new_diff_version(tmp_path, monkeypatch):
    package = tmp_path / "ir_trace"
    shutil.copytree(fingerprints.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fingerprints, "PACKAGE", package)
    before = source_version("diff", "diffcore.linediff")
    assert before == DIFF_VERSION
    matching = package / "diffcore" / "matching.py"
    matching.write_text(matching.read_text(encoding="utf-8").replace("QUICK_EDITS = 16", "QUICK_EDITS = 17"))
    assert source_version("diff", "diffcore.linediff") != before
    assert source_version("normalize", "noise.normalize") == NORMALIZE_VERSION  # not one of its sources


def test_imports_are_followed_in_every_form_the_package_uses(tmp_path, monkeypatch):
    monkeypatch.setattr(fingerprints, "PACKAGE", tmp_path)
    (tmp_path / "sub").mkdir()
    sources = {
        "root.py": "from ir_trace.one import x\nfrom ir_trace import two, three\n",
        "one.py": "def f():\n    import ir_trace.four  # a lazy import\n",
        "two.py": "from ir_trace.sub import (\n    five,\n)\n",  # one name a line
        "three.py": "import ir_trace.six as s, os\nfrom ir_trace.sub import (  # why\n    seven,  # a comment\n)\n",
        "four.py": "import os\n",
        "six.py": "",
        "sub/five.py": "",
        "sub/seven.py": "",
        "unrelated.py": "",
    }
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
    found = [p.relative_to(tmp_path).as_posix() for p in module_sources("root")]
    assert found == ["four.py", "one.py", "root.py", "six.py", "sub/five.py", "sub/seven.py", "three.py", "two.py"]


def test_digests_keep_their_parts_apart():
    assert digest("ab", "c") != digest("a", "bc")
    assert digest("a") == digest("a") and len(digest("a")) == 32


def test_a_dump_state_changes_with_a_rewrite_and_not_with_a_read(tmp_path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    snapshot = dump / "00_frontend.py"
    snapshot.write_text("x = 1\n")
    first = dump_state(dump)
    snapshot.read_text()
    assert dump_state(dump) == first
    os.utime(snapshot, ns=(1, 1))
    assert dump_state(dump) != first
    assert dump_state(tmp_path / "missing") != first


def test_a_report_fingerprint_depends_on_the_dump_context_and_ignore_modes():
    base = report_fingerprint("dump", 3, "")
    assert base == report_fingerprint("dump", 3, "")
    assert len({base, report_fingerprint("other", 3, ""), report_fingerprint("dump", 0, "")}) == 3
    assert report_fingerprint("dump", 3, "ssa") != base


def test_the_package_path_is_the_installed_sources():
    assert Path(fingerprints.__file__).parent.parent == fingerprints.PACKAGE


def test_a_dump_digest_is_worked_out_once_a_run_and_follows_the_manifest(tmp_path, monkeypatch):
    """Luigi's checks asked for the report's fingerprint three times a cold run, each a walk over every
    snapshot (a second for 100,000 dumps); a manifest made again, or another one, is digested afresh."""
    import ir_trace
    from ir_trace.inputs.discovery import discover_snapshots

    worked = []
    real = fingerprints._dump_digest
    monkeypatch.setattr(fingerprints, "_dump_digest", lambda manifest: worked.append(manifest) or real(manifest))
    dump = write_dump(tmp_path / "passes_dump", ["x = 1\n", "x = 2\n", "x = 3\n"])
    ir_trace.render(dump, tmp_path / "r.html", cache_dir=tmp_path / "cache")
    assert len(worked) == 1
    manifest = discover_snapshots(dump)
    first = fingerprints.dump_digest(manifest)
    assert fingerprints.dump_digest(manifest) == first and len(worked) == 2  # the same manifest: remembered
    changed = replace(manifest, title=manifest.title + "!")
    assert fingerprints.dump_digest(changed) != first and len(worked) == 3
