//! What a person wants to run: the engine's input. Every field has a default
//! that matches what practitioners commonly run, and the URL codec prints only
//! fields that differ from these defaults.

use crate::host::Host;
use crate::model::{Family, Model};

/// Most `price` pairs a link may carry.
pub const MAX_PRICES: usize = 16;

/// Declares a closed set of URL tokens: the enum, its `ALL` list and `as_str`/`parse`.
macro_rules! token_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $token:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $token),+ }
            }
            pub fn parse(token: &str) -> Option<Self> {
                match token { $($token => Some($name::$variant),)+ _ => None }
            }
        }
    };
}
pub(crate) use token_enum;

token_enum!(Task {
    Infer = "infer",
    Train = "train",
    Finetune = "finetune",
    Lora = "lora",
    Qlora = "qlora",
});

impl Task {
    pub fn is_training(self) -> bool {
        !matches!(self, Task::Infer)
    }
    /// Adapters on a frozen base: no optimizer state for the base weights.
    pub fn is_adapter(self) -> bool {
        matches!(self, Task::Lora | Task::Qlora)
    }
}

token_enum!(Precision {
    Fp32 = "fp32",
    Tf32 = "tf32",
    Bf16 = "bf16",
    Fp16 = "fp16",
    Fp8 = "fp8",
    Int8 = "int8",
    Int4 = "int4",
    Q8_0 = "q8_0",
    Q6K = "q6_k",
    Q5KM = "q5_k_m",
    Q4KM = "q4_k_m",
    Q3KM = "q3_k_m",
    Iq2Xs = "iq2_xs",
    Mxfp4 = "mxfp4",
});

impl Precision {
    /// Bits per stored weight. INT4 counts its block overhead: GGUF Q4_0 and
    /// similar schemes keep one FP16 scale per 32 weights, 18 bytes per block = 4.5 bits.
    pub fn weight_bits(self) -> f64 {
        match self {
            Precision::Fp32 | Precision::Tf32 => 32.0,
            Precision::Bf16 | Precision::Fp16 => 16.0,
            Precision::Fp8 | Precision::Int8 => 8.0,
            Precision::Int4 => 4.5,
            Precision::Q8_0
            | Precision::Q6K
            | Precision::Q5KM
            | Precision::Q4KM
            | Precision::Q3KM
            | Precision::Iq2Xs => gguf_bits(self),
            // OCP microscaling FP4: 32 four-bit values share one 8-bit scale.
            Precision::Mxfp4 => 4.0 + 8.0 / 32.0,
        }
    }

    /// A llama.cpp GGUF file type (`quant::LLAMACPP_LADDER` below 16 bits).
    pub fn is_gguf(self) -> bool {
        matches!(
            self,
            Precision::Q8_0
                | Precision::Q6K
                | Precision::Q5KM
                | Precision::Q4KM
                | Precision::Q3KM
                | Precision::Iq2Xs
                | Precision::Mxfp4
        )
    }

    /// The same format for a measurement's purpose: FP16 and BF16 (mixed precision either
    /// way), and a 4- or 8-bit format and its GGUF type of the same width.
    pub fn same_as(self, other: Precision) -> bool {
        let class = |p: Precision| match p {
            Precision::Bf16 | Precision::Fp16 => Precision::Bf16,
            Precision::Q4KM => Precision::Int4,
            Precision::Q8_0 => Precision::Int8,
            p => p,
        };
        class(self) == class(other)
    }

    /// Bytes per element of activations and KV cache. Quantised weights (FP8, INT8, INT4)
    /// still run with 16-bit activations, and serving engines keep the KV cache in the
    /// activation type unless told otherwise (vLLM's `kv_cache_dtype="auto"`).
    pub fn activation_bytes(self) -> f64 {
        match self {
            Precision::Fp32 | Precision::Tf32 => 4.0,
            _ => 2.0,
        }
    }

    /// Training keeps a high-precision master copy; these are the precisions one can train in.
    pub fn is_trainable(self) -> bool {
        !matches!(self, Precision::Int8 | Precision::Int4) && !self.is_gguf()
    }
}

