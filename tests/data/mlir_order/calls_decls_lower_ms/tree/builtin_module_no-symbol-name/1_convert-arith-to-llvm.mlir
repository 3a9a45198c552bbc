// -----// IR Dump After ArithToLLVMConversionPass (convert-arith-to-llvm) ('builtin.module' operation) //----- //
module {
  func.func private @ext_b(f32) -> f32
  func.func private @ext_a(f32) -> f32
  func.func private @zeta(%arg0: f32) -> f32 {
    %0 = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %1 = llvm.fmul %arg0, %0  : f32
    %2 = llvm.fadd %1, %1  : f32
    return %2 : f32
  }
  func.func @beta(%arg0: f32) -> f32 {
    %0 = call @zeta(%arg0) : (f32) -> f32
    %1 = call @ext_a(%0) : (f32) -> f32
    return %1 : f32
  }
  func.func private @ext_c(f32) -> f32
  func.func @alpha(%arg0: f32) -> f32 {
    %0 = llvm.mlir.constant(1.000000e+00 : f32) : f32
    %1 = llvm.fadd %arg0, %0  : f32
    %2 = call @ext_b(%1) : (f32) -> f32
    %3 = llvm.fmul %2, %1  : f32
    return %3 : f32
  }
  func.func @gamma(%arg0: f32) -> f32 {
    %0 = call @beta(%arg0) : (f32) -> f32
    %1 = call @ext_c(%0) : (f32) -> f32
    return %1 : f32
  }
}


