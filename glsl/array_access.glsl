// array_access.glsl - how a kernel reads its array arguments.
// An array lives in a buffer padded to whole 16-byte texels and is read through a 4-component
// buffer-texture image view of that buffer: on llvmpipe, image loads take a vectorised path while
// SSBO loads run a scalar, bounds-checked loop per SIMD lane (8-30x slower; docs/performance/README.md).
// An index outside the image reads 0 (GL's rule for imageLoad), so no read ever leaves the array; the
// padding of the last texel is zeros, so reads past the last cell inside it read 0 too.
// `a[i]` in the kernel is rewritten to `a(i)` (and `a[y][x]` to `a(y, x)`) to call these. A 2D or 3D
// array has the accessors of every lower rank too: GPU.js lets a kernel read it with fewer indices
// (a[i] of a 2D array is its flat cell i).
// buffer_block is the GL-standard read (the hardware device profile, device/device_profile.c): the
// array's buffer bound as a storage buffer, each element read where it is. An index outside the
// buffer reads 0 there too: the buffer holds whole 16-byte texels with zeros in the padding, so both
// ways read the same at every index. A vec3 array is packed floats (12 bytes a cell, where std430
// would pad a vec3 element to 16), read through its float accessor by read_vec3.

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
// GPU.js reads a[y][x] at the flat index y * width + x: an x past the end of a row runs on into the
// next row, and only an index outside the whole array reads 0, which the image view gives by itself
// (one flat range check, for free: a check of each dimension around the load costs as much as the
// load in a loop on llvmpipe). Every element type reads through its 1D accessor.
$TYPE $NAME(int y, int x) { return $NAME(y * gpuc_size_$NAME.x + x); }

//@ read3
$TYPE $NAME(int z, int y, int x)
{
    ivec3 s = gpuc_size_$NAME;
    return $NAME((z * s.y + y) * s.x + x);
}

//@ texel_read1
// Four neighbouring elements at once, for a jammed body whose cells read a row's neighbours
// (src/kernel/source/kernel_jam.h): $NAME(i) .. $NAME(i + 3) in one texel load. Called with i a
// multiple of 4 only (the texel's first element; one outside the array reads 0 there too).
$TEXEL gpuc_texel_$NAME(int i) { return imageLoad(gpuc_array_$NAME, i >> 2); }

//@ texel_read2
// The four elements from flat index i on, i a row's start plus a multiple of 4: where rows are whole
// texels (a width compiled in folds the test) i is a texel's first element and they are one texel;
// elsewhere they are read one by one, as $NAME reads them.
$TEXEL gpuc_texel_rows_$NAME(int i)
{
    return (gpuc_size_$NAME.x & 3) == 0 ? gpuc_texel_$NAME(i) : $TEXEL($NAME(i), $NAME(i + 1), $NAME(i + 2), $NAME(i + 3));
}
$TEXEL gpuc_texel_$NAME(int y, int x) { return gpuc_texel_rows_$NAME(y * gpuc_size_$NAME.x + x); }

//@ texel_read3
$TEXEL gpuc_texel_$NAME(int z, int y, int x)
{
    ivec3 s = gpuc_size_$NAME;
    return gpuc_texel_rows_$NAME((z * s.y + y) * s.x + x);
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

//@ buffer_block
layout(std430, binding = $BINDING) readonly buffer gpuc_block_$NAME { $ELEMENT gpuc_data_$NAME[]; };
uniform ivec3 gpuc_size_$NAME;
$ELEMENT gpuc_flat_$NAME(int i)
{
    return uint(i) < uint(gpuc_data_$NAME.length()) ? gpuc_data_$NAME[i] : $ELEMENT(0);
}
