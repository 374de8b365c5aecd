//! How a practitioner runs a workload on a given GPU: the serving runtime chosen from the
//! deployment (not from the batch alone), and the software each estimate models, named
//! on the card and in the export.
//!
//! Serving a language model, llama.cpp is what people run on their own one or two cards
//! with quantized GGUF weights for one user (its CUDA, HIP, Metal, SYCL and Vulkan
//! backends, down to Pascal); vLLM (or SGLang, which the engine models alike) is what
//! teams and clouds serve with: several users at once, rented GPUs, server modules,
//! 16- or 8-bit float weights split over GPUs, more than two GPUs, or GPUs joined by
//! NVLink or Infinity Fabric, where tensor parallelism reads every GPU's share of the
//! weights at once (vLLM's `--tensor-parallel-size`). A link that names `runtime` wins.

use crate::estimate::{link_for, Link};
use crate::gpu::{Gpu, Segment, Vendor};
use crate::model::Family;
use crate::support::{self, SpeechRuntime};
use crate::workload::{Framework, Mode, Precision, Runtime, Task, Workload, VLLM_FROM_BATCH};

/// Local serving spreads a model over at most this many cards with llama.cpp's layer
/// split; more GPUs than that are a server, served tensor parallel.
pub const LOCAL_MAX_GPUS: u32 = 2;

/// Whether weights are a llama.cpp-style quantized file (GGUF Q4/Q8) rather than the
/// 16- or 8-bit float checkpoints that vLLM serves as released.
fn quantized(precision: Precision) -> bool {
    matches!(precision, Precision::Int4 | Precision::Int8) || precision.is_gguf()
}

/// Whether vLLM loads a checkpoint published in this format on this GPU as released
/// (`quant::checkpoint`). FP8 (DeepSeek-V3's block-scaled weights): where the GPU
/// multiplies FP8 itself, NVIDIA from Ada Lovelace (compute capability 8.9), AMD's MI300
/// and later, Gaudi; vLLM's FP8 documentation lists W8A8 there and weight-only FP8 through
/// Marlin below it, which its maintainers say does not cover a mixture of experts' fused
/// layers (docs.vllm.ai, "FP8 W8A8"; Red Hat AI on the DeepSeek-Coder-V2 FP8 checkpoint,
/// 2024). MXFP4 (gpt-oss's experts): NVIDIA from Ampere (Marlin's MXFP4 MoE kernels) and
/// AMD's CDNA 3, CDNA 4 and RDNA 4 parts, as vLLM's gpt-oss recipe lists them
/// (vllm-project/recipes, OpenAI/GPT-OSS.md). Elsewhere the model is served at 16 bits.
pub fn loads_checkpoint(gpu: &Gpu, precision: Precision) -> bool {
    match (precision, gpu.vendor) {
        (Precision::Fp8, Vendor::Nvidia | Vendor::Amd | Vendor::Intel) => {
            gpu.fp8_tensor_tflops.is_some()
        }
        (Precision::Mxfp4, Vendor::Nvidia) => {
            gpu.compute_capability().is_some_and(|cc| cc >= (8, 0))
        }
        (Precision::Mxfp4, Vendor::Amd) => ["CDNA 3", "CDNA 4", "RDNA 4"]
            .iter()
            .any(|a| gpu.architecture.starts_with(a)),
        _ => false,
    }
}

/// The signs of a deployment served by a serving engine whatever the weights: a batch
/// of users, a rental, a part sold only inside servers.
pub fn served_at_scale(workload: &Workload, gpu: &Gpu) -> bool {
    workload.batch >= VLLM_FROM_BATCH
        || workload.mode == Mode::Rent
        || gpu.form_factor.is_server_part()
}

/// The runtime that serves a language model on this GPU when the link names none.
/// `gpus`: how many of these GPUs the model needs (its placement).
pub fn serving_runtime(workload: &Workload, gpu: &Gpu, gpus: u32) -> Runtime {
    let quantized = quantized(workload.precision);
    // A GeForce card's NVLink bridge (RTX 3090) is an option few home builds have; a
    // workstation or datacenter pair bought with one is a server in the making.
    let linked = gpus > 1
        && gpu.segment != Segment::Consumer
        && matches!(link_for(gpu, gpus), Link::Direct(_));
    // A datacenter card that vLLM serves runs 4-bit weights as vLLM does (an AWQ or GPTQ
    // checkpoint through its Marlin kernels), not as a GGUF file.
    let datacenter = matches!(gpu.segment, Segment::Datacenter | Segment::Cloud);
    let four_bit_checkpoint = datacenter
        && workload.precision == Precision::Int4
        && support::level(gpu, support::Library::Vllm) != support::Level::Unsupported;
    let served = served_at_scale(workload, gpu)
        || datacenter && (!quantized || four_bit_checkpoint)
        || gpus > 1 && !quantized
        || gpus > LOCAL_MAX_GPUS
        || linked;
    if served {
        Runtime::Vllm
    } else {
        Runtime::LlamaCpp
    }
}

