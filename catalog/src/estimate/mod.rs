//! Speed, scaling and cost of a workload on one GPU model.
//!
//! A step (or a token) takes the longer of its compute time and its memory time
//! (the roofline model), each at the GPU's peak for the precision times an
//! efficiency range. Every figure is a `Range` from the pessimistic to the
//! optimistic efficiency, with a middle value for ranking.
//!
//! Rates and `speed` are here; `placement` (where a job goes), `diffusion`, `speech` and
//! `cost` have their own files and take the imports below with `use super::*`.

use crate::gpu::Segment;
use crate::gpu::{Gpu, Purchase, Vendor};
use crate::memory::{self, MemoryBreakdown, Sharding, Sized};
use crate::model::{Family, Model};
use crate::stack::{self, Stack};
use crate::workload::{Framework, Mode, Precision, Runtime, Task, Workload};

mod cost;
mod diffusion;
mod mixed;
mod offload;
mod placement;
mod serving;
mod speech;

pub use cost::*;
pub use diffusion::*;
pub use mixed::*;
pub use offload::*;
pub use placement::*;
pub use serving::*;
pub use speech::*;

/// Achieved fraction of peak matrix throughput: training large transformers reaches
/// 30–55% model-FLOPs utilisation (Chowdhery et al. 2022, PaLM, table 3; Korthikanti et al. 2022).
pub const MFU_TENSOR: (f64, f64) = (0.30, 0.55);
/// Plain FP32/FP16 shader pipelines run dense GEMMs closer to their (lower) peak.
pub const MFU_SHADER: (f64, f64) = (0.45, 0.75);
pub use crate::stack::{BANDWIDTH_EFFICIENCY, DECODE_OVERHEAD_PER_LAYER_S};
/// QLoRA dequantises the frozen 4-bit base weights to 16 bits before every use: each pass
/// over a layer reads its NF4 weights with their scales (about 0.5 bytes per weight) and
/// writes them out in BF16 (2 bytes) for the matmul, memory traffic added to the step's
/// element-wise traffic. The cost is then a share of the step that shrinks as the tokens
/// per step grow, as Answer.AI measured: Llama 2 7B at context 2048 on two RTX 4090s took
/// 450 s as QLoRA (batch 8) and 437 s as LoRA (batch 4), 3% apart
/// (github.com/AnswerDotAI/fsdp_qlora, benchmarks_03_2024.md), where a flat factor of 1.3
/// (this engine's earlier rule) would have put them 30% apart.
pub const QLORA_DEQUANT_BYTES_PER_PARAM: f64 = 2.5;
/// Share of a dense model's prompt-processing rate, per active FLOP, that llama.cpp reaches
/// on a mixture of experts, over and above streaming every touched expert's weights once
/// per micro-batch (`llamacpp_expert_stream_bytes`). What is left is the expert matmul's
/// own cost: it sorts the micro-batch's tokens by expert and multiplies each expert by its
/// few dozen tokens, tiles that are mostly empty beside a dense layer's. Fitted as the
/// geometric mean of what six llama.cpp MoE prompt rows need over the estimate with the
/// stream alone: DGX Spark (llama.cpp's benches/dgx-spark.md, pp2048 at `-ub 2048`)
/// gpt-oss-20b 0.67, gpt-oss-120b 0.72, Qwen3-30B-A3B 0.69; Ryzen AI Max+ 395 (kyuz0's
/// toolboxes, pp512) gpt-oss-20b 0.86, gpt-oss-120b 0.86; M3 Ultra DeepSeek-V3 0.86. With
/// the stream in the estimate, the spread between models (0.22–0.68 as a flat share) is
/// gone; what remains is between machines. Held out, the RTX 3090 + RTX 3060 Qwen3.5
/// 35B-A3B row (pp8192) lands within 7%.
pub const LLAMACPP_MOE_PREFILL_SHARE: f64 = 0.77;
/// How many times over a prompt of `tokens` makes llama.cpp stream a mixture of experts'
/// weights, as a share of all its weights, for the routed experts alone. Its expert
/// matmul (`MUL_MAT_ID`) takes each micro-batch (`-ub`, `LLAMACPP_UBATCH` by default) in
/// one pass and multiplies every expert by the tokens routed to it, so each expert any of
/// the micro-batch's tokens picks is read from memory once per micro-batch
/// (`Model::expert_params_read` at the micro-batch's tokens): at 512 tokens that is every
/// expert of Qwen3-30B-A3B, gpt-oss or DeepSeek-V3, each of which then does the work of 16
/// to 64 tokens for its read, where a dense layer does 512. A dense model's one read per
/// micro-batch is left out, as it was before: 512 tokens' work hides it.
pub fn llamacpp_expert_stream_bytes(
    model: &crate::model::Model,
    tokens: f64,
    ubatch: Option<u32>,
) -> f64 {
    let ubatch = ubatch.map_or(offload::LLAMACPP_UBATCH, f64::from).max(1.0);
    let per_batch = tokens.min(ubatch).max(1.0);
    let batches = (tokens / per_batch).ceil().max(1.0);
    batches * model.expert_params_read(per_batch as u32) / model.params()
}

/// Share of its 16-bit prompt rate that llama.cpp reaches with quantized GGUF weights on
/// NVIDIA's HBM datacenter cards before Hopper (which has its own figure,
/// `stack::LLAMACPP_HOPPER_PREFILL_COMPUTE`). Quantized weights go through its own MMQ
/// kernels, F16 weights through cuBLAS, which these cards run nearer their peak; the INT8
/// matrix rate MMQ uses on them is not reached either. Set from one pair measured on the
/// same A100 80GB PCIe and build (ggerganov's llama-bench table on llama.cpp PR 6017,
/// Llama 2 7B pp512: Q8_0 6,914 against F16 8,668 tokens/s, 0.80). Held out: the A100
/// PCIe and SXM rows of XiongjieDai's Llama 3 8B table (Q4_K_M 5,981 and 5,948 against
/// F16 7,741), +31% and +32% before and about +4% with it. GeForce and workstation cards
/// keep 1: on the same table their Q4_K_M rows already land within 20%.
pub const LLAMACPP_HBM_QUANT_PREFILL_SHARE: f64 = 6914.08 / 8668.24;
/// llama.cpp's decode on GPUs with HBM: the share of peak bandwidth a batch-1 step
/// streams its weights at, and its fixed cost per layer. Its matrix-vector kernels are
/// tuned on GDDR cards and keep too few bytes in flight to fill HBM: XiongjieDai's
/// llama-bench table (tg512) has an A100 80 GB (1.9–2.0 TB/s) decode Llama 3 8B Q4_K_M at
/// 135–141 tokens/s, about an RTX 4090's 128 at half its bandwidth. A step time of
/// `overhead + bytes / bandwidth` fitted by least squares (log error) to that table's
/// seven datacenter rows (A100 PCIe 80 GB 8B Q4_K_M and F16, A100 SXM 80 GB 8B and 70B
/// Q4_K_M, H100 PCIe 8B Q4_K_M and F16 and 70B Q4_K_M) gives 0.63 and 110 µs per layer,
/// 5.7% root-mean-square; the band keeps CUDA's width around 0.63. The MI300X rows
/// (AMD's llama.cpp runs, 5.3 TB/s) were left out of the fit.
pub const LLAMACPP_HBM_DECODE_BANDWIDTH: (f64, f64) = (0.53, 0.75);
pub const LLAMACPP_HBM_DECODE_OVERHEAD_PER_LAYER_S: f64 = 110e-6;
/// llama.cpp's decode on NVIDIA's GDDR cards where it uses CUDA graphs
/// (`llamacpp_cuda_graphs`: Ampere on, and Turing in builds from August 2026): its fixed
/// cost per layer. Its CUDA backend replays each decode step as one CUDA graph, so a step
/// pays far less than the 50 µs a layer of separately launched kernels that other
/// runtimes' steps keep (`stack::DECODE_OVERHEAD_PER_LAYER_S`). Fitted, with the share of
/// bandwidth held at the middle of CUDA's band (0.75), by least squares (log error) to the
/// tg128 rows of llama.cpp's CUDA scoreboard (discussion 15013, Llama 2 7B Q4_0, builds of
/// 2025–26) for
/// its 18 cards of compute capability 7.5 or more with GDDR memory: RTX 2080 Ti, 3060,
/// 3090 Ti, 4060 Ti, 4070 Ti SUPER, 4080, 4080 SUPER, 5070, 5070 Ti, 5080, 5090, A5000,
/// A6000, 6000 Ada, PRO 6000 Blackwell, A40, L40 and T4: 17 µs, 9.4% root-mean-square
/// (fitting the share too gives 0.77 and 22 µs, no closer). At 50 µs the same rows were
/// estimated 12–27% slow. Pascal cards keep the 50 µs their rows fit (P40: +4%). The two
/// Turing cards (RTX 2080 Ti, T4) were in the fit, although their builds ran without
/// graphs; with them taken as such their rows read −12% and +14%, and on the 16 other
/// cards alone the fit would fall to about 2 µs (9.7% against 12.6% root-mean-square), but
/// `LLAMACPP_MOE_DECODE_FIXED_S` was fitted on top of 17 µs and at 2 µs two held-out rows
/// leave ±25% (an RTX 5090's Llama 2 7B from PR 14903, two RTX 3090s' Qwen3.5-35B-A3B), so
/// it stays. Builds from before the graphs (January 2024) are estimated without them.
pub const LLAMACPP_CUDA_GRAPH_DECODE_OVERHEAD_PER_LAYER_S: f64 = 17e-6;
/// Share of its 16-bit shader band at which llama.cpp's decode multiplies quantized
/// weights on an NVIDIA GPU without DP4A or tensor cores (compute capability below 6.1:
/// the Tesla P100, the K80). Its matrix-vector kernels dot four 8-bit values at a time with
/// `__dp4a`, which these chips lack, so ggml's `ggml_cuda_dp4a` falls back to four
/// separate multiply-adds on bytes it unpacks first, and the step is bound by that work,
/// not by reading the weights: a P100, with 732 GB/s, decodes about as fast as a Tesla P40
/// with 347. Fitted on one row, a Tesla P100-PCIE-16GB's gpt-oss-20b MXFP4 tg128 (66.3
/// tokens/s, llama.cpp build 6830, the gpt-oss guide's discussion 15396), where the
/// bandwidth alone gave 139 (+110%): 0.077. Held out, LocalScore's two runs on a Tesla
/// P100-SXM2-16GB (llamafile, dense Llama 3.1 8B and Qwen2.5 14B at Q4_K_M) go from +108%
/// and +94% to +7% and −3%. Prompts are unaffected: without DP4A llama.cpp dequantizes and
/// multiplies them with cuBLAS in 16 bits.
pub const LLAMACPP_NO_DP4A_DECODE_COMPUTE: f64 = 0.077;
/// What a layer of a mixture of experts adds to that step on the same cards: routing
/// (the router's matmul, its softmax and top-k, the gathers and the weighted sum) and the
/// expert matmuls' own launches, small kernels whose time does not shrink with the bytes
/// they read, as vLLM's fused kernels keep a fixed time too (`VLLM_MOE_KERNEL_FIXED_S`).
/// Fitted, on top of `LLAMACPP_CUDA_GRAPH_DECODE_OVERHEAD_PER_LAYER_S`, by least squares
/// (log error) to the eleven batch-1 decode rows of mixtures of experts held on those
/// cards alone: DGX Spark's gpt-oss 20B and 120B and Qwen3-30B-A3B (llama.cpp's own
/// benches/dgx-spark.md), an RTX 4090's gpt-oss 20B (geerlingguy/ai-benchmarks), the
/// gpt-oss guide's RTX 5060 Ti, 5070 Ti, 5080, 4080 SUPER and PRO 6000 Blackwell rows
/// (discussion 15396, gpt-oss 20B and 120B) and two RTX 3090s' Qwen3.5-35B-A3B: 58 µs,
/// 12.9% root-mean-square, all eleven within ±25%. Held out: runs with experts in system
/// memory. A build that launches the kernels one by one (no CUDA graph) pays it too.
pub const LLAMACPP_MOE_DECODE_FIXED_S: f64 = 58e-6;

