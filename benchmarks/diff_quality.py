#!/usr/bin/env python3
"""Diff quality on the real samples: issue 10's four metrics, each able to fail.

    python benchmarks/diff_quality.py                      # ../shared/samples/real/* and mlir/*
    python benchmarks/diff_quality.py --corpus mlir        # only the MLIR dumps
    python benchmarks/diff_quality.py --baseline adf7b49   # also the diff.py of that commit
    python benchmarks/diff_quality.py --json quality.json

Every adjacent pair of distinct snapshots is diffed with ir_trace.diffcore.linediff, functions matched first
as the report does (PyPTO's methods; MLIR's symbol ops). An MLIR tree with module scope is read
in its true write order (`write_order.txt`, every file the whole module); without module scope
each op's directory is its own trace, in counter order. Each hunk is judged
with a reference similarity that the diff itself does not use: difflib's ratio over the two
lines' tokens (indentation removed), order and repetition counted.

1. better_partner: a pair (i, j) for which an unpaired line of the same hunk could replace one
   side without crossing another pair, is near-identical to the other side (its token edit
   distance, indentation aside, at most 10 % of the two lines' tokens) and at most half as far
   from it as the current partner: a near-identical line left out for a clearly worse one
   (qwen3 pass 29: 2 token edits left unpaired, 4 paired). Between comparable partners a
   textual measure cannot tell a line's counterpart: FlattenCallExpr turns `c = f(g(x))` into
   `t = g(x)` and `c = f(t)`, and `t = g(x)` shares more text with the old line.
2. similar_unpaired: an unpaired deleted and an unpaired inserted line of one hunk, at least
   90 % similar, that could be paired without crossing any pair.
3. emphasis_ratio: characters emphasised in all pairs / characters a minimal token diff of
   the same pairs changes (exact longest common subsequence of tokens).
4. in_word_edges: emphasis ranges starting or ending between two letters or digits (inside an
   identifier or number): at token granularity marking the whole word costs the same, so any
   such edge is a misplaced slide (`pl.Mem[Ref(...), pl.Mem].Vec`). An edge beside a `_` is a
   long name's changed part (intraline trims a replaced name at its separators), not a slide.

5. cross_function_pairs: pairs whose two lines lie in functions (or MLIR symbol ops) of different
   keys, one of which is in both snapshots: a line of one function shown as an edit of another's
   (issue 28: functions swapped by a pass). A function renamed or converted (`func.func @f` lowered
   to `llvm.func @f`) keys only one side, and its lines pair with its new self's.

Targets: 0, 0, <= 1.05, 0, 0. Exit status 1 when one is missed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from bisect import bisect_right
from difflib import SequenceMatcher
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from ir_trace.diffcore.intraline import tokens  # noqa: E402
from ir_trace.diffcore.linediff import diff_snapshots, split_lines  # noqa: E402
from ir_trace.diffcore.matching import match_sequences  # noqa: E402
from ir_trace.noise.normalize import strip_mlir_ssa  # noqa: E402
from ir_trace.syntax.functions import slice_functions  # noqa: E402

SAMPLES = REPO.parent / "shared" / "samples"
SIMILAR_UNPAIRED = 0.9
NEAR_IDENTICAL = 0.1  # token edits / tokens
NAME_PART = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def reference_similarity(x: str, y: str, cache: dict) -> float:
    key = (x, y)
    if key not in cache:
        tx, ty = tokens(x.lstrip(" \t")), tokens(y.lstrip(" \t"))
        matcher = SequenceMatcher(None, tx, ty, autojunk=False)
        cache[key] = matcher.ratio() if matcher.real_quick_ratio() > 0.5 and matcher.quick_ratio() > 0.5 else 0.0
    return cache[key]


def token_edits(x: str, y: str, cache: dict) -> tuple[int, int]:
    """(token insertions + deletions of a shortest edit script, tokens) between two lines,
    indentation aside."""
    key = ("edits", x, y)
    if key not in cache:
        tx, ty = tokens(x.lstrip(" \t")), tokens(y.lstrip(" \t"))
        cache[key] = (len(tx) + len(ty) - 2 * len(match_sequences(tx, ty, len(tx) + len(ty))), len(tx) + len(ty))
    return cache[key]


def clearly_closer(x: str, y: str, current: tuple[int, int], cache: dict) -> bool:
    if reference_similarity(x, y, cache) < 1 - 2 * NEAR_IDENTICAL:  # cheap filter: cannot be near-identical
        return False
    edits, size = token_edits(x, y, cache)
    return edits <= NEAR_IDENTICAL * size and 2 * edits <= current[0] and edits < current[0]


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def minimal_changed_units(x: str, y: str) -> int:
    """UTF-16 units of the tokens a longest common token subsequence leaves unmatched."""
    tx, ty = tokens(x), tokens(y)
    matched = match_sequences(tx, ty, len(tx) + len(ty))  # a budget that never runs out: exact
    kept_x, kept_y = {i for i, _ in matched}, {j for _, j in matched}
    return sum(utf16_len(t) for k, t in enumerate(tx) if k not in kept_x) + sum(
        utf16_len(t) for k, t in enumerate(ty) if k not in kept_y
    )


def in_word_edges(line: str, ranges) -> int:
    """Range edges between two word characters, neither of them `_`."""
    units = line.encode("utf-16-le")
    at = lambda k: units[2 * k : 2 * k + 2].decode("utf-16-le", "replace")  # noqa: E731
    count = 0
    for s, e in ranges:
        for edge in (s, e):
            if 0 < edge < len(units) // 2 and at(edge - 1) in NAME_PART and at(edge) in NAME_PART:
                count += 1
    return count


def judge_hunk(a: list[str], b: list[str], hunk, cache: dict) -> dict:
    pairs = [(p.a, p.b) for p in hunk.pairs]
    paired_a, paired_b = {i for i, _ in pairs}, {j for _, j in pairs}
    free_a = [i for i in range(hunk.a0, hunk.a1) if i not in paired_a]
    free_b = [j for j in range(hunk.b0, hunk.b1) if j not in paired_b]
    found = {"better_partner": 0, "similar_unpaired": 0, "examples": []}
    bounds = [(hunk.a0 - 1, hunk.b0 - 1), *pairs, (hunk.a1, hunk.b1)]
    for k, (i, j) in enumerate(pairs, 1):
        (pi, pj), (ni, nj) = bounds[k - 1], bounds[k + 1]
        current = token_edits(a[i], b[j], cache)
        better_b = [x for x in free_b if pj < x < nj and clearly_closer(a[i], b[x], current, cache)]
        better_a = [x for x in free_a if pi < x < ni and clearly_closer(a[x], b[j], current, cache)]
        if better_b or better_a:
            found["better_partner"] += 1
            found["examples"].append(("better_partner", i, j, better_a[:1], better_b[:1]))
    for k in range(len(bounds) - 1):
        (pi, pj), (ni, nj) = bounds[k], bounds[k + 1]
        gap_a = [i for i in free_a if pi < i < ni]
        gap_b = [j for j in free_b if pj < j < nj]
        for i in gap_a:
            if any(reference_similarity(a[i], b[j], cache) >= SIMILAR_UNPAIRED for j in gap_b):
                found["similar_unpaired"] += 1
                found["examples"].append(("similar_unpaired", i, None, [], []))
    return found


def judge_pair(a: list[str], b: list[str], pair) -> tuple[int, int, int]:
    """(emphasised units, minimal units, edges inside words) of one paired line."""
    x, y = a[pair.a], b[pair.b]
    shown = sum(e - s for s, e in pair.a_ranges) + sum(e - s for s, e in pair.b_ranges)
    return shown, minimal_changed_units(x, y), in_word_edges(x, pair.a_ranges) + in_word_edges(y, pair.b_ranges)


def pypto_traces(dump: Path) -> list[list[tuple[str, str]]]:
    """The dump's one trace: (file name, text) in pass order."""
    files = sorted(dump.glob("*.py"), key=lambda p: int(p.name.split("_")[0]))
    return [[(f.name, f.read_text(encoding="utf-8")) for f in files]]


