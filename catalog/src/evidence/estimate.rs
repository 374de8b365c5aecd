//! The engine's figure for a published measurement: the row's run written as a workload
//! and estimated with the same constants as every card; nothing is set per row.

use super::*;
use crate::estimate::{self as est, Placement, Savers, Speed, Unit};
use crate::host::Host;
use crate::memory::{self, Sharding};
use crate::rank::resolve_model;
use crate::workload::{
    Framework, KvCache, ModelChoice, Network, Precision, Runtime, Task, Workload,
};
use crate::Catalog;

/// A row's published figure beside the engine's, in the row's unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    pub estimated: f64,
    pub published: f64,
}

impl Comparison {
    /// Estimate over measurement, less one: −0.05 is 5% low.
    pub fn off(&self) -> f64 {
        self.estimated / self.published - 1.0
    }

    /// Within ±25% of the measurement, the calibration's test of a good estimate.
    pub fn within(&self) -> bool {
        (0.75..=1.25).contains(&(self.estimated / self.published))
    }
}

/// The precision a row's token names: the ladder's GGUF types by name (their file sizes,
/// `quant::gguf_bits`), other 4- and 8-bit types by their width, Unsloth's dynamic
/// 3-bit files as Q3_K_M.
pub(super) fn precision(token: &str) -> Precision {
    match Precision::parse(token) {
        Some(p) => p,
        None if token.starts_with("q4") || token.starts_with("nf4") || token.starts_with("iq4") => {
            Precision::Int4
        }
        None if token.starts_with("q8") => Precision::Int8,
        None if token.contains("q3_k") => Precision::Q3KM,
        None => Precision::Bf16,
    }
}

fn task(token: &str) -> Task {
    Task::parse(token).unwrap_or(Task::Infer)
}

/// A training row without a task trains from scratch.
fn training_task(token: &str) -> Task {
    Some(task(token))
        .filter(|t| t.is_training())
        .unwrap_or(Task::Train)
}

fn speed(catalog: &Catalog, gpu: &str, w: &Workload) -> Option<Speed> {
    let gpu = catalog.gpu(gpu)?;
    let model = resolve_model(catalog, w);
    let sized = memory::size_model(&model, w);
    // As the ranking does: a Mac that holds the job only with its GPU memory limit raised.
    let placement = est::place(gpu, &sized, w).ok().or_else(|| {
        est::raised_memory(gpu).and_then(|limit| est::place_within(gpu, &sized, w, limit).ok())
    })?;
    est::speed(gpu, &sized, w, &placement)
}

/// How a row's run split the model between the GPU and system memory: `cpu_moe_layers`
/// (llama.cpp's `--n-cpu-moe`) or `gpu_layers` (`-ngl`) below the model's layer count,
/// on a host named by `host` (a `host=` token), else the default.
fn offload(catalog: &Catalog, m: &Measurement, w: &Workload) -> Option<(est::Offload, Host)> {
    let model = resolve_model(catalog, w);
    let of = model.layers?;
    let host = Host::parse(m.text("host")).unwrap_or_default();
    match (m.number("cpu_moe_layers"), m.number("gpu_layers")) {
        (Some(layers), _) => Some((
            est::Offload::Experts {
                layers: (layers as u32).min(of),
                of,
            },
            host,
        )),
        (None, Some(on_gpu)) if (on_gpu as u32) < of => Some((
            est::Offload::Layers {
                on_gpu: on_gpu as u32,
                of,
            },
            host,
        )),
        _ => None,
    }
}

/// A run with part of the model in system memory, on the split the row states.
fn offloaded_speed(
    catalog: &Catalog,
    gpu: &str,
    w: &Workload,
    (split, host): (est::Offload, Host),
) -> Option<Speed> {
    let gpu = catalog.gpu(gpu)?;
    let w = Workload { host, ..w.clone() };
    let model = resolve_model(catalog, &w);
    let sized = memory::size_model(&model, &w);
    let (memory, share) = est::split(&sized, &w, split)?;
    let placement = Placement {
        gpus: 1,
        sharding: Sharding::Single,
        memory,
        savers: Savers::default(),
        host: Some(share),
        paged_optimizer: 0.0,
    };
    est::speed(gpu, &sized, &w, &placement)
}

