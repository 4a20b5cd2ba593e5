void paint(float v[][]) {
    float x = v[thread.y][thread.x];
    color(x, 0.5 * x, 1.0 - x);
}
