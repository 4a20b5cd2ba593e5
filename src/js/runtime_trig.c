/* runtime_trig.c - Math.sin, cos and tan for kernels created with .precise_math: the argument reduced
 * in double precision, then the functions' series in double. llvmpipe's own sin/cos/tan (the
 * default) are 1-7 ulps off for |x| < 100, but hundreds of ulps next to their zeros beyond that
 * (cos(252.898) is 622 ulps off): their reduction modulo pi/2 is a float one. */
#include "js/runtime.h"

/* x = k pi/2 + r, |r| <= pi/4: pi/2 in three parts (Cody and Waite), the first two of 30 bits so that
 * k * part is exact in a double while |k| < 2^23, that is |x| < 1.3e7; beyond that (floats there are
 * whole numbers at least 2 apart) llvmpipe's own functions answer. */
static const char *const trig_glsl =
    "double jsrt_trig_reduce(float x, out int quadrant) {\n"
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
    "bool jsrt_trig_direct(float x) { return x == 0.0 || isnan(x) || isinf(x) || abs(x) >= 1.3e7; }\n"
    "float jsrt_sin(float x) {\n"
    "    if (jsrt_trig_direct(x)) return isinf(x) ? jsrt_nan : x == 0.0 ? x : sin(x);\n"
    "    int q;\n"
    "    double r = jsrt_trig_reduce(x, q);\n"
    "    double v = (q & 1) == 0 ? jsrt_sin_d(r) : jsrt_cos_d(r);\n"
    "    return float(q >= 2 ? -v : v);\n"
    "}\n"
    "float jsrt_cos(float x) {\n"
    "    if (jsrt_trig_direct(x)) return isinf(x) ? jsrt_nan : x == 0.0 ? 1.0 : cos(x);\n"
    "    int q;\n"
    "    double r = jsrt_trig_reduce(x, q);\n"
    "    double v = (q & 1) == 0 ? jsrt_cos_d(r) : jsrt_sin_d(r);\n"
    "    return float(q == 1 || q == 2 ? -v : v);\n"
    "}\n"
    "float jsrt_tan(float x) {\n"
    "    if (jsrt_trig_direct(x)) return isinf(x) ? jsrt_nan : x == 0.0 ? x : tan(x);\n"
    "    int q;\n"
    "    double r = jsrt_trig_reduce(x, q), s = jsrt_sin_d(r), c = jsrt_cos_d(r);\n"
    "    return float((q & 1) == 0 ? s / c : -c / s);\n"
    "}\n";

void js_runtime_trig_emit(strbuf *out)
{
    strbuf_puts(out, trig_glsl);
}
