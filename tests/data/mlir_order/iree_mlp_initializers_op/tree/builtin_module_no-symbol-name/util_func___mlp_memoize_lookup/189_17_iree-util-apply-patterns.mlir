// -----// IR Dump After ApplyPatternsPass: iree-util-apply-patterns //----- //
util.func private @__mlp_memoize_lookup() -> !hal.command_buffer {
  %__mlp_memoize_result_0_device_0 = util.global.load immutable @__mlp_memoize_result_0_device_0 : !hal.command_buffer
  util.return %__mlp_memoize_result_0_device_0 : !hal.command_buffer
}

