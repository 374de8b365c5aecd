//! The engine against published measurements (`fixtures/calibration.json`, each with
//! its source). Every fixture is estimated with the same constants; nothing is tuned per
//! fixture. The test prints each comparison and the share within ±25%, and fails if
//! that share falls below the level last measured, so the engine cannot silently get worse.

use catalog::estimate;
use catalog::memory;
use catalog::rank::resolve_model;
use catalog::workload::{Framework, ModelChoice, Network, Precision, Runtime, Task, Workload};
use catalog::Catalog;
use serde_json::Value;

const FIXTURES: &str = include_str!("fixtures/calibration.json");
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
/// 211 of 263.)
const FLOOR: f64 = 0.80;

fn precision(token: &str) -> Precision {
    match token {
        "fp32" => Precision::Fp32,
        "fp16" => Precision::Fp16,
        "fp8" => Precision::Fp8,
        "int8" => Precision::Int8,
        t if t.starts_with("q4") || t.starts_with("nf4") || t.starts_with("iq4") => Precision::Int4,
        t if t.starts_with("q8") => Precision::Int8,
        _ => Precision::Bf16,
    }
}

fn task(token: &str) -> Task {
    Task::parse(token).unwrap_or(Task::Infer)
}

/// A training fixture without a task trains from scratch.
fn training_task(token: &str) -> Task {
    Some(task(token))
        .filter(|t| t.is_training())
        .unwrap_or(Task::Train)
}

fn speed(catalog: &Catalog, gpu: &str, w: &Workload) -> Option<estimate::Speed> {
    let gpu = catalog.gpu(gpu)?;
    let model = resolve_model(catalog, w);
    let sized = memory::size_model(&model, w);
    // As the ranking does: a Mac that holds the job only with its GPU memory limit raised.
    let placement = estimate::place(gpu, &sized, w).ok().or_else(|| {
        estimate::raised_memory(gpu)
            .and_then(|limit| estimate::place_within(gpu, &sized, w, limit).ok())
    })?;
    estimate::speed(gpu, &sized, w, &placement)
}

/// Serving measured on a group of GPUs: the speed on exactly that group (the engine alone
/// would hold the model on the fewest GPUs that fit it).
fn serving_speed(catalog: &Catalog, gpu: &str, w: &Workload) -> Option<estimate::Speed> {
    if w.gpus <= 1 {
        return speed(catalog, gpu, w);
    }
    let gpu = catalog.gpu(gpu)?;
    let model = resolve_model(catalog, w);
    let sized = memory::size_model(&model, w);
    let sharding = memory::sharding_for(&sized, w, w.gpus, w.gpus)?;
    let placement = estimate::Placement {
        gpus: w.gpus,
        sharding,
        memory: memory::breakdown(&sized, w, sharding),
        savers: estimate::Savers::default(),
    };
    estimate::speed(gpu, &sized, w, &placement)
}

