//! Memory a workload needs on each GPU, as a breakdown.
//!
//! Formulas, each with its source:
//! - Weights: parameters × bits per weight (`Precision::weight_bits`); QLoRA's
//!   NF4 base with double quantisation costs 4.127 bits (Dettmers et al. 2023, §3).
//! - Weights + gradients + optimizer when training: `Optimizer::bytes_per_param`
//!   (ZeRO, Rajbhandari et al. 2020).
//! - Transformer activations per layer: s·b·h·(34 + 5·a·s/h) bytes at 16 bits
//!   (Korthikanti et al. 2022, eq. 1). Memory-efficient attention (FlashAttention,
//!   PyTorch SDPA) stores no s×s matrices, which removes the 5·a·s/h term. With full
//!   recomputation only each layer's input (2·s·b·h) is kept, plus one layer's
//!   activations while it is recomputed.
//! - KV cache: 2 × layers × kv_heads × head_dim × seq × batch × bytes; multi-head latent
//!   attention caches one latent per token and layer, local-attention layers their window.
//! - Framework: CUDA context and allocator slack (see `CONTEXT_BYTES`, `ALLOCATOR_SLACK`).

use crate::model::{Family, Model};
use crate::workload::{Framework, Optimizer, Precision, Task, Workload};

/// Bits per weight of QLoRA's NF4 with double quantisation (Dettmers et al. 2023).
pub const NF4_BITS: f64 = 4.127;
/// CUDA context, cuBLAS/cuDNN workspaces: PyTorch reports 300–800 MB before any tensor.
pub const CONTEXT_BYTES: f64 = 0.6e9;
/// Bytes per logit alive when an adapter fine-tune in PyTorch takes its loss: the 16-bit
/// output of the LM head (2), its FP32 upcast (4; Hugging Face causal-LM heads upcast
/// before the cross-entropy), the log-softmax output the cross-entropy keeps for its
/// backward pass (4) and the FP32 gradient that backward pass writes (4). With a 32K
/// vocabulary that is 0.92 GB per 2,048-token sample, and Answer.AI's FSDP runs of Llama 2
/// 7B (github.com/AnswerDotAI/fsdp_qlora, benchmarks_03_2024.md: QLoRA at context 2048,
/// 11.22 GiB peak at batch 4 and 20.97 at batch 10) grow 1.63 GiB per sample, of which the
/// checkpointed layer inputs and one recomputed layer are 0.83.
pub const ADAPTER_LOGIT_BYTES: f64 = 14.0;
/// Bytes per logit in full training: the FP32 logits alone. Pretraining frameworks fuse
/// the loss (Megatron-Core's vocab-parallel cross-entropy, XLA in MaxText), which keeps
/// none of the copies above; MaxText trains Llama 3.1 70B at 5 × 8,192 tokens per 32 GB
/// TPU v6e chip, where those copies alone would take 74 GB.
pub const FULL_TRAINING_LOGIT_BYTES: f64 = 4.0;

/// Training with Unsloth, activation memory per GPU in units of one layer's full
/// activations (Korthikanti et al.'s 34 bytes per token and hidden unit at 16 bits): its
/// gradient checkpointing moves each checkpointed layer input to host memory and its loss
/// (Apple's Cut Cross-Entropy) never materializes the logits, so what grows with the
/// context on the GPU is the layer being recomputed. Fitted on the Llama 3.1 8B column of
/// Unsloth's context-length table (README, "Context length benchmarks": QLoRA rank 32,
/// batch 1, 2,972 tokens in 8 GB to 342,733 in 80 GB, 227 KB a token, 1.63 layers);
/// held out, its Llama 3.3 70B column (12,106 tokens in 48 GB and 89,389 in 80 GB, 445 KB
/// a token, 1.60 layers).
pub const UNSLOTH_LAYER_ACTIVATIONS: f64 = 1.63;

/// Bytes per logit under torchtune's `CEWithChunkedOutputLoss`, the loss of its Llama 3.1
/// recipes: the LM head writes the logits in eight chunks, all kept in BF16 for the
/// backward pass (2), and the loss upcasts one chunk at a time to FP32, keeping that
/// chunk's copy, log-softmax and gradient ((4 + 4 + 4) / 8). Counted from the loss's
/// design (torchtune/modules/loss/ce_chunked_output_loss.py, "upcasting only one chunk at
/// a time"), not fitted.
pub const TORCHTUNE_LOGIT_BYTES: f64 = 2.0 + 12.0 / 8.0;

