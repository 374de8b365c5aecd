// C = A × B for square N×N row-major f32 matrices, N a multiple of 32.
// Each 16×16 workgroup computes a 32×32 tile of C; each invocation a 2×2 block,
// with 32×32 tiles of A and B staged in workgroup memory (8 KiB).
const TILE: u32 = 32u;

struct Dims { n: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> tile_a: array<f32, 1024>;
var<workgroup> tile_b: array<f32, 1024>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = dims.n;
    let row0 = wid.y * TILE + lid.y * 2u;
    let col0 = wid.x * TILE + lid.x * 2u;
    var acc00 = 0.0; var acc01 = 0.0; var acc10 = 0.0; var acc11 = 0.0;
    for (var k0 = 0u; k0 < n; k0 += TILE) {
        // 256 invocations load 1024 elements of each tile: four each.
        for (var i = 0u; i < 4u; i++) {
            let idx = (lid.y * 16u + lid.x) * 4u + i;
            let r = idx / TILE;
            let col = idx % TILE;
            tile_a[idx] = a[(wid.y * TILE + r) * n + k0 + col];
            tile_b[idx] = b[(k0 + r) * n + wid.x * TILE + col];
        }
        workgroupBarrier();
        for (var k = 0u; k < TILE; k++) {
            let a0 = tile_a[(lid.y * 2u) * TILE + k];
            let a1 = tile_a[(lid.y * 2u + 1u) * TILE + k];
            let b0 = tile_b[k * TILE + lid.x * 2u];
            let b1 = tile_b[k * TILE + lid.x * 2u + 1u];
            acc00 += a0 * b0; acc01 += a0 * b1;
            acc10 += a1 * b0; acc11 += a1 * b1;
        }
        workgroupBarrier();
    }
    c[row0 * n + col0] = acc00;
    c[row0 * n + col0 + 1u] = acc01;
    c[(row0 + 1u) * n + col0] = acc10;
    c[(row0 + 1u) * n + col0 + 1u] = acc11;
}
