//! The engine against published measurements (`catalog/measurements.json`, each with
//! its source, estimated by `catalog::evidence` as the accuracy page does). Every row is
//! estimated with the same constants; nothing is tuned per row. The test prints each comparison and the share within ±25%, and fails if
//! that share falls below the level last measured, so the engine cannot silently get worse.

use catalog::data::MEASUREMENTS_JSON;
use catalog::evidence::{self, Measurement};
use catalog::Catalog;

fn rows() -> Vec<Measurement> {
    Measurement::parse_all(MEASUREMENTS_JSON).expect("measurements.json parses")
}

/// Share of fixtures within ±25% at the last calibration; raise it when the engine improves.
/// (0.61 → 0.60 when seven Whisper fixtures arrived with the speech model: the three
/// batch-1 faster-whisper runs land within ±25%, the int8 and batched runs do not.)
/// (0.60 → 0.61 when QLoRA's dequantisation became memory traffic instead of a flat 1.3×:
/// 118 of 191; → 0.64 when XLA's matrix efficiency on TPUs came from PaLM's: 124 of 191;
/// → 0.67 when fixtures trained in Megatron-Core with Transformer Engine stopped paying
/// eager element-wise traffic: 129 of 191; → 0.68 when GDDR workstation cards' training
/// rate was capped by their board power, with four Lambda ratios of them added: 134 of 195;
/// → 0.69 when Whisper fixtures run in Hugging Face Transformers were costed as such: 136;
/// → 0.71 when adapter fine-tunes in Megatron-Core stopped recomputing by default, as
/// Megatron does: 139; → 0.72 with the Radeon PRO W7900's compute figure, the fastest
/// placement that fits, and Macs whose GPU memory limit is raised: 141; → 0.75 when
/// Answer.AI's 15 and Unsloth's 7 published peak-memory figures of LoRA and QLoRA runs
/// were added, with adapter fine-tunes' logits, sharded adapters and 16-bit embeddings
/// under QLoRA: 163 of 217; → 0.76 when GeForce cards' 16-bit matmuls were rated at the
/// share of their peak they are measured to reach, and two Answer.AI rows read per GPU
/// were restated for the pair: 167 of 217; torchtune's rows given the settings of the configs
/// they name (70B full fine-tune offloaded, checkpointing, LoRA ranks): 168; → 0.78 when
/// the Ryzen AI Max+ 395 got its WMMA matrix rate and Lambda's rows became the median of
/// the runs the CSV holds for each configuration: 172 of 219; merged llama.cpp PRs' own
/// columns: 173; XiongjieDai's withdrawn Llama 2 rows replaced by the current Llama 3
/// rows: 168 of 213; diffusion transformers' forward traffic and DP4A INT8: 170; → 0.80
/// when decode on Apple GPUs took its bandwidth share and fixed cost per layer from
/// llama.cpp's Apple Silicon scoreboard (`stack::METAL_DECODE_BANDWIDTH`): 171 of 213;
/// the peak memory of Hugging Face's FLUX.1 LoRA and QLoRA runs: 173 of 215; → 0.81 when
/// prompt processing on Apple GPUs took its matrix share from the same scoreboard
/// (`stack::METAL_PREFILL_COMPUTE`): 176 of 215; Lambda's TensorFlow ResNet-50 pair (a
/// miss) and XiongjieDai's two-card Llama 3 70B rows: 178 of 218; llama.cpp's DGX Spark
/// rows (eight) with llama.cpp's mixture-of-experts prompt processing at its measured
/// share (`estimate::LLAMACPP_MOE_PREFILL_SHARE`): 185 of 226; → 0.83 when convolution nets
/// on NVIDIA GPUs took the SM-issue term and their own traffic passes
/// (`estimate::CONV_ISSUE_CYCLES_PER_ELEMENT`), with four more of Lambda's ResNet-50 ratios
/// (H200/H100, the FP32 column's A100/4090 and 4090/3090, A100 40 GB/A10): 191 of 230;
/// → 0.76 when 26 published measurements of the clusters the engine was known to miss
/// arrived (llama.cpp on A100, H100 PCIe, MI300X and the Tesla P40; DeepSeek-V3 under
/// vLLM at one request; Stable Diffusion 1.5 and SDXL at 20–50 steps): 194 of 256;
/// → 0.78 when llama.cpp's decode on HBM took its measured bandwidth share
/// (`estimate::LLAMACPP_HBM_DECODE_BANDWIDTH`): 201 of 256; → 0.80 when workstation cards
/// took their power cap in all compute-bound work with seven of XiongjieDai's prompt rows
/// of them (`estimate::LLAMACPP_GDDR_FULL_RATE_TFLOPS_PER_WATT`) and llama.cpp's prompt
/// processing on Instinct its measured share (`stack::LLAMACPP_INSTINCT_PREFILL_COMPUTE`):
/// 211 of 263; eager diffusion's per-step floor (`estimate::EAGER_STEP_FLOOR_S`) and
/// llama.cpp's prompt rate on Hopper (`stack::LLAMACPP_HOPPER_PREFILL_COMPUTE`): 227 of 274;
/// → 0.78 when 45 more published measurements of the clusters the issue names arrived
/// (llama.cpp on datacenter and workstation cards, 21, most within ±25%; mixture-of-experts
/// serving under vLLM and SGLang at stated concurrency, 12, all missed, DeepSeek-V3 by 3–6×;
/// diffusers at 20–50 steps, 12): 252 of 319; mixtures of experts under vLLM and SGLang
/// paying their fused kernels' fixed time (`estimate::VLLM_MOE_KERNEL_FIXED_S`) with five
/// DeepSeek-R1 serving rows of 2025–2026 software: 284 of 351; an RX 9070 XT in a
/// desktop (llama.cpp issue 26663, Vulkan and HIP), three of four within: 287 of 355; an
/// MLA model's latent cache held whole on every GPU under tensor parallelism
/// (`memory::kv_shard`): 288 of 355; llama.cpp's prompt rate on RDNA 4 from its own
/// kernels, not ROCm's PyTorch (`stack::LLAMACPP_RDNA4_PREFILL_COMPUTE`), and no attention
/// term for a hybrid's linear-attention layers: 289 of 355; diffusion on a datacenter
/// card waiting on its server's host longer per step (`diffusion::SERVER_EAGER_STEP_FLOOR_S`,
/// fitted on fal.ai's two SD 1.5 A100 rows): 291 of 355; 4-bit experts under vLLM before
/// Blackwell streamed through weight-only kernels
/// (`estimate::VLLM_WEIGHT_ONLY_4BIT_MOE_SLOWDOWN`, fitted on GPUStack's one-GPU gpt-oss
/// rows) and gpt-fast's Mixtral int8 row costed as the CUDA-graph runtime it is: 295 of 355;
/// serving rows published as generated tokens over whole requests (vLLM's
/// `benchmark_latency.py`, serving benchmarks' output throughput) paying their prompts
/// too (`output_tokens`), and six faster-whisper runs of an hour of audio on an RTX 3090
/// (speaches issue 169; large-v2 within at one and eight windows, turbo 2.4–3 times too
/// fast): 297 of 361; torchtitan's 405B row on the layout it states (TP8, PP8, full
/// recomputation) with the pipeline's fill and drain (`estimate::pipeline_bubble`): 298 of 361;
/// torchtune's figures read as PyTorch's allocator counts them, without the CUDA context
/// (`MemoryBreakdown::allocator_view`): 299 of 361; Whisper's fixed decoder time split into
/// a per-layer part, a per-step part for sequential decoding's timestamp rules
/// (`speech::WHISPER_TIMESTAMP_STEP_S`) and faster-whisper's host time per window
/// (`speech::WHISPER_HOST_PER_WINDOW_S`): the RTX 3090's batched and turbo rows and the
/// V100S's batched row within, Transformers at 24 windows on an A100 and TheWhisper's
/// RTX 5090 turbo row out: 302 of 361; llama.cpp's prompt on a mixture of experts reading
/// every expert its micro-batch picks once per micro-batch
/// (`estimate::llamacpp_expert_stream_bytes`, the rows' stated `-ub`) with
/// `LLAMACPP_MOE_PREFILL_SHARE` refitted on the same six rows: 306 of 361; → 0.82 when 27
/// of GPUStack's long-prompt runs under vLLM arrived (four mixtures of experts on one to
/// eight H200, H100 and A100, 21 rows, and dense Qwen3-32B, 6), with the routed experts of
/// a prompt under vLLM and SGLang at their fused kernels' share of the 16-bit peak
/// (`estimate::VLLM_MOE_PREFILL_SHARE`, fitted on the 21) and tensor parallelism's
/// all-reduces paid by prompt tokens too: 319 of 388; → 0.84 when that share came down for
/// experts split narrowly over tensor-parallel GPUs (`estimate::VLLM_MOE_SLICE_OVERHEAD`,
/// refitted on the same 21), and CDNA 3 parts began streaming memory at their measured share
/// (`stack::CDNA3_STREAM_BANDWIDTH`): 328 of 388; the RTX 3090 gpt-oss-120b table's other
/// four micro-batch settings, offloaded experts copied once per stated micro-batch
/// (`HostShare::prompt_copy_seconds`): 335 of 396; CTranslate2's INT8 dense layers
/// quantizing their input in a kernel of their own (`speech::CTRANSLATE2_INT8_LAYER_KERNELS`,
/// counted, not fitted), faster-whisper's V100S INT8 row within: 336 of 396; GPUStack's
/// prompt rows read as input tokens over the whole `vllm bench serve` run, the answers'
/// decode steps that no prompt chunk hides counted in (`estimate::decode_only_steps`, at
/// the sequences vLLM's KV pool holds), with `VLLM_MOE_PREFILL_SHARE` refitted on the same
/// 21 MoE rows: 333 of 396, the dense Qwen3-32B rows on one H100 from +68%, +188% and
/// +98% to +22%, +38% and +28%, its A100 rows from −18%, +6% and −21% to −31%, −30% and −35%;
/// 345 of 419, 82.3%, with the rest of Megatron-Bridge's 25.11 pre-training table, its
/// fourteen mixture-of-experts runs (DeepSeek-V3, Qwen3-235B-A22B, GPT-OSS 120B and
/// Qwen3-30B-A3B on GB300, GB200, B200 and H100), two within: the engine reduced every
/// expert's gradient on every GPU each micro-batch and ran the experts at twice the BF16
/// rate in FP8, with no fixed time per layer (DeepSeek-V3 −81% to −86%, Qwen3-30B-A3B
/// +78% to +135%); 353 of 419, 84.2%, with Megatron-Core's expert-parallel gradients, the
/// experts' FP8 at the 16-bit rate (`estimate::MOE_EXPERT_FP8_SPEEDUP`) and routing's
/// fixed time per layer (`estimate::MOE_LAYER_FIXED_S`, fitted on the five GB200 runs);
/// → 0.83 at 355 of 424, 83.7%, with five Qwen3-235B-A22B runs on 256 H100s from the
/// Megatron-Core MoE team's model zoo, held out, two within, one at +25%, and two slower
/// layouts at +54% and +85% (its GB200 and GB300 runs are published as TFLOP/s only); 356
/// of 426, 83.6%, with a Ryzen AI Max+ 395 running Llama 3.3 70B at Q8_0 (kyuz0's
/// toolboxes: decode −9%, prompt +68%); → 0.82 at 370 of 447, 82.8%, with 21 llama.cpp
/// rows of GPUs that had none (gpt-oss on the RTX 5060 Ti, 5070 Ti, 5080, 4080 Super, PRO
/// 6000 Blackwell and P100 from the gpt-oss guide's discussion; an RTX 4070 Ti's Llama 3
/// 8B; an RTX 2080 Ti's Llama 3.2 3B on Vulkan; an Arc B580's Llama 2 7B on SYCL), 15
/// within: the PRO 6000's prompt rows at +57% and +88%, its 120B decode at +29%, the B580's
/// prompt at −40% (the oneAPI share measured on PyTorch), the 2080 Ti's Vulkan prompt at
/// +52% and a single-repetition P100 run at −40% and +110%; 370 of 449, 82.4%, with
/// Lambda's B200 ResNet-50 and BERT-large ratios to the H100, both high; → 0.81 at 374 of
/// 459, 81.5%, with four vLLM runs of Qwen2.5 32B and 72B in 4-bit weights on A100s (the
/// Qwen team's speed benchmark), all within, and six llama.cpp runs on Arc A770s, none
/// within: Llama 2 7B on 2024 builds at +52% and +76% on SYCL, +135% and +264% on Vulkan,
/// and Qwen3-30B-A3B over two cards on a 2026 Vulkan build, decode +60% and prompt +333%.
/// Intel's later SYCL pull requests report 55–65 tokens/s for that Llama 2 7B on an A770
/// without naming the test, which is where the engine's 65 lies: the Alchemist decode share
/// is left unfitted; → 0.79 at 435 of 544, 80.0% (79.96), with 85 rows for GPUs that had few or
/// none (llama.cpp's CUDA scoreboard for its catalog cards, B300 serving and training, the
/// V100 SXM2 32GB's ResNet-50, MI355X and MI100 serving, TPU v5p training, an L4), all held
/// out: the scoreboard's decode rows on current builds land 12–27% under, the MI355X's
/// seven 70B serving rows 35–188% over, the MI100's two 32–62% over, the TPU v5p's
/// DeepSeek-V3 run 55% over; → 0.80 at 439 of 544, 80.7%, when llama.cpp's decode step on
/// NVIDIA's GDDR cards from Turing on was refitted on the scoreboard: 17 µs a layer
/// replayed as one CUDA graph, and 58 µs more a layer of a mixture of experts, fitted on
/// eleven such rows; 462 of 573, 80.6%, with 29 InferenceX serving points on B200, H200,
/// MI325X and MI300X; → 0.81 at 467 of 573, 81.5%, when the fused MoE kernels' fixed time
/// per layer on Instinct parts was fitted on the five MI325X points
/// (`estimate::ROCM_MOE_KERNEL_FIXED_S`); 468 of 575, 81.4%, with Lambda's two SD 1.5
/// runs without xformers on an A10 (within) and an RTX A6000 (−36%); 471 of 575, 81.9%,
/// when llama.cpp's SYCL decode on the Arc A770 was fitted on its two SYCL runs
/// (`stack::LLAMACPP_ALCHEMIST_DECODE_SHARE`); 474 of 575, 82.4%, when each llama.cpp row
/// began being estimated with the CUDA graphs its build had by its date
/// (`estimate::llamacpp_cuda_graphs`: Ampere from May 2024, Turing from August 2026); →
/// 0.83 at 478 of 575, 83.1%, when GeForce cards from Ampere on began prefilling quantized
/// weights at the speed-up llama.cpp's INT8 tensor-core MMQ kernels brought in June 2024
/// (`estimate::llamacpp_mmq_tensor_core_speedup`, from the kernels' own RTX 4090 tables);
/// → 0.81 at 495 of 610, 81.1%, with 35 rows for GPUs that had none (Gaudi 2 and 3, TPU
/// v2 to v4, RTX 3060 Ti, TITAN RTX, P100 SXM2, K80), 17 within; → 0.82 at 505 of 610,
/// 82.8%, when convolution nets on TPUs began keeping 0.2 of the element-wise traffic
/// (`stack::XLA_CONV_ELEMENTWISE_TRAFFIC`, fitted on three MLPerf TPU v3 runs) and
/// llama.cpp's decode on GPUs without DP4A began being bound by its byte-wise dot products
/// (`estimate::LLAMACPP_NO_DP4A_DECODE_COMPUTE`, fitted on one P100 row); 508 of 610,
/// 83.3%, when Transformers' gpt-oss began reading every expert in 16 bits (the two Gaudi
/// rows, not fitted); 509 of 610 when a partial `-ngl` split began reading the LM head
/// from system memory (the RTX 2080's Gemma 2 9B); 519 of 623, 83.3%, with 14 rows for the
/// H100 NVL and MI250X, 10 within, less TheWhisper's RTX 5090 row, whose source never says
/// what ran it; 521 of 623, 83.6%, when LocalScore's rows began being estimated as the mean
/// of its nine tests; 527 of 635, 83.0%, with 12 llama.cpp rows on MI300X, H100 and L40S,
/// 7 within (an October 2024 ROCm build's MI300X prompt at a tenth of the 2025 rate); 549
/// of 667, 82.3%, with 32 more SD 1.5 and SDXL rows at 25 to 50 steps, 21 within.)
const FLOOR: f64 = 0.82;