fn estimate_fixture(catalog: &Catalog, f: &Value) -> Option<(f64, f64)> {
    let s = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or_default();
    let n = |k: &str| f.get(k).and_then(Value::as_f64);
    let model = ModelChoice::Preset(s("model").into());
    match s("kind") {
        "train_throughput_ratio" => {
            let w = Workload {
                task: Task::Train,
                model,
                precision: precision(s("precision")),
                batch: 8,
                ..Workload::default()
            };
            let a = speed(catalog, s("gpu_a"), &w)?.throughput.mid;
            let b = speed(catalog, s("gpu_b"), &w)?.throughput.mid;
            Some((a / b, n("ratio")?))
        }
        "decode_tokens_per_s" => {
            // A fixture with several GPUs or a batch reports the whole group's tokens/s.
            let w = Workload {
                model,
                precision: precision(s("quant")),
                seq: Some(n("context").unwrap_or(512.0) as u32),
                batch: n("batch").unwrap_or(1.0) as u32,
                gpus: n("num_gpus").unwrap_or(1.0) as u32,
                runtime: Runtime::parse(s("runtime")),
                ..Workload::default()
            };
            let t = serving_speed(catalog, s("gpu"), &w)?.throughput.mid;
            Some((t, n("tokens_per_s")?))
        }
        "prefill_tokens_per_s" => {
            let prompt = n("prompt_tokens").unwrap_or(512.0);
            let w = Workload {
                model,
                precision: precision(s("quant")),
                seq: Some(prompt as u32),
                runtime: Runtime::parse(s("runtime")),
                ..Workload::default()
            };
            let p = speed(catalog, s("gpu"), &w)?.prefill_seconds?.mid;
            Some((prompt / p, n("tokens_per_s")?))
        }
        "diffusion_seconds_per_image" => {
            // Seconds per image at `steps`; a fixture published as denoising iterations per
            // second (`denoise_only`) compares the denoising alone: the time of twice the
            // steps less the time of the steps.
            let steps = n("steps")? as u32;
            let at = |steps: u32| {
                let w = Workload {
                    model: model.clone(),
                    precision: precision(s("precision")),
                    seq: n("resolution").map(|x| x as u32),
                    steps: Some(steps),
                    ..Workload::default()
                };
                speed(catalog, s("gpu"), &w).map(|x| 1.0 / x.throughput.mid)
            };
            let seconds = if f.get("denoise_only").and_then(Value::as_bool) == Some(true) {
                at(2 * steps)? - at(steps)?
            } else {
                at(steps)?
            };
            Some((seconds, n("seconds")?))
        }
        "speech_realtime_factor" => {
            // Seconds of audio per second; the batch is the number of 30-s windows at once.
            let w = Workload {
                model,
                precision: precision(s("precision")),
                batch: n("batch").unwrap_or(1.0) as u32,
                runtime: Runtime::parse(s("runtime")),
                ..Workload::default()
            };
            Some((speed(catalog, s("gpu"), &w)?.throughput.mid, n("value")?))
        }
        "train_throughput" => {
            // Throughput of a training run: per GPU (`per_gpu`) or for the whole group, in
            // the model's own unit (training tokens, images or sequences per second).
            let gpus = n("num_gpus").unwrap_or(1.0) as u32;
            let nodes = n("nodes").unwrap_or(1.0).max(1.0) as u32;
            let w = Workload {
                task: training_task(s("task")),
                model,
                precision: precision(s("precision")),
                batch: n("batch").unwrap_or(1.0) as u32,
                seq: n("seq").map(|x| x as u32),
                gpus: gpus / nodes,
                nodes,
                network: Network::parse(s("net")).unwrap_or(Network::Ib400),
                checkpointing: f.get("ckpt").and_then(Value::as_bool),
                framework: Framework::parse(s("framework")),
                ..Workload::default()
            };
            // A run that states its layout (`tp`: the tensor-parallel degree, 1 for FSDP
            // alone; `layout`: `fsdp` or `offload`) is estimated on it, not on the plan the
            // engine would pick.
            // `layout: offload` is FSDP with CPU offload.
            let stated = match (n("tp"), s("layout")) {
                (_, "offload") => Some(memory::Sharding::Offloaded { gpus }),
                (_, "fsdp") | (Some(1.0), _) => Some(memory::Sharding::FullySharded { gpus }),
                (Some(tp), _) => Some(memory::Sharding::FsdpTensor {
                    gpus,
                    tensor: tp as u32,
                }),
                _ => None,
            };
            let est = match stated {
                Some(layout) => {
                    let gpu = catalog.gpu(s("gpu"))?;
                    let model = resolve_model(catalog, &w);
                    let sized = memory::size_model(&model, &w);
                    let p = estimate::place_training_on(gpu, &sized, &w, layout).ok()?;
                    estimate::speed(gpu, &sized, &w, &p)?
                }
                None => speed(catalog, s("gpu"), &w)?,
            };
            // A sequence model's estimate is in tokens; a fixture in samples/s divides it by
            // the tokens per sample.
            let per_sample = if s("unit") == "samples/s" && est.unit == estimate::Unit::TrainTokens
            {
                n("seq")
                    .or(resolve_model(catalog, &w).default_seq.map(f64::from))
                    .unwrap_or(1.0)
            } else {
                1.0
            };
            let t = est.throughput.mid / per_sample;
            let per = if f.get("per_gpu").and_then(Value::as_bool) == Some(true) {
                f64::from(gpus)
            } else {
                1.0
            };
            Some((t / per, n("value")?))
        }
        "memory_used_gb" => {
            let gpus = n("num_gpus").unwrap_or(1.0) as u32;
            let w = Workload {
                task: task(s("task")),
                model,
                precision: precision(s("precision")),
                batch: n("batch").unwrap_or(1.0) as u32,
                // A fixture without a sequence length ran the model's own context.
                seq: n("seq")
                    .map(|x| x as u32)
                    .or_else(|| catalog.model(s("model")).and_then(|m| m.default_seq)),
                gpus,
                checkpointing: f.get("ckpt").and_then(Value::as_bool),
                lora_rank: n("lora_rank").map_or(Workload::default().lora_rank, |r| r as u32),
                framework: Framework::parse(s("framework")),
                ..Workload::default()
            };
            let unit = if s("unit") == "GB" {
                1e9
            } else {
                1_073_741_824.0
            };
            let model = resolve_model(catalog, &w);
            let sized = memory::size_model(&model, &w);
            // A run that states its layout (`fsdp`, `ddp`: a whole copy on each GPU,
            // `offload`: FSDP with CPU offload) is measured on it.
            let sharding = match s("layout") {
                "fsdp" => memory::Sharding::FullySharded { gpus },
                "ddp" => memory::Sharding::Single,
                "offload" => memory::Sharding::Offloaded { gpus },
                _ => memory::sharding_for(&sized, &w, gpus, gpus)?,
            };
            let need = memory::breakdown(&sized, &w, sharding).total();
            Some((need / unit, n("memory_gb")?))
        }
        _ => None,
    }
}

