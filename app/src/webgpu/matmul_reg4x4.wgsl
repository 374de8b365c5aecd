// C = A × B for square N×N row-major f32 matrices, N a multiple of 64.
// Register tiling: each 16×16 workgroup computes a 64×64 tile of C, each invocation a
// 4×4 block held in registers; A and B are staged through workgroup memory 16 columns
// (rows) at a time: 2 × 64 × 16 floats = 8 KiB, inside the default 16 KiB.
const TM: u32 = 64u;
const TK: u32 = 16u;

struct Dims { n: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<f32, 1024>; // 64 rows × 16 k
var<workgroup> tile_b: array<f32, 1024>; // 16 k × 64 cols

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = dims.n;
    let flat = lid.y * 16u + lid.x;
    var acc: array<array<f32, 4>, 4>;
    for (var k0 = 0u; k0 < n; k0 += TK) {
        for (var i = 0u; i < 4u; i++) {
            let idx = flat * 4u + i;
            // A tile: 64 rows × 16 columns; B tile: 16 rows × 64 columns.
            tile_a[idx] = a[(wid.y * TM + idx / TK) * n + k0 + idx % TK];
            tile_b[idx] = b[(k0 + idx / TM) * n + wid.x * TM + idx % TM];
        }
        workgroupBarrier();
        for (var k = 0u; k < TK; k++) {
            var av: array<f32, 4>;
            var bv: array<f32, 4>;
            for (var i = 0u; i < 4u; i++) {
                av[i] = tile_a[(lid.y * 4u + i) * TK + k];
                bv[i] = tile_b[k * TM + lid.x * 4u + i];
            }
            for (var i = 0u; i < 4u; i++) {
                for (var j = 0u; j < 4u; j++) {
                    acc[i][j] = fma(av[i], bv[j], acc[i][j]);
                }
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
            c[(wid.y * TM + lid.y * 4u + i) * n + wid.x * TM + lid.x * 4u + j] = acc[i][j];
        }
    }
}
