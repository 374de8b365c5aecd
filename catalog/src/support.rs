//! Which deep-learning libraries run on which GPUs, as data: one row per library and
//! platform, each with the statement it comes from. The first row that matches a GPU
//! decides; a library with no matching row is unsupported there (no statement of
//! support was found).
//!
//! The ranking reads it where a task needs a library: QLoRA needs bitsandbytes (no
//! support rules the card out), training a transformer on CUDA or ROCm without
//! FlashAttention 2 is slower by the FlashAttention-2 paper's measured factor
//! (`stack::no_flash_attention_2_slowdown`), serving needs its runtime (named in the link,
//! the card is ruled out without it; by default, the other runtime serves it) and speech
//! recognition without CTranslate2 runs on whisper.cpp or Transformers, slower by the
//! factor faster-whisper's own benchmark measured on one GPU (`speech_fallback`).

use crate::gpu::{Gpu, Vendor};
use crate::workload::Runtime;

/// A library whose absence changes what a GPU can do or how fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Library {
    /// 4-bit NF4 quantisation (QLoRA) and 8-bit optimizers.
    Bitsandbytes,
    FlashAttention2,
    FlashAttention3,
    Vllm,
    LlamaCpp,
    /// CTranslate2, the engine under faster-whisper.
    Ctranslate2,
    Xformers,
    PytorchXla,
    Mlx,
    Unsloth,
}

impl Library {
    pub const ALL: [Library; 10] = [
        Library::Bitsandbytes,
        Library::FlashAttention2,
        Library::FlashAttention3,
        Library::Vllm,
        Library::LlamaCpp,
        Library::Ctranslate2,
        Library::Xformers,
        Library::PytorchXla,
        Library::Mlx,
        Library::Unsloth,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Library::Bitsandbytes => "bitsandbytes",
            Library::FlashAttention2 => "flash-attention-2",
            Library::FlashAttention3 => "flash-attention-3",
            Library::Vllm => "vllm",
            Library::LlamaCpp => "llama.cpp",
            Library::Ctranslate2 => "ctranslate2",
            Library::Xformers => "xformers",
            Library::PytorchXla => "pytorch-xla",
            Library::Mlx => "mlx",
            Library::Unsloth => "unsloth",
        }
    }

    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Library::Bitsandbytes => "bitsandbytes",
            Library::FlashAttention2 => "FlashAttention 2",
            Library::FlashAttention3 => "FlashAttention 3",
            Library::Vllm => "vLLM",
            Library::LlamaCpp => "llama.cpp",
            Library::Ctranslate2 => "CTranslate2 (faster-whisper)",
            Library::Xformers => "xformers",
            Library::PytorchXla => "PyTorch/XLA",
            Library::Mlx => "MLX",
            Library::Unsloth => "Unsloth",
        }
    }

    /// The library that serves a runtime.
    pub fn of_runtime(runtime: Runtime) -> Option<Library> {
        match runtime {
            Runtime::LlamaCpp => Some(Library::LlamaCpp),
            Runtime::Vllm => Some(Library::Vllm),
            Runtime::Transformers => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Unsupported,
    /// Runs, by the project's own word, as experimental, partial or through a community
    /// plugin.
    Experimental,
    Supported,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Unsupported => "unsupported",
            Level::Experimental => "experimental",
            Level::Supported => "supported",
        }
    }
}

/// What a row matches, read from the catalog's vendor, architecture and compute capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// NVIDIA GPUs with compute capability in `from..below`.
    Cuda {
        from: (u32, u32),
        below: (u32, u32),
    },
    /// AMD Instinct (CDNA) from this generation (1 = MI100, 2 = MI200, 3 = MI300, 4 = MI350).
    Cdna {
        from: u32,
    },
    /// AMD Radeon (RDNA) from this generation; RDNA 3.5 (Strix Halo) counts as 3.
    Rdna {
        from: u32,
    },
    Apple,
    /// Intel Arc and Data Center GPU Max (oneAPI, PyTorch XPU).
    IntelGpu,
    Gaudi,
    /// TPUs whose architecture names one of these generations.
    Tpu(&'static [&'static str]),
}

/// NVIDIA GPUs from this compute capability on.
const fn cuda_from(from: (u32, u32)) -> Target {
    Target::Cuda {
        from,
        below: (99, 0),
    }
}