/// How much faster a mixture of experts' routed experts multiply in FP8 than in 16 bits
/// when trained: not measurably. Megatron-Bridge's 25.11 pre-training table measures
/// DeepSeek-V3 in FP8 (MXFP8) at only 1.13 and 1.28 times its BF16 throughput on 256 GB300s
/// and GB200s (4,357 against 3,848 and 4,018 against 3,139 tokens/s a GPU), about what FP8
/// on the dense rest of the model alone gives (the routed experts are some 55% of its
/// matmul work); the table does not say which of the experts' costs (quantizing the
/// gathered tokens, the grouped GEMMs' shapes) takes the gain. Set from those two pairs.
pub const MOE_EXPERT_FP8_SPEEDUP: f64 = 1.0;

/// The fixed time each mixture-of-experts layer costs a training micro-batch, forward and
/// backward, whatever its tokens: the router, the tokens' permutation to their experts and
/// back, and the dispatch whose sizes the host learns before it launches the experts'
/// grouped GEMMs. The same table trains Qwen3-30B-A3B at 23,766 tokens/s a GPU on GB200s
/// with four sequences a micro-batch but at 9,299 on B200s with one: a cost per micro-batch,
/// not per token. Fitted by least squares (log error) on that table's five GB200 MoE runs
/// (DeepSeek-V3 in BF16 and FP8, GPT-OSS 120B, Qwen3-30B-A3B, Qwen3-235B-A22B): 5.2 ms,
/// taken as 5, 16% root-mean-square. Held out, its GB300 runs land within −19% to +15%
/// and its B200 runs within, but GPT-OSS 120B (+151%) and Qwen3-30B-A3B (+30%); its H100
/// runs at +48% to +154%, one of them with its experts spread over four nodes: the tokens'
/// exchange between GPUs is not counted.
pub const MOE_LAYER_FIXED_S: f64 = 5e-3;

/// The fixed time of a mixture-of-experts layer's expert matmuls in vLLM and SGLang (the
/// fused MoE kernels, both projections and the activation), over and above streaming the
/// touched experts' weights: at decode batches each launches its experts' tiles whatever
/// the handful of tokens they get. Fitted, outside this project's fixtures, on 15
/// published runs of those kernels' own benchmark at 1–16 tokens, as a line through
/// `fixed + touched expert bytes / (peak bandwidth × share)`: vLLM PR #24700 (Qwen3
/// 30B-A3B, FP8, one H100, the "Main" column), SGLang PR #11730 (Qwen3 235B-A22B, FP8,
/// eight H200, before tuning) and SGLang PR #11816 (DeepSeek-R1, FP8, eight B200, before
/// tuning), experts touched as uniform routing touches them (`Model::params_read`). The
/// line gives 36 µs, and a share of 0.75, the middle of `BANDWIDTH_EFFICIENCY` that the
/// step already charges the weights at. The line lies up to a third off a point (31% over
/// Qwen3 235B's one-token run, 19% under DeepSeek-R1's four-token run): the kernels' own
/// spread between models and GPUs. Held out, the same benchmark on an A100 PCIe 40GB in
/// 16 bits before tuning (vLLM PR #19049, Qwen3 30B-A3B: 109, 160, 269, 403 and 611 µs at
/// 1–16 tokens) lies within 16% of the line. llama.cpp's MoE decode is calibrated as it
/// stands (its batch-1 rows land within ±25% without it).
pub const VLLM_MOE_KERNEL_FIXED_S: f64 = 36e-6;
/// The same fixed time per layer of a mixture of experts on AMD's Instinct parts, whose
/// fused MoE kernels (vLLM's and SGLang's Triton and AITER paths under ROCm) keep about
/// four times CUDA's. Fitted by least squares (log error) to InferenceX's five DeepSeek-R1
/// points on eight MI325X under SGLang at 8k/1k, concurrency 4 to 64 (PR 3318's baseline
/// table): 150 µs, 6.0% root-mean-square, where CUDA's 36 µs put them 9–71% over, most at
/// the lowest concurrency. Held out: gpt-oss-120b under vLLM on one MI300X at 64–256
/// concurrent requests (InferenceX PR 1053) goes from 37–54% over to 16–39% over, two of
/// four within, and four MI100s' Qwen3-30B-A3B from 32% over to 15%.
pub const ROCM_MOE_KERNEL_FIXED_S: f64 = 150e-6;

/// Share of the GPU's 16-bit matrix peak that vLLM's and SGLang's fused MoE kernels reach
/// on a prompt's routed experts when each GPU holds its experts whole, before the cost of a
/// narrow slice (`moe_slice_efficiency`). These kernels gather each expert's tokens by index
/// and multiply them in tiles against the expert's weights; they stay far below the dense
/// GEMMs' rate, and FP8 weights barely help: vLLM's own kernel benchmark ran Qwen3-30B-A3B's
/// experts in FP8 on an H100 at 4,096 tokens in 1,648 µs (PR #24700, "Main"), 188 TFLOPS or
/// 0.19 of the 16-bit peak, and vLLM PR #35457 found tuned FP8 experts on an H200 only
/// 10–17% faster than BF16. Fitted, with `VLLM_MOE_SLICE_OVERHEAD`, on GPUStack's 21
/// baseline long-prompt runs of DeepSeek-R1 (8× H200, FP8), Qwen3-235B-A22B (8× H100 and
/// 8× A100, BF16), gpt-oss-120b and gpt-oss-20b (one H100, one A100), least squares in the
/// logarithm with the rest of the prompt at the usual band and each run's answers' decode
/// steps that no prompt chunk hides counted in (`decode_only_steps`: the published rate is
/// input tokens over the whole run): 0.26 (0.23 before those steps were counted), which
/// with the slice term gives Qwen3-30B-A3B's 768-wide experts on one GPU 0.21, beside the
/// kernel benchmark's 0.19 (held out). The runs' spread within a GPU count is not
/// modelled: gpt-oss-20b's 32 experts run faster than gpt-oss-120b's 128 on the same GPU.
pub const VLLM_MOE_PREFILL_SHARE: f64 = 0.26;

/// The fixed work of one tile of the fused MoE kernels, in elements of the reduction
/// dimension: the cost that a tile pays whatever the length of its reduction loop (the
/// software pipeline's fill of `num_stages` loads, the gathered tokens' index loads, the
/// epilogue's scaled scatter). The down projection reduces over the expert's slice on each
/// GPU, the expert's width over the tensor-parallel GPU count: 256 for DeepSeek-V3's 2,048
/// on eight GPUs and 192 for Qwen3-235B-A22B's 1,536, two or three steps of the kernels'
/// usual `BLOCK_SIZE_K` of 64–128, against 2,880 for gpt-oss on one GPU. Fitted with
/// `VLLM_MOE_PREFILL_SHARE` on the same 21 runs, and refitted with it when their decode
/// steps were counted (192 again; 176–224 fit within 1% of its error); the runs fix it
/// loosely, as they hold only two slice widths, and the slow narrow-slice runs
/// also differ from the fast wide ones in kernel (Triton `fused_moe` in FP8 and BF16
/// against gpt-oss's MXFP4 Marlin and `matmul_ogs` kernels).
pub const VLLM_MOE_SLICE_OVERHEAD: f64 = 192.0;

/// The share of `VLLM_MOE_PREFILL_SHARE` a mixture of experts' routed experts keep when
/// tensor parallelism splits each expert over `gpus` GPUs: the down projection's reduction,
/// the expert's slice, against the tile's fixed work (`VLLM_MOE_SLICE_OVERHEAD`), rated as
/// if a whole expert (the same reduction length) paid none.
fn moe_slice_efficiency(model: &crate::model::Model, gpus: f64) -> f64 {
    model.ffn.map_or(1.0, |ffn| {
        let slice = f64::from(ffn) / gpus.max(1.0);
        slice / (slice + VLLM_MOE_SLICE_OVERHEAD)
    })
}

/// How much longer vLLM takes to stream a mixture of experts' 4-bit expert weights (gpt-oss's
/// MXFP4, GPTQ and AWQ checkpoints) on NVIDIA GPUs before Blackwell than the same bytes
/// take at the decode bandwidth share. These GPUs have no FP4 matrix math, so the experts
/// go through weight-only kernels that unpack every 4-bit block to 16 bits inside the
/// matmul (Marlin's MoE kernel on Ampere; OpenAI's Triton `matmul_ogs` or Marlin on
/// Hopper), which keep fewer bytes in flight than the FP8 and BF16 fused MoE kernels that
/// `VLLM_MOE_KERNEL_FIXED_S` was measured on. The kernel chosen moves the whole step by a
/// third: vLLM PR #27523 timed gpt-oss-120b's `vllm bench latency` on Hopper at 1.58 s
/// with the Triton kernels against 1.17 s with Marlin. Fitted on the two single-GPU
/// ShareGPT runs at four requests of GPUStack's performance lab (gpt-oss-120b, baseline
/// `vllm serve`, mean time per output token): an H100 SXM (vLLM 0.10.2) at 8.31 ms and an
/// A100 SXM 80GB (vLLM 0.11.0) at 11.67 ms, where the step's other terms leave 1.56 and
/// 1.57 times the expert bytes' time. Held out: the same lab's two-GPU H100 run and the
/// eight-H200 runs of vLLM issue 30326. Blackwell multiplies MXFP4 natively (FlashInfer's
/// kernels) and keeps 1.
pub const VLLM_WEIGHT_ONLY_4BIT_MOE_SLOWDOWN: f64 = 1.56;

/// Whether a decode step streams 4-bit expert weights through weight-only kernels
/// (`VLLM_WEIGHT_ONLY_4BIT_MOE_SLOWDOWN`): a mixture of experts at 4 bits under vLLM on an
/// NVIDIA GPU before Blackwell (compute capability below 10).
fn weight_only_4bit_moe(gpu: &Gpu, sized: &Sized, workload: &Workload) -> bool {
    sized.model.experts.is_some()
        && workload.runtime().tensor_parallel()
        && matches!(workload.precision, Precision::Int4 | Precision::Mxfp4)
        && gpu.vendor == Vendor::Nvidia
        && gpu.compute_capability().is_some_and(|cc| cc < (10, 0))
}

/// Whether Transformers multiplies every expert of this mixture of experts for every token
/// (`Model::transformers_dense_experts`): its own 16-bit expert classes, in inference.
/// With gpt-oss's MXFP4 experts on CUDA, Transformers swaps in routed Triton kernels
/// instead, so only a 16-bit run is counted so.
fn transformers_dense_experts(model: &Model, workload: &Workload) -> bool {
    model.transformers_dense_experts
        && workload.task == Task::Infer
        && workload.runtime() == Runtime::Transformers
        && matches!(workload.precision, Precision::Bf16 | Precision::Fp16)
}

/// What a streaming kernel measured on the person's own card (`Workload::measured`) makes
/// of its bandwidth-bound estimates: the measurement over what WebGPU's streaming kernels
/// reach on a card of this datasheet (the geometric middle of
/// `bench::WEBGPU_BANDWIDTH_EFFICIENCY`, 0.70), at most 1. A part measured below that (a
/// laptop variant under a desktop card's name, memory clocked down, a card that throttles)
/// has its bandwidth lowered in proportion; a higher measurement leaves the datasheet's
/// figure, which bounds it. 1 for every other card.
pub fn measured_bandwidth_factor(gpu: &Gpu, workload: &Workload) -> f64 {
    let (lo, hi) = crate::bench::WEBGPU_BANDWIDTH_EFFICIENCY;
    match (&workload.measured, gpu.memory_bandwidth_gbs) {
        (Some(m), Some(spec)) if m.gpu == gpu.id && spec > 0.0 => {
            (m.gbs / (spec * (lo * hi).sqrt())).min(1.0)
        }
        _ => 1.0,
    }
}

