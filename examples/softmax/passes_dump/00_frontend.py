# pypto.program: SoftmaxProgram
import pypto.language as pl

@pl.program
class SoftmaxProgram:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:
        for i in pl.range(0, 64, 16):
            with pl.incore():
                t: pl.Tile[[16, 128], pl.FP32] = pl.load(x, [i, 0], [16, 128])
                m: pl.Tile[[16, 1], pl.FP32] = pl.row_max(t)
                e: pl.Tile[[16, 128], pl.FP32] = pl.exp(pl.sub(t, m))
                s: pl.Tile[[16, 1], pl.FP32] = pl.row_sum(e)
                y: pl.Tile[[16, 128], pl.FP32] = pl.div(e, s)
                out = pl.store(y, [i, 0], out)
        return out
