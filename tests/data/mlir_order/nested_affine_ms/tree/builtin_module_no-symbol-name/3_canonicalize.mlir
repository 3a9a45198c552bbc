// -----// IR Dump After Canonicalizer (canonicalize) ('builtin.module' operation) //----- //
module {
  func.func @top(%arg0: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c8 = arith.constant 8 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb10
    %1 = arith.cmpi slt, %0, %c64 : index
    cf.cond_br %1, ^bb2(%c0 : index), ^bb11
  ^bb2(%2: index):  // 2 preds: ^bb1, ^bb9
    %3 = arith.cmpi slt, %2, %c64 : index
    cf.cond_br %3, ^bb3, ^bb10
  ^bb3:  // pred: ^bb2
    %4 = arith.addi %0, %c8 : index
    cf.br ^bb4(%0 : index)
  ^bb4(%5: index):  // 2 preds: ^bb3, ^bb8
    %6 = arith.cmpi slt, %5, %4 : index
    cf.cond_br %6, ^bb5, ^bb9
  ^bb5:  // pred: ^bb4
    %7 = arith.addi %2, %c8 : index
    cf.br ^bb6(%2 : index)
  ^bb6(%8: index):  // 2 preds: ^bb5, ^bb7
    %9 = arith.cmpi slt, %8, %7 : index
    cf.cond_br %9, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %10 = memref.load %arg0[%5, %8] : memref<64x64xf32>
    %11 = arith.addf %10, %10 : f32
    memref.store %11, %arg0[%5, %8] : memref<64x64xf32>
    %12 = arith.addi %8, %c1 : index
    cf.br ^bb6(%12 : index)
  ^bb8:  // pred: ^bb6
    %13 = arith.addi %5, %c1 : index
    cf.br ^bb4(%13 : index)
  ^bb9:  // pred: ^bb4
    %14 = arith.addi %2, %c8 : index
    cf.br ^bb2(%14 : index)
  ^bb10:  // pred: ^bb2
    %15 = arith.addi %0, %c8 : index
    cf.br ^bb1(%15 : index)
  ^bb11:  // pred: ^bb1
    return
  }
  module @inner {
    func.func @matmul(%arg0: memref<32x32xf32>, %arg1: memref<32x32xf32>, %arg2: memref<32x32xf32>) {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c1 = arith.constant 1 : index
      cf.br ^bb1(%c0 : index)
    ^bb1(%0: index):  // 2 preds: ^bb0, ^bb6
      %1 = arith.cmpi slt, %0, %c32 : index
      cf.cond_br %1, ^bb2(%c0 : index), ^bb7
    ^bb2(%2: index):  // 2 preds: ^bb1, ^bb5
      %3 = arith.cmpi slt, %2, %c32 : index
      cf.cond_br %3, ^bb3(%c0 : index), ^bb6
    ^bb3(%4: index):  // 2 preds: ^bb2, ^bb4
      %5 = arith.cmpi slt, %4, %c32 : index
      cf.cond_br %5, ^bb4, ^bb5
    ^bb4:  // pred: ^bb3
      %6 = memref.load %arg0[%0, %4] : memref<32x32xf32>
      %7 = memref.load %arg1[%4, %2] : memref<32x32xf32>
      %8 = memref.load %arg2[%0, %2] : memref<32x32xf32>
      %9 = arith.mulf %6, %7 : f32
      %10 = arith.addf %8, %9 : f32
      memref.store %10, %arg2[%0, %2] : memref<32x32xf32>
      %11 = arith.addi %4, %c1 : index
      cf.br ^bb3(%11 : index)
    ^bb5:  // pred: ^bb3
      %12 = arith.addi %2, %c1 : index
      cf.br ^bb2(%12 : index)
    ^bb6:  // pred: ^bb2
      %13 = arith.addi %0, %c1 : index
      cf.br ^bb1(%13 : index)
    ^bb7:  // pred: ^bb1
      return
    }
    func.func @fill(%arg0: memref<32xf32>, %arg1: f32) {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c1 = arith.constant 1 : index
      cf.br ^bb1(%c0 : index)
    ^bb1(%0: index):  // 2 preds: ^bb0, ^bb2
      %1 = arith.cmpi slt, %0, %c32 : index
      cf.cond_br %1, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      memref.store %arg1, %arg0[%0] : memref<32xf32>
      %2 = arith.addi %0, %c1 : index
      cf.br ^bb1(%2 : index)
    ^bb3:  // pred: ^bb1
      return
    }
  }
  module @other {
    func.func @copy(%arg0: memref<16xf32>, %arg1: memref<16xf32>) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      cf.br ^bb1(%c0 : index)
    ^bb1(%0: index):  // 2 preds: ^bb0, ^bb2
      %1 = arith.cmpi slt, %0, %c16 : index
      cf.cond_br %1, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %2 = memref.load %arg0[%0] : memref<16xf32>
      memref.store %2, %arg1[%0] : memref<16xf32>
      %3 = arith.addi %0, %c1 : index
      cf.br ^bb1(%3 : index)
    ^bb3:  // pred: ^bb1
      return
    }
  }
}