/// The software an estimate models, as people know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Software {
    LlamaCpp,
    Vllm,
    Transformers,
    FasterWhisper,
    WhisperCpp,
    Diffusers,
    Pytorch,
    MegatronCore,
    Unsloth,
    Torchtune,
    /// JAX or PyTorch/XLA on a TPU.
    Xla,
}

impl Software {
    pub const ALL: [Software; 11] = [
        Software::LlamaCpp,
        Software::Vllm,
        Software::Transformers,
        Software::FasterWhisper,
        Software::WhisperCpp,
        Software::Diffusers,
        Software::Pytorch,
        Software::MegatronCore,
        Software::Unsloth,
        Software::Torchtune,
        Software::Xla,
    ];

    /// The software a code names (`code`), or a published measurement's runtime or
    /// framework token (`megatron` for Megatron-Core).
    pub fn parse(token: &str) -> Option<Software> {
        let token = if token == "megatron" {
            "megatron-core"
        } else {
            token
        };
        Software::ALL.into_iter().find(|s| s.code() == token)
    }

    /// A stable code for exports and scripts.
    pub fn code(self) -> &'static str {
        match self {
            Software::LlamaCpp => "llamacpp",
            Software::Vllm => "vllm",
            Software::Transformers => "transformers",
            Software::FasterWhisper => "faster-whisper",
            Software::WhisperCpp => "whisper.cpp",
            Software::Diffusers => "diffusers",
            Software::Pytorch => "pytorch",
            Software::MegatronCore => "megatron-core",
            Software::Unsloth => "unsloth",
            Software::Torchtune => "torchtune",
            Software::Xla => "xla",
        }
    }

    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Software::LlamaCpp => "llama.cpp",
            Software::Vllm => "vLLM",
            Software::Transformers => "Hugging Face Transformers",
            Software::FasterWhisper => "faster-whisper",
            Software::WhisperCpp => "whisper.cpp",
            Software::Diffusers => "diffusers",
            Software::Pytorch => "PyTorch",
            Software::MegatronCore => "Megatron-Core",
            Software::Unsloth => "Unsloth",
            Software::Torchtune => "torchtune",
            Software::Xla => "JAX / XLA",
        }
    }

    /// Whether it runs on PyTorch's CUDA wheels, and so has their compute-capability floor.
    /// llama.cpp and whisper.cpp carry their own kernels (CUDA from compute capability
    /// 5.0); CTranslate2 links cuBLAS and cuDNN itself.
    pub fn needs_pytorch(self) -> bool {
        !matches!(
            self,
            Software::LlamaCpp | Software::WhisperCpp | Software::FasterWhisper | Software::Xla
        )
    }

    fn of_runtime(runtime: Runtime) -> Software {
        match runtime {
            Runtime::LlamaCpp => Software::LlamaCpp,
            Runtime::Vllm => Software::Vllm,
            Runtime::Transformers => Software::Transformers,
        }
    }
}

/// The software that runs the workload on this GPU. `runtime`: the serving runtime the
/// workload resolved to on it (language models only).
pub fn software(workload: &Workload, family: Family, gpu: &Gpu, runtime: Runtime) -> Software {
    if workload.task.is_training() {
        return match workload.framework() {
            _ if gpu.vendor == Vendor::Google => Software::Xla,
            Framework::Megatron => Software::MegatronCore,
            Framework::Pytorch => Software::Pytorch,
            Framework::Unsloth => Software::Unsloth,
            Framework::Torchtune => Software::Torchtune,
        };
    }
    match family {
        f if f.is_decoder() => Software::of_runtime(runtime),
        Family::Speech => match support::speech_runtime(gpu, workload.runtime) {
            Some(f) => match f.library {
                SpeechRuntime::WhisperCpp => Software::WhisperCpp,
                SpeechRuntime::Transformers => Software::Transformers,
            },
            None => Software::FasterWhisper,
        },
        Family::Diffusion => Software::Diffusers,
        _ if gpu.vendor == Vendor::Google => Software::Xla,
        _ => Software::Pytorch,
    }
}

