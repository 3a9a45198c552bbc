// -----// IR Dump After AsyncRuntimeRefCounting (async-runtime-ref-counting) ('builtin.module' operation) //----- //
module {
  func.func private @sink(memref<?xf32>)
  func.func @par(%arg0: memref<?xf32>, %arg1: index) {
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
        %7 = async.runtime.create_group %6 : !async.group
        async.runtime.add_ref %7 {count = 1 : i64} : !async.group
        func.call @async_dispatch_fn_0(%7, %c0, %4, %3, %arg1, %c0, %arg1, %c1, %arg0) : (!async.group, index, index, index, index, index, index, index, memref<?xf32>) -> ()
        async.runtime.await %7 : !async.group
        %8 = async.runtime.is_error %7 : !async.group
        async.runtime.drop_ref %7 {count = 1 : i64} : !async.group
        %true = arith.constant true
        %9 = arith.xori %8, %true : i1
        cf.assert %9, "Awaited async operand is in error state"
      }
    }
    call @sink(%arg0) : (memref<?xf32>) -> ()
    return
  }
  func.func @par2(%arg0: memref<?x?xf32>, %arg1: index, %arg2: index) {
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
        %8 = async.runtime.create_group %7 : !async.group
        async.runtime.add_ref %8 {count = 1 : i64} : !async.group
        func.call @async_dispatch_fn(%8, %c0, %5, %4, %arg1, %arg2, %c0, %c0, %arg1, %arg2, %c1, %c1, %arg0) : (!async.group, index, index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> ()
        async.runtime.await %8 : !async.group
        %9 = async.runtime.is_error %8 : !async.group
        async.runtime.drop_ref %8 {count = 1 : i64} : !async.group
        %true = arith.constant true
        %10 = arith.xori %9, %true : i1
        cf.assert %10, "Awaited async operand is in error state"
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
  func.func private @async_dispatch_fn(%arg0: !async.group, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: memref<?x?xf32>) {
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
      async.runtime.add_ref %arg0 {count = 1 : i64} : !async.group
      %4 = func.call @async_execute_fn(%arg0, %3, %arg13, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12) : (!async.group, index, index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> !async.token
      %5 = async.runtime.add_to_group %4, %arg0 : !async.token
      async.runtime.drop_ref %4 {count = 1 : i64} : !async.token
      scf.yield %3 : index
    }
    async.runtime.drop_ref %arg0 {count = 1 : i64} : !async.group
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
  func.func private @async_dispatch_fn_0(%arg0: !async.group, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: memref<?xf32>) {
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
      async.runtime.add_ref %arg0 {count = 1 : i64} : !async.group
      %4 = func.call @async_execute_fn_0(%arg0, %3, %arg9, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (!async.group, index, index, index, index, index, index, index, memref<?xf32>) -> !async.token
      %5 = async.runtime.add_to_group %4, %arg0 : !async.token
      async.runtime.drop_ref %4 {count = 1 : i64} : !async.token
      scf.yield %3 : index
    }
    async.runtime.drop_ref %arg0 {count = 1 : i64} : !async.group
    call @parallel_compute_fn_0(%arg1, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (index, index, index, index, index, index, memref<?xf32>) -> ()
    return
  }
  func.func private @async_execute_fn(%arg0: !async.group, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: memref<?x?xf32>) -> !async.token attributes {passthrough = ["presplitcoroutine"]} {
    %0 = async.runtime.create : !async.token
    %1 = async.coro.id
    %2 = async.coro.begin %1
    %3 = async.coro.save %2
    async.runtime.resume %2
    async.coro.suspend %3, ^bb4, ^bb1, ^bb3
  ^bb1:  // pred: ^bb0
    async.runtime.add_ref %arg0 {count = 1 : i64} : !async.group
    call @async_dispatch_fn(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12) : (!async.group, index, index, index, index, index, index, index, index, index, index, index, memref<?x?xf32>) -> ()
    async.runtime.drop_ref %arg0 {count = 1 : i64} : !async.group
    async.runtime.set_available %0 : !async.token
    cf.br ^bb2
  ^bb2:  // pred: ^bb1
    async.coro.free %1, %2
    cf.br ^bb4
  ^bb3:  // pred: ^bb0
    async.coro.free %1, %2
    cf.br ^bb4
  ^bb4:  // 3 preds: ^bb0, ^bb2, ^bb3
    async.coro.end %2
    return %0 : !async.token
  }
  func.func private @async_execute_fn_0(%arg0: !async.group, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: memref<?xf32>) -> !async.token attributes {passthrough = ["presplitcoroutine"]} {
    %0 = async.runtime.create : !async.token
    %1 = async.coro.id
    %2 = async.coro.begin %1
    %3 = async.coro.save %2
    async.runtime.resume %2
    async.coro.suspend %3, ^bb4, ^bb1, ^bb3
  ^bb1:  // pred: ^bb0
    async.runtime.add_ref %arg0 {count = 1 : i64} : !async.group
    call @async_dispatch_fn_0(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8) : (!async.group, index, index, index, index, index, index, index, memref<?xf32>) -> ()
    async.runtime.drop_ref %arg0 {count = 1 : i64} : !async.group
    async.runtime.set_available %0 : !async.token
    cf.br ^bb2
  ^bb2:  // pred: ^bb1
    async.coro.free %1, %2
    cf.br ^bb4
  ^bb3:  // pred: ^bb0
    async.coro.free %1, %2
    cf.br ^bb4
  ^bb4:  // 3 preds: ^bb0, ^bb2, ^bb3
    async.coro.end %2
    return %0 : !async.token
  }
}