/// The vendor of a fixture's GPU (the first GPU of a ratio), for the per-vendor shares.
fn vendor(catalog: &Catalog, f: &Value) -> String {
    f.get("gpu")
        .or(f.get("gpu_a"))
        .and_then(Value::as_str)
        .and_then(|id| catalog.gpu(id))
        .map_or("unknown".into(), |g| {
            format!("{:?}", g.vendor).to_lowercase()
        })
}

/// The site a fixture's figure was published on, for counting independent sources.
fn source(f: &Value) -> String {
    let url = f["source_url"].as_str().unwrap_or_default();
    let rest = url.split("//").nth(1).unwrap_or(url);
    let mut parts = rest.split('/');
    let host = parts.next().unwrap_or_default();
    // A GitHub figure's source is its repository.
    if host == "github.com" || host == "raw.githubusercontent.com" {
        let owner = parts.next().unwrap_or_default();
        let repo = parts.next().unwrap_or_default();
        format!("{owner}/{repo}")
    } else {
        host.to_string()
    }
}

/// The fixtures each fitted constant was set from, by the constant's own account: the
/// share within ±25% of the others (held out) is what a stranger's measurement would see.
/// A fixture matched here is in-sample; every other one was not used to set any constant.
const FITTED: &[(&str, &str, &str)] = &[
    // (constant, source URL fragment, kind or "" for any)
    (
        "CONV_TRAINING_TRAFFIC_PASSES, CONV_ISSUE_CYCLES_PER_ELEMENT, TRAINING_TRAFFIC_PASSES, GDDR_FULL_RATE_TFLOPS_PER_WATT",
        "lambdal/deeplearning-benchmark",
        "train_throughput_ratio",
    ),
    (
        "METAL_DECODE_BANDWIDTH, METAL_DECODE_OVERHEAD_PER_LAYER_S, METAL_PREFILL_COMPUTE",
        "llama.cpp/discussions/4167",
        "",
    ),
    ("LLAMACPP_MOE_PREFILL_SHARE", "benches/dgx-spark", "prefill_tokens_per_s"),
    ("LLAMACPP_MOE_PREFILL_SHARE", "amd-strix-halo-toolboxes", "prefill_tokens_per_s"),
    ("LLAMACPP_MOE_PREFILL_SHARE", "beowulf-ai-cluster", "prefill_tokens_per_s"),
    ("WHISPER_STEP_OVERHEAD_PER_LAYER_S", "faster-whisper", "speech_realtime_factor"),
    (
        "LLAMACPP_INSTINCT_PREFILL_COMPUTE",
        "ROCm/rocm-blogs",
        "prefill_tokens_per_s",
    ),
    ("QLORA_DEQUANT_BYTES_PER_PARAM", "AnswerDotAI/fsdp_qlora", "train_throughput"),
];

