// compact.glsl - the kernels of the prefix sum (src/algo/scan.c) and of stream compaction
// (src/algo/compact_count.c, compact_place.c); sections start at "//@ name". $T is the element type
// (float or int).

// Compaction evaluates FLAGS, the predicate of the four elements of texel tx (a comparison of the
// values with a threshold, or a user predicate's results being nonzero; its parameters are PARAMS)
// once, into one 32-bit mask per block of 32 elements. Float values are compared by their order
// keys (order_key), never as floats: fragment shaders on llvmpipe compare denormals as zero. The
// masks' bit counts are scanned (exclusive: the survivors before each block), and survivors placed
// by block, then by rank in the block's mask.

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
// $LOAD (in sum_term and scan_top) is what a value adds: itself, or at compaction's bottom level
// bitCount, the survivors of a block's mask.
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

//@ scan_top
// Element thread.x of the prefix sum of a level short enough to add up from its start (at most TOP
// values): the top of the multi-level scan, one pass where a tree of 16-value blocks would take
// several. The bound TOP is written into the loop, so it needs no guard against llvmpipe's budget.
const int TOP = $TOP;
$T scanTop($T v[], int inclusive)
{
    int end = thread.x + inclusive;
    $T sum = $T(0);
    for (int j = 0; j < TOP && j < end; j++)
        sum += $LOAD(v[j]);
    return sum;
}

//@ sum_term
    sum += first + $K < end ? $LOAD(v[first + $K]) : $T(0);

//@ order_key
// Order keys of four floats: ints whose signed order is the floats' order, -0.0 and +0.0 one key
// (0), denormals keys of their own. Only bits move (floatBitsToInt), so no backend flushes anything.
// NaN is unordered, as in C: compactOrdered is 0 where either side is NaN (NaN's key is never used;
// a NaN threshold arrives as COMPACT_NAN_KEY, above every ordered key). Flags are ints 0 / 1, so
// that they combine with & and | (a bvec4 has no && in GLSL).
const int COMPACT_NAN_KEY = 0x7fffffff;
ivec4 compactKeys(vec4 x)
{
    ivec4 b = floatBitsToInt(x);
    ivec4 m = b & 0x7fffffff;
    ivec4 s = b >> 31; // -1 for a negative float, else 0: (m ^ s) - s is then -m, else m
    return (m ^ s) - s;
}
ivec4 compactOrdered(vec4 x, int thresholdKey)
{
    return ivec4(lessThanEqual(floatBitsToInt(x) & 0x7fffffff, ivec4(0x7f800000))) &
           ivec4(thresholdKey != COMPACT_NAN_KEY);
}
// 1 for each of texel tx's elements that exists (index below n): reads past the end give 0, which
// might pass the predicate.
ivec4 compactInRange(int tx, int n)
{
    return ivec4(lessThan(ivec4(4 * tx) + ivec4(0, 1, 2, 3), ivec4(n)));
}

//@ float_flags
// x OP threshold, as C compares floats: only ordered values pass.
ivec4 compactFloatFlags(vec4 x, int thresholdKey)
{
    return compactOrdered(x, thresholdKey) & ivec4($OPFN(compactKeys(x), ivec4(thresholdKey)));
}

//@ float_flags_not_equal
// x != threshold, as C compares floats: NaN on either side passes.
ivec4 compactFloatFlags(vec4 x, int thresholdKey)
{
    return (ivec4(1) - compactOrdered(x, thresholdKey)) | ivec4(notEqual(compactKeys(x), ivec4(thresholdKey)));
}

//@ nonzero_flags
// Nonzero as C tests it, on bits: -0.0 is zero, NaN and denormals are not.
ivec4 compactNonzero(vec4 x) { return ivec4(notEqual(floatBitsToInt(x) & 0x7fffffff, ivec4(0))); }
ivec4 compactNonzero(ivec4 x) { return ivec4(notEqual(x, ivec4(0))); }

//@ block_masks
// The flags of block thread.x as bits: bit j set when element 32 * thread.x + j survives. The only
// place the predicate is evaluated. The block's 8 texels are written out (MASK_TERMS), not looped
// over: a kernel without loops computes several cells per invocation, far cheaper on llvmpipe.
int compactBlockMasks($PARAMS)
{
    int first = thread.x * 8;
    int mask = 0;
$MASK_TERMS
    return mask;
}

//@ mask_term
    {
        int tx = first + $K;
        ivec4 f = ($FLAGS) & compactInRange(tx, n);
        mask |= (f.x | f.y << 1 | f.z << 2 | f.w << 3) << (4 * $K);
    }

//@ count
// How many survive: the survivors before the last block and in it.
int compactCount(int before[], int masks[], int blocks)
{
    return before[blocks - 1] + bitCount(masks[blocks - 1]);
}

//@ gather_starts
// The block holding survivor `group` * thread.x (the last survivor's block for groups past the count):
// the last block with fewer survivors before it, found by binary search over the blocks' counts of
// survivors before them, done once per `group` output cells, which then search only from their
// group's block to the next group's.
int compactGatherStarts(int before[], int blocks, int survivors, int group)
{
    int x = min(thread.x * group, survivors - 1);
    int lo = 0, hi = blocks;
    for (int step = 0; step < 31 && lo < hi; step++) {
        int mid = (lo + hi) >> 1;
        if (before[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo - 1;
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

//@ select
// The position of the survivor of rank `rank` (0 = the first) in a block's mask, by halving: how
// many survive in the lower half decides which half holds it.
int compactSelect(int mask, int rank)
{
    int pos = 0;
    int below = bitCount(mask & 0xffff);
    pos += rank >= below ? 16 : 0;
    rank -= rank >= below ? below : 0;
    below = bitCount((mask >> pos) & 0xff);
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
    return pos;
}

//@ gather
// Gather form: survivor thread.x lies in the last block with at most thread.x survivors before it,
// at its rank within that block's mask. The block is found from the group's starting block by
// halving steps of a fixed range, without branches (SEARCH: STEPS steps of 2^(STEPS-1) ... 1 blocks,
// enough for the widest group), written out because a kernel without loops computes several cells
// per invocation, which on llvmpipe costs far less than one each. Groups are 2^groupShift cells (a
// uniform: the driver sizes them to the density, so the steps stay few). Cells past the count are 0.
$T compactGather($T v[], int masks[], int before[], int starts[], int blocks, int survivors, int groupShift)
{
    int x = thread.x;
    if (x >= survivors)
        return $T(0);
    int b = starts[x >> groupShift];
$SEARCH
    return v[b * 32 + compactSelect(masks[b], x - before[b])];
}

//@ search_step
    {
        int probe = b + $STRIDE;
        b = probe < blocks && before[probe] <= x ? probe : b;
    }

//@ scatter
// Scatter form: one invocation per element, and every output cell written exactly once (so the
// output needs no clearing first): a survivor writes itself to its slot, the survivors before its
// block plus those before it in the block; a dropped element writes 0 at `survivors` plus the
// dropped elements before it, which fills the tail of a full-length output in order and lands past
// the end of an exact one (writing nothing).
$T compactScatter($T v[], int masks[], int before[], int survivors)
{
    int i = thread.x;
    int b = i >> 5, j = i & 31;
    int mask = masks[b];
    int slot = before[b] + bitCount(uint(mask) & ((1u << j) - 1u));
    bool kept = ((mask >> j) & 1) != 0;
    outputIndex = kept ? slot : survivors + (i - slot);
    return kept ? v[i] : $T(0);
}
