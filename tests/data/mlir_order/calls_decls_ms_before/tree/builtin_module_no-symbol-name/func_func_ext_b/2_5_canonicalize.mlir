// -----// IR Dump After Canonicalizer (canonicalize) ('func.func' operation: @ext_b) //----- //
module {
  func.func private @ext_b(f32) -> f32
  func.func private @ext_a(f32) -> f32
  func.func @beta(%arg0: f32) -> f32 {
    %cst = arith.constant 2.000000e+00 : f32
    %0 = arith.mulf %arg0, %cst : f32
    %1 = arith.addf %0, %0 : f32
    %2 = call @ext_a(%1) : (f32) -> f32
    return %2 : f32
  }
  func.func private @ext_c(f32) -> f32
  func.func @alpha(%arg0: f32) -> f32 {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = arith.addf %arg0, %cst : f32
    %1 = call @ext_b(%0) : (f32) -> f32
    %2 = arith.mulf %1, %0 : f32
    return %2 : f32
  }
  func.func @gamma(%arg0: f32) -> f32 {
    %cst = arith.constant 2.000000e+00 : f32
    %0 = arith.mulf %arg0, %cst : f32
    %1 = arith.addf %0, %0 : f32
    %2 = call @ext_a(%1) : (f32) -> f32
    %3 = call @ext_c(%2) : (f32) -> f32
    return %3 : f32
  }
}


