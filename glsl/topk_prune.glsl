// topk_prune.glsl - the kernels of top-k's tile pruning (src/algo/topk/prune.c). Built after the "key"
// section of topk.glsl. Tiles are `tile` consecutive elements, groups `group` consecutive elements of a
// tile (powers of two, group divides tile); the driver picks both from n and k and passes them as
// arguments, so that one program serves every size. Every loop is bounded by a constant (the largest
// tile or group) as well as by its run-time length: unguarded, and within llvmpipe's loop budget.

//@ tile_max
// Cell c: the largest keys of tiles 2c and 2c + 1, each as two exact 16-bit halves (hi, lo) so that a
// float cell holds it on every backend. Elements past n count as key 0, which raises no maximum. One
// contiguous run of texels per tile through the vec4 view: llvmpipe's fast read.
vec4 topkTileMax(vec4 v[], int n, int flip, int tile)
{
    uint m[2];
    for (int h = 0; h < 2; h++) {
        int start = (2 * thread.x + h) * tile;
        int len = clamp(n - start, 0, tile);
        uvec4 best = uvec4(0u);
        for (int q = 0; q < constants.maxTile / 4 && q < len / 4; q++)
            best = max(best, topk_key4(v[start / 4 + q], flip));
        if (len % 4 != 0) {
            uvec4 keys = topk_key4(v[start / 4 + len / 4], flip);
            best = max(best, keys * uvec4(lessThan(ivec4(0, 1, 2, 3), ivec4(len % 4))));
        }
        m[h] = max(max(best.x, best.y), max(best.z, best.w));
    }
    return vec4(float(m[0] >> 16), float(m[0] & 0xFFFFu), float(m[1] >> 16), float(m[1] & 0xFFFFu));
}

//@ group_count
// Cell c: how many keys lie in [lo, hi] in group c % (tile / group) of tile tiles[c / (tile / group)].
int topkGroupCount(vec4 v[], int tiles[], int n, int lo, int hi, int flip, int tile, int group)
{
    int per = tile / group;
    int start = tiles[thread.x / per] * tile + (thread.x % per) * group;
    int len = clamp(n - start, 0, group);
    uvec4 l = uvec4(uint(lo)), h = uvec4(uint(hi));
    uvec4 hits = uvec4(0u);
    for (int q = 0; q < constants.maxGroup / 4 && q < (len + 3) / 4; q++) {
        uvec4 keys = topk_key4(v[start / 4 + q], flip);
        bvec4 inside = lessThan(ivec4(4 * q) + ivec4(0, 1, 2, 3), ivec4(len));
        hits += uvec4(greaterThanEqual(keys, l)) * uvec4(lessThanEqual(keys, h)) * uvec4(inside);
    }
    return int(hits.x + hits.y + hits.z + hits.w);
}

//@ gather
// Cell j: the element slots[j] names, as (value, index >> 16, index & 0xFFFF, 1). A slot is a group's
// first index plus a rank r: the r-th key of the group in [lo, hi], or, for a slot stored as its bitwise
// complement, the r-th key equal to tie. Whole texels are counted at once; only the texel that holds
// the element is looked into. The value is returned as read (its own bits).
vec4 topkGather(vec4 v[], int slots[], int n, int lo, int hi, int tie, int flip, int group)
{
    int slot = slots[thread.x];
    bool isTie = slot < 0;
    slot = isTie ? ~slot : slot;
    int start = slot - slot % group;
    int rank = slot % group;
    int len = clamp(n - start, 0, group);
    uvec4 l = uvec4(uint(isTie ? tie : lo)), h = uvec4(uint(isTie ? tie : hi));
    int seen = 0;
    for (int q = 0; q < constants.maxGroup / 4 && q < (len + 3) / 4; q++) {
        int idx = start + 4 * q;
        vec4 x = v[idx / 4];
        uvec4 keys = topk_key4(x, flip);
        uvec4 hit = uvec4(greaterThanEqual(keys, l)) * uvec4(lessThanEqual(keys, h)) *
                    uvec4(lessThan(ivec4(idx) + ivec4(0, 1, 2, 3), ivec4(n)));
        int count = int(hit.x + hit.y + hit.z + hit.w);
        if (seen + count > rank) {
            uvec4 before = uvec4(0u, hit.x, hit.x + hit.y, hit.x + hit.y + hit.z);
            bvec4 mine = equal(hit * (before + 1u), uvec4(uint(rank - seen + 1)));
            int lane = mine.x ? 0 : (mine.y ? 1 : (mine.z ? 2 : 3));
            return vec4(x[lane], float((idx + lane) >> 16), float((idx + lane) & 0xFFFF), 1.0);
        }
        seen += count;
    }
    return vec4(0.0);
}
