# pypto.program: SoftmaxProgram
import pypto.language as pl

@pl.program
class SoftmaxProgram:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:
        for i in pl.range(0, 64, 16):
            with pl.incore():
                t__ssa_v0: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [i, 0], [16, 128])
                m__ssa_v0: pl.Tile[[16, 1], pl.FP32] = pl.row_max(t__ssa_v0)
                e__ssa_v0: pl.Tile[[16, 128], pl.FP32] = pl.exp(pl.sub(t__ssa_v0, m__ssa_v0))
                s__ssa_v0: pl.Tile[[16, 1], pl.FP32] = pl.row_sum(e__ssa_v0)
                y__ssa_v0: pl.Tile[[16, 128], pl.FP32] = pl.div(e__ssa_v0, s__ssa_v0)
                out__ssa_v1 = pl.store(y__ssa_v0, [i, 0], out)
        return out__ssa_v1