/// The vendor of a row's GPU (the first GPU of a ratio), for the per-vendor shares.
fn vendor(catalog: &Catalog, m: &Measurement) -> String {
    catalog.gpu(m.gpu()).map_or("unknown".into(), |g| {
        format!("{:?}", g.vendor).to_lowercase()
    })
}

/// Share of held-out fixtures (set no constant, `FITTED`) within ±25%: the figure to quote.
/// (0.81 when the split was first drawn, 145 of 177; 0.75 with the 26 measurements of the
/// known miss clusters and llama.cpp's HBM decode fit: 148 of 196; 152 of 197 with the
/// workstation prompt rows and the two fits above, 77.2%; 210 of 271 with the fused MoE
/// kernels' fixed time, 77.5%; 213 of 275 with the desktop RX 9070 XT rows; 214 of 275
/// with MLA's cache held whole under tensor parallelism; 213 of 273 when the RX 9070 XT's
/// two prompt rows set llama.cpp's RDNA 4 prompt share; 213 of 271, 78.6%, with the
/// server step floor; 214 of 268, 79.9%, with vLLM's weight-only 4-bit experts; 216 of
/// 274, 78.8%, with whole-request serving rows and the RTX 3090 faster-whisper runs;
/// 217 of 274, 79.2%, with the pipeline bubble of a run that states its pipeline; 218 of
/// 274, 79.6%, with torchtune's figures read without the CUDA context; 218 of 272, 80.1%,
/// with Whisper's per-step and host costs, the RTX 3090's two sequential rows fitted on;
/// 219 of 272, 80.5%, with llama.cpp's expert reads per micro-batch; 222 of 278, 79.9%,
/// with GPUStack's dense Qwen3-32B prompt rows, three of six within: on one H100 the
/// 16-bit weights leave little room for the cache of 32K-token prompts; 224 of 278, 80.6%,
/// with CDNA 3's measured streaming share; 231 of 286, 80.8%, with the RTX 3090
/// gpt-oss-120b rows at -ub 256, 2048, 4096 and 8192; → 0.80 at 229 of 286, 80.1%, with
/// GPUStack's answers' decode steps counted in its prompt rows: the dense Qwen3-32B H100
/// 32K row within, its three A100 rows out; 241 of 309, 78.0%, with
/// Megatron-Bridge's fourteen mixture-of-experts pre-training runs, two within; 243 of 302,
/// 80.5%, with the engine's expert-parallel gradients, FP8 experts and routing's fixed
/// time, its seven GB200 and GB300 rows that set those constants out of the held-out set;
/// → 0.79 at 245 of 307, 79.8%, with the model zoo's five Qwen3-235B-A22B H100 runs; 246 of
/// 308, 79.9%, with the Ryzen AI Max's Llama 3.3 70B Q8_0 decode; 250 of 313, 79.9%, once
/// the dense prompt rows of the sources `LLAMACPP_MOE_PREFILL_SHARE` was fitted on (DGX
/// Spark's Gemma 3 4B, the Ryzen AI Max's Llama 2 7B and Llama 3.3 70B, the M3 Ultra's
/// Llama 3.3 70B) stopped being counted as fitted on it; 264 of 334, 79.0%, with the 21
/// llama.cpp rows of GPUs that had none, all held out; → 0.78 at 264 of 336, 78.6%, with
/// Lambda's B200 training runs against its H100 SXM5 runs (ResNet-50 1.10×, BERT-large
/// 1.69×), added to its table after the constants fitted on its other ratios, which the
/// engine puts at 1.60× and 2.29×; → 0.77 at 268 of 346, 77.5%, with the Qwen team's four
/// 4-bit vLLM runs (within) and the six Arc A770 llama.cpp runs (none within), all held
/// out; → 0.76 at 329 of 431, 76.3%, with 85 rows for GPUs that had few or none, 61
/// within; → 0.75 at 304 of 402, 75.6%, when the scoreboard's 18 GDDR decode rows and
/// eleven mixture-of-experts decode rows were fitted on for llama.cpp's CUDA-graph decode
/// step: on the same 402 held-out rows (306 within before) the refit gains the RTX 4070
/// SUPER's Vulkan run and loses two runs on llama.cpp builds of January 2024, before its
/// CUDA graphs (RTX 3090 and 3090 Ti, Llama 2 7B, +29% and +30%), and an RTX 2080's Gemma
/// 3 12B (+26%); 327 of 431, 75.9%, with 29 InferenceX serving points, all held out, 23
/// within; → 0.76 at 327 of 426, 76.8%, when its five MI325X points set the fused MoE
/// kernels' fixed time on Instinct parts: on the same 426 rows (324 within before) two of
/// the MI300X's four gpt-oss-120b points and the MI100s' Qwen3-30B-A3B come within; 328
/// of 428, 76.6%, with Lambda's two SD 1.5 runs; → 0.77 at 329 of 426, 77.2%, when the
/// A770's two SYCL decode runs set llama.cpp's Alchemist share: on the same 426 rows the
/// two A770s' Qwen3-30B-A3B (a 2026 Vulkan build) comes within; 332 of 426, 77.9%, when
/// rows began being estimated with their build's CUDA graphs: the January 2024 RTX 3090
/// and 3090 Ti decode runs and the RTX 2080's Gemma 3 12B come within, none leaves; →
/// 0.78 at 336 of 426, 78.9%, with the MMQ kernels' INT8 tensor cores on GeForce cards
/// (not fitted): the scoreboard's RTX 3060, 3090 Ti, 4080 and 5070 prompt rows (−27% to
/// −29%) come within, none leaves; → 0.76 at 353 of 461, 76.6%, with the 35 rows for GPUs
/// that had none, all held out, 17 within; → 0.78 at 359 of 457, 78.6%, when the TPU
/// convolution traffic and the P100's decode were fitted: the four later MLPerf ResNet-50
/// runs (TPU v3 and v4) and LocalScore's two P100 SXM2 decode runs come within; 375 of
/// 470, 79.8%, with the Gaudi gpt-oss rows, the RTX 2080's Gemma 2 9B, the P40's LocalScore
/// Llama 2 7B decode and Qwen2.5 14B prompt within, the H100 NVL and MI250X rows, and
/// without TheWhisper's row; 381 of 482, 79.0%, with the datacenter llama.cpp rows; 402 of
/// 513, 78.4%, with the diffusion rows.)
const HELD_OUT_FLOOR: f64 = 0.78;

