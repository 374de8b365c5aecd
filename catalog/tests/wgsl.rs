//! The benchmark's WGSL shaders parse and validate (naga's WGSL front end and validator),
//! including the FP16 form of the 128×128 matmul that adapters with `shader-f16` get.
//! The FP32 kernels are checked against the CPU in the browser tests; the FP16 one
//! cannot be there (the software adapter has no `shader-f16`), which is why it is not a
//! separate file but the checked FP32 kernel with its `scalar` alias switched.

use catalog::bench::f16_kernel;
use naga::valid::Capabilities;

const MATMUL_32: &str = include_str!("../../app/measure/src/matmul_32.wgsl");
const MATMUL_128: &str = include_str!("../../app/measure/src/matmul_128.wgsl");
const BANDWIDTH: &str = include_str!("../../app/measure/src/bandwidth.wgsl");

fn validate(name: &str, source: &str, capabilities: Capabilities) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| format!("{name}: {}", e.emit_to_string(source)))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .map(|_| ())
        .map_err(|e| format!("{name}: {e:?}"))
}

#[test]
fn benchmark_shaders_validate() {
    for (name, source) in [
        ("matmul_32.wgsl", MATMUL_32),
        ("matmul_128.wgsl", MATMUL_128),
        ("bandwidth.wgsl", BANDWIDTH),
    ] {
        validate(name, source, Capabilities::empty()).unwrap_or_else(|e| panic!("{e}"));
    }
    let f16 = f16_kernel(MATMUL_128).expect("matmul_128.wgsl has the scalar alias");
    validate("matmul_128.wgsl as f16", &f16, Capabilities::SHADER_FLOAT16)
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_f16_kernel_needs_the_f16_capability() {
    let f16 = f16_kernel(MATMUL_128).expect("matmul_128.wgsl has the scalar alias");
    assert!(
        validate("f16", &f16, Capabilities::empty()).is_err(),
        "an adapter without shader-f16 must not be given it"
    );
}