/// A run on cards of different kinds in one box (`with`: the others' ids, comma
/// separated), llama.cpp splitting the layers by `split` (the `-ts` weights, the row's
/// card first) or by memory when the row states none: each card's speed with the whole
/// model, added up by its share (`estimate::layer_split`).
fn mixed_speed(catalog: &Catalog, m: &Measurement, w: &Workload) -> Option<Speed> {
    // Each card's speed is its own, with the whole model on it.
    let w = &Workload {
        gpus: 1,
        ..w.clone()
    };
    let gpu = catalog.gpu(m.gpu())?;
    let others: Vec<&crate::gpu::Gpu> = m
        .text("with")
        .split(',')
        .map(|id| catalog.gpu(id.trim()))
        .collect::<Option<_>>()?;
    let shares = match m.text("split") {
        "" => est::layer_shares(gpu, &others),
        split => {
            let weights: Vec<f64> = split
                .split(',')
                .map(|x| crate::decimal::parse_number(x.trim()))
                .collect::<Option<_>>()?;
            let total: f64 = weights.iter().sum();
            (weights.len() == others.len() + 1 && total > 0.0)
                .then(|| weights.iter().map(|x| x / total).collect())?
        }
    };
    let model = resolve_model(catalog, w);
    let sized = memory::size_model(&model, w);
    let placement = Placement {
        gpus: 1,
        sharding: Sharding::Single,
        memory: memory::breakdown(&sized, w, Sharding::Single),
        savers: Savers::default(),
        host: None,
        paged_optimizer: 0.0,
    };
    let parts: Vec<(Speed, f64)> = std::iter::once(gpu)
        .chain(others)
        .zip(shares)
        .map(|(g, share)| Some((est::speed(g, &sized, w, &placement)?, share)))
        .collect::<Option<_>>()?;
    est::layer_split(&parts)
}

/// Serving measured on a group of GPUs: the speed on exactly that group (the engine alone
/// would hold the model on the fewest GPUs that fit it).
fn serving_speed(catalog: &Catalog, gpu: &str, w: &Workload) -> Option<Speed> {
    if w.gpus <= 1 {
        return speed(catalog, gpu, w);
    }
    let gpu = catalog.gpu(gpu)?;
    let model = resolve_model(catalog, w);
    let sized = memory::size_model(&model, w);
    let sharding = memory::sharding_for(&sized, w, w.gpus, w.gpus)?;
    let placement = Placement {
        gpus: w.gpus,
        sharding,
        memory: memory::breakdown(&sized, w, sharding),
        savers: Savers::default(),
        host: None,
        paged_optimizer: 0.0,
    };
    est::speed(gpu, &sized, w, &placement)
}

/// Seconds a served queue of `requests` prompts of `w.seq` tokens spends in decode steps
/// that carry no prompt chunk, each answer `output` tokens long: as many steps as
/// `estimate::decode_only_steps` leaves, each at the decode step time of the sequences
/// that run together, halfway through their answers.
fn queued_decode_seconds(
    catalog: &Catalog,
    gpu_id: &str,
    w: &Workload,
    output: f64,
    requests: f64,
) -> Option<f64> {
    let gpu = catalog.gpu(gpu_id)?;
    let prompt = f64::from(w.seq?);
    let whole = Workload {
        seq: Some((prompt + output) as u32),
        ..w.clone()
    };
    let model = resolve_model(catalog, &whole);
    let sized = memory::size_model(&model, &whole);
    let sharding = memory::sharding_for(&sized, &whole, w.gpus.max(1), w.gpus.max(1))?;
    let (budget, max_seqs) = est::vllm_batch_defaults(gpu);
    let concurrency = est::vllm_resident_sequences(gpu, &sized, &whole, sharding, budget)
        .min(f64::from(max_seqs))
        .min(requests);
    let steps = est::decode_only_steps(requests, prompt, output, concurrency, budget);
    let decoding = Workload {
        seq: Some((prompt + output / 2.0) as u32),
        batch: concurrency as u32,
        batch_given: true,
        ..w.clone()
    };
    // On the group the row ran, as many sequences as the pool was found to hold, without
    // the engine's own fit test (which keeps a margin vLLM's pool does not).
    let sized = memory::size_model(&model, &decoding);
    let placement = Placement {
        gpus: w.gpus.max(1),
        sharding,
        memory: memory::breakdown(&sized, &decoding, sharding),
        savers: Savers::default(),
        host: None,
        paged_optimizer: 0.0,
    };
    let rate = est::speed(gpu, &sized, &decoding, &placement)?
        .throughput
        .mid;
    Some(steps * concurrency / rate)
}

/// The year and month of a row's date (`2025-08`, `2025-08-19`): the build it ran, for the
/// features a runtime gained later (`Workload::built`). `None` for an undated row.
fn built(date: &str) -> Option<(u16, u8)> {
    // Read digit by digit: the standard library's integer parsing would add its own code
    // to the page's WebAssembly for two numbers.
    let digits = |s: &[u8]| {
        s.iter().try_fold(0u16, |n, c| {
            c.is_ascii_digit().then(|| n * 10 + u16::from(c - b'0'))
        })
    };
    let b = date.as_bytes();
    if b.len() < 7 || b[4] != b'-' {
        return None;
    }
    Some((digits(&b[..4])?, digits(&b[5..7])? as u8))
}

