/* runtime_trig.c - Math.sin, cos and tan for kernels created with .precise_math: the argument reduced
 * exactly modulo pi/2, then the functions' series in double. llvmpipe's own sin/cos/tan (the
 * default) are 1-7 ulps off for |x| < 100, but hundreds of ulps next to their zeros beyond that
 * (cos(252.898) is 622 ulps off): their reduction modulo pi/2 is a float one. */
#include "js/runtime/runtime.h"

/* x = k pi/2 + r, |r| <= pi/4: pi/2 in three parts (Cody and Waite), the first two of 30 bits so that
 * k * part is exact in a double while |k| < 2^23, that is |x| < 1.3e7. Beyond, Payne and Hanek's
 * reduction: x = m 2^e with m a 24-bit integer, x 2/pi mod 4 = m times the 96 bits of 2/pi that
 * matter for this e (the bits above give multiples of 4, those below less than 2^-70), in 32-bit
 * integer arithmetic; its 2 top bits are the quadrant, the other 94 the fraction. */
static const char *const trig_glsl =
    /* word i of 2/pi (word 0: the 32 bits before the point), by selects: llvmpipe indexes a constant
     * array through memory, lane by lane, which tripled the cost of every precise sin */
    "uint jsrt_two_over_pi(int i) {\n"
    "    return i == 0 ? 0u : i == 1 ? 0xA2F9836Eu : i == 2 ? 0x4E441529u : i == 3 ? 0xFC2757D1u\n"
    "         : i == 4 ? 0xF534DDC0u : i == 5 ? 0xDB629599u : i == 6 ? 0x3C439041u : i == 7 ? 0xFE5163ABu\n"
    "         : 0xDEBBC561u;\n"
    "}\n"
    "uint jsrt_two_over_pi_bits(int at) {\n" /* 32 bits of 2/pi from bit `at` */
    "    int w = at >> 5, o = at & 31;\n"
    "    uint hi = jsrt_two_over_pi(w) << o;\n"
    "    return o == 0 ? hi : hi | (jsrt_two_over_pi(w + 1) >> (32 - o));\n"
    "}\n"
    "double jsrt_trig_reduce_big(float x, out int quadrant) {\n"
    "    uint bits = floatBitsToUint(abs(x)), m = (bits & 0x7fffffu) | 0x800000u;\n"
    "    int at = int(bits >> 23) - 150 + 30;\n" /* x = m 2^e, e = exponent - 150; window from bit e - 2 */
    "    uint w0 = jsrt_two_over_pi_bits(at), w1 = jsrt_two_over_pi_bits(at + 32), w2 = jsrt_two_over_pi_bits(at + 64);\n"
    "    uint hi2, lo2, hi1, lo1;\n"
    "    umulExtended(m, w2, hi2, lo2);\n"
    "    umulExtended(m, w1, hi1, lo1);\n"
    "    uint p1 = lo1 + hi2, p0 = m * w0 + hi1 + (p1 < lo1 ? 1u : 0u);\n"
    "    quadrant = int(p0 >> 30);\n"
    "    double f = (double(p0 & 0x3fffffffu) * 4294967296.0lf + double(p1)) * 2.168404344971009e-19lf\n" /* 2^-62 */
    "             + double(lo2) * 5.048709793414476e-29lf;\n" /* 2^-94 */
    "    if (f >= 0.5lf) { f -= 1.0lf; quadrant = (quadrant + 1) & 3; }\n"
    "    if (x < 0.0) { f = -f; quadrant = (4 - quadrant) & 3; }\n"
    "    return f * 1.5707963267948966lf;\n"
    "}\n"
    "double jsrt_trig_reduce(float x, out int quadrant) {\n"
    "    if (abs(x) >= 1.3e7) return jsrt_trig_reduce_big(x, quadrant);\n"
    "    double k = floor(double(x) * 0.6366197723675814lf + 0.5lf);\n"
    "    quadrant = int(k - 4.0lf * floor(k * 0.25lf));\n"
    "    return ((double(x) - k * 1.5707963276654482lf) + k * 8.705515692000731e-10lf) + k * 3.50343439808993e-19lf;\n"
    "}\n"
    /* |r| <= pi/4: the series to r^15 and r^16, below 2^-53 */
    "double jsrt_sin_d(double r) {\n"
    "    double z = r * r;\n"
    "    double p = -7.647163731819816e-13lf; p = p * z + 1.6059043836821613e-10lf; p = p * z + -2.505210838544172e-08lf;\n"
    "    p = p * z + 2.7557319223985893e-06lf; p = p * z + -0.0001984126984126984lf; p = p * z + 0.008333333333333333lf;\n"
    "    p = p * z + -0.16666666666666666lf;\n"
    "    return r + r * z * p;\n"
    "}\n"
    "double jsrt_cos_d(double r) {\n"
    "    double z = r * r;\n"
    "    double p = 4.779477332387385e-14lf; p = p * z + -1.1470745597729725e-11lf; p = p * z + 2.08767569878681e-09lf;\n"
    "    p = p * z + -2.755731922398589e-07lf; p = p * z + 2.48015873015873e-05lf; p = p * z + -0.001388888888888889lf;\n"
    "    p = p * z + 0.041666666666666664lf; p = p * z + -0.5lf;\n"
    "    return 1.0lf + z * p;\n"
    "}\n"
    "bool jsrt_trig_direct(float x) { return x == 0.0 || isnan(x) || isinf(x); }\n"
    "float jsrt_sin(float x) {\n"
    "    if (jsrt_trig_direct(x)) return isinf(x) ? jsrt_nan : x;\n"
    "    int q;\n"
    "    double r = jsrt_trig_reduce(x, q);\n"
    "    double v = (q & 1) == 0 ? jsrt_sin_d(r) : jsrt_cos_d(r);\n"
    "    return float(q >= 2 ? -v : v);\n"
    "}\n"
    "float jsrt_cos(float x) {\n"
    "    if (jsrt_trig_direct(x)) return isinf(x) ? jsrt_nan : isnan(x) ? x : 1.0;\n"
    "    int q;\n"
    "    double r = jsrt_trig_reduce(x, q);\n"
    "    double v = (q & 1) == 0 ? jsrt_cos_d(r) : jsrt_sin_d(r);\n"
    "    return float(q == 1 || q == 2 ? -v : v);\n"
    "}\n"
    "float jsrt_tan(float x) {\n"
    "    if (jsrt_trig_direct(x)) return isinf(x) ? jsrt_nan : x;\n"
    "    int q;\n"
    "    double r = jsrt_trig_reduce(x, q), s = jsrt_sin_d(r), c = jsrt_cos_d(r);\n"
    "    return float((q & 1) == 0 ? s / c : -c / s);\n"
    "}\n";

void js_runtime_trig_emit(strbuf *out)
{
    strbuf_puts(out, trig_glsl);
}
