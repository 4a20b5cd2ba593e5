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

