// fragment_main.glsl - the fragment-shader main() of the fragment backend (GPU.js's own model): a
// triangle covering the render target is drawn, and each pixel computes one output cell. A target row
// holds gpuc_row_width cells of the flat output (x fastest), so a 2D output no wider than the largest
// target is laid out as GPU.js lays it out (pixel (x, y) is thread (x, y)), a 3D one as its z slices
// stacked in y; a longer output is drawn as several tiles of rows, gpuc_first_cell saying where the
// current tile starts. Pixels past the end of the output are discarded. `thread` comes from the flat
// cell as in compute_main.glsl (thread_1d/2d/3d).

//@ vertex
#version 430
// One triangle that covers the whole viewport (clip space -1..3), no vertex buffers needed.
void main()
{
    vec2 corner = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    gl_Position = vec4(corner, 0.0, 1.0);
}

//@ main
layout(location = 0) out $OUT_TYPE gpuc_out;
$MAP_OUTS
uniform int gpuc_first_cell;
uniform int gpuc_row_width;
uniform int gpuc_cell_end;

void main()
{
    int cell = gpuc_first_cell + int(gl_FragCoord.y) * gpuc_row_width + int(gl_FragCoord.x);
    if (cell >= gpuc_cell_end)
        discard;
    $THREAD
    $BEFORE_KERNEL
    $CALL
    $STORE
}

//@ thread_1d
thread = ivec3(cell, 0, 0);

//@ thread_2d
thread = ivec3(cell % gpuc_grid.x, cell / gpuc_grid.x, 0);

//@ thread_3d
thread = ivec3(cell % gpuc_grid.x, (cell / gpuc_grid.x) % gpuc_grid.y, cell / (gpuc_grid.x * gpuc_grid.y));

//@ call
$RETURN_TYPE result = $KERNEL();

//@ call_graphical
gpuc_color = vec4(0.0);
    $KERNEL();

//@ store_cell
gpuc_out = result;

//@ store_vec3
gpuc_out = vec4(result, 0.0);

//@ store_graphical
gpuc_out = gpuc_color;

//@ map_out
layout(location = $LOCATION) out $OUT_TYPE gpuc_map_out_$INDEX;

//@ map_reset
gpuc_map_$INDEX = $TYPE(0);

//@ map_store_cell
gpuc_map_out_$INDEX = gpuc_map_$INDEX;

//@ map_store_vec3
gpuc_map_out_$INDEX = vec4(gpuc_map_$INDEX, 0.0);

