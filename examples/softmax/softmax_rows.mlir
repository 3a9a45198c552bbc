// Row-wise softmax of a 16x128 tile, written for pypto-ir-trace's example: exp(x - max) / sum.
func.func @softmax_rows(%x: memref<16x128xf32>, %y: memref<16x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 16 : index
  %cols = arith.constant 128 : index
  %lowest = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %rows step %c1 {
    %max = scf.for %j = %c0 to %cols step %c1 iter_args(%m = %lowest) -> (f32) {
      %v = memref.load %x[%i, %j] : memref<16x128xf32>
      %n = arith.maximumf %m, %v : f32
      scf.yield %n : f32
    }
    %sum = scf.for %j = %c0 to %cols step %c1 iter_args(%s = %zero) -> (f32) {
      %v = memref.load %x[%i, %j] : memref<16x128xf32>
      %d = arith.subf %v, %max : f32
      %e = math.exp %d : f32
      memref.store %e, %y[%i, %j] : memref<16x128xf32>
      %t = arith.addf %s, %e : f32
      scf.yield %t : f32
    }
    scf.for %j = %c0 to %cols step %c1 {
      %e = memref.load %y[%i, %j] : memref<16x128xf32>
      %q = arith.divf %e, %sum : f32
      memref.store %q, %y[%i, %j] : memref<16x128xf32>
    }
  }
  return
}

func.func @unused_scale(%a: f32) -> f32 {
  %two = arith.constant 2.0 : f32
  %r = arith.mulf %a, %two : f32
  return %r : f32
}