/// Fixtures fitted on by GPU as well as source: `LLAMACPP_HBM_DECODE_*` took XiongjieDai's
/// A100 and H100 decode rows, not the same table's GeForce or Apple rows.
const FITTED_ON_GPUS: &[(&str, &str, &str, &[&str])] = &[
    (
        "LLAMACPP_INSTINCT_PREFILL_COMPUTE",
        "llama.cpp/discussions/15021",
        "prefill_tokens_per_s",
        &["mi300x", "mi210"],
    ),
    (
        "LLAMACPP_GDDR_FULL_RATE_TFLOPS_PER_WATT",
        "XiongjieDai/GPU-Benchmarks-on-LLM-Inference",
        "prefill_tokens_per_s",
        &["rtx-6000-ada", "l40s"],
    ),
    (
        "LLAMACPP_DP4A_PREFILL_COMPUTE",
        "llama.cpp/pull/4766",
        "prefill_tokens_per_s",
        &["p40"],
    ),
    (
        "LLAMACPP_HBM_DECODE_BANDWIDTH, LLAMACPP_HBM_DECODE_OVERHEAD_PER_LAYER_S",
        "XiongjieDai/GPU-Benchmarks-on-LLM-Inference",
        "decode_tokens_per_s",
        &["a100-pcie-80gb", "a100-sxm4-80gb", "h100-pcie-80gb"],
    ),
];

/// Fixtures fitted on by training framework and model: `memory::UNSLOTH_LAYER_ACTIVATIONS`
/// took the Llama 3.1 8B column of Unsloth's table, not its Llama 3.3 70B column.
const FITTED_ON_MODELS: &[(&str, &str, &str, &str)] = &[(
    "UNSLOTH_LAYER_ACTIVATIONS",
    "unslothai/unsloth",
    "unsloth",
    "llama-3.1-8b",
)];

/// The constants a fixture was fitted on, if any.
fn fitted_on(f: &Value) -> Option<&'static str> {
    let url = f["source_url"].as_str().unwrap_or_default();
    let kind = f["kind"].as_str().unwrap_or_default();
    let gpu = f["gpu"].as_str().unwrap_or_default();
    let framework = f["framework"].as_str().unwrap_or_default();
    let model = f["model"].as_str().unwrap_or_default();
    if let Some((name, ..)) = FITTED_ON_MODELS
        .iter()
        .find(|(_, fragment, fw, m)| url.contains(fragment) && *fw == framework && *m == model)
    {
        return Some(name);
    }
    FITTED
        .iter()
        .find(|(_, fragment, k)| url.contains(fragment) && (k.is_empty() || *k == kind))
        .map(|(name, _, _)| *name)
        .or_else(|| {
            FITTED_ON_GPUS
                .iter()
                .find(|(_, fragment, k, gpus)| {
                    url.contains(fragment) && *k == kind && gpus.contains(&gpu)
                })
                .map(|(name, ..)| *name)
        })
}

/// Share of held-out fixtures (set no constant, `FITTED`) within ±25%: the figure to quote.
/// (0.81 when the split was first drawn, 145 of 177; 0.75 with the 26 measurements of the
/// known miss clusters and llama.cpp's HBM decode fit: 148 of 196; 152 of 197 with the
/// workstation prompt rows and the two fits above, 77.2%.)
const HELD_OUT_FLOOR: f64 = 0.75;

#[test]
fn every_serving_fixture_names_its_runtime() {
    let fixtures: Vec<Value> = serde_json::from_str(FIXTURES).expect("calibration.json parses");
    for f in &fixtures {
        let kind = f["kind"].as_str().unwrap_or_default();
        if matches!(kind, "decode_tokens_per_s" | "prefill_tokens_per_s") {
            let runtime = f["runtime"].as_str().unwrap_or_default();
            assert!(
                Runtime::parse(runtime).is_some(),
                "{kind} {} on {}: runtime {runtime:?}",
                f["model"],
                f["gpu"]
            );
        }
    }
}