/// Bits per weight of a GGUF type over a whole model file, token embedding and output
/// layer included: llama.cpp's quantize tool lists each type's file size for Llama 3 8B
/// (8.03 B parameters; `tools/quantize/quantize.cpp`, `QUANT_OPTIONS`, GiB): Q8_0 7.96,
/// Q6_K 6.14, Q5_K_M 5.33, Q4_K_M 4.58, Q3_K_M 3.74. Its list gives IQ2_XS only as
/// "2.31 bpw" for the type itself; the same model's IQ2_XS file is 2.42 GiB in
/// ik_llama.cpp's benchmark table (PR 85, github.com/ikawrakow/ik_llama.cpp/pull/85).
/// The K-quant mixes keep some tensors at a higher type, so a file stores more than the
/// type's block size alone (Q4_K's blocks are 4.5 bits).
fn gguf_bits(precision: Precision) -> f64 {
    let gib = match precision {
        Precision::Q8_0 => 7.96,
        Precision::Q6K => 6.14,
        Precision::Q5KM => 5.33,
        Precision::Q4KM => 4.58,
        Precision::Q3KM => 3.74,
        Precision::Iq2Xs => 2.42,
        _ => return 16.0,
    };
    gib * 1_073_741_824.0 * 8.0 / LLAMA3_8B_PARAMS
}

/// Parameters of Llama 3 8B, the model llama.cpp's size and perplexity table is for.
const LLAMA3_8B_PARAMS: f64 = 8.03e9;

token_enum!(
    /// The KV cache's element type when serving a language model: the activations' (16
    /// bits), or llama.cpp's quantized caches (`--cache-type-k/-v q8_0`, `q4_0`), which
    /// vLLM's `--kv-cache-dtype fp8` matches at 8 bits.
    KvCache {
        F16 = "f16",
        Q8 = "q8",
        Q4 = "q4",
    }
);

impl KvCache {
    /// Bytes per cached element: the activation type's for `f16`; ggml's Q8_0 blocks are
    /// 34 bytes per 32 values and Q4_0's 18 (`ggml-common.h`: one FP16 scale per block).
    pub fn bytes(self, precision: Precision) -> f64 {
        match self {
            KvCache::F16 => precision.activation_bytes(),
            KvCache::Q8 => 34.0 / 32.0,
            KvCache::Q4 => 18.0 / 32.0,
        }
    }
}

token_enum!(Mode {
    Buy = "buy",
    Rent = "rent",
});

token_enum!(
    /// The software stack the person's code requires.
    EcoRequirement {
        Any = "any",
        Cuda = "cuda",
        Rocm = "rocm",
        Xla = "xla",
    }
);

token_enum!(Priority {
    Speed = "speed",
    Cost = "cost",
    Balance = "balance",
});

token_enum!(Optimizer {
    Adamw = "adamw",
    Adam8bit = "adam8bit",
    Sgd = "sgd",
});

impl Optimizer {
    /// Bytes per trained parameter for weights, gradients and optimizer state
    /// (Rajbhandari et al. 2020, ZeRO §3: mixed-precision Adam = 2 + 2 + 12 = 16).
    /// 8-bit Adam (Dettmers et al. 2022) keeps both moments in 1 byte each: 2 + 2 + 4 + 2 = 10.
    /// SGD with momentum: 2 + 2 + 4 (master) + 4 (momentum) = 12.
    /// Pure FP32 gives the same totals (4 + 4 + 8, 4 + 4 + 2, 4 + 4 + 4).
    pub fn bytes_per_param(self) -> f64 {
        match self {
            Optimizer::Adamw => 16.0,
            Optimizer::Adam8bit => 10.0,
            Optimizer::Sgd => 12.0,
        }
    }
}

token_enum!(
    /// The network between nodes when a job spans several machines.
    Network {
        Eth25 = "eth25",
        Eth100 = "eth100",
        Ib200 = "ib200",
        Ib400 = "ib400",
    }
);

