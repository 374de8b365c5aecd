//! The software a GPU runs deep learning on, and how much of its peak that software
//! reaches compared with CUDA. Peak figures are the silicon's; what PyTorch and its
//! libraries reach on them differs by vendor and stack, and the difference is measured:
//! each factor below is set from a published comparison of whole workloads (not fitted
//! to one of this project's calibration fixtures) and names it.

use crate::gpu::{Gpu, Vendor};
use crate::workload::Precision;

/// Achieved fraction of memory bandwidth by streaming kernels (decode, optimizer step).
pub const BANDWIDTH_EFFICIENCY: (f64, f64) = (0.60, 0.90);
/// Per-layer fixed cost of one decode step (kernel launches, synchronisation).
pub const DECODE_OVERHEAD_PER_LAYER_S: f64 = 50e-6;

/// The stack a GPU runs PyTorch-style workloads on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stack {
    Cuda,
    /// ROCm on Instinct (CDNA) accelerators.
    RocmInstinct,
    /// ROCm on Radeon RDNA 3 cards.
    RocmRadeon,
    /// ROCm on Radeon RDNA 4 cards, newly supported.
    RocmRdna4,
    Metal,
    Xla,
    /// oneAPI on Battlemage (Xe2) cards and later.
    OneApi,
    /// oneAPI on Alchemist (Xe-HPG), the first Arc generation.
    OneApiAlchemist,
    SynapseAi,
}

impl Stack {
    pub fn of(gpu: &Gpu) -> Stack {
        match gpu.vendor {
            Vendor::Nvidia => Stack::Cuda,
            Vendor::Amd if gpu.architecture.starts_with("RDNA 4") => Stack::RocmRdna4,
            Vendor::Amd if gpu.architecture.starts_with("RDNA") => Stack::RocmRadeon,
            Vendor::Amd => Stack::RocmInstinct,
            Vendor::Apple => Stack::Metal,
            Vendor::Google => Stack::Xla,
            Vendor::Intel if gpu.architecture.starts_with("Gaudi") => Stack::SynapseAi,
            Vendor::Intel if gpu.architecture.starts_with("Xe-HPG") => Stack::OneApiAlchemist,
            Vendor::Intel => Stack::OneApi,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Stack::Cuda => "cuda",
            Stack::RocmInstinct => "rocm-instinct",
            Stack::RocmRadeon => "rocm-radeon",
            Stack::RocmRdna4 => "rocm-rdna4",
            Stack::Metal => "metal",
            Stack::Xla => "xla",
            Stack::OneApi => "oneapi",
            Stack::OneApiAlchemist => "oneapi-alchemist",
            Stack::SynapseAi => "synapseai",
        }
    }
}

/// Share of CUDA's matrix efficiency that ROCm reaches on Instinct accelerators.
/// SemiAnalysis, "MI300X vs H100 vs H200 Benchmark Part 1: Training" (2024-12-22,
/// https://semianalysis.com/2024/12/22/mi300x-vs-h100-vs-h200-benchmark-part-1-training/):
/// on public ROCm releases the MI300X reached about 45% of its BF16 peak in GEMMs and
/// training against roughly 70% for the H100, so 0.45 / 0.70 ≈ 0.65; its training runs
/// came out at or below the H100 despite 1.3× the peak.
pub const ROCM_INSTINCT_COMPUTE: f64 = 0.65;

/// Share of CUDA's achieved streaming bandwidth that a CDNA 3 Instinct (MI300X, MI325X)
/// reaches, a property of the part rather than of ROCm's kernels: its eight HBM3 stacks
/// sit behind four I/O dies and the Infinity Fabric between the compute dies, and a plain
/// streaming kernel does not draw as much of the datasheet figure as it does on Hopper.
/// Microsoft's AI-benchmarking-guide ran the same STREAM-style kernels (copy, mul, add,
/// triad) on its Azure VMs: an ND MI300X v5 reached 4.11, 4.26, 4.14 and 4.09 TB/s of 5.3
/// (0.78 on average), an ND H100 v5 2.90, 2.90, 2.97 and 2.97 of 3.35 (0.88) and an ND
/// H200 v5 4.01, 4.00, 4.15 and 4.15 of 4.8 (0.85); 0.78 against the Hopper cards' 0.86
/// is 0.91, rounded to 0.9. Set from those microbenchmarks, not from a row of this
/// project. CDNA 2 and CDNA 4 parts keep 1: no such run of theirs was found.
pub const CDNA3_STREAM_BANDWIDTH: f64 = 0.9;