/// LocalScore's nine tests (`runtime: llamafile` rows), prompt and generated tokens: its
/// published prompt and generation rates are the means of each test's own rate
/// (llamafile's `localscore/localscore.cpp`, `get_baseline_test_configs` and
/// `getResultsSummary`).
const LOCALSCORE_TESTS: [(u32, u32); 9] = [
    (1024, 16),
    (4096, 256),
    (2048, 256),
    (2048, 768),
    (1024, 1024),
    (1280, 3072),
    (384, 1152),
    (64, 1024),
    (16, 1536),
];

/// A decode or prompt row's speed under the engine: offloaded to system memory, over cards
/// of different kinds, or on one kind of GPU.
fn row_speed(catalog: &Catalog, m: &Measurement, w: &Workload) -> Option<Speed> {
    match offload(catalog, m, w) {
        Some(split) => offloaded_speed(catalog, m.gpu(), w, split),
        None if !m.text("with").is_empty() => mixed_speed(catalog, m, w),
        None => serving_speed(catalog, m.gpu(), w),
    }
}

/// `w` at a sequence length of `seq` tokens.
fn with_seq(w: &Workload, seq: u32) -> Workload {
    Workload {
        seq: Some(seq),
        ..w.clone()
    }
}

/// The mean over LocalScore's tests of `rate` at the sequence length `seq` gives a test.
fn localscore_mean(seq: fn((u32, u32)) -> u32, rate: impl Fn(u32) -> Option<f64>) -> Option<f64> {
    let mut sum = 0.0;
    for test in LOCALSCORE_TESTS {
        sum += rate(seq(test))?;
    }
    Some(sum / LOCALSCORE_TESTS.len() as f64)
}

