//! Ranks every catalog GPU for a workload: fit, speed, cost, a score by the
//! chosen priority, and the reasons behind each place. Reasons are data; the UI
//! translates them.
//!
//! In four parts beside the types here: `evaluate` (each GPU against the workload), `score`
//! (the order), `picks` (per tier) and `alternatives` (one change worth a look). They take
//! the imports below with `use super::*`.

use crate::data::Catalog;
use crate::deploy::{self, Software};
use crate::estimate::{self, Bound, Cost, HostShare, Link, Placement, RateKind, Speed};
use crate::gpu::{Availability, Ecosystem, FormFactor, Gpu, PriceKind, Segment, Vendor};
use crate::memory::{self, MemoryBreakdown, Sharding};
use crate::model::{Family, Model};
use crate::quant;
use crate::share::{Condition, Filters};
use crate::support::{self, Level, Library, SpeechRuntime};
use crate::workload::{
    Change, EcoRequirement, Mode, ModelChoice, Precision, Priority, Runtime, Task, Workload,
};

/// Oldest CUDA compute capability current PyTorch wheels ship kernels for: the CUDA 12.8+
/// builds of PyTorch 2.8 dropped Maxwell and Pascal (sm_50–sm_61), and Kepler (K80, sm_37)
/// went years earlier.
pub const MIN_PYTORCH_CC: (u32, u32) = (7, 0);
/// Oldest compute capability PyTorch's default wheels ship kernels for: CUDA 13 dropped
/// Volta, PyTorch 2.11 removed sm_70 from its CUDA 12.8 builds and its default PyPI
/// wheels are CUDA 13 (pytorch/pytorch issues 172352 and 190385, 2026); Volta runs only
/// the legacy CUDA 12.6 wheels, which the 2.15 plan removes.
pub const DEFAULT_PYTORCH_CC: (u32, u32) = (7, 5);
/// A fit with less than this share of memory free is tight: fragmentation or a longer
/// sequence will push it over.
pub const TIGHT_FRACTION: f64 = 0.10;
/// From this many GPUs per node a purchase is a server rather than a workstation: a
/// datacenter PCIe card is then cooled by the server's fans.
pub const SERVER_GPUS: u32 = 4;

/// Why a GPU is ruled out. The first that applies is the binding constraint.
#[derive(Debug, Clone, PartialEq)]
pub enum WhyNot {
    /// Filtered out by the view's segment, vendor or condition filters.
    Filtered,
    Ecosystem {
        required: EcoRequirement,
    },
    /// CUDA compute capability below what current PyTorch builds support.
    PytorchDropped {
        compute_capability: String,
    },
    /// QLoRA needs bitsandbytes, which does not run here (`support::Library::Bitsandbytes`).
    QloraUnsupported,
    /// The link names an inference runtime that does not run on this GPU.
    RuntimeUnsupported {
        runtime: Runtime,
    },
    /// Cannot be bought (cloud only) when buying.
    NotForSale,
    /// A module (SXM, OAM) or superchip is sold only inside a server or rack of `gpus`
    /// (`Gpu::sold_in`): it is an option only when the person allows that many GPUs in a
    /// node (a rack: in all).
    ServerOnly {
        gpus: u32,
    },
    /// No cloud offering when renting.
    NotRentable,
    /// Renting several nodes, a PCIe card: clouds rent those by the GPU or the machine, and
    /// multi-node clusters with a fast network between nodes with server modules (SXM,
    /// OAM, superchips) or their own accelerators (TPU pods) only. Runpod's Instant
    /// Clusters, for one: B200, H200 and H100 at 3,200 Gb/s, A100 at 1,600 Gb/s, 2 to 8
    /// nodes (docs `instant-clusters.mdx`, runpod/docs at a900806e, 2026-08), the same
    /// provider whose per-GPU rentals of the RTX 3090 and A40 the catalog lists.
    NoClusterRental,
    Memory {
        need_bytes: f64,
        have_bytes: f64,
        gpus: u32,
    },
    Budget {
        cost_usd: f64,
        budget_usd: f64,
    },
    /// Under a budget, a GPU whose price (or job cost) is unknown cannot be shown to
    /// keep to it, so it does not pass.
    PriceUnknown,
    /// `have=`: a card of another vendor than the GPUs the person owns. A box that mixes
    /// vendors runs llama.cpp through its Vulkan backend or one build per vendor over RPC,
    /// which the engine does not model; and replacing the owned cards is not what was
    /// asked.
    CannotPair {
        owned: Vendor,
    },
}

