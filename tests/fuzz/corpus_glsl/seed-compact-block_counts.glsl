// How many elements of a block survive.
int compactBlockCounts(int masks[])
{
    return bitCount(masks[thread.x]);
}

