// compact.glsl - the kernels of the prefix sum (src/algo/scan.c) and of stream compaction
// (src/algo/compact.c); sections start at "//@ name". $T is the element type (float or int).

// Compaction evaluates FLAG, the predicate of element i (`i < n && v[i] > threshold`, or
// `i < n && keep[i] != 0` over a user predicate's results; its parameters are PARAMS) once, into
// one bit mask per block of BLOCK elements. Float values are compared by their order keys
// (order_key), never as floats: fragment shaders on llvmpipe compare denormals as zero. The masks' bit counts are scanned (inclusive: the
// running count at each block's end), and survivors placed by block, then by rank in the mask.

//@ scan_block_sums
// The sum of block thread.x (BLOCK consecutive values; reads past the end give 0): one level up the
// multi-level scan. A block is whole texels read contiguously, the fast way to read on llvmpipe.
// The block's terms are written out (SUM_TERMS, one `sum_term` per value) rather than looped over:
// a kernel without loops computes several cells per invocation, far cheaper on llvmpipe.
const int BLOCK = $BLOCK;
$T scanBlockSums($T v[])
{
    int first = thread.x * BLOCK;
    int end = first + BLOCK;
    $T sum = $T(0);
$SUM_TERMS
    return sum;
}

//@ scan_block
// Element thread.x of the prefix sum: its block's offset (from the level above) plus the values
// before it in its block, and itself too when inclusive is set (terms written out as above).
const int BLOCK = $BLOCK;
$T scanBlock($T v[], $T offsets[], int inclusive)
{
    int i = thread.x;
    int first = i - i % BLOCK;
    int end = i + inclusive;
    $T sum = offsets[i / BLOCK];
$SUM_TERMS
    return sum;
}

//@ sum_term
    sum += first + $K < end ? v[first + $K] : $T(0);

//@ order_key
// A float's order key: an int whose signed order is the float's order, -0.0 and +0.0 one key (0),
// denormals keys of their own. Only bits move (floatBitsToInt), so no backend flushes anything.
// NaN is unordered, as in C: compactOrdered is false when either side is NaN (NaN's key is never
// computed; a NaN threshold arrives as COMPACT_NAN_KEY, above every ordered key).
const int COMPACT_NAN_KEY = 0x7fffffff;
int compactKey(float x)
{
    int b = floatBitsToInt(x);
    int m = b & 0x7fffffff;
    return b < 0 ? -m : m;
}
bool compactOrdered(float x, int thresholdKey)
{
    return (floatBitsToInt(x) & 0x7fffffff) <= 0x7f800000 && thresholdKey != COMPACT_NAN_KEY;
}
// Nonzero as C tests it, on bits: -0.0 is zero, NaN and denormals are not.
bool compactNonzero(float x) { return (floatBitsToInt(x) & 0x7fffffff) != 0; }
bool compactNonzero(int x) { return x != 0; }

//@ block_masks
// The flags of block thread.x as bits: bit j set when element thread.x * BLOCK + j survives. The
// only place the predicate is evaluated; a constant loop without branches, which llvmpipe unrolls.
const int BLOCK = $BLOCK;
int compactBlockMasks($PARAMS)
{
    int first = thread.x * BLOCK;
    int mask = 0;
    for (int j = 0; j < BLOCK; j++) {
        int i = first + j;
        mask |= ($FLAG) ? 1 << j : 0;
    }
    return mask;
}

//@ block_counts
// How many elements of a block survive.
int compactBlockCounts(int masks[])
{
    return bitCount(masks[thread.x]);
}

//@ count
// How many survive: the last running count.
int compactCount(int running[], int blocks)
{
    return running[blocks - 1];
}

//@ gather_starts
// The block holding survivor GROUP * thread.x (`blocks` past the count): a lower-bound binary
// search over the running counts, done once per GROUP output cells, which then search only between
// their group's start and the next group's.
const int GROUP = $GROUP;
int compactGatherStarts(int running[], int blocks)
{
    int x = thread.x * GROUP;
    int lo = 0, hi = blocks;
    for (int step = 0; step < 31 && lo < hi; step++) {
        int mid = (lo + hi) >> 1;
        if (running[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

//@ span_partial
// The widest group span (blocks between one group's start and the next's) among this cell's share
// of the groups: the gather's search needs only as many halvings as the widest span. A fixed output
// size (a program per context, not per count); each cell loops over at most 2^15 groups, a bound
// written into the loop so that it needs no guard against llvmpipe's loop budget.
const int MOST_GROUPS_PER_CELL = 32768;
int compactSpanPartial(int starts[], int groups)
{
    int share = (groups + outputSize.x - 1) / outputSize.x;
    int first = thread.x * share;
    int widest = 0;
    for (int j = 0; j < MOST_GROUPS_PER_CELL && j < share; j++)
        if (first + j < groups)
            widest = max(widest, starts[first + j + 1] - starts[first + j]);
    return widest;
}

//@ span_max
// The widest of the $SPAN_PARTIALS partial spans.
const int PARTIALS = $SPAN_PARTIALS;
int compactSpanMax(int partial[], int count)
{
    int widest = 0;
    for (int j = 0; j < PARTIALS && j < count; j++)
        widest = max(widest, partial[j]);
    return widest;
}

//@ gather
// Gather form: survivor thread.x lies in the first block whose running count exceeds thread.x
// (a lower-bound binary search, as the seed's gather does, but over blocks and only between its
// group's bounds), at rank thread.x minus the survivors before that block, found in the block's
// mask by halving. Cells past the count find no block and return 0. The search is written out step
// by step (SEARCH: as many halvings as the block count needs) because a kernel without loops
// computes several cells per invocation, which on llvmpipe costs far less than one each.
const int GROUP = $GROUP;
const int BLOCK = $BLOCK;
$T compactGather($T v[], int masks[], int running[], int starts[], int blocks)
{
    int x = thread.x;
    int g = x / GROUP;
    int lo = starts[g], hi = min(starts[g + 1] + 1, blocks);
    int mid;
$SEARCH
    if (lo >= blocks)
        return $T(0);
    int rank = x - (lo > 0 ? running[lo - 1] : 0);
    int mask = masks[lo];
    int pos = 0;
    int below = bitCount(mask & 0xff);
    pos += rank >= below ? 8 : 0;
    rank -= rank >= below ? below : 0;
    below = bitCount((mask >> pos) & 0xf);
    pos += rank >= below ? 4 : 0;
    rank -= rank >= below ? below : 0;
    below = bitCount((mask >> pos) & 0x3);
    pos += rank >= below ? 2 : 0;
    rank -= rank >= below ? below : 0;
    below = (mask >> pos) & 1;
    pos += rank >= below ? 1 : 0;
    return v[lo * BLOCK + pos];
}

//@ search_step
    mid = (lo + hi) >> 1;
    if (lo < hi) {
        if (running[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }

//@ scatter
// Scatter form: one invocation per element; a survivor writes itself to its slot, the survivors
// before its block plus those before it in the block (outputIndex left at -1 writes nothing).
const int BLOCK = $BLOCK;
$T compactScatter($T v[], int masks[], int running[])
{
    int self = thread.x;
    int block = self / BLOCK, j = self % BLOCK;
    int mask = masks[block];
    if (((mask >> j) & 1) != 0)
        outputIndex = (block > 0 ? running[block - 1] : 0) + bitCount(mask & ((1 << j) - 1));
    return v[self];
}