/// A reason shown on a ranked GPU.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    Fits {
        spare_bytes: f64,
    },
    TightFit {
        spare_bytes: f64,
    },
    /// Needs several GPUs, and how the job is split.
    NeedsGpus {
        gpus: u32,
        sharding: Sharding,
        /// Serving split by layers, each token passing through the GPUs in turn (llama.cpp's
        /// and Transformers' split), rather than every layer split across them (vLLM's
        /// tensor parallelism).
        in_turn: bool,
    },
    /// Relative to the fastest candidate (1.0 = fastest).
    SpeedVsBest {
        ratio: f64,
    },
    Bound(Bound),
    NoBf16UsesFp16,
    /// No matrix units for the precision; runs at this precision's rate instead.
    PrecisionFallback {
        wanted: Precision,
        used: Precision,
    },
    /// Plain shader cores only (no tensor/matrix units for this).
    NoTensorCores,
    /// The GPU has tensor cores, but the catalog has no sourced rate for them yet: the
    /// estimate uses its shader rate, so it is low.
    TensorRateUnknown,
    Scaling {
        gpus: u32,
        efficiency: f64,
        link: LinkKind,
    },
    /// A Mac's GPU uses this share of unified memory; `raised`: only after macOS's limit
    /// is raised (`estimate::raised_memory`), which the job needs.
    UnifiedMemory {
        usable_fraction: f64,
        raised: bool,
    },
    UsedOnly,
    CloudOnly,
    /// Renting at a marketplace's lowest ask (`price.cloud_marketplace`): hosts and
    /// availability vary, and the offer may not be there when the job is.
    MarketplacePrice,
    PriceUnknown,
    SpeedUnknown,
    /// Older than the newest compute capability that FlashAttention 2 supports (Ampere, 8.0).
    NoFlashAttention2,
    /// Runs ROCm rather than CUDA: PyTorch works, CUDA-only libraries and kernels do not.
    RocmNotCuda,
    /// Runs oneAPI (PyTorch's XPU backend) rather than CUDA: PyTorch works, CUDA-only
    /// libraries and kernels do not.
    OneApiNotCuda,
    /// Runs XLA (JAX, or PyTorch/XLA) rather than CUDA: a PyTorch training script needs
    /// porting, and CUDA-only libraries and kernels do not run.
    XlaNotCuda,
    /// Runs SynapseAI (PyTorch's HPU bridge on Gaudi) rather than CUDA: PyTorch works through
    /// Intel's Gaudi build, CUDA-only libraries and kernels do not.
    SynapseAiNotCuda,
    /// A Mac, for a workload whose tools are built for CUDA first (`Ranked::off_stack`):
    /// PyTorch runs on its MPS backend and MLX trains natively, CUDA-only libraries do not.
    MetalNotCuda,
    /// A library the workload uses runs here only as experimental, partial or community
    /// support (`support::Level::Experimental`).
    LibraryExperimental {
        library: Library,
    },
    /// The runtime the workload defaults to does not run here; the GPU is served with
    /// this one instead.
    RuntimeFallback {
        wanted: Runtime,
        used: Runtime,
    },
    /// faster-whisper (CTranslate2) does not run here: the model is served with this
    /// runtime, `slowdown` times faster-whisper's time on the same GPU.
    SpeechFallback {
        runtime: SpeechRuntime,
        slowdown: f64,
    },
    /// Several GPUs, and the catalog has no figure for their link: a conservative one is assumed.
    LinkAssumed {
        gbs: f64,
    },
    /// Only PyTorch's legacy CUDA 12.6 wheels still carry kernels for it (Volta).
    LegacyPytorchOnly,
    /// Training fits only with memory savers the workload did not ask for: activation
    /// checkpointing (one more forward pass), a smaller micro-batch with gradient
    /// accumulation, or parameters and optimizer state offloaded to CPU memory (much
    /// slower: every step streams the weights over PCIe).
    MemorySavers {
        checkpointing: bool,
        micro_batch: Option<u32>,
        offload: bool,
        /// Offloaded: the system memory the job's offloaded state takes on one machine
        /// (weights, gradients and optimizer state of the machine's GPUs), which the person
        /// must have beside the GPUs.
        host_bytes: f64,
        /// Diffusion: text encoders and VAE in CPU memory, moved in when they run.
        pipeline_offload: bool,
        /// torchtune on one GPU: bytes of its paged 8-bit optimizer state that wait in
        /// system memory (`estimate::Placement::paged_optimizer`); 0 when it all fits.
        paged_bytes: f64,
        /// Offloaded, and still faster than every candidate that holds the job in its own
        /// memory (and, bought, with room to grow): then offloading is the practical
        /// choice, as two 24 GB cards with FSDP and CPU offload are for a 70B QLoRA
        /// against a 128 GB unified-memory box at a fifth of their speed.
        outpaces_holders: bool,
    },
    /// Buying for a workstation: a datacenter card cooled by server airflow, which needs a
    /// fan added in a desktop case.
    PassiveCooling,
    /// Buying more than two PCIe cards: together they draw `watts` at their rated board
    /// power, which the build's power supplies, case (risers or an open frame) and cooling
    /// must carry.
    MultiCardBuild {
        cards: u32,
        watts: f64,
    },
    /// Buying a module or superchip: it comes as whole servers or racks of `unit` GPUs,
    /// priced whole, of which the job uses `used` (given when that is fewer than bought,
    /// when the price leaves out the host, or when copies of a served model fill them). `host`: whether the price includes the host
    /// server (`price.server_includes_host`).
    ServerUnit {
        unit: u32,
        servers: u32,
        used: u32,
        host: bool,
        /// Serving, the copies of the model on the GPUs used, each holding its share of the
        /// users (1: one copy).
        copies: u32,
    },
    /// Buying: the workload fits as entered, but the next, larger run (`grown`: twice the
    /// context when training a sequence model, else twice the batch) does not fit on the
    /// same GPUs, or fits only tightly: the card has no room for it. `need_bytes` is that run's per-GPU memory
    /// as entered; `speed_share` is how fast the card still runs it, per sample, with the
    /// memory savers it then needs (gradient accumulation, checkpointing, offload), against
    /// the entered run: 0 when it does not run it, or only as a tight fit.
    NoRoomToGrow {
        need_bytes: f64,
        speed_share: f64,
    },
    /// `prec=auto`: the model runs here in this format, the highest of its runtime's
    /// ladder that fits (`quant`); its quality cost is `quant::quality`. `offloaded`: with
    /// part of the model in system memory, where the ladder stops at
    /// `quant::OFFLOAD_CEILING`. `paced`: a higher type fits on the GPU but decodes slower
    /// than people read (`score::USABLE_DECODE_TOKENS_S`), so the card runs this lower one.
    /// `by`: which rule chose the format (`Chosen`).
    Quantized {
        precision: Precision,
        offloaded: bool,
        paced: bool,
        by: Chosen,
    },
    /// The model does not fit on the GPU and llama.cpp runs it with part of it in the
    /// host's system memory (`estimate::offload`): the speed counts reading it there.
    /// `have=`: the card runs the model beside the GPUs the person owns (their ids),
    /// llama.cpp splitting the layers by memory; `share` is this card's share of them.
    PairedWith {
        owned: Vec<String>,
        share: f64,
    },
    /// `have=`: beside the owned GPUs the card runs the model no faster than they do on
    /// their own, on their GPU memory alone (`tokens_s`), within the 10% the engine
    /// resolves between cards (`RENT_VALUE_TIE`): it buys memory (a longer context, a
    /// higher type), not speed. It ranks after the additions that suit.
    SlowerThanOwned {
        tokens_s: f64,
    },
    /// `measured=`: the bandwidth measured on the person's card `gpu` (this one, or an
    /// owned one it is paired with) and the factor it sets on that card's bandwidth-bound
    /// estimates (`estimate::measured_bandwidth_factor`; 1 when it agrees with the
    /// datasheet).
    MeasuredBandwidth {
        gpu: String,
        gbs: f64,
        factor: f64,
    },
    Offloaded {
        share: HostShare,
        /// It still decodes faster than people read (`USABLE_DECODE_TOKENS_S`); a slower
        /// one ranks after the cards that suit.
        readable: bool,
    },
    /// Served to people who wait on it, slower than a usable pace for each of the `users`
    /// (`score::too_slow_to_use`): `pace` each against the `floor` (people's reading
    /// speed, a minute per image, real time), in the speed's own unit.
    TooSlowToUse {
        pace: f64,
        floor: f64,
        unit: estimate::Unit,
        users: u32,
    },
    /// Training, a job of `hours` on this GPU, longer than `score::LONGEST_USEFUL_JOB_HOURS`.
    JobTooLong {
        hours: f64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    Direct,
    Pcie,
    PcieNoP2p,
    Network,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ranked<'c> {
    pub gpu: &'c Gpu,
    pub placement: Option<Placement>,
    /// Per-GPU memory at one GPU (what the workload needs as entered) or the placement's.
    pub memory: MemoryBreakdown,
    /// Bytes per GPU the job may use here: `estimate::usable_memory`, or a Mac's raised
    /// limit when the job needs it (`estimate::raised_memory`).
    pub usable_bytes: f64,
    pub speed: Option<Speed>,
    pub cost: Cost,
    /// 0–1 by the chosen priority among candidates; None when excluded or unknown.
    pub score: Option<f64>,
    pub reasons: Vec<Reason>,
    pub why_not: Option<WhyNot>,
    /// The workload's tools are built for CUDA first (`cuda_first`) and this GPU runs
    /// another stack (its "not CUDA" reason, or Metal): it is listed after the CUDA cards
    /// that suit, and the non-NVIDIA pick names the best of them.
    pub off_stack: bool,
    /// The software the estimate models on this GPU (`deploy::software`).
    pub software: Software,
    /// The weight precision the estimate runs at: the ladder's rung with `prec=auto`
    /// (`Reason::Quantized`), else the workload's.
    pub precision: Precision,
    /// Serving a language model: the longest context each sequence of the batch can
    /// hold here (`longest_context`).
    pub longest_context: Option<LongestContext>,
}