/// The share above for a GPU: CDNA 3 Instinct parts, 1 for every other.
pub fn stream_bandwidth_share(gpu: &Gpu) -> f64 {
    if gpu.vendor == Vendor::Amd && gpu.architecture.starts_with("CDNA 3") {
        CDNA3_STREAM_BANDWIDTH
    } else {
        1.0
    }
}

/// Share of CUDA's matrix efficiency that ROCm reaches on Radeon cards. Published
/// comparisons of PyTorch workloads put the RTX 4090 at 1.5–1.8× the RX 7900 XTX
/// (convly.ai, "RX 7900 XTX vs RTX 4090 for AI", 2026-05-20,
/// https://convly.ai/fr/rx-7900-xtx-vs-rtx-4090-for-ai/), whose dense 16-bit peaks are
/// 165.2 and 122.8 TFLOPS: 165.2 / (122.8 × 1.65) ≈ 0.82 at the middle of that range.
pub const ROCM_RADEON_COMPUTE: f64 = 0.82;

/// Share of CUDA's achieved memory bandwidth in decoding on Radeon cards: none lost.
/// llama.cpp's ROCm and Vulkan scoreboards (ggml-org/llama.cpp discussions 15021 and
/// 10879, Llama 2 7B Q4_0 tg128) have the RX 7900 XTX at 167–191 tokens/s on 960 GB/s
/// and a Strix Halo Radeon 8060S at 51–56 on 256 GB/s, per byte of bandwidth as fast as
/// the RTX 4090's 149 on 1,008 GB/s in the same benchmark. (An earlier comparison of Llama
/// 3 8B, 95 against 140 tokens/s, predates the current ROCm kernels.)
pub const ROCM_RADEON_BANDWIDTH: f64 = 1.0;

/// Share of CUDA's matrix efficiency on RDNA 4 (RX 9070 XT): ROCm's PyTorch on this
/// newly supported chip was measured training BERT-large slower than an RX 7900 XTX
/// (ROCm/pytorch issue 2644, https://github.com/ROCm/pytorch/issues/2644), although its
/// dense 16-bit matrix peak (195 TFLOPS) is 1.6× the 7900 XTX's 122.8. The factor keeps
/// it at the 7900 XTX's achieved rate: 122.8 × 0.82 / 195 ≈ 0.52.
pub const ROCM_RDNA4_COMPUTE: f64 = 0.52;

/// Share of CUDA's matrix efficiency that Intel's oneAPI stack (PyTorch XPU, IPEX, the
/// SYCL backends) reaches on Arc cards. ColabHive's same-rig comparison ("Reducing NVIDIA
/// dependency with Intel Arc", 2026-06, colabhive.com/research) has an Arc Pro B70 at
/// 95–112% of an RTX 3090's throughput in LoRA and QLoRA fine-tuning, SDXL and LLM
/// serving. The B70's XMX peak is 367 INT8 TOPS (Puget Systems, 2026), 183.5 at 16 bits
/// by the same halving the catalog's Arc entries use; the 3090's is 71.2 (FP32
/// accumulate). At about 1.0 of a 3090: 71.2 / 183.5 ≈ 0.4.
pub const ONEAPI_COMPUTE: f64 = 0.4;

/// Share of CUDA's matrix efficiency on Alchemist (Arc A770), which the Battlemage figure
/// above does not describe. SD.Next's crowd-sourced benchmark records (vladmandic/sd-data,
/// `input/benchmark-raw-2025-*.json` at 7e13025, the same tool on every GPU, SD 1.5 at
/// 512×512, batch 1) have nine A770 runs on PyTorch XPU at a median of 6.67 it/s (6.41–6.70)
/// against an RTX 4090's 32.93: 0.203 of the 4090 on 137.6 against 165.2 TFLOPS of 16-bit
/// matrix peak, 0.203 × 165.2 / 137.6 ≈ 0.24. (Three RTX 3060 runs, median 6.53 it/s on
/// 25.6 TFLOPS, put it lower still, near 0.19.)
pub const ONEAPI_ALCHEMIST_COMPUTE: f64 = 0.24;

