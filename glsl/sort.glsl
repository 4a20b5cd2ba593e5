// sort.glsl - the bitonic sort's kernels (src/algo/sort.c drives them; sections start at "//@ name").
// Elements travel between passes in vec4 "cells" that carry int bit patterns: floatBitsToInt and
// intBitsToFloat only move bits, so any key survives exactly. A key cell holds 4 keys; a pair cell
// holds 2 (key, index) pairs. Keys are ints whose signed order is the requested order (see the key
// maps), and pairs with equal keys are ordered by index, so every order the network sees is total.

//@ key_cells
const int CELL = 4;
int elementKey(ivec4 c, int j) { return c[j]; }
int elementIndex(ivec4 c, int j) { return 0; }
ivec4 cellMin(ivec4 a, ivec4 b) { return min(a, b); }
ivec4 cellMax(ivec4 a, ivec4 b) { return max(a, b); }
// The cell's four keys in order (descending when desc): after the strides of a stage that reach
// across cells, each cell holds exactly its final keys, so sorting them does the remaining strides.
ivec4 sortCell(ivec4 c, bool desc)
{
    ivec2 a = ivec2(min(c.x, c.y), max(c.x, c.y));
    ivec2 b = ivec2(min(c.z, c.w), max(c.z, c.w));
    int m1 = max(a.x, b.x), m2 = min(a.y, b.y);
    ivec4 s = ivec4(min(a.x, b.x), min(m1, m2), max(m1, m2), max(a.y, b.y));
    return desc ? s.wzyx : s;
}

//@ pair_cells
const int CELL = 2;
int elementKey(ivec4 c, int j) { return j == 0 ? c.x : c.z; }
int elementIndex(ivec4 c, int j) { return j == 0 ? c.y : c.w; }
bool pairLess(ivec2 a, ivec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }
ivec2 pairMin(ivec2 a, ivec2 b) { return pairLess(b, a) ? b : a; }
ivec2 pairMax(ivec2 a, ivec2 b) { return pairLess(b, a) ? a : b; }
ivec4 cellMin(ivec4 a, ivec4 b) { return ivec4(pairMin(a.xy, b.xy), pairMin(a.zw, b.zw)); }
ivec4 cellMax(ivec4 a, ivec4 b) { return ivec4(pairMax(a.xy, b.xy), pairMax(a.zw, b.zw)); }
ivec4 sortCell(ivec4 c, bool desc) { return pairLess(c.zw, c.xy) != desc ? c.zwxy : c; }

//@ float_keys
// A float's key: flipping the magnitude bits of negative floats makes signed int order equal float
// order (-0.0 just below +0.0); descending order complements the key. Every NaN becomes one key
// above every other in both directions (NaN sorts last) and comes back as the quiet NaN 0x7fc00000.
const int NAN_KEY = 0x7fc00000;
int sortKey(float v, int descending)
{
    int bits = floatBitsToInt(v);
    if ((bits & 0x7fffffff) > 0x7f800000)
        return NAN_KEY;
    int key = bits < 0 ? bits ^ 0x7fffffff : bits;
    return descending != 0 ? ~key : key;
}
float keyValue(int key, int descending)
{
    if (key == NAN_KEY)
        return intBitsToFloat(NAN_KEY);
    int k = descending != 0 ? ~key : key;
    return intBitsToFloat(k < 0 ? k ^ 0x7fffffff : k);
}

//@ int_keys
int sortKey(int v, int descending) { return descending != 0 ? ~v : v; }
int keyValue(int key, int descending) { return descending != 0 ? ~key : key; }