fn logit_bytes(workload: &Workload) -> f64 {
    match workload.framework() {
        Framework::Torchtune => TORCHTUNE_LOGIT_BYTES,
        Framework::Pytorch if workload.task.is_adapter() => ADAPTER_LOGIT_BYTES,
        _ => FULL_TRAINING_LOGIT_BYTES,
    }
}

/// A full fine-tune's weights, gradients and optimizer state in torchtune, in bytes per
/// GPU before sharding, as its recipes set them (`dtype: bf16`: BF16 parameters with no
/// FP32 master copy). On one GPU (`8B_full_single_device.yaml`) the optimizer is
/// bitsandbytes' `PagedAdamW8bit` (two 8-bit moments, 2 bytes a parameter) stepped inside
/// the backward pass (`optimizer_in_bwd: True`), which frees each gradient as soon as its
/// parameter is updated, so the gradients held are the largest parameter's (the token
/// embedding or the LM head). On several GPUs (`full_finetune_distributed`, `70B_full.yaml`)
/// it is FSDP with PyTorch's AdamW, whose moments take the parameters' BF16 (4 bytes).
/// `opt=adam8bit` keeps the 8-bit moments there; SGD's momentum is one BF16 value.
pub fn torchtune_full_state(sized: &Sized, workload: &Workload, single: bool) -> (f64, f64, f64) {
    let params = sized.model.params();
    let weights = params * 2.0;
    let largest = sized
        .transformer
        .map_or(params, |t| (t.vocab * t.hidden).min(params));
    let moments = if workload.optimizer == Optimizer::Adamw && !single {
        4.0
    } else {
        2.0
    };
    let gradients = if single { largest * 2.0 } else { weights };
    (weights, gradients, params * moments)
}

/// Caching-allocator fragmentation on top of live tensors.
pub const ALLOCATOR_SLACK: f64 = 0.08;
/// Tokens a serving engine prefills at once (vLLM's default chunked-prefill budget).
pub const PREFILL_CHUNK_TOKENS: f64 = 2048.0;
/// Training activation bytes per forward GFLOP for convolutional nets at 16 bits,
/// for models without a transformer shape; fitted to ResNet-50 (see catalog/README.md).
pub const CONV_ACTIVATION_BYTES_PER_GFLOP: f64 = 6.0e6;
/// The same for a diffusion UNet (SD 1.5, SDXL), whose FLOPs sit in wide convolutions and
/// attention at low resolution, so it stores far less per FLOP than ResNet-50. Counted
/// from the published architectures, block by block at 16 bits with memory-efficient
/// attention: a ResNet block stores about ten tensors the size of its input (two group
/// norms, two SiLUs, two convolutions, the time-embedding add), a transformer block about
/// 50 bytes per token and channel (Korthikanti et al.'s 34 for self-attention and MLP,
/// plus cross-attention and the GEGLU's wider hidden layer). That gives SDXL at
/// 1024×1024 (128² latents at 320, 64² at 640 with 10 transformer blocks, 32² at 1280
/// with 60) about 6.5 GB per image, and SD 1.5 at 512×512 about 0.86 GB: 0.96 and 0.97 MB
/// per GFLOP of their 6,763 and 889 GFLOP forward passes. (ResNet-50's figure would put
/// SDXL at 41 GB per image, which no 24 GB card could train; kohya-ss/sd-scripts trains an
/// SDXL LoRA in 8 GB with checkpointing.)
pub const UNET_ACTIVATION_BYTES_PER_GFLOP: f64 = 1.0e6;
/// Share of a convolutional net's or UNet's stored activations left under activation
/// checkpointing. Checkpointing each block (diffusers' UNets, torchvision-style segments)
/// keeps only the block's input and recomputes one block at a time; a ResNet block stores
/// about ten tensors of its input's size and a transformer block about seventeen, so the
/// inputs are 1/10 to 1/17 of the whole, plus the block being recomputed. The transformer
/// formula (`Sized::activations`) counts the same two parts directly.
pub const CONV_CHECKPOINT_SHARE: f64 = 0.15;

/// Bytes per GPU. All figures are for one GPU of the group the job runs on.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MemoryBreakdown {
    pub weights: f64,
    pub gradients: f64,
    pub optimizer: f64,
    /// LoRA adapters with their gradients and optimizer state.
    pub adapters: f64,
    pub activations: f64,
    pub kv_cache: f64,
    pub overhead: f64,
}