/// The platform a GPU is, for matching rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Platform<'g> {
    Cuda((u32, u32)),
    Cdna(u32),
    Rdna(u32),
    Apple,
    IntelGpu,
    Gaudi,
    Tpu(&'g str),
    Unknown,
}

fn generation(architecture: &str, family: &str) -> Option<u32> {
    let rest = architecture.strip_prefix(family)?.trim_start();
    if rest.is_empty() {
        return Some(1);
    }
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn platform(gpu: &Gpu) -> Platform<'_> {
    let arch = gpu.architecture.as_str();
    match gpu.vendor {
        Vendor::Nvidia => gpu
            .compute_capability()
            .map_or(Platform::Unknown, Platform::Cuda),
        Vendor::Amd => {
            if let Some(g) = generation(arch, "CDNA") {
                Platform::Cdna(g)
            } else if let Some(g) = generation(arch, "RDNA") {
                Platform::Rdna(g)
            } else {
                Platform::Unknown
            }
        }
        Vendor::Apple => Platform::Apple,
        Vendor::Intel if arch.starts_with("Gaudi") => Platform::Gaudi,
        Vendor::Intel => Platform::IntelGpu,
        Vendor::Google => Platform::Tpu(arch),
    }
}

impl Target {
    fn matches(self, platform: Platform) -> bool {
        match (self, platform) {
            (Target::Cuda { from, below }, Platform::Cuda(cc)) => cc >= from && cc < below,
            (Target::Cdna { from }, Platform::Cdna(g)) => g >= from,
            (Target::Rdna { from }, Platform::Rdna(g)) => g >= from,
            (Target::Apple, Platform::Apple)
            | (Target::IntelGpu, Platform::IntelGpu)
            | (Target::Gaudi, Platform::Gaudi) => true,
            (Target::Tpu(names), Platform::Tpu(arch)) => names
                .iter()
                .any(|n| arch.split_whitespace().nth(1) == Some(*n)),
            _ => false,
        }
    }
}

/// One statement of support.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub library: Library,
    target: Target,
    pub level: Level,
    /// Where the statement is, with the version or date it was read at.
    pub source: Source,
}

/// Where a row's statement is. The text lives apart from the rows, so code that only asks
/// what runs where (the ranking) does not carry the citations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Bnb,
    Fa,
    VllmCuda,
    VllmRocm,
    VllmXpu,
    VllmApple,
    VllmGaudi,
    VllmTpu,
    LlamaCpp,
    Ct2,
    Xformers,
    Mlx,
    Unsloth,
    TorchXla,
}

impl Source {
    /// The address of the statement, then what it says and when it was read.
    pub fn text(self) -> &'static str {
        match self {
            Source::Bnb => "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/95f9af30/README.md (accelerator table, v0.50.1, 2026-08)",
            Source::Fa => "https://github.com/Dao-AILab/flash-attention/blob/0251105a/README.md (2026-08)",
            Source::VllmCuda => "https://github.com/vllm-project/vllm/blob/main/docs/getting_started/installation/gpu.cuda.inc.md (compute capability 7.5 or higher; 2026)",
            Source::VllmRocm => "https://github.com/vllm-project/vllm/blob/main/docs/getting_started/installation/gpu.rocm.inc.md (MI200, MI300, MI350, RX 7900 and 9000 series, Ryzen AI Max; 2026)",
            Source::VllmXpu => "https://github.com/vllm-project/vllm/blob/main/docs/getting_started/installation/gpu.xpu.inc.md (\"basic model inference\", no prebuilt wheels; 2026)",
            Source::VllmApple => "https://github.com/vllm-project/vllm/blob/main/docs/getting_started/installation/gpu.apple.inc.md (community vllm-metal plugin; 2026)",
            Source::VllmTpu => "https://github.com/vllm-project/tpu-inference/blob/b8692ff0/README.md (recommended v5e, v6e, v7x; experimental v3, v4, v5p; 2026-08)",
            Source::LlamaCpp => "https://github.com/ggml-org/llama.cpp#supported-backends (CUDA, HIP, Metal, SYCL, Vulkan; 2026)",
            Source::Ct2 => "https://github.com/OpenNMT/CTranslate2/blob/0d8bcd36/docs/hardware_support.md and CHANGELOG.md 4.7.0 (ROCm wheels for RDNA only; v4.8.1, 2026-07)",
            Source::Xformers => "https://github.com/facebookresearch/xformers/blob/ca6d2aa0/README.md (CUDA wheels; ROCm experimental, gfx90a and gfx942; v0.0.35, 2026)",
            Source::Mlx => "https://github.com/ml-explore/mlx/blob/846d1762/docs/src/install.rst (Apple silicon; CUDA backend from SM 7.5; v0.32.1, 2026-08)",
            Source::VllmGaudi => "https://github.com/vllm-project/vllm-gaudi/blob/091bbadd/README.md (v0.26.0, 2026-08)",
            Source::TorchXla => "https://github.com/pytorch/xla/blob/41398bff/README.md (TPU builds only; v2.9, 2026-04)",
            Source::Unsloth => "https://github.com/unslothai/unsloth/blob/015bdef0/README.md (NVIDIA RTX 30 and later, AMD, Intel XPU, macOS; 2026-08; a minimum of compute capability 7.0 was removed from it on 2026-03-17)",
        }
    }
}

