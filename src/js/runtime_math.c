/* runtime_math.c - the GLSL behind JavaScript's Math functions where GLSL's builtins differ from
 * JavaScript at the edges (±0, ±Infinity, NaN, denormals, overflow) or lose accuracy on llvmpipe. */
#include "js/runtime.h"

/* Every temporary is `precise`: without it Mesa rewrites (1 + x) - 1 as x and (a - b) + b as a, which
 * is exactly what these formulas exist to avoid (log1p(1e-7) came out as log(1 + 1e-7) = 1.19e-7). */
static const char *const bits_glsl =
    "const float jsrt_nan = uintBitsToFloat(0x7fc00000u), jsrt_inf = uintBitsToFloat(0x7f800000u);\n"
    "bool jsrt_signbit(float x) { return (floatBitsToUint(x) & 0x80000000u) != 0u; }\n"
    "float jsrt_copysign(float m, float s) {\n"
    "    return uintBitsToFloat((floatBitsToUint(m) & 0x7fffffffu) | (floatBitsToUint(s) & 0x80000000u));\n"
    "}\n"
    /* m * 2^k in two steps, so that each power of two is a normal float and a denormal result is
     * rounded once */
    "float jsrt_ldexp(float m, int k) {\n"
    "    int h = k / 2;\n"
    "    precise float r = m * uintBitsToFloat(uint(h + 127) << 23);\n"
    "    return r * uintBitsToFloat(uint(k - h + 127) << 23);\n"
    "}\n";

/* exp(x) * 2^s by Cody and Waite's reduction: x = k ln2 + r exactly, |r| <= ln2 / 2, so llvmpipe's
 * exp (exp2 of r * log2(e)) is near correctly rounded and 2^k is exact, down into the denormals. */
static const char *const exp_glsl =
    "float jsrt_exp_scaled(float x, int s) {\n"
    "    if (isnan(x)) return x;\n"
    "    if (x > 89.5) return jsrt_inf;\n"
    "    if (x < -104.0) return 0.0;\n"
    "    precise float k = floor(x * 1.44269504 + 0.5);\n"
    "    precise float r = (x - k * 0.693145751953125) - k * 1.42860682e-6;\n"
    "    return jsrt_ldexp(exp(r), int(k) + s);\n"
    "}\n"
    "float jsrt_exp(float x) { return jsrt_exp_scaled(x, 0); }\n"
    /* Kahan's expm1: (u - 1) * x / log(u) cancels the rounding of u = exp(x) */
    "float jsrt_expm1(float x) {\n"
    "    if (abs(x) < 2.98e-8 || isnan(x)) return x;\n" /* x + x^2 / 2 rounds to x */
    "    if (abs(x) >= 0.5) return jsrt_exp(x) - 1.0;\n"
    "    precise float u = jsrt_exp(x);\n"
    "    if (u == 1.0) return x;\n"
    "    precise float um1 = u - 1.0;\n"
    "    return um1 * x / log(u);\n"
    "}\n";

/* log, log2 and log10 of denormals: llvmpipe's log reads them as 0 (-Infinity): scale by 2^64 first */
static const char *const log_glsl =
    "float jsrt_log2(float x) {\n"
    "    if (x > 0.0 && x < 1.17549435e-38) return log2(x * 18446744073709551616.0) - 64.0;\n"
    "    return log2(x);\n"
    "}\n"
    "float jsrt_log(float x) {\n"
    "    if (x > 0.0 && x < 1.17549435e-38) return log(x * 18446744073709551616.0) - 44.3614196;\n"
    "    return log(x);\n"
    "}\n"
    "float jsrt_log10(float x) { return jsrt_log2(x) * 0.30102999566398120; }\n"
    /* the classic log1p: log(u) * x / (u - 1) cancels the rounding of u = 1 + x */
    "float jsrt_log1p(float x) {\n"
    "    if (isnan(x) || x == 0.0 || (isinf(x) && x > 0.0)) return x;\n"
    "    if (x < -1.0) return jsrt_nan;\n"
    "    if (abs(x) < 1e-4) return x * (1.0 - x * (0.5 - x * (1.0 / 3.0)));\n"
    "    precise float u = 1.0 + x;\n"
    "    precise float um1 = u - 1.0;\n"
    "    return u == 1.0 ? x : log(u) * (x / um1);\n"
    "}\n"
    "float jsrt_cbrt(float x) {\n"
    "    if (x == 0.0 || isinf(x) || isnan(x)) return x;\n"
    "    float a = abs(x), scale = 1.0;\n"
    "    if (a < 1.17549435e-38) { a *= 9223372036854775808.0; scale = 1.0 / 2097152.0; }\n" /* 2^63, 2^-21 */
    "    precise float r = exp2(jsrt_log2(a) * (1.0 / 3.0));\n"
    "    r = r - (r - a / (r * r)) * (1.0 / 3.0);\n"
    "    return jsrt_copysign(r * scale, x);\n"
    "}\n";

