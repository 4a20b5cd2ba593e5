// array_access.glsl - how a kernel reads its array arguments.
// An array lives in a buffer padded to whole 16-byte texels and is read through a 4-component
// buffer-texture image view of that buffer: on llvmpipe, image loads take a vectorised path while
// SSBO loads run a scalar, bounds-checked loop per SIMD lane (8-30x slower; notes/platform.md).
// An index outside the image reads 0 (GL's rule for imageLoad), so no read ever leaves the array.
// `a[i]` in the kernel is rewritten to `a(i)` (and `a[y][x]` to `a(y, x)`) to call these.

//@ image_float
layout(binding = $BINDING, rgba32f) readonly uniform imageBuffer gpuc_array_$NAME;
uniform ivec3 gpuc_size_$NAME;
float gpuc_flat_$NAME(int i) { return imageLoad(gpuc_array_$NAME, i >> 2)[i & 3]; }

//@ image_int
layout(binding = $BINDING, rgba32i) readonly uniform iimageBuffer gpuc_array_$NAME;
uniform ivec3 gpuc_size_$NAME;
int gpuc_flat_$NAME(int i) { return imageLoad(gpuc_array_$NAME, i >> 2)[i & 3]; }

//@ read1
$TYPE $NAME(int i) { return gpuc_flat_$NAME(i); }
$TYPE $NAME(uint i) { return gpuc_flat_$NAME(int(i)); }

//@ read2
$TYPE $NAME(int y, int x)
{
    ivec3 s = gpuc_size_$NAME;
    return uint(x) < uint(s.x) && uint(y) < uint(s.y) ? gpuc_flat_$NAME(y * s.x + x) : $TYPE(0);
}

//@ read3
$TYPE $NAME(int z, int y, int x)
{
    ivec3 s = gpuc_size_$NAME;
    return uint(x) < uint(s.x) && uint(y) < uint(s.y) && uint(z) < uint(s.z)
        ? gpuc_flat_$NAME((z * s.y + y) * s.x + x) : $TYPE(0);
}

//@ read_vec2
vec2 $NAME(int i) { vec4 t = imageLoad(gpuc_array_$NAME, i >> 1); return (i & 1) == 0 ? t.xy : t.zw; }
vec2 $NAME(uint i) { return $NAME(int(i)); }

//@ read_vec3
vec3 $NAME(int i) { return i < 0 ? vec3(0) : vec3(gpuc_flat_$NAME(3 * i), gpuc_flat_$NAME(3 * i + 1), gpuc_flat_$NAME(3 * i + 2)); }
vec3 $NAME(uint i) { return $NAME(int(i)); }

//@ read_vec4
vec4 $NAME(int i) { return imageLoad(gpuc_array_$NAME, i); }
vec4 $NAME(uint i) { return $NAME(int(i)); }
