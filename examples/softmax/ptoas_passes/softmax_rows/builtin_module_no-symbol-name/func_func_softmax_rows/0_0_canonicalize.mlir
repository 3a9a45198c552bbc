// -----// IR Dump After Canonicalizer (canonicalize) ('func.func' operation: @softmax_rows) //----- //
module {
  func.func @softmax_rows(%arg0: memref<16x128xf32>, %arg1: memref<16x128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %cst = arith.constant -3.40282347E+38 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    scf.for %arg2 = %c0 to %c16 step %c1 {
      %0 = scf.for %arg3 = %c0 to %c128 step %c1 iter_args(%arg4 = %cst) -> (f32) {
        %2 = memref.load %arg0[%arg2, %arg3] : memref<16x128xf32>
        %3 = arith.maximumf %arg4, %2 : f32
        scf.yield %3 : f32
      }
      %1 = scf.for %arg3 = %c0 to %c128 step %c1 iter_args(%arg4 = %cst_0) -> (f32) {
        %2 = memref.load %arg0[%arg2, %arg3] : memref<16x128xf32>
        %3 = arith.subf %2, %0 : f32
        %4 = math.exp %3 : f32
        memref.store %4, %arg1[%arg2, %arg3] : memref<16x128xf32>
        %5 = arith.addf %arg4, %4 : f32
        scf.yield %5 : f32
      }
      scf.for %arg3 = %c0 to %c128 step %c1 {
        %2 = memref.load %arg1[%arg2, %arg3] : memref<16x128xf32>
        %3 = arith.divf %2, %1 : f32
        memref.store %3, %arg1[%arg2, %arg3] : memref<16x128xf32>
      }
    }
    return
  }
  func.func @unused_scale(%arg0: f32) -> f32 {
    %cst = arith.constant 2.000000e+00 : f32
    %0 = arith.mulf %arg0, %cst : f32
    return %0 : f32
  }
}