/* the hyperbolic functions, each without GLSL's cancellation near 0 and overflow near the top */
static const char *const hyperbolic_glsl =
    "float jsrt_sinh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a < 2.44140625e-4 || isnan(x)) return x;\n"
    "    if (a > 9.0) return jsrt_copysign(jsrt_exp_scaled(a, -1), x);\n"
    "    precise float t = jsrt_expm1(a);\n"
    "    return jsrt_copysign(0.5 * (t + t / (t + 1.0)), x);\n"
    "}\n"
    "float jsrt_cosh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a > 9.0) return jsrt_exp_scaled(a, -1);\n"
    "    precise float e = jsrt_exp(a);\n"
    "    return 0.5 * (e + 1.0 / e);\n"
    "}\n"
    "float jsrt_tanh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a < 2.44140625e-4 || isnan(x)) return x;\n"
    "    if (a > 9.1) return jsrt_copysign(1.0, x);\n"
    "    precise float t = jsrt_expm1(2.0 * a);\n"
    "    return jsrt_copysign(t / (t + 2.0), x);\n"
    "}\n"
    "float jsrt_asinh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a < 2.44140625e-4 || isnan(x) || isinf(x)) return x;\n"
    "    if (a > 4096.0) return jsrt_copysign(log(a) + 0.693147181, x);\n"
    "    precise float a2 = a * a;\n"
    "    return jsrt_copysign(jsrt_log1p(a + a2 / (1.0 + sqrt(1.0 + a2))), x);\n"
    "}\n"
    "float jsrt_acosh(float x) {\n"
    "    if (!(x >= 1.0)) return jsrt_nan;\n"
    "    if (x > 4096.0) return log(x) + 0.693147181;\n"
    "    precise float t = x - 1.0;\n"
    "    return jsrt_log1p(t + sqrt(2.0 * t + t * t));\n"
    "}\n"
    "float jsrt_atanh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a < 2.44140625e-4 || isnan(x)) return x;\n"
    "    if (a > 1.0) return jsrt_nan;\n"
    "    if (a == 1.0) return jsrt_copysign(jsrt_inf, x);\n"
    "    return jsrt_copysign(0.5 * jsrt_log1p(2.0 * a / (1.0 - a)), x);\n"
    "}\n";

/* inverse trigonometry: llvmpipe's asin/acos/atan are good to ~1e-5 only, so one Newton step on
 * sin/cos (accurate near 0) refines them; JavaScript's signed zeros and infinities come first */
static const char *const inverse_trig_glsl =
    "float jsrt_asin(float x) {\n"
    "    if (x == 0.0 || isnan(x)) return x;\n"
    "    float y = asin(x), c = cos(y);\n"
    "    return abs(c) > 1e-4 ? y - (sin(y) - x) / c : y;\n"
    "}\n"
    "float jsrt_acos(float x) {\n"
    "    float y = acos(x), s = sin(y);\n"
    "    return abs(s) > 1e-4 ? y + (cos(y) - x) / s : y;\n"
    "}\n"
    "float jsrt_atan2(float y, float x) {\n"
    "    if (isnan(x) || isnan(y)) return jsrt_nan;\n"
    "    if (y == 0.0) return jsrt_signbit(x) ? jsrt_copysign(3.14159265, y) : y;\n"
    "    if (x == 0.0) return jsrt_copysign(1.57079633, y);\n"
    "    if (isinf(x)) {\n"
    "        if (isinf(y)) return jsrt_copysign(x > 0.0 ? 0.785398163 : 2.35619449, y);\n"
    "        return x > 0.0 ? jsrt_copysign(0.0, y) : jsrt_copysign(3.14159265, y);\n"
    "    }\n"
    "    if (isinf(y)) return jsrt_copysign(1.57079633, y);\n"
    "    if (max(abs(x), abs(y)) < 8.67e-19) { x *= 18446744073709551616.0; y *= 18446744073709551616.0; }\n"
    "    float t = atan(y, x), c = cos(t), s = sin(t), d = x * c + y * s;\n"
    "    return d != 0.0 && !isinf(d) && !isnan(d) ? t + (y * c - x * s) / d : t;\n"
    "}\n";

/* sign, max and min with JavaScript's NaN and signed zeros (GLSL leaves both open) */
static const char *const compare_glsl =
    "float jsrt_sign(float x) { return x == 0.0 || isnan(x) ? x : sign(x); }\n"
    "float jsrt_max(float a, float b) {\n"
    "    if (isnan(a) || isnan(b)) return jsrt_nan;\n"
    "    return a == b ? uintBitsToFloat(floatBitsToUint(a) & floatBitsToUint(b)) : max(a, b);\n"
    "}\n"
    "float jsrt_min(float a, float b) {\n"
    "    if (isnan(a) || isnan(b)) return jsrt_nan;\n"
    "    return a == b ? uintBitsToFloat(floatBitsToUint(a) | floatBitsToUint(b)) : min(a, b);\n"
    "}\n";

void js_runtime_math_emit(strbuf *out)
{
    strbuf_puts(out, bits_glsl);
    strbuf_puts(out, exp_glsl);
    strbuf_puts(out, log_glsl);
    strbuf_puts(out, hyperbolic_glsl);
    strbuf_puts(out, inverse_trig_glsl);
    strbuf_puts(out, compare_glsl);
}