def mlir_traces(tree: Path) -> list[list[tuple[str, str]]]:
    """An MLIR tree's traces of (path, IR without its header line): one in write order with module
    scope, else one per op directory in counter order."""
    files = sorted(tree.rglob("*.mlir"))
    texts = {f: f.read_text(encoding="utf-8").split("\n", 1) for f in files}
    if all(" operation" in header for header, _ir in texts.values()):
        order_file = tree.parent / "write_order.txt"
        written = [tree / line for line in order_file.read_text(encoding="utf-8").splitlines() if line]
        order = list(dict.fromkeys(p for p in written if p in texts))
        return [[(str(p.relative_to(tree)), texts[p][1]) for p in order]]
    by_op: dict[Path, list[Path]] = {}
    for f in files:
        by_op.setdefault(f.parent, []).append(f)
    counters = lambda f: [int(n) for n in f.name.split("_") if n.isdigit()]  # noqa: E731
    return [[(str(f.relative_to(tree)), texts[f][1]) for f in sorted(op, key=counters)] for op in by_op.values()]


def judge_dump(traces: list[list[tuple[str, str]]], diff, kind: str) -> dict:
    totals = {"pairs_of_snapshots": 0, "hunks": 0, "paired_lines": 0, "better_partner": 0, "similar_unpaired": 0}
    totals.update(shown=0, minimal=0, in_word_edges=0, cross_function_pairs=0, examples=[])
    cache: dict = {}
    for trace in traces:
        for (_before_name, before), (name, after) in zip(trace, trace[1:]):
            if before != after:
                judge_pair_of_snapshots(before, after, name, diff, kind, totals, cache)
    return totals