/// The engine's figure for a row, beside the published one; `None` when the row's GPU or
/// model is not in the catalog or the run does not fit the engine's model of it.
pub fn estimate(catalog: &Catalog, m: &Measurement) -> Option<Comparison> {
    let s = |k: &str| m.text(k);
    let n = |k: &str| m.number(k);
    let published = m.value()?;
    let model = ModelChoice::Preset(m.model().into());
    let estimated = match m.kind()? {
        Kind::TrainingRatio => {
            let w = Workload {
                task: Task::Train,
                model,
                precision: precision(s("precision")),
                batch: 8,
                batch_given: true,
                ..Workload::default()
            };
            let a = speed(catalog, m.gpu(), &w)?.throughput.mid;
            let b = speed(catalog, s("gpu_b"), &w)?.throughput.mid;
            a / b
        }
        Kind::Decode => {
            // A row with several GPUs or a batch reports the whole group's tokens/s.
            let w = Workload {
                model,
                precision: precision(s("precision")),
                seq: Some(n("context").unwrap_or(512.0) as u32),
                batch: n("batch").unwrap_or(1.0) as u32,
                batch_given: true,
                gpus: m.gpus(),
                runtime: m.runtime(),
                kv: KvCache::parse(s("kv")).unwrap_or(KvCache::F16),
                built: built(m.date()),
                cuda_backend: matches!(s("backend"), "" | "cuda"),
                ..Workload::default()
            };
            // LocalScore generates each test's tokens after its prompt: the mean step
            // reads the cache at the middle of that span.
            let rate = if s("runtime") == "llamafile" {
                localscore_mean(
                    |(prompt, generated)| prompt + generated / 2,
                    |seq| Some(row_speed(catalog, m, &with_seq(&w, seq))?.throughput.mid),
                )?
            } else {
                row_speed(catalog, m, &w)?.throughput.mid
            };
            // A row published as generated tokens over each request's whole latency
            // (`output_tokens` generated after `prompt_tokens` read, as vLLM's
            // `benchmark_latency.py` reports) also waits for the batch's prompts: at a
            // large batch of short requests the prompts are as much work as the answers.
            match (n("output_tokens"), n("prompt_tokens")) {
                (Some(out), Some(prompt)) => {
                    let prompt_w = Workload {
                        seq: Some(prompt as u32),
                        batch: 1,
                        ..w.clone()
                    };
                    let prefill = serving_speed(catalog, m.gpu(), &prompt_w)?
                        .prefill_seconds?
                        .mid;
                    let b = f64::from(w.batch);
                    b * out / (b * prefill + out * b / rate)
                }
                _ => rate,
            }
        }
        Kind::Prefill => {
            let prompt = n("prompt_tokens").unwrap_or(512.0);
            let w = Workload {
                model,
                precision: precision(s("precision")),
                seq: Some(prompt as u32),
                gpus: m.gpus(),
                runtime: m.runtime(),
                kv: KvCache::parse(s("kv")).unwrap_or(KvCache::F16),
                ubatch: n("ubatch").map(|u| u as u32),
                built: built(m.date()),
                cuda_backend: matches!(s("backend"), "" | "cuda"),
                ..Workload::default()
            };
            if s("runtime") == "llamafile" {
                let estimated = localscore_mean(
                    |(prompt, _)| prompt,
                    |seq| {
                        let speed = row_speed(catalog, m, &with_seq(&w, seq))?;
                        Some(f64::from(seq) / speed.prefill_seconds?.mid)
                    },
                )?;
                return Some(Comparison {
                    estimated,
                    published,
                });
            }
            let prefill = row_speed(catalog, m, &w)?.prefill_seconds?.mid;
            // A row published as a served queue's input tokens over the whole run
            // (`vllm bench serve`'s "Total input tokens" over "Benchmark duration":
            // `requests` prompts sent at once, each answered with `output_tokens`) also
            // waits for the answers' decode steps that no prompt chunk hides
            // (`estimate::decode_only_steps`), at as many sequences as vLLM's KV pool and
            // `max_num_seqs` hold together.
            match (n("output_tokens"), n("requests")) {
                (Some(out), Some(requests)) if w.runtime() == Runtime::Vllm => {
                    let decode = queued_decode_seconds(catalog, m.gpu(), &w, out, requests)?;
                    requests * prompt / (requests * prefill + decode)
                }
                _ => prompt / prefill,
            }
        }
        Kind::Diffusion => {
            // Seconds per image at `steps`; a row published as denoising iterations per
            // second (`denoise_only`) compares the denoising alone: the time of twice the
            // steps less the time of the steps. A run whose attention wrote its score
            // matrices out (`attention: unfused`: PyTorch before 2.0 without xformers)
            // adds their traffic to every step (`estimate::unfused_attention_seconds`).
            let steps = n("steps")? as u32;
            let unfused = s("attention") == "unfused";
            let at = |steps: u32| {
                let w = Workload {
                    model: model.clone(),
                    precision: precision(s("precision")),
                    seq: n("resolution").map(|x| x as u32),
                    steps: Some(steps),
                    ..Workload::default()
                };
                let attention = if unfused {
                    let gpu = catalog.gpu(m.gpu())?;
                    let model = resolve_model(catalog, &w);
                    f64::from(steps) * est::unfused_attention_seconds(gpu, &model, &w)?
                } else {
                    0.0
                };
                speed(catalog, m.gpu(), &w).map(|x| 1.0 / x.throughput.mid + attention)
            };
            if m.flag("denoise_only") == Some(true) {
                at(2 * steps)? - at(steps)?
            } else {
                at(steps)?
            }
        }
        Kind::Speech => {
            // Seconds of audio per second; the batch is the number of 30-s windows at once.
            let w = Workload {
                model,
                precision: precision(s("precision")),
                batch: n("batch").unwrap_or(1.0) as u32,
                batch_given: true,
                runtime: m.runtime(),
                ..Workload::default()
            };
            speed(catalog, m.gpu(), &w)?.throughput.mid
        }
        Kind::Training => training(catalog, m, model)?,
        Kind::Memory => memory_used(catalog, m, model)?,
    };
    Some(Comparison {
        estimated,
        published,
    })
}

