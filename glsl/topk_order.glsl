// topk_order.glsl - top-k kernels that order and gather survivors, and rank by counting.
// Built after the "key" section of topk.glsl (src/algo/topk/input.c); see there for the order key.

//@ collect
// Cell j < k: the index of the j-th survivor in index order. Survivors are the keys > cutoff and the
// first `ties` keys == cutoff. The group (of constants.chunk elements) that holds survivor j is found by
// a binary search over the groups' first survivor numbers (gBefore[c] + min(eBefore[c], ties)), then
// walked. Cells >= k are -1.
int topkCollect(float v[], int gBefore[], int eBefore[], int n, int m, int k, int cutoff, int flip, int ties)
{
    int j = thread.x;
    if (j >= k)
        return -1;
    uint t = uint(cutoff);
    int lo = 0;
    int hi = m - 1;
    for (int s = 0; s < 32; s++) {
        if (lo >= hi)
            break;
        int mid = (lo + hi + 1) >> 1;
        if (gBefore[mid] + min(eBefore[mid], ties) <= j)
            lo = mid;
        else
            hi = mid - 1;
    }
    int seen = gBefore[lo] + min(eBefore[lo], ties);
    int tiesSeen = eBefore[lo];
    int base = lo * constants.chunk;
    for (int i = 0; i < constants.chunk; i++) {
        int idx = base + i;
        if (idx >= n)
            break;
        uint key = topk_key(v[idx], flip);
        bool take = key > t || (key == t && tiesSeen < ties);
        if (key == t)
            tiesSeen++;
        if (take) {
            if (seen == j)
                return idx;
            seen++;
        }
    }
    return -1;
}

//@ bitonic_step
// One compare-exchange pass of a bitonic network over survivor indices (stage = block size being
// merged, stride = partner distance). Blocks with (i & stage) == 0 end up in topk order, the others
// reversed; after the last stage the whole array is in topk order, padding (-1) last.
int topkBitonicStep(float v[], int idx[], int stage, int stride, int flip)
{
    int i = thread.x;
    int p = i ^ stride;
    int lowPos = min(i, p);
    int a = idx[lowPos];
    int b = idx[lowPos ^ stride];
    bool aFirst = topk_before(topk_key(v[a], flip), a, topk_key(v[b], flip), b);
    bool forward = (i & stage) == 0;
    int first = aFirst == forward ? a : b;
    int second = aFirst == forward ? b : a;
    return i == lowPos ? first : second;
}

//@ pick_value
// Cell j: the value at sorted index j (its own bits: -0.0 stays -0.0, a NaN keeps its payload).
float topkPickValue(float v[], int idx[])
{
    return v[idx[thread.x]];
}

//@ pick_index
int topkPickIndex(int idx[])
{
    return idx[thread.x];
}

//@ rank
// Cell i: how many elements come before element i (larger key, or equal key at a lower index).
int topkRank(float v[], int n, int flip)
{
    int i = thread.x;
    uint mine = topk_key(v[i], flip);
    int before = 0;
    for (int j = 0; j < n; j++) {
        uint other = topk_key(v[j], flip);
        if (other > mine || (other == mine && j < i))
            before++;
    }
    return before;
}

