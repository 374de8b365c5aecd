//! The benchmark's WGSL shaders parse and validate (naga's WGSL front end and validator).

fn validate(name: &str, source: &str) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{name}: {e:?}"));
}

#[test]
fn benchmark_shaders_validate() {
    validate(
        "matmul_tiled.wgsl",
        include_str!("../../app/src/webgpu/matmul_tiled.wgsl"),
    );
    validate(
        "matmul_reg4x4.wgsl",
        include_str!("../../app/src/webgpu/matmul_reg4x4.wgsl"),
    );
    validate(
        "bandwidth.wgsl",
        include_str!("../../app/src/webgpu/bandwidth.wgsl"),
    );
}
