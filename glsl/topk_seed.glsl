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
// Cell x: (min, max) of values[i * threads + x] for i < chunk (the bisection's starting bracket). An
// infinity or NaN widens the range to (-inf, +inf), which the driver refuses: min() and max() never see
// a NaN, whose result GLSL leaves undefined.
vec2 topkMinMax(float values[])
{
    const float inf = uintBitsToFloat(0x7F800000u);
    vec2 range = vec2(inf, -inf);
    for (int i = 0; i < constants.chunk; i++) {
        int idx = i * constants.threads + thread.x;
        if (idx < constants.n) {
            float value = values[idx];
            bool finite = (floatBitsToUint(value) & 0x7F800000u) != 0x7F800000u;
            vec2 r = finite ? vec2(value) : vec2(-inf, inf);
            range = vec2(min(range.x, r.x), max(range.y, r.y));
        }
    }
    return range;
}

//@ min_max_reduce
// The one (min, max) over the per-thread ranges.
vec2 topkMinMaxReduce(vec2 ranges[])
{
    const float inf = uintBitsToFloat(0x7F800000u);
    vec2 range = vec2(inf, -inf);
    for (int i = 0; i < constants.threads; i++) {
        vec2 r = ranges[i];
        range = vec2(min(range.x, r.x), max(range.y, r.y));
    }
    return range;
}