#[test]
fn every_serving_fixture_names_its_runtime() {
    for m in rows() {
        let kind = m.text("kind");
        if matches!(kind, "decode_tokens_per_s" | "prefill_tokens_per_s") {
            let runtime = m.text("runtime");
            assert!(
                m.runtime().is_some(),
                "{kind} {} on {}: runtime {runtime:?}",
                m.model(),
                m.gpu()
            );
        }
    }
}

#[test]
fn estimates_land_near_published_measurements() {
    let catalog = Catalog::embedded();
    let rows = rows();
    assert!(rows.len() >= 15);
    let accuracy = evidence::accuracy(catalog, &rows);
    // Vendor → tally.
    let mut by_vendor: std::collections::BTreeMap<String, evidence::Tally> = Default::default();
    let mut sources = std::collections::BTreeSet::new();
    for (m, c) in rows.iter().zip(&accuracy.rows) {
        sources.insert(m.source());
        let label = format!(
            "{} {} {} {}",
            m.text("kind"),
            m.model(),
            m.gpu(),
            m.text("gpu_b")
        );
        let within = c.is_some_and(|c| c.within());
        by_vendor.entry(vendor(catalog, m)).or_default().add(within);
        match c {
            Some(c) => println!(
                "{} {label}: estimated {:.2}, published {:.2} ({:+.0}%){}",
                if within { "ok  " } else { "MISS" },
                c.estimated,
                c.published,
                c.off() * 100.0,
                evidence::fitted_on(m).map_or(String::new(), |c| format!(" [fitted: {c}]"))
            ),
            None => println!("skip {label}: no estimate (missing data or fixture fields)"),
        }
    }
    let vendors: Vec<String> = by_vendor
        .iter()
        .map(|(v, t)| format!("{v} {}/{}", t.within, t.rows))
        .collect();
    let (all, held) = (accuracy.all, accuracy.held_out);
    println!(
        "calibration: {} of {} fixtures within ±25% ({} compared, {} sources; {}), {:.1}%",
        all.within,
        all.rows,
        accuracy.compared,
        sources.len(),
        vendors.join(", "),
        all.share() * 100.0
    );
    println!(
        "held out (set no constant): {} of {} within ±25%, {:.1}%; fitted on: {} of {}",
        held.within,
        held.rows,
        held.share() * 100.0,
        all.within - held.within,
        all.rows - held.rows
    );
    assert!(
        all.share() >= FLOOR,
        "calibration fell to {:.1}%",
        all.share() * 100.0
    );
    assert!(
        held.share() >= HELD_OUT_FLOOR,
        "held-out calibration fell to {:.1}%",
        held.share() * 100.0
    );
}