/// Whether the GPU's inference is decoder serving, whose runtime is chosen here.
pub fn serves_language_model(workload: &Workload, family: Family) -> bool {
    workload.task == Task::Infer && family.is_decoder()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Catalog;

    fn gpu(id: &str) -> &'static Gpu {
        Catalog::embedded().gpu(id).expect("in the catalog")
    }

    fn query(q: &str) -> Workload {
        crate::share::parse(q, Catalog::embedded()).0.workload
    }

    #[test]
    fn local_quantized_serving_is_llama_cpp_and_the_rest_is_vllm() {
        let home = query("model=qwen2.5-32b&prec=int4");
        assert_eq!(
            serving_runtime(&home, gpu("rtx-3090"), 1),
            Runtime::LlamaCpp
        );
        assert_eq!(
            serving_runtime(&home, gpu("rtx-3090"), 2),
            Runtime::LlamaCpp
        );
        // A used Tesla P40 bought for a home box runs GGUF on llama.cpp.
        assert_eq!(serving_runtime(&home, gpu("p40"), 1), Runtime::LlamaCpp);
        // Three cards or more are a server.
        assert_eq!(serving_runtime(&home, gpu("rtx-3090"), 3), Runtime::Vllm);
        // 16-bit weights spread over two cards, or on a datacenter card: vLLM.
        let bf16 = query("model=llama-3.1-70b");
        assert_eq!(serving_runtime(&bf16, gpu("rtx-3090"), 2), Runtime::Vllm);
        assert_eq!(
            serving_runtime(&bf16, gpu("rtx-3090"), 1),
            Runtime::LlamaCpp
        );
        assert_eq!(
            serving_runtime(&bf16, gpu("a100-pcie-80gb"), 1),
            Runtime::Vllm
        );
        // Modules bought as servers, and anything rented.
        assert_eq!(
            serving_runtime(&home, gpu("h100-sxm5-80gb"), 1),
            Runtime::Vllm
        );
        let rented = query("model=llama-3.1-8b&prec=int4&mode=rent");
        assert_eq!(serving_runtime(&rented, gpu("rtx-4090"), 1), Runtime::Vllm);
        // Several users at once.
        let team = query("model=llama-3.1-8b&prec=int4&batch=8");
        assert_eq!(serving_runtime(&team, gpu("rtx-4090"), 1), Runtime::Vllm);
    }

    #[test]
    fn each_family_names_the_software_modelled() {
        let sdxl = query("model=sdxl");
        assert_eq!(
            software(&sdxl, Family::Diffusion, gpu("rtx-4090"), sdxl.runtime()),
            Software::Diffusers
        );
        let whisper = query("model=whisper-large-v3");
        assert_eq!(
            software(&whisper, Family::Speech, gpu("rtx-4090"), whisper.runtime()),
            Software::FasterWhisper
        );
        let hf = query("model=whisper-large-v3&runtime=transformers");
        assert_eq!(
            software(&hf, Family::Speech, gpu("rtx-4090"), hf.runtime()),
            Software::Transformers
        );
        let train = query("task=train&model=resnet-50");
        assert_eq!(
            software(&train, Family::VisionCnn, gpu("rtx-4090"), train.runtime()),
            Software::Pytorch
        );
        assert!(!Software::LlamaCpp.needs_pytorch());
        assert!(Software::Vllm.needs_pytorch());
    }

    #[test]
    fn released_formats_load_where_their_kernels_run() {
        let loads = |id: &str, p: Precision| loads_checkpoint(gpu(id), p);
        // FP8 where the GPU multiplies it: Ada, Hopper, Blackwell, MI300, Gaudi.
        for id in ["h200-sxm-141gb", "b200", "rtx-4090", "mi300x", "gaudi3"] {
            assert!(loads(id, Precision::Fp8), "{id}");
        }
        for id in ["a100-sxm4-80gb", "v100-sxm2-32gb", "rx-7900-xtx", "tpu-v6e"] {
            assert!(!loads(id, Precision::Fp8), "{id}");
        }
        // MXFP4 from Ampere on and on CDNA 3, CDNA 4 and RDNA 4.
        for id in [
            "a100-sxm4-80gb",
            "rtx-3090",
            "h100-sxm5-80gb",
            "mi300x",
            "rx-9070-xt",
        ] {
            assert!(loads(id, Precision::Mxfp4), "{id}");
        }
        for id in [
            "v100-sxm2-32gb",
            "rtx-2080-ti",
            "mi250x",
            "gaudi3",
            "apple-m3-ultra",
        ] {
            assert!(!loads(id, Precision::Mxfp4), "{id}");
        }
        // No other format is a released checkpoint this test knows.
        assert!(!loads("h100-sxm5-80gb", Precision::Int4));
    }
}