/// Which rule of `prec=auto` chose a card's weights format (`Reason::Quantized`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    /// llama.cpp's GGUF ladder, run locally (`quant::ladder`).
    Ladder,
    /// Where no GGUF type runs locally, a model served in the format its checkpoint is
    /// published in (`quant::checkpoint`: DeepSeek-V3's FP8, gpt-oss's MXFP4).
    Released,
    /// A served model whose 16-bit checkpoint does not fit on the GPUs allowed, quantized
    /// for vLLM: FP8 as it loads, else a 4-bit checkpoint (`rank::evaluate`'s
    /// `served_quantized`).
    Served,
    /// An image model whose 16-bit weights do not fit here, stored in 8 bits and
    /// multiplied in 16 (`rank::evaluate`'s `eight_bit_images`).
    Images,
}

/// The longest context a card holds for each sequence, at its placement, weights and KV
/// cache type: the memory left beside the weights filled with KV cache (which grows one
/// token at a time; the rest of the memory does not grow with the context), never past
/// the model's longest (`Model::max_seq`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LongestContext {
    pub tokens: u32,
    /// The model's own longest context, which fits whole.
    pub whole: bool,
}

impl WhyNot {
    /// Where a GPU ruled out for this reason is listed (`ruled_out_by_reason`): the reasons
    /// nearest to being an option first (too little memory, over the budget, no price),
    /// those no setting of the workload changes last. `None` for a GPU the view's filters
    /// hide, which is not listed.
    pub fn nearness(&self) -> Option<u8> {
        Some(match self {
            WhyNot::Filtered => return None,
            WhyNot::Memory { .. } => 0,
            WhyNot::Budget { .. } => 1,
            WhyNot::PriceUnknown => 2,
            WhyNot::RuntimeUnsupported { .. } => 3,
            WhyNot::QloraUnsupported => 4,
            WhyNot::Ecosystem { .. } => 5,
            WhyNot::PytorchDropped { .. } => 6,
            WhyNot::NotForSale => 7,
            WhyNot::NotRentable => 8,
            WhyNot::NoClusterRental => 9,
            WhyNot::CannotPair { .. } => 10,
            WhyNot::ServerOnly { .. } => Self::FARTHEST,
        })
    }