/// What a decode step's read of a quantized KV cache costs in llama.cpp, as a multiple of
/// its bytes: the time of the same cache in 16 bits. Quantizing the cache (`kv=q8|q4`)
/// buys memory, a longer context, not speed: its flash-attention kernels dequantize each
/// block they read, and published depth sweeps show no gain. An RTX 3090 decoding a 27B
/// model at Q8_0 cache ran 35.12 tokens/s against 35.27 at F16 at 1k tokens deep, 28.03
/// against 32.62 at 32k and 24.02 against 30.83 at 55k (TheTom/llama-cpp-turboquant
/// issue 102, llama-bench tg64 with `-fa 1`, September 2026); a Q4_0 cache decoded
/// Qwen2.5 7B Q4_K_M at 141.4 tokens/s against 147.8 (same repository, PR 53, tg128 on
/// an RTX 3090). The engine keeps the 16-bit time and leaves out the extra loss at great
/// depth. 1 for a 16-bit cache and for other runtimes.
fn llamacpp_kv_time(workload: &Workload) -> f64 {
    let kv = workload.kv;
    if workload.runtime() != Runtime::LlamaCpp || kv == crate::workload::KvCache::F16 {
        return 1.0;
    }
    let p = workload.precision;
    crate::workload::KvCache::F16.bytes(p) / kv.bytes(p)
}

/// Whether the GPU's memory is HBM (stacked, on package) rather than GDDR or LPDDR.
fn hbm(gpu: &Gpu) -> bool {
    gpu.memory_type
        .as_deref()
        .is_some_and(|m| m.starts_with("HBM"))
}

/// llama.cpp's CUDA backend on an NVIDIA card with GDDR memory (HBM cards keep their own
/// decode fit, `LLAMACPP_HBM_DECODE_BANDWIDTH`).
fn llamacpp_cuda(gpu: &Gpu, workload: &Workload) -> bool {
    workload.runtime() == Runtime::LlamaCpp && gpu.vendor == Vendor::Nvidia && !hbm(gpu)
}

/// The build a workload's runtime is estimated at: a measurement's, else one later than
/// any feature's date (today's, which every answer models).
fn built_or_today(workload: &Workload) -> (u16, u8) {
    workload.built.unwrap_or((u16::MAX, 12))
}

/// Whether llama.cpp replays a decode step on this card as one CUDA graph
/// (`LLAMACPP_CUDA_GRAPH_DECODE_OVERHEAD_PER_LAYER_S`). Its CUDA backend captured graphs
/// from May 2024 (llama.cpp PR 6766) but only on Ampere and later: below compute
/// capability 8.0 `ggml_cuda_graph_set_enabled` marks them `disable_due_to_gpu_arch`.
/// PR 25749 lowered that gate to Volta; opened on 16 July 2026, it was in the tree by 25
/// August (PR 27721 quotes the Volta gate), so builds dated August 2026 or later have it
/// on Turing too. Pascal is still left out. Today's build, which every answer models, has
/// both.
pub fn llamacpp_cuda_graphs(gpu: &Gpu, workload: &Workload) -> bool {
    let built = built_or_today(workload);
    let since = match gpu.compute_capability() {
        Some(cc) if cc >= (8, 0) => (2024, 5),
        Some(cc) if cc >= (7, 0) => (2026, 8),
        _ => return false,
    };
    llamacpp_cuda(gpu, workload) && built >= since
}

/// How much faster llama.cpp's CUDA build processes a prompt of quantized weights since
/// its MMQ kernels began multiplying them on INT8 tensor cores (June 2024, compute
/// capability 7.5 on), against the dequantize-and-cuBLAS path it took at the default
/// micro-batch of 512 before, which the engine's rates for llama.cpp were set on (builds of
/// early 2024). The kernels' author measured each type on an RTX 4090 (Llama 3 8B,
/// micro-batch 512) against that path: Q4_0 10,359 against 7,776 tokens/s (PR 7676, which
/// also moved Q4_1, Q5_0, Q5_1 and Q8_0), 1.33; Q4_K_S 9,267 against 7,694 (PR 7860, with
/// Q5_K and Q6_K), 1.20. Not fitted on any row. Applied where those PRs measured, GeForce
/// cards from Ampere on (their tables are of an RTX 3090 and an RTX 4090): on llama.cpp's
/// CUDA scoreboard (builds of 2025) the workstation cards' prompt rows (RTX A6000, A40,
/// PRO 6000 Blackwell, all within 6%) and the two Turing cards' (RTX 2080 Ti +11%, T4
/// +34%) show no such gain, where the GeForce cards' ran 19–29% above the engine without
/// it. Other types keep 1: Q3_K and IQ2_XS moved later, MXFP4 had no path before, and a
/// mixture of experts has its own share (`LLAMACPP_MOE_PREFILL_SHARE`), fitted on builds
/// that have the kernels.
pub fn llamacpp_mmq_tensor_core_speedup(gpu: &Gpu, workload: &Workload) -> f64 {
    let built = built_or_today(workload);
    let measured_on = gpu.vendor == Vendor::Nvidia
        && gpu.segment == Segment::Consumer
        && gpu.compute_capability().is_some_and(|cc| cc >= (8, 0));
    let cuda = workload.runtime() == Runtime::LlamaCpp && workload.cuda_backend;
    if !cuda || !measured_on || built < (2024, 6) {
        return 1.0;
    }
    match workload.precision {
        Precision::Int4 | Precision::Q8_0 => 10358.75 / 7776.11,
        Precision::Q4KM | Precision::Q5KM | Precision::Q6K => 9267.19 / 7694.01,
        _ => 1.0,
    }
}

/// Share of gradient communication hidden behind the backward pass (PyTorch DDP buckets).
pub const COMM_OVERLAP: f64 = 0.66;
/// Effective fraction of a link's bandwidth reached by NCCL ring all-reduce.
pub const LINK_EFFICIENCY: f64 = 0.8;
/// Apple GPUs may use about three quarters of unified memory (Metal's recommended working set).
pub const APPLE_USABLE_MEMORY: f64 = 0.75;
/// Host memory per GPU that offloaded training state may use: NVIDIA's DGX H100 carries
/// 2 TB of system memory for its 8 GPUs. A job whose offloaded share is larger does not
/// fit by offloading (ZeRO-Infinity's NVMe offload is not modelled).
pub const HOST_MEMORY_PER_GPU_BYTES: f64 = 256e9;
/// Parameters per second a host's CPUs update with Adam when the optimizer state is
/// offloaded: DeepSpeed's CPU-Adam stepped an 11.6B-parameter GPT-2 in 8.2 s (PR #735,
/// 2021-02; PyTorch's own CPU Adam then took 56 s). Held out: DeepSpeed's ZenFlow blog
/// (2025-10) has ZeRO-Offload add about 1.1 s per step to Qwen2.5-1.5B on two A100s with
/// two EPYC 7742s (240 → 1,365 ms), about 1.4 billion parameters a second with the
/// gradients' and weights' PCIe copies in it.
pub const HOST_ADAM_PARAMS_PER_S: f64 = 1.4e9;
/// Hours in a month, for monthly rental cost of a serving setup.
pub const HOURS_PER_MONTH: f64 = 730.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    pub low: f64,
    pub mid: f64,
    pub high: f64,
}

impl Range {
    pub fn new(a: f64, b: f64) -> Range {
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        Range {
            low,
            mid: (low * high).sqrt(),
            high,
        }
    }
    pub fn point(x: f64) -> Range {
        Range {
            low: x,
            mid: x,
            high: x,
        }
    }
    pub fn map(self, f: impl Fn(f64) -> f64) -> Range {
        Range::new(f(self.low), f(self.high))
    }
    pub fn scale(self, k: f64) -> Range {
        self.map(|x| x * k)
    }
}

/// Which peak rate a workload runs at on a GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateKind {
    /// Matrix units at the requested precision.
    Tensor(Precision),
    /// Requested precision unsupported; runs on matrix units at this one instead.
    TensorFallback { wanted: Precision, used: Precision },
    /// No matrix units for it: the plain shader pipeline.
    Shader(Precision),
    /// The catalog has no sourced compute figure; only bandwidth-bound estimates are made.
    Unknown,
}

/// Peak TFLOPS for the precision the workload computes in, and how it is reached.
/// `convolutional`: PyTorch lets cuDNN run FP32 convolutions on TF32 tensor cores by
/// default (`torch.backends.cudnn.allow_tf32 = True`), so FP32 conv nets get the TF32 rate.
pub fn peak_rate(gpu: &Gpu, workload: &Workload, convolutional: bool) -> Option<(f64, RateKind)> {
    let compute = match workload.task {
        Task::Infer => workload.precision,
        Task::Lora | Task::Qlora if !workload.precision.is_trainable() => Precision::Bf16,
        _ => memory::trainable(workload.precision),
    };
    let compute = if compute == Precision::Fp32 && convolutional {
        Precision::Tf32
    } else {
        compute
    };
    let sixteen = || {
        gpu.bf16_tensor_tflops
            .map(|r| (r, Precision::Bf16))
            .or(gpu.fp16_tensor_tflops.map(|r| (r, Precision::Fp16)))
    };
    let shader16 = || {
        gpu.fp16_tflops
            .map(|r| (r, RateKind::Shader(Precision::Fp16)))
    };
    let shader32 = || {
        gpu.fp32_tflops
            .map(|r| (r, RateKind::Shader(Precision::Fp32)))
    };
    let fallback = |wanted: Precision| {
        sixteen()
            .map(|(r, used)| (r, RateKind::TensorFallback { wanted, used }))
            .or_else(shader16)
            .or_else(shader32)
    };
    match compute {
        Precision::Fp32 => shader32(),
        Precision::Tf32 => gpu
            .tf32_tensor_tflops
            .map(|r| (r, RateKind::Tensor(Precision::Tf32)))
            .or_else(shader32),
        Precision::Bf16 => match gpu.bf16_tensor_tflops {
            Some(r) => Some((r, RateKind::Tensor(Precision::Bf16))),
            None => gpu
                .fp16_tensor_tflops
                .map(|r| {
                    (
                        r,
                        RateKind::TensorFallback {
                            wanted: Precision::Bf16,
                            used: Precision::Fp16,
                        },
                    )
                })
                .or_else(shader16)
                .or_else(shader32),
        },
        Precision::Fp16 => gpu
            .fp16_tensor_tflops
            .map(|r| (r, RateKind::Tensor(Precision::Fp16)))
            .or_else(shader16)
            .or_else(shader32),
        Precision::Fp8 => gpu
            .fp8_tensor_tflops
            .map(|r| (r, RateKind::Tensor(Precision::Fp8)))
            .or_else(|| fallback(Precision::Fp8)),
        Precision::Int8 => gpu
            .int8_tensor_tops
            .map(|r| (r, RateKind::Tensor(Precision::Int8)))
            .or_else(|| dp4a_tops(gpu).map(|r| (r, RateKind::Shader(Precision::Int8))))
            .or_else(|| fallback(Precision::Int8)),
        // Weight-only 4-bit and llama.cpp's GGUF types: weights are dequantised and
        // multiplied in 16-bit; llama.cpp on a GPU without tensor cores multiplies its
        // quantized blocks with DP4A instead. Q8_0 is no exception: its MMQ kernels use
        // INT8 matrix units but do not reach their rate, and an A100 prefilled Q8_0 slower
        // than F16 (`LLAMACPP_HBM_QUANT_PREFILL_SHARE`).
        Precision::Int4
        | Precision::Q8_0
        | Precision::Q6K
        | Precision::Q5KM
        | Precision::Q4KM
        | Precision::Q3KM
        | Precision::Iq2Xs
        | Precision::Mxfp4 => sixteen()
            .map(|(r, p)| (r, RateKind::Tensor(p)))
            .or_else(|| llama_cpp_dp4a(gpu, workload))
            .or_else(shader16)
            .or_else(shader32),
    }
    .map(|(rate, kind)| llama_cpp_without_fp16(gpu, workload, rate, kind))
}

