//! Diffusion pipelines: denoiser steps by the roofline, the eager forward pass's traffic
//! of diffusion transformers, and the VAE decode.

use super::*;
use crate::model::Model;

/// Denoiser passes per step when the model does not say: classifier-free guidance runs the
/// prompt's prediction and the unconditional one (diffusers does both, as a batch of two,
/// whenever `guidance_scale > 1`, the default for SD 1.5 and SDXL's pipelines).
/// Guidance-distilled models set `guidance_passes: 1`.
pub const CFG_PASSES: f64 = 2.0;

/// Bytes a diffusion transformer's forward pass moves through memory per byte of activation
/// its layers produce (`stored_activations_per_sample`, as in training). diffusers runs the denoiser eagerly, as PyTorch
/// training does: its norms, modulations (scale, shift, gate), activations, RoPE and
/// residual adds each read and write whole tensors between the matmuls. A forward pass is a
/// third of a training step's element-wise work, as it is a third of its FLOPs (backward
/// twice the forward), so a third of `TRAINING_TRAFFIC_PASSES`; derived from that constant,
/// not set from a diffusion fixture. LLM runtimes (llama.cpp, vLLM) fuse these operations
/// and keep the plain roofline.
pub const FORWARD_TRAFFIC_PASSES: f64 = TRAINING_TRAFFIC_PASSES / 3.0;

/// The shortest a denoiser step takes in eager PyTorch, however fast the GPU: diffusers
/// launches each of the step's kernels from Python, one after another, so at batch 1 a fast
/// card waits on the host (torch.compile and CUDA graphs exist to remove this). Fitted on one
/// row: the diffusers PyTorch 2.0 page's RTX 4090 figure for SD 1.5 (40.5 denoising
/// iterations per second, SDPA, no compile: 24.7 ms a step). Held out: the same card's
/// OneDiff baseline (38.3 it/s, another host a year later), fal.ai's A100 and Lambda's H100
/// runs. One figure for every denoiser: larger ones launch more kernels, so for them it is
/// a lower bound, and their GPU time passes it on all but the fastest cards.
pub const EAGER_STEP_FLOOR_S: f64 = 50.0 / 40.5 / 50.0;

/// The same floor on a datacenter card, which runs in a server: Python launches the step's
/// kernels on the host CPU, and a server CPU's single thread is slower than a desktop's, so
/// an A100 or H100 at batch 1 waits on its host longer than a 4090 does. The diffusers
/// PyTorch 2.0 page shows the split: SD 1.5 at batch 1 runs 21.66 iterations per second
/// eager on its A100 and 44.03 with `torch.compile`'s CUDA graphs (which launch the whole
/// step at once), so half of each eager step is host time; its RTX 4090 runs 40.5 eager and
/// 44.65 compiled. Fitted on fal.ai's two eager SD 1.5 rows (A100 80 GB SXM, diffusers 0.22,
/// torch 2.1, 50 steps end to end: 1.604 s with SDPA, 1.729 s with xformers), their mean
/// per step; their text encoding and VAE decode, about 2% of the call on that card, are
/// left in. Held out: ONNX Runtime's A100 40 GB torch 2.0 row (1.50 s) and Lambda's H100
/// PCIe row. Workstation cards (RTX A6000, RTX 6000 Ada) sit in desktop towers as often as
/// in servers and keep the desktop figure.
pub const SERVER_EAGER_STEP_FLOOR_S: f64 = (1.604 + 1.729) / 2.0 / 50.0;

/// The eager step floor for the host a GPU is installed in (`EAGER_STEP_FLOOR_S`,
/// `SERVER_EAGER_STEP_FLOOR_S`).
pub fn eager_step_floor(gpu: &Gpu) -> f64 {
    if gpu.segment == Segment::Datacenter {
        SERVER_EAGER_STEP_FLOOR_S
    } else {
        EAGER_STEP_FLOOR_S
    }
}