def judge_pair_of_snapshots(before: str, after: str, name: str, diff, kind: str, totals: dict, cache: dict) -> None:
    (a, a_eol), (b, b_eol) = split_lines(before), split_lines(after)
    fns_a, fns_b = functions_of(a, kind), functions_of(b, kind)
    ref_a, ref_b = (a, b) if kind == "pypto" else (list(map(unnumbered, a)), list(map(unnumbered, b)))
    totals["pairs_of_snapshots"] += 1
    owner_a, owner_b = owner_lookup(fns_a), owner_lookup(fns_b)
    for hunk in diff(a, b, a_eol, b_eol, fns_a, fns_b):
        totals["hunks"] += 1
        found = judge_hunk(ref_a, ref_b, hunk, cache)
        totals["better_partner"] += found["better_partner"]
        totals["similar_unpaired"] += found["similar_unpaired"]
        totals["examples"] += [(name, *example) for example in found["examples"]][:3]
        for pair in hunk.pairs:
            shown, minimal, edges = judge_pair(a, b, pair)
            totals["paired_lines"] += 1
            totals["shown"] += shown
            totals["minimal"] += minimal
            totals["in_word_edges"] += edges
            key_a, key_b = owner_a(pair.a), owner_b(pair.b)
            both = key_a in owner_b.keys or key_b in owner_a.keys
            totals["cross_function_pairs"] += key_a is not None and key_b is not None and key_a != key_b and both


def owner_lookup(functions):
    """line -> key of the function holding it, or None; `.keys`: every key of the snapshot."""
    functions = functions or []
    starts = [start for _key, start, _end in functions]

    def owner(line: int):
        at = bisect_right(starts, line) - 1
        return functions[at][0] if at >= 0 and line < functions[at][2] else None

    owner.keys = {key for key, _start, _end in functions}
    return owner


def unnumbered(line: str) -> str:
    """An MLIR line as the reference compares it: as `--ignore ssa` keys it (value and block names
    dropped, `#map3` -> `#map`). The printer renumbers them after every inserted or removed op,
    so `%c0_1` or `%5` says nothing of which line is which."""
    return strip_mlir_ssa(line)


def functions_of(lines: list[str], kind: str) -> list[tuple[str, int, int]] | None:
    found = slice_functions(lines, kind=kind).functions
    return None if found is None else [(f.key, f.start, f.end) for f in found]