/// Throughput of a training run: per GPU (`per_gpu`) or for the whole group, in the row's
/// unit (training tokens, images or samples per second).
fn training(catalog: &Catalog, m: &Measurement, model: ModelChoice) -> Option<f64> {
    let s = |k: &str| m.text(k);
    let n = |k: &str| m.number(k);
    let gpus = m.gpus();
    let nodes = n("nodes").unwrap_or(1.0).max(1.0) as u32;
    let w = Workload {
        task: training_task(s("task")),
        model,
        precision: precision(s("precision")),
        batch: n("batch").unwrap_or(1.0) as u32,
        batch_given: true,
        seq: n("seq").map(|x| x as u32),
        gpus: gpus / nodes,
        nodes,
        network: Network::parse(s("net")).unwrap_or(Network::Ib400),
        checkpointing: m.flag("ckpt"),
        framework: Framework::parse(s("framework")),
        ..Workload::default()
    };
    // A run that states its layout (`tp`: the tensor-parallel degree, 1 for FSDP alone;
    // `layout`: `fsdp`, or `offload` for FSDP with CPU offload) is estimated on it, not on
    // the plan the engine would pick.
    let stated = match (n("tp"), s("layout")) {
        (_, "offload") => Some(Sharding::Offloaded { gpus }),
        (_, "fsdp") | (Some(1.0), _) => Some(Sharding::FullySharded { gpus }),
        (Some(tp), _) => Some(Sharding::FsdpTensor {
            gpus,
            tensor: tp as u32,
        }),
        _ => None,
    };
    let speed = match stated {
        Some(layout) => {
            let gpu = catalog.gpu(m.gpu())?;
            let model = resolve_model(catalog, &w);
            let sized = memory::size_model(&model, &w);
            let p = est::place_training_on(gpu, &sized, &w, layout).ok()?;
            est::speed(gpu, &sized, &w, &p)?
        }
        None => speed(catalog, m.gpu(), &w)?,
    };
    // A run that states its pipeline (`pp` stages, `vp` chunks of layers per GPU,
    // `microbatches` per step) waits for it to fill and drain each step
    // (`estimate::pipeline_bubble`); the engine places no pipeline of its own, and each
    // GPU does the same work per token with or without one.
    let bubble = match n("pp") {
        Some(pp) => est::pipeline_bubble(
            pp as u32,
            n("vp").unwrap_or(1.0) as u32,
            n("microbatches").unwrap_or(1.0) as u32,
        ),
        None => 1.0,
    };
    // A sequence model's estimate is in tokens; a row in samples/s divides it by the
    // tokens per sample.
    let per_sample = if m.unit() == "samples/s" && speed.unit == Unit::TrainTokens {
        n("seq")
            .or(resolve_model(catalog, &w).default_seq.map(f64::from))
            .unwrap_or(1.0)
    } else {
        1.0
    };
    let per = if m.flag("per_gpu") == Some(true) {
        f64::from(gpus)
    } else {
        1.0
    };
    Some(speed.throughput.mid / bubble / per_sample / per)
}

/// Peak GPU memory of a run, in the row's unit (GB or GiB).
fn memory_used(catalog: &Catalog, m: &Measurement, model: ModelChoice) -> Option<f64> {
    let s = |k: &str| m.text(k);
    let n = |k: &str| m.number(k);
    let gpus = m.gpus();
    let w = Workload {
        task: task(s("task")),
        model,
        precision: precision(s("precision")),
        batch: n("batch").unwrap_or(1.0) as u32,
        batch_given: true,
        // A row without a sequence length ran the model's own context.
        seq: n("seq")
            .map(|x| x as u32)
            .or_else(|| catalog.model(m.model()).and_then(|m| m.default_seq)),
        gpus,
        checkpointing: m.flag("ckpt"),
        lora_rank: n("lora_rank").map_or(Workload::default().lora_rank, |r| r as u32),
        framework: Framework::parse(s("framework")),
        ..Workload::default()
    };
    let unit = if m.unit() == "GB" {
        1e9
    } else {
        1_073_741_824.0
    };
    let model = resolve_model(catalog, &w);
    let sized = memory::size_model(&model, &w);
    // A run that states its layout (`fsdp`, `ddp`: a whole copy on each GPU, `offload`:
    // FSDP with CPU offload) is measured on it.
    let sharding = match s("layout") {
        "fsdp" => Sharding::FullySharded { gpus },
        "ddp" => Sharding::Single,
        "offload" => Sharding::Offloaded { gpus },
        _ => memory::sharding_for(&sized, &w, gpus, gpus)?,
    };
    let m = memory::breakdown(&sized, &w, sharding);
    if w.framework() != Framework::Torchtune {
        return Some(m.total() / unit);
    }
    // torchtune reports PyTorch's allocator statistics (`training.get_memory_stats`:
    // `torch.cuda.memory_stats`, `max_memory_allocated`, `max_memory_reserved`, in
    // torchtune/training/memory.py), which leave out the CUDA context; its early README
    // table says the same of its figures (`max_memory_reserved`). Nor do they see
    // bitsandbytes' paged optimizer state: it is CUDA managed memory, allocated outside
    // PyTorch's caching allocator, whether it sits on the card or in system memory.
    let m = m.allocator_view();
    if !w.task.is_adapter() && sharding == Sharding::Single {
        return Some(m.without_optimizer().total() / unit);
    }
    Some(m.total() / unit)
}

/// The rows each fitted constant was set from, by the constant's own account: the share
/// within ±25% of the others (held out) is what a stranger's measurement would see.
/// (constant, source URL fragment, kind or "" for any)
const FITTED: &[(&str, &str, &str)] = &[
    (
        "METAL_DECODE_BANDWIDTH, METAL_DECODE_OVERHEAD_PER_LAYER_S, METAL_PREFILL_COMPUTE",
        "llama.cpp/discussions/4167",
        "",
    ),
    (
        "LLAMACPP_HBM_QUANT_PREFILL_SHARE",
        "llama.cpp/pull/6017",
        "prefill_tokens_per_s",
    ),
    (
        "WHISPER_STEP_OVERHEAD_PER_LAYER_S, WHISPER_TIMESTAMP_STEP_S",
        "SYSTRAN/faster-whisper",
        "speech_realtime_factor",
    ),
    (
        "LLAMACPP_INSTINCT_PREFILL_COMPUTE",
        "ROCm/rocm-blogs",
        "prefill_tokens_per_s",
    ),
    (
        "QLORA_DEQUANT_BYTES_PER_PARAM",
        "AnswerDotAI/fsdp_qlora",
        "train_throughput",
    ),
];