impl MemoryBreakdown {
    pub fn total(&self) -> f64 {
        self.weights
            + self.gradients
            + self.optimizer
            + self.adapters
            + self.activations
            + self.kv_cache
            + self.overhead
    }

    pub fn total_bytes(&self) -> u64 {
        self.total().ceil() as u64
    }

    /// The same without the optimizer state and its allocator slack: what the card holds
    /// when that state lives outside PyTorch's allocator (torchtune's paged 8-bit AdamW).
    pub fn without_optimizer(mut self) -> MemoryBreakdown {
        self.overhead -= self.optimizer * ALLOCATOR_SLACK;
        self.optimizer = 0.0;
        self
    }

    /// The same without the CUDA context (`CONTEXT_BYTES`): what PyTorch's caching
    /// allocator counts (`torch.cuda.max_memory_allocated` and `max_memory_reserved`),
    /// which sees only the tensors and blocks it hands out, not the driver's context that
    /// `nvidia-smi` shows on top.
    pub fn allocator_view(mut self) -> MemoryBreakdown {
        self.overhead = (self.overhead - CONTEXT_BYTES).max(0.0);
        self
    }
}

/// How a job is split over GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sharding {
    Single,
    /// Data parallel with weights, gradients and optimizer state sharded (ZeRO-3 / FSDP).
    FullySharded {
        gpus: u32,
    },
    /// Tensor parallel inside a node (degree divides the attention heads), pipeline across nodes.
    TensorParallel {
        degree: u32,
        pipeline: u32,
    },
    /// Training: FSDP over `gpus` with tensor parallelism of degree `tensor` inside a node
    /// (Megatron-style, with sequence parallelism, so each GPU keeps 1/`tensor` of every
    /// layer's activations): the "2D" layout torchtitan uses for 70B models.
    FsdpTensor {
        gpus: u32,
        tensor: u32,
    },
    /// Training: parameters, gradients and optimizer state kept in CPU memory and streamed
    /// to the GPU a layer at a time (FSDP `CPUOffload`, ZeRO-Offload), sharded over `gpus`.
    Offloaded {
        gpus: u32,
    },
}

impl Sharding {
    /// A stable code for exports and scripts.
    pub fn code(self) -> &'static str {
        match self {
            Sharding::Single => "single",
            Sharding::FullySharded { .. } => "fsdp",
            Sharding::TensorParallel { pipeline, .. } if pipeline > 1 => "tensor-pipeline",
            Sharding::TensorParallel { .. } => "tensor",
            Sharding::FsdpTensor { .. } => "fsdp-tensor",
            Sharding::Offloaded { .. } => "fsdp-offload",
        }
    }

    /// Tensor-parallel degree: how many GPUs share each layer's work.
    pub fn tensor(self) -> u32 {
        match self {
            Sharding::FsdpTensor { tensor, .. } => tensor,
            Sharding::TensorParallel { degree, .. } => degree,
            _ => 1,
        }
    }

    pub fn gpus(self) -> u32 {
        match self {
            Sharding::Single => 1,
            Sharding::FullySharded { gpus } => gpus,
            Sharding::TensorParallel { degree, pipeline } => degree * pipeline,
            Sharding::FsdpTensor { gpus, .. } | Sharding::Offloaded { gpus } => gpus,
        }
    }
}

/// The input tokens (or patches) a transformer sees per sample, and its width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransformerShape {
    pub layers: f64,
    pub hidden: f64,
    pub heads: f64,
    pub kv_heads: f64,
    pub ffn: f64,
    pub vocab: f64,
    pub tokens: f64,
}

/// The model with the workload's sequence length or resolution applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Sized<'m> {
    pub model: &'m Model,
    pub transformer: Option<TransformerShape>,
    /// Forward GFLOPs per sample at the chosen size (non-transformers, or a sourced figure).
    pub gflops_per_sample: Option<f64>,
}

/// Side of a ViT patch and frames per VideoMAE tubelet.
const PATCH: f64 = 16.0;
/// Pixels per side of one diffusion-transformer token: the VAE's 8× downsampling times
/// 2×2 latent patches (FLUX.1, SD 3.5), so 1024×1024 is 4,096 image tokens. Text tokens,
/// which join the image tokens in the attention, are left out.
const DIT_PIXELS_PER_TOKEN: f64 = 16.0;
const TUBELET: f64 = 2.0;

