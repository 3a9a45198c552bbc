"""Reading what a PATH holds: PyPTO passes_dump/ directories, program directories, MLIR trees and streams."""