/// llama.cpp on an NVIDIA GPU without tensor cores (Pascal, `compute_capability` 6.x)
/// multiplies quantized weights with its MMQ kernels, built on DP4A (ggml-cuda's
/// `mmq.cuh` and `vecdotq.cuh`), not with the 16-bit rate a Tesla P40 runs at 1/64.
fn llama_cpp_dp4a(gpu: &Gpu, workload: &Workload) -> Option<(f64, RateKind)> {
    (workload.runtime() == Runtime::LlamaCpp)
        .then(|| dp4a_tops(gpu))
        .flatten()
        .map(|r| (r, RateKind::Shader(Precision::Int8)))
}

/// llama.cpp computes in FP32 where a GPU's FP16 shader rate is below its FP32 rate
/// (ggml-cuda builds without `GGML_CUDA_F16` by default, and checks the architecture's
/// fast FP16 before taking the half-precision path): never at the crippled rate.
fn llama_cpp_without_fp16(
    gpu: &Gpu,
    workload: &Workload,
    rate: f64,
    kind: RateKind,
) -> (f64, RateKind) {
    match (kind, gpu.fp32_tflops) {
        (RateKind::Shader(Precision::Fp16), Some(fp32))
            if workload.runtime() == Runtime::LlamaCpp && fp32 > rate =>
        {
            (fp32, RateKind::Shader(Precision::Fp32))
        }
        _ => (rate, kind),
    }
}

/// INT8 on an NVIDIA GPU without INT8 tensor cores (Pascal from compute capability 6.1, and
/// Volta): the DP4A instruction, a four-way INT8 dot product with 32-bit accumulation per
/// CUDA core and clock (CUDA C++ Programming Guide, `__dp4a`, compute capability 6.1 and
/// later), four times the FP32 rate: NVIDIA's Tesla P40 datasheet gives 47 TOPS INT8 for
/// 11.8 TFLOPS FP32. On a V100 that is 56 TOPS, under its 112 TFLOPS of FP16 tensor math,
/// as faster-whisper's V100S runs show (INT8 59 s, FP16 54 s for the same audio).
pub fn dp4a_tops(gpu: &Gpu) -> Option<f64> {
    let dp4a = gpu.vendor == Vendor::Nvidia
        && gpu.int8_tensor_tops.is_none()
        && gpu.compute_capability().is_some_and(|cc| cc >= (6, 1));
    dp4a.then_some(gpu.fp32_tflops?).map(|f| 4.0 * f)
}

/// How much faster than the catalog's 16-bit tensor rate a GPU multiplies with FP16
/// accumulation. GeForce cards (Turing, Ampere, Ada, Blackwell) run FP16 tensor math with
/// FP32 accumulation at half their FP16-accumulate rate; the catalog stores the
/// FP32-accumulate figure (NVIDIA's Turing, GA102, Ada and RTX Blackwell whitepapers, as
/// the entries' notes quote: RTX 4090 165.2 against 330.3 TFLOPS). Workstation and
/// datacenter parts run both at full rate.
pub fn fp16_accumulate_speedup(gpu: &Gpu, rate: RateKind) -> f64 {
    let tensor16 = matches!(
        rate,
        RateKind::Tensor(Precision::Bf16 | Precision::Fp16)
            | RateKind::TensorFallback {
                used: Precision::Fp16 | Precision::Bf16,
                ..
            }
    );
    if gpu.vendor == Vendor::Nvidia && gpu.segment == Segment::Consumer && tensor16 {
        2.0
    } else {
        1.0
    }
}

/// How much more of its catalog 16-bit tensor peak a GeForce card's PyTorch matmuls reach
/// than a datacenter or workstation card's do, whose runs set the efficiency bands
/// (`MFU_TENSOR`). One benchmark script timed BF16 matmuls of 1k to 10k squares on many
/// GPUs (zzc0721/torch-performance-test-data, `database.md` at 0785868, best size per run):
/// GeForce cards, whose catalog peak is the FP32-accumulate rate, reach 0.97–1.14 of it
/// (RTX 4060 Ti 16 GB 0.97, RTX 4090 0.99 as the median of seven runs, RTX 4070 SUPER 1.06,
/// RTX 3090 1.08, RTX 5090 1.14; median 1.06), running above the boost clock the peak is
/// quoted at; full-rate cards reach 0.74–0.85 (L40S 0.74, B200 0.75, A100 40 GB 0.79, H100
/// SXM 0.79, RTX A6000 0.80, H200 0.80, RTX PRO 6000 0.83, A100 SXM 80 GB 0.85; median
/// 0.80). 1.06 / 0.80 ≈ 1.33. Set from that table as a whole; Answer.AI's FSDP QLoRA runs
/// (two RTX 3090s and two RTX 4090s, 26% and 39% under their measured rate without it)
/// and Lambda's A100 / RTX 4090 ratio point the same way.
pub const GEFORCE_MATMUL_SHARE: f64 = 1.33;

/// The share above for a GPU and the rate it multiplies at: GeForce cards (NVIDIA, consumer
/// segment) on the 16-bit tensor rate, 1.0 otherwise.
pub fn matmul_share(gpu: &Gpu, rate: RateKind) -> f64 {
    if fp16_accumulate_speedup(gpu, rate) > 1.0 {
        GEFORCE_MATMUL_SHARE
    } else {
        1.0
    }
}

/// 16-bit tensor TFLOPS per watt of board power that training sustains on NVIDIA
/// workstation and datacenter cards built on a GeForce die with GDDR memory (RTX A6000,
/// A5000, A10, A40, L4, L40S, RTX 6000 Ada, RTX PRO 6000 Blackwell), whose catalog peak is
/// the full-rate FP32-accumulate figure: on the same dies as GeForce cards but at 70–300 W
/// instead of 350–575 W, they do not hold the clocks that peak assumes. Set from Lambda's
/// single-GPU PyTorch runs as a group (deeplearning-benchmark, fp16 mixed precision),
/// against the GeForce rates the engine uses (catalog peak × `GEFORCE_MATMUL_SHARE`): the
/// RTX 6000 Ada (300 W, 364 TFLOPS peak) at 0.85× an RTX 4090 in BERT-large and 0.88× in
/// ResNet-50, about 187 TFLOPS of the 4090's 220 (0.62 per watt); the A10 (150 W) at 0.81×
/// an RTX 3090 in BERT-large, about 77 TFLOPS (0.51 per watt); the RTX A6000 (300 W, 155
/// TFLOPS) at 1.31× and 1.01× an RTX 3090 and 1/2.24 of an A100, at its peak. A cap of
/// 0.6 per watt binds the first two and not the third. The same limit holds in PyTorch
/// inference (diffusion, prefill under vLLM or Transformers): the power limit is the
/// card's, whatever the job.
pub const GDDR_FULL_RATE_TFLOPS_PER_WATT: f64 = 0.6;

/// The same cap for llama.cpp's prompt kernels, which accumulate in FP16 (and INT8) and
/// spend less power per operation than PyTorch's FP32-accumulate matmuls. Fitted on
/// XiongjieDai's llama.cpp pp512 rows (May 2024) of the RTX 6000 Ada (Q4_K_M 5,792 and F16
/// 6,663 tokens/s, 0.81× and 0.71× the same table's RTX 4090) and the L40S (Q4_K_M 6,035,
/// 0.85×): 0.77, 0.88 and 0.69 TFLOPS per watt against the engine's uncapped estimates
/// (+58%, +37%, +50% without a cap). The same table's RTX A6000 and A40 rows (155 and 150
/// TFLOPS at 300 W) are below it and held out.
pub const LLAMACPP_GDDR_FULL_RATE_TFLOPS_PER_WATT: f64 = 0.78;

/// Whether a GPU is such a card: NVIDIA, GDDR memory, not GeForce, and a 16-bit tensor
/// peak at the full FP32-accumulate rate (four times its FP32 shader rate from Ampere on,
/// eight on Turing, where GeForce cards have two and four).
fn full_rate_gddr(gpu: &Gpu) -> bool {
    let geforce_ratio = match gpu.compute_capability() {
        Some(cc) if cc >= (8, 0) => 2.0,
        Some(cc) if cc >= (7, 5) => 4.0,
        _ => return false,
    };
    let gddr = gpu
        .memory_type
        .as_deref()
        .is_some_and(|m| m.starts_with("GDDR"));
    let ratio = gpu
        .fp16_tensor_tflops
        .zip(gpu.fp32_tflops)
        .map(|(t, f)| t / f);
    gpu.vendor == Vendor::Nvidia
        && gpu.segment != Segment::Consumer
        && gddr
        && ratio.is_some_and(|r| r >= 1.9 * geforce_ratio)
}

/// NVIDIA GPUs before Ampere (compute capability 8.0): FlashAttention 2 does not run there.
pub fn lacks_flash_attention_2(gpu: &Gpu) -> bool {
    crate::support::lacks_flash_attention_2(gpu)
}

/// Bytes of unified memory a Mac's GPU may use once macOS's limit is raised with
/// `sudo sysctl iogpu.wired_limit_mb=…`, as people running the largest models on Macs do:
/// the larger of 80% of memory and all but 5 GiB, the setting exo's `configure_mlx.sh`
/// applies (github.com/exo-explore/exo). Other GPUs have no such limit to raise.
pub fn raised_memory(gpu: &Gpu) -> Option<f64> {
    let total = gpu.memory_gb * crate::gpu::GIB;
    (gpu.vendor == Vendor::Apple).then(|| (0.8 * total).max(total - 5120.0 * 1_048_576.0))
}

/// Bytes of memory the GPU can give to the job.
pub fn usable_memory(gpu: &Gpu) -> f64 {
    let bytes = gpu.memory_gb * crate::gpu::GIB;
    if gpu.vendor == Vendor::Apple {
        bytes * APPLE_USABLE_MEMORY
    } else {
        bytes
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Compute,
    Memory,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Generated tokens per second (decoders).
    Tokens,
    /// Training tokens per second (text models).
    TrainTokens,
    /// Samples (images, clips, sequences) per second.
    Samples,
    /// Generated images per second (diffusion); shown as seconds per image.
    Images,
    /// Seconds of audio transcribed per second (speech recognition): the real-time factor.
    AudioSeconds,
}

/// What one step of an estimate spends its time on, in seconds at the middle of the band's
/// efficiencies, and the rates it assumes: a card's "How this was estimated". A step's
/// time is not always the sum: where the work overlaps, the larger of compute and memory
/// traffic counts (`Speed::bound` names which one bounds it).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Terms {
    /// What one step produces, in the throughput's unit (tokens of the batch, samples of
    /// every GPU, images, seconds of audio).
    pub per_step: f64,
    /// Matrix math at the rate used.
    pub compute_s: f64,
    /// Reading and writing memory: weights, KV cache, activations, optimizer state.
    pub memory_s: f64,
    /// Between GPUs, nodes or over PCIe, as far as it is not hidden behind compute.
    pub communication_s: f64,
    /// Fixed costs: kernel launches per layer, the host's optimizer step, instruction issue.
    pub fixed_s: f64,
    /// The matrix rate the compute term starts from, in TFLOPS (the catalog's peak at the
    /// precision, capped by board power or scaled by the share such cards are measured to
    /// reach), and the shares of it the band's ends assume (the stack's factor included).
    pub tflops: f64,
    pub compute_share: (f64, f64),
    /// Memory bandwidth in GB/s and the shares of it the band's ends assume.
    pub bandwidth_gbs: f64,
    pub bandwidth_share: (f64, f64),
    /// Where `tflops` comes from.
    pub rate_source: RateSource,
    /// The software stack's factors on compute and bandwidth, in the shares above (1.0 on
    /// CUDA; `stack::efficiency`).
    pub stack_factor: (f64, f64),
}

