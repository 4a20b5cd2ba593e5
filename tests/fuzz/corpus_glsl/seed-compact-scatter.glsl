// Scatter form: one invocation per element; a survivor writes itself to its slot, the survivors
// before its block plus those before it in the block (outputIndex left at -1 writes nothing).
const int BLOCK = 16;
float compactScatter(float v[], int masks[], int running[])
{
    int self = thread.x;
    int block = self / BLOCK, j = self % BLOCK;
    int mask = masks[block];
    if (((mask >> j) & 1) != 0)
        outputIndex = (block > 0 ? running[block - 1] : 0) + bitCount(mask & ((1 << j) - 1));
    return v[self];
}
