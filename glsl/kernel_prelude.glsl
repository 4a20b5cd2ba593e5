// kernel_prelude.glsl - what every kernel sees before its own source.
// Sections start with "//@ name"; gpuc picks sections and fills in $NAME-style fields
// (src/kernel/codegen/codegen.c). Lines outside sections are comments for the reader.

//@ prelude
// The output cell this invocation computes (GPU.js's this.thread). Initialised so that compilers which
// cannot see main() set it before the kernel reads it (Mesa, compiling a fragment shader) do not warn:
// a debug context turns that warning into a failed call.
ivec3 thread = ivec3(0);

//@ sizes_const
// The output size, 1 in absent dimensions (GPU.js's this.output; GLSL reserves `output`).
const ivec3 outputSize = ivec3($OUT_X, $OUT_Y, $OUT_Z);
// The grid of invocations: the output for an ordinary kernel, `.threads` for a scatter kernel.
const ivec3 gpuc_grid = ivec3($GRID_X, $GRID_Y, $GRID_Z);

//@ sizes_uniform
// The output size and the grid of invocations (as in sizes_const), set at each run: the kernel's
// source never names outputSize, so kernels of every size share this program.
uniform ivec3 outputSize;
uniform ivec3 gpuc_grid;

//@ scatter
// A scatter kernel sets this to the flat output cell its result goes to; left at -1, it writes nothing.
int outputIndex = -1;

//@ constants_begin
struct gpuc_constants_t {
//@ constant_field
    $TYPE $NAME;
//@ constants_end
};
const gpuc_constants_t constants = gpuc_constants_t($VALUES);

//@ constant_array
// Array constant $NAME ($SHAPE): its values live in a uniform buffer the kernel made at creation (as
// GPU.js keeps array constants in textures), so this program does not depend on them. The kernel's
// constants.$NAME[...] reads are rewritten into calls of gpuc_cnstv$NAME (src/kernel/constant_arrays.c):
// one flat index, y * w + x as GPU.js reads it (past a row runs into the next), 0.0 outside the array.
layout(std140, binding = $BINDING) uniform gpuc_cblock$NAME { vec4 gpuc_cdata$NAME[$VEC4S]; };
float gpuc_cnstv$NAME(int i) { return uint(i) < uint($COUNT) ? gpuc_cdata$NAME[i >> 2][i & 3] : 0.0; }
float gpuc_cnstv$NAME(uint i) { return gpuc_cnstv$NAME(int(i)); }

//@ constant_read2
float gpuc_cnstv$NAME(int y, int x) { return gpuc_cnstv$NAME(y * $W + x); }

//@ constant_read3
float gpuc_cnstv$NAME(int z, int y, int x) { return gpuc_cnstv$NAME((z * $H + y) * $W + x); }

//@ scalar
uniform $TYPE $NAME;

//@ graphical
// A graphical kernel paints its cell with color() (GPU.js's this.color); unpainted cells stay
// transparent black. The image is RGBA8: each channel is clamped to [0, 1] and rounded to 0..255.
vec4 gpuc_color;
void color(float r, float g, float b, float a) { gpuc_color = vec4(r, g, b, a); }
void color(float r, float g, float b) { gpuc_color = vec4(r, g, b, 1.0); }

//@ map_output
// Kernel map output $INDEX: the last value the kernel's calls of $FUNCTION() returned in this cell
// (GPU.js's createKernelMap); every call of $FUNCTION is wrapped in gpuc_keep_$INDEX(...).
$TYPE gpuc_map_$INDEX;
$TYPE gpuc_keep_$INDEX($TYPE v) { gpuc_map_$INDEX = v; return v; }

//@ loop_status
// The context's loop-status block (src/kernel/kernel_loops.c): the loop the budget cut (guarded
// kernels), the tick guarded loops never reach, and the cells in which a JavaScript loop reached
// loopMaxIterations (kernels with capped loops; the host reads and clears it after each run).
layout(std430, binding = $BINDING) buffer gpuc_loop_status_block {
    uint gpuc_loop_status; uint gpuc_loop_never; uint gpuc_loop_capped; };

//@ loop_cap
// GPU.js's loopMaxIterations, kept for fidelity, stops a loop silently: each capped loop of a
// JavaScript kernel calls this after it, with whether it was stopped there (src/js/emit.c), and main()
// counts the cell once.
bool gpuc_capped = false;
void gpuc_js_capped(bool stopped) { if (stopped) gpuc_capped = true; }

//@ loop_cap_report
if (gpuc_capped) {
            atomicAdd(gpuc_loop_capped, 1u);
            gpuc_capped = false;
        }

//@ loop_guard
// llvmpipe stops every loop of an invocation after 65,535 iterations in total, silently. The kernel's
// loops are guarded (src/kernel/loops/loop_guard.h): they call these, the first loop cut short in this
// invocation is kept, and main() reports it to the host through gpuc_loop_status.
// In GLSL a loop ends only through its own exits, so a compiler may prove a loop's flag set after
// it and delete the check. An exit it cannot rule out prevents that: the tests are counted, and the
// count never reaches gpuc_never_tick (0xffffffff, read from device memory, so unknown to the
// compiler); being different each iteration, the comparison cannot be hoisted out of the loop.
uint gpuc_loop_cut_id = 0u;
uint gpuc_ticks = 0u;
uint gpuc_never_tick = 0u;
bool gpuc_continues(bool test, out bool exited) { exited = !test; return test && ++gpuc_ticks != gpuc_never_tick; }
void gpuc_loop_cut(uint loop) { if (gpuc_loop_cut_id == 0u) gpuc_loop_cut_id = loop; }

//@ loop_opaque
gpuc_never_tick = gpuc_loop_never;

//@ loop_report
if (gpuc_loop_cut_id != 0u)
            atomicMax(gpuc_loop_status, gpuc_loop_cut_id);
