// -----// IR Dump After SCFToControlFlow (convert-scf-to-cf) ('builtin.module' operation) //----- //
module {
  func.func @softmax_rows(%arg0: memref<16x128xf32>, %arg1: memref<16x128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %cst = arith.constant -3.40282347E+38 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb11
    %1 = arith.cmpi slt, %0, %c16 : index
    cf.cond_br %1, ^bb2, ^bb12
  ^bb2:  // pred: ^bb1
    cf.br ^bb3(%c0, %cst : index, f32)
  ^bb3(%2: index, %3: f32):  // 2 preds: ^bb2, ^bb4
    %4 = arith.cmpi slt, %2, %c128 : index
    cf.cond_br %4, ^bb4, ^bb5
  ^bb4:  // pred: ^bb3
    %5 = memref.load %arg0[%0, %2] : memref<16x128xf32>
    %6 = arith.maximumf %3, %5 : f32
    %7 = arith.addi %2, %c1 : index
    cf.br ^bb3(%7, %6 : index, f32)
  ^bb5:  // pred: ^bb3
    cf.br ^bb6(%c0, %cst_0 : index, f32)
  ^bb6(%8: index, %9: f32):  // 2 preds: ^bb5, ^bb7
    %10 = arith.cmpi slt, %8, %c128 : index
    cf.cond_br %10, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %11 = memref.load %arg0[%0, %8] : memref<16x128xf32>
    %12 = arith.subf %11, %3 : f32
    %13 = math.exp %12 : f32
    memref.store %13, %arg1[%0, %8] : memref<16x128xf32>
    %14 = arith.addf %9, %13 : f32
    %15 = arith.addi %8, %c1 : index
    cf.br ^bb6(%15, %14 : index, f32)
  ^bb8:  // pred: ^bb6
    cf.br ^bb9(%c0 : index)
  ^bb9(%16: index):  // 2 preds: ^bb8, ^bb10
    %17 = arith.cmpi slt, %16, %c128 : index
    cf.cond_br %17, ^bb10, ^bb11
  ^bb10:  // pred: ^bb9
    %18 = memref.load %arg1[%0, %16] : memref<16x128xf32>
    %19 = arith.divf %18, %9 : f32
    memref.store %19, %arg1[%0, %16] : memref<16x128xf32>
    %20 = arith.addi %16, %c1 : index
    cf.br ^bb9(%20 : index)
  ^bb11:  // pred: ^bb9
    %21 = arith.addi %0, %c1 : index
    cf.br ^bb1(%21 : index)
  ^bb12:  // pred: ^bb1
    return
  }
  func.func @unused_scale(%arg0: f32) -> f32 {
    %cst = arith.constant 2.000000e+00 : f32
    %0 = arith.mulf %arg0, %cst : f32
    return %0 : f32
  }
}


