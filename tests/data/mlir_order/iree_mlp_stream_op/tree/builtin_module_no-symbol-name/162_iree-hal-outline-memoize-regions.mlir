// -----// IR Dump After OutlineMemoizeRegionsPass: iree-hal-outline-memoize-regions //----- //
#executable_target_vmvx_bytecode_fb = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#device_target_local = #hal.device.target<"local", [#executable_target_vmvx_bytecode_fb]> : !hal.device
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
    %__device_0 = util.global.load immutable @__device_0 : !hal.device
    %c-1_i64 = arith.constant -1 : i64
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
}