pub fn size_model<'m>(model: &'m Model, workload: &Workload) -> Sized<'m> {
    let family = model.family;
    let default_side = model.resolution.map(f64::from);
    let side = workload.seq.map(f64::from).or(default_side);
    let transformer = match (model.layers, model.hidden, model.heads) {
        (Some(l), Some(h), Some(a)) if family != Family::VisionCnn => {
            let tokens = match family {
                Family::VisionTransformer => (side.unwrap_or(224.0) / PATCH).powi(2) + 1.0,
                Family::Diffusion => (side.unwrap_or(1024.0) / DIT_PIXELS_PER_TOKEN).powi(2),
                Family::Video => {
                    let frames = f64::from(model.frames.unwrap_or(16));
                    frames / TUBELET * (side.unwrap_or(224.0) / PATCH).powi(2)
                }
                _ => f64::from(workload.context_for(model)),
            };
            Some(TransformerShape {
                layers: f64::from(l),
                hidden: f64::from(h),
                heads: f64::from(a),
                kv_heads: f64::from(model.kv_heads.unwrap_or(a)),
                ffn: f64::from(model.ffn.unwrap_or(4 * h)),
                vocab: f64::from(model.vocab.unwrap_or(0)),
                tokens,
            })
        }
        _ => None,
    };
    // Convolutional FLOPs scale with the pixel (or voxel) count.
    let scale = match (side, default_side) {
        (Some(s), Some(d)) if d > 0.0 => {
            let dims = if family == Family::Medical3d { 3 } else { 2 };
            (s / d).powi(dims)
        }
        _ => 1.0,
    };
    let gflops_per_sample = model.gflops_per_sample.map(|g| g * scale);
    Sized {
        model,
        transformer,
        gflops_per_sample,
    }
}

impl Sized<'_> {
    /// Bits per stored base weight for this task and precision.
    pub fn weight_bits(&self, workload: &Workload) -> f64 {
        match workload.task {
            Task::Qlora => NF4_BITS,
            Task::Lora => 16.0_f64.max(if workload.precision == Precision::Fp32 {
                32.0
            } else {
                16.0
            }),
            Task::Train | Task::Finetune => trainable(workload.precision).weight_bits(),
            Task::Infer => match (crate::quant::released(self.model), self.model.gguf_gb) {
                // The released GGUF file, as loaded.
                (Some(p), Some(gb)) if p == workload.precision && self.model.params() > 0.0 => {
                    gb * 8e9 / self.model.params()
                }
                _ => workload.precision.weight_bits(),
            },
        }
    }

    /// LoRA parameters for rank r on every linear layer of every block:
    /// q, o: h→h; k, v: h→kv; gate, up: h→ffn; down: ffn→h. Each adds r·(in + out).
    pub fn lora_params(&self, rank: u32) -> f64 {
        match self.transformer {
            Some(t) => {
                let kv = t.kv_heads * (t.hidden / t.heads);
                let gated = self.model.family == Family::Llm;
                let ffn_mats = if gated { 3.0 } else { 2.0 };
                let per_layer =
                    2.0 * (2.0 * t.hidden) + 2.0 * (t.hidden + kv) + ffn_mats * (t.hidden + t.ffn);
                f64::from(rank) * per_layer * t.layers
            }
            // Convolutional nets: adapters on about 1% of weights is the usual PEFT outcome.
            None => self.model.params() * 0.01,
        }
    }

    /// KV cache bytes for the whole batch at full sequence length (decoders only).
    pub fn kv_cache(&self, workload: &Workload) -> f64 {
        match self.transformer {
            Some(t) if self.model.family.is_decoder() && workload.task == Task::Infer => {
                let m = self.model;
                let head_dim = m.head_dim().map_or(t.hidden / t.heads, f64::from);
                // Elements cached per token and layer: K and V for every KV head, or MLA's
                // one compressed latent (DeepSeek-V2 paper, section 2.1: kv_lora_rank + RoPE key).
                let per_token = m
                    .kv_latent_dim
                    .map_or(2.0 * t.kv_heads * head_dim, f64::from);
                // Local-attention layers keep only their window (Gemma 3, gpt-oss).
                // Only full-attention layers cache; a hybrid's linear-attention layers keep
                // a fixed state (`Model::kv_layers`).
                let cached = m.kv_layers.map_or(t.layers, f64::from).min(t.layers);
                let local = m.sliding_layers.map_or(0.0, f64::from).min(cached);
                let window = m
                    .sliding_window
                    .map_or(t.tokens, |w| t.tokens.min(f64::from(w)));
                let token_layers = (cached - local) * t.tokens + local * window;
                per_token
                    * token_layers
                    * f64::from(workload.batch)
                    * workload.kv.bytes(workload.precision)
            }
            _ => 0.0,
        }
    }

    /// Activation bytes per GPU for one micro-batch.
    pub fn activations(&self, workload: &Workload) -> f64 {
        let b = f64::from(workload.batch);
        let act_bytes = if workload.task.is_training() {
            trainable(workload.precision).activation_bytes()
        } else {
            workload.precision.activation_bytes()
        };
        let scale = act_bytes / 2.0;
        match self.transformer {
            Some(t) if workload.task.is_training() => {
                let s = t.tokens;
                let h = t.hidden;
                let full_layer = s * b * h * 34.0 * scale;
                if workload.framework() == Framework::Unsloth {
                    return full_layer * UNSLOTH_LAYER_ACTIVATIONS;
                }
                let stored = if workload.checkpointing() {
                    2.0 * s * b * h * scale * t.layers + full_layer
                } else {
                    full_layer * t.layers
                };
                let logits = s * b * t.vocab * logit_bytes(workload);
                stored + logits
            }
            Some(t) => {
                // Inference keeps no activations between layers: the largest transient is one
                // layer's FFN input and intermediate for the tokens in flight.
                let in_flight = (t.tokens * b).min(PREFILL_CHUNK_TOKENS * b.max(1.0));
                let transient = in_flight * (2.0 * t.ffn + 4.0 * t.hidden) * act_bytes;
                let logits = b * t.vocab * 4.0;
                transient + logits
            }
            None => {
                let gflops = self.gflops_per_sample.unwrap_or(0.0);
                if workload.task.is_training() {
                    let per_gflop = if self.model.family == Family::Diffusion {
                        UNET_ACTIVATION_BYTES_PER_GFLOP
                    } else {
                        CONV_ACTIVATION_BYTES_PER_GFLOP
                    };
                    let kept = if workload.checkpointing() {
                        CONV_CHECKPOINT_SHARE
                    } else {
                        1.0
                    };
                    gflops * per_gflop * scale * b * kept
                } else {
                    // Without a backward pass only a few layers' outputs are alive at once.
                    // A diffusion pipeline keeps ResNet's figure here too: it stands for the
                    // VAE decode's full-resolution peak, which the UNet's own figure leaves
                    // out (SDXL in diffusers holds about 8 GB while denoising and 15 GB in
                    // the decode, diffusers issue 4432; this puts it at 12.5 GB).
                    gflops * CONV_ACTIVATION_BYTES_PER_GFLOP * scale * b * 0.1
                }
            }
        }
    }
}

