#!/usr/bin/env bash
# Regenerates ptoas_passes/softmax_rows/ with Debian's mlir-opt 19 (apt-get install mlir-19-tools).
# ptoas is not public, so this stands in for it: a hand-written MLIR row softmax lowered to the LLVM
# dialect, dumped the way ptoas dumps (RunConfig(dump_ptoas_passes=True) runs MLIR with the same flags).
set -euo pipefail
cd "$(dirname "$0")"
MLIR_OPT="${MLIR_OPT:-$(command -v mlir-opt-19 || echo /usr/lib/llvm-19/bin/mlir-opt)}"
rm -rf ptoas_passes/softmax_rows && mkdir -p ptoas_passes
"$MLIR_OPT" softmax_rows.mlir \
  --pass-pipeline='builtin.module(symbol-dce,func.func(canonicalize,cse,loop-invariant-code-motion),convert-scf-to-cf,convert-math-to-llvm,convert-arith-to-llvm,finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,canonicalize,cse)' \
  --mlir-disable-threading --mlir-print-ir-after-all --mlir-print-ir-module-scope \
  --mlir-print-ir-tree-dir=ptoas_passes/softmax_rows -o /dev/null 2>/dev/null
