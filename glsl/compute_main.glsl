// compute_main.glsl - the compute-shader main() wrapped around a kernel: one invocation per output
// cell. An output larger than one dispatch (work group count, or the storage block size) is computed
// in several dispatches, each writing the buffer range bound for it; gpuc_first_cell says where
// this dispatch starts.

//@ main
layout(local_size_x = $LOCAL_SIZE) in;
layout(std430, binding = 0) writeonly buffer gpuc_output_block { $OUT_ELEMENT gpuc_output[]; };
uniform uint gpuc_first_cell;
uniform uint gpuc_cell_count;

void main()
{
    uint local_cell = gl_GlobalInvocationID.x;
    if (local_cell >= gpuc_cell_count)
        return;
    int cell = int(gpuc_first_cell + local_cell);
    thread = ivec3(cell % outputSize.x, (cell / outputSize.x) % outputSize.y, cell / (outputSize.x * outputSize.y));
    $RETURN_TYPE result = $KERNEL();
    $STORE
}

//@ store_cell
gpuc_output[local_cell] = result;

//@ store_vec3
gpuc_output[3u * local_cell] = result.x;
    gpuc_output[3u * local_cell + 1u] = result.y;
    gpuc_output[3u * local_cell + 2u] = result.z;
