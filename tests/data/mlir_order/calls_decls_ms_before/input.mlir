
func.func private @ext_b(f32) -> f32
func.func private @ext_a(f32) -> f32
func.func private @zeta(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %0 = arith.mulf %x, %c : f32
  %1 = arith.mulf %x, %c : f32
  %2 = arith.addf %0, %1 : f32
  return %2 : f32
}
func.func @beta(%x: f32) -> f32 {
  %0 = func.call @zeta(%x) : (f32) -> f32
  %1 = func.call @ext_a(%0) : (f32) -> f32
  return %1 : f32
}
func.func private @ext_c(f32) -> f32
func.func @alpha(%x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %0 = arith.addf %x, %c : f32
  %1 = arith.addf %x, %c : f32
  %2 = func.call @ext_b(%0) : (f32) -> f32
  %3 = arith.mulf %2, %1 : f32
  return %3 : f32
}
func.func @gamma(%x: f32) -> f32 {
  %0 = func.call @beta(%x) : (f32) -> f32
  %1 = func.call @ext_c(%0) : (f32) -> f32
  return %1 : f32
}