const fn row(library: Library, target: Target, level: Level, source: Source) -> Row {
    Row {
        library,
        target,
        level,
        source,
    }
}

const AMPERE: (u32, u32) = (8, 0);
const TURING: (u32, u32) = (7, 5);

/// The table. Rows for one library are read in order; the first match decides.
pub fn rows() -> &'static [Row] {
    use Level::*;
    use Library::*;
    #[rustfmt::skip]
    const ROWS: &[Row] = &[
        // bitsandbytes: NF4/FP4 from SM 6.0 (LLM.int8() from 7.5); CDNA gfx908–gfx950;
        // RDNA gfx103X–gfx120X; Intel XPU (Arc A and B); Apple MPS (QLoRA yes, 8-bit
        // optimizers planned); Gaudi 2 and 3 (QLoRA partial).
        row(Bitsandbytes, cuda_from((6, 0)), Supported, Source::Bnb),
        row(Bitsandbytes, Target::Cdna { from: 1 }, Supported, Source::Bnb),
        row(Bitsandbytes, Target::Rdna { from: 2 }, Supported, Source::Bnb),
        row(Bitsandbytes, Target::IntelGpu, Supported, Source::Bnb),
        row(Bitsandbytes, Target::Apple, Supported, Source::Bnb),
        row(Bitsandbytes, Target::Gaudi, Experimental, Source::Bnb),
        // FlashAttention 2: Ampere, Ada, Hopper (Blackwell built by default); Turing only
        // in a separate repository; ROCm's CK backend on MI200/MI300/MI355 and RDNA 3/4
        // (forward and backward; RDNA added 2026-03-27).
        row(FlashAttention2, cuda_from(AMPERE), Supported, Source::Fa),
        row(FlashAttention2, Target::Cdna { from: 2 }, Supported, Source::Fa),
        row(FlashAttention2, Target::Rdna { from: 3 }, Supported, Source::Fa),
        // FlashAttention 3: Hopper (H100/H800), beta; ROCm's Triton backend offers FP8
        // through its interface.
        row(FlashAttention3, Target::Cuda { from: (9, 0), below: (10, 0) }, Supported, Source::Fa),
        row(FlashAttention3, Target::Cdna { from: 3 }, Experimental, Source::Fa),
        // vLLM
        row(Vllm, cuda_from(TURING), Supported, Source::VllmCuda),
        row(Vllm, Target::Cdna { from: 2 }, Supported, Source::VllmRocm),
        row(Vllm, Target::Rdna { from: 3 }, Supported, Source::VllmRocm),
        row(Vllm, Target::IntelGpu, Experimental, Source::VllmXpu),
        row(Vllm, Target::Apple, Experimental, Source::VllmApple),
        row(Vllm, Target::Gaudi, Supported, Source::VllmGaudi),
        row(Vllm, Target::Tpu(&["v5e", "v6e", "v7x"]), Supported, Source::VllmTpu),
        row(Vllm, Target::Tpu(&["v3", "v4", "v5p"]), Experimental, Source::VllmTpu),
        // llama.cpp: CUDA (CUDA 12 builds reach back to Maxwell), HIP, Metal, SYCL and Vulkan.
        row(LlamaCpp, cuda_from((5, 0)), Supported, Source::LlamaCpp),
        row(LlamaCpp, Target::Cdna { from: 1 }, Supported, Source::LlamaCpp),
        row(LlamaCpp, Target::Rdna { from: 1 }, Supported, Source::LlamaCpp),
        row(LlamaCpp, Target::Apple, Supported, Source::LlamaCpp),
        row(LlamaCpp, Target::IntelGpu, Supported, Source::LlamaCpp),
        // CTranslate2 (faster-whisper): CUDA; ROCm wheels since 4.7.0 for RDNA only, and
        // faster-whisper's README names NVIDIA libraries alone.
        row(Ctranslate2, cuda_from((3, 5)), Supported, Source::Ct2),
        row(Ctranslate2, Target::Rdna { from: 2 }, Experimental, Source::Ct2),
        // xformers
        row(Xformers, cuda_from((6, 0)), Supported, Source::Xformers),
        row(Xformers, Target::Cdna { from: 2 }, Experimental, Source::Xformers),
        // PyTorch/XLA: TPUs (its GPU plugin is gone from the README).
        row(PytorchXla, Target::Tpu(&["v2", "v3", "v4", "v5e", "v5p", "v6e", "v7x"]), Supported, Source::TorchXla),
        // MLX
        row(Mlx, Target::Apple, Supported, Source::Mlx),
        row(Mlx, cuda_from(TURING), Supported, Source::Mlx),
        // Unsloth
        row(Unsloth, cuda_from(AMPERE), Supported, Source::Unsloth),
        row(Unsloth, Target::Cuda { from: (7, 0), below: AMPERE }, Experimental, Source::Unsloth),
        row(Unsloth, Target::Cdna { from: 3 }, Supported, Source::Unsloth),
        row(Unsloth, Target::Rdna { from: 3 }, Supported, Source::Unsloth),
        row(Unsloth, Target::IntelGpu, Supported, Source::Unsloth),
        row(Unsloth, Target::Apple, Supported, Source::Unsloth),
    ];
    ROWS
}

