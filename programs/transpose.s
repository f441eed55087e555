// transpose (CUDA's coalesced transpose): out = inᵀ for an n × n matrix, through a shared tile.
//   A 2-D grid of 2-D blocks: block (bx, by) moves the tile × tile square at rows by·tile…, columns bx·tile… of
//   `in` to rows bx·tile…, columns by·tile… of `out`. Its tile × rows threads (x = column) each move tile / rows
//   elements, so that a warp reads and writes whole row segments of global memory (coalesced):
//   1. load: thread (tx, ty) copies in[row by·tile + ty + j][column bx·tile + tx] to tile[ty + j][tx],
//      j = 0, rows, 2·rows, …;
//   2. a barrier waits for the whole tile;
//   3. store: thread (tx, ty) copies tile[tx][ty + j] to out[row bx·tile + ty + j][column by·tile + tx].
//   Step 3 reads a column of the tile: with rows of `tile` words, a warp's words are `tile` apart, all in one
//   bank when tile is a multiple of the 32 banks (a 32-way conflict). Padding each row to tile + 1 words puts
//   consecutive elements of a column in consecutive banks: no conflict. `--set pad=0` shows the difference.
// Elements past n (n not a multiple of the tile) are neither read nor written.
// Default: a 80 × 80 matrix of 0, 1, 2, … in 3 × 3 blocks of 32 × 8 threads.
.kernel transpose
.desc "2-D tiled transpose through a shared tile padded to tile+1 words a row (no bank conflicts; pad=0: conflicts)"
.param n = 80
.param tile = 32
.param rows = min(8, 2 * W)
.param pad = 1
.require n >= 1, "transpose needs a matrix of at least 1 × 1: --set n to 1 or more"
.require (tile >= 1) & (rows >= 1), "the tile and the block's rows are at least 1"
.require tile % rows == 0, "rows must divide the tile: each thread moves tile / rows elements"
.require pad >= 0, "the padding is 0 or more words a row"
.grid (n + tile - 1) / tile, (n + tile - 1) / tile
.block tile, rows
.buffer in  u32[n * n] = i
.buffer out u32[n * n]
.shared square u32[tile * (tile + pad)]
.reg %col, %row, %j, %k, %s, %v
.pred %inside, %p, %more

        // 1. Load: a row segment of `in` per warp, into a row of the tile.
        mad.lo.u32          %col, %ctaid.x, tile, %tid.x
        mov.u32             %j, 0
load:
        mad.lo.u32          %row, %ctaid.y, tile, %tid.y
        add.u32             %row, %row, %j
        setp.lt.u32         %inside, %col, n
        setp.lt.u32         %p, %row, n
        and.pred            %inside, %inside, %p
        mad.lo.u32          %k, %row, n, %col
        @%inside ld.global.u32 %v, in[%k]
        add.u32             %s, %tid.y, %j
        mad.lo.u32          %s, %s, (tile + pad), %tid.x
        @%inside st.shared.u32 square[%s], %v
        add.u32             %j, %j, rows
        setp.lt.u32         %more, %j, tile
        @%more bra          load
        // 2. The whole tile is loaded.
        bar.sync            0
        // 3. Store: a column of the tile per warp, to a row segment of `out` (the transposed block).
        mad.lo.u32          %col, %ctaid.y, tile, %tid.x
        mov.u32             %j, 0
store:
        mad.lo.u32          %row, %ctaid.x, tile, %tid.y
        add.u32             %row, %row, %j
        setp.lt.u32         %inside, %col, n
        setp.lt.u32         %p, %row, n
        and.pred            %inside, %inside, %p
        mad.lo.u32          %k, %row, n, %col
        add.u32             %s, %tid.y, %j
        mad.lo.u32          %s, %tid.x, (tile + pad), %s
        @%inside ld.shared.u32 %v, square[%s]
        @%inside st.global.u32 out[%k], %v
        add.u32             %j, %j, rows
        setp.lt.u32         %more, %j, tile
        @%more bra          store
