float countAbove(float values[], float t) {
    int hits = 0;
    for (int i = 0; i < constants.chunk; i++)
        if (values[i * constants.threads + thread.x] > t) hits++;
    return float(hits);
}