impl Network {
    /// One-direction bandwidth of one GPU's NIC in GB/s (line rate / 8): an 8-GPU HGX or
    /// DGX node has one NIC per GPU (NVIDIA's DGX H100 reference architecture: eight
    /// 400 Gb/s ConnectX-7 ports for compute traffic).
    pub fn bandwidth_gbs(self) -> f64 {
        match self {
            Network::Eth25 => 25.0 / 8.0,
            Network::Eth100 => 100.0 / 8.0,
            Network::Ib200 => 200.0 / 8.0,
            Network::Ib400 => 400.0 / 8.0,
        }
    }
}

token_enum!(
    /// The inference runtime that serves the model.
    Runtime {
        LlamaCpp = "llamacpp",
        Vllm = "vllm",
        Transformers = "transformers",
    }
);

token_enum!(
    /// The framework a transformer trains in: PyTorch as most people run it (FSDP or
    /// DDP: torchtitan, Hugging Face PEFT, torchtune), Megatron-Core with Transformer
    /// Engine (NeMo, Megatron-LM, AMD's Primus), or Unsloth, whose gradient checkpointing
    /// keeps the checkpointed layer inputs in host memory and whose loss never
    /// materializes the logits (`memory::UNSLOTH_LAYER_ACTIVATIONS`), or torchtune as its
    /// shipped recipes run: checkpointing on, the loss upcast one chunk of the logits at a
    /// time (`memory::TORCHTUNE_LOGIT_BYTES`), and a full fine-tune on one GPU in pure
    /// BF16 with a paged 8-bit AdamW stepped inside the backward pass
    /// (`memory::torchtune_full_state`).
    Framework {
        Pytorch = "pytorch",
        Megatron = "megatron",
        Unsloth = "unsloth",
        Torchtune = "torchtune",
    }
);

impl Runtime {
    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::LlamaCpp => "llama.cpp",
            Runtime::Vllm => "vLLM",
            Runtime::Transformers => "Transformers",
        }
    }

    /// Whether a model spread over several GPUs has every GPU work on every token (tensor
    /// parallel, as vLLM does) rather than each GPU run its share of the layers in turn
    /// (llama.cpp's default `--split-mode layer`, Hugging Face's `device_map="auto"`).
    pub fn tensor_parallel(self) -> bool {
        self == Runtime::Vllm
    }
}

/// Serving this many users at once runs on vLLM unless the link names a runtime: llama.cpp
/// is what people run locally for one user, vLLM what teams serve with. The batch is one
/// of the deployment's signs (`deploy::serving_runtime` reads the others per GPU).
pub const VLLM_FROM_BATCH: u32 = 8;

