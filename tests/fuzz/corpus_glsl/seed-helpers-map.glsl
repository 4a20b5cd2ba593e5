// a helper the kernel map keeps
float scale(float x) { return x * constants.factor; }
/* block comment
   over lines */
float helper(float a, float b) { return a * b + scale(a); }
float f(float a[]) {
    float s = helper(a[thread.x], scale(a[thread.x + 1]));
    return helper(s, f2(s)) + scale(0.5);
}