#[test]
fn estimates_land_near_published_measurements() {
    let catalog = Catalog::embedded();
    let fixtures: Vec<Value> = serde_json::from_str(FIXTURES).expect("calibration.json parses");
    assert!(fixtures.len() >= 15);
    let mut within = 0;
    let mut compared = 0;
    // (within, fixtures) of those held out.
    let mut held_out = (0, 0);
    // Vendor → (within, fixtures).
    let mut by_vendor: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut sources = std::collections::BTreeSet::new();
    for f in &fixtures {
        sources.insert(source(f));
        let label = format!(
            "{} {} {} {}",
            f["kind"].as_str().unwrap_or_default(),
            f["model"].as_str().unwrap_or_default(),
            f.get("gpu")
                .or(f.get("gpu_a"))
                .and_then(Value::as_str)
                .unwrap_or_default(),
            f.get("gpu_b").and_then(Value::as_str).unwrap_or_default(),
        );
        let tally = by_vendor.entry(vendor(catalog, f)).or_default();
        tally.1 += 1;
        let fitted = fitted_on(f);
        held_out.1 += usize::from(fitted.is_none());
        match estimate_fixture(catalog, f) {
            Some((estimated, published)) => {
                compared += 1;
                let ratio = estimated / published;
                let ok = (0.75..=1.25).contains(&ratio);
                within += usize::from(ok);
                tally.0 += usize::from(ok);
                held_out.0 += usize::from(ok && fitted.is_none());
                println!(
                    "{} {label}: estimated {estimated:.2}, published {published:.2} ({:+.0}%){}",
                    if ok { "ok  " } else { "MISS" },
                    (ratio - 1.0) * 100.0,
                    fitted.map_or(String::new(), |c| format!(" [fitted: {c}]"))
                );
            }
            None => println!("skip {label}: no estimate (missing data or fixture fields)"),
        }
    }
    let share = within as f64 / fixtures.len() as f64;
    let vendors: Vec<String> = by_vendor
        .iter()
        .map(|(v, (w, n))| format!("{v} {w}/{n}"))
        .collect();
    println!(
        "calibration: {within} of {} fixtures within ±25% ({compared} compared, {} sources; {}), {:.1}%",
        fixtures.len(),
        sources.len(),
        vendors.join(", "),
        share * 100.0
    );
    let held_share = held_out.0 as f64 / held_out.1.max(1) as f64;
    println!(
        "held out (set no constant): {} of {} within ±25%, {:.1}%; fitted on: {} of {}",
        held_out.0,
        held_out.1,
        held_share * 100.0,
        within - held_out.0,
        fixtures.len() - held_out.1
    );
    assert!(share >= FLOOR, "calibration fell to {:.1}%", share * 100.0);
    assert!(
        held_share >= HELD_OUT_FLOOR,
        "held-out calibration fell to {:.1}%",
        held_share * 100.0
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
    let fixtures: Vec<Value> = serde_json::from_str(FIXTURES).expect("calibration.json parses");
    let find = |kind: &str, model: &str, quant: &str, source: &str, gpu: &str| {
        fixtures.iter().find(|f| {
            let s = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or_default();
            s("kind") == kind
                && s("model") == model
                && (s("quant") == quant || s("precision") == quant)
                && s("source_url").contains(source)
                && s("gpu") == gpu
        })
    };
    let mut misses = Vec::new();
    for &(kind, model, quant, source, a, b) in PICK_RATIOS {
        let (Some(fa), Some(fb)) = (
            find(kind, model, quant, source, a),
            find(kind, model, quant, source, b),
        ) else {
            panic!("{kind} {model} {quant} {source}: no fixture for {a} or {b}");
        };
        let (Some((ea, pa)), Some((eb, pb))) =
            (estimate_fixture(catalog, fa), estimate_fixture(catalog, fb))
        else {
            panic!("{kind} {model} {a}/{b}: no estimate");
        };
        let (estimated, published) = (ea / eb, pa / pb);
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