/// How well `library` runs on `gpu`, and the row that says so (`None`: no statement of
/// support was found, so it is taken as unsupported).
pub fn support(gpu: &Gpu, library: Library) -> (Level, Option<&'static Row>) {
    let platform = platform(gpu);
    rows()
        .iter()
        .find(|r| r.library == library && r.target.matches(platform))
        .map_or((Level::Unsupported, None), |r| (r.level, Some(r)))
}

/// The library's first statement: for a GPU it does not support, the list of what it does.
pub fn statement(library: Library) -> Option<&'static Row> {
    rows().iter().find(|r| r.library == library)
}

pub fn level(gpu: &Gpu, library: Library) -> Level {
    support(gpu, library).0
}

/// Whether the GPU lacks FlashAttention 2 on a stack whose attention is otherwise
/// PyTorch's unfused or memory-efficient kernels (CUDA, ROCm). Other stacks bring their
/// own fused attention (XLA, MLX, Gaudi's FusedSDPA), which their measured efficiencies
/// (`stack`) already include.
pub fn lacks_flash_attention_2(gpu: &Gpu) -> bool {
    matches!(
        platform(gpu),
        Platform::Cuda(_) | Platform::Cdna(_) | Platform::Rdna(_)
    ) && level(gpu, Library::FlashAttention2) == Level::Unsupported
}

/// How a Whisper-style model is served where faster-whisper (CTranslate2) does not run,
/// and how much slower, from faster-whisper's own benchmark (README, large-v2, 13 min of
/// audio, beam 5, fp16 on one RTX 3070 Ti, CUDA 12.4): faster-whisper 63 s, whisper.cpp
/// with flash attention 65 s, Transformers with SDPA 112 s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeechFallback {
    pub library: SpeechRuntime,
    /// Time over faster-whisper's on the same GPU.
    pub slowdown: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeechRuntime {
    WhisperCpp,
    Transformers,
}

impl SpeechFallback {
    /// Serving on `runtime`, at its measured time over faster-whisper's.
    fn on(runtime: SpeechRuntime) -> SpeechFallback {
        let seconds = match runtime {
            SpeechRuntime::WhisperCpp => WHISPER_CPP_SECONDS,
            SpeechRuntime::Transformers => TRANSFORMERS_WHISPER_SECONDS,
        };
        SpeechFallback {
            library: runtime,
            slowdown: seconds / FASTER_WHISPER_SECONDS,
        }
    }
}