def load_baseline(rev: str):
    """diff_snapshots from ir_trace/diffcore/linediff.py as it was at `rev` (other modules: today's)."""
    source = subprocess.run(
        ["git", "show", f"{rev}:ir_trace/diffcore/linediff.py"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "baseline_diff.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("baseline_diff", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_diff"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return lambda a, b, a_eol, b_eol, fns_a, fns_b: module.diff_snapshots(a, b, a_eol, b_eol, fns_a, fns_b)


def verdicts(t: dict) -> dict:
    ratio = t["shown"] / t["minimal"] if t["minimal"] else 1.0
    return {
        "better_partner": (t["better_partner"], t["better_partner"] == 0),
        "similar_unpaired": (t["similar_unpaired"], t["similar_unpaired"] == 0),
        "emphasis_ratio": (round(ratio, 3), ratio <= 1.05),
        "in_word_edges": (t["in_word_edges"], t["in_word_edges"] == 0),
        "cross_function_pairs": (t["cross_function_pairs"], t["cross_function_pairs"] == 0),
    }


def report(name: str, per_dump: dict[str, dict]) -> bool:
    print(f"\n{name}")
    columns = "pairs | hunks | paired lines | better partner | similar unpaired | emphasis ratio | in-word edges"
    print(f"| dump | {columns} | cross-function pairs |")
    print("|---|---|---|---|---|---|---|---|---|")
    total = {key: 0 for key in ("pairs_of_snapshots", "hunks", "paired_lines", "better_partner")}
    total.update(similar_unpaired=0, shown=0, minimal=0, in_word_edges=0, cross_function_pairs=0)
    for dump, t in per_dump.items():
        v = verdicts(t)
        print(
            f"| {dump} | {t['pairs_of_snapshots']} | {t['hunks']} | {t['paired_lines']} | {v['better_partner'][0]} | "
            f"{v['similar_unpaired'][0]} | {v['emphasis_ratio'][0]} | {v['in_word_edges'][0]} | "
            f"{v['cross_function_pairs'][0]} |"
        )
        for key in total:
            total[key] += t[key]
    v = verdicts(total)
    print(
        f"| **all** | {total['pairs_of_snapshots']} | {total['hunks']} | {total['paired_lines']} | "
        f"{v['better_partner'][0]} | {v['similar_unpaired'][0]} | {v['emphasis_ratio'][0]} | {v['in_word_edges'][0]} | "
        f"{v['cross_function_pairs'][0]} |"
    )
    targets = {"better_partner": "0", "similar_unpaired": "0", "emphasis_ratio": "<= 1.05", "in_word_edges": "0"}
    targets["cross_function_pairs"] = "0"
    for key, (value, ok) in v.items():
        print(f"{key}: {value} (target {targets[key]}) {'PASS' if ok else 'FAIL'}")
    return all(ok for _, ok in v.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--samples", type=Path, default=SAMPLES, help="directory holding real/*/passes_dump, mlir/*/tree"
    )
    parser.add_argument("--corpus", choices=("all", "pypto", "mlir"), default="all", help="which dumps to judge")
    parser.add_argument(
        "--baseline", metavar="REV", help="also judge ir_trace/diffcore/linediff.py as of this git commit"
    )
    parser.add_argument("--examples", action="store_true", help="print a few failing cases per dump")
    parser.add_argument("--json", type=Path, help="write every figure as JSON")
    args = parser.parse_args()
    corpora = {
        "pypto": [(d.parent.name, "pypto", d) for d in sorted(args.samples.glob("real/*/passes_dump"))],
        "mlir": [(t.parent.name, "mlir", t) for t in sorted(args.samples.glob("mlir/*/tree"))],
    }
    dumps = [dump for corpus, found in corpora.items() if args.corpus in ("all", corpus) for dump in found]
    if not dumps:
        print(f"no samples under {args.samples}", file=sys.stderr)
        return 2
    runs = {"current": lambda a, b, a_eol, b_eol, fns_a, fns_b: diff_snapshots(a, b, a_eol, b_eol, fns_a, fns_b)}
    if args.baseline:
        runs[f"baseline {args.baseline}"] = load_baseline(args.baseline)
    results, passed = {}, True
    for name, diff in runs.items():
        for corpus in ("pypto", "mlir"):
            chosen = [d for d in dumps if d[1] == corpus]
            if not chosen:
                continue
            read = pypto_traces if corpus == "pypto" else mlir_traces
            label = f"{name}, {corpus}"
            results[label] = {dump: judge_dump(read(path), diff, corpus) for dump, _kind, path in chosen}
            ok = report(label, results[label])
            passed = passed and (ok or name != "current")
            if args.examples:
                for dump, t in results[label].items():
                    for example in t["examples"][:5]:
                        print("  ", dump, example)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