/// Ratios between two GPUs that picks turn on, each from one source's rows measured the
/// same way (kind, model, quantization, source, GPU A, GPU B): a Mac against a pair of
/// used 24 GB cards, AMD against Apple, a workstation card against the GeForce card on its
/// die, one GeForce generation against the last. The overall share can hold while one of
/// these flips a pick; each must land within ±25% of the published ratio.
const PICK_RATIOS: &[(&str, &str, &str, &str, &str, &str)] = &[
    (
        "decode_tokens_per_s",
        "llama-3-70b",
        "q4_k_m",
        "XiongjieDai",
        "apple-m2-ultra",
        "rtx-3090",
    ),
    (
        "decode_tokens_per_s",
        "llama-3-8b",
        "q4_k_m",
        "XiongjieDai",
        "apple-m3-max",
        "rtx-4090",
    ),
    (
        "decode_tokens_per_s",
        "llama-3-8b",
        "q4_k_m",
        "XiongjieDai",
        "rtx-4090",
        "rtx-3090",
    ),
    (
        "prefill_tokens_per_s",
        "llama-3-8b",
        "q4_k_m",
        "XiongjieDai",
        "apple-m2-ultra",
        "rtx-4090",
    ),
    (
        "prefill_tokens_per_s",
        "llama-3-8b",
        "q4_k_m",
        "XiongjieDai",
        "rtx-6000-ada",
        "rtx-4090",
    ),
    (
        "prefill_tokens_per_s",
        "llama-3-8b",
        "q4_k_m",
        "XiongjieDai",
        "rtx-a6000",
        "rtx-3090",
    ),
    (
        "decode_tokens_per_s",
        "llama-2-7b",
        "q4_0",
        "ggml-org/llama.cpp",
        "rx-7900-xtx",
        "apple-m2-ultra",
    ),
    (
        "train_throughput",
        "llama-2-70b",
        "bf16",
        "AnswerDotAI/fsdp_qlora",
        "rtx-4090",
        "rtx-3090",
    ),
    (
        "diffusion_seconds_per_image",
        "sd-1.5",
        "fp16",
        "siliconflow/onediff",
        "rtx-4090",
        "rtx-3090",
    ),
];

