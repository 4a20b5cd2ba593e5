// topk.glsl - the kernels of top-k selection and ranking (src/algo/topk*.c, src/algo/rank.c).
// Each kernel is built from the "key" helper section followed by its own section; the last function
// is the kernel, as the kernel contract requires. Every comparison is made on order keys (uint), never
// on floats: exact for every float, and immune to a driver that flushes denormals to zero.
//
// Order key: a uint that sorts as the float does. Negatives have all their bits flipped, non-negatives
// only the sign bit. -0.0 is mapped to +0.0's key (they are one value), and every NaN to 0xFFFFFFFF,
// above +inf (as torch.topk orders them). `flip` (0 or -1) turns "largest first" into "smallest first".
// Chunked kernels give each invocation a contiguous run of constants.chunk elements (fast image reads
// on llvmpipe; notes/platform.md) and loop at most that many times (the 65,535-iteration budget).

//@ key
uint topk_key(float value, int flip)
{
    uint b = floatBitsToUint(value);
    if ((b & 0x7FFFFFFFu) > 0x7F800000u)
        return 0xFFFFFFFFu ^ uint(flip);
    if (b == 0x80000000u)
        b = 0u;
    uint key = (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u);
    return key ^ uint(flip);
}

// Does (key a, index ia) come before (key b, index ib)? Larger keys first, then lower indices;
// index -1 (padding) comes after everything.
bool topk_before(uint a, int ia, uint b, int ib)
{
    if (ia < 0)
        return false;
    if (ib < 0)
        return true;
    return a > b || (a == b && ia < ib);
}

//@ count_at_least
// Cell c: how many elements of chunk c have a key >= cand (bisection over the key bits).
int topkCountAtLeast(float v[], int n, int cand, int flip)
{
    uint c = uint(cand);
    int base = thread.x * constants.chunk;
    int hits = 0;
    for (int i = 0; i < constants.chunk; i++) {
        int idx = base + i;
        if (idx >= n)
            break;
        if (topk_key(v[idx], flip) >= c)
            hits++;
    }
    return hits;
}

//@ count_vs_cutoff
// Cell c: how many elements of chunk c have a key > cutoff (equal == 0), or == cutoff (equal == 1).
int topkCountVsCutoff(float v[], int n, int cutoff, int flip, int equal)
{
    uint t = uint(cutoff);
    int base = thread.x * constants.chunk;
    int hits = 0;
    for (int i = 0; i < constants.chunk; i++) {
        int idx = base + i;
        if (idx >= n)
            break;
        uint key = topk_key(v[idx], flip);
        if (equal == 0 ? key > t : key == t)
            hits++;
    }
    return hits;
}

//@ sum_chunks
// Cell c: the sum of counts[c * chunk ...] (a reduction level: reads past the end are 0).
int topkSumChunks(int counts[], int m)
{
    int base = thread.x * constants.chunk;
    int total = 0;
    for (int i = 0; i < constants.chunk; i++) {
        if (base + i >= m)
            break;
        total += counts[base + i];
    }
    return total;
}

//@ exclusive_prefix
// Cell c: the sum of counts[0 .. c-1], from the totals of whole blocks before c's block and the counts
// before c inside it. Loops at most (m / block) + block times.
int topkExclusivePrefix(int counts[], int blockTotals[])
{
    int c = thread.x;
    int b = c / constants.block;
    int total = 0;
    for (int i = 0; i < b; i++)
        total += blockTotals[i];
    for (int i = b * constants.block; i < c; i++)
        total += counts[i];
    return total;
}

