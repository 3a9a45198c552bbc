// -----// IR Dump After FinalizeMemRefToLLVMConversionPass (finalize-memref-to-llvm) ('builtin.module' operation) //----- //
module {
  func.func @softmax_rows(%arg0: memref<16x128xf32>, %arg1: memref<16x128xf32>) {
    %0 = builtin.unrealized_conversion_cast %arg1 : memref<16x128xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %1 = builtin.unrealized_conversion_cast %arg0 : memref<16x128xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %2 = llvm.mlir.constant(0 : index) : i64
    %3 = builtin.unrealized_conversion_cast %2 : i64 to index
    %4 = llvm.mlir.constant(1 : index) : i64
    %5 = llvm.mlir.constant(16 : index) : i64
    %6 = llvm.mlir.constant(128 : index) : i64
    %7 = llvm.mlir.constant(-3.40282347E+38 : f32) : f32
    %8 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    cf.br ^bb1(%3 : index)
  ^bb1(%9: index):  // 2 preds: ^bb0, ^bb11
    %10 = builtin.unrealized_conversion_cast %9 : index to i64
    %11 = builtin.unrealized_conversion_cast %9 : index to i64
    %12 = llvm.icmp "slt" %11, %5 : i64
    cf.cond_br %12, ^bb2, ^bb12
  ^bb2:  // pred: ^bb1
    cf.br ^bb3(%3, %7 : index, f32)
  ^bb3(%13: index, %14: f32):  // 2 preds: ^bb2, ^bb4
    %15 = builtin.unrealized_conversion_cast %13 : index to i64
    %16 = builtin.unrealized_conversion_cast %13 : index to i64
    %17 = llvm.icmp "slt" %16, %6 : i64
    cf.cond_br %17, ^bb4, ^bb5
  ^bb4:  // pred: ^bb3
    %18 = llvm.extractvalue %1[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %19 = llvm.mlir.constant(128 : index) : i64
    %20 = llvm.mul %10, %19 : i64
    %21 = llvm.add %20, %15 : i64
    %22 = llvm.getelementptr %18[%21] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %23 = llvm.load %22 : !llvm.ptr -> f32
    %24 = llvm.intr.maximum(%14, %23)  : (f32, f32) -> f32
    %25 = llvm.add %16, %4 : i64
    %26 = builtin.unrealized_conversion_cast %25 : i64 to index
    cf.br ^bb3(%26, %24 : index, f32)
  ^bb5:  // pred: ^bb3
    cf.br ^bb6(%3, %8 : index, f32)
  ^bb6(%27: index, %28: f32):  // 2 preds: ^bb5, ^bb7
    %29 = builtin.unrealized_conversion_cast %27 : index to i64
    %30 = builtin.unrealized_conversion_cast %27 : index to i64
    %31 = llvm.icmp "slt" %30, %6 : i64
    cf.cond_br %31, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %32 = llvm.extractvalue %1[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %33 = llvm.mlir.constant(128 : index) : i64
    %34 = llvm.mul %10, %33 : i64
    %35 = llvm.add %34, %29 : i64
    %36 = llvm.getelementptr %32[%35] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %37 = llvm.load %36 : !llvm.ptr -> f32
    %38 = llvm.fsub %37, %14  : f32
    %39 = llvm.intr.exp(%38)  : (f32) -> f32
    %40 = llvm.extractvalue %0[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %41 = llvm.mlir.constant(128 : index) : i64
    %42 = llvm.mul %10, %41 : i64
    %43 = llvm.add %42, %29 : i64
    %44 = llvm.getelementptr %40[%43] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %39, %44 : f32, !llvm.ptr
    %45 = llvm.fadd %28, %39  : f32
    %46 = llvm.add %30, %4 : i64
    %47 = builtin.unrealized_conversion_cast %46 : i64 to index
    cf.br ^bb6(%47, %45 : index, f32)
  ^bb8:  // pred: ^bb6
    cf.br ^bb9(%3 : index)
  ^bb9(%48: index):  // 2 preds: ^bb8, ^bb10
    %49 = builtin.unrealized_conversion_cast %48 : index to i64
    %50 = builtin.unrealized_conversion_cast %48 : index to i64
    %51 = llvm.icmp "slt" %50, %6 : i64
    cf.cond_br %51, ^bb10, ^bb11
  ^bb10:  // pred: ^bb9
    %52 = llvm.extractvalue %0[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %53 = llvm.mlir.constant(128 : index) : i64
    %54 = llvm.mul %10, %53 : i64
    %55 = llvm.add %54, %49 : i64
    %56 = llvm.getelementptr %52[%55] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %57 = llvm.load %56 : !llvm.ptr -> f32
    %58 = llvm.fdiv %57, %28  : f32
    %59 = llvm.extractvalue %0[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %60 = llvm.mlir.constant(128 : index) : i64
    %61 = llvm.mul %10, %60 : i64
    %62 = llvm.add %61, %49 : i64
    %63 = llvm.getelementptr %59[%62] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %58, %63 : f32, !llvm.ptr
    %64 = llvm.add %50, %4 : i64
    %65 = builtin.unrealized_conversion_cast %64 : i64 to index
    cf.br ^bb9(%65 : index)
  ^bb11:  // pred: ^bb9
    %66 = llvm.add %11, %4 : i64
    %67 = builtin.unrealized_conversion_cast %66 : i64 to index
    cf.br ^bb1(%67 : index)
  ^bb12:  // pred: ^bb1
    return
  }
  func.func @unused_scale(%arg0: f32) -> f32 {
    %0 = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %1 = llvm.fmul %arg0, %0  : f32
    return %1 : f32
  }
}


