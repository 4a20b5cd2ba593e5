// sort_radix.glsl - the radix sort's kernels (src/algo/sort_radix.c drives them; sections start at
// "//@ name"). Keys are the ints of glsl/sort.glsl's key maps (signed order = the requested order);
// flipping the sign bit makes that order unsigned, and each pass sorts stably by one 4-bit digit of
// it, lowest digit first. A $CELL is one element: the key (int) or a (key, index) pair (vec2 of int
// bits, only moved). Elements are grouped in sub-blocks of SUB and chunks of CHUNK: at most 255
// elements come before one in its chunk, so counts within a chunk fit a byte. Packed values travel
// as the uint bits of a vec4: "bytes" hold 16 counts (byte d % 4 of component d / 4 for digit d).

//@ common
const int SUB = 16;
const int CHUNK = 256;
const int QUAD = 4; // sub-blocks per quad
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

//@ cells_in
// What a pass reads: the cells the pass before wrote...
int inKey($CELL c) { return cellKey(c); }
$CELL inCell($CELL c, int i) { return c; }

//@ keys_in
// ...or, in the first pass, the keys themselves, mapped as they are read (an element's index is
// where it starts).
int inKey($KEY_TYPE v) { return sortKey(v, $DESCENDING); }
int inCell($KEY_TYPE v, int i) { return inKey(v); }

//@ pairs_in
int inKey($KEY_TYPE v) { return sortKey(v, $DESCENDING); }
vec2 inCell($KEY_TYPE v, int i) { return vec2(intBitsToFloat(inKey(v)), intBitsToFloat(i)); }

//@ cells_out
// What a pass writes: cells for the next pass...
$CELL outCell($CELL c) { return c; }

//@ keys_out
// ...or, in the last pass of a sort of bare keys, the keys mapped back.
$KEY_TYPE outCell(int c) { return keyValue(c, $DESCENDING); }

//@ counts
// The running counts are kept in the cell's nibble layout (countNibble: the bit where digit d's nibble
// starts), so that an element's rank is one shift and mask and its count one add (bytes in a uvec4
// took 4-wide compares and a dynamically indexed component). The 16th element of a sub-block whose
// other 15 share its digit would carry into the next nibble: it makes every count 0 instead, the wrap
// subBlockCounts expects.
uint countNibble(uint d) { return ((d & 3u) << 3u) | (d & 4u); }

// Sub-block thread.x in one vec4: .xy its 16 digit counts as nibbles (byte k of .x holds digit k in its
// low nibble and digit k + 4 in its high one, .y digits 8-15 the same way, so that masking and one
// shift give the bytes back; a count of 16, all elements one digit, wraps to 0: see subBlockCounts),
// .zw the rank of each element among those of its digit before it in the sub-block (nibble j % 8 of
// .z or .w for element j; element 0's rank is always 0, so its nibble holds its digit instead).
// Elements past n count nothing. The 16 steps are written out (COUNT_TERMS): a kernel without loops
// computes several cells per invocation.
vec4 radixCounts($IN cells[], int n, int shift)
{
    int first = thread.x * SUB;
    uvec2 c = uvec2(0u), ranks = uvec2(0u);
    uint d, pos, before;
$COUNT_TERMS
    ranks.x |= first < n ? radixDigit(inKey(cells[first]), shift) : 0u;
    return uintBitsToFloat(uvec4(c, ranks));
}

//@ count_term
    d = radixDigit(inKey(cells[first + $K]), shift);
    pos = countNibble(d);
    before = ((d < 8u ? c.x : c.y) >> pos) & 15u;
    ranks[$K / 8] |= first + $K < n ? before << ($K % 8 * 4) : 0u;
    c = first + $K < n ? (before < 15u ? c + (uvec2(d < 8u, d >= 8u) << pos) : uvec2(0u)) : c;

