/* runtime.c - the GLSL helpers emitted kernels call where GLSL and JavaScript differ: `%` with the
 * dividend's sign, `**` with negative bases and exact small integer powers, ToInt32 for bitwise
 * operators, and a seedable Math.random (one hash-based stream per output cell); the Math functions'
 * own helpers are in runtime_math.c. */
#include "js/runtime/runtime.h"

#include <stdio.h>

static const char *const fmod_glsl =
    "float jsrt_fmod(float a, float b) {\n"
    "    if (isnan(a) || isnan(b) || isinf(a) || b == 0.0) return uintBitsToFloat(0x7fc00000u);\n"
    "    if (isinf(b)) return a;\n"
    "    float m = abs(b), x = abs(a);\n"
    "    float r = fma(-m, trunc(x / m), x);\n"
    "    if (r >= m) r -= m;\n"
    "    if (r < 0.0) r += m;\n"
    "    return a < 0.0 ? -r : r;\n"
    "}\n";

/* a % m for whole a and m within +-2^24, m not 0 (whole_range.c proves them so): the integers'
 * remainder with the dividend's sign, -0 included, which is jsrt_fmod's answer for such operands
 * without its float division and tests (1.4x faster in life's neighbour reads on llvmpipe). */
static const char *const imod_glsl =
    "float jsrt_imod(int a, int m) {\n"
    "    int r = abs(a) % abs(m);\n"
    "    return a < 0 ? -float(r) : float(r);\n"
    "}\n";

/* JavaScript's pow: its own rules for NaN, infinite and zero operands (IEEE pow's, except that
 * pow(±1, ±Infinity) is NaN); whole exponents up to 64 by repeated squaring in double precision (one
 * rounding at the end, as JavaScript's double answer rounded to float32); the rest 2^(b log2 |a|) with
 * the product in double precision, split into a whole power of two and exp2 of a fraction (float
 * exp2(b * log2(a)) was 41 ulps off where |b log2 a| is large). */
static const char *const pow_glsl =
    "float jsrt_pow(float a, float b) {\n"
    "    if (b == 0.0) return 1.0;\n"
    "    if (isnan(a) || isnan(b)) return jsrt_nan;\n"
    "    float m = abs(a);\n"
    "    if (isinf(b)) return m == 1.0 ? jsrt_nan : (m > 1.0) == (b > 0.0) ? jsrt_inf : 0.0;\n"
    "    bool whole = b == trunc(b), odd = whole && abs(b) < 16777216.0 && mod(b, 2.0) == 1.0;\n"
    "    bool negative = odd && jsrt_signbit(a);\n"
    "    if (isinf(a) || a == 0.0) {\n"
    "        float r = (isinf(a) ? b > 0.0 : b < 0.0) ? jsrt_inf : 0.0;\n"
    "        return negative ? -r : r;\n"
    "    }\n"
    "    if (a < 0.0 && !whole) return jsrt_nan;\n"
    "    float r;\n"
    "    if (whole && abs(b) <= 64.0) {\n"
    "        double p = 1.0lf, base = b < 0.0 ? 1.0lf / double(m) : double(m);\n"
    "        int e = int(abs(b));\n"  /* unrolled: a loop would spend llvmpipe's loop budget */
    "        if ((e & 1) != 0) p *= base; base *= base;\n"
    "        if ((e & 2) != 0) p *= base; base *= base;\n"
    "        if ((e & 4) != 0) p *= base; base *= base;\n"
    "        if ((e & 8) != 0) p *= base; base *= base;\n"
    "        if ((e & 16) != 0) p *= base; base *= base;\n"
    "        if ((e & 32) != 0) p *= base; base *= base;\n"
    "        if ((e & 64) != 0) p *= base;\n"

    "        r = float(p);\n"
    "    } else {\n"
    "        double t = double(b) * jsrt_log_d(double(m)) * 1.4426950408889634lf, n = floor(t + 0.5lf);\n"
    "        r = n > 129.0lf ? jsrt_inf : n < -152.0lf ? 0.0 : jsrt_ldexp(exp2(float(t - n)), int(n));\n"
    "    }\n"
    "    return negative ? -r : r;\n"
    "}\n";

static const char *const toint_glsl =
    "int jsrt_toint32(float x) {\n"
    "    if (isnan(x) || isinf(x)) return 0;\n"
    "    x = trunc(x);\n"
    "    if (abs(x) < 2147483648.0) return int(x);\n"
    "    float m = x - 4294967296.0 * floor(x / 4294967296.0);\n"
    "    return int(uint(m));\n"
    "}\n";

static const char *const random_glsl =
    "uint jsrt_rng;\n"
    "uint jsrt_hash(uint x) {\n"
    "    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;\n"
    "    return x;\n"
    "}\n"
    "float jsrt_random() {\n"
    "    jsrt_rng = jsrt_hash(jsrt_rng + 0x9e3779b9u);\n"
    "    return float(jsrt_rng >> 8) * (1.0 / 16777216.0);\n"
    "}\n";

void js_runtime_emit(strbuf *out, const js_runtime_use *use, uint32_t seed)
{
    js_runtime_order_emit(out, true);
    if (use->toint)
        strbuf_puts(out, toint_glsl);
    if (use->fmod) {
        strbuf_puts(out, fmod_glsl);
        strbuf_puts(out, imod_glsl);
    }
    if (use->extra_math || use->pow || use->trig)
        js_runtime_math_emit(out);
    if (use->trig)
        js_runtime_trig_emit(out);
    if (use->pow)
        strbuf_puts(out, pow_glsl);
    if (use->random) {
        strbuf_puts(out, random_glsl);
        strbuf_printf(out,
                      "void jsrt_seed_random() {\n"
                      "    jsrt_rng = jsrt_hash(%uu ^ jsrt_hash(uint(thread.x) ^ jsrt_hash(uint(thread.y) ^ "
                      "jsrt_hash(uint(thread.z) + 0x632be5abu))));\n"
                      "}\n",
                      (unsigned)seed);
    }
}