    /// The largest `nearness`.
    pub const FARTHEST: u8 = 11;

    /// A stable code for exports and scripts.
    pub fn code(&self) -> &'static str {
        match self {
            WhyNot::Filtered => "filtered",
            WhyNot::Ecosystem { .. } => "ecosystem",
            WhyNot::PytorchDropped { .. } => "pytorch-dropped",
            WhyNot::QloraUnsupported => "qlora-unsupported",
            WhyNot::RuntimeUnsupported { .. } => "runtime-unsupported",
            WhyNot::NotForSale => "not-for-sale",
            WhyNot::ServerOnly { .. } => "server-only",
            WhyNot::NotRentable => "not-rentable",
            WhyNot::NoClusterRental => "no-cluster-rental",
            WhyNot::Memory { .. } => "memory",
            WhyNot::Budget { .. } => "budget",
            WhyNot::PriceUnknown => "price-unknown",
            WhyNot::CannotPair { .. } => "cannot-pair",
        }
    }
}

impl Reason {
    /// A stable code for exports and scripts.
    pub fn code(&self) -> &'static str {
        match self {
            Reason::Fits { .. } => "fits",
            Reason::TightFit { .. } => "tight-fit",
            Reason::NeedsGpus { .. } => "needs-gpus",
            Reason::SpeedVsBest { .. } => "speed-vs-best",
            Reason::Bound(Bound::Memory) => "memory-bound",
            Reason::Bound(Bound::Compute) => "compute-bound",
            Reason::NoBf16UsesFp16 => "no-bf16-uses-fp16",
            Reason::PrecisionFallback { .. } => "precision-fallback",
            Reason::NoTensorCores => "no-tensor-cores",
            Reason::TensorRateUnknown => "tensor-rate-unknown",
            Reason::Scaling { .. } => "scaling",
            Reason::UnifiedMemory { .. } => "unified-memory",
            Reason::UsedOnly => "used",
            Reason::CloudOnly => "cloud-only",
            Reason::MarketplacePrice => "marketplace-price",
            Reason::PriceUnknown => "price-unknown",
            Reason::SpeedUnknown => "speed-unknown",
            Reason::NoFlashAttention2 => "no-flash-attention-2",
            Reason::RocmNotCuda => "rocm-not-cuda",
            Reason::LinkAssumed { .. } => "link-assumed",
            Reason::OneApiNotCuda => "oneapi-not-cuda",
            Reason::XlaNotCuda => "xla-not-cuda",
            Reason::SynapseAiNotCuda => "synapseai-not-cuda",
            Reason::MetalNotCuda => "metal-not-cuda",
            Reason::LibraryExperimental { .. } => "library-experimental",
            Reason::RuntimeFallback { .. } => "runtime-fallback",
            Reason::SpeechFallback { .. } => "speech-fallback",
            Reason::LegacyPytorchOnly => "legacy-pytorch-only",
            Reason::PassiveCooling => "passive-cooling",
            Reason::ServerUnit { .. } => "server-unit",
            Reason::MultiCardBuild { .. } => "multi-card-build",
            Reason::MemorySavers { .. } => "memory-savers",
            Reason::NoRoomToGrow { .. } => "no-room-to-grow",
            Reason::Quantized { .. } => "quantized",
            Reason::Offloaded { .. } => "offloaded",
            Reason::PairedWith { .. } => "paired-with",
            Reason::SlowerThanOwned { .. } => "slower-than-owned",
            Reason::MeasuredBandwidth { .. } => "measured-bandwidth",
            Reason::TooSlowToUse { .. } => "too-slow-to-use",
            Reason::JobTooLong { .. } => "job-too-long",
        }
    }
}

