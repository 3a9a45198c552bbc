// -----// IR Dump After ConvertFuncToLLVMPass (convert-func-to-llvm) ('builtin.module' operation) //----- //
module {
  llvm.func @softmax_rows(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i64, %arg10: i64, %arg11: i64, %arg12: i64, %arg13: i64) {
    %0 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %1 = llvm.insertvalue %arg7, %0[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %2 = llvm.insertvalue %arg8, %1[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %3 = llvm.insertvalue %arg9, %2[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %4 = llvm.insertvalue %arg10, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %5 = llvm.insertvalue %arg12, %4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %6 = llvm.insertvalue %arg11, %5[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %7 = llvm.insertvalue %arg13, %6[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %8 = builtin.unrealized_conversion_cast %7 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<16x128xf32>
    %9 = builtin.unrealized_conversion_cast %8 : memref<16x128xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %10 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %11 = llvm.insertvalue %arg0, %10[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %12 = llvm.insertvalue %arg1, %11[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %13 = llvm.insertvalue %arg2, %12[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %14 = llvm.insertvalue %arg3, %13[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %15 = llvm.insertvalue %arg5, %14[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %16 = llvm.insertvalue %arg4, %15[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %17 = llvm.insertvalue %arg6, %16[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %18 = builtin.unrealized_conversion_cast %17 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<16x128xf32>
    %19 = builtin.unrealized_conversion_cast %18 : memref<16x128xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %20 = builtin.unrealized_conversion_cast %8 : memref<16x128xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %21 = builtin.unrealized_conversion_cast %18 : memref<16x128xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %22 = llvm.mlir.constant(0 : index) : i64
    %23 = builtin.unrealized_conversion_cast %22 : i64 to index
    %24 = llvm.mlir.constant(1 : index) : i64
    %25 = llvm.mlir.constant(16 : index) : i64
    %26 = llvm.mlir.constant(128 : index) : i64
    %27 = llvm.mlir.constant(-3.40282347E+38 : f32) : f32
    %28 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    llvm.br ^bb1(%22 : i64)
  ^bb1(%29: i64):  // 2 preds: ^bb0, ^bb11
    %30 = builtin.unrealized_conversion_cast %29 : i64 to index
    %31 = builtin.unrealized_conversion_cast %30 : index to i64
    %32 = builtin.unrealized_conversion_cast %30 : index to i64
    %33 = llvm.icmp "slt" %32, %25 : i64
    llvm.cond_br %33, ^bb2, ^bb12
  ^bb2:  // pred: ^bb1
    llvm.br ^bb3(%22, %27 : i64, f32)
  ^bb3(%34: i64, %35: f32):  // 2 preds: ^bb2, ^bb4
    %36 = builtin.unrealized_conversion_cast %34 : i64 to index
    %37 = builtin.unrealized_conversion_cast %36 : index to i64
    %38 = builtin.unrealized_conversion_cast %36 : index to i64
    %39 = llvm.icmp "slt" %38, %26 : i64
    llvm.cond_br %39, ^bb4, ^bb5
  ^bb4:  // pred: ^bb3
    %40 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %41 = llvm.mlir.constant(128 : index) : i64
    %42 = llvm.mul %31, %41 : i64
    %43 = llvm.add %42, %37 : i64
    %44 = llvm.getelementptr %40[%43] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %45 = llvm.load %44 : !llvm.ptr -> f32
    %46 = llvm.intr.maximum(%35, %45)  : (f32, f32) -> f32
    %47 = llvm.add %38, %24 : i64
    %48 = builtin.unrealized_conversion_cast %47 : i64 to index
    llvm.br ^bb3(%47, %46 : i64, f32)
  ^bb5:  // pred: ^bb3
    llvm.br ^bb6(%22, %28 : i64, f32)
  ^bb6(%49: i64, %50: f32):  // 2 preds: ^bb5, ^bb7
    %51 = builtin.unrealized_conversion_cast %49 : i64 to index
    %52 = builtin.unrealized_conversion_cast %51 : index to i64
    %53 = builtin.unrealized_conversion_cast %51 : index to i64
    %54 = llvm.icmp "slt" %53, %26 : i64
    llvm.cond_br %54, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %55 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %56 = llvm.mlir.constant(128 : index) : i64
    %57 = llvm.mul %31, %56 : i64
    %58 = llvm.add %57, %52 : i64
    %59 = llvm.getelementptr %55[%58] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %60 = llvm.load %59 : !llvm.ptr -> f32
    %61 = llvm.fsub %60, %35  : f32
    %62 = llvm.intr.exp(%61)  : (f32) -> f32
    %63 = llvm.extractvalue %20[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %64 = llvm.mlir.constant(128 : index) : i64
    %65 = llvm.mul %31, %64 : i64
    %66 = llvm.add %65, %52 : i64
    %67 = llvm.getelementptr %63[%66] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %62, %67 : f32, !llvm.ptr
    %68 = llvm.fadd %50, %62  : f32
    %69 = llvm.add %53, %24 : i64
    %70 = builtin.unrealized_conversion_cast %69 : i64 to index
    llvm.br ^bb6(%69, %68 : i64, f32)
  ^bb8:  // pred: ^bb6
    llvm.br ^bb9(%22 : i64)
  ^bb9(%71: i64):  // 2 preds: ^bb8, ^bb10
    %72 = builtin.unrealized_conversion_cast %71 : i64 to index
    %73 = builtin.unrealized_conversion_cast %72 : index to i64
    %74 = builtin.unrealized_conversion_cast %72 : index to i64
    %75 = llvm.icmp "slt" %74, %26 : i64
    llvm.cond_br %75, ^bb10, ^bb11
  ^bb10:  // pred: ^bb9
    %76 = llvm.extractvalue %20[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %77 = llvm.mlir.constant(128 : index) : i64
    %78 = llvm.mul %31, %77 : i64
    %79 = llvm.add %78, %73 : i64
    %80 = llvm.getelementptr %76[%79] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %81 = llvm.load %80 : !llvm.ptr -> f32
    %82 = llvm.fdiv %81, %50  : f32
    %83 = llvm.extractvalue %20[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %84 = llvm.mlir.constant(128 : index) : i64
    %85 = llvm.mul %31, %84 : i64
    %86 = llvm.add %85, %73 : i64
    %87 = llvm.getelementptr %83[%86] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %82, %87 : f32, !llvm.ptr
    %88 = llvm.add %74, %24 : i64
    %89 = builtin.unrealized_conversion_cast %88 : i64 to index
    llvm.br ^bb9(%88 : i64)
  ^bb11:  // pred: ^bb9
    %90 = llvm.add %32, %24 : i64
    %91 = builtin.unrealized_conversion_cast %90 : i64 to index
    llvm.br ^bb1(%90 : i64)
  ^bb12:  // pred: ^bb1
    llvm.return
  }
  llvm.func @unused_scale(%arg0: f32) -> f32 {
    %0 = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %1 = llvm.fmul %arg0, %0  : f32
    llvm.return %1 : f32
  }
}


