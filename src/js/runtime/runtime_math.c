/* runtime_math.c - the GLSL behind JavaScript's Math functions where GLSL's builtins differ from
 * JavaScript at the edges (±0, ±Infinity, NaN, denormals, overflow) or lose accuracy on llvmpipe. */
#include "js/runtime/runtime.h"

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

/* exp(x) * 2^s in double precision: x = k ln2 + r, |r| <= ln2 / 2, e^r by its Taylor series in double
 * (llvmpipe's float exp is 3 ulps off, and cancels badly in expm1, sinh and tanh). */
static const char *const exp_glsl =
    /* |r| <= 1: the series to r^16 (2^-48 relative), unrolled: a loop here would spend llvmpipe's
     * per-invocation loop budget */
    "double jsrt_expm1_d(double r) {\n"
    "    double p = 4.779477332387385e-14lf;\n"
    "    p = p * r + 7.647163731819816e-13lf; p = p * r + 1.1470745597729725e-11lf; p = p * r + 1.6059043836821613e-10lf;\n"
    "    p = p * r + 2.08767569878681e-09lf; p = p * r + 2.505210838544172e-08lf; p = p * r + 2.755731922398589e-07lf;\n"
    "    p = p * r + 2.7557319223985893e-06lf; p = p * r + 2.48015873015873e-05lf; p = p * r + 0.0001984126984126984lf;\n"
    "    p = p * r + 0.001388888888888889lf; p = p * r + 0.008333333333333333lf; p = p * r + 0.041666666666666664lf;\n"
    "    p = p * r + 0.16666666666666666lf; p = p * r + 0.5lf;\n"
    "    return r + r * r * p;\n"
    "}\n"
    "double jsrt_exp_d(float x, int s) {\n"
    "    double k = floor(double(x) * 1.4426950408889634lf + 0.5lf);\n"
    "    double r = double(x) - k * 0.69314718055994531lf;\n"
    "    return ldexp(1.0lf + jsrt_expm1_d(r), int(k) + s);\n"
    "}\n"
    "float jsrt_exp_scaled(float x, int s) {\n"
    "    if (isnan(x)) return x;\n"
    "    if (x > 89.5) return jsrt_inf;\n"
    "    if (x < -104.0) return 0.0;\n"
    "    return float(jsrt_exp_d(x, s));\n"
    "}\n"
    "float jsrt_exp(float x) { return jsrt_exp_scaled(x, 0); }\n"
    "double jsrt_expm1_wide(float x) {\n" /* for |x| < 89.5 */
    "    return abs(x) < 1.0 ? jsrt_expm1_d(double(x)) : jsrt_exp_d(x, 0) - 1.0lf;\n"
    "}\n"
    "float jsrt_expm1(float x) {\n"
    "    if (abs(x) < 2.98e-8 || isnan(x)) return x;\n" /* x + x^2 / 2 rounds to x */
    "    if (x > 89.5) return jsrt_inf;\n"
    "    if (x < -20.0) return -1.0;\n"
    "    return float(jsrt_expm1_wide(x));\n"
    "}\n";

/* The logarithms in double precision (GLSL has no double log; llvmpipe's float log is 1e-7 off in
 * absolute terms near 1, thousands of ulps of a small result): u = m 2^e with m in [sqrt(1/2), sqrt(2)),
 * log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, by its series to s^13 (2^-34 relative).
 * Every float, denormals included, is exact in a double. */
static const char *const log_glsl =
    "double jsrt_log_d(double u) {\n"
    "    int e;\n"
    "    double m = frexp(u, e);\n"
    "    if (m < 0.70710678118654752lf) { m *= 2.0lf; e -= 1; }\n"
    "    double s = (m - 1.0lf) / (m + 1.0lf), z = s * s;\n"
    "    double p = 1.0lf + z * (1.0lf / 3.0lf + z * (1.0lf / 5.0lf + z * (1.0lf / 7.0lf + z * (1.0lf / 9.0lf\n"
    "             + z * (1.0lf / 11.0lf + z * (1.0lf / 13.0lf))))));\n"
    "    return double(e) * 0.69314718055994531lf + 2.0lf * s * p;\n"
    "}\n"
    /* IEEE's answers outside (0, Infinity): NaN below 0, -Infinity at ±0, the argument at +Infinity/NaN */
    "bool jsrt_log_edge(float x, out float r) {\n"
    "    r = x < 0.0 ? jsrt_nan : x == 0.0 ? -jsrt_inf : x;\n"
    "    return !(x > 0.0) || isinf(x);\n"
    "}\n"
    "float jsrt_log(float x) { float r; return jsrt_log_edge(x, r) ? r : float(jsrt_log_d(double(x))); }\n"
    "float jsrt_log2(float x) {\n"
    "    float r;\n"
    "    return jsrt_log_edge(x, r) ? r : float(jsrt_log_d(double(x)) * 1.4426950408889634lf);\n"
    "}\n"
    "float jsrt_log10(float x) {\n"
    "    float r;\n"
    "    return jsrt_log_edge(x, r) ? r : float(jsrt_log_d(double(x)) * 0.43429448190325183lf);\n"
    "}\n"
    /* 1 + x is exact in a double for |x| >= 2^-29; below, log1p(x) = x - x^2 / 2 rounds to x */
    "float jsrt_log1p(float x) {\n"
    "    if (isnan(x) || abs(x) < 1.86e-9 || (isinf(x) && x > 0.0)) return x;\n"
    "    if (x < -1.0) return jsrt_nan;\n"
    "    if (x == -1.0) return -jsrt_inf;\n"
    "    return float(jsrt_log_d(1.0lf + double(x)));\n"
    "}\n"
    "float jsrt_cbrt(float x) {\n"
    "    if (x == 0.0 || isinf(x) || isnan(x)) return x;\n"
    "    double a = abs(double(x));\n"
    "    double r = double(exp2(float(jsrt_log_d(a) * (1.4426950408889634lf / 3.0lf))));\n"
    "    r = r - (r - a / (r * r)) / 3.0lf;\n" /* one Newton step in double */
    "    return jsrt_copysign(float(r), x);\n"
    "}\n";