impl Ranked<'_> {
    pub fn fits(&self) -> bool {
        self.why_not.is_none()
    }
    /// The GGUF type the ladder runs the model in here (`Reason::Quantized`), if any.
    pub fn quantized(&self) -> Option<Precision> {
        self.reasons.iter().find_map(|r| match r {
            Reason::Quantized { precision, .. } => Some(*precision),
            _ => None,
        })
    }
    pub fn gpus_needed(&self) -> Option<u32> {
        self.placement.as_ref().map(|p| p.gpus)
    }

    /// Bytes the job must have on each of its cards (`Placement::held_bytes`): the
    /// memory breakdown's total, less an optimizer state that pages to system memory.
    pub fn held_bytes(&self) -> f64 {
        self.placement
            .as_ref()
            .map_or(self.memory.total(), |p| p.held_bytes())
    }
}

/// A letter that says at a glance how a ranked GPU compares with the first: its score as
/// a share of the first card's, in steps of `GRADE_STEP` (A within one step of it, B
/// within two, and so on down to E). A GPU never reads better than one ranked above it,
/// so a card that does not suit the person (it ranks after every one that does, whatever
/// its score) takes at most the grade of the card before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    A,
    B,
    C,
    D,
    E,
}

/// The width of one grade, as a share of the first card's score.
pub const GRADE_STEP: f64 = 0.15;