/// Share of CUDA's achieved decode bandwidth on Arc cards. PMZFX's llama.cpp runs
/// (github.com/PMZFX/intel-arc-pro-b70-benchmarks, 2026-04; Qwen 3.5 9B Q4_K_M, tg128)
/// give the B70 (608 GB/s) 54.4–60.2 tokens/s by build against 113.7 on an RTX 3090
/// (936 GB/s) and 50.8 on an RTX 3060 (360 GB/s): per GB/s, 0.63–0.81 of the NVIDIA
/// cards', about 0.72 in the middle.
pub const ONEAPI_BANDWIDTH: f64 = 0.72;
/// The share of that decode bandwidth llama.cpp's SYCL backend reaches on Alchemist (Arc
/// A770), whose matrix-vector kernels the Battlemage runs above do not describe. Fitted by
/// least squares (log error) to the A770's two SYCL runs of Llama 2 7B: 42.94 tokens/s
/// (Q4_0, Intel's CI log of August 2024, NeoZhangJianyu/ci_log) and 34.52 (Q4_K_M, the
/// same month's secext2022 comparison): 0.59, both within 10%, where 1 put them 52% and
/// 76% over. Held out: two A770s' Qwen3-30B-A3B on a 2026 Vulkan build moves from 60% over
/// to within 10%; the 2024 Vulkan runs of Llama 2 7B stay 45–125% over. Intel's later SYCL
/// pull requests report 55–65 tokens/s for that model without naming the test, so newer
/// builds may be faster than this.
pub const LLAMACPP_ALCHEMIST_DECODE_SHARE: f64 = 0.59;

/// Share of eager PyTorch's element-wise training traffic (`estimate::TRAINING_TRAFFIC_PASSES`)
/// that XLA leaves in transformer training: it compiles the whole training step and fuses
/// norms, activations and residual adds into the matmuls around them, so the step runs at
/// its matmul rate. (Convolution nets keep their traffic: `estimate::speed`.)
/// MaxText's published TPU v6e recipe logs (AI-Hypercomputer/tpu-recipes, Llama 3.1 8B
/// and 70B, Mistral 7B) report 413–462 TFLOP/s of model FLOPs per chip, 45–50% of the
/// 918 TFLOPS peak: the matmul band alone, with nothing left for separate element-wise
/// passes.
pub const XLA_ELEMENTWISE_TRAFFIC: f64 = 0.0;

/// Share of eager PyTorch's element-wise training traffic for a convolution net
/// (`estimate::CONV_TRAINING_TRAFFIC_PASSES`) that XLA leaves on a TPU: it fuses batch
/// normalisation's scale and shift, the activations and the residual adds into the
/// convolutions around them, while the normalisation's statistics still read whole
/// tensors. Fitted (0.1 grid) on Google's MLPerf Training v0.5 and v0.6 ResNet-50 runs on
/// TPU v3 (4, 16 and 64 chips, TensorFlow, 1,865–1,956 images/s a chip): 0.2, within 6% of
/// each; at 1.0 they were 57–59% low. Held out, the v0.7 and v1.0 runs (TPU v3 under
/// TensorFlow 2, TPU v4 on 8 and 64 chips) land within 10%.
pub const XLA_CONV_ELEMENTWISE_TRAFFIC: f64 = 0.2;

