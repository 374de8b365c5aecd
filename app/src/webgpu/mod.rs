//! The WebGPU microbenchmark: every call into WebGPU lives here. Sizes, repeat counts,
//! statistics and placement come from `catalog::bench`; the kernels are the `.wgsl`
//! files beside this module, validated natively by the catalog crate's tests.
//!
//! `measure::run` and `view::render` are compiled into their own WebAssembly module
//! (`src/bin/bench.rs`), which the page loads through `on_demand` only when the person
//! starts a run. `measure` needs web-sys's WebGPU bindings, which exist only with
//! `--cfg=web_sys_unstable_apis` (set for wasm32 in `.cargo/config.toml`).
//!
//! Timing: GPU timestamps at the start and end of each timed pass where the adapter has
//! `timestamp-query` (Chrome rounds them to 100 µs, under 0.2% of a 50 ms batch);
//! otherwise the wall clock (`performance.now()`) from submit to `onSubmittedWorkDone`,
//! minus the latency of an empty submit. Each kernel's result says which.

#[cfg(web_sys_unstable_apis)]
pub mod measure;
pub mod on_demand;
pub mod view;

#[cfg(web_sys_unstable_apis)]
pub use measure::run;

/// The message of a JavaScript error (or the value itself, when it is a string).
fn js_error(e: impl AsRef<wasm_bindgen::JsValue>) -> String {
    let e = e.as_ref();
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}
