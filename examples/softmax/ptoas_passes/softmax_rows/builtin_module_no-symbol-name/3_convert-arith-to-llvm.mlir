// -----// IR Dump After ArithToLLVMConversionPass (convert-arith-to-llvm) ('builtin.module' operation) //----- //
module {
  func.func @softmax_rows(%arg0: memref<16x128xf32>, %arg1: memref<16x128xf32>) {
    %0 = llvm.mlir.constant(0 : index) : i64
    %1 = builtin.unrealized_conversion_cast %0 : i64 to index
    %2 = llvm.mlir.constant(1 : index) : i64
    %3 = llvm.mlir.constant(16 : index) : i64
    %4 = llvm.mlir.constant(128 : index) : i64
    %5 = llvm.mlir.constant(-3.40282347E+38 : f32) : f32
    %6 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    cf.br ^bb1(%1 : index)
  ^bb1(%7: index):  // 2 preds: ^bb0, ^bb11
    %8 = builtin.unrealized_conversion_cast %7 : index to i64
    %9 = llvm.icmp "slt" %8, %3 : i64
    cf.cond_br %9, ^bb2, ^bb12
  ^bb2:  // pred: ^bb1
    cf.br ^bb3(%1, %5 : index, f32)
  ^bb3(%10: index, %11: f32):  // 2 preds: ^bb2, ^bb4
    %12 = builtin.unrealized_conversion_cast %10 : index to i64
    %13 = llvm.icmp "slt" %12, %4 : i64
    cf.cond_br %13, ^bb4, ^bb5
  ^bb4:  // pred: ^bb3
    %14 = memref.load %arg0[%7, %10] : memref<16x128xf32>
    %15 = llvm.intr.maximum(%11, %14)  : (f32, f32) -> f32
    %16 = llvm.add %12, %2 : i64
    %17 = builtin.unrealized_conversion_cast %16 : i64 to index
    cf.br ^bb3(%17, %15 : index, f32)
  ^bb5:  // pred: ^bb3
    cf.br ^bb6(%1, %6 : index, f32)
  ^bb6(%18: index, %19: f32):  // 2 preds: ^bb5, ^bb7
    %20 = builtin.unrealized_conversion_cast %18 : index to i64
    %21 = llvm.icmp "slt" %20, %4 : i64
    cf.cond_br %21, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %22 = memref.load %arg0[%7, %18] : memref<16x128xf32>
    %23 = llvm.fsub %22, %11  : f32
    %24 = llvm.intr.exp(%23)  : (f32) -> f32
    memref.store %24, %arg1[%7, %18] : memref<16x128xf32>
    %25 = llvm.fadd %19, %24  : f32
    %26 = llvm.add %20, %2 : i64
    %27 = builtin.unrealized_conversion_cast %26 : i64 to index
    cf.br ^bb6(%27, %25 : index, f32)
  ^bb8:  // pred: ^bb6
    cf.br ^bb9(%1 : index)
  ^bb9(%28: index):  // 2 preds: ^bb8, ^bb10
    %29 = builtin.unrealized_conversion_cast %28 : index to i64
    %30 = llvm.icmp "slt" %29, %4 : i64
    cf.cond_br %30, ^bb10, ^bb11
  ^bb10:  // pred: ^bb9
    %31 = memref.load %arg1[%7, %28] : memref<16x128xf32>
    %32 = llvm.fdiv %31, %19  : f32
    memref.store %32, %arg1[%7, %28] : memref<16x128xf32>
    %33 = llvm.add %29, %2 : i64
    %34 = builtin.unrealized_conversion_cast %33 : i64 to index
    cf.br ^bb9(%34 : index)
  ^bb11:  // pred: ^bb9
    %35 = llvm.add %8, %2 : i64
    %36 = builtin.unrealized_conversion_cast %35 : i64 to index
    cf.br ^bb1(%36 : index)
  ^bb12:  // pred: ^bb1
    return
  }
  func.func @unused_scale(%arg0: f32) -> f32 {
    %0 = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %1 = llvm.fmul %arg0, %0  : f32
    return %1 : f32
  }
}