/// Rows fitted on by GPU as well as source: `LLAMACPP_HBM_DECODE_*` took XiongjieDai's A100
/// and H100 decode rows, not the same table's GeForce or Apple rows.
const FITTED_ON_GPUS: &[(&str, &str, &str, &[&str])] = &[
    // llama.cpp's CUDA scoreboard: the decode rows of the GDDR cards from Turing on (the
    // two Turing cards' builds ran without graphs, `estimate::llamacpp_cuda_graphs`, but
    // were in the fit).
    (
        "LLAMACPP_CUDA_GRAPH_DECODE_OVERHEAD_PER_LAYER_S",
        "llama.cpp/discussions/15013",
        "decode_tokens_per_s",
        &[
            "rtx-2080-ti",
            "rtx-3060",
            "rtx-3090-ti",
            "rtx-4060-ti-16gb",
            "rtx-4070-ti-super",
            "rtx-4080",
            "rtx-4080-super",
            "rtx-5070",
            "rtx-5070-ti",
            "rtx-5080",
            "rtx-5090",
            "rtx-a5000",
            "rtx-a6000",
            "rtx-6000-ada",
            "rtx-pro-6000-blackwell",
            "a40",
            "l40",
            "t4",
        ],
    ),
    // A P100's llama.cpp decode without DP4A; LocalScore's P100 runs are held out.
    (
        "LLAMACPP_NO_DP4A_DECODE_COMPUTE",
        "discussioncomment-14761475",
        "decode_tokens_per_s",
        &["p100-pcie-16gb"],
    ),
    // Google's first two MLPerf Training rounds on TPU v3; the later rounds are held out.
    (
        "XLA_CONV_ELEMENTWISE_TRAFFIC",
        "mlcommons/training_results_v0.5",
        "train_throughput",
        &["tpu-v3"],
    ),
    (
        "XLA_CONV_ELEMENTWISE_TRAFFIC",
        "mlcommons/training_results_v0.6",
        "train_throughput",
        &["tpu-v3"],
    ),
    // Lambda's ratios of the GPUs those constants were set on; its B200 runs, added to the
    // table later, are held out.
    (
        "CONV_TRAINING_TRAFFIC_PASSES, CONV_ISSUE_CYCLES_PER_ELEMENT, TRAINING_TRAFFIC_PASSES, GDDR_FULL_RATE_TFLOPS_PER_WATT",
        "lambdal/deeplearning-benchmark",
        "train_throughput_ratio",
        &[
            "a10",
            "a100-pcie-40gb",
            "a100-sxm4-80gb",
            "h100-pcie-80gb",
            "h100-sxm5-80gb",
            "h200-sxm-141gb",
            "rtx-4090",
            "rtx-6000-ada",
            "rtx-a6000",
        ],
    ),
    (
        "EAGER_STEP_FLOOR_S",
        "huggingface/diffusers/blob/bdefabd1a8",
        "diffusion_seconds_per_image",
        &["rtx-4090"],
    ),
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
        "LLAMACPP_RDNA4_PREFILL_COMPUTE",
        "llama.cpp/issues/26663",
        "prefill_tokens_per_s",
        &["rx-9070-xt"],
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
    // Fitted on the one-GPU runs; the same page's two-GPU H100 run counts with them, as
    // the rows are told apart by GPU, not by count.
    (
        "VLLM_WEIGHT_ONLY_4BIT_MOE_SLOWDOWN",
        "performance-lab/gpt-oss-120b/",
        "decode_tokens_per_s",
        &["h100-sxm5-80gb", "a100-sxm4-80gb"],
    ),
];