/// Share of eager PyTorch's element-wise training traffic that Megatron-Core with
/// Transformer Engine leaves: none. Its layers are fused modules (`LayerNormLinear`,
/// `LayerNormMLP` with the bias and activation inside, fused softmax, RoPE and
/// cross-entropy), so norms, activations and residuals do not make passes of their own
/// and the step runs at its matmul rate, as XLA's compiled step does. NVIDIA's NeMo
/// performance tables bear it out as a group: with the matmul band alone, the fifteen
/// NeMo 24.07 and 25.11 dense pretraining fixtures (Llama 2 and 3, 8B to 405B, H100 to
/// GB300) land between −28% and +19% of their published tokens per second, where eager
/// traffic put five of them 25–35% low. PyTorch runs (torchtitan, Answer.AI, Lambda)
/// keep the traffic: with it removed, nine of them come out 28–86% high.
pub const MEGATRON_ELEMENTWISE_TRAFFIC: f64 = 0.0;

/// Share of CUDA's matrix efficiency that XLA reaches on TPUs: more than all of it. The
/// engine's band (`estimate::MFU_TENSOR`, 0.30–0.55, middle 0.425) is counted in hardware
/// FLOPs, recomputation included; PaLM 540B trained on TPU v4 at 57.8% of peak in those
/// terms (Chowdhery et al. 2022, table 3: 46.2% model FLOPs, 57.8% hardware FLOPs), and
/// 0.578 / 0.425 ≈ 1.36. MaxText's TPU v6e recipe logs (AI-Hypercomputer/tpu-recipes:
/// Llama 2 70B, Llama 3.1 8B and 70B, Mistral 7B) bear it out: 43.8–50.3% model FLOPs
/// utilisation, 58–67% counted as the engine counts a recomputed step.
pub const XLA_COMPUTE: f64 = 1.36;

/// Decode on Apple GPUs (llama.cpp's Metal backend, MLX): the share of peak memory
/// bandwidth a decode step streams its weights at, and its fixed cost per layer (kernel
/// dispatch and synchronisation), which on Apple GPUs is about three times CUDA's
/// (`estimate::DECODE_OVERHEAD_PER_LAYER_S`). Both come from fitting a step time of
/// `overhead + bytes / bandwidth` to llama.cpp's Apple Silicon scoreboard
/// (ggml-org/llama.cpp discussion 4167, Llama 2 7B tg128), where one chip decodes the same
/// model at F16, Q8_0 and Q4_0 (13.48, 7.16 and 3.79 GB read per token): the M2 Ultra's
/// F16 and Q4_0 rows (41.02 and 94.27 tokens/s) give 704 GB/s, 0.88 of its 800, and 5.2 ms
/// per token (163 µs per layer); the M4 Max's three rows (31.64, 54.05 and 83.06) give
/// 494 GB/s, 0.90 of its 546, and 4.2 ms (132 µs per layer), its Q8_0 row within 2% of
/// the line through the other two. A single band of CUDA's (0.60–0.90, 50 µs per layer)
/// made Apple's 4-bit decode too fast and its 16-bit decode too slow. The band around the
/// fitted 0.89 leaves room for what one scoreboard does not show: other chips, macOS and
/// llama.cpp releases.
pub const METAL_DECODE_BANDWIDTH: (f64, f64) = (0.83, 0.95);
/// Per-layer fixed cost of a decode step on Apple GPUs; see `METAL_DECODE_BANDWIDTH`.
pub const METAL_DECODE_OVERHEAD_PER_LAYER_S: f64 = 150e-6;

/// Share of the shader band's matrix rate (`estimate::MFU_SHADER`) that prompt processing
/// reaches on Apple GPUs, llama.cpp's Metal kernels and MLX alike. Set from the same
/// scoreboard as `METAL_DECODE_BANDWIDTH` (llama.cpp discussion 4167, Llama 2 7B pp512): with
/// the band alone the M2 Ultra's F16 and Q4_0 rows (1,401.85 and 1,238.48 tokens/s) and
/// the M4 Max's (922.83 and 885.68) come out 17%, 6%, 15% and 11% low, 0.875 of the
/// measured rates in their geometric mean, so 1 / 0.875 ≈ 1.14. Checked against other
/// sources' Mac prompt rates (XiongjieDai's M2 Ultra and M3 Max, Jeff Geerling's M3 Ultra,
/// an MLX run on an M3 Max), which the band alone put 2% to 34% low.
pub const METAL_PREFILL_COMPUTE: f64 = 1.14;

