"""Luigi imported without its RPC client's modules (pipeline/luigi_import.py), which still work when called."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

PROBE = """
import sys
import ir_trace.pipeline
import luigi.rpc
LATER = ("tenacity", "urllib.request", "asyncio", "tornado", "http.client")
print(sorted(name for name in LATER if name in sys.modules))
page = sys.argv[1]
print(luigi.rpc.URLLibFetcher().fetch("file://" + page, None, 5))  # Request and urlopen, imported now
retryer = luigi.rpc.RemoteScheduler("http://127.0.0.1:1/", connect_timeout=1)._get_retryer()
import tenacity, urllib.request
print(type(retryer) is tenacity.Retrying, luigi.rpc.RPCError.__module__, type(sys.modules["tenacity"]).__name__)
real_urlopen = sys.modules["urllib.request"].urlopen
print(urllib.request.urlopen is real_urlopen, tenacity.stop_after_attempt(2).max_attempt_number)
"""


def test_luigi_is_imported_without_its_rpc_clients_modules_which_load_when_called(tmp_path):
    page = tmp_path / "page.txt"
    page.write_text("fetched")
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, str(page)], capture_output=True, text=True, timeout=120, cwd=REPO, check=True
    )
    assert probe.stdout.splitlines() == ["[]", "fetched", "True luigi.rpc module", "True 2"]
