// -----// IR Dump After ConvertAffineToStandard (lower-affine) ('builtin.module' operation) //----- //
module {
  func.func @top(%arg0: memref<64x64xf32>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c8 = arith.constant 8 : index
    scf.for %arg1 = %c0 to %c64 step %c8 {
      %c0_0 = arith.constant 0 : index
      %c64_1 = arith.constant 64 : index
      %c8_2 = arith.constant 8 : index
      scf.for %arg2 = %c0_0 to %c64_1 step %c8_2 {
        %c8_3 = arith.constant 8 : index
        %0 = arith.addi %arg1, %c8_3 : index
        %c1 = arith.constant 1 : index
        scf.for %arg3 = %arg1 to %0 step %c1 {
          %c8_4 = arith.constant 8 : index
          %1 = arith.addi %arg2, %c8_4 : index
          %c1_5 = arith.constant 1 : index
          scf.for %arg4 = %arg2 to %1 step %c1_5 {
            %2 = memref.load %arg0[%arg3, %arg4] : memref<64x64xf32>
            %3 = arith.addf %2, %2 : f32
            memref.store %3, %arg0[%arg3, %arg4] : memref<64x64xf32>
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
        scf.for %arg4 = %c0 to %c32 step %c1 {
          scf.for %arg5 = %c0 to %c32 step %c1 {
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
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c1 = arith.constant 1 : index
      scf.for %arg2 = %c0 to %c32 step %c1 {
        memref.store %arg1, %arg0[%arg2] : memref<32xf32>
      }
      return
    }
  }
  module @other {
    func.func @copy(%arg0: memref<16xf32>, %arg1: memref<16xf32>) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      scf.for %arg2 = %c0 to %c16 step %c1 {
        %0 = memref.load %arg0[%arg2] : memref<16xf32>
        memref.store %0, %arg1[%arg2] : memref<16xf32>
      }
      return
    }
  }
}


