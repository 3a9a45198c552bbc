// -----// IR Dump After CanonicalizePass: iree-flow-canonicalize{cse-constants=true test-convergence=false} ('util.func' operation: @mlp) //----- //
#executable_target_vmvx_bytecode_fb = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "none"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#device_target_local = #hal.device.target<"local", [#executable_target_vmvx_bytecode_fb]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  flow.executable private @mlp_dispatch_0 {
    // body left out of the test corpus
  }
  flow.executable private @mlp_dispatch_1 {
    // body left out of the test corpus
  }
  util.func public @mlp(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @mlp(%input0: tensor<4x16xf32>) -> (%output0: tensor<4x8xf32>)"}} {
    // body left out of the test corpus
  }
  flow.executable private @scale_dispatch_0 {
    // body left out of the test corpus
  }
  util.func public @scale(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @scale(%input0: tensor<8xf32>) -> (%output0: tensor<8xf32>)"}} {
    // body left out of the test corpus
  }
}