/// The model to run: a preset from `models.json` or a custom size.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelChoice {
    Preset(String),
    /// Parameters in billions; the architecture follows `Model::custom`.
    Custom(f64),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    pub task: Task,
    pub model: ModelChoice,
    /// The weight precision asked for; with `auto_precision`, the top of the ladder.
    pub precision: Precision,
    /// `prec=auto`, the default: a language model run locally with llama.cpp runs on each
    /// GPU in the highest GGUF type that fits it (`quant`). Served deployments and other
    /// work run at `precision`.
    pub auto_precision: bool,
    /// The KV cache's element type (serving a language model).
    pub kv: KvCache,
    /// Per-GPU micro-batch (sequences or images), when `batch_given`.
    pub batch: u32,
    /// Whether `batch` was chosen (a link's `batch`, a typed value, a preset). A link
    /// without one asks for the usual batch of its task and model (`default_batch`),
    /// which the ranking sets (`batch_for`).
    pub batch_given: bool,
    /// Sequence length in tokens (text) or input side in pixels (images); `None` = the model's default.
    pub seq: Option<u32>,
    /// Training samples (sequences or images) per epoch; `None`: the default for the task
    /// (`samples_for`).
    pub samples: Option<u64>,
    pub epochs: f64,
    /// GPUs allowed per node.
    pub gpus: u32,
    pub nodes: u32,
    pub network: Network,
    pub budget_usd: Option<f64>,
    pub mode: Mode,
    pub eco: EcoRequirement,
    pub priority: Priority,
    pub optimizer: Optimizer,
    /// LoRA rank on every linear layer (PEFT's `target_modules="all-linear"`).
    pub lora_rank: u32,
    /// Gradient checkpointing; `None` = on for LoRA/QLoRA (as PEFT's k-bit preparation does), off otherwise.
    pub checkpointing: Option<bool>,
    pub electricity_usd_per_kwh: f64,
    /// The person's own purchase prices per GPU id, which win over the catalog's.
    pub your_prices: Vec<(String, f64)>,
    /// Inference runtime; `None` = by batch (`VLLM_FROM_BATCH`).
    pub runtime: Option<Runtime>,
    /// Training framework; `None` = PyTorch.
    pub framework: Option<Framework>,
    /// Diffusion: denoising steps per image; `None` = `DIFFUSION_STEPS`.
    pub steps: Option<u32>,
    /// Diffusion: the text encoders and VAE wait in CPU memory and each part of the
    /// pipeline moves to the GPU when it runs (diffusers' `enable_model_cpu_offload`).
    /// Not in the link: the placement turns it on when the pipeline does not fit whole.
    pub pipeline_offload: bool,
    /// The machine's system memory, for weights offloaded to it (`host=`).
    pub host: Host,
    /// GPUs the person already owns and keeps in the box (`have=`, catalog ids): a
    /// language model run locally is split over them and each card ranked
    /// (`estimate::mixed`).
    pub have: Vec<String>,
    /// Memory bandwidth measured on the person's own machine (`measured=`, the your-GPU
    /// view's WebGPU run): that card's bandwidth-bound estimates follow it
    /// (`estimate::measured_bandwidth_factor`).
    pub measured: Option<Measured>,
    /// llama.cpp's prompt micro-batch in tokens (`-ub`); `None`: its default
    /// (`estimate::LLAMACPP_UBATCH`). Not in the link: a measurement states it.
    pub ubatch: Option<u32>,
    /// The year and month of the software build a measurement ran, from its date; `None`:
    /// today's, which every answer models. Features that landed in a runtime later
    /// (`estimate::llamacpp_cuda_graphs`) are left out of an older build's estimate. Not in
    /// the link: a measurement states it.
    pub built: Option<(u16, u8)>,
    /// Whether llama.cpp ran its CUDA backend on an NVIDIA card: `true` for every answer;
    /// a measurement of its Vulkan backend sets it false, so the CUDA backend's own prompt
    /// kernels (`estimate::llamacpp_mmq_tensor_core_speedup`) stay out of it. (Vulkan
    /// records a step's kernels in command buffers, so its decode keeps the graphed fixed
    /// cost.) Not in the link.
    pub cuda_backend: bool,
}

/// A memory bandwidth measured on the person's machine, and the catalog card it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub gpu: String,
    pub gbs: f64,
}

/// One input a practitioner changes when few GPUs run a workload as entered (the
/// answer's alternatives, `rank::Alternative`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// GPUs per node.
    Gpus(u32),
    /// Weight precision.
    Precision(Precision),
    /// The kind of fine-tune (full, LoRA, QLoRA).
    Task(Task),
    /// GB of system memory (`host`), for a model run with part of it there.
    Host(u32),
}

impl Change {
    pub fn apply(self, workload: &mut Workload) {
        match self {
            Change::Gpus(n) => workload.gpus = n,
            Change::Precision(p) => {
                workload.precision = p;
                workload.auto_precision = false;
            }
            Change::Task(t) => workload.task = t,
            Change::Host(gb) => workload.host.ram_gb = gb,
        }
    }
}

pub const DEFAULT_MODEL: &str = "llama-3.1-8b";

/// The most owned GPUs a link may name (`have=`): with the card added, a four-card box.
pub const MAX_HAVE: usize = 3;