/// Where an estimate's matrix rate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RateSource {
    /// The catalog's peak at the precision.
    #[default]
    Peak,
    /// The card's board power caps it (`GDDR_FULL_RATE_TFLOPS_PER_WATT`, or llama.cpp's).
    PowerCap,
    /// The share of the peak GeForce cards' 16-bit matmuls are measured to reach
    /// (`GEFORCE_MATMUL_SHARE`).
    MeasuredShare,
}

/// The middle of an efficiency band.
fn mid((low, high): (f64, f64)) -> f64 {
    (low + high) / 2.0
}

#[derive(Debug, Clone, PartialEq)]
pub struct Speed {
    pub rate: RateKind,
    pub bound: Bound,
    pub unit: Unit,
    /// Throughput of the whole group the job uses.
    pub throughput: Range,
    /// Training: hours for the dataset and epochs. Inference: None.
    pub job_hours: Option<Range>,
    /// Decoders: seconds to prefill one sequence of the chosen length.
    pub prefill_seconds: Option<Range>,
    /// GPUs the estimate uses and their scaling efficiency (1.0 for one).
    pub gpus_used: u32,
    pub scaling_efficiency: f64,
    pub link: Link,
    /// What a step spends its time on.
    pub terms: Terms,
}

/// Forward FLOPs per sample (or per token for decoders' decode), Kaplan et al. 2020:
/// 2·N per token plus 2·L·s·h for attention. Only layers that attend over the whole
/// sequence pay the attention term: a hybrid's linear-attention layers (Qwen3.5's Gated
/// DeltaNet, three of every four layers, `Model::kv_layers`) carry a fixed-size state
/// whose update costs the same at every position, and their projections are already in
/// 2·N.
fn forward_flops_per_sample(sized: &Sized, active_params: f64) -> Option<f64> {
    // A diffusion transformer's own FLOP count beats 2·N per token: its modulation weights
    // act once per step and each token passes one stream's weights (FLUX.1, SD 3.5).
    if sized.model.family == Family::Diffusion && sized.gflops_per_sample.is_some() {
        return sized.gflops_per_sample.map(|g| g * 1e9);
    }
    match sized.transformer {
        Some(t) => {
            let attending = sized
                .model
                .kv_layers
                .map_or(t.layers, f64::from)
                .min(t.layers);
            Some(t.tokens * (2.0 * active_params + 2.0 * attending * t.tokens * t.hidden))
        }
        None => sized.gflops_per_sample.map(|g| g * 1e9),
    }
}

/// Bytes moved through memory per byte of stored activation in one training step: each
/// stored tensor is written in the forward pass and read in the backward pass, its gradient
/// is written and read again, and the unfused element-wise ops (norms, activations,
/// residuals, dropout) around every matmul each read and write whole tensors. One global
/// constant, set so that the Lambda training-throughput ratios in the calibration
/// fixtures come out right on average; no fixture has its own.
pub const TRAINING_TRAFFIC_PASSES: f64 = 12.0;

/// The convolution-net training model on NVIDIA and AMD GPUs (`conv_issue_cycles`): bytes moved
/// per byte of stored activation, and SM cycles spent per stored activation element
/// outside the tensor-core math and the DRAM traffic (the instruction issue of the
/// normalisation, activation, layout and optimizer kernels around every convolution, which
/// runs at the card's SM count times its clock, whatever its tensor rate or bandwidth).
/// Lambda's ResNet-50 rows show the need for the second: an H200 trains 1.10 times as fast
/// as an H100 with 1.43 times the bandwidth, and an RTX 4090 reaches 82% of an A100 with
/// half of it, which neither a bandwidth nor a tensor roofline gives. Both constants are
/// the least-squares fit (on a 0.5 × 0.1 grid) to the nine single-GPU mixed-precision rows
/// of Lambda's PyTorch table that the catalog has (RTX 3090, RTX A6000, RTX 4090, RTX 6000
/// Ada, A100 SXM and PCIe 80 GB, H100 PCIe and SXM, H200): 4.6% root-mean-square error.
/// The table's V100, A10 and A100 40 GB rows, its FP32 column and Lambda's TensorFlow
/// A100/A6000 pair were left out of the fit (catalog/README.md gives the figures, row by row).
pub const CONV_TRAINING_TRAFFIC_PASSES: f64 = 10.0;
pub const CONV_ISSUE_CYCLES_PER_ELEMENT: f64 = 1.8;

/// FP32 lanes per streaming multiprocessor by compute capability: the CUDA C++
/// Programming Guide's throughput table (32-bit floating-point add, multiply and
/// multiply-add results per clock per multiprocessor), matching the architecture
/// whitepapers (A100: 64 per SM; GA102, AD102, GH100 and Blackwell: 128).
fn fp32_lanes_per_sm(compute_capability: &str) -> Option<f64> {
    let (major, minor) = compute_capability.split_once('.')?;
    let lanes = match (major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?) {
        (3, _) => 192.0,
        (5, _) | (6, 1 | 2) => 128.0,
        (6, 0) | (7, _) | (8, 0) => 64.0,
        (8, _) | (9, _) | (10..=12, _) => 128.0,
        _ => return None,
    };
    Some(lanes)
}

/// FP32 FLOPs per AMD compute unit per clock in AMD's FP32 peaks, by architecture: 256
/// where the peak counts packed or dual-issue FP32 (CDNA 3 and 4, RDNA 3 and 4), 128
/// where it does not (CDNA 1 and 2, RDNA 3.5's listed figure). The test checks each against
/// the chip's CU count and clock.
fn fp32_flops_per_cu(architecture: &str) -> Option<f64> {
    // The first prefix that matches: RDNA 3.5 before RDNA 3, plain CDNA last.
    [
        ("CDNA 3", 256.0),
        ("CDNA 4", 256.0),
        ("RDNA 3.5", 128.0),
        ("RDNA 3", 256.0),
        ("RDNA 4", 256.0),
        ("CDNA 2", 128.0),
        ("CDNA", 128.0),
    ]
    .into_iter()
    .find(|(prefix, _)| architecture.starts_with(prefix))
    .map(|(_, flops)| flops)
}

/// SM cycles per second (SM count times boost clock), from the FP32 rate the catalog
/// stores: two FLOPs per lane per cycle. An AMD compute unit issues 64 lanes per clock (four
/// 16-wide SIMDs on CDNA, two 32-wide on RDNA) against an SM's 128 (four 32-wide
/// schedulers), so it counts as half an SM; no measurement of AMD's convolution kernels
/// checks that. Other vendors' units: None.
pub fn sm_cycles_per_s(gpu: &Gpu) -> Option<f64> {
    let fp32 = gpu.fp32_tflops? * 1e12;
    match gpu.vendor {
        Vendor::Nvidia => {
            let lanes = fp32_lanes_per_sm(gpu.compute_capability.as_deref()?)?;
            Some(fp32 / (2.0 * lanes))
        }
        Vendor::Amd => Some(fp32 / fp32_flops_per_cu(&gpu.architecture)? * 0.5),
        _ => None,
    }
}

/// SM cycles per second of the GPU when it trains a convolution net under the model of
/// `CONV_ISSUE_CYCLES_PER_ELEMENT`; None for other models and GPUs.
fn conv_issue_cycles(gpu: &Gpu, sized: &Sized) -> Option<f64> {
    let convolutional = matches!(sized.model.family, Family::VisionCnn | Family::Medical3d);
    sm_cycles_per_s(gpu).filter(|_| convolutional && sized.transformer.is_none())
}

/// Activation bytes one sample's forward pass produces, as a training step without
/// recomputation stores them (`memory::Sized::activations`).
fn stored_activations_per_sample(sized: &Sized, workload: &Workload) -> f64 {
    let one = Workload {
        task: if workload.task.is_training() {
            workload.task
        } else {
            Task::Train
        },
        batch: 1,
        checkpointing: Some(false),
        ..workload.clone()
    };
    sized.activations(&one)
}