/// Training needs a floating-point master copy; INT8/INT4 requests train in BF16.
pub fn trainable(precision: Precision) -> Precision {
    if precision.is_trainable() {
        precision
    } else {
        Precision::Bf16
    }
}

/// Layers whose parameters an offloaded GPU holds at once: the one computing and the one
/// being fetched (FSDP's and ZeRO's prefetch of the next layer).
pub const OFFLOAD_LAYERS_ON_GPU: f64 = 2.0;

/// Memory per GPU for the workload under the given sharding.
pub fn breakdown(sized: &Sized, workload: &Workload, sharding: Sharding) -> MemoryBreakdown {
    let params = sized.model.params();
    let n = f64::from(sharding.gpus());
    // QLoRA quantizes the linear layers; the token embedding and the LM head stay 16-bit.
    let sixteen_bit = match (
        workload.task,
        sized.transformer,
        sized.model.embedding_matrices,
    ) {
        (Task::Qlora, Some(t), Some(k)) => (t.vocab * t.hidden * f64::from(k)).min(params),
        _ => 0.0,
    };
    let weight_bytes =
        (params - sixteen_bit) * sized.weight_bits(workload) / 8.0 + sixteen_bit * 2.0;
    // Share of the model's parameters each GPU keeps in its own memory.
    let shard = match sharding {
        Sharding::Single => 1.0,
        // Offloaded: the layers in flight, never more than an FSDP shard; models without
        // a layer count keep their FSDP shard.
        Sharding::Offloaded { .. } => match sized.transformer {
            Some(t) => (OFFLOAD_LAYERS_ON_GPU / t.layers).min(1.0 / n),
            None => 1.0 / n,
        },
        _ => 1.0 / n,
    };
    let mut m = MemoryBreakdown::default();
    match workload.task {
        Task::Train | Task::Finetune => {
            // Split the optimizer's per-parameter bytes into their parts: 16-bit weights and
            // gradients (2 + 2), the rest is master weights and moments. Offloaded, the
            // optimizer steps on the CPU and keeps no state on the GPU.
            let per_param = workload.optimizer.bytes_per_param();
            let (w, g, o) = if workload.framework() == Framework::Torchtune {
                // The one-GPU recipe; torchtune runs several GPUs with FSDP, never as copies.
                let single = sharding == Sharding::Single && workload.max_gpus() <= 1;
                torchtune_full_state(sized, workload, single)
            } else {
                (
                    weight_bytes,
                    weight_bytes,
                    params * per_param - 2.0 * weight_bytes,
                )
            };
            m.weights = w * shard;
            m.gradients = g * shard;
            m.optimizer = match sharding {
                Sharding::Offloaded { .. } => 0.0,
                _ => o.max(0.0) * shard,
            };
        }
        Task::Lora | Task::Qlora => {
            m.weights = weight_bytes * shard;
            // The adapters' weights, gradients and Adam state are sharded with the base
            // weights (FSDP wraps them in the same units); offloaded, they live on the CPU
            // with the layers that are not in flight.
            m.adapters = sized.lora_params(workload.lora_rank) * 16.0 * shard;
        }
        Task::Infer => {
            let shard = match sharding {
                Sharding::TensorParallel { .. } => n,
                _ => 1.0,
            };
            // A diffusion pipeline also holds its text encoders and VAE; offloaded, only the
            // part that runs is on the GPU, the denoiser or the encoders, whichever is larger.
            let pipeline =
                sized.model.pipeline_params_b.unwrap_or(0.0) * 1e9 * sized.weight_bits(workload)
                    / 8.0;
            let resident = if workload.pipeline_offload {
                weight_bytes.max(pipeline)
            } else {
                weight_bytes + pipeline
            };
            m.weights = resident / shard;
            m.kv_cache = sized.kv_cache(workload) / kv_shard(sized, workload, sharding);
        }
    }
    // Tensor parallelism (with sequence parallelism when training) splits each layer's
    // activations across the group.
    m.activations = sized.activations(workload) / f64::from(sharding.tensor());
    let live = m.weights + m.gradients + m.optimizer + m.adapters + m.activations + m.kv_cache;
    m.overhead = CONTEXT_BYTES + ALLOCATOR_SLACK * live;
    m
}

