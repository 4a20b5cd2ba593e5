// compute_main.glsl - the compute-shader main() wrapped around a kernel: it computes the cells of the
// grid (the output cells of an ordinary kernel). A grid larger than one dispatch (work group count, or
// the storage block size) is computed in several dispatches; gpuc_first_cell says where this dispatch
// starts. An ordinary kernel's dispatch writes the output range bound for it (index local_cell); a
// scatter kernel sees the whole output and writes where it set outputIndex.
// Each invocation computes $CELLS_PER_INVOCATION cells, one dispatch-width apart (so neighbouring SIMD
// lanes still touch neighbouring cells): on llvmpipe the fixed cost of an invocation is comparable to
// a small kernel's work. A kernel with loops gets more than one only where its counted iterations
// per cell leave room in llvmpipe's loop budget, which is per invocation (kernel.c).
// thread_1d/2d/3d turn the flat cell into `thread` for a grid of that many dimensions (a 1D grid needs
// no division: with the grid a uniform, a division is a real one per cell).

// main_texels: the main() of loop-free ordinary kernels (src/kernel/codegen/codegen_texels.c). Each step of
// an invocation computes $LANE_CELLS neighbouring cells and stores them as whole 16-byte texels (vec4
// or ivec4), the result's and every map output's. On llvmpipe every store to a storage buffer becomes
// a scalar loop over the SIMD lanes with a bounds check: one vec4 store costs about half of four float
// stores, and the reads `a[thread.x]` of a texel's cells fold into one load (a float kernel runs 2x
// faster; image stores are slower than either; docs/performance/launch.md). A range starts at a multiple of
// 1024 cells, so `gpuc_first` is written as a multiple of $LANE_CELLS for the compiler to see it.
// Cells past the end of the range store 0 (the padding of an array's last texel must read 0), and a
// texel that starts past the range is not stored.
// A kernel with counted loops gets main_texels too where its body is jammed (src/kernel/source/kernel_jam.h):
// jam_cells computes a step's $LANE_CELLS cells, which lie in one row, in one call whose fused loops make
// each read the cells share once (llvmpipe gathers every read per lane, also at one address). Where the
// grid's rows do not split into whole steps (a width of 4k + 1..3; a 1D grid's last step), jam_cells_tails
// calls the jammed body for a step that lies in one row and in the range, and computes a step that
// crosses a row's end or the range's cell by cell in a loop (cells past the range keep 0; a loop, not
// copies: llvmpipe runs both sides of the if under a mask, and a loop with every lane off ends at once).

//@ main
layout(local_size_x = $LOCAL_SIZE) in;
layout(std430, binding = 0) writeonly buffer gpuc_output_block { $OUT_ELEMENT gpuc_output[]; };
$MAP_BLOCKSuniform uint gpuc_first_cell;
uniform uint gpuc_cell_count;

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint gpuc_k = 0u; gpuc_k < $CELLS_PER_INVOCATIONu; gpuc_k++) {
        uint local_cell = gl_GlobalInvocationID.x + gpuc_k * stride;
        if (local_cell >= gpuc_cell_count)
            return;
        int cell = int(gpuc_first_cell + local_cell);
        $THREAD
        $BEFORE_KERNEL
        $CALL
        $STORE
    }
}

//@ thread_1d
thread = ivec3(cell, 0, 0);

//@ thread_2d
thread = ivec3(cell % gpuc_grid.x, cell / gpuc_grid.x, 0);

//@ thread_3d
thread = ivec3(cell % gpuc_grid.x, (cell / gpuc_grid.x) % gpuc_grid.y, cell / (gpuc_grid.x * gpuc_grid.y));

//@ gather_index
uint index = local_cell;

//@ scatter_index
outputIndex = -1;

//@ scatter_guard
if (outputIndex < 0 || outputIndex >= outputSize.x * outputSize.y * outputSize.z)
            continue;
        uint index = uint(outputIndex);

//@ store_cell
gpuc_output[index] = result;