/// Rows fitted on by framework (empty for a row that names none) and model:
/// `memory::UNSLOTH_LAYER_ACTIVATIONS` took the Llama 3.1 8B column of Unsloth's table, not
/// its Llama 3.3 70B column; `estimate::SERVER_EAGER_STEP_FLOOR_S` took fal.ai's SD 1.5
/// rows, not its SDXL rows, which the floor does not bind.
/// (constant, source URL fragment, framework, model, kind or "" for any)
const FITTED_ON_MODELS: &[(&str, &str, &str, &str, &str)] = &[
    // The six mixture-of-experts prompt rows it was fitted on, not the same sources' dense
    // prompt rows.
    (
        "LLAMACPP_MOE_PREFILL_SHARE",
        "benches/dgx-spark",
        "",
        "gpt-oss-20b",
        "prefill_tokens_per_s",
    ),
    (
        "LLAMACPP_MOE_PREFILL_SHARE",
        "benches/dgx-spark",
        "",
        "gpt-oss-120b",
        "prefill_tokens_per_s",
    ),
    (
        "LLAMACPP_MOE_PREFILL_SHARE",
        "benches/dgx-spark",
        "",
        "qwen3-30b-a3b",
        "prefill_tokens_per_s",
    ),
    (
        "LLAMACPP_MOE_PREFILL_SHARE",
        "amd-strix-halo-toolboxes",
        "",
        "gpt-oss-20b",
        "prefill_tokens_per_s",
    ),
    (
        "LLAMACPP_MOE_PREFILL_SHARE",
        "amd-strix-halo-toolboxes",
        "",
        "gpt-oss-120b",
        "prefill_tokens_per_s",
    ),
    (
        "LLAMACPP_MOE_PREFILL_SHARE",
        "beowulf-ai-cluster",
        "",
        "deepseek-v3",
        "prefill_tokens_per_s",
    ),
    (
        "UNSLOTH_LAYER_ACTIVATIONS",
        "unslothai/unsloth",
        "unsloth",
        "llama-3.1-8b",
        "",
    ),
    (
        "SERVER_EAGER_STEP_FLOOR_S",
        "fal-ai/stable-diffusion-benchmarks",
        "",
        "sd-1.5",
        "",
    ),
    // GPUStack's prompt rows of its four mixtures of experts, not its dense Qwen3-32B rows
    // nor its decode rows of the same models.
    (
        "VLLM_MOE_PREFILL_SHARE, VLLM_MOE_SLICE_OVERHEAD",
        "gpustack/gpustack",
        "",
        "deepseek-v3",
        "prefill_tokens_per_s",
    ),
    (
        "VLLM_MOE_PREFILL_SHARE, VLLM_MOE_SLICE_OVERHEAD",
        "gpustack/gpustack",
        "",
        "qwen3-235b-a22b",
        "prefill_tokens_per_s",
    ),
    (
        "VLLM_MOE_PREFILL_SHARE, VLLM_MOE_SLICE_OVERHEAD",
        "gpustack/gpustack",
        "",
        "gpt-oss-120b",
        "prefill_tokens_per_s",
    ),
    (
        "VLLM_MOE_PREFILL_SHARE, VLLM_MOE_SLICE_OVERHEAD",
        "gpustack/gpustack",
        "",
        "gpt-oss-20b",
        "prefill_tokens_per_s",
    ),
];

/// Rows fitted on by batch size as well as source: the Whisper step costs took one RTX
/// 3090's sequential large-v2 and turbo runs (speaches issue 169), whose ratio splits the
/// per-step cost from the per-layer one, not the same table's batched runs.
/// (constant, source URL fragment, kind, batch)
const FITTED_ON_BATCH: &[(&str, &str, &str, u32)] = &[(
    "WHISPER_STEP_OVERHEAD_PER_LAYER_S, WHISPER_TIMESTAMP_STEP_S",
    "speaches-ai/speaches/issues/169",
    "speech_realtime_factor",
    1,
)];

/// Rows a constant was fitted on, by source, kind (empty: any), models and GPUs:
/// Megatron-Bridge's 25.11 pre-training runs of mixtures of experts on GB200s
/// (`MOE_LAYER_FIXED_S`, and with DeepSeek-V3's on GB300s, `MOE_EXPERT_FP8_SPEEDUP`), its
/// dense runs there held out; the batch-1 decode rows of mixtures of experts that set
/// llama.cpp's fixed time per expert layer (`LLAMACPP_MOE_DECODE_FIXED_S`), the same
/// sources' dense rows and prompt rows held out.
type RunsFittedOn = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);
const FITTED_ON_MODEL_GPUS: &[RunsFittedOn] = &[
    (
        "MOE_LAYER_FIXED_S, MOE_EXPERT_FP8_SPEEDUP",
        "NVIDIA-NeMo/Megatron-Bridge",
        "",
        &[
            "deepseek-v3",
            "gpt-oss-120b",
            "qwen3-30b-a3b",
            "qwen3-235b-a22b",
        ],
        &["gb200"],
    ),
    (
        "MOE_EXPERT_FP8_SPEEDUP",
        "NVIDIA-NeMo/Megatron-Bridge",
        "",
        &["deepseek-v3"],
        &["gb300"],
    ),
    (
        "LLAMACPP_MOE_DECODE_FIXED_S",
        "benches/dgx-spark.md",
        "decode_tokens_per_s",
        &["gpt-oss-20b", "gpt-oss-120b", "qwen3-30b-a3b"],
        &["dgx-spark"],
    ),
    (
        "LLAMACPP_MOE_DECODE_FIXED_S",
        "geerlingguy/ai-benchmarks",
        "decode_tokens_per_s",
        &["gpt-oss-20b"],
        &["rtx-4090"],
    ),
    (
        "LLAMACPP_MOE_DECODE_FIXED_S",
        "llama.cpp/discussions/15396",
        "decode_tokens_per_s",
        &["gpt-oss-20b", "gpt-oss-120b"],
        &[
            "rtx-5060-ti-16gb",
            "rtx-5070-ti",
            "rtx-5080",
            "rtx-4080-super",
            "rtx-pro-6000-blackwell",
        ],
    ),
    (
        "ROCM_MOE_KERNEL_FIXED_S",
        "SemiAnalysisAI/InferenceX/pull/3318",
        "decode_tokens_per_s",
        &["deepseek-v3"],
        &["mi325x"],
    ),
    (
        "LLAMACPP_MOE_DECODE_FIXED_S",
        "PurrBytesCode/JAIDoc",
        "decode_tokens_per_s",
        &["qwen3.5-35b-a3b"],
        &["rtx-3090"],
    ),
];