/// How many ways a served model's KV cache is split. Each GPU holds the cache of the layers
/// or heads it runs, except under tensor parallelism of a model with multi-head latent
/// attention (DeepSeek-V2/V3, Kimi K2): its cache is one latent per token and layer with no
/// heads to split, so vLLM's and SGLang's tensor parallelism keeps the whole cache on every
/// GPU of the group (SGLang's DP-attention guide names the duplicated cache as the reason
/// for that opt-in mode). Pipeline stages still split it by layer. llama.cpp's layer split
/// never duplicates it.
fn kv_shard(sized: &Sized, workload: &Workload, sharding: Sharding) -> f64 {
    match sharding {
        Sharding::TensorParallel { pipeline, .. }
            if sized.model.kv_latent_dim.is_some() && workload.runtime().tensor_parallel() =>
        {
            f64::from(pipeline.max(1))
        }
        Sharding::TensorParallel { degree, pipeline } => f64::from(degree * pipeline),
        _ => 1.0,
    }
}

/// Sharding over `n` GPUs for this task: inference splits tensors (degree dividing the
/// heads, at most `per_node` per node, pipeline stages across nodes); training shards state.
pub fn sharding_for(sized: &Sized, workload: &Workload, n: u32, per_node: u32) -> Option<Sharding> {
    if n <= 1 {
        return Some(Sharding::Single);
    }
    if workload.task.is_training() {
        return Some(Sharding::FullySharded { gpus: n });
    }
    let heads = sized.transformer.map(|t| t.heads as u32)?;
    let kv_heads = sized.transformer.map(|t| t.kv_heads as u32)?;
    let degree = n.min(per_node.max(1));
    if heads % degree != 0 || (kv_heads % degree != 0 && degree % kv_heads != 0) {
        return None;
    }
    if n % degree != 0 {
        return None;
    }
    Some(Sharding::TensorParallel {
        degree,
        pipeline: n / degree,
    })
}
