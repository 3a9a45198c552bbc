// -----// IR Dump After Canonicalizer (canonicalize) ('builtin.module' operation) //----- //
module {
  llvm.func @ext_b(f32) -> f32 attributes {sym_visibility = "private"}
  llvm.func @ext_a(f32) -> f32 attributes {sym_visibility = "private"}
  llvm.func @zeta(%arg0: f32) -> f32 attributes {sym_visibility = "private"} {
    %0 = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %1 = llvm.fmul %arg0, %0  : f32
    %2 = llvm.fadd %1, %1  : f32
    llvm.return %2 : f32
  }
  llvm.func @beta(%arg0: f32) -> f32 {
    %0 = llvm.call @zeta(%arg0) : (f32) -> f32
    %1 = llvm.call @ext_a(%0) : (f32) -> f32
    llvm.return %1 : f32
  }
  llvm.func @ext_c(f32) -> f32 attributes {sym_visibility = "private"}
  llvm.func @alpha(%arg0: f32) -> f32 {
    %0 = llvm.mlir.constant(1.000000e+00 : f32) : f32
    %1 = llvm.fadd %arg0, %0  : f32
    %2 = llvm.call @ext_b(%1) : (f32) -> f32
    %3 = llvm.fmul %2, %1  : f32
    llvm.return %3 : f32
  }
  llvm.func @gamma(%arg0: f32) -> f32 {
    %0 = llvm.call @beta(%arg0) : (f32) -> f32
    %1 = llvm.call @ext_c(%0) : (f32) -> f32
    llvm.return %1 : f32
  }
}


