// Element thread.x of the prefix sum: its block's offset (from the level above) plus the values
// before it in its block, and itself too when inclusive is set (terms written out as above).
const int BLOCK = 16;
float scanBlock(float v[], float offsets[], int inclusive)
{
    int i = thread.x;
    int first = i - i % BLOCK;
    int end = i + inclusive;
    float sum = offsets[i / BLOCK];
    sum += v[first];
    return sum;
}