/* the hyperbolic functions in double precision, without GLSL's cancellation near 0 (sinh(1e-7) was
 * 1.19e-7) and overflow near the top (sinh(89) was Infinity) */
static const char *const hyperbolic_glsl =
    "float jsrt_sinh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a < 2.44140625e-4 || isnan(x) || isinf(x)) return x;\n"
    "    if (a > 89.5) return jsrt_copysign(jsrt_inf, x);\n"
    "    if (a > 9.0) return jsrt_copysign(float(jsrt_exp_d(a, -1)), x);\n"
    "    double t = jsrt_expm1_wide(a);\n"
    "    return jsrt_copysign(float(0.5lf * (t + t / (t + 1.0lf))), x);\n"
    "}\n"
    "float jsrt_cosh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (isnan(x)) return x;\n"
    "    if (a > 89.5) return jsrt_inf;\n"
    "    if (a > 9.0) return float(jsrt_exp_d(a, -1));\n"
    "    double e = jsrt_exp_d(a, 0);\n"
    "    return float(0.5lf * (e + 1.0lf / e));\n"
    "}\n"
    "float jsrt_tanh(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a < 2.44140625e-4 || isnan(x)) return x;\n"
    "    if (a > 9.1) return jsrt_copysign(1.0, x);\n"
    "    double t = jsrt_expm1_wide(2.0 * a);\n"
    "    return jsrt_copysign(float(t / (t + 2.0lf)), x);\n"
    "}\n"
    "float jsrt_asinh(float x) {\n"
    "    double a = abs(double(x));\n"
    "    if (a < 2.44140625e-4lf || isnan(x) || isinf(x)) return x;\n"
    "    return jsrt_copysign(float(jsrt_log_d(a + sqrt(a * a + 1.0lf))), x);\n"
    "}\n"
    "float jsrt_acosh(float x) {\n"
    "    if (!(x >= 1.0)) return jsrt_nan;\n"
    "    if (isinf(x)) return x;\n"
    "    double d = double(x);\n"
    "    return float(jsrt_log_d(d + sqrt(d * d - 1.0lf)));\n"
    "}\n"
    "float jsrt_atanh(float x) {\n"
    "    double a = abs(double(x));\n"
    "    if (a < 2.44140625e-4lf || isnan(x)) return x;\n"
    "    if (a > 1.0lf) return jsrt_nan;\n"
    "    if (a == 1.0lf) return jsrt_copysign(jsrt_inf, x);\n"
    "    return jsrt_copysign(float(0.5lf * jsrt_log_d((1.0lf + a) / (1.0lf - a))), x);\n"
    "}\n";

/* inverse trigonometry: llvmpipe's asin/acos/atan are good to ~1e-5 only, so one Newton step on
 * sin/cos (accurate near 0) refines them; JavaScript's signed zeros and infinities come first */
static const char *const inverse_trig_glsl =
    /* asin on [0, 0.5], refined */
    "float jsrt_asin_small(float x) {\n"
    "    float y = asin(x);\n"
    "    return y - (sin(y) - x) / cos(y);\n"
    "}\n"
    /* near ±1 through asin(x) = pi/2 - 2 asin(sqrt((1 - x) / 2)): 1 - x is exact there */
    "float jsrt_asin(float x) {\n"
    "    float a = abs(x);\n"
    "    if (a <= 0.5 || isnan(x)) return x == 0.0 ? x : jsrt_asin_small(x);\n"
    "    if (a > 1.0) return jsrt_nan;\n"
    "    precise float h = 2.0 * jsrt_asin_small(sqrt((1.0 - a) * 0.5));\n"
    "    precise float r = (1.57079625 - h) + 7.54978995e-8;\n"
    "    return jsrt_copysign(r, x);\n"
    "}\n"
    "float jsrt_acos(float x) {\n"
    "    if (isnan(x) || abs(x) > 1.0) return jsrt_nan;\n"
    "    if (x > 0.5) return 2.0 * jsrt_asin_small(sqrt((1.0 - x) * 0.5));\n"
    "    precise float r;\n"
    "    if (x < -0.5) {\n"
    "        precise float h = 2.0 * jsrt_asin_small(sqrt((1.0 + x) * 0.5));\n"
    "        r = (3.14159250 - h) + 1.50995799e-7;\n"
    "    } else {\n"
    "        r = (1.57079625 - jsrt_asin_small(x)) + 7.54978995e-8;\n"
    "    }\n"
    "    return r;\n"
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