//@ store_vec3
gpuc_output[3u * index] = result.x;
        gpuc_output[3u * index + 1u] = result.y;
        gpuc_output[3u * index + 2u] = result.z;

//@ call
$RETURN_TYPE result = $KERNEL();

//@ call_graphical
gpuc_color = vec4(0.0);
        $KERNEL();
        int result = int(packUnorm4x8(gpuc_color));

//@ map_block
layout(std430, binding = $BINDING) writeonly buffer gpuc_map_block_$INDEX { $OUT_ELEMENT gpuc_map_output_$INDEX[]; };

//@ map_reset
gpuc_map_$INDEX = $TYPE(0);

//@ map_store_cell
gpuc_map_output_$INDEX[index] = gpuc_map_$INDEX;

//@ map_store_vec3
gpuc_map_output_$INDEX[3u * index] = gpuc_map_$INDEX.x;
        gpuc_map_output_$INDEX[3u * index + 1u] = gpuc_map_$INDEX.y;
        gpuc_map_output_$INDEX[3u * index + 2u] = gpuc_map_$INDEX.z;


//@ main_texels
$HELPERSlayout(local_size_x = $LOCAL_SIZE) in;
layout(std430, binding = 0) writeonly buffer gpuc_output_block { $OUT_TEXEL gpuc_output[]; };
$MAP_BLOCKSuniform uint gpuc_first_cell;
uniform uint gpuc_cell_count;

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint gpuc_k = 0u; gpuc_k < $CELLS_PER_INVOCATIONu; gpuc_k++) {
        uint gpuc_lane = gl_GlobalInvocationID.x + gpuc_k * stride;
        uint local_cell = gpuc_lane * $LANE_CELLSu;
        if (local_cell >= gpuc_cell_count)
            return;
        int gpuc_first = int((gpuc_first_cell / $LANE_CELLSu + gpuc_lane) * $LANE_CELLSu);
$CELLS$STORES    }
}

//@ lane_cell
        {
            int cell = gpuc_first + $K;
            $THREAD
            $BEFORE_KERNEL
            $CALL
            $SAVES
        }

//@ lane_cell_guarded
        if (local_cell + $Ku < gpuc_cell_count) {
            int cell = gpuc_first + $K;
            $THREAD
            $BEFORE_KERNEL
            $CALL
            $SAVES
        }

//@ jam_cells
        {
            int cell = gpuc_first;
            $THREAD
            $FUNCTION($VALUES);
        }

//@ jam_cells_tails
        {
            int cell = gpuc_first;
            $THREAD
            if (thread.x + $LANE_CELLS <= gpuc_grid.x && local_cell + $LANE_CELLSu <= gpuc_cell_count) {
                $FUNCTION($VALUES);
            } else {
                int gpuc_cells = int(min(gpuc_cell_count - local_cell, $LANE_CELLSu));
                for (int gpuc_c = 0; gpuc_c < gpuc_cells; gpuc_c++) {
                    int cell = gpuc_first + gpuc_c;
                    $THREAD
                    $RETURN_TYPE result = $KERNEL();
$PICKS                }
            }
        }

//@ tail_pick
                    if (gpuc_c == $K)
                        $VAR = result;

//@ lane_value
        $TYPE $VAR = $TYPE(0);

//@ texel_store
        $BLOCK[gpuc_lane * $TEXELSu + $Ju] = $VALUE;

//@ texel_store_guarded
        if (local_cell + $CELLu < gpuc_cell_count)
            $BLOCK[gpuc_lane * $TEXELSu + $Ju] = $VALUE;

//@ texel_pairs
// A texel's bits as two 64-bit words (stored in two scalar steps on llvmpipe rather than four).
u64vec2 gpuc_pairs(uvec4 b) { return u64vec2(packUint2x32(b.xy), packUint2x32(b.zw)); }
u64vec2 gpuc_pairs(vec4 v) { return gpuc_pairs(floatBitsToUint(v)); }
u64vec2 gpuc_pairs(ivec4 v) { return gpuc_pairs(uvec4(v)); }
