"""Reading MLIR pass dumps: `--mlir-print-ir-tree-dir` trees and `--mlir-print-ir-after-all` streams."""