//@ load_keys
// Builds the cells from the input, padding to the network's size with the largest key, and sorts
// each cell (the network's stages up to one cell). No loops: a loop-free kernel computes several
// cells per invocation.
vec4 sortLoadKeys($KEY_TYPE keys[], int n, int descending)
{
    int e = thread.x * CELL;
    ivec4 c = ivec4(e < n ? sortKey(keys[e], descending) : 0x7fffffff,
                    e + 1 < n ? sortKey(keys[e + 1], descending) : 0x7fffffff,
                    e + 2 < n ? sortKey(keys[e + 2], descending) : 0x7fffffff,
                    e + 3 < n ? sortKey(keys[e + 3], descending) : 0x7fffffff);
    return intBitsToFloat(sortCell(c, (e & CELL) != 0));
}

//@ load_pairs
vec4 sortLoadPairs($KEY_TYPE keys[], int n, int descending)
{
    int e = thread.x * CELL;
    ivec4 c = ivec4(e < n ? sortKey(keys[e], descending) : 0x7fffffff, e,
                    e + 1 < n ? sortKey(keys[e + 1], descending) : 0x7fffffff, e + 1);
    return intBitsToFloat(sortCell(c, (e & CELL) != 0));
}

//@ merge
// One pass of stage `stage` of the network: `steps` (0 to 3) compare-exchange strides from `stride`
// down, each reaching across whole cells (the seed's pass: the stride bit picks min or max, the
// direction bit flips it), then, when `finish` is set, the strides inside a cell. k strides in one
// pass read 2^k cells but save k - 1 passes (each pass writes every cell and costs a dispatch).
ivec4 exchange(ivec4 a, ivec4 b, bool keepMin) { return keepMin ? cellMin(a, b) : cellMax(a, b); }
bool keepsMin(int e, int stride, bool desc) { return ((e & stride) == 0) != desc; }
vec4 sortMerge(vec4 cells[], int stage, int stride, int steps, int finish)
{
    int c = thread.x;
    int e = c * CELL;
    bool desc = (e & stage) != 0;
    int s = stride / CELL, t = s >> 1, u = s >> 2;
    bool k1 = keepsMin(e, stride, desc), k2 = keepsMin(e, stride >> 1, desc), k3 = keepsMin(e, stride >> 2, desc);
    ivec4 own = floatBitsToInt(cells[c]);
    if (steps == 1) {
        own = exchange(own, floatBitsToInt(cells[c ^ s]), k1);
    } else if (steps == 2) {
        ivec4 a = exchange(own, floatBitsToInt(cells[c ^ s]), k1);
        ivec4 b = exchange(floatBitsToInt(cells[c ^ t]), floatBitsToInt(cells[c ^ t ^ s]), k1);
        own = exchange(a, b, k2);
    } else if (steps == 3) {
        ivec4 a = exchange(own, floatBitsToInt(cells[c ^ s]), k1);
        ivec4 b = exchange(floatBitsToInt(cells[c ^ t]), floatBitsToInt(cells[c ^ t ^ s]), k1);
        ivec4 d = exchange(floatBitsToInt(cells[c ^ u]), floatBitsToInt(cells[c ^ u ^ s]), k1);
        ivec4 f = exchange(floatBitsToInt(cells[c ^ u ^ t]), floatBitsToInt(cells[c ^ u ^ t ^ s]), k1);
        own = exchange(exchange(a, b, k2), exchange(d, f, k2), k3);
    }
    if (finish != 0)
        own = sortCell(own, desc);
    return intBitsToFloat(own);
}

//@ unload_keys
// Element thread.x of the sorted cells, mapped back to its value (the padding lies past n).
$KEY_TYPE sortedKey(vec4 cells[], int descending)
{
    int i = thread.x;
    return keyValue(elementKey(floatBitsToInt(cells[i / CELL]), i % CELL), descending);
}

//@ unload_index
int sortedIndex(vec4 cells[])
{
    int i = thread.x;
    return elementIndex(floatBitsToInt(cells[i / CELL]), i % CELL);
}

//@ unload_payload
// The payload that travels with element thread.x: gathered through its original index.
$VALUE_TYPE sortedPayload(vec4 cells[], $VALUE_TYPE payload[])
{
    int i = thread.x;
    return payload[elementIndex(floatBitsToInt(cells[i / CELL]), i % CELL)];
}
