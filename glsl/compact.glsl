// compact.glsl - the kernels of the prefix sum (src/algo/scan.c) and of stream compaction
// (src/algo/compact.c); sections start at "//@ name". $T is the element type (float or int).

//@ scan_block_sums
// The sum of block thread.x (BLOCK consecutive values; reads past the end give 0): one level up the
// multi-level scan. A block is 4 texels read contiguously, the fast way to read on llvmpipe.
const int BLOCK = $BLOCK;
$T scanBlockSums($T v[])
{
    int first = thread.x * BLOCK;
    $T sum = $T(0);
    for (int j = 0; j < BLOCK; j++)
        sum += v[first + j];
    return sum;
}

//@ scan_block
// Element thread.x of the prefix sum: its block's offset (from the level above) plus the values
// before it in its block, and itself too when inclusive is set.
const int BLOCK = $BLOCK;
$T scanBlock($T v[], $T offsets[], int inclusive)
{
    int i = thread.x;
    int first = i - i % BLOCK;
    int end = i + inclusive;
    $T sum = offsets[i / BLOCK];
    for (int j = 0; j < BLOCK; j++)
        if (first + j < end)
            sum += v[first + j];
    return sum;
}

//@ flags_threshold
// 1 where the value passes `value $OP threshold`, else 0.
int compactFlag($T v[], $T threshold)
{
    return v[thread.x] $OP threshold ? 1 : 0;
}

//@ flags_nonzero
// A user predicate's result as a 0/1 flag (any nonzero result keeps the value).
int compactNonzero($T keep[])
{
    return keep[thread.x] != $T(0) ? 1 : 0;
}

//@ count
// How many survive: the last running count.
int compactCount(int running[], int n)
{
    return running[n - 1];
}

//@ gather
// Survivor thread.x is the first element whose running count (inclusive prefix sum of the flags)
// exceeds thread.x: a lower-bound binary search, as the seed's gather does. 31 halvings cover any n
// below 2^31, so the loop is far inside llvmpipe's iteration budget.
$T compactGather($T v[], int running[], int n)
{
    int x = thread.x;
    int lo = 0, hi = n;
    for (int step = 0; step < 31 && lo < hi; step++) {
        int mid = (lo + hi) >> 1;
        if (running[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return v[lo];
}

//@ scatter
// Scatter form: one invocation per input element; a survivor writes itself to its slot, the running
// count before it (outputIndex left at -1 writes nothing).
$T compactScatter($T v[], int flags[], int running[])
{
    int i = thread.x;
    if (flags[i] != 0)
        outputIndex = running[i] - 1;
    return v[i];
}
