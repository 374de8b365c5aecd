//! A language model larger than the GPU, run by llama.cpp with part of it in system
//! memory: a mixture of experts with the expert tensors of some layers on the CPU
//! (`--n-cpu-moe N`, the same as `-ot` patterns on `ffn_*_exps`), or a dense model with
//! only some layers on the GPU (`-ngl N`).
//!
//! Each decode step reads what is on the GPU at the GPU's bandwidth and what is in system
//! memory at the host's (the CPU computes the offloaded layers, whose matrix-vector work is
//! bound by reading their weights). A prompt is different: llama.cpp copies the weights
//! of offloaded layers to the GPU for each batch of prompt tokens it processes (ubatch,
//! `-ub`, 512 by default) and computes them there, so a prompt pays a PCIe transfer of
//! every offloaded byte per ubatch.

use super::*;
use crate::host::Host;

/// Share of the host's peak memory bandwidth that llama.cpp's CPU decode reads offloaded
/// weights at, low and high. Low: a Ryzen 5 9600X with dual-channel DDR5-5600 reads
/// 46.4 GB/s of 89.6 in memtest86+ (memtest86plus issue 557, 2025-10; a Ryzen 7 9700X with
/// the same memory reads 62.9); high: llama.cpp's CPU decode reached at least 78% of an
/// Apple M1's memory bandwidth (llama.cpp PR 1642, 2023-06). Not fitted: every offloaded
/// run in the calibration file is held out.
pub const HOST_DECODE_BANDWIDTH: (f64, f64) = (0.52, 0.78);

/// Prompt tokens llama.cpp processes per batch (`-ub`, `--ubatch-size`, default 512):
/// offloaded weights cross PCIe once per batch.
pub const LLAMACPP_UBATCH: f64 = 512.0;

/// How the model is split between the GPU and system memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Offload {
    /// `--n-cpu-moe N`: the expert tensors of `layers` of the model's `of` layers in
    /// system memory; attention, shared weights and the KV cache stay on the GPU.
    Experts { layers: u32, of: u32 },
    /// `-ngl N`: `on_gpu` of the model's `of` layers on the GPU, the rest (weights and
    /// their KV cache) in system memory.
    Layers { on_gpu: u32, of: u32 },
}

/// What a placement keeps in system memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HostShare {
    pub offload: Offload,
    /// Weights in system memory.
    pub weight_bytes: f64,
    /// KV cache in system memory (the offloaded layers' under `-ngl`).
    pub kv_bytes: f64,
    /// Bytes one decode step reads from system memory: the offloaded experts the batch's
    /// tokens are routed to, or every offloaded layer and its cache.
    pub read_bytes: f64,
    pub host: Host,
}

impl HostShare {
    pub fn bytes(&self) -> f64 {
        self.weight_bytes + self.kv_bytes
    }

    /// Seconds one decode step spends reading system memory, at the band's two ends.
    pub fn read_seconds(&self) -> (f64, f64) {
        let peak = self.host.bandwidth_gbs() * 1e9;
        (
            self.read_bytes / (peak * HOST_DECODE_BANDWIDTH.1),
            self.read_bytes / (peak * HOST_DECODE_BANDWIDTH.0),
        )
    }

    /// Seconds a prompt of `tokens` spends copying offloaded weights to the GPU over a
    /// PCIe link of `pcie_gbs`, once per micro-batch: `ubatch` tokens where the run sets
    /// `-ub`, else `LLAMACPP_UBATCH`. The scheduler computes each micro-batch's graph on
    /// its own and copies the weights of an offloaded layer in for each one, so a larger
    /// `-ub` divides the copies (a prompt of `-ub` tokens or fewer copies once).
    pub fn prompt_copy_seconds(&self, tokens: f64, ubatch: Option<u32>, pcie_gbs: f64) -> f64 {
        let ubatch = ubatch.map_or(LLAMACPP_UBATCH, f64::from).max(1.0);
        (tokens / ubatch).ceil().max(1.0) * self.weight_bytes / (pcie_gbs * 1e9 * LINK_EFFICIENCY)
    }
}