#[test]
fn ratios_that_decide_picks_hold() {
    let catalog = Catalog::embedded();
    let rows = rows();
    let find = |kind: &str, model: &str, quant: &str, source: &str, gpu: &str| {
        rows.iter().find(|m| {
            m.text("kind") == kind
                && m.model() == model
                && m.text("precision") == quant
                && m.source_url().contains(source)
                && m.gpu() == gpu
        })
    };
    let mut misses = Vec::new();
    for &(kind, model, quant, source, a, b) in PICK_RATIOS {
        let (Some(fa), Some(fb)) = (
            find(kind, model, quant, source, a),
            find(kind, model, quant, source, b),
        ) else {
            panic!("{kind} {model} {quant} {source}: no row for {a} or {b}");
        };
        let (Some(ca), Some(cb)) = (
            evidence::estimate(catalog, fa),
            evidence::estimate(catalog, fb),
        ) else {
            panic!("{kind} {model} {a}/{b}: no estimate");
        };
        let (estimated, published) = (ca.estimated / cb.estimated, ca.published / cb.published);
        let off = estimated / published;
        let ok = (0.75..=1.25).contains(&off);
        println!(
            "{} ratio {kind} {model} {a}/{b}: estimated {estimated:.2}, published {published:.2} ({:+.0}%)",
            if ok { "ok  " } else { "MISS" },
            (off - 1.0) * 100.0
        );
        if !ok {
            misses.push(format!("{a}/{b} {kind} {model}"));
        }
    }
    assert!(
        misses.is_empty(),
        "ratios that decide picks miss: {misses:?}"
    );
}