pub fn speed(
    gpu: &Gpu,
    sized: &Sized,
    workload: &Workload,
    placement: &Placement,
) -> Option<Speed> {
    // The workload as the placement runs it (with the memory savers it turned on).
    let planned = placement.planned(workload);
    let workload = &planned;
    let bandwidth = gpu.memory_bandwidth_gbs? * 1e9 * measured_bandwidth_factor(gpu, workload);
    let decoding = workload.task == Task::Infer && sized.model.family.is_decoder();
    // Without a compute figure only decode, which memory bandwidth bounds, can be estimated.
    let convolutional = matches!(
        sized.model.family,
        Family::VisionCnn | Family::Diffusion | Family::Medical3d
    );
    let (peak_tflops, rate) = match peak_rate(gpu, workload, convolutional) {
        Some(r) => r,
        None if decoding => (f64::INFINITY, RateKind::Unknown),
        None => return None,
    };
    let tensor16 = matches!(
        rate,
        RateKind::Tensor(Precision::Bf16 | Precision::Fp16)
            | RateKind::TensorFallback {
                used: Precision::Bf16 | Precision::Fp16,
                ..
            }
    );
    let (peak_tflops, rate_source) = match gpu.tdp_w {
        Some(watts) if tensor16 && full_rate_gddr(gpu) => {
            let per_watt = if decoding && workload.runtime() == Runtime::LlamaCpp {
                LLAMACPP_GDDR_FULL_RATE_TFLOPS_PER_WATT
            } else {
                GDDR_FULL_RATE_TFLOPS_PER_WATT
            };
            let capped = watts * per_watt;
            if capped < peak_tflops {
                (capped, RateSource::PowerCap)
            } else {
                (peak_tflops, RateSource::Peak)
            }
        }
        _ if matmul_share(gpu, rate) != 1.0 => (
            peak_tflops * matmul_share(gpu, rate),
            RateSource::MeasuredShare,
        ),
        _ => (peak_tflops, RateSource::Peak),
    };
    // Plain shader pipelines run GEMMs closer to their peak: FP32, and FP16 where it runs
    // at the FP32 rate (Apple). Packed or dual-issue 16-bit shader peaks (RDNA 3) are
    // reached no more often than tensor peaks.
    let plain_fp16 = gpu
        .fp16_tflops
        .zip(gpu.fp32_tflops)
        .is_some_and(|(h, f)| h <= f);
    let (mfu_lo, mfu_hi) = match rate {
        RateKind::Shader(Precision::Fp32 | Precision::Int8) => MFU_SHADER,
        RateKind::Shader(Precision::Fp16) if plain_fp16 => MFU_SHADER,
        _ => MFU_TENSOR,
    };
    // The stack's factors, with the part's own streaming share on bandwidth
    // (`stack::stream_bandwidth_share`).
    let stack = {
        let mut s = stack::efficiency(Stack::of(gpu));
        s.bandwidth *= stack::stream_bandwidth_share(gpu);
        s
    };
    let flops = |eff: f64| peak_tflops * 1e12 * eff * stack.compute;
    let bw = |eff: f64| bandwidth * eff * stack.bandwidth;
    let mfu_mid = mid((mfu_lo, mfu_hi));
    let bw_mid = mid(BANDWIDTH_EFFICIENCY);
    // The rates every path's terms share; each path fills in its step.
    let rates = Terms {
        tflops: peak_tflops,
        compute_share: (mfu_lo * stack.compute, mfu_hi * stack.compute),
        bandwidth_gbs: bandwidth / 1e9,
        bandwidth_share: (
            BANDWIDTH_EFFICIENCY.0 * stack.bandwidth,
            BANDWIDTH_EFFICIENCY.1 * stack.bandwidth,
        ),
        rate_source,
        stack_factor: (stack.compute, stack.bandwidth),
        ..Terms::default()
    };
    let model = sized.model;
    // Transformers' all-experts branch multiplies the whole model for every token.
    let dense_experts = transformers_dense_experts(model, workload);
    let active = if dense_experts {
        model.params()
    } else {
        model.active_params()
    };
    let b = f64::from(workload.batch);
    let per_node = workload.gpus.max(1);
    let link = link_for(gpu, per_node.min(placement.gpus.max(1)));

    if workload.task == Task::Infer {
        // One copy of the model on the fewest GPUs that hold it: `gpus` is the most the
        // person will use, not a number of copies to buy.
        let n = f64::from(placement.gpus);
        let replicas = 1;
        let weights = placement.memory.weights;
        let kv = placement.memory.kv_cache * llamacpp_kv_time(workload);
        if model.family.is_decoder() {
            let t = sized.transformer?;
            // One decode step reads every weight once (for a mixture of experts, the experts
            // the batch's tokens are routed to: `Model::params_read`) and the KV cache.
            let moe_share = if dense_experts {
                1.0
            } else {
                model.params_read(workload.batch) / model.params()
            };
            // 4-bit experts through weight-only kernels take longer per byte: their share
            // of the read counts `VLLM_WEIGHT_ONLY_4BIT_MOE_SLOWDOWN` times.
            let moe_share = if weight_only_4bit_moe(gpu, sized, workload) {
                moe_share
                    + (VLLM_WEIGHT_ONLY_4BIT_MOE_SLOWDOWN - 1.0)
                        * model.expert_params_read(workload.batch)
                        / model.params()
            } else {
                moe_share
            };
            // llama.cpp and Transformers split the layers across GPUs: each token passes
            // through the cards one after the other, so the step reads every card's share
            // in turn. vLLM's tensor parallelism reads all shares at once.
            let in_turn = if workload.runtime().tensor_parallel() {
                1.0
            } else {
                n
            };
            // Offloaded (`offload`), the GPU holds only part of the weights: it reads its
            // share of the step, the host the rest.
            let host = placement.host;
            let bytes = match host {
                Some(h) => {
                    ((weights + h.weight_bytes) * moe_share + kv + h.kv_bytes - h.read_bytes)
                        * in_turn
                }
                None => (weights * moe_share + kv) * in_turn,
            };
            let host_read = host.map_or((0.0, 0.0), |h| h.read_seconds());
            let tp_comm = if placement.gpus > 1 && in_turn == 1.0 {
                // Two all-reduces per layer of the step's b·h activations in 16 bits, each a
                // fixed latency plus a ring all-reduce's 2(n−1)/n of the bytes over the
                // GPU's link: the latency at batch 1 (16 KB for a 70B model), the bytes at
                // serving batches over PCIe (half a megabyte at batch 32).
                let latency = match link {
                    Link::Direct(_) => 10e-6,
                    _ => 30e-6,
                };
                let volume = 2.0 * (n - 1.0) / n * b * t.hidden * 2.0;
                2.0 * t.layers * (latency + volume / (link.gbs() * 1e9 * LINK_EFFICIENCY))
            } else {
                0.0
            };
            let graphed = llamacpp_cuda_graphs(gpu, workload);
            // llama.cpp's quantized matrix-vector products on a GPU without DP4A
            // (`LLAMACPP_NO_DP4A_DECODE_COMPUTE`).
            let vector_share = if workload.runtime() == Runtime::LlamaCpp
                && gpu.vendor == Vendor::Nvidia
                && (workload.precision.is_gguf()
                    || matches!(workload.precision, Precision::Int4 | Precision::Int8))
                && dp4a_tops(gpu).is_none()
                && gpu.int8_tensor_tops.is_none()
                && gpu.fp16_tensor_tflops.is_none()
            {
                LLAMACPP_NO_DP4A_DECODE_COMPUTE
            } else {
                1.0
            };
            let (decode_bw, per_layer) = if workload.runtime() == Runtime::LlamaCpp && hbm(gpu) {
                (
                    LLAMACPP_HBM_DECODE_BANDWIDTH,
                    LLAMACPP_HBM_DECODE_OVERHEAD_PER_LAYER_S,
                )
            } else if graphed {
                (
                    stack::BANDWIDTH_EFFICIENCY,
                    LLAMACPP_CUDA_GRAPH_DECODE_OVERHEAD_PER_LAYER_S,
                )
            } else if workload.runtime() == Runtime::LlamaCpp
                && Stack::of(gpu) == Stack::OneApiAlchemist
            {
                let ((lo, hi), per_layer) = stack::decode_fit(Stack::OneApiAlchemist);
                let share = stack::LLAMACPP_ALCHEMIST_DECODE_SHARE;
                ((lo * share, hi * share), per_layer)
            } else {
                stack::decode_fit(Stack::of(gpu))
            };
            // Every layer of a mixture of experts counts: DeepSeek-V3's first three dense
            // layers are left in, 5% of its layers.
            let moe_kernels = match model.experts {
                Some(_) if workload.runtime().tensor_parallel() => {
                    t.layers
                        * if Stack::of(gpu) == Stack::RocmInstinct {
                            ROCM_MOE_KERNEL_FIXED_S
                        } else {
                            VLLM_MOE_KERNEL_FIXED_S
                        }
                }
                // Routing's small kernels cost no less when launched one by one, so a
                // build with or without graphs pays them.
                Some(_) if llamacpp_cuda(gpu, workload) => t.layers * LLAMACPP_MOE_DECODE_FIXED_S,
                _ => 0.0,
            };
            let overhead = t.layers * per_layer + moe_kernels + tp_comm;
            let step = |bw_eff: f64, mfu: f64, host_s: f64| {
                let mem = bytes / bw(bw_eff);
                let comp = 2.0 * active * b * in_turn / (flops(mfu) * n * vector_share);
                mem.max(comp) + host_s + overhead
            };
            let bound = if bytes / bw(0.75) >= 2.0 * active * b / (flops(0.4) * n * vector_share) {
                Bound::Memory
            } else {
                Bound::Compute
            };
            let tokens_per_s = Range::new(
                b / step(decode_bw.0, mfu_lo, host_read.1),
                b / step(decode_bw.1, mfu_hi, host_read.0),
            )
            .scale(f64::from(replicas));
            // llama.cpp's prompt kernels accumulate in FP16 (and INT8), which GeForce cards
            // run at twice the FP32-accumulate rate the catalog stores; the share their
            // FP32-accumulate matmuls reach above it (`GEFORCE_MATMUL_SHARE`) is not
            // measured for that path, which keeps the catalog's doubled rate.
            let accumulate = if workload.runtime() == Runtime::LlamaCpp {
                fp16_accumulate_speedup(gpu, rate) / matmul_share(gpu, rate)
            } else {
                1.0
            };
            let llama_cpp = workload.runtime() == Runtime::LlamaCpp;
            // llama.cpp's Metal prompt kernel dequantizes each weight tile before it
            // multiplies, which costs the K-quants more (`metal_prefill_type_share`).
            let metal_type = if llama_cpp && Stack::of(gpu) == Stack::Metal {
                stack::metal_prefill_type_share(workload.precision)
            } else {
                1.0
            };
            let prefill_share = stack::prefill_compute(Stack::of(gpu))
                * metal_type
                * if Stack::of(gpu) == Stack::RocmInstinct && llama_cpp {
                    stack::LLAMACPP_INSTINCT_PREFILL_COMPUTE
                } else if llama_cpp && gpu.compute_capability() == Some((9, 0)) {
                    stack::LLAMACPP_HOPPER_PREFILL_COMPUTE
                } else if llama_cpp && Stack::of(gpu) == Stack::RocmRdna4 {
                    // llama.cpp's own prompt kernels in place of ROCm's PyTorch share.
                    stack::LLAMACPP_RDNA4_PREFILL_COMPUTE / stack::ROCM_RDNA4_COMPUTE
                } else if llama_cpp && rate == RateKind::Shader(Precision::Int8) {
                    // Pascal's MMQ kernels on DP4A (`llama_cpp_dp4a`).
                    stack::LLAMACPP_DP4A_PREFILL_COMPUTE
                } else if llama_cpp
                    && workload.precision.is_gguf()
                    && hbm(gpu)
                    && Stack::of(gpu) == Stack::Cuda
                {
                    LLAMACPP_HBM_QUANT_PREFILL_SHARE
                } else {
                    1.0
                };
            let llama_moe = model.experts.is_some() && llama_cpp;
            let experts = if llama_moe {
                LLAMACPP_MOE_PREFILL_SHARE
            } else {
                llamacpp_mmq_tensor_core_speedup(gpu, workload)
            };
            // The experts' weights a mixture of experts streams per prompt micro-batch
            // (`llamacpp_expert_stream_bytes`), read at the decode bandwidth.
            let stream = if llama_moe {
                let host_weights = host.map_or(0.0, |h| h.weight_bytes);
                llamacpp_expert_stream_bytes(model, t.tokens, workload.ubatch)
                    * (weights + host_weights)
                    * in_turn
            } else {
                0.0
            };
            // vLLM and SGLang multiply a mixture of experts' routed experts with their fused
            // MoE kernels, at `VLLM_MOE_PREFILL_SHARE` of the 16-bit matrix peak whatever the
            // weights' precision, less for the narrow slices of experts split over the GPUs
            // (`moe_slice_efficiency`); the rest of the prompt's work keeps the usual band.
            let routed = if model.experts.is_some() && workload.runtime().tensor_parallel() {
                2.0 * model.expert_params_read(1) * t.tokens
            } else {
                0.0
            };
            // The 16-bit peak, looked up only for a mixture of experts under vLLM.
            let peak16 = if routed > 0.0 {
                let bf16 = Workload {
                    precision: Precision::Bf16,
                    ..workload.clone()
                };
                peak_rate(gpu, &bf16, false).map_or(peak_tflops, |(p, _)| p)
            } else {
                f64::INFINITY
            };
            let expert_s = |mfu: f64| {
                let share = VLLM_MOE_PREFILL_SHARE * moe_slice_efficiency(model, n) * mfu
                    / mid((mfu_lo, mfu_hi));
                routed / (peak16.min(peak_tflops) * 1e12 * share * stack.compute * n)
            };
            // Tensor parallelism all-reduces every layer's activations twice, for each prompt
            // token as for each decoded one (the decode step's `tp_comm`, without its latency,
            // which a chunk of thousands of tokens hides).
            let prompt_comm = if placement.gpus > 1 && in_turn == 1.0 {
                let volume = 2.0 * (n - 1.0) / n * t.tokens * t.hidden * 2.0;
                2.0 * t.layers * volume / (link.gbs() * 1e9 * LINK_EFFICIENCY)
            } else {
                0.0
            };
            let prefill = forward_flops_per_sample(sized, active)
                .filter(|_| peak_tflops.is_finite())
                .map(|f| (f - routed) / (accumulate * prefill_share * experts))
                // A layer split passes the prompt through the cards in turn, as it does a
                // decode step.
                .map(|f| f * in_turn)
                .map(|f| {
                    Range::new(
                        f / (flops(mfu_hi) * n)
                            + expert_s(mfu_hi)
                            + stream / bw(decode_bw.1)
                            + prompt_comm,
                        f / (flops(mfu_lo) * n)
                            + expert_s(mfu_lo)
                            + stream / bw(decode_bw.0)
                            + prompt_comm,
                    )
                })
                // Offloaded weights cross PCIe once per batch of prompt tokens.
                .map(|r| match host {
                    Some(h) => {
                        let pcie = gpu
                            .pcie
                            .as_ref()
                            .map_or(ASSUMED_LINK_GBS, |p| p.bandwidth_gbs());
                        let copy = h.prompt_copy_seconds(t.tokens, workload.ubatch, pcie);
                        r.map(|x| x + copy)
                    }
                    None => r,
                });
            let terms = Terms {
                per_step: b,
                compute_s: 2.0 * active * b * in_turn / (flops(mfu_mid) * n * vector_share),
                memory_s: bytes / bw(mid(decode_bw)) + mid(host_read),
                communication_s: tp_comm,
                fixed_s: t.layers * per_layer + moe_kernels,
                bandwidth_share: (decode_bw.0 * stack.bandwidth, decode_bw.1 * stack.bandwidth),
                ..rates
            };
            return Some(Speed {
                rate,
                bound,
                unit: Unit::Tokens,
                throughput: tokens_per_s,
                job_hours: None,
                prefill_seconds: prefill,
                gpus_used: placement.gpus * replicas,
                scaling_efficiency: 1.0,
                link,
                terms,
            });
        }
        if model.family == Family::Diffusion {
            let mfu = (mfu_lo, mfu_hi);
            return diffusion_speed(
                gpu,
                sized,
                workload,
                placement,
                (rate, mfu, link, rates),
                &flops,
                &bw,
            );
        }
        if model.family == Family::Speech {
            let mfu = (mfu_lo, mfu_hi);
            let fallback = crate::support::speech_runtime(gpu, workload.runtime);
            return speech_speed(
                sized,
                workload,
                placement,
                (rate, mfu, link, rates),
                (&flops, &bw),
                fallback,
            );
        }
        let per_sample = forward_flops_per_sample(sized, active)?;
        let step = |bw_eff: f64, mfu: f64| {
            let comp = per_sample * b / (flops(mfu) * n);
            let mem = (weights + placement.memory.activations) / bw(bw_eff);
            comp.max(mem)
        };
        let bound = if per_sample * b / flops(0.4) >= weights / bw(0.75) {
            Bound::Compute
        } else {
            Bound::Memory
        };
        let samples = Range::new(
            b / step(BANDWIDTH_EFFICIENCY.0, mfu_lo),
            b / step(BANDWIDTH_EFFICIENCY.1, mfu_hi),
        )
        .scale(f64::from(replicas));
        let terms = Terms {
            per_step: b,
            compute_s: per_sample * b / (flops(mfu_mid) * n),
            memory_s: (weights + placement.memory.activations) / bw(bw_mid),
            ..rates
        };
        return Some(Speed {
            terms,
            rate,
            bound,
            unit: Unit::Samples,
            throughput: samples,
            job_hours: None,
            prefill_seconds: None,
            gpus_used: placement.gpus * replicas,
            scaling_efficiency: 1.0,
            link,
        });
    }

    // Training: FLOPs per sample are forward × 3 (backward twice the forward), plus one more
    // forward under recomputation. Adapters skip weight gradients of the frozen base: forward ×2.
    let forward = forward_flops_per_sample(sized, active)?;
    let passes = match workload.task {
        Task::Lora | Task::Qlora => 2.0,
        _ => 3.0,
    } + if workload.checkpointing() { 1.0 } else { 0.0 };
    // Without FlashAttention 2 (NVIDIA before Ampere), attention costs more at long sequences.
    let attention = match sized.transformer {
        Some(t) if lacks_flash_attention_2(gpu) && model.family.is_sequence_model() => {
            stack::no_flash_attention_2_slowdown(t.tokens)
        }
        _ => 1.0,
    };
    // A tensor-parallel group of `tensor` GPUs shares each micro-batch: each does 1/tensor
    // of its matmuls and element-wise work.
    let tensor = f64::from(placement.sharding.tensor());
    let mut step_flops = forward * passes * b * attention / tensor;
    // A mixture of experts trained in full: its routed experts' matmuls run at the 16-bit
    // rate under FP8 (`MOE_EXPERT_FP8_SPEEDUP`), and each layer pays routing's fixed time
    // per micro-batch (`MOE_LAYER_FIXED_S`).
    let mut moe_fixed = 0.0;
    if let (Some(e), Some(k), Some(t)) = (model.experts, model.active_experts, sized.transformer) {
        if e > k && !workload.task.is_adapter() {
            let expert = (model.params() - active) / f64::from(e - k);
            let sixteen = Workload {
                precision: Precision::Bf16,
                ..workload.clone()
            };
            if let (Some((asked, _)), Some((bf16, _))) = (
                peak_rate(gpu, workload, false),
                peak_rate(gpu, &sixteen, false),
            ) {
                let slowdown = (asked / bf16 / MOE_EXPERT_FP8_SPEEDUP).max(1.0);
                step_flops +=
                    2.0 * t.tokens * f64::from(k) * expert * passes * b / tensor * (slowdown - 1.0);
            }
            moe_fixed = MOE_LAYER_FIXED_S * t.layers;
        }
    }
    // XLA fuses a transformer's element-wise work away (MaxText) and most of a convolution
    // net's (`stack::XLA_CONV_ELEMENTWISE_TRAFFIC`); eager PyTorch keeps it all.
    let fused = match sized.transformer {
        Some(_) if workload.framework() == Framework::Megatron => {
            stack::MEGATRON_ELEMENTWISE_TRAFFIC
        }
        Some(_) => stack.elementwise_traffic,
        None if Stack::of(gpu) == Stack::Xla => stack::XLA_CONV_ELEMENTWISE_TRAFFIC,
        None => 1.0,
    };
    // QLoRA dequantises every base weight once per pass (`QLORA_DEQUANT_BYTES_PER_PARAM`);
    // under FSDP each GPU dequantises the whole gathered layer, under tensor parallelism
    // its slice.
    let dequant = if workload.task == Task::Qlora {
        active * QLORA_DEQUANT_BYTES_PER_PARAM * passes / tensor
    } else {
        0.0
    };
    // Convolution nets on NVIDIA and AMD GPUs: the convolutions' tensor work overlaps the rest of
    // the step, which moves the traffic and issues the element-wise kernels' instructions
    // one after the other, so the step takes the longer of the two.
    let conv_cycles = conv_issue_cycles(gpu, sized);
    let passes_moved = match conv_cycles {
        Some(_) => CONV_TRAINING_TRAFFIC_PASSES,
        None => TRAINING_TRAFFIC_PASSES,
    };
    let stored = stored_activations_per_sample(sized, workload);
    let issue = conv_cycles.map(|cycles| {
        let elements = stored / memory::trainable(workload.precision).activation_bytes();
        CONV_ISSUE_CYCLES_PER_ELEMENT * elements * b * passes / 3.0 / (cycles * stack.compute)
    });
    let traffic = passes_moved * stored * b / tensor * fused
        + (placement.memory.weights + placement.memory.gradients + placement.memory.optimizer)
            * 2.0
        + dequant;
    // Tensor parallelism with sequence parallelism exchanges every layer's activations:
    // two all-gathers and two reduce-scatters forward and again backward (Korthikanti et
    // al. 2022, §4.2.2), four more under recomputation; each moves (t−1)/t of s·b·h
    // 16-bit values over the node's link, waited for rather than overlapped.
    let tp_comm = match (sized.transformer, placement.sharding.tensor()) {
        (Some(t), degree) if degree > 1 => {
            let collectives = 8.0 + if workload.checkpointing() { 4.0 } else { 0.0 };
            let volume = collectives * (tensor - 1.0) / tensor * t.tokens * b * t.hidden * 2.0;
            volume * t.layers / (link.gbs() * 1e9 * LINK_EFFICIENCY)
        }
        _ => 0.0,
    };
    // Offloaded, every step streams this GPU's share of the parameters in twice (forward
    // and backward) and its gradients out over PCIe, fetching the next layer while the
    // current one computes (FSDP's and ZeRO's prefetch), so the step takes the longer of
    // the two. Answer.AI's FSDP+QLoRA runs of Llama 2 70B bear the overlap out: two RTX
    // 4090s trained 2.7 times as fast as two RTX 3090s, the ratio of their compute, not of
    // their equal PCIe 4.0 links. An adapter's optimizer is small; a full fine-tune's
    // optimizer step then runs on the host's CPUs after the backward pass, which the GPUs
    // wait for (`HOST_ADAM_PARAMS_PER_S`).
    let offload = if let Sharding::Offloaded { gpus } = placement.sharding {
        let full = memory::breakdown(
            sized,
            workload,
            Sharding::FullySharded { gpus: gpus.max(1) },
        );
        let pcie = gpu
            .pcie
            .as_ref()
            .map_or(ASSUMED_LINK_GBS, |p| p.bandwidth_gbs());
        let frozen = workload.task.is_adapter();
        let bytes = 2.0 * full.weights + if frozen { 0.0 } else { full.gradients };
        bytes / (pcie * 1e9 * LINK_EFFICIENCY)
    } else {
        0.0
    };
    // Each node's CPUs step the parameters its GPUs hold. Not on TPUs: MaxText's host
    // offload moves activations and keeps the optimizer on the chips (its v6e-32 recipe
    // for Llama 3.1 70B offloads decoder-layer inputs and projections, weights in BF16).
    let host_step = match placement.sharding {
        Sharding::Offloaded { .. }
            if !workload.task.is_adapter() && Stack::of(gpu) != Stack::Xla =>
        {
            model.params() / f64::from(workload.nodes.max(1)) / HOST_ADAM_PARAMS_PER_S
        }
        _ => 0.0,
    };
    // torchtune's paged optimizer state that waits in system memory comes to the card for
    // its update in the backward pass and goes back to make room: twice over PCIe a step,
    // waited for (the update of each parameter is on the backward pass's path).
    let paged = if placement.paged_optimizer > 0.0 {
        let pcie = gpu
            .pcie
            .as_ref()
            .map_or(ASSUMED_LINK_GBS, |p| p.bandwidth_gbs());
        2.0 * placement.paged_optimizer / (pcie * 1e9 * LINK_EFFICIENCY)
    } else {
        0.0
    };
    // Otherwise matmuls run at the compute roofline and element-wise work at the bandwidth
    // roofline, one after the other: training time is their sum (not the larger of the
    // two).
    let step_time = |bw_eff: f64, mfu: f64| {
        let work = match issue {
            Some(issue) => (step_flops / flops(mfu)).max(traffic / bw(bw_eff) + issue),
            None => step_flops / flops(mfu) + traffic / bw(bw_eff),
        };
        work.max(offload) + tp_comm + host_step + paged + moe_fixed
    };
    let bound = if step_flops / flops(0.4) >= traffic / bw(0.75) {
        Bound::Compute
    } else {
        Bound::Memory
    };
    // Data parallel over the placement's GPUs, every allowed one but those a tensor-parallel
    // layout leaves idle (the state is sharded when it must be); a tensor-parallel group
    // counts as one data-parallel rank.
    let n = placement.gpus.max(1);
    let ranks = (f64::from(n) / tensor).max(1.0);
    let trainable = match workload.task {
        Task::Lora | Task::Qlora => sized.lora_params(workload.lora_rank),
        _ => model.params(),
    };
    // Megatron-Core trains a mixture of experts with its experts split over the GPUs of a
    // node (expert parallelism): each GPU holds `experts / ep` of every MoE layer's experts,
    // so it reduces the gradients of the shared weights and of its own experts only, the
    // experts' among the GPUs that hold the same ones (the expert-data-parallel group).
    let grad_bytes = match (model.experts, model.active_experts) {
        (Some(e), Some(k))
            if e > k
                && workload.framework() == Framework::Megatron
                && !workload.task.is_adapter() =>
        {
            let routed = (model.params() - model.active_params()) / f64::from(e - k) * f64::from(e);
            let ep = f64::from(e.min(per_node.min(n)).max(1));
            ((trainable - routed) / tensor + routed / ep) * 2.0
        }
        _ => trainable * 2.0 / tensor,
    };
    let comm = if n > 1 {
        let nf = f64::from(n);
        let sharded = !matches!(placement.sharding, Sharding::Single);
        let volume = 2.0 * (nf - 1.0) / nf * grad_bytes * if sharded { 1.5 } else { 1.0 };
        let intra = (link.gbs() * 1e9 * LINK_EFFICIENCY).max(1.0);
        let mut t = volume / intra;
        if workload.nodes > 1 {
            // Hierarchical all-reduce: after the reduce-scatter inside each node, every GPU
            // all-reduces its 1/g shard across the nodes over its own NIC (an HGX node has
            // one NIC per GPU), so the nodes exchange 2(N−1)/N of a shard per GPU in parallel.
            let nodes = f64::from(workload.nodes);
            let shard = grad_bytes / f64::from(per_node);
            t += 2.0 * (nodes - 1.0) / nodes * shard
                / (workload.network.bandwidth_gbs() * 1e9 * LINK_EFFICIENCY);
        }
        t
    } else {
        0.0
    };
    let group_step = |bw_eff: f64, mfu: f64| {
        let s = step_time(bw_eff, mfu);
        s + (comm - COMM_OVERLAP * s).max(0.0)
    };
    let one = step_time(0.75, 0.45);
    let efficiency = one / group_step(0.75, 0.45);
    let samples_per_s = Range::new(
        b * ranks / group_step(BANDWIDTH_EFFICIENCY.0, mfu_lo),
        b * ranks / group_step(BANDWIDTH_EFFICIENCY.1, mfu_hi),
    );
    let total_samples = workload.samples_for(model) as f64 * workload.epochs;
    let job_hours = samples_per_s.map(|s| total_samples / s / 3600.0);
    let (unit, throughput, per_sample) = match sized.transformer {
        Some(t) if model.family.is_sequence_model() => {
            (Unit::TrainTokens, samples_per_s.scale(t.tokens), t.tokens)
        }
        _ => (Unit::Samples, samples_per_s, 1.0),
    };
    let middle = step_time(bw_mid, mfu_mid);
    let work_compute = step_flops / flops(mfu_mid);
    let work_memory = traffic / bw(bw_mid);
    let terms = Terms {
        per_step: b * ranks * per_sample,
        compute_s: work_compute,
        memory_s: work_memory,
        communication_s: tp_comm
            + (offload - (work_compute + work_memory)).max(0.0)
            + (comm - COMM_OVERLAP * middle).max(0.0),
        fixed_s: host_step + issue.unwrap_or(0.0),
        ..rates
    };
    Some(Speed {
        terms,
        rate,
        bound,
        unit,
        throughput,
        job_hours: Some(job_hours),
        prefill_seconds: None,
        gpus_used: n,
        scaling_efficiency: efficiency,
        link,
    })
}

