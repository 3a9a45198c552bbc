// -----// IR Dump After MemoizeDeviceQueriesPass: iree-hal-memoize-device-queries //----- //
#executable_target_vmvx_bytecode_fb = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "none"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#device_target_local = #hal.device.target<"local", [#executable_target_vmvx_bytecode_fb]> : !hal.device
module {
  hal.executable private @input_linked_vmvx {
    // body left out of the test corpus
  }
  util.global private @__device_0 = #device_target_local
  util.global private @__device_0_query_0_hal_executable_format_vmvx_bytecode_fb_ok : i1
  util.global private @__device_0_query_0_hal_executable_format_vmvx_bytecode_fb : i1
  util.initializer {
    %__device_0 = util.global.load @__device_0 : !hal.device
    %ok, %value = hal.device.query<%__device_0 : !hal.device> key("hal.executable.format" :: "vmvx-bytecode-fb") : i1, i1 = false
    util.global.store %ok, @__device_0_query_0_hal_executable_format_vmvx_bytecode_fb_ok : i1
    util.global.store %value, @__device_0_query_0_hal_executable_format_vmvx_bytecode_fb : i1
    util.return
  }
  util.global private @__device_0_executable_0_input_linked_vmvx : !hal.executable
  util.initializer {
    %__device_0 = util.global.load @__device_0 : !hal.device
    %c-1_i64 = arith.constant -1 : i64
    %__device_0_query_0_hal_executable_format_vmvx_bytecode_fb_ok = util.global.load @__device_0_query_0_hal_executable_format_vmvx_bytecode_fb_ok : i1
    %__device_0_query_0_hal_executable_format_vmvx_bytecode_fb = util.global.load @__device_0_query_0_hal_executable_format_vmvx_bytecode_fb : i1
    %c-1 = arith.constant -1 : index
    %c0 = arith.constant 0 : index
    %0 = arith.select %__device_0_query_0_hal_executable_format_vmvx_bytecode_fb, %c0, %c-1 : index
    %1 = scf.index_switch %0 -> !hal.executable 
    case 0 {
      %executable = hal.executable.create device(%__device_0 : !hal.device) affinity(%c-1_i64) target(@input_linked_vmvx::@vmvx_bytecode_fb) : !hal.executable
      scf.yield %executable : !hal.executable
    }
    default {
      %c14_i32 = arith.constant 14 : i32
      util.status.check_ok %c14_i32, "HAL device `__device_0` does not support any variant of executable `input_linked_vmvx`; available formats: [vmvx-bytecode-fb]"
      %2 = util.null : !hal.executable
      scf.yield %2 : !hal.executable
    }
    util.global.store %1, @__device_0_executable_0_input_linked_vmvx : !hal.executable
    util.return
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
}