/// The per-GPU batch of a run whose link sets none: the default of the script people
/// start it from. Image classifiers (convolutional or transformer) train at 32 images per
/// GPU, the `--batch-size` default of torchvision's classification reference
/// (references/classification/train.py, "images per gpu, the total batch size is $NGPU x
/// batch_size"); encoders, encoder-decoders and video transformers are trained with
/// Hugging Face's `Trainer`, whose `per_device_train_batch_size` defaults to 8. A language
/// model's fine-tune (home cards hold one sequence at a time), diffusion, speech, 3D
/// segmentation and all serving: 1.
pub fn default_batch(task: Task, family: Family) -> u32 {
    if !task.is_training() {
        return 1;
    }
    match family {
        Family::VisionCnn | Family::VisionTransformer => 32,
        Family::Encoder | Family::EncoderDecoder | Family::Video => 8,
        Family::Llm | Family::Diffusion | Family::Speech | Family::Medical3d => 1,
    }
}

/// The `prec` token that asks for the quantization ladder (`Workload::auto_precision`).
pub const AUTO_PRECISION: &str = "auto";

impl Default for Workload {
    fn default() -> Self {
        Workload {
            task: Task::Infer,
            model: ModelChoice::Preset(DEFAULT_MODEL.into()),
            precision: Precision::Bf16,
            auto_precision: true,
            kv: KvCache::F16,
            batch: 1,
            batch_given: false,
            seq: None,
            samples: None,
            epochs: 1.0,
            gpus: 1,
            nodes: 1,
            network: Network::Ib200,
            budget_usd: None,
            mode: Mode::Buy,
            eco: EcoRequirement::Any,
            priority: Priority::Balance,
            optimizer: Optimizer::Adamw,
            lora_rank: 16,
            checkpointing: None,
            electricity_usd_per_kwh: 0.15,
            your_prices: Vec::new(),
            runtime: None,
            framework: None,
            steps: None,
            pipeline_offload: false,
            host: Host::default(),
            have: Vec::new(),
            measured: None,
            ubatch: None,
            built: None,
            cuda_backend: true,
        }
    }
}

/// Denoising steps per image when the link names none: what SDXL and FLUX users commonly
/// run (diffusers' SDXL examples use 30–50, its SDXL pipeline defaults to 50; 20–30 with
/// DPM++ schedulers in ComfyUI and Automatic1111 workflows).
pub const DIFFUSION_STEPS: u32 = 30;

/// Sequence length of a language-model fine-tune when the link names none. Fine-tuning
/// recipes run 2k–4k tokens rather than the model's full context: Unsloth's notebooks and
/// TRL's `SFTConfig` default `max_seq_length` to 2048/1024, and instruction sets such as
/// Alpaca (52k examples) average a few hundred tokens per example.
pub const FINETUNE_SEQ: u32 = 2048;
/// Examples in a language-model fine-tune when the link names none: instruction sets
/// used for LoRA/QLoRA run 10k–50k examples (Alpaca 52k, Dolly 15k, OpenAssistant
/// oasst1 about 10k conversation trees used by the QLoRA paper's Guanaco).
pub const FINETUNE_SAMPLES: u64 = 20_000;
/// Images in a LoRA (or QLoRA) of a diffusion model when the link names none: diffusers'
/// SDXL DreamBooth LoRA example (examples/dreambooth/README_sdxl.md) runs 500 steps of
/// batch 1 with 4 accumulation steps, 2,000 images; kohya-ss and OneTrainer LoRAs are
/// of the same order (a few dozen images, repeated).
pub const DIFFUSION_ADAPTER_SAMPLES: u64 = 2_000;
/// Samples per epoch for other training when the link names none.
pub const DEFAULT_SAMPLES: u64 = 100_000;

impl Workload {
    /// A fine-tune (LoRA, QLoRA or full) of a decoder language model.
    fn is_lm_finetune(&self, model: &Model) -> bool {
        matches!(self.task, Task::Lora | Task::Qlora | Task::Finetune) && model.family.is_decoder()
    }

    /// The sequence length the estimate uses: the link's, else a fine-tuning length for
    /// language-model fine-tunes (never above the model's context), else `None` (the model's own).
    pub fn seq_for(&self, model: &Model) -> Option<u32> {
        self.seq.or_else(|| {
            self.is_lm_finetune(model).then(|| {
                model
                    .default_seq
                    .map_or(FINETUNE_SEQ, |s| s.min(FINETUNE_SEQ))
            })
        })
    }