/// How much longer a pipeline-parallel training step takes than its pipeline's busy time:
/// the pipeline fills and drains once a step, each of the `stages` − 1 stages after the
/// first idling for one micro-batch's worth of its work at the start and again at the end.
/// Narayanan et al. 2021 ("Efficient Large-Scale Language Model Training on GPU Clusters
/// Using Megatron-LM", §2.2) put the idle share of the busy time at (p − 1) / m for the
/// one-forward-one-backward schedule over p stages and m micro-batches, and at
/// (p − 1) / (v·m) for the interleaved schedule, where each GPU holds v chunks of layers.
/// torchtitan's Llama 3.1 405B runs bear it out: at p = 8 and m = 8 (its default, one
/// micro-batch per stage) with two chunks per GPU in the interleaved schedule, the two
/// schedules' figures (100 and 128 tokens/s per GPU) differ by 1.28×, against
/// (1 + 7/8) / (1 + 7/16) = 1.30.
pub fn pipeline_bubble(stages: u32, chunks: u32, microbatches: u32) -> f64 {
    if stages <= 1 {
        return 1.0;
    }
    let idle = f64::from(stages - 1) / f64::from(chunks.max(1) * microbatches.max(1));
    1.0 + idle
}

/// Scaling efficiency of data-parallel training at 1, 2, 4, … GPUs up to `max`.
pub fn scaling_curve(gpu: &Gpu, sized: &Sized, workload: &Workload, max: u32) -> Vec<(u32, f64)> {
    let mut out = Vec::new();
    let mut n = 1;
    while n <= max {
        let w = Workload {
            gpus: n.min(workload.gpus.max(1)),
            nodes: n.div_ceil(workload.gpus.max(1)),
            ..workload.clone()
        };
        if let Ok(p) = place(gpu, sized, &w) {
            if let Some(s) = speed(gpu, sized, &w, &p) {
                out.push((s.gpus_used, s.scaling_efficiency));
            }
        }
        n *= 2;
    }
    out
}

