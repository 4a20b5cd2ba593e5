/* runtime.c - the GLSL helpers emitted kernels call where GLSL and JavaScript differ: `%` with the
 * dividend's sign, `**` with negative bases and exact small integer powers, ToInt32 for bitwise
 * operators, cbrt/log1p/expm1, accurate inverse trigonometry, and a seedable Math.random (one hash-based stream per output cell). */
#include "js/runtime.h"

#include <stdio.h>

static const char *const fmod_glsl =
    "float js_fmod(float a, float b) {\n"
    "    if (isnan(a) || isnan(b) || isinf(a) || b == 0.0) return uintBitsToFloat(0x7fc00000u);\n"
    "    if (isinf(b)) return a;\n"
    "    float m = abs(b), x = abs(a);\n"
    "    float r = fma(-m, trunc(x / m), x);\n"
    "    if (r >= m) r -= m;\n"
    "    if (r < 0.0) r += m;\n"
    "    return a < 0.0 ? -r : r;\n"
    "}\n";

static const char *const pow_glsl =
    "float js_pow(float a, float b) {\n"
    "    if (b == 0.0) return 1.0;\n"
    "    if (isnan(a) || isnan(b)) return uintBitsToFloat(0x7fc00000u);\n"
    "    if (b == trunc(b) && abs(b) <= 64.0) {\n"
    "        float r = 1.0, base = b < 0.0 ? 1.0 / a : a;\n"
    "        for (int e = int(abs(b)); e > 0; e >>= 1) {\n"
    "            if ((e & 1) != 0) r *= base;\n"
    "            base *= base;\n"
    "        }\n"
    "        return r;\n"
    "    }\n"
    "    if (a < 0.0) {\n"
    "        if (b != trunc(b)) return uintBitsToFloat(0x7fc00000u);\n"
    "        float r = pow(-a, b);\n"
    "        return mod(b, 2.0) == 1.0 ? -r : r;\n"
    "    }\n"
    "    if (a == 0.0) return b < 0.0 ? uintBitsToFloat(0x7f800000u) : 0.0;\n"
    "    return pow(a, b);\n"
    "}\n";

static const char *const toint_glsl =
    "int js_toint32(float x) {\n"
    "    if (isnan(x) || isinf(x)) return 0;\n"
    "    x = trunc(x);\n"
    "    if (abs(x) < 2147483648.0) return int(x);\n"
    "    float m = x - 4294967296.0 * floor(x / 4294967296.0);\n"
    "    return int(uint(m));\n"
    "}\n";

static const char *const extra_math_glsl =
    "float js_cbrt(float x) {\n"
    "    if (x == 0.0 || isinf(x) || isnan(x)) return x;\n"
    "    float r = sign(x) * pow(abs(x), 1.0 / 3.0);\n"
    "    return r - (r * r * r - x) / (3.0 * r * r);\n"
    "}\n"
    "float js_log1p(float x) {\n"
    "    float u = 1.0 + x;\n"
    "    return u == 1.0 ? x : log(u) * x / (u - 1.0);\n"
    "}\n"
    /* llvmpipe's asin/acos/atan are good to ~1e-5 only: one Newton step on sin/cos (accurate) fixes that. */
    "float js_asin(float x) {\n"
    "    float y = asin(x), c = cos(y);\n"
    "    return abs(c) > 1e-4 ? y - (sin(y) - x) / c : y;\n"
    "}\n"
    "float js_acos(float x) {\n"
    "    float y = acos(x), s = sin(y);\n"
    "    return abs(s) > 1e-4 ? y + (cos(y) - x) / s : y;\n"
    "}\n"
    "float js_atan2(float y, float x) {\n"
    "    float t = atan(y, x), c = cos(t), s = sin(t), d = x * c + y * s;\n"
    "    return d != 0.0 && !isinf(d) && !isnan(d) ? t + (y * c - x * s) / d : t;\n"
    "}\n"
    "float js_expm1(float x) {\n"
    "    if (abs(x) < 1e-5) return x + 0.5 * x * x;\n"
    "    return exp(x) - 1.0;\n"
    "}\n";

static const char *const random_glsl =
    "uint js_rng;\n"
    "uint js_hash(uint x) {\n"
    "    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;\n"
    "    return x;\n"
    "}\n"
    "float js_random() {\n"
    "    js_rng = js_hash(js_rng + 0x9e3779b9u);\n"
    "    return float(js_rng >> 8) * (1.0 / 16777216.0);\n"
    "}\n";

void js_runtime_emit(strbuf *out, const js_runtime_use *use, uint32_t seed)
{
    if (use->toint)
        strbuf_puts(out, toint_glsl);
    if (use->fmod)
        strbuf_puts(out, fmod_glsl);
    if (use->pow)
        strbuf_puts(out, pow_glsl);
    if (use->extra_math)
        strbuf_puts(out, extra_math_glsl);
    if (use->random) {
        strbuf_puts(out, random_glsl);
        strbuf_printf(out,
                      "void js_seed_random() {\n"
                      "    js_rng = js_hash(%uu ^ js_hash(uint(thread.x) ^ js_hash(uint(thread.y) ^ "
                      "js_hash(uint(thread.z) + 0x632be5abu))));\n"
                      "}\n",
                      (unsigned)seed);
    }
}
