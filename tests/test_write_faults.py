"""A final rename that fails leaves the old report and no temp file: root without CAP_FOWNER
(`setpriv` drops it) writing over another user's report in another user's sticky directory, where
the temp file, given the report's owner, could no longer be deleted by its writer."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hostile_support import assert_error_line, command, temp_files

OTHER, DIRECTORY_OWNER = 12345, 23456


def test_a_refused_rename_in_a_sticky_directory_leaves_no_temp_file(tmp_path, demo_dump):
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv (util-linux) to drop CAP_FOWNER")
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    os.chown(shared, DIRECTORY_OWNER, 0)
    report = shared / "r.html"
    report.write_text("old report\n")
    os.chown(report, OTHER, OTHER)
    dropped = ["setpriv", "--inh-caps=-fowner", "--bounding-set=-fowner"]
    result = subprocess.run(
        dropped + command(demo_dump, "-o", report, "--no-cache"), capture_output=True, text=True, timeout=300
    )
    assert_error_line(result, str(report), "not permitted")
    assert report.read_text() == "old report\n" and temp_files(shared) == []