/// Rows a constant was fitted on where one source holds runs on several backends: source,
/// kind, GPU and backend. The A770's SYCL decode runs set llama.cpp's Alchemist share; the
/// same sources' Vulkan runs are held out.
const FITTED_ON_BACKEND: &[(&str, &str, &str, &str, &str)] = &[
    (
        "LLAMACPP_ALCHEMIST_DECODE_SHARE",
        "NeoZhangJianyu/ci_log",
        "decode_tokens_per_s",
        "arc-a770-16gb",
        "sycl",
    ),
    (
        "LLAMACPP_ALCHEMIST_DECODE_SHARE",
        "secext2022/pmks-2",
        "decode_tokens_per_s",
        "arc-a770-16gb",
        "sycl",
    ),
];

/// The constants a row was fitted on, if any; every other row set no constant (held out).
pub fn fitted_on(m: &Measurement) -> Option<&'static str> {
    let url = m.source_url();
    let kind = m.text("kind");
    let gpu = m.gpu();
    if let Some((name, ..)) = FITTED_ON_BACKEND.iter().find(|(_, fragment, k, g, b)| {
        url.contains(fragment) && *k == kind && *g == gpu && m.text("backend") == *b
    }) {
        return Some(name);
    }
    if let Some((name, ..)) = FITTED_ON_MODEL_GPUS
        .iter()
        .find(|(_, fragment, k, models, gpus)| {
            url.contains(fragment)
                && (k.is_empty() || *k == kind)
                && models.contains(&m.model())
                && gpus.contains(&gpu)
        })
    {
        return Some(name);
    }
    let batch = m.number("batch").unwrap_or(1.0) as u32;
    if let Some((name, ..)) = FITTED_ON_BATCH
        .iter()
        .find(|(_, fragment, k, b)| url.contains(fragment) && *k == kind && *b == batch)
    {
        return Some(name);
    }
    if let Some((name, ..)) = FITTED_ON_MODELS.iter().find(|(_, fragment, fw, model, k)| {
        url.contains(fragment)
            && *fw == m.text("framework")
            && *model == m.model()
            && (k.is_empty() || *k == kind)
    }) {
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

/// Rows within ±25% of their measurement, of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    pub within: usize,
    pub rows: usize,
}

impl Tally {
    pub fn add(&mut self, within: bool) {
        self.rows += 1;
        self.within += usize::from(within);
    }

    /// The share within, 0 for no rows.
    pub fn share(&self) -> f64 {
        self.within as f64 / self.rows.max(1) as f64
    }
}

/// The engine against every row: the figure the calibration test asserts and the accuracy
/// page prints. A row the engine cannot estimate counts as a miss.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Accuracy {
    pub all: Tally,
    /// Rows no constant was fitted on.
    pub held_out: Tally,
    /// Rows the engine estimated.
    pub compared: usize,
    /// Each row's comparison, in the rows' order.
    pub rows: Vec<Option<Comparison>>,
}

pub fn accuracy(catalog: &Catalog, rows: &[Measurement]) -> Accuracy {
    let mut out = Accuracy::default();
    for m in rows {
        let c = estimate(catalog, m);
        let within = c.is_some_and(|c| c.within());
        out.all.add(within);
        if fitted_on(m).is_none() {
            out.held_out.add(within);
        }
        out.compared += usize::from(c.is_some());
        out.rows.push(c);
    }
    out
}
