// -----// IR Dump After CanonicalizerPass: canonicalize{cse-between-iterations=false    max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true} //----- //
util.func public @mlp(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @mlp(%input0: tensor<4x16xf32>) -> (%output0: tensor<4x8xf32>)"}} {
  %c8 = arith.constant 8 : index
  %c-1_i32 = arith.constant -1 : i32
  %c0_i64 = arith.constant 0 : i64
  %0 = util.null : !hal.fence
  %c-1_i64 = arith.constant -1 : i64
  %c128 = arith.constant 128 : index
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %c256 = arith.constant 256 : index
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %element_type_f32 = hal.element_type<f32> : i32
  %dense_row_major = hal.encoding_type<dense_row_major> : i32
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4, %c16]) type(%element_type_f32) encoding(%dense_row_major)
  %buffer = hal.buffer_view.buffer<%arg0 : !hal.buffer_view> : !hal.buffer
  %__device_0 = util.global.load immutable @__device_0 : !hal.device
  %allocator = hal.device.allocator<%__device_0 : !hal.device> : !hal.allocator
  hal.buffer.assert<%buffer : !hal.buffer> message("tensor") allocator(%allocator : !hal.allocator) minimum_length(%c256) type(DeviceVisible) usage("TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage")
  %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@__device_0>) lifetime(external) : i32, i32
  %__device_0_0 = util.global.load immutable @__device_0 : !hal.device
  %fence = hal.fence.create device(%__device_0_0 : !hal.device) flags("None") : !hal.fence
  %transient_buffer = hal.device.queue.alloca<%__device_0_0 : !hal.device> affinity(%c-1_i64) wait(%0) signal(%fence) pool(%c0_i64) type(%memory_types) usage(%buffer_usage) flags("None") : !hal.buffer{%c128}
  %memory_types_1, %buffer_usage_2 = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@__device_0>) lifetime(transient) : i32, i32
  %__device_0_3 = util.global.load immutable @__device_0 : !hal.device
  %fence_4 = hal.fence.create device(%__device_0_3 : !hal.device) flags("None") : !hal.fence
  %transient_buffer_5 = hal.device.queue.alloca<%__device_0_3 : !hal.device> affinity(%c-1_i64) wait(%0) signal(%fence_4) pool(%c0_i64) type(%memory_types_1) usage(%buffer_usage_2) flags("None") : !hal.buffer{%c512}
  %fence_6 = hal.fence.join at([%fence, %fence_4]) flags("None") -> !hal.fence
  %__device_0_7 = util.global.load immutable @__device_0 : !hal.device
  %1 = util.call @__mlp_memoize_lookup(%__device_0_7, %c-1_i64) : (!hal.device, i64) -> !hal.command_buffer
  %fence_8 = hal.fence.create device(%__device_0_7 : !hal.device) flags("None") : !hal.fence
  hal.device.queue.execute.indirect<%__device_0_7 : !hal.device> affinity(%c-1_i64) wait(%fence_6) signal(%fence_8) commands(%1) bindings([
    (%buffer : !hal.buffer)[%c0, %c256], 
    (%transient_buffer : !hal.buffer)[%c0, %c128], 
    (%transient_buffer_5 : !hal.buffer)[%c0, %c512]
  ]) flags("None")
  %__device_0_9 = util.global.load immutable @__device_0 : !hal.device
  %fence_10 = hal.fence.create device(%__device_0_9 : !hal.device) flags("None") : !hal.fence
  hal.device.queue.dealloca<%__device_0_9 : !hal.device> affinity(%c-1_i64) wait(%fence_8) signal(%fence_10) buffer(%transient_buffer_5 : !hal.buffer) flags("None")
  %status = hal.fence.await until([%fence_10]) timeout_millis(%c-1_i32) flags("None") : i32
  util.status.check_ok %status, "failed to wait on timepoint"
  %dense_row_major_11 = hal.encoding_type<dense_row_major> : i32
  %element_type_f32_12 = hal.element_type<f32> : i32
  %view = hal.buffer_view.create buffer(%transient_buffer : !hal.buffer)[%c0, %c128] shape([%c4, %c8]) type(%element_type_f32_12) encoding(%dense_row_major_11) : !hal.buffer_view
  util.return %view : !hal.buffer_view
}

