// C = A × B for square N×N row-major f32 matrices, N a multiple of 128, read and
// written as vec4.
// Each 16×16 workgroup computes a 128×128 tile of C; each invocation an 8×8 block in
// registers: rows 8·y … 8·y+7, and two vec4 column groups 4·x and 64 + 4·x, so that
// neighbouring invocations read neighbouring vec4s of the B tile. K advances 8 at a
// time: A transposed (8 × 128) and B (8 × 32 vec4s), 2 × 1024 floats = 8 KiB.
// The FP16 kernel is this one with `scalar` aliased to f16 (`catalog::bench::f16_kernel`):
// inputs, tiles and accumulators in half precision on the shader cores (WGSL reaches no
// tensor cores); C stays f32 for the CPU check.
alias scalar = f32;

const TILE: u32 = 128u;
const TK: u32 = 8u;

struct Dims { n: u32 }

@group(0) @binding(0) var<storage, read> a: array<vec4<scalar>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<scalar>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<scalar, 1024>;       // [k][row]
var<workgroup> tile_b: array<vec4<scalar>, 256>;  // [k][column / 4]

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n4 = dims.n / 4u;
    let flat = lid.y * 16u + lid.x;
    var acc: array<vec4<scalar>, 16>; // [row i][column group g] at 2·i + g
    for (var k0 = 0u; k0 < dims.n; k0 += TK) {
        // Each tile is 256 vec4s: one of each per invocation.
        // A: 128 rows × 2 vec4s along k.
        let row = flat / 2u;
        let k4 = flat % 2u;
        let av = a[(wid.y * TILE + row) * n4 + k0 / 4u + k4];
        tile_a[(k4 * 4u) * TILE + row] = av.x;
        tile_a[(k4 * 4u + 1u) * TILE + row] = av.y;
        tile_a[(k4 * 4u + 2u) * TILE + row] = av.z;
        tile_a[(k4 * 4u + 3u) * TILE + row] = av.w;
        // B: 8 rows along k × 32 vec4s of columns.
        tile_b[flat] = b[(k0 + flat / 32u) * n4 + wid.x * 32u + flat % 32u];
        workgroupBarrier();
        for (var k = 0u; k < TK; k++) {
            let b0 = tile_b[k * 32u + lid.x];
            let b1 = tile_b[k * 32u + 16u + lid.x];
            for (var i = 0u; i < 8u; i++) {
                let ai = vec4<scalar>(tile_a[k * TILE + lid.y * 8u + i]);
                acc[2u * i] = fma(ai, b0, acc[2u * i]);
                acc[2u * i + 1u] = fma(ai, b1, acc[2u * i + 1u]);
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 8u; i++) {
        let out = (wid.y * TILE + lid.y * 8u + i) * n4 + wid.x * 32u;
        c[out + lid.x] = vec4<f32>(acc[2u * i]);
        c[out + 16u + lid.x] = vec4<f32>(acc[2u * i + 1u]);
    }
}
