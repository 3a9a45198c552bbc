// -----// IR Dump After ApplyPatternsPass: iree-util-apply-patterns //----- //
util.func private @__mlp_memoize_apply(%arg0: !hal.device, %arg1: i64) -> !hal.command_buffer attributes {inlining_policy = #util.inline.never} {
  %c128 = arith.constant 128 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %c256 = arith.constant 256 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %__device_0_executable_0_input_linked_vmvx = util.global.load @__device_0_executable_0_input_linked_vmvx : !hal.executable
  %cmd = hal.command_buffer.create device(%arg0 : !hal.device) mode("None") categories("Transfer|Dispatch") affinity(%arg1) bindings(%c3) : !hal.command_buffer
  %function_id = hal.executable.lookup.function target(%__device_0_executable_0_input_linked_vmvx : !hal.executable) function(@input_linked_vmvx::@vmvx_bytecode_fb::@mlp_dispatch_0_matmul_4x32x16_f32) : i64
  hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%__device_0_executable_0_input_linked_vmvx : !hal.executable)[%function_id] workgroups([%c1, %c1, %c1]) bindings([
    (%c0 : index)[%c0, %c256], 
    (%c2 : index)[%c0, %c512]
  ]) flags("None")
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer") flags("None")
  %function_id_0 = hal.executable.lookup.function target(%__device_0_executable_0_input_linked_vmvx : !hal.executable) function(@input_linked_vmvx::@vmvx_bytecode_fb::@mlp_dispatch_1_matmul_4x8x32_f32) : i64
  hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%__device_0_executable_0_input_linked_vmvx : !hal.executable)[%function_id_0] workgroups([%c1, %c1, %c1]) bindings([
    (%c2 : index)[%c0, %c512], 
    (%c1 : index)[%c0, %c128]
  ]) flags("None")
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer") flags("None")
  hal.command_buffer.finalize<%cmd : !hal.command_buffer>
  util.return %cmd : !hal.command_buffer
}