//@ sub_counts
// A sub-block's digit counts as bytes, from radixCounts' cell: nibbles spread to bytes, and a
// non-empty sub-block whose counts all wrapped to 0 holds 16 of its first element's digit.
uvec4 subBlockCounts(uvec4 cell, bool nonEmpty)
{
    uvec4 bytes = uvec4(cell.x, cell.x >> 4u, cell.y, cell.y >> 4u) & 0x0f0f0f0fu;
    return nonEmpty && (cell.x | cell.y) == 0u ? countOne(cell.z & 15u) * 16u : bytes;
}

//@ quads
// The digit counts of the QUAD sub-blocks of quad thread.x, as bytes (at most 64): radixPrefix adds at
// most 3 of these and 3 sub-blocks' counts, where summing sub-blocks alone takes up to 15.
vec4 radixQuads(vec4 counts[], int n)
{
    int first = thread.x * QUAD;
    uvec4 q = uvec4(0u);
$QUAD_TERMS
    return uintBitsToFloat(q);
}

//@ quad_term
    q += subBlockCounts(floatBitsToUint(counts[first + $K]), (first + $K) * SUB < n);

//@ prefix
// The elements of each digit in the sub-blocks before thread.x in its chunk, as bytes (at most 240):
// the quads before its quad in the chunk, then the sub-blocks before it in its quad.
vec4 radixPrefix(vec4 counts[], vec4 quads[], int n)
{
    int s = thread.x;
    int quad = s / QUAD, firstQuad = quad - quad % (CHUNK / SUB / QUAD), firstSub = s - s % QUAD;
    uvec4 p = uvec4(0u);
$PREFIX_TERMS
    return uintBitsToFloat(p);
}

//@ prefix_term
    p += firstQuad + $K < quad ? floatBitsToUint(quads[firstQuad + $K]) : uvec4(0u);
    p += firstSub + $K < s ? subBlockCounts(floatBitsToUint(counts[firstSub + $K]), (firstSub + $K) * SUB < n)
                           : uvec4(0u);

//@ totals
// Cell d * chunks + c: how many elements of digit d chunk c holds. Digit-major, so that the exclusive
// scan of these cells is where each (digit, chunk) run starts in the pass's output.
// The chunk's quads lie in one cache line; the first three sum to at most 192 per digit, so bytes hold
// them, and the last is added apart (a chunk of one digit holds 256).
int radixTotals(vec4 quads[], int chunks)
{
    uint d = uint(thread.x / chunks);
    int first = thread.x % chunks * (CHUNK / SUB / QUAD);
    uvec4 three = floatBitsToUint(quads[first]) + floatBitsToUint(quads[first + 1]) +
                  floatBitsToUint(quads[first + 2]);
    return int(countOf(three, d) + countOf(floatBitsToUint(quads[first + 3]), d));
}

//@ transpose
// The scanned run starts, chunk-major (cell c * 16 + d): a chunk's 16 starts share one cache line,
// where digit-major they lie `chunks` ints apart (the scatter looks one up per element).
int radixTranspose(int starts[], int chunks)
{
    return starts[(thread.x % RADIX_DIGITS) * chunks + thread.x / RADIX_DIGITS];
}

//@ scatter
// Element thread.x goes to its (digit, chunk) run's start, plus the elements of its digit before its
// sub-block in the chunk, plus its rank in the sub-block: elements keep their order within a digit,
// so the pass is stable.
$OUT radixScatter($IN cells[], vec4 counts[], vec4 prefix[], int starts[], int shift)
{
    int i = thread.x;
    $CELL self = inCell(cells[i], i);
    uint d = radixDigit(cellKey(self), shift);
    int s = i / SUB, j = i % SUB;
    uint rank = j == 0 ? 0u : (floatBitsToUint(counts[s])[2 + j / 8] >> uint(j % 8 * 4)) & 15u;
    outputIndex = starts[i / CHUNK * RADIX_DIGITS + int(d)] + int(countOf(floatBitsToUint(prefix[s]), d) + rank);
    return outCell(self);
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