/// Share of the Q4_0 prompt rate that llama.cpp's Metal backend reaches with K-quant
/// weights. Its prompt matrix kernel (`kernel_mul_mm` in `ggml-metal.metal`) has each
/// threadgroup dequantize a 64-row tile of weights into threadgroup memory
/// (`dequantize_q4_K`, `dequantize_q6_K`, ... per 16 weights) before the simdgroup 8×8
/// multiply-accumulates read it, with the same threads and barriers, so the
/// dequantization's ALU work adds to the matrix work instead of hiding under it. A
/// K-quant super-block (256 weights) packs 6-bit scales and minimums per 32 (Q4_K,
/// Q5_K) or 8-bit scales per 16 and split high bits (Q6_K, Q5_K, Q3_K), which takes more
/// integer work per weight to unpack than Q4_0's one scale per 32 or Q8_0's bytes.
/// Set from one table, ggerganov's M2 Ultra pp512 runs of every type on one build in
/// llama.cpp PR #2763 (LLaMA v2 7B, 2023-08-24): Q4_0 632.16 tokens/s, Q4_K (Medium)
/// 587.62, Q5_K (Medium) 560.96, Q6_K 561.99, Q3_K (Medium) 580.74, Q8_0 630.26 and Q4_1
/// 634.40 (the legacy types within 1% of Q4_0, so 1.0). Held out: PR #3084's M2 Ultra
/// rows two weeks later, where the K-quants ran 0.88 (Q4_K_M) and 0.84 (Q5_K_M, Q6_K) of
/// Q4_0 once other kernels had sped up, so this leaves them about 20% high; XiongjieDai's
/// M2 Ultra and M3 Max Llama 3 Q4_K_M rows and Jeff Geerling's M3 Ultra ones. IQ2_XS and
/// MXFP4 have no such table and keep 1.0.
pub fn metal_prefill_type_share(precision: Precision) -> f64 {
    match precision {
        Precision::Q4KM => 587.62 / 632.16,
        Precision::Q5KM => 560.96 / 632.16,
        Precision::Q6K => 561.99 / 632.16,
        Precision::Q3KM => 580.74 / 632.16,
        _ => 1.0,
    }
}

/// Share of the matrix band that llama.cpp's prompt processing reaches on Instinct (CDNA)
/// accelerators, whose ROCm build lacks the tuned prompt kernels it has for CUDA and RDNA:
/// the geometric mean of what its three Instinct rows need against the band alone, the
/// MI300X and MI210 pp512 rows of llama.cpp's ROCm scoreboard (discussion 15021, Llama 2 7B
/// Q4_0: 0.45 and 0.71) and the ROCm blog's eight-MI300X Llama 3.1 70B Q4_K_M prompt row
/// (0.55). Fitted on those three; no other llama.cpp prompt row on Instinct is held out.
pub const LLAMACPP_INSTINCT_PREFILL_COMPUTE: f64 = 0.56;

/// Share of the matrix band llama.cpp's prompt processing reaches on Hopper (compute
/// capability 9.0: H100, H200). Its CUDA matrix and attention kernels issue the Ampere
/// tensor-core instruction (`mma.sync`); Hopper reaches its datasheet rate only through the
/// warp-group instruction (`wgmma`) its own libraries use. The same gap shows in
/// FlashAttention: version 2, written with `mma.sync`, reaches 50–73% of an A100's peak
/// (Dao 2023, arXiv 2307.08691) but about 35% of an H100's (Shah et al. 2024, arXiv
/// 2407.08608, which moved to `wgmma`): about half. Set from those two papers, not from a
/// llama.cpp row; XiongjieDai's H100 PCIe prompt rows (F16 and Q4_K_M, pp512) are held out.
pub const LLAMACPP_HOPPER_PREFILL_COMPUTE: f64 = 0.5;

