//! GPU Advisor's brain: the GPU catalog and model presets (JSON, embedded at
//! compile time and validated by tests), the estimators that turn a workload into
//! memory, speed and cost for each GPU, the ranking with its reasons, the URL codec
//! that makes every view a link, and the arithmetic of the in-page benchmark.
//!
//! Nothing here touches the browser: the `app` crate binds these functions to the
//! page, and everything can be tested natively with `cargo test`.

pub mod adapter;
pub mod bench;
pub mod chart;
pub mod command;
pub mod data;
pub mod decimal;
pub mod deploy;
pub mod estimate;
pub mod evidence;
pub mod export;
pub mod gpu;
pub mod host;
pub mod html;
pub mod json;
pub mod memory;
pub mod model;
pub mod order;
pub mod quant;
pub mod rank;
pub mod share;
pub mod stack;
pub mod support;
pub mod validate;
pub mod workload;

pub use data::Catalog;
pub use gpu::Gpu;
pub use model::Model;
