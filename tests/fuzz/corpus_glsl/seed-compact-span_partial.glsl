// The widest group span (blocks between one group's start and the next's) among this cell's share
// of the groups: the gather's search needs only as many halvings as the widest span. A fixed output
// size (a program per context, not per count); each cell loops over at most 2^15 groups.
int compactSpanPartial(int starts[], int groups)
{
    int share = (groups + outputSize.x - 1) / outputSize.x;
    int first = thread.x * share;
    int widest = 0;
    for (int j = 0; j < share; j++)
        if (first + j < groups)
            widest = max(widest, starts[first + j + 1] - starts[first + j]);
    return widest;
}