/// Share of the DP4A rate (`estimate::dp4a_tops`) that llama.cpp's prompt processing
/// reaches on an NVIDIA GPU without tensor cores (Pascal), whose MMQ kernels multiply the
/// quantized blocks with DP4A: what JohannesGaessler's Tesla P40 pp512 row in llama.cpp PR
/// #4766 (LLaMA 7B Q4_0, 934.74 tokens/s) needs against the band alone (2,007, +115%).
/// Fitted on that row; held out, LocalScore's P40 prompt rows (7B Q4_0 833, Qwen2.5 14B
/// Q4_K_M 339, Qwen3 30B-A3B 288 tokens/s) go from +141%, +171% and +472% to +12%, +26%
/// and +167%: their runtime (llamafile) runs slower than llama.cpp's own build, and the
/// mixture of experts slower still.
pub const LLAMACPP_DP4A_PREFILL_COMPUTE: f64 = 0.466;

/// Share of the matrix band that llama.cpp's prompt processing reaches on RDNA 4 (RX 9070
/// XT), in place of `ROCM_RDNA4_COMPUTE`. That factor describes ROCm's PyTorch libraries on
/// a newly supported chip; llama.cpp multiplies with its own kernels (MMQ on HIP, cooperative
/// matrices on Vulkan), which do not go through them. Fitted on the two pp512 rows of
/// llama.cpp issue 26663 (Qwen3 8B Q4_K_M on one desktop RX 9070 XT, build b10298: Vulkan
/// 2,866 and HIP 4,199 tokens/s), as their geometric middle: with the PyTorch share both
/// came out low (−13% and −41%), and 0.52 × √(2,866 × 4,199) / 2,492 ≈ 0.72. The two
/// backends lie 1.47× apart on the same card and build, a spread the estimate keeps.
pub const LLAMACPP_RDNA4_PREFILL_COMPUTE: f64 = 0.72;

/// Multiplier on the matrix rate of prompt processing (prefill) on this stack.
pub fn prefill_compute(stack: Stack) -> f64 {
    match stack {
        Stack::Metal => METAL_PREFILL_COMPUTE,
        _ => 1.0,
    }
}

/// A decode step's bandwidth band (share of peak) and fixed cost per layer on this stack.
pub fn decode_fit(stack: Stack) -> ((f64, f64), f64) {
    match stack {
        Stack::Metal => (METAL_DECODE_BANDWIDTH, METAL_DECODE_OVERHEAD_PER_LAYER_S),
        _ => (BANDWIDTH_EFFICIENCY, DECODE_OVERHEAD_PER_LAYER_S),
    }
}

/// Multipliers on the efficiency bands (`estimate::MFU_*`, `BANDWIDTH_EFFICIENCY`), which
/// are CUDA's. Stacks without a published whole-workload comparison keep 1.0: their
/// speeds carry the same uncertainty as CUDA's, and the card says which stack it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StackEfficiency {
    /// Matrix work: training, prefill, convolutions.
    pub compute: f64,
    /// Streaming work: decode, optimizer steps, element-wise kernels.
    pub bandwidth: f64,
    /// Share of eager PyTorch's element-wise training traffic the stack still moves.
    pub elementwise_traffic: f64,
}

pub fn efficiency(stack: Stack) -> StackEfficiency {
    match stack {
        Stack::RocmInstinct => StackEfficiency {
            compute: ROCM_INSTINCT_COMPUTE,
            bandwidth: 1.0,
            elementwise_traffic: 1.0,
        },
        Stack::RocmRadeon => StackEfficiency {
            compute: ROCM_RADEON_COMPUTE,
            bandwidth: ROCM_RADEON_BANDWIDTH,
            elementwise_traffic: 1.0,
        },
        Stack::RocmRdna4 => StackEfficiency {
            compute: ROCM_RDNA4_COMPUTE,
            bandwidth: ROCM_RADEON_BANDWIDTH,
            elementwise_traffic: 1.0,
        },
        Stack::OneApiAlchemist => StackEfficiency {
            compute: ONEAPI_ALCHEMIST_COMPUTE,
            bandwidth: ONEAPI_BANDWIDTH,
            elementwise_traffic: 1.0,
        },
        Stack::OneApi => StackEfficiency {
            compute: ONEAPI_COMPUTE,
            bandwidth: ONEAPI_BANDWIDTH,
            elementwise_traffic: 1.0,
        },
        Stack::Xla => StackEfficiency {
            compute: XLA_COMPUTE,
            bandwidth: 1.0,
            elementwise_traffic: XLA_ELEMENTWISE_TRAFFIC,
        },
        _ => StackEfficiency {
            compute: 1.0,
            bandwidth: 1.0,
            elementwise_traffic: 1.0,
        },
    }
}

