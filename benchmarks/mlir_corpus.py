#!/usr/bin/env python3
"""Build a corpus of real `--mlir-print-ir-tree-dir` dumps with strace's record of the write order:

    python benchmarks/mlir_corpus.py OUT_DIR [--mlir-opt /usr/lib/llvm-19/bin/mlir-opt] [--only NAME]

Each pipeline below runs on its inline input, once under `strace` with the tree option (OUT_DIR/<name>/tree
and write_order.txt, the layout of ../shared/samples/mlir) and once without it (stream.txt: the same dumps
on stderr). Variants: module scope or not, threading on (only without module scope, which MLIR refuses
to combine with threads). `benchmarks/mlir_order.py OUT_DIR` then measures the reader's order on them.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

DEFAULT_OPT = "/usr/lib/llvm-19/bin/mlir-opt"

CALLS = """
func.func private @ext_b(f32) -> f32
func.func private @ext_a(f32) -> f32
func.func private @zeta(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %0 = arith.mulf %x, %c : f32
  %1 = arith.mulf %x, %c : f32
  %2 = arith.addf %0, %1 : f32
  return %2 : f32
}
func.func @beta(%x: f32) -> f32 {
  %0 = func.call @zeta(%x) : (f32) -> f32
  %1 = func.call @ext_a(%0) : (f32) -> f32
  return %1 : f32
}
func.func private @ext_c(f32) -> f32
func.func @alpha(%x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %0 = arith.addf %x, %c : f32
  %1 = arith.addf %x, %c : f32
  %2 = func.call @ext_b(%0) : (f32) -> f32
  %3 = arith.mulf %2, %1 : f32
  return %3 : f32
}
func.func @gamma(%x: f32) -> f32 {
  %0 = func.call @beta(%x) : (f32) -> f32
  %1 = func.call @ext_c(%0) : (f32) -> f32
  return %1 : f32
}
"""

NESTED_AFFINE = """
module {
  func.func @top(%A: memref<64x64xf32>) {
    affine.for %i = 0 to 64 {
      affine.for %j = 0 to 64 {
        %v = affine.load %A[%i, %j] : memref<64x64xf32>
        %w = arith.addf %v, %v : f32
        affine.store %w, %A[%i, %j] : memref<64x64xf32>
      }
    }
    return
  }
  module @inner {
    func.func @matmul(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %C: memref<32x32xf32>) {
      affine.for %i = 0 to 32 {
        affine.for %j = 0 to 32 {
          affine.for %k = 0 to 32 {
            %a = affine.load %A[%i, %k] : memref<32x32xf32>
            %b = affine.load %B[%k, %j] : memref<32x32xf32>
            %c = affine.load %C[%i, %j] : memref<32x32xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %c, %p : f32
            affine.store %s, %C[%i, %j] : memref<32x32xf32>
          }
        }
      }
      return
    }
    func.func @fill(%A: memref<32xf32>, %x: f32) {
      affine.for %i = 0 to 32 {
        affine.store %x, %A[%i] : memref<32xf32>
      }
      return
    }
  }
  module @other {
    func.func @copy(%A: memref<16xf32>, %B: memref<16xf32>) {
      affine.for %i = 0 to 16 {
        %v = affine.load %A[%i] : memref<16xf32>
        affine.store %v, %B[%i] : memref<16xf32>
      }
      return
    }
  }
}
"""

ASYNC = """
func.func private @sink(memref<?xf32>)
func.func @par(%A: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %A[%i] : memref<?xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %A[%i] : memref<?xf32>
  }
  func.call @sink(%A) : (memref<?xf32>) -> ()
  return
}
func.func @par2(%A: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %v = memref.load %A[%i, %j] : memref<?x?xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %A[%i, %j] : memref<?x?xf32>
  }
  return
}
"""

GPU = """
module attributes {gpu.container_module} {
  func.func @launch(%A: memref<32xf32>, %B: memref<32xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %v = memref.load %A[%tx] : memref<32xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %A[%tx] : memref<32xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %v = memref.load %B[%tx] : memref<32xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %B[%tx] : memref<32xf32>
      gpu.terminator
    }
    return
  }
}
"""

TOSA = """
func.func @mlp(%x: tensor<1x8xf32>, %w: tensor<1x8x8xf32>) -> tensor<1x8xf32> {
  %b = "tosa.const"() <{value = dense<0.5> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %s = tosa.add %x, %b : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %r = tosa.clamp %s {min_int = 0 : i64, max_int = 6 : i64, min_fp = 0.0 : f32, max_fp = 6.0 : f32}
    : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %n = tosa.negate %t : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}
"""

SPARSE = """
#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
func.func @spmv(%A: tensor<64x64xf64, #CSR>, %x: tensor<64xf64>, %y: tensor<64xf64>) -> tensor<64xf64> {
  %0 = linalg.matvec ins(%A, %x : tensor<64x64xf64, #CSR>, tensor<64xf64>) outs(%y : tensor<64xf64>) -> tensor<64xf64>
  return %0 : tensor<64xf64>
}
func.func @scale(%A: tensor<64x64xf64, #CSR>) -> tensor<64x64xf64, #CSR> {
  %c = arith.constant 2.0 : f64
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    outs(%A : tensor<64x64xf64, #CSR>) {
  ^bb0(%v: f64):
    %m = arith.mulf %v, %c : f64
    linalg.yield %m : f64
  } -> tensor<64x64xf64, #CSR>
  return %0 : tensor<64x64xf64, #CSR>
}
"""

MLP = """
util.global private @w1 = dense<0.5> : tensor<16x32xf32>
util.global private @w2 = dense<0.25> : tensor<32x8xf32>
func.func @mlp(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w1 = util.global.load @w1 : tensor<16x32xf32>
  %w2 = util.global.load @w2 : tensor<32x8xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @scale(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant dense<3.0> : tensor<8xf32>
  %0 = arith.mulf %x, %c : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

SOFTMAX = """
func.func @softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
"""

IREE_TARGETS = {
    "llvm_cpu": [
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        "--iree-llvmcpu-target-cpu=generic",
        "--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu",
    ],
    "vmvx": ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=vmvx"],
}
# one function: its initializers count apart (with two, two of them count alike and overwrite each other's
# files), so tree and stream of one run hold the same dumps
MLP_ONE = MLP.split("func.func @scale")[0]
IREE_PROGRAMS = {"mlp": MLP, "mlp_one": MLP_ONE, "softmax": SOFTMAX}

FN = "func.func(canonicalize,cse)"
PIPELINES: dict[str, tuple[str, str]] = {
    "calls_decls": (CALLS, f"builtin.module({FN},inline,{FN},symbol-dce,func.func(canonicalize))"),
    "calls_decls_lower": (
        CALLS,
        f"builtin.module({FN},convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts,canonicalize,cse)",
    ),
    "nested_affine": (
        NESTED_AFFINE,
        "builtin.module(func.func(affine-loop-tile{tile-size=8},canonicalize),"
        "builtin.module(func.func(affine-loop-invariant-code-motion,lower-affine,canonicalize,cse)),"
        "lower-affine,convert-scf-to-cf,canonicalize)",
    ),
    "async": (
        ASYNC,
        "builtin.module(async-parallel-for,func.func(canonicalize),async-to-async-runtime,"
        "async-runtime-ref-counting,async-runtime-ref-counting-opt,func.func(canonicalize,cse),"
        "convert-async-to-llvm,canonicalize)",
    ),
    "gpu_outline": (
        GPU,
        "builtin.module(gpu-kernel-outlining,gpu.module(convert-gpu-to-nvvm,canonicalize,cse),"
        "func.func(canonicalize),canonicalize)",
    ),
    "tosa_bufferize": (
        TOSA,
        "builtin.module(func.func(tosa-to-linalg,tosa-to-arith,canonicalize),"
        "one-shot-bufferize{bufferize-function-boundaries},func.func(convert-linalg-to-loops,canonicalize,cse),"
        "convert-scf-to-cf,canonicalize)",
    ),
    "sparsifier": (SPARSE, "builtin.module(sparsifier)"),
}
VARIANTS = {
    "ms": ["--mlir-print-ir-module-scope", "--mlir-disable-threading"],
    "op": ["--mlir-disable-threading"],
    "op_threads": [],
    "ms_before": ["--mlir-print-ir-module-scope", "--mlir-disable-threading", "--mlir-print-ir-before-all"],
    "ms_change": ["--mlir-print-ir-module-scope", "--mlir-disable-threading", "--mlir-print-ir-after-change"],
}


def run(tool: list[str], out: Path, name: str, program: str, variant: list[str]) -> str:
    """One dump of `tool` (the driver and its pipeline options): the tree under strace, then the
    stream. Returns a summary line."""
    sample = out / name
    shutil.rmtree(sample, ignore_errors=True)
    sample.mkdir(parents=True)
    source = sample / "input.mlir"
    source.write_text(program)
    printing = ["--mlir-print-ir-after-all", *variant]
    command = [tool[0], str(source), *tool[1:], *printing, "-o", "/dev/null"]
    raw = sample / "strace.raw"
    tree = sample / "tree"
    traced = ["strace", "-f", "-qq", "-s", "4096", "-e", "trace=openat", "-e", "signal=none", "-o", str(raw)]
    done = subprocess.run([*traced, *command, f"--mlir-print-ir-tree-dir={tree}"], capture_output=True, text=True)
    (sample / "rc").write_text(f"{done.returncode}\n")
    (sample / "command.sh").write_text(" ".join([*command, "--mlir-print-ir-tree-dir=OUT"]) + "\n")
    prefix = f'"{tree}/'
    order = [
        line.split(prefix, 1)[1].split('"', 1)[0]
        for line in raw.read_text(errors="replace").splitlines()
        if prefix in line and "O_CREAT" in line
    ]
    raw.unlink()
    (sample / "write_order.txt").write_text("".join(path + "\n" for path in order))
    stream = subprocess.run(command, capture_output=True, text=True)
    (sample / "stream.txt").write_text(stream.stderr)
    return f"{name}: rc={done.returncode} files={len(order)} {done.stderr.strip()[:200]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--mlir-opt", default=DEFAULT_OPT)
    parser.add_argument("--iree-compile", help="also IREE's full pipelines (pip install iree-base-compiler)")
    parser.add_argument("--only", help="dumps whose name starts so")
    args = parser.parse_args()
    if shutil.which("strace") is None or shutil.which(args.mlir_opt) is None:
        print("error: needs strace and mlir-opt (apt-get install strace mlir-19-tools)", file=sys.stderr)
        return 2
    for name, (program, pipeline) in PIPELINES.items():
        for variant, flags in VARIANTS.items():
            if not args.only or f"{name}_{variant}".startswith(args.only):
                tool = [args.mlir_opt, f"--pass-pipeline={pipeline}"]
                print(run(tool, args.out, f"{name}_{variant}", program, flags))
    for target, options in IREE_TARGETS.items() if args.iree_compile else ():
        for program_name, program in IREE_PROGRAMS.items():
            for variant in ("ms", "op"):
                name = f"iree_{target}_{program_name}_{variant}"
                if not args.only or name.startswith(args.only):
                    print(run([args.iree_compile, *options], args.out, name, program, VARIANTS[variant]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