/// The memory left on the GPU once `weights` and `kv` bytes move to system memory: the
/// allocator's slack shrinks with what it holds.
fn moved(full: &MemoryBreakdown, weights: f64, kv: f64) -> MemoryBreakdown {
    let mut m = *full;
    m.weights -= weights;
    m.kv_cache -= kv;
    let live = m.weights + m.gradients + m.optimizer + m.adapters + m.activations + m.kv_cache;
    m.overhead = memory::CONTEXT_BYTES + memory::ALLOCATOR_SLACK * live;
    m
}

/// The GPU's memory and the host's share under one split. `None` for a split the model
/// has no room for (more layers than it has, experts on a dense model).
pub fn split(
    sized: &Sized,
    workload: &Workload,
    offload: Offload,
) -> Option<(MemoryBreakdown, HostShare)> {
    let t = sized.transformer?;
    let model = sized.model;
    let full = memory::breakdown(sized, workload, Sharding::Single);
    let layers = t.layers;
    let bits = sized.weight_bits(workload);
    let (weight_bytes, kv_bytes, read_bytes) = match offload {
        Offload::Experts { layers: n, of } => {
            let (e, k) = (f64::from(model.experts?), f64::from(model.active_experts?));
            if e <= k || n == 0 || n > of {
                return None;
            }
            let expert = (model.params() - model.active_params()) / (e - k);
            let per_layer = e * expert * bits / 8.0 / layers;
            let weights = per_layer * f64::from(n);
            // The share of a layer's experts one step's tokens touch
            // (`Model::params_read`).
            let shared = model.active_params() - k * expert;
            let touched = (model.params_read(workload.batch) - shared) / (e * expert);
            (weights, 0.0, weights * touched)
        }
        Offload::Layers { on_gpu, of } => {
            if on_gpu >= of {
                return None;
            }
            let off = f64::from(of - on_gpu) / layers;
            let read = model.params_read(workload.batch) / model.params();
            // llama.cpp keeps the token embeddings in system memory, and the output layer
            // (the LM head) on the GPU only when `-ngl` covers more than the repeating
            // layers: a split that leaves layers on the CPU leaves the head there too, and
            // the CPU reads all of it every step. Bytes per parameter as the model's mean.
            let head = model
                .vocab
                .zip(model.hidden)
                .map_or(0.0, |(v, h)| f64::from(v) * f64::from(h))
                * full.weights
                / model.params();
            let embeddings = head * f64::from(model.embedding_matrices.unwrap_or(1).max(1));
            let repeating = (full.weights - embeddings).max(0.0);
            let weights = repeating * off + embeddings;
            let kv = full.kv_cache * off;
            (weights, kv, repeating * off * read + head + kv)
        }
    };
    let share = HostShare {
        offload,
        weight_bytes,
        kv_bytes,
        read_bytes,
        host: workload.host,
    };
    Some((moved(&full, weight_bytes, kv_bytes), share))
}

/// The split a person tunes to: for a mixture of experts, the fewest layers' experts on
/// the CPU that let the rest fit on the GPU (`--n-cpu-moe`); for a dense model (or a
/// mixture whose attention and shared weights alone do not fit), the most layers that fit
/// on the GPU (`-ngl`). `None` when nothing useful fits on the GPU or what is offloaded
/// does not fit in the host's memory (`Host::usable_bytes`).
pub fn place_offloaded(sized: &Sized, workload: &Workload, usable: f64) -> Option<Placement> {
    let t = sized.transformer?;
    if workload.task != Task::Infer || !sized.model.family.is_decoder() {
        return None;
    }
    let of = t.layers as u32;
    let fits = |(m, h): &(MemoryBreakdown, HostShare)| {
        m.total() <= usable && h.bytes() <= workload.host.usable_bytes()
    };
    let experts = sized.model.experts.is_some();
    let by_experts = (1..=of)
        .filter(|_| experts)
        .filter_map(|layers| split(sized, workload, Offload::Experts { layers, of }))
        .find(|s| s.0.total() <= usable);
    let chosen = match by_experts {
        Some(s) => Some(s),
        None => (1..of)
            .rev()
            .filter_map(|on_gpu| split(sized, workload, Offload::Layers { on_gpu, of }))
            .find(|s| s.0.total() <= usable),
    }
    .filter(fits)?;
    let (memory, host) = chosen;
    Some(Placement {
        gpus: 1,
        sharding: Sharding::Single,
        memory,
        savers: Savers::default(),
        host: Some(host),
        paged_optimizer: 0.0,
    })
}
