// C = A × B for square N×N row-major f32 matrices, N a multiple of 32, read and
// written as vec4 (four columns at a time).
// Each 8×8 workgroup computes a 32×32 tile of C; each invocation a 4×4 block held in
// registers as four vec4 rows. K advances 32 at a time through workgroup memory:
// A transposed (k-major, so an invocation's four rows are adjacent) and B as vec4 rows,
// 2 × 32 × 32 floats = 8 KiB, inside the default 16 KiB.
const TILE: u32 = 32u;

struct Dims { n: u32 }

@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<f32, 1024>;       // [k][row]
var<workgroup> tile_b: array<vec4<f32>, 256>;  // [k][column / 4]

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n4 = dims.n / 4u;
    let flat = lid.y * 8u + lid.x;
    var acc: array<vec4<f32>, 4>;
    for (var k0 = 0u; k0 < dims.n; k0 += TILE) {
        // Each tile is 256 vec4s; 64 invocations load four of each.
        for (var i = 0u; i < 4u; i++) {
            let v = flat * 4u + i;
            // A: 32 rows × 8 vec4s along k.
            let row = v / 8u;
            let k4 = v % 8u;
            let av = a[(wid.y * TILE + row) * n4 + k0 / 4u + k4];
            tile_a[(k4 * 4u) * TILE + row] = av.x;
            tile_a[(k4 * 4u + 1u) * TILE + row] = av.y;
            tile_a[(k4 * 4u + 2u) * TILE + row] = av.z;
            tile_a[(k4 * 4u + 3u) * TILE + row] = av.w;
            // B: 32 rows along k × 8 vec4s of columns.
            tile_b[v] = b[(k0 + v / 8u) * n4 + wid.x * 8u + v % 8u];
        }
        workgroupBarrier();
        for (var k = 0u; k < TILE; k++) {
            let bv = tile_b[k * 8u + lid.x];
            for (var i = 0u; i < 4u; i++) {
                acc[i] = fma(vec4<f32>(tile_a[k * TILE + lid.y * 4u + i]), bv, acc[i]);
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        c[(wid.y * TILE + lid.y * 4u + i) * n4 + wid.x * 8u + lid.x] = acc[i];
    }
}
