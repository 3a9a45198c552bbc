// -----// IR Dump After ConvertAsyncToLLVMPass (convert-async-to-llvm) ('builtin.module' operation) //----- //
module {
  llvm.func @free(!llvm.ptr)
  llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
  func.func private @sink(memref<?xf32>)
  func.func @par(%arg0: memref<?xf32>, %arg1: index) {
    %true = arith.constant true
    %c32 = arith.constant 32 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %0 = arith.cmpi eq, %arg1, %c0 : index
    scf.if %0 {
    } else {
      %1 = arith.ceildivsi %arg1, %c32 : index
      %2 = arith.maxsi %1, %c1000 : index
      %3 = arith.minsi %arg1, %2 : index
      %4 = arith.ceildivsi %arg1, %3 : index
      %5 = arith.cmpi eq, %4, %c1 : index
      scf.if %5 {
        func.call @parallel_compute_fn_0(%c0, %3, %arg1, %c0, %arg1, %c1, %arg0) : (index, index, index, index, index, index, memref<?xf32>) -> ()
      } else {
        %6 = arith.subi %4, %c1 : index
        %7 = builtin.unrealized_conversion_cast %6 : index to i64
        %8 = func.call @mlirAsyncRuntimeCreateGroup(%7) : (i64) -> !llvm.ptr
        %c1_i64 = arith.constant 1 : i64
        func.call @mlirAsyncRuntimeAddRef(%8, %c1_i64) : (!llvm.ptr, i64) -> ()
        func.call @async_dispatch_fn_0(%8, %c0, %4, %3, %arg1, %c0, %arg1, %c1, %arg0) : (!llvm.ptr, index, index, index, index, index, index, index, memref<?xf32>) -> ()
        func.call @mlirAsyncRuntimeAwaitAllInGroup(%8) : (!llvm.ptr) -> ()
        %9 = func.call @mlirAsyncRuntimeIsGroupError(%8) : (!llvm.ptr) -> i1
        %c1_i64_0 = arith.constant 1 : i64
        func.call @mlirAsyncRuntimeDropRef(%8, %c1_i64_0) : (!llvm.ptr, i64) -> ()
        %10 = arith.xori %9, %true : i1
        cf.assert %10, "Awaited async operand is in error state"
      }
    }
    call @sink(%arg0) : (memref<?xf32>) -> ()
    return
  }
  func.func @par2(%arg0: memref<?x?xf32>, %arg1: index, %arg2: index) {
    %true = arith.constant true
    %c32 = arith.constant 32 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %0 = arith.muli %arg1, %arg2 : index
    %1 = arith.cmpi eq, %0, %c0 : index
    scf.if %1 {
    } else {
      %2 = arith.ceildivsi %0, %c32 : index
      %3 = arith.maxsi %2, %c1000 : index
      %4 = arith.minsi %0, %3 : index
      %5 = arith.ceildivsi %0, %4 : index
      %6 = arith.cmpi eq, %5, %c1 : index
      scf.if %6 {
        func.call @parallel_compute_fn(%c0, %4, %arg1, %arg2, %c0, %c0, %arg1, %arg2, %c1, %c1, %arg0) : (index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> ()
      } else {
        %7 = arith.subi %5, %c1 : index
        %8 = builtin.unrealized_conversion_cast %7 : index to i64
        %9 = func.call @mlirAsyncRuntimeCreateGroup(%8) : (i64) -> !llvm.ptr
        %c1_i64 = arith.constant 1 : i64
        func.call @mlirAsyncRuntimeAddRef(%9, %c1_i64) : (!llvm.ptr, i64) -> ()
        func.call @async_dispatch_fn(%9, %c0, %5, %4, %arg1, %arg2, %c0, %c0, %arg1, %arg2, %c1, %c1, %arg0) : (!llvm.ptr, index, index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> ()
        func.call @mlirAsyncRuntimeAwaitAllInGroup(%9) : (!llvm.ptr) -> ()
        %10 = func.call @mlirAsyncRuntimeIsGroupError(%9) : (!llvm.ptr) -> i1
        %c1_i64_0 = arith.constant 1 : i64
        func.call @mlirAsyncRuntimeDropRef(%9, %c1_i64_0) : (!llvm.ptr, i64) -> ()
        %11 = arith.xori %10, %true : i1
        cf.assert %11, "Awaited async operand is in error state"
      }
    }
    return
  }
  func.func private @parallel_compute_fn(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index, %arg10: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = arith.muli %arg2, %arg3 : index
    %1 = arith.muli %arg0, %arg1 : index
    %2 = arith.addi %1, %arg1 : index
    %3 = arith.minsi %2, %0 : index
    %4 = arith.subi %3, %c1 : index
    %5 = arith.remsi %1, %arg3 : index
    %6 = arith.divsi %1, %arg3 : index
    %7 = arith.remsi %6, %arg2 : index
    %8 = arith.remsi %4, %arg3 : index
    %9 = arith.divsi %4, %arg3 : index
    %10 = arith.remsi %9, %arg2 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.addi %8, %c1 : index
    scf.for %arg11 = %7 to %11 step %c1 {
      %13 = arith.cmpi eq, %arg11, %7 : index
      %14 = arith.cmpi eq, %arg11, %10 : index
      %15 = arith.select %13, %5, %c0 : index
      %16 = arith.select %14, %12, %arg3 : index
      scf.for %arg12 = %15 to %16 step %c1 {
        %17 = memref.load %arg10[%arg11, %arg12] : memref<?x?xf32>
        %18 = arith.mulf %17, %17 : f32
        memref.store %18, %arg10[%arg11, %arg12] : memref<?x?xf32>
      }
    }
    return
  }
  func.func private @async_dispatch_fn(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: memref<?x?xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = scf.while (%arg13 = %arg2) : (index) -> index {
      %1 = arith.subi %arg13, %arg1 : index
      %2 = arith.cmpi sgt, %1, %c1 : index
      scf.condition(%2) %arg13 : index
    } do {
    ^bb0(%arg13: index):
      %1 = arith.subi %arg13, %arg1 : index
      %2 = arith.divsi %1, %c2 : index
      %3 = arith.addi %arg1, %2 : index
      %c1_i64_0 = arith.constant 1 : i64
      func.call @mlirAsyncRuntimeAddRef(%arg0, %c1_i64_0) : (!llvm.ptr, i64) -> ()
      %4 = func.call @async_execute_fn(%arg0, %3, %arg13, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12) : (!llvm.ptr, index, index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> !llvm.ptr
      %5 = func.call @mlirAsyncRuntimeAddTokenToGroup(%4, %arg0) : (!llvm.ptr, !llvm.ptr) -> i64
      %c1_i64_1 = arith.constant 1 : i64
      func.call @mlirAsyncRuntimeDropRef(%4, %c1_i64_1) : (!llvm.ptr, i64) -> ()
      scf.yield %3 : index
    }
    %c1_i64 = arith.constant 1 : i64
    call @mlirAsyncRuntimeDropRef(%arg0, %c1_i64) : (!llvm.ptr, i64) -> ()
    call @parallel_compute_fn(%arg1, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12) : (index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> ()
    return
  }
  func.func private @parallel_compute_fn_0(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: memref<?xf32>) {
    %cst = arith.constant 1.000000e+00 : f32
    %c1 = arith.constant 1 : index
    %0 = arith.muli %arg0, %arg1 : index
    %1 = arith.addi %0, %arg1 : index
    %2 = arith.minsi %1, %arg2 : index
    %3 = arith.subi %2, %c1 : index
    %4 = arith.remsi %0, %arg2 : index
    %5 = arith.remsi %3, %arg2 : index
    %6 = arith.addi %5, %c1 : index
    scf.for %arg7 = %4 to %6 step %c1 {
      %7 = memref.load %arg6[%arg7] : memref<?xf32>
      %8 = arith.addf %7, %cst : f32
      memref.store %8, %arg6[%arg7] : memref<?xf32>
    }
    return
  }
  func.func private @async_dispatch_fn_0(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = scf.while (%arg9 = %arg2) : (index) -> index {
      %1 = arith.subi %arg9, %arg1 : index
      %2 = arith.cmpi sgt, %1, %c1 : index
      scf.condition(%2) %arg9 : index
    } do {
    ^bb0(%arg9: index):
      %1 = arith.subi %arg9, %arg1 : index
      %2 = arith.divsi %1, %c2 : index
      %3 = arith.addi %arg1, %2 : index
      %c1_i64_0 = arith.constant 1 : i64
      func.call @mlirAsyncRuntimeAddRef(%arg0, %c1_i64_0) : (!llvm.ptr, i64) -> ()
      %4 = func.call @async_execute_fn_0(%arg0, %3, %arg9, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (!llvm.ptr, index, index, index, index, index, index, index, memref<?xf32>) -> !llvm.ptr
      %5 = func.call @mlirAsyncRuntimeAddTokenToGroup(%4, %arg0) : (!llvm.ptr, !llvm.ptr) -> i64
      %c1_i64_1 = arith.constant 1 : i64
      func.call @mlirAsyncRuntimeDropRef(%4, %c1_i64_1) : (!llvm.ptr, i64) -> ()
      scf.yield %3 : index
    }
    %c1_i64 = arith.constant 1 : i64
    call @mlirAsyncRuntimeDropRef(%arg0, %c1_i64) : (!llvm.ptr, i64) -> ()
    call @parallel_compute_fn_0(%arg1, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (index, index, index, index, index, index, memref<?xf32>) -> ()
    return
  }
  func.func private @async_execute_fn(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: memref<?x?xf32>) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
    %0 = call @mlirAsyncRuntimeCreateToken() : () -> !llvm.ptr
    %1 = llvm.mlir.constant(0 : i32) : i32
    %2 = llvm.mlir.zero : !llvm.ptr
    %3 = llvm.intr.coro.id %1, %2, %2, %2 : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
    %4 = llvm.intr.coro.size : i64
    %5 = llvm.intr.coro.align : i64
    %6 = llvm.add %4, %5 : i64
    %7 = llvm.mlir.constant(1 : i64) : i64
    %8 = llvm.sub %6, %7 : i64
    %9 = llvm.mlir.constant(0 : i64) : i64
    %10 = llvm.sub %9, %5 : i64
    %11 = llvm.and %8, %10  : i64
    %12 = llvm.call @aligned_alloc(%5, %11) : (i64, i64) -> !llvm.ptr
    %13 = llvm.intr.coro.begin %3, %12 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    %14 = llvm.intr.coro.save %13 : (!llvm.ptr) -> !llvm.token
    %15 = llvm.mlir.addressof @__resume : !llvm.ptr
    call @mlirAsyncRuntimeExecute(%13, %15) : (!llvm.ptr, !llvm.ptr) -> ()
    %16 = llvm.mlir.constant(false) : i1
    %17 = llvm.intr.coro.suspend %14, %16 : i8
    %18 = llvm.sext %17 : i8 to i32
    llvm.switch %18 : i32, ^bb3 [
      0: ^bb1,
      1: ^bb2
    ]
  ^bb1:  // pred: ^bb0
    call @async_dispatch_fn(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12) : (!llvm.ptr, index, index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> ()
    call @mlirAsyncRuntimeEmplaceToken(%0) : (!llvm.ptr) -> ()
    %19 = llvm.intr.coro.free %3, %13 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    llvm.call @free(%19) : (!llvm.ptr) -> ()
    cf.br ^bb3
  ^bb2:  // pred: ^bb0
    %20 = llvm.intr.coro.free %3, %13 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    llvm.call @free(%20) : (!llvm.ptr) -> ()
    cf.br ^bb3
  ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
    %21 = llvm.mlir.constant(false) : i1
    %22 = llvm.mlir.none : !llvm.token
    %23 = llvm.intr.coro.end %13, %21, %22 : (!llvm.ptr, i1, !llvm.token) -> i1
    return %0 : !llvm.ptr
  }
  func.func private @async_execute_fn_0(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: memref<?xf32>) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]} {
    %0 = call @mlirAsyncRuntimeCreateToken() : () -> !llvm.ptr
    %1 = llvm.mlir.constant(0 : i32) : i32
    %2 = llvm.mlir.zero : !llvm.ptr
    %3 = llvm.intr.coro.id %1, %2, %2, %2 : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> !llvm.token
    %4 = llvm.intr.coro.size : i64
    %5 = llvm.intr.coro.align : i64
    %6 = llvm.add %4, %5 : i64
    %7 = llvm.mlir.constant(1 : i64) : i64
    %8 = llvm.sub %6, %7 : i64
    %9 = llvm.mlir.constant(0 : i64) : i64
    %10 = llvm.sub %9, %5 : i64
    %11 = llvm.and %8, %10  : i64
    %12 = llvm.call @aligned_alloc(%5, %11) : (i64, i64) -> !llvm.ptr
    %13 = llvm.intr.coro.begin %3, %12 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    %14 = llvm.intr.coro.save %13 : (!llvm.ptr) -> !llvm.token
    %15 = llvm.mlir.addressof @__resume : !llvm.ptr
    call @mlirAsyncRuntimeExecute(%13, %15) : (!llvm.ptr, !llvm.ptr) -> ()
    %16 = llvm.mlir.constant(false) : i1
    %17 = llvm.intr.coro.suspend %14, %16 : i8
    %18 = llvm.sext %17 : i8 to i32
    llvm.switch %18 : i32, ^bb3 [
      0: ^bb1,
      1: ^bb2
    ]
  ^bb1:  // pred: ^bb0
    call @async_dispatch_fn_0(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (!llvm.ptr, index, index, index, index, index, index, index, memref<?xf32>) -> ()
    call @mlirAsyncRuntimeEmplaceToken(%0) : (!llvm.ptr) -> ()
    %19 = llvm.intr.coro.free %3, %13 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    llvm.call @free(%19) : (!llvm.ptr) -> ()
    cf.br ^bb3
  ^bb2:  // pred: ^bb0
    %20 = llvm.intr.coro.free %3, %13 : (!llvm.token, !llvm.ptr) -> !llvm.ptr
    llvm.call @free(%20) : (!llvm.ptr) -> ()
    cf.br ^bb3
  ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
    %21 = llvm.mlir.constant(false) : i1
    %22 = llvm.mlir.none : !llvm.token
    %23 = llvm.intr.coro.end %13, %21, %22 : (!llvm.ptr, i1, !llvm.token) -> i1
    return %0 : !llvm.ptr
  }
  func.func private @mlirAsyncRuntimeAddRef(!llvm.ptr, i64)
  func.func private @mlirAsyncRuntimeDropRef(!llvm.ptr, i64)
  func.func private @mlirAsyncRuntimeCreateToken() -> !llvm.ptr
  func.func private @mlirAsyncRuntimeCreateValue(i64) -> !llvm.ptr
  func.func private @mlirAsyncRuntimeCreateGroup(i64) -> !llvm.ptr
  func.func private @mlirAsyncRuntimeEmplaceToken(!llvm.ptr)
  func.func private @mlirAsyncRuntimeEmplaceValue(!llvm.ptr)
  func.func private @mlirAsyncRuntimeSetTokenError(!llvm.ptr)
  func.func private @mlirAsyncRuntimeSetValueError(!llvm.ptr)
  func.func private @mlirAsyncRuntimeIsTokenError(!llvm.ptr) -> i1
  func.func private @mlirAsyncRuntimeIsValueError(!llvm.ptr) -> i1
  func.func private @mlirAsyncRuntimeIsGroupError(!llvm.ptr) -> i1
  func.func private @mlirAsyncRuntimeAwaitToken(!llvm.ptr)
  func.func private @mlirAsyncRuntimeAwaitValue(!llvm.ptr)
  func.func private @mlirAsyncRuntimeAwaitAllInGroup(!llvm.ptr)
  func.func private @mlirAsyncRuntimeExecute(!llvm.ptr, !llvm.ptr)
  func.func private @mlirAsyncRuntimeGetValueStorage(!llvm.ptr) -> !llvm.ptr
  func.func private @mlirAsyncRuntimeAddTokenToGroup(!llvm.ptr, !llvm.ptr) -> i64
  func.func private @mlirAsyncRuntimeAwaitTokenAndExecute(!llvm.ptr, !llvm.ptr, !llvm.ptr)
  func.func private @mlirAsyncRuntimeAwaitValueAndExecute(!llvm.ptr, !llvm.ptr, !llvm.ptr)
  func.func private @mlirAsyncRuntimeAwaitAllInGroupAndExecute(!llvm.ptr, !llvm.ptr, !llvm.ptr)
  func.func private @mlirAsyncRuntimGetNumWorkerThreads() -> index
  llvm.func @__resume(%arg0: !llvm.ptr) attributes {sym_visibility = "private"} {
    llvm.intr.coro.resume %arg0 : !llvm.ptr
    llvm.return
  }
}