impl Grade {
    pub const ALL: [Grade; 5] = [Grade::A, Grade::B, Grade::C, Grade::D, Grade::E];

    /// The grade of a score that is `share` (0–1) of the first card's.
    pub fn of_share(share: f64) -> Grade {
        let share = if share.is_nan() {
            0.0
        } else {
            share.clamp(0.0, 1.0)
        };
        let steps = ((1.0 - share) / GRADE_STEP).floor() as usize;
        Grade::ALL[steps.min(Grade::ALL.len() - 1)]
    }

    pub fn letter(self) -> &'static str {
        ["A", "B", "C", "D", "E"][self as usize]
    }
}

/// The grade of each item in ranking order: `None` for a GPU without a score (it does not
/// fit, or its speed or cost in this mode is unknown).
pub fn grades(items: &[Ranked]) -> Vec<Option<Grade>> {
    let best = items.iter().find_map(|r| r.score).unwrap_or(0.0);
    let mut floor = Grade::A;
    items
        .iter()
        .map(|r| {
            let share = r.score.filter(|_| best > 0.0)? / best;
            floor = floor.max(Grade::of_share(share));
            Some(floor)
        })
        .collect()
}

/// The seed article's tiers, and one more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// The fastest a person in this mode can get within the budget.
    Flagship,
    /// The most speed per dollar; renting, the most work per dollar (the cheapest job or
    /// million tokens).
    Value,
    /// The cheapest that runs the job at a usable speed.
    Entry,
    /// The best option from a vendor other than NVIDIA, with its caveats.
    NonNvidia,
    /// Buying for a training job, when renting the job is far cheaper than any purchase.
    RentInstead,
}

impl Tier {
    pub const ALL: [Tier; 5] = [
        Tier::Flagship,
        Tier::Value,
        Tier::Entry,
        Tier::NonNvidia,
        Tier::RentInstead,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Flagship => "flagship",
            Tier::Value => "value",
            Tier::Entry => "entry",
            Tier::NonNvidia => "non_nvidia",
            Tier::RentInstead => "rent_instead",
        }
    }
}

/// One tier's pick and the facts its one-sentence "why" is built from.
#[derive(Debug, Clone, PartialEq)]
pub struct Pick {
    pub tier: Tier,
    pub id: String,
    /// Throughput of the placement (the workload's unit) and its share of the flagship pick's
    /// (of the fastest candidate's when there is no flagship).
    pub speed: Option<f64>,
    pub speed_share: Option<f64>,
    /// Speed per 1,000 dollars of the cost the ranking compares, against the best value's.
    pub value_share: Option<f64>,
    /// The cost the ranking compares (purchase, job or per-million), in dollars.
    pub cost_usd: Option<f64>,
    /// Candidates it was chosen from.
    pub among: usize,
    /// Caveats the person should know (ROCm, unified memory, used only, tight fit...).
    pub caveats: Vec<Reason>,
    /// Rent instead: what renting the job costs and the cheapest purchase it beats.
    pub rent_job_usd: Option<f64>,
    pub buy_usd: Option<f64>,
    /// The value pick, when it won a tie the estimate does not resolve (`FLAGSHIP_TIE`
    /// buying, `RENT_VALUE_TIE` renting) over the card with the most value among those it
    /// was chosen from: its value's share of that card's (buying, speed per dollar;
    /// renting, the least money over its own). The flagship, when it is not the fastest
    /// candidate but within `FLAGSHIP_TIE` of it and cheaper: its speed's share of that
    /// card's.
    pub tie_share: Option<f64>,
}

