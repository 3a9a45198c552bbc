// -----// IR Dump After SCFToControlFlow (convert-scf-to-cf) ('builtin.module' operation) //----- //
module {
  func.func @top(%arg0: memref<64x64xf32>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c8 = arith.constant 8 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb11
    %1 = arith.cmpi slt, %0, %c64 : index
    cf.cond_br %1, ^bb2, ^bb12
  ^bb2:  // pred: ^bb1
    %c0_0 = arith.constant 0 : index
    %c64_1 = arith.constant 64 : index
    %c8_2 = arith.constant 8 : index
    cf.br ^bb3(%c0_0 : index)
  ^bb3(%2: index):  // 2 preds: ^bb2, ^bb10
    %3 = arith.cmpi slt, %2, %c64_1 : index
    cf.cond_br %3, ^bb4, ^bb11
  ^bb4:  // pred: ^bb3
    %c8_3 = arith.constant 8 : index
    %4 = arith.addi %0, %c8_3 : index
    %c1 = arith.constant 1 : index
    cf.br ^bb5(%0 : index)
  ^bb5(%5: index):  // 2 preds: ^bb4, ^bb9
    %6 = arith.cmpi slt, %5, %4 : index
    cf.cond_br %6, ^bb6, ^bb10
  ^bb6:  // pred: ^bb5
    %c8_4 = arith.constant 8 : index
    %7 = arith.addi %2, %c8_4 : index
    %c1_5 = arith.constant 1 : index
    cf.br ^bb7(%2 : index)
  ^bb7(%8: index):  // 2 preds: ^bb6, ^bb8
    %9 = arith.cmpi slt, %8, %7 : index
    cf.cond_br %9, ^bb8, ^bb9
  ^bb8:  // pred: ^bb7
    %10 = memref.load %arg0[%5, %8] : memref<64x64xf32>
    %11 = arith.addf %10, %10 : f32
    memref.store %11, %arg0[%5, %8] : memref<64x64xf32>
    %12 = arith.addi %8, %c1_5 : index
    cf.br ^bb7(%12 : index)
  ^bb9:  // pred: ^bb7
    %13 = arith.addi %5, %c1 : index
    cf.br ^bb5(%13 : index)
  ^bb10:  // pred: ^bb5
    %14 = arith.addi %2, %c8_2 : index
    cf.br ^bb3(%14 : index)
  ^bb11:  // pred: ^bb3
    %15 = arith.addi %0, %c8 : index
    cf.br ^bb1(%15 : index)
  ^bb12:  // pred: ^bb1
    return
  }
  module @inner {
    func.func @matmul(%arg0: memref<32x32xf32>, %arg1: memref<32x32xf32>, %arg2: memref<32x32xf32>) {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c1 = arith.constant 1 : index
      cf.br ^bb1(%c0 : index)
    ^bb1(%0: index):  // 2 preds: ^bb0, ^bb8
      %1 = arith.cmpi slt, %0, %c32 : index
      cf.cond_br %1, ^bb2, ^bb9
    ^bb2:  // pred: ^bb1
      cf.br ^bb3(%c0 : index)
    ^bb3(%2: index):  // 2 preds: ^bb2, ^bb7
      %3 = arith.cmpi slt, %2, %c32 : index
      cf.cond_br %3, ^bb4, ^bb8
    ^bb4:  // pred: ^bb3
      cf.br ^bb5(%c0 : index)
    ^bb5(%4: index):  // 2 preds: ^bb4, ^bb6
      %5 = arith.cmpi slt, %4, %c32 : index
      cf.cond_br %5, ^bb6, ^bb7
    ^bb6:  // pred: ^bb5
      %6 = memref.load %arg0[%0, %4] : memref<32x32xf32>
      %7 = memref.load %arg1[%4, %2] : memref<32x32xf32>
      %8 = memref.load %arg2[%0, %2] : memref<32x32xf32>
      %9 = arith.mulf %6, %7 : f32
      %10 = arith.addf %8, %9 : f32
      memref.store %10, %arg2[%0, %2] : memref<32x32xf32>
      %11 = arith.addi %4, %c1 : index
      cf.br ^bb5(%11 : index)
    ^bb7:  // pred: ^bb5
      %12 = arith.addi %2, %c1 : index
      cf.br ^bb3(%12 : index)
    ^bb8:  // pred: ^bb3
      %13 = arith.addi %0, %c1 : index
      cf.br ^bb1(%13 : index)
    ^bb9:  // pred: ^bb1
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