/// Image and video models compute in their own resolution's units; used by the UI.
pub fn is_vision(family: Family) -> bool {
    matches!(
        family,
        Family::VisionCnn
            | Family::VisionTransformer
            | Family::Diffusion
            | Family::Medical3d
            | Family::Video
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Catalog;

    #[test]
    fn a_build_has_the_llamacpp_features_of_its_date() {
        let c = Catalog::embedded();
        let gpu = |id: &str| c.gpu(id).expect("in the catalog");
        let at = |built: Option<(u16, u8)>| Workload {
            runtime: Some(Runtime::LlamaCpp),
            precision: Precision::Q4KM,
            built,
            ..Workload::default()
        };
        let graphs = |id: &str, built| llamacpp_cuda_graphs(gpu(id), &at(built));
        // Ampere on since May 2024; Turing only from August 2026; Pascal and HBM never.
        assert!(!graphs("rtx-3090", Some((2024, 1))));
        assert!(graphs("rtx-3090", Some((2024, 5))));
        assert!(!graphs("rtx-2080-ti", Some((2025, 8))));
        assert!(graphs("rtx-2080-ti", Some((2026, 8))));
        assert!(graphs("rtx-2080-ti", None));
        assert!(!graphs("p40", None));
        assert!(!graphs("a100-sxm4-80gb", None));
        let vllm = Workload {
            runtime: Some(Runtime::Vllm),
            ..at(None)
        };
        assert!(!llamacpp_cuda_graphs(gpu("rtx-3090"), &vllm));
        // The MMQ kernels' INT8 tensor cores: GeForce from Ampere, CUDA builds from June
        // 2024, the types the two PRs moved.
        let mma = |id: &str, w: &Workload| llamacpp_mmq_tensor_core_speedup(gpu(id), w);
        assert!((mma("rtx-4090", &at(None)) - 9267.19 / 7694.01).abs() < 1e-9);
        let q4_0 = Workload {
            precision: Precision::Int4,
            ..at(None)
        };
        assert!((mma("rtx-3090", &q4_0) - 10358.75 / 7776.11).abs() < 1e-9);
        assert_eq!(mma("rtx-4090", &at(Some((2024, 5)))), 1.0);
        assert_eq!(mma("rtx-a6000", &at(None)), 1.0);
        assert_eq!(mma("rtx-2080-ti", &at(None)), 1.0);
        let vulkan = Workload {
            cuda_backend: false,
            ..at(None)
        };
        assert_eq!(mma("rtx-4090", &vulkan), 1.0);
        let mxfp4 = Workload {
            precision: Precision::Mxfp4,
            ..at(None)
        };
        assert_eq!(mma("rtx-4090", &mxfp4), 1.0);
    }

    #[test]
    fn the_power_cap_finds_the_full_rate_gddr_cards_and_only_those() {
        let c = Catalog::embedded();
        let full = |id: &str| full_rate_gddr(c.gpu(id).expect("in the catalog"));
        for id in [
            "rtx-a6000",
            "rtx-6000-ada",
            "rtx-pro-6000-blackwell",
            "a10",
            "l4",
            "l40s",
        ] {
            assert!(full(id), "{id}");
        }
        // GeForce cards list the half-rate figure; the L40 does too; HBM parts reach theirs.
        for id in [
            "rtx-4090",
            "rtx-3090",
            "rtx-5090",
            "l40",
            "a100-sxm4-80gb",
            "h100-sxm5-80gb",
        ] {
            assert!(!full(id), "{id}");
        }
    }

    #[test]
    fn the_fused_moe_fixed_time_reproduces_the_kernel_benchmarks() {
        // (experts, routed per token, bytes of one expert's slice, peak GB/s,
        // [(tokens, published µs)]) from the three pull requests the constant names.
        type Run<'a> = (f64, f64, f64, f64, &'a [(i32, f64)]);
        let runs: [Run; 3] = [
            (
                128.0,
                8.0,
                3.0 * 2048.0 * 768.0,
                3350.0,
                &[
                    (1, 44.54),
                    (2, 59.94),
                    (4, 90.46),
                    (8, 129.77),
                    (16, 185.40),
                ],
            ),
            (
                128.0,
                8.0,
                3.0 * 4096.0 * 192.0,
                4800.0,
                &[(1, 31.70), (2, 36.56), (4, 49.67), (8, 66.87), (16, 92.36)],
            ),
            (
                256.0,
                8.0,
                3.0 * 7168.0 * 256.0,
                8000.0,
                &[(1, 52.65), (2, 60.35), (4, 79.09), (8, 95.47), (16, 138.68)],
            ),
        ];
        // Held out: an A100 PCIe 40GB in BF16 (vLLM PR #19049, before tuning).
        let held_out: Run = (
            128.0,
            8.0,
            3.0 * 2048.0 * 768.0 * 2.0,
            1555.0,
            &[
                (1, 109.21),
                (2, 159.81),
                (4, 268.89),
                (8, 403.13),
                (16, 611.19),
            ],
        );
        let share = mid(BANDWIDTH_EFFICIENCY);
        for (experts, k, bytes, gbs, points) in runs.into_iter().chain([held_out]) {
            for &(tokens, published) in points {
                let touched = experts * (1.0 - (1.0 - k / experts).powi(tokens));
                let us = VLLM_MOE_KERNEL_FIXED_S * 1e6 + touched * bytes / (gbs * share * 1e3);
                let error = us / published - 1.0;
                assert!(
                    error.abs() < 0.33,
                    "{experts} experts, {tokens} tokens: {error:+.2}"
                );
            }
        }
    }

    #[test]
    fn sm_cycles_come_out_as_sm_count_times_boost_clock() {
        let c = Catalog::embedded();
        let cycles = |id: &str| sm_cycles_per_s(c.gpu(id).expect("in the catalog"));
        // SM or compute-unit counts and boost clocks from NVIDIA's whitepapers and AMD's
        // spec pages must come back out of the FP32 peaks; an AMD compute unit counts as
        // half an SM.
        const SM: f64 = 1.0;
        const CU: f64 = 0.5;
        for (id, units, ghz, share) in [
            ("v100-sxm2-32gb", 80.0, 1.53, SM),
            ("t4", 40.0, 1.59, SM),
            ("a100-sxm4-80gb", 108.0, 1.41, SM),
            ("rtx-3090", 82.0, 1.695, SM),
            ("rtx-4090", 128.0, 2.52, SM),
            ("h100-sxm5-80gb", 132.0, 1.98, SM),
            ("p100-pcie-16gb", 56.0, 1.303, SM),
            ("mi100", 120.0, 1.502, CU),
            ("mi250x", 220.0, 1.7, CU),
            ("mi300x", 304.0, 2.1, CU),
            ("mi355x", 256.0, 2.4, CU),
            ("rx-7900-xtx", 96.0, 2.5, CU),
            ("rx-9070-xt", 64.0, 2.97, CU),
            ("ryzen-ai-max-395-128gb", 40.0, 2.9, CU),
        ] {
            let got = cycles(id).expect(id);
            let want = units * ghz * 1e9 * share;
            assert!((got / want - 1.0).abs() < 0.01, "{id}: {got:e} vs {want:e}");
        }
        // Other vendors' units issue differently: no figure rather than a guess.
        assert_eq!(cycles("apple-m4-max"), None);
        assert_eq!(cycles("arc-b580"), None);
    }
}