    /// The tokens a sequence model's memory is sized for: `seq_for`, else the model's
    /// working default, else 2,048.
    pub fn context_for(&self, model: &Model) -> u32 {
        self.seq_for(model).or(model.default_seq).unwrap_or(2048)
    }

    /// Samples per epoch: the link's, else the default for the task.
    pub fn samples_for(&self, model: &Model) -> u64 {
        self.samples.unwrap_or(if self.is_lm_finetune(model) {
            FINETUNE_SAMPLES
        } else if self.task.is_adapter() && model.family == Family::Diffusion {
            DIFFUSION_ADAPTER_SAMPLES
        } else {
            DEFAULT_SAMPLES
        })
    }

    /// Activation checkpointing: the link's, else the framework's default for the task.
    /// Adapter fine-tunes in PyTorch recipes recompute by default (Hugging Face PEFT's and
    /// Unsloth's QLoRA notebooks turn gradient checkpointing on, torchtune's LoRA configs set
    /// `enable_activation_checkpointing: True`); Megatron-Core recomputes nothing unless told
    /// (`TransformerConfig.recompute_granularity` defaults to `None`), NeMo's LoRA included.
    /// torchtune's full fine-tunes recompute too (`8B_full_single_device.yaml`, `70B_full.yaml`).
    pub fn checkpointing(&self) -> bool {
        self.checkpointing.unwrap_or(match self.framework() {
            Framework::Torchtune => true,
            Framework::Megatron => false,
            _ => self.task.is_adapter(),
        })
    }

    /// The person's own price for a GPU, if they gave one.
    pub fn your_price(&self, id: &str) -> Option<f64> {
        self.your_prices
            .iter()
            .find(|(gpu, _)| gpu == id)
            .map(|(_, usd)| *usd)
    }

    /// Sets (or, with `None`, removes) the person's own price for a GPU.
    pub fn set_your_price(&mut self, id: &str, usd: Option<f64>) {
        match (self.your_prices.iter().position(|(g, _)| g == id), usd) {
            (Some(i), Some(v)) => self.your_prices[i].1 = v,
            (Some(i), None) => {
                self.your_prices.remove(i);
            }
            (None, Some(v)) if self.your_prices.len() < MAX_PRICES => {
                self.your_prices.push((id.to_string(), v))
            }
            (None, _) => {}
        }
    }

    /// The training framework: the link's, else PyTorch.
    pub fn framework(&self) -> Framework {
        self.framework.unwrap_or(Framework::Pytorch)
    }

    /// The inference runtime: the link's (the ranking sets it per GPU from the deployment,
    /// `deploy::serving_runtime`), else llama.cpp below `VLLM_FROM_BATCH`, vLLM from it.
    pub fn runtime(&self) -> Runtime {
        self.runtime.unwrap_or(if self.batch < VLLM_FROM_BATCH {
            Runtime::LlamaCpp
        } else {
            Runtime::Vllm
        })
    }

    /// The per-GPU batch the run uses: the one chosen, else `default_batch`.
    pub fn batch_for(&self, family: Family) -> u32 {
        if self.batch_given {
            self.batch
        } else {
            default_batch(self.task, family)
        }
    }

    /// The `prec` token: `auto` for the ladder, else the precision's.
    pub fn precision_token(&self) -> &'static str {
        if self.auto_precision {
            AUTO_PRECISION
        } else {
            self.precision.as_str()
        }
    }

    /// Reads a `prec` token (`auto` or a precision); `false` when it is neither.
    pub fn set_precision_token(&mut self, token: &str) -> bool {
        if token == AUTO_PRECISION {
            self.auto_precision = true;
            self.precision = Precision::Bf16;
        } else if let Some(p) = Precision::parse(token) {
            self.auto_precision = false;
            self.precision = p;
        } else {
            return false;
        }
        true
    }

    /// Denoising steps per image (diffusion).
    pub fn steps(&self) -> u32 {
        self.steps.unwrap_or(DIFFUSION_STEPS)
    }

    /// GPUs the job may use in all.
    pub fn max_gpus(&self) -> u32 {
        self.gpus.max(1) * self.nodes.max(1)
    }
}
