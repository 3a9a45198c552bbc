// -----// IR Dump After CSEPass: cse //----- //
util.func private @__scale_memoize_apply() -> !hal.command_buffer attributes {inlining_policy = #util.inline.never} {
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c-1_i64 = arith.constant -1 : i64
  %__device_0 = util.global.load immutable @__device_0 : !hal.device
  %__device_0_executable_0_input_linked_vmvx = util.global.load immutable @__device_0_executable_0_input_linked_vmvx : !hal.executable
  %cmd = hal.command_buffer.create device(%__device_0 : !hal.device) mode("None") categories("Transfer|Dispatch") affinity(%c-1_i64) bindings(%c2) : !hal.command_buffer
  %function_id = hal.executable.lookup.function target(%__device_0_executable_0_input_linked_vmvx : !hal.executable) function(@input_linked_vmvx::@vmvx_bytecode_fb::@scale_dispatch_0_elementwise_8_f32) : i64
  hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%__device_0_executable_0_input_linked_vmvx : !hal.executable)[%function_id] workgroups([%c1, %c1, %c1]) bindings([
    (%c0 : index)[%c0, %c32], 
    (%c1 : index)[%c0, %c32]
  ]) flags("None")
  hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer") flags("None")
  hal.command_buffer.finalize<%cmd : !hal.command_buffer>
  util.return %cmd : !hal.command_buffer
}

