
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