/// End-to-end training slowdown of a transformer without FlashAttention 2 (Volta and
/// Turing run PyTorch's memory-efficient attention, FlashAttention-1-class), by sequence
/// length. Dao 2023, "FlashAttention-2" (arXiv 2307.08691), GPT3-1.3B training on A100:
/// 189 TFLOPs/s with FlashAttention against 196 with FlashAttention-2 at 2k tokens
/// (1.04×), 170 against 220 at 8k (1.29×); interpolated in log2 of the length between,
/// 1.0 below 2k's factor at 512 tokens and no further growth beyond 8k.
pub fn no_flash_attention_2_slowdown(seq_tokens: f64) -> f64 {
    let at = |t: f64| t.max(1.0).log2();
    let (x0, y0, x1, y1) = (at(2048.0), 1.04, at(8192.0), 1.29);
    let x = at(seq_tokens);
    if x <= x0 {
        // From 1.0 at 512 tokens to 1.04 at 2k.
        let x512 = at(512.0);
        1.0 + (y0 - 1.0) * ((x - x512) / (x0 - x512)).clamp(0.0, 1.0)
    } else {
        y0 + (y1 - y0) * ((x - x0) / (x1 - x0)).min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flash_attention_slowdown_follows_the_published_points() {
        assert!((no_flash_attention_2_slowdown(2048.0) - 1.04).abs() < 1e-9);
        assert!((no_flash_attention_2_slowdown(8192.0) - 1.29).abs() < 1e-9);
        assert!((no_flash_attention_2_slowdown(256.0) - 1.0).abs() < 1e-9);
        assert!((no_flash_attention_2_slowdown(65536.0) - 1.29).abs() < 1e-9);
        let mid = no_flash_attention_2_slowdown(4096.0);
        assert!(mid > 1.04 && mid < 1.29);
    }

    #[test]
    fn the_metal_decode_fit_reproduces_the_scoreboard_rows() {
        // (peak GB/s, GB read per token, published tokens/s), Llama 2 7B, 32 layers.
        let rows = [
            (800.0, 13.48, 41.02),
            (800.0, 3.79, 94.27),
            (546.0, 13.48, 31.64),
            (546.0, 7.16, 54.05),
            (546.0, 3.79, 83.06),
        ];
        let (lo, hi) = METAL_DECODE_BANDWIDTH;
        let share = (lo * hi).sqrt();
        for (peak, gb, published) in rows {
            let step = 32.0 * METAL_DECODE_OVERHEAD_PER_LAYER_S + gb / (peak * share);
            let error = 1.0 / step / published - 1.0;
            assert!(error.abs() < 0.08, "{peak} GB/s, {gb} GB: {error:+.3}");
        }
    }

    #[test]
    fn metal_k_quants_prefill_slower_than_the_legacy_types() {
        let q4_k = metal_prefill_type_share(Precision::Q4KM);
        let q6_k = metal_prefill_type_share(Precision::Q6K);
        // Q4_K unpacks fewer bits per weight than Q5_K and Q6_K; all cost more than Q4_0.
        assert!(q6_k < q4_k && q4_k < 1.0 && q6_k > 0.85, "{q4_k} {q6_k}");
        for p in [Precision::Fp16, Precision::Int4, Precision::Q8_0] {
            assert_eq!(metal_prefill_type_share(p), 1.0);
        }
    }

    #[test]
    fn the_radeon_factor_reproduces_the_middle_of_the_published_range() {
        // 4090 / 7900 XTX at equal CUDA-relative efficiency, compute-bound.
        let ratio = 165.2 / (122.8 * ROCM_RADEON_COMPUTE);
        assert!((1.5..=1.8).contains(&ratio), "{ratio}");
    }
}
