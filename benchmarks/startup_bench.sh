#!/bin/sh
# Cold and warm runs of one dump, this tree (A) against another (B), paired by farm-bench (medians of CPU).
#
#     sh benchmarks/startup_bench.sh BASE_TREE DUMP [RUNS]
#
# cold: a fresh --cache-dir each run; warm: a rerun whose report is current (each tree's cache built once first).
# Each run starts in a scratch directory: run from inside a tree, `python -m ir_trace` would import that tree's
# package for both A and B (the working directory comes before PYTHONPATH on sys.path).
# Each tree has its own PYTHONPYCACHEPREFIX with bytecode written, as an installed package runs (this
# environment sets PYTHONDONTWRITEBYTECODE=1: without it every module is compiled at each start).
set -e
A=$(cd "$(dirname "$0")/.." && pwd); B=$(realpath "$1"); DUMP=$(realpath "$2"); RUNS=${3:-7}
WORK=$(mktemp -d /tmp/startup-bench.XXXXXX)
cat > "$WORK/run.sh" <<'SH'
#!/bin/sh
# run.sh TREE DUMP PYCACHE [CACHE_HOME]: one run, cold when CACHE_HOME is not given
home=${4:-$(mktemp -d)}
cd "$home" || exit 1  # not from a tree: `python -m` puts the working directory before PYTHONPATH
env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX="$3" PYTHONPATH="$1" python -m ir_trace "$2" -o "$home/r.html" --cache-dir "$home/c" -q
rc=$?; [ -n "$4" ] || rm -rf "$home"; exit $rc
SH
chmod +x "$WORK/run.sh"
mkdir -p "$WORK/warm_a" "$WORK/warm_b"
"$WORK/run.sh" "$A" "$DUMP" "$WORK/pyc_a" "$WORK/warm_a"
"$WORK/run.sh" "$B" "$DUMP" "$WORK/pyc_b" "$WORK/warm_b"
echo "cold:"
farm-bench -n "$RUNS" --timeout 900 --vs "$WORK/run.sh $B $DUMP $WORK/pyc_b" -- "$WORK/run.sh" "$A" "$DUMP" "$WORK/pyc_a"
echo "warm:"
farm-bench -n "$((RUNS * 2 + 1))" --vs "$WORK/run.sh $B $DUMP $WORK/pyc_b $WORK/warm_b" -- "$WORK/run.sh" "$A" "$DUMP" "$WORK/pyc_a" "$WORK/warm_a"
rm -rf "$WORK"
