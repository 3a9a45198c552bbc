// -----// IR Dump After ConvertAffineToStandard (lower-affine) ('func.func' operation: @matmul) //----- //
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> (d0 + 8)>
module {
  func.func @top(%arg0: memref<64x64xf32>) {
    affine.for %arg1 = 0 to 64 step 8 {
      affine.for %arg2 = 0 to 64 step 8 {
        affine.for %arg3 = #map(%arg1) to #map1(%arg1) {
          affine.for %arg4 = #map(%arg2) to #map1(%arg2) {
            %0 = affine.load %arg0[%arg3, %arg4] : memref<64x64xf32>
            %1 = arith.addf %0, %0 : f32
            affine.store %1, %arg0[%arg3, %arg4] : memref<64x64xf32>
          }
        }
      }
    }
    return
  }
  module @inner {
    func.func @matmul(%arg0: memref<32x32xf32>, %arg1: memref<32x32xf32>, %arg2: memref<32x32xf32>) {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c1 = arith.constant 1 : index
      scf.for %arg3 = %c0 to %c32 step %c1 {
        %c0_0 = arith.constant 0 : index
        %c32_1 = arith.constant 32 : index
        %c1_2 = arith.constant 1 : index
        scf.for %arg4 = %c0_0 to %c32_1 step %c1_2 {
          %c0_3 = arith.constant 0 : index
          %c32_4 = arith.constant 32 : index
          %c1_5 = arith.constant 1 : index
          scf.for %arg5 = %c0_3 to %c32_4 step %c1_5 {
            %0 = memref.load %arg0[%arg3, %arg5] : memref<32x32xf32>
            %1 = memref.load %arg1[%arg5, %arg4] : memref<32x32xf32>
            %2 = memref.load %arg2[%arg3, %arg4] : memref<32x32xf32>
            %3 = arith.mulf %0, %1 : f32
            %4 = arith.addf %2, %3 : f32
            memref.store %4, %arg2[%arg3, %arg4] : memref<32x32xf32>
          }
        }
      }
      return
    }
    func.func @fill(%arg0: memref<32xf32>, %arg1: f32) {
      affine.for %arg2 = 0 to 32 {
        affine.store %arg1, %arg0[%arg2] : memref<32xf32>
      }
      return
    }
  }
  module @other {
    func.func @copy(%arg0: memref<16xf32>, %arg1: memref<16xf32>) {
      affine.for %arg2 = 0 to 16 {
        %0 = affine.load %arg0[%arg2] : memref<16xf32>
        affine.store %0, %arg1[%arg2] : memref<16xf32>
      }
      return
    }
  }
}


