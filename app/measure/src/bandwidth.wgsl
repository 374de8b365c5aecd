// Memory bandwidth kernels over vec4<f32> buffers, grid-stride so any dispatch size
// covers the whole buffer. `bw_read` sums into one value per invocation (written only if
// impossible-to-hit, so the loads cannot be optimised away); `bw_write` fills; `bw_copy` copies.

struct Params { len: u32, stride: u32 }

@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@group(0) @binding(2) var<uniform> params: Params;

@compute @workgroup_size(256)
fn bw_read(@builtin(global_invocation_id) gid: vec3<u32>) {
    var sum = vec4<f32>(0.0);
    for (var i = gid.x; i < params.len; i += params.stride) {
        sum += src[i];
    }
    // The sum of the benchmark's inputs is never negative.
    if (sum.x + sum.y + sum.z + sum.w < -1.0) {
        dst[gid.x] = sum;
    }
}

@compute @workgroup_size(256)
fn bw_write(@builtin(global_invocation_id) gid: vec3<u32>) {
    for (var i = gid.x; i < params.len; i += params.stride) {
        dst[i] = vec4<f32>(f32(i), 1.0, 2.0, 3.0);
    }
}

@compute @workgroup_size(256)
fn bw_copy(@builtin(global_invocation_id) gid: vec3<u32>) {
    for (var i = gid.x; i < params.len; i += params.stride) {
        dst[i] = src[i];
    }
}