/// Images per second of a diffusion pipeline: `steps` denoiser steps of the model's guidance
/// passes, each the larger of its compute and its weight reads (the roofline) plus, for a
/// diffusion transformer, the element-wise traffic of its eager forward pass
/// (`FORWARD_TRAFFIC_PASSES`) and never under the host's launch time (`eager_step_floor`),
/// then one VAE decode per image. Text encoding runs once per
/// prompt and is left out (under 1% of an SDXL image's FLOPs).
pub(super) fn diffusion_speed(
    gpu: &Gpu,
    sized: &Sized,
    workload: &Workload,
    placement: &Placement,
    (rate, (mfu_lo, mfu_hi), link, rates): (RateKind, (f64, f64), Link, Terms),
    flops: &dyn Fn(f64) -> f64,
    bw: &dyn Fn(f64) -> f64,
) -> Option<Speed> {
    let model = sized.model;
    let pcie_gbs = gpu
        .pcie
        .as_ref()
        .map_or(ASSUMED_LINK_GBS, |p| p.bandwidth_gbs());
    let floor = eager_step_floor(gpu);
    let b = f64::from(workload.batch);
    let n = f64::from(placement.gpus);
    let denoiser = sized.gflops_per_sample? * 1e9;
    // The VAE decoder's FLOPs scale with the pixels, as the denoiser's do.
    let pixels = pixel_scale(model, workload);
    let decode = model.decoder_gflops.map_or(0.0, |g| g * 1e9 * pixels);
    let steps = f64::from(workload.steps());
    let passes = model.guidance_passes.map_or(CFG_PASSES, f64::from);
    // Offloaded, each batch of images moves the encoders, the denoiser and the VAE to the
    // GPU and back out once over PCIe.
    let moved = if placement.savers.pipeline_offload {
        let bits = workload.precision.weight_bits() / 8.0;
        2.0 * (model.params() + model.pipeline_params_b.unwrap_or(0.0) * 1e9) * bits
            / (pcie_gbs * 1e9 * LINK_EFFICIENCY)
    } else {
        0.0
    };
    // Weights stored in 8 bits and multiplied in 16 (`cast_bytes`): the matmuls read the
    // 16-bit copies each pass writes.
    let cast = cast_bytes(model, workload.precision) / n;
    let stored_bits = if cast > 0.0 {
        16.0
    } else {
        workload.precision.weight_bits()
    };
    let weights = model.params() * stored_bits / 8.0 / n;
    // Element-wise traffic of one step's passes over the batch (diffusion transformers).
    let traffic = if sized.transformer.is_some() {
        FORWARD_TRAFFIC_PASSES * stored_activations_per_sample(sized, workload) * passes * b / n
    } else {
        0.0
    };
    let step = |bw_eff: f64, mfu: f64| {
        (passes * denoiser * b / (flops(mfu) * n)).max(weights / bw(bw_eff))
            + (traffic + cast) / bw(bw_eff)
    };
    let image = |bw_eff: f64, mfu: f64| {
        steps * step(bw_eff, mfu).max(floor) + decode * b / (flops(mfu) * n) + moved
    };
    let bound = if passes * denoiser * b / flops(0.4) >= weights / bw(0.75) {
        Bound::Compute
    } else {
        Bound::Memory
    };
    let (mfu, bw_mid) = (mid((mfu_lo, mfu_hi)), mid(BANDWIDTH_EFFICIENCY));
    let terms = Terms {
        per_step: b,
        compute_s: (steps * passes * denoiser * b + decode * b) / (flops(mfu) * n),
        memory_s: steps * (weights + traffic + cast) / bw(bw_mid),
        communication_s: moved,
        // The host's share of a step the GPU's own work does not fill.
        fixed_s: steps * (floor - step(bw_mid, mfu)).max(0.0),
        ..rates
    };
    Some(Speed {
        terms,
        rate,
        bound,
        unit: Unit::Images,
        throughput: Range::new(
            b / image(BANDWIDTH_EFFICIENCY.0, mfu_lo),
            b / image(BANDWIDTH_EFFICIENCY.1, mfu_hi),
        ),
        job_hours: None,
        prefill_seconds: None,
        gpus_used: placement.gpus,
        scaling_efficiency: 1.0,
        link,
    })
}

/// Bytes a denoiser step moves to turn weights stored in 8 bits into the 16-bit weights its
/// matmuls multiply: each forward pass (classifier-free guidance's two predictions run as
/// one batch) reads every layer's stored weights and writes their 16-bit copy, as
/// diffusers' layerwise casting, ComfyUI's FP8 weights and its GGUF files do; zero for
/// weights stored as they are multiplied. Derived from the bytes, not fitted: diffusers'
/// benchmark CI (an L40; `benchmarks/README.md`, `collated_results.csv` in its benchmarks
/// dataset) times FLUX.1 [dev]'s transformer forward at 1024×1024 in BF16 and with
/// layerwise FP8 storage at 0.493 and 0.549 s, 0.532 and 0.598, 0.535 and 0.599, 0.547 and
/// 0.603 over four runs: 56–66 ms more a pass, where these 3 bytes for each of its 11.9 B
/// parameters at the L40's 864 GB/s and the band's middle efficiency take 55 ms
/// (`the_eight_bit_cast_costs_what_diffusers_measures`).
pub fn cast_bytes(model: &Model, precision: Precision) -> f64 {
    if !precision.is_gguf() {
        return 0.0;
    }
    model.params() * (precision.weight_bits() / 8.0 + 2.0)
}

