// -----// IR Dump After mlir::iree_compiler::detail::OpPipelineAdaptorPass: iree-op-pipeline-adaptor ('builtin.module' operation) //----- //
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module {
  util.global private @__device_0 = #device_target_local
  hal.executable private @mlp_dispatch_0 {
    // body left out of the test corpus
  }
  hal.executable private @mlp_dispatch_1 {
    // body left out of the test corpus
  }
  util.func private @__mlp_memoize_apply(%arg0: !hal.device, %arg1: i64) -> !hal.command_buffer attributes {inlining_policy = #util.inline.never} {
    // body left out of the test corpus
  }
  util.global private @__mlp_memoize_result_0_device_0 : !hal.command_buffer
  util.initializer {
    %c-1_i64 = arith.constant -1 : i64
    %__device_0 = util.global.load immutable @__device_0 : !hal.device
    %0 = util.call @__mlp_memoize_apply(%__device_0, %c-1_i64) : (!hal.device, i64) -> !hal.command_buffer
    util.global.store %0, @__mlp_memoize_result_0_device_0 : !hal.command_buffer
    util.return
  }
  util.func private @__mlp_memoize_lookup(%arg0: !hal.device, %arg1: i64) -> !hal.command_buffer {
    // body left out of the test corpus
  }
  util.func public @mlp(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @mlp(%input0: tensor<4x16xf32>) -> (%output0: tensor<4x8xf32>)"}} {
    // body left out of the test corpus
  }
  hal.executable private @scale_dispatch_0 {
    // body left out of the test corpus
  }
  util.func private @__scale_memoize_apply(%arg0: !hal.device, %arg1: i64) -> !hal.command_buffer attributes {inlining_policy = #util.inline.never} {
    // body left out of the test corpus
  }
  util.global private @__scale_memoize_result_0_device_0 : !hal.command_buffer
  util.initializer {
    %c-1_i64 = arith.constant -1 : i64
    %__device_0 = util.global.load immutable @__device_0 : !hal.device
    %0 = util.call @__scale_memoize_apply(%__device_0, %c-1_i64) : (!hal.device, i64) -> !hal.command_buffer
    util.global.store %0, @__scale_memoize_result_0_device_0 : !hal.command_buffer
    util.return
  }
  util.func private @__scale_memoize_lookup(%arg0: !hal.device, %arg1: i64) -> !hal.command_buffer {
    // body left out of the test corpus
  }
  util.func public @scale(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @scale(%input0: tensor<8xf32>) -> (%output0: tensor<8xf32>)"}} {
    // body left out of the test corpus
  }
}


