// -----// IR Dump After CanonicalizerPass: canonicalize{cse-between-iterations=false    max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true} ('func.func' operation: @mlp_dispatch_1_matmul_4x8x32_f32) //----- //
#executable_target_vmvx_bytecode_fb = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "none"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#device_target_local = #hal.device.target<"local", [#executable_target_vmvx_bytecode_fb]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  stream.executable private @mlp_dispatch_0 {
    stream.executable.export public @mlp_dispatch_0_matmul_4x32x16_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @mlp_dispatch_0_matmul_4x32x16_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %cst_0 = arith.constant dense<5.000000e-01> : tensor<16x32xf32>
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16xf32>> -> tensor<4x16xf32>
        %3 = tensor.empty() : tensor<4x32xf32>
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x32xf32>) -> tensor<4x32xf32>
        %5 = linalg.matmul ins(%2, %cst_0 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%4 : tensor<4x32xf32>) -> tensor<4x32xf32>
        %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<4x32xf32>) outs(%3 : tensor<4x32xf32>) {
        ^bb0(%in: f32, %out: f32):
          %7 = arith.maximumf %in, %cst : f32
          linalg.yield %7 : f32
        } -> tensor<4x32xf32>
        iree_tensor_ext.dispatch.tensor.store %6, %1, offsets = [0, 0], sizes = [4, 32], strides = [1, 1] : tensor<4x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32xf32>>
        return
      }
    }
  }
  stream.executable private @mlp_dispatch_1 {
    stream.executable.export public @mlp_dispatch_1_matmul_4x8x32_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @mlp_dispatch_1_matmul_4x8x32_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %cst_0 = arith.constant dense<2.500000e-01> : tensor<32x8xf32>
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x8xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32xf32>> -> tensor<4x32xf32>
        %3 = tensor.empty() : tensor<4x8xf32>
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x8xf32>) -> tensor<4x8xf32>
        %5 = linalg.matmul ins(%2, %cst_0 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%4 : tensor<4x8xf32>) -> tensor<4x8xf32>
        iree_tensor_ext.dispatch.tensor.store %5, %1, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : tensor<4x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x8xf32>>
        return
      }
    }
  }
  util.func public @mlp(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @mlp(%input0: tensor<4x16xf32>) -> (%output0: tensor<4x8xf32>)"}} {
    // body left out of the test corpus
  }
  stream.executable private @scale_dispatch_0 {
    stream.executable.export public @scale_dispatch_0_elementwise_8_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @scale_dispatch_0_elementwise_8_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
        %cst = arith.constant 3.000000e+00 : f32
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [8], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8xf32>> -> tensor<8xf32>
        %3 = tensor.empty() : tensor<8xf32>
        %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%2 : tensor<8xf32>) outs(%3 : tensor<8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %5 = arith.mulf %in, %cst : f32
          linalg.yield %5 : f32
        } -> tensor<8xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
        return
      }
    }
  }
  util.func public @scale(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @scale(%input0: tensor<8xf32>) -> (%output0: tensor<8xf32>)"}} {
    // body left out of the test corpus
  }
}