/// The engine's verdicts in the seed article's tiers, computed, not hard-coded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picks {
    pub flagship: Option<Pick>,
    pub value: Option<Pick>,
    pub entry: Option<Pick>,
    pub non_nvidia: Option<Pick>,
    pub rent_instead: Option<Pick>,
}

impl Picks {
    /// The picks in tier order, skipping empty tiers.
    pub fn all(&self) -> impl Iterator<Item = &Pick> {
        [
            &self.flagship,
            &self.value,
            &self.entry,
            &self.non_nvidia,
            &self.rent_instead,
        ]
        .into_iter()
        .flatten()
    }

    pub fn id(&self, tier: Tier) -> Option<&str> {
        self.all().find(|p| p.tier == tier).map(|p| p.id.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ranking<'c> {
    pub model: Model,
    /// Memory the workload needs on one GPU, as entered.
    pub memory: MemoryBreakdown,
    /// Serving a language model: the tokens of context each sequence of the batch holds
    /// in the KV cache, and whether that is the model's default rather than the link's.
    pub context: Option<Context>,
    /// Candidates first, in rank order; then excluded GPUs.
    pub items: Vec<Ranked<'c>>,
    pub picks: Picks,
    /// When few GPUs run the workload as entered, or the first pick runs it only offloaded
    /// to CPU memory: what one change would open up.
    pub alternatives: Vec<Alternative<'c>>,
    /// `have=`: the GPUs the person owns on their own, without a card added (the first,
    /// split with the others as any added card is), for the answer to say what an
    /// addition buys. `None` without owned cards, or where the workload is not a language
    /// model run locally.
    pub owned_alone: Option<Ranked<'c>>,
}

/// The context the KV cache is sized for (`Ranking::context`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    pub tokens: u32,
    pub sequences: u32,
    /// The model's default, not a length the link sets.
    pub assumed: bool,
}

mod alternatives;
mod evaluate;
mod picks;
mod score;

pub use alternatives::*;
use evaluate::*;
use picks::*;
pub use score::*;

pub fn resolve_model(catalog: &Catalog, workload: &Workload) -> Model {
    match &workload.model {
        ModelChoice::Preset(id) => catalog
            .model(id)
            .cloned()
            .unwrap_or_else(|| Model::custom(8.0)),
        ModelChoice::Custom(p) => Model::custom(*p),
    }
}

/// The GPUs the person owns (`have=`), from the catalog.
pub(super) fn owned_gpus<'c>(catalog: &'c Catalog, workload: &Workload) -> Vec<&'c Gpu> {
    workload
        .have
        .iter()
        .filter_map(|id| catalog.gpu(id))
        .collect()
}

/// The owned GPUs without an addition: the first of them, joined by the rest.
pub(super) fn owned_alone<'c>(catalog: &'c Catalog, workload: &Workload) -> Option<Ranked<'c>> {
    let (first, rest) = workload.have.split_first()?;
    let first = catalog.gpu(first)?;
    let owned = owned_gpus(catalog, workload);
    let model = resolve_model(catalog, workload);
    if !pairs(first, workload, &owned, model.family) {
        return None;
    }
    let alone = Workload {
        have: rest.to_vec(),
        budget_usd: None,
        ..workload.clone()
    };
    rank_items(catalog, &alone, &Filters::default())
        .items
        .into_iter()
        .find(|r| r.gpu.id == first.id)
}

/// Ranks every GPU of the catalog for the workload and picks one per tier.
pub fn rank<'c>(catalog: &'c Catalog, workload: &Workload, filters: &Filters) -> Ranking<'c> {
    let mut ranking = rank_items(catalog, workload, filters);
    // Buying for a training job: what renting the same job would cost, at its cheapest.
    let rental = if workload.mode == Mode::Buy && workload.task.is_training() {
        let rent = Workload {
            mode: Mode::Rent,
            budget_usd: None,
            ..workload.clone()
        };
        rank_items(catalog, &rent, filters)
            .items
            .iter()
            .filter(|r| r.fits() && runs_as_asked(r, &rent))
            .filter_map(|r| Some((r.gpu.id.clone(), r.cost.job_usd?.mid)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
    } else {
        None
    };
    ranking.picks = picks(&ranking.items, workload, rental);
    ranking.alternatives = alternatives(catalog, workload, filters, &ranking);
    ranking
}