impl SpeechRuntime {
    pub fn as_str(self) -> &'static str {
        match self {
            SpeechRuntime::WhisperCpp => "whisper.cpp",
            SpeechRuntime::Transformers => "transformers",
        }
    }
}

pub const FASTER_WHISPER_SECONDS: f64 = 63.0;
pub const WHISPER_CPP_SECONDS: f64 = 65.0;
pub const TRANSFORMERS_WHISPER_SECONDS: f64 = 112.0;

/// `None` where faster-whisper runs (CTranslate2 supported or experimental); else the
/// runtime that serves the model instead: whisper.cpp where ggml runs (the backends
/// llama.cpp has), Transformers elsewhere.
pub fn speech_fallback(gpu: &Gpu) -> Option<SpeechFallback> {
    if level(gpu, Library::Ctranslate2) != Level::Unsupported {
        return None;
    }
    Some(SpeechFallback::on(
        if level(gpu, Library::LlamaCpp) != Level::Unsupported {
            SpeechRuntime::WhisperCpp
        } else {
            SpeechRuntime::Transformers
        },
    ))
}

/// How a Whisper-style model runs when the link names a runtime: `transformers` is
/// Hugging Face's pipeline (1.78× faster-whisper's time), `llamacpp` whisper.cpp (1.03×)
/// where ggml runs; otherwise faster-whisper, or its stand-in where CTranslate2 does not
/// run (`speech_fallback`).
pub fn speech_runtime(gpu: &Gpu, runtime: Option<Runtime>) -> Option<SpeechFallback> {
    match runtime {
        Some(Runtime::Transformers) => Some(SpeechFallback::on(SpeechRuntime::Transformers)),
        Some(Runtime::LlamaCpp) if level(gpu, Library::LlamaCpp) != Level::Unsupported => {
            Some(SpeechFallback::on(SpeechRuntime::WhisperCpp))
        }
        _ => speech_fallback(gpu),
    }
}

