//! The WebGPU microbenchmark: every call into WebGPU lives here. Sizes, repeat counts,
//! statistics and placement come from `catalog::bench`; the kernels are the `.wgsl`
//! files beside this module, validated natively by the catalog crate's tests.
//!
//! `measure::run` and `view::render` are this crate's WebAssembly module (built by trunk
//! into `measure/`), which the views module loads (its `measurement`) only when the
//! person starts a run. `measure` needs web-sys's WebGPU bindings, which exist only with
//! `--cfg=web_sys_unstable_apis` (set for wasm32 in `.cargo/config.toml`).
//!
//! Timing: GPU timestamps at the start and end of each timed pass where the adapter has
//! `timestamp-query` (Chrome rounds them to 100 µs, under 0.2% of a 50 ms batch);
//! otherwise the wall clock (`performance.now()`) from submit to `onSubmittedWorkDone`,
//! minus the latency of an empty submit. Each kernel's result says which.

#[cfg(web_sys_unstable_apis)]
pub mod measure;
pub mod view;

#[cfg(web_sys_unstable_apis)]
pub use measure::run;
