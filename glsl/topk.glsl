// topk.glsl - the kernels of top-k selection and ranking (src/algo/topk/, src/algo/rank.c).
// Each kernel is built from the "key" helper section followed by its own section; the last function
// is the kernel, as the kernel contract requires. Every comparison is made on order keys (uint), never
// on floats: exact for every float, and immune to a driver that flushes denormals to zero.
//
// Order key: a uint that sorts as the float does. Negatives have all their bits flipped, non-negatives
// only the sign bit. -0.0 is mapped to +0.0's key (they are one value), and every NaN to 0xFFFFFFFF,
// above +inf (as torch.topk orders them). `flip` (0 or -1) turns "largest first" into "smallest first".
// Chunked kernels read a contiguous run of constants.chunk elements per invocation (fast image reads on
// llvmpipe) and loop at most that many times (the 65,535-iteration budget).

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

// topk_key of four values at once (the same map: NaN highest, -0.0 as +0.0).
uvec4 topk_key4(vec4 x, int flip)
{
    uvec4 b = floatBitsToUint(x);
    b *= uvec4(notEqual(b, uvec4(0x80000000u)));
    uvec4 key = b ^ (uvec4(ivec4(b) >> 31) | 0x80000000u);
    key |= uvec4(greaterThan(b & 0x7FFFFFFFu, uvec4(0x7F800000u))) * 0xFFFFFFFFu;
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
// Cell c: how many elements of chunk c have a key >= cand (bisection over the key bits). One texel
// (four elements) per iteration, through the vec4 view of the float array.
int topkCountAtLeast(vec4 v[], int n, int cand, int flip)
{
    uvec4 c = uvec4(uint(cand));
    int base = thread.x * constants.chunk;
    uvec4 hits = uvec4(0);
    for (int q = 0; q < constants.chunk / 4; q++) {
        int idx = base + 4 * q;
        if (idx >= n)
            break;
        vec4 x = v[idx / 4];
        uvec4 keys = uvec4(topk_key(x.x, flip), topk_key(x.y, flip), topk_key(x.z, flip), topk_key(x.w, flip));
        bvec4 inside = lessThan(ivec4(idx) + ivec4(0, 1, 2, 3), ivec4(n));
        hits += uvec4(greaterThanEqual(keys, c)) * uvec4(inside);
    }
    return int(hits.x + hits.y + hits.z + hits.w);
}

//@ count_vs_cutoff
// Cell c: how many elements of chunk c have a key > cutoff (ties == 0), or == cutoff (ties == 1).
int topkCountVsCutoff(vec4 v[], int n, int cutoff, int flip, int ties)
{
    uvec4 t = uvec4(uint(cutoff));
    int base = thread.x * constants.chunk;
    uvec4 hits = uvec4(0);
    for (int q = 0; q < constants.chunk / 4; q++) {
        int idx = base + 4 * q;
        if (idx >= n)
            break;
        vec4 x = v[idx / 4];
        uvec4 keys = uvec4(topk_key(x.x, flip), topk_key(x.y, flip), topk_key(x.z, flip), topk_key(x.w, flip));
        bvec4 inside = lessThan(ivec4(idx) + ivec4(0, 1, 2, 3), ivec4(n));
        bvec4 hit = ties == 0 ? greaterThan(keys, t) : equal(keys, t);
        hits += uvec4(hit) * uvec4(inside);
    }
    return int(hits.x + hits.y + hits.z + hits.w);
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
// Cell c: the sum of counts[0 .. c-1]: the exclusive prefix of c's group one level up (groups of
// constants.group cells), plus the counts before c inside its group.
int topkExclusivePrefix(int counts[], int groupsBefore[])
{
    int c = thread.x;
    int g = c / constants.group;
    int total = groupsBefore[g];
    for (int i = 0; i < constants.group && g * constants.group + i < c; i++)
        total += counts[g * constants.group + i];
    return total;
}