/// The image's pixels over those of the model's default resolution (`seq` is the side).
fn pixel_scale(model: &Model, workload: &Workload) -> f64 {
    match (workload.seq, model.resolution) {
        (Some(s), Some(d)) if d > 0 => (f64::from(s) / f64::from(d)).powi(2),
        _ => 1.0,
    }
}

/// Bytes of score matrices one image's denoising step moves when its self-attention
/// writes them to memory: PyTorch before 2.0 without xformers computes the scores
/// (`baddbmm`), their softmax and their product with the values (`bmm`) one kernel after
/// another, so each 16-bit score is written, read and written again by the softmax, and
/// read: four passes of 2 bytes, a lower bound (a softmax upcast to FP32 moves more).
/// Fused attention (PyTorch's SDPA, xformers, FlashAttention) keeps the scores on chip,
/// as every other estimate here assumes. From the model's `self_attention` layout, whose
/// token counts grow with the pixels; zero for a model without one.
pub fn unfused_attention_bytes(model: &Model, workload: &Workload) -> f64 {
    let pixels = pixel_scale(model, workload);
    let passes = model.guidance_passes.map_or(CFG_PASSES, f64::from);
    let scores: f64 = model
        .self_attention
        .iter()
        .map(|&[tokens, layers, heads]| {
            let n = f64::from(tokens) * pixels;
            f64::from(layers) * f64::from(heads) * n * n
        })
        .sum();
    4.0 * 2.0 * scores * passes
}

/// Seconds one denoising step of one image spends on those score matrices
/// (`unfused_attention_bytes`) at the memory bandwidth the estimates assume; `None`
/// without the GPU's bandwidth.
pub fn unfused_attention_seconds(gpu: &Gpu, model: &Model, workload: &Workload) -> Option<f64> {
    let bandwidth = gpu.memory_bandwidth_gbs? * 1e9 * mid(BANDWIDTH_EFFICIENCY);
    Some(unfused_attention_bytes(model, workload) / bandwidth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Catalog;
    use crate::workload::ModelChoice;

    #[test]
    fn the_eight_bit_cast_costs_what_diffusers_measures() {
        let catalog = Catalog::embedded();
        let flux = catalog.model("flux.1-dev").expect("flux preset");
        let l40 = catalog.gpu("l40").expect("l40");
        let seconds = cast_bytes(flux, Precision::Q8_0)
            / (l40.memory_bandwidth_gbs.expect("bandwidth") * 1e9 * mid(BANDWIDTH_EFFICIENCY));
        // diffusers' four L40 runs: 56, 66, 64 and 56 ms more a forward pass.
        assert!((0.045..0.070).contains(&seconds), "{seconds}");
        assert_eq!(cast_bytes(flux, Precision::Bf16), 0.0);
    }

    #[test]
    fn unfused_attention_moves_every_score_four_times_per_guidance_pass() {
        let catalog = Catalog::embedded();
        let sd = catalog.model("sd-1.5").expect("sd-1.5 preset");
        let at = |seq| Workload {
            model: ModelChoice::Preset("sd-1.5".into()),
            seq,
            ..Workload::default()
        };
        // 8 heads × (5·4096² + 5·1024² + 5·256² + 64²) scores, two guidance passes, 8 bytes.
        let scores =
            8.0 * (5.0 * 4096f64.powi(2) + 5.0 * 1024f64.powi(2) + 5.0 * 256f64.powi(2) + 4096.0);
        assert_eq!(unfused_attention_bytes(sd, &at(None)), 2.0 * 8.0 * scores);
        // Twice the side, four times the tokens, sixteen times the scores.
        assert_eq!(
            unfused_attention_bytes(sd, &at(Some(1024))),
            16.0 * unfused_attention_bytes(sd, &at(None))
        );
        let llama = catalog.model("llama-3.1-8b").expect("llama preset");
        assert_eq!(unfused_attention_bytes(llama, &at(None)), 0.0);
    }
}
