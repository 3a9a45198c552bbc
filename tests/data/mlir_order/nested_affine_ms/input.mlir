
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
