// -----// IR Dump After Canonicalizer (canonicalize) ('builtin.module' operation) //----- //
module {
  llvm.func @softmax_rows(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i64, %arg10: i64, %arg11: i64, %arg12: i64, %arg13: i64) {
    %0 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    %1 = llvm.mlir.constant(-3.40282347E+38 : f32) : f32
    %2 = llvm.mlir.constant(128 : index) : i64
    %3 = llvm.mlir.constant(16 : index) : i64
    %4 = llvm.mlir.constant(1 : index) : i64
    %5 = llvm.mlir.constant(0 : index) : i64
    llvm.br ^bb1(%5 : i64)
  ^bb1(%6: i64):  // 2 preds: ^bb0, ^bb11
    %7 = llvm.icmp "slt" %6, %3 : i64
    llvm.cond_br %7, ^bb2, ^bb12
  ^bb2:  // pred: ^bb1
    llvm.br ^bb3(%5, %1 : i64, f32)
  ^bb3(%8: i64, %9: f32):  // 2 preds: ^bb2, ^bb4
    %10 = llvm.icmp "slt" %8, %2 : i64
    llvm.cond_br %10, ^bb4, ^bb5
  ^bb4:  // pred: ^bb3
    %11 = llvm.mul %6, %2 : i64
    %12 = llvm.add %11, %8 : i64
    %13 = llvm.getelementptr %arg1[%12] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %14 = llvm.load %13 : !llvm.ptr -> f32
    %15 = llvm.intr.maximum(%9, %14)  : (f32, f32) -> f32
    %16 = llvm.add %8, %4 : i64
    llvm.br ^bb3(%16, %15 : i64, f32)
  ^bb5:  // pred: ^bb3
    llvm.br ^bb6(%5, %0 : i64, f32)
  ^bb6(%17: i64, %18: f32):  // 2 preds: ^bb5, ^bb7
    %19 = llvm.icmp "slt" %17, %2 : i64
    llvm.cond_br %19, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %20 = llvm.mul %6, %2 : i64
    %21 = llvm.add %20, %17 : i64
    %22 = llvm.getelementptr %arg1[%21] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %23 = llvm.load %22 : !llvm.ptr -> f32
    %24 = llvm.fsub %23, %9  : f32
    %25 = llvm.intr.exp(%24)  : (f32) -> f32
    %26 = llvm.mul %6, %2 : i64
    %27 = llvm.add %26, %17 : i64
    %28 = llvm.getelementptr %arg8[%27] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %25, %28 : f32, !llvm.ptr
    %29 = llvm.fadd %18, %25  : f32
    %30 = llvm.add %17, %4 : i64
    llvm.br ^bb6(%30, %29 : i64, f32)
  ^bb8:  // pred: ^bb6
    llvm.br ^bb9(%5 : i64)
  ^bb9(%31: i64):  // 2 preds: ^bb8, ^bb10
    %32 = llvm.icmp "slt" %31, %2 : i64
    llvm.cond_br %32, ^bb10, ^bb11
  ^bb10:  // pred: ^bb9
    %33 = llvm.mul %6, %2 : i64
    %34 = llvm.add %33, %31 : i64
    %35 = llvm.getelementptr %arg8[%34] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %36 = llvm.load %35 : !llvm.ptr -> f32
    %37 = llvm.fdiv %36, %18  : f32
    %38 = llvm.mul %6, %2 : i64
    %39 = llvm.add %38, %31 : i64
    %40 = llvm.getelementptr %arg8[%39] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %37, %40 : f32, !llvm.ptr
    %41 = llvm.add %31, %4 : i64
    llvm.br ^bb9(%41 : i64)
  ^bb11:  // pred: ^bb9
    %42 = llvm.add %6, %4 : i64
    llvm.br ^bb1(%42 : i64)
  ^bb12:  // pred: ^bb1
    llvm.return
  }
  llvm.func @unused_scale(%arg0: f32) -> f32 {
    %0 = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %1 = llvm.fmul %arg0, %0  : f32
    llvm.return %1 : f32
  }
}


