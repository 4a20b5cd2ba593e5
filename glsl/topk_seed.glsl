// topk_seed.glsl - the seed's bisection kernels (tutorial top-k task 4): float comparisons, strided
// reads, as the tutorial writes them, plus the (min, max) bracket. Built after topk.glsl's "key".

//@ count_above
// The seed's count-above (tutorial top-k task 4): thread x counts values[i * threads + x] > t for
// i < chunk, skipping indices past the end (which would read 0).
int topkCountAbove(float values[], float t)
{
    int hits = 0;
    for (int i = 0; i < constants.chunk; i++) {
        int idx = i * constants.threads + thread.x;
        if (idx < constants.n && values[idx] > t)
            hits++;
    }
    return hits;
}

//@ min_max
// Cell x: (min, max) of values[i * threads + x] for i < chunk (the bisection's starting bracket).
vec2 topkMinMax(float values[])
{
    vec2 range = vec2(uintBitsToFloat(0x7F800000u), uintBitsToFloat(0xFF800000u));
    for (int i = 0; i < constants.chunk; i++) {
        int idx = i * constants.threads + thread.x;
        if (idx < constants.n) {
            float value = values[idx];
            range = vec2(min(range.x, value), max(range.y, value));
        }
    }
    return range;
}

//@ min_max_reduce
// The one (min, max) over the per-thread ranges.
vec2 topkMinMaxReduce(vec2 ranges[])
{
    vec2 range = vec2(uintBitsToFloat(0x7F800000u), uintBitsToFloat(0xFF800000u));
    for (int i = 0; i < constants.threads; i++) {
        vec2 r = ranges[i];
        range = vec2(min(range.x, r.x), max(range.y, r.y));
    }
    return range;
}
