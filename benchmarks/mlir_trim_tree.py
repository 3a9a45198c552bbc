#!/usr/bin/env python3
"""Cut a compact test tree out of a real `--mlir-print-ir-tree-dir` dump (mlir_corpus.py's layout):

    python benchmarks/mlir_trim_tree.py SAMPLE OUT --top 162,163,175,176 [--blank hal.executable] [--stream]

Keeps the files whose first counter is in --top (the top-level dumps and every nested dump of the
gaps they open), and write_order.txt restricted to them (overwrites kept: a path counts at its last
write). --blank replaces the body of every top-level op of those kinds by one comment line, in every
file alike, so the texts stay consistent with each other while the tree shrinks. --stream cuts the
sample's stream.txt (the same run's stderr, one dump per line of write_order.txt) alike: the dumps
written to the kept files, overwritten ones included, with the same bodies left out.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ir_trace.inputs.mlir.stream import split_dumps  # noqa: E402


def blank_bodies(text: str, kinds: tuple[str, ...]) -> str:
    """`text` with the region of each top-level (two-space indented) op of `kinds` emptied."""
    out, skipping = [], False
    for line in text.split("\n"):
        if skipping:
            if line == "  }":
                out.append("    // body left out of the test corpus")
                out.append(line)
                skipping = False
            continue
        out.append(line)
        if line.endswith("{") and any(line.startswith(f"  {kind} ") for kind in kinds):
            skipping = True
    return "\n".join(out)


def cut_stream(sample: Path, out: Path, keep: list[bool], kinds: tuple[str, ...]) -> None:
    """stream.txt with the dumps whose writes are kept (dump i is write i), each from its header to
    the next one, bodies of `kinds` left out."""
    data = (sample / "stream.txt").read_bytes()
    dumps = split_dumps(data)
    if len(dumps) != len(keep):
        raise SystemExit(f"{sample}: {len(dumps)} dumps in stream.txt but {len(keep)} writes")
    starts = [data.rfind(b"\n", 0, dump.span[0] - 1) + 1 for dump in dumps] + [len(data)]
    chunks = [data[starts[i] : starts[i + 1]].decode("utf-8") for i in range(len(dumps)) if keep[i]]
    (out / "stream.txt").write_text("".join(blank_bodies(chunk, kinds) for chunk in chunks))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--top", required=True, help="first counters to keep, comma-separated")
    parser.add_argument("--blank", default="", help="op kinds whose bodies are left out, comma-separated")
    parser.add_argument("--stream", action="store_true", help="cut stream.txt alike")
    args = parser.parse_args()
    keep = {int(n) for n in args.top.split(",")}
    kinds = tuple(k for k in args.blank.split(",") if k)
    tree = args.sample / "tree"
    shutil.rmtree(args.out, ignore_errors=True)
    kept = []
    for path in sorted(tree.rglob("*.mlir")):
        relative = path.relative_to(tree)
        if int(relative.name.split("_", 1)[0]) not in keep:
            continue
        target = args.out / "tree" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(blank_bodies(path.read_text(), kinds))
        kept.append(relative.as_posix())
    present = set(kept)
    lines = (args.sample / "write_order.txt").read_text().splitlines()
    (args.out / "write_order.txt").write_text("".join(line + "\n" for line in lines if line in present))
    if args.stream:
        cut_stream(args.sample, args.out, [line in present for line in lines], kinds)
    for name in ("command.sh", "input.mlir"):
        shutil.copy(args.sample / name, args.out / name)
    print(f"{args.out}: {len(kept)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
