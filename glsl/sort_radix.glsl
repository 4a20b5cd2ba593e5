// sort_radix.glsl - the radix sort's kernels (src/algo/sort_radix.c drives them; sections start at
// "//@ name"). Keys are the ints of glsl/sort.glsl's key maps (signed order = the requested order);
// flipping the sign bit makes that order unsigned, and each pass sorts stably by one 4-bit digit of
// it, lowest digit first. A $CELL is one element: the key (int) or a (key, index) pair (vec2 of int
// bits, only moved). Elements are grouped in sub-blocks of SUB and chunks of CHUNK: a chunk holds at
// most 255 + 1 elements before its last one, so its per-digit counts fit a byte, and a sub-block's 16
// digit counts travel packed in one vec4 (uint bits: byte d % 4 of component d / 4 counts digit d).

//@ common
const int SUB = 16;
const int CHUNK = 256;
const int RADIX_DIGITS = 16;
int cellKey(int c) { return c; }
int cellKey(vec2 c) { return floatBitsToInt(c.x); }
uint radixDigit(int key, int shift) { return ((uint(key) ^ 0x80000000u) >> uint(shift)) & 15u; }
// One element of digit d, as packed counts.
uvec4 countOne(uint d)
{
    return uvec4(equal(uvec4(d >> 2u), uvec4(0u, 1u, 2u, 3u))) << ((d & 3u) * 8u);
}
uint countOf(uvec4 c, uint d) { return (c[d >> 2u] >> ((d & 3u) * 8u)) & 255u; }

//@ load_keys
int radixLoadKeys($KEY_TYPE keys[], int descending)
{
    return sortKey(keys[thread.x], descending);
}

//@ load_pairs
vec2 radixLoadPairs($KEY_TYPE keys[], int descending)
{
    return vec2(intBitsToFloat(sortKey(keys[thread.x], descending)), intBitsToFloat(thread.x));
}

//@ counts
// How many elements of each digit sub-block thread.x holds (elements past n count nothing). The 16
// terms are written out (COUNT_TERMS): a kernel without loops computes several cells per invocation.
vec4 radixCounts($CELL cells[], int n, int shift)
{
    int first = thread.x * SUB;
    uvec4 c = uvec4(0u);
$COUNT_TERMS
    return uintBitsToFloat(c);
}

//@ count_term
    c += first + $K < n ? countOne(radixDigit(cellKey(cells[first + $K]), shift)) : uvec4(0u);

//@ prefix
// The elements of each digit in the sub-blocks before thread.x in its chunk (at most 240: bytes hold).
vec4 radixPrefix(vec4 counts[])
{
    int s = thread.x;
    int first = s - s % (CHUNK / SUB);
    uvec4 p = uvec4(0u);
$PREFIX_TERMS
    return uintBitsToFloat(p);
}

//@ prefix_term
    p += first + $K < s ? floatBitsToUint(counts[first + $K]) : uvec4(0u);

//@ totals
// Cell d * chunks + c: how many elements of digit d chunk c holds. Digit-major, so that the exclusive
// scan of these cells is where each (digit, chunk) run starts in the pass's output.
int radixTotals(vec4 counts[], vec4 prefix[], int chunks)
{
    uint d = uint(thread.x / chunks);
    int last = (thread.x % chunks + 1) * (CHUNK / SUB) - 1;
    return int(countOf(floatBitsToUint(prefix[last]), d) + countOf(floatBitsToUint(counts[last]), d));
}

//@ transpose
// The scanned run starts, chunk-major (cell c * 16 + d): a chunk's 16 starts share one cache line,
// where digit-major they lie `chunks` ints apart (the scatter looks one up per element).
int radixTranspose(int starts[], int chunks)
{
    return starts[(thread.x % RADIX_DIGITS) * chunks + thread.x / RADIX_DIGITS];
}

//@ offsets
// Where each element of sub-block thread.x lies within its chunk's run of its digit: the elements of
// its digit in the sub-blocks before (prefix) and before it in this one. At most 255 elements come
// before one in its chunk, so the 16 offsets travel as bytes in one vec4 (byte j % 4 of component
// j / 4 for element j). Written out (OFFSET_TERMS) like the counts.
vec4 radixOffsets($CELL cells[], vec4 prefix[], int shift)
{
    int first = thread.x * SUB;
    uvec4 p = floatBitsToUint(prefix[thread.x]);
    uvec4 offsets = uvec4(0u);
    uint d;
$OFFSET_TERMS
    return uintBitsToFloat(offsets);
}

//@ offset_term
    d = radixDigit(cellKey(cells[first + $K]), shift);
    offsets[$K / 4] |= countOf(p, d) << ($K % 4 * 8);
    p += countOne(d);

//@ scatter
// Element thread.x goes to its (digit, chunk) run's start plus its offset in that run: elements keep
// their order within a digit, so the pass is stable.
$CELL radixScatter($CELL cells[], vec4 offsets[], int starts[], int shift)
{
    int i = thread.x;
    $CELL self = cells[i];
    uint d = radixDigit(cellKey(self), shift);
    uint offset = (floatBitsToUint(offsets[i / SUB])[i % SUB / 4] >> uint(i % 4 * 8)) & 255u;
    outputIndex = starts[i / CHUNK * RADIX_DIGITS + int(d)] + int(offset);
    return self;
}

//@ unload_keys
$KEY_TYPE radixSortedKey($CELL cells[], int descending)
{
    return keyValue(cellKey(cells[thread.x]), descending);
}

//@ unload_index
int radixSortedIndex(vec2 cells[])
{
    return floatBitsToInt(cells[thread.x].y);
}

//@ unload_payload
$VALUE_TYPE radixSortedPayload(vec2 cells[], $VALUE_TYPE payload[])
{
    return payload[floatBitsToInt(cells[thread.x].y)];
}