/// The runtime a GPU serves with: the one asked for when it runs there; when the link
/// did not name one and the default does not run, the other. `Err` when the link named a
/// runtime the GPU cannot run.
pub fn serving_runtime(gpu: &Gpu, default: Runtime, named: bool) -> Result<Runtime, Runtime> {
    let runs =
        |r: Runtime| Library::of_runtime(r).is_none_or(|lib| level(gpu, lib) != Level::Unsupported);
    if runs(default) {
        return Ok(default);
    }
    if named {
        return Err(default);
    }
    let other = match default {
        Runtime::LlamaCpp => Runtime::Vllm,
        Runtime::Vllm => Runtime::LlamaCpp,
        Runtime::Transformers => Runtime::Transformers,
    };
    if runs(other) {
        Ok(other)
    } else {
        Ok(Runtime::Transformers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Catalog;

    fn gpu<'c>(catalog: &'c Catalog, id: &str) -> &'c Gpu {
        catalog
            .gpu(id)
            .unwrap_or_else(|| panic!("{id} not in the catalog"))
    }

    #[test]
    fn every_row_names_its_source() {
        for r in rows() {
            assert!(r.source.text().starts_with("https://"), "{:?}", r.library);
        }
    }

    #[test]
    fn platforms_are_read_from_the_catalog() {
        let c = Catalog::embedded();
        assert_eq!(platform(gpu(c, "rx-7900-xtx")), Platform::Rdna(3));
        assert_eq!(
            platform(gpu(c, "ryzen-ai-max-395-128gb")),
            Platform::Rdna(3)
        );
        assert_eq!(platform(gpu(c, "rx-9070-xt")), Platform::Rdna(4));
        assert_eq!(platform(gpu(c, "mi300x")), Platform::Cdna(3));
        assert_eq!(platform(gpu(c, "gaudi3")), Platform::Gaudi);
        assert_eq!(platform(gpu(c, "rtx-2080-ti")), Platform::Cuda((7, 5)));
        // Every catalog GPU is a known platform, so no row is missed by a misread name.
        for g in &c.gpus {
            assert_ne!(platform(g), Platform::Unknown, "{}", g.id);
        }
    }

    #[test]
    fn the_table_says_what_its_sources_say() {
        let c = Catalog::embedded();
        let l = |id: &str, lib| level(gpu(c, id), lib);
        assert_eq!(l("rtx-3090", Library::Bitsandbytes), Level::Supported);
        assert_eq!(l("arc-b580", Library::Bitsandbytes), Level::Supported);
        assert_eq!(l("gaudi3", Library::Bitsandbytes), Level::Experimental);
        assert_eq!(l("tpu-v6e", Library::Bitsandbytes), Level::Unsupported);
        assert_eq!(
            l("rtx-2080-ti", Library::FlashAttention2),
            Level::Unsupported
        );
        assert_eq!(l("rx-7900-xtx", Library::FlashAttention2), Level::Supported);
        assert_eq!(
            l("h100-sxm5-80gb", Library::FlashAttention3),
            Level::Supported
        );
        assert_eq!(l("b200", Library::FlashAttention3), Level::Unsupported);
        assert_eq!(l("v100-pcie-32gb", Library::Vllm), Level::Unsupported);
        assert_eq!(l("tpu-v6e", Library::Vllm), Level::Supported);
        assert_eq!(l("tpu-v4", Library::Vllm), Level::Experimental);
        assert_eq!(l("tpu-v2", Library::Vllm), Level::Unsupported);
        assert_eq!(l("tpu-v6e", Library::LlamaCpp), Level::Unsupported);
        assert_eq!(l("apple-m2-ultra", Library::Mlx), Level::Supported);
        assert_eq!(l("mi300x", Library::Ctranslate2), Level::Unsupported);
    }

    #[test]
    fn flash_attention_is_missing_only_where_pytorch_would_use_it() {
        let c = Catalog::embedded();
        assert!(lacks_flash_attention_2(gpu(c, "v100-pcie-32gb")));
        assert!(lacks_flash_attention_2(gpu(c, "rtx-2080-ti")));
        assert!(lacks_flash_attention_2(gpu(c, "mi100")));
        assert!(!lacks_flash_attention_2(gpu(c, "rtx-3090")));
        assert!(!lacks_flash_attention_2(gpu(c, "rx-7900-xtx")));
        // TPUs and Macs bring their own fused attention.
        assert!(!lacks_flash_attention_2(gpu(c, "tpu-v6e")));
        assert!(!lacks_flash_attention_2(gpu(c, "apple-m2-ultra")));
    }

    #[test]
    fn runtimes_fall_back_only_when_the_link_left_them_open() {
        let c = Catalog::embedded();
        let v100 = gpu(c, "v100-pcie-32gb");
        let tpu = gpu(c, "tpu-v6e");
        assert_eq!(
            serving_runtime(v100, Runtime::Vllm, false),
            Ok(Runtime::LlamaCpp)
        );
        assert_eq!(
            serving_runtime(v100, Runtime::Vllm, true),
            Err(Runtime::Vllm)
        );
        assert_eq!(
            serving_runtime(tpu, Runtime::LlamaCpp, false),
            Ok(Runtime::Vllm)
        );
        assert_eq!(
            serving_runtime(tpu, Runtime::LlamaCpp, true),
            Err(Runtime::LlamaCpp)
        );
        let h100 = gpu(c, "h100-sxm5-80gb");
        assert_eq!(
            serving_runtime(h100, Runtime::Vllm, true),
            Ok(Runtime::Vllm)
        );
    }

    #[test]
    fn speech_falls_back_to_whisper_cpp_where_ggml_runs() {
        let c = Catalog::embedded();
        assert_eq!(speech_fallback(gpu(c, "rtx-4090")), None);
        let mac = speech_fallback(gpu(c, "apple-m2-ultra")).expect("no CTranslate2 GPU build");
        assert_eq!(mac.library, SpeechRuntime::WhisperCpp);
        assert!((mac.slowdown - 65.0 / 63.0).abs() < 1e-9);
        let tpu = speech_fallback(gpu(c, "tpu-v6e")).expect("no CTranslate2 on TPU");
        assert_eq!(tpu.library, SpeechRuntime::Transformers);
        assert!((tpu.slowdown - 112.0 / 63.0).abs() < 1e-9);
    }
}
