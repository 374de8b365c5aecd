//! Ranks every catalog GPU for a workload: fit, speed, cost, a score by the
//! chosen priority, and the reasons behind each place. Reasons are data; the UI
//! translates them.

use crate::data::Catalog;
use crate::deploy::{self, Software};
use crate::estimate::{self, Bound, Cost, Link, Placement, RateKind, Speed};
use crate::gpu::{Availability, Ecosystem, FormFactor, Gpu, PriceKind, Segment, Vendor};
use crate::memory::{self, MemoryBreakdown, Sharding};
use crate::model::{Family, Model};
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
    /// or when the price leaves out the host). `host`: whether the price includes the host
    /// server (`price.server_includes_host`).
    ServerUnit {
        unit: u32,
        servers: u32,
        used: u32,
        host: bool,
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
            WhyNot::ServerOnly { .. } => Self::FARTHEST,
        })
    }

    /// The largest `nearness`.
    pub const FARTHEST: u8 = 10;

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
        }
    }
}

impl Ranked<'_> {
    pub fn fits(&self) -> bool {
        self.why_not.is_none()
    }
    pub fn gpus_needed(&self) -> Option<u32> {
        self.placement.as_ref().map(|p| p.gpus)
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
    /// Throughput of the placement (the workload's unit) and its share of the fastest candidate's.
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
}

/// The context the KV cache is sized for (`Ranking::context`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    pub tokens: u32,
    pub sequences: u32,
    /// The model's default, not a length the link sets.
    pub assumed: bool,
}

/// When the picks choose among at most this many GPUs as entered, the answer also says what
/// a practitioner would change to have more (`Alternative`): one card, or two, is no choice.
pub const FEW_CANDIDATES: usize = 2;

/// A change to the workload and what it opens up: how many GPUs the changed workload's picks
/// choose among, and the first GPU of its ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Alternative<'c> {
    pub change: Change,
    pub among: usize,
    /// The first GPU of the changed ranking; for a `cheaper` alternative, its entry pick.
    pub top: Ranked<'c>,
    /// Offered because the change costs far less (`CHEAPER_WITH_CHANGE`), not because few
    /// GPUs run the workload as entered.
    pub cheaper: bool,
}

/// Buying, a second GPU is offered beside picks that already exist when the changed
/// workload's entry pick costs at most this share of the entry pick as entered: Llama 3.1
/// 70B in 4 bits decodes on two used 24 GB cards (llama.cpp splits the layers), which is
/// the build people put together for it, at a fraction of one card with 48 GB or more.
pub const CHEAPER_WITH_CHANGE: f64 = 0.5;

/// The changes a practitioner tries first when few GPUs run a workload, in the order they
/// try them. Inference in 16 or 32 bits: smaller weights, as people run models at home (4-bit
/// GGUF files for language models under llama.cpp, the FP8 checkpoints of diffusion and
/// video models, CTranslate2's INT8 for Whisper). A language model on one GPU: a second GPU
/// (llama.cpp and vLLM split a model over two cards; FSDP shards a fine-tune over them, as
/// Answer.AI's QLoRA of a 70B model on two 24 GB cards does). A language model fine-tuned
/// in full or with LoRA: adapters on frozen weights, then frozen weights in 4 bits (the
/// QLoRA paper fine-tunes a 65B model on one 48 GB card; Hugging Face's PEFT and TRL guides
/// reach for it when the 16-bit weights do not fit). A diffusion transformer's LoRA: the
/// same 4-bit base (Hugging Face's FLUX.1-dev QLoRA post: about 9 GB against 26 GB for the
/// 16-bit LoRA on one RTX 4090).
fn changes(workload: &Workload, model: &Model) -> Vec<Change> {
    let mut out = Vec::new();
    if model.family == Family::Llm {
        let lighter: &[Task] = match workload.task {
            Task::Finetune => &[Task::Lora, Task::Qlora],
            Task::Lora => &[Task::Qlora],
            _ => &[],
        };
        out.extend(lighter.iter().copied().map(Change::Task));
    }
    if model.family == Family::Diffusion && model.layers.is_some() && workload.task == Task::Lora {
        out.push(Change::Task(Task::Qlora));
    }
    if workload.task == Task::Infer && workload.precision.weight_bits() >= 16.0 {
        let smaller = match model.family {
            Family::Llm => Some(Precision::Int4),
            Family::Diffusion | Family::Video => Some(Precision::Fp8),
            Family::Speech => Some(Precision::Int8),
            _ => None,
        };
        out.extend(smaller.map(Change::Precision));
    }
    if model.family.is_decoder() && workload.gpus == 1 && workload.nodes == 1 {
        out.push(Change::Gpus(2));
    }
    out
}

/// The GPUs a ranking's picks choose among (what the answer calls "the N you could get"):
/// none when there is no pick.
pub fn choices(picks: &Picks) -> usize {
    picks.all().next().map_or(0, |p| p.among)
}

/// Whether the first pick runs the job only by keeping its weights and optimizer state in
/// CPU memory (`Sharding::Offloaded`): slower, and it needs a host with that much memory.
pub fn first_pick_offloaded(items: &[Ranked], picks: &Picks) -> bool {
    picks.all().next().is_some_and(|pick| {
        items.iter().any(|r| {
            r.gpu.id == pick.id
                && r.placement
                    .as_ref()
                    .is_some_and(|p| matches!(p.sharding, Sharding::Offloaded { .. }))
        })
    })
}

/// The alternatives when the first pick runs only offloaded to CPU memory, each change
/// whose first pick holds the job in GPU memory; otherwise, when the picks choose among at
/// most `FEW_CANDIDATES` GPUs, each change whose picks choose among more. Each comes with
/// the first GPU of its ranking. Otherwise, buying, a second GPU whose entry pick costs at
/// most `CHEAPER_WITH_CHANGE` of the entry pick as entered (or any, when there is none),
/// with that entry pick.
fn alternatives<'c>(
    catalog: &'c Catalog,
    workload: &Workload,
    filters: &Filters,
    ranking: &Ranking<'c>,
) -> Vec<Alternative<'c>> {
    let as_entered = choices(&ranking.picks);
    let offloaded = first_pick_offloaded(&ranking.items, &ranking.picks);
    let cheaper = as_entered > FEW_CANDIDATES && !offloaded;
    // With no entry pick as entered (no card both usable and priced), any usable build
    // the change opens is worth naming.
    let bar = ranking
        .picks
        .entry
        .as_ref()
        .and_then(|p| p.cost_usd)
        .map_or(f64::INFINITY, |c| CHEAPER_WITH_CHANGE * c);
    if cheaper && workload.mode != Mode::Buy {
        return Vec::new();
    }
    changes(workload, &ranking.model)
        .into_iter()
        .filter(|change| !cheaper || matches!(change, Change::Gpus(_)))
        .filter_map(|change| {
            let mut changed = workload.clone();
            change.apply(&mut changed);
            let items = rank_items(catalog, &changed, filters).items;
            let picks = picks(&items, &changed, None);
            let among = choices(&picks);
            if cheaper {
                let entry = picks.entry?;
                (entry.cost_usd? <= bar).then_some(())?;
                let top = items.into_iter().find(|r| r.gpu.id == entry.id)?;
                return Some(Alternative {
                    change,
                    among,
                    top,
                    cheaper,
                });
            }
            let opens = if offloaded {
                among > 0 && !first_pick_offloaded(&items, &picks)
            } else {
                among > as_entered
            };
            let top = items
                .into_iter()
                .next()
                .filter(|r| is_candidate(r, &changed))?;
            opens.then_some(Alternative {
                change,
                among,
                top,
                cheaper,
            })
        })
        .collect()
}

pub fn resolve_model(catalog: &Catalog, workload: &Workload) -> Model {
    match &workload.model {
        ModelChoice::Preset(id) => catalog
            .model(id)
            .cloned()
            .unwrap_or_else(|| Model::custom(8.0)),
        ModelChoice::Custom(p) => Model::custom(*p),
    }
}

fn passes_filters(gpu: &Gpu, filters: &Filters) -> bool {
    (filters.segments.is_empty() || filters.segments.contains(&gpu.segment))
        && (filters.vendors.is_empty() || filters.vendors.contains(&gpu.vendor))
        && match filters.condition {
            None | Some(Condition::Any) => true,
            Some(Condition::New) => gpu.availability.contains(&Availability::New),
            Some(Condition::Used) => gpu.availability.contains(&Availability::Used),
        }
}

/// Whether the tools this workload runs on are built for CUDA first, so that a
/// practitioner buys or rents NVIDIA unless they chose another stack: training and
/// fine-tuning (bitsandbytes, FlashAttention, Unsloth, DeepSpeed and most PEFT recipes are
/// written and tested on CUDA; Answer.AI built and benchmarked FSDP+QLoRA on RTX 3090s,
/// 4090s and A5000s, github.com/AnswerDotAI/fsdp_qlora), diffusion and other PyTorch
/// inference ("most software designed using CUDA", Tom's Hardware's Stable Diffusion GPU
/// benchmark, tomshardware.com/news/stable-diffusion-gpu-benchmarks), speech on
/// faster-whisper (CTranslate2, whose README names NVIDIA's libraries alone) and serving
/// through vLLM or Transformers. Local decoding through llama.cpp is not: its HIP, Metal,
/// SYCL and Vulkan backends are first-class, and Macs and Radeons are common answers for it
/// (`support`). A person who names an ecosystem (`eco`) has chosen: nothing is then off
/// their stack.
fn cuda_first(workload: &Workload, model: &Model, runtime: Runtime) -> bool {
    workload.eco == EcoRequirement::Any
        && (workload.task.is_training()
            || !model.family.is_decoder()
            || runtime != Runtime::LlamaCpp)
}

fn ecosystem_ok(gpu: &Gpu, eco: EcoRequirement) -> bool {
    match eco {
        EcoRequirement::Any => true,
        EcoRequirement::Cuda => gpu.has_ecosystem(Ecosystem::Cuda),
        EcoRequirement::Rocm => gpu.has_ecosystem(Ecosystem::Rocm),
        EcoRequirement::Xla => gpu.has_ecosystem(Ecosystem::Xla),
    }
}

/// Whether the purchase is a server: 4 GPUs or more per node, several nodes, or the person
/// asked for datacenter parts.
fn server_sized(workload: &Workload, filters: &Filters) -> bool {
    workload.gpus >= SERVER_GPUS
        || workload.nodes > 1
        || filters.segments.contains(&Segment::Datacenter)
}

/// Whether the person allows the unit a part is sold in: a server's GPUs are in one node;
/// a rack's (NVL72) span its trays, counted in all.
fn holds_unit(workload: &Workload, unit: u32) -> bool {
    if unit <= 8 {
        workload.gpus.max(1) >= unit
    } else {
        workload.max_gpus() >= unit
    }
}

/// The next, larger run a purchase should have room for: training a sequence model,
/// twice the context (a longer context is what a fine-tune grows into, and no micro-batch
/// makes one sequence smaller); otherwise twice the batch (more images per step, more
/// users served at once).
fn grown(workload: &Workload, model: &Model) -> Workload {
    match workload.seq_for(model) {
        Some(seq) if workload.task.is_training() && model.family.is_sequence_model() => Workload {
            seq: Some(seq.saturating_mul(2)),
            ..workload.clone()
        },
        _ => Workload {
            batch: workload.batch.saturating_mul(2),
            ..workload.clone()
        },
    }
}

/// Hard constraints that do not depend on memory or price.
fn excluded(
    gpu: &Gpu,
    workload: &Workload,
    filters: &Filters,
    software: Software,
) -> Option<WhyNot> {
    if !passes_filters(gpu, filters) {
        return Some(WhyNot::Filtered);
    }
    if !ecosystem_ok(gpu, workload.eco) {
        return Some(WhyNot::Ecosystem {
            required: workload.eco,
        });
    }
    // PyTorch's floor binds only what runs on PyTorch: llama.cpp and whisper.cpp build
    // their own CUDA kernels down to Pascal and Maxwell (`support`).
    if let Some(cc) = gpu
        .compute_capability()
        .filter(|_| software.needs_pytorch())
    {
        if cc < MIN_PYTORCH_CC {
            return Some(WhyNot::PytorchDropped {
                compute_capability: gpu.compute_capability.clone().unwrap_or_default(),
            });
        }
    }
    if workload.task == Task::Qlora
        && support::level(gpu, Library::Bitsandbytes) == Level::Unsupported
    {
        return Some(WhyNot::QloraUnsupported);
    }
    match workload.mode {
        Mode::Buy if !gpu.is_buyable() => Some(WhyNot::NotForSale),
        Mode::Buy if !holds_unit(workload, gpu.sold_in()) => Some(WhyNot::ServerOnly {
            gpus: gpu.sold_in(),
        }),
        Mode::Rent if !gpu.is_rentable() => Some(WhyNot::NotRentable),
        Mode::Rent
            if workload.nodes > 1
                && !gpu.form_factor.is_server_part()
                && gpu.segment != Segment::Cloud =>
        {
            Some(WhyNot::NoClusterRental)
        }
        _ => None,
    }
}

fn link_kind(link: Link, nodes: u32) -> LinkKind {
    if nodes > 1 {
        return LinkKind::Network;
    }
    match link {
        Link::Direct(_) => LinkKind::Direct,
        Link::Pcie { p2p: true, .. } => LinkKind::Pcie,
        _ => LinkKind::PcieNoP2p,
    }
}

/// The cost figure the score compares: lower is better.
fn cost_figure(cost: &Cost, workload: &Workload) -> Option<f64> {
    match (workload.task, workload.mode) {
        (Task::Infer, Mode::Buy) => cost.hardware_usd,
        (Task::Infer, Mode::Rent) => cost.per_million_usd.map(|r| r.mid),
        (_, Mode::Buy) => cost
            .hardware_usd
            .map(|h| h + cost.energy_usd.map_or(0.0, |e| e.mid)),
        (_, Mode::Rent) => cost.job_usd.map(|r| r.mid),
    }
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

fn rank_items<'c>(catalog: &'c Catalog, workload: &Workload, filters: &Filters) -> Ranking<'c> {
    let model = resolve_model(catalog, workload);
    let sized = memory::size_model(&model, workload);
    let single = memory::breakdown(&sized, workload, Sharding::Single);
    let buying = workload.mode == Mode::Buy;
    let grown_sized = memory::size_model(&model, &grown(workload, &model));
    let workstation = buying && !server_sized(workload, filters);
    let mut items: Vec<Ranked<'c>> = Vec::with_capacity(catalog.gpus.len());

    for gpu in &catalog.gpus {
        let mut reasons = Vec::new();
        // A whole machine (Apple, DGX Spark, Ryzen AI Max) is one GPU per node: more of
        // them are more nodes, which only `nodes` asks for.
        let mut own = (gpu.form_factor == FormFactor::Soc && workload.gpus > 1).then(|| Workload {
            gpus: 1,
            ..workload.clone()
        });
        // What the libraries the workload uses allow here (`support`).
        let mut library_reasons = Vec::new();
        let mut runtime_unsupported = None;
        let mut runtime = workload.runtime();
        if deploy::serves_language_model(workload, model.family) {
            // The runtime follows the deployment (`deploy::serving_runtime`): how many of
            // these GPUs hold the model, what they are, bought or rented.
            let base = own.as_ref().unwrap_or(workload);
            let gpus = estimate::place(gpu, &sized, base).map_or(1, |p| p.gpus);
            let wanted = workload
                .runtime
                .unwrap_or_else(|| deploy::serving_runtime(base, gpu, gpus));
            match support::serving_runtime(gpu, wanted, workload.runtime.is_some()) {
                Err(runtime) => runtime_unsupported = Some(WhyNot::RuntimeUnsupported { runtime }),
                Ok(used) => {
                    runtime = used;
                    let mut w = own.take().unwrap_or_else(|| workload.clone());
                    w.runtime = Some(used);
                    own = Some(w);
                    if used != wanted {
                        library_reasons.push(Reason::RuntimeFallback { wanted, used });
                    }
                    if let Some(library) = Library::of_runtime(used) {
                        if support::level(gpu, library) == Level::Experimental {
                            library_reasons.push(Reason::LibraryExperimental { library });
                        }
                    }
                }
            }
        }
        let software = deploy::software(workload, model.family, gpu, runtime);
        let cuda_first = cuda_first(workload, &model, runtime);
        let mut why_not = excluded(gpu, workload, filters, software).or(runtime_unsupported);
        if workload.task == Task::Qlora
            && support::level(gpu, Library::Bitsandbytes) == Level::Experimental
        {
            library_reasons.push(Reason::LibraryExperimental {
                library: Library::Bitsandbytes,
            });
        }
        // Where the link names no runtime, say when faster-whisper is not what serves it.
        if workload.task == Task::Infer
            && model.family == crate::model::Family::Speech
            && workload.runtime.is_none()
        {
            match support::speech_fallback(gpu) {
                Some(f) => library_reasons.push(Reason::SpeechFallback {
                    runtime: f.library,
                    slowdown: f.slowdown,
                }),
                None if support::level(gpu, Library::Ctranslate2) == Level::Experimental => {
                    library_reasons.push(Reason::LibraryExperimental {
                        library: Library::Ctranslate2,
                    })
                }
                None => {}
            }
        }
        let workload = own.as_ref().unwrap_or(workload);
        // A Mac that holds the job only once its GPU memory limit is raised still runs it,
        // with that limit said on the card (`Reason::UnifiedMemory`).
        let mut usable = estimate::usable_memory(gpu);
        let placement = match estimate::place(gpu, &sized, workload) {
            Ok(p) => Some(p),
            Err(need) => match estimate::raised_memory(gpu).and_then(|limit| {
                estimate::place_within(gpu, &sized, workload, limit)
                    .ok()
                    .map(|p| (p, limit))
            }) {
                Some((p, limit)) => {
                    usable = limit;
                    Some(p)
                }
                None => {
                    why_not = why_not.or(Some(WhyNot::Memory {
                        need_bytes: need.total(),
                        have_bytes: usable,
                        gpus: workload.max_gpus(),
                    }));
                    None
                }
            },
        };
        let speed = placement
            .as_ref()
            .and_then(|p| estimate::speed(gpu, &sized, workload, p));
        let gpus_used = speed
            .as_ref()
            .map(|s| s.gpus_used)
            .or(placement.as_ref().map(|p| p.gpus))
            .unwrap_or(1);
        let purchase = match workload.your_price(&gpu.id) {
            Some(usd) => Some(crate::gpu::Purchase {
                usd,
                kind: PriceKind::Yours,
                date: None,
            }),
            None => gpu.purchase(filters.condition == Some(Condition::Used)),
        };
        // A module is bought as its whole server (or rack): the price is every server the
        // job needs, whatever share of their GPUs it uses.
        let unit = gpu.sold_in();
        let bought = if buying && unit > 1 {
            gpus_used.div_ceil(unit) * unit
        } else {
            gpus_used
        };
        let host = gpu.price.server_includes_host.unwrap_or(true);
        if buying
            && (bought > gpus_used || !host)
            && !matches!(why_not, Some(WhyNot::ServerOnly { .. }))
        {
            reasons.push(Reason::ServerUnit {
                unit,
                servers: bought / unit,
                used: gpus_used,
                host,
            });
        }
        let cost = estimate::cost(
            gpu,
            workload,
            speed.as_ref(),
            gpus_used,
            bought,
            purchase.as_ref(),
        );
        if let Some(budget) = workload.budget_usd {
            match cost.budget_figure {
                Some(figure) if figure > budget => {
                    why_not = why_not.or(Some(WhyNot::Budget {
                        cost_usd: figure,
                        budget_usd: budget,
                    }))
                }
                Some(_) => {}
                None => why_not = why_not.or(Some(WhyNot::PriceUnknown)),
            }
        }
        if let Some(p) = &placement {
            let spare = usable - p.memory.total();
            if p.gpus > 1 {
                reasons.push(Reason::NeedsGpus {
                    gpus: p.gpus,
                    sharding: p.sharding,
                    in_turn: workload.task == Task::Infer
                        && model.family.is_decoder()
                        && !workload.runtime().tensor_parallel(),
                });
            }
            let offload = matches!(p.sharding, Sharding::Offloaded { .. });
            if p.savers.any() || offload {
                let host_bytes = if offload {
                    estimate::offloaded_bytes(&sized, &p.planned(workload), p.gpus)
                        * f64::from(p.gpus.min(workload.gpus.max(1)))
                } else {
                    0.0
                };
                reasons.push(Reason::MemorySavers {
                    checkpointing: p.savers.checkpointing,
                    micro_batch: p.savers.micro_batch,
                    offload,
                    host_bytes,
                    pipeline_offload: p.savers.pipeline_offload,
                    outpaces_holders: false,
                });
            }
            if spare < TIGHT_FRACTION * usable {
                reasons.push(Reason::TightFit { spare_bytes: spare });
            } else {
                reasons.push(Reason::Fits { spare_bytes: spare });
            }
            if buying {
                // Room means the larger run fits in the same layout without being tight
                // itself. A placement that already needed memory savers has none; the need
                // stated is the larger run's as entered, without them (sharded on the same
                // GPUs but not offloaded, so it reads as more than the card holds).
                let larger = grown(workload, &model);
                let layout = match p.sharding {
                    Sharding::Offloaded { gpus } => Sharding::FullySharded { gpus },
                    other => other,
                };
                let need = memory::breakdown(&grown_sized, &larger, layout).total();
                let saving = p.savers.any() || matches!(p.sharding, Sharding::Offloaded { .. });
                if saving || usable - need < TIGHT_FRACTION * usable {
                    let entered = speed.as_ref().map(|s| s.throughput.mid);
                    // A larger run that would only fit tightly does not count as run.
                    let speed_share = estimate::place_within(gpu, &grown_sized, &larger, usable)
                        .ok()
                        .filter(|p| usable - p.memory.total() >= TIGHT_FRACTION * usable)
                        .and_then(|p| estimate::speed(gpu, &grown_sized, &larger, &p))
                        .zip(entered)
                        .map_or(0.0, |(s, e)| (s.throughput.mid / e).clamp(0.0, 1.0));
                    reasons.push(Reason::NoRoomToGrow {
                        need_bytes: need,
                        speed_share,
                    });
                }
            }
        }
        if workstation && gpu.passively_cooled() {
            reasons.push(Reason::PassiveCooling);
        }
        // Buying more than two cards: a build no ordinary desktop holds as it is.
        if let (true, Some(w)) = (buying && gpu.form_factor == FormFactor::Pcie, gpu.tdp_w) {
            if gpus_used > 2 {
                reasons.push(Reason::MultiCardBuild {
                    cards: gpus_used,
                    watts: w * f64::from(gpus_used),
                });
            }
        }
        match &speed {
            Some(s) => {
                reasons.push(Reason::Bound(s.bound));
                match s.rate {
                    RateKind::TensorFallback {
                        wanted: Precision::Bf16,
                        used: Precision::Fp16,
                    } => reasons.push(Reason::NoBf16UsesFp16),
                    RateKind::TensorFallback { wanted, used } => {
                        reasons.push(Reason::PrecisionFallback { wanted, used })
                    }
                    // INT8 on the CUDA cores (DP4A): no INT8 tensor cores, Volta included.
                    RateKind::Shader(Precision::Int8) => reasons.push(Reason::NoTensorCores),
                    // NVIDIA has had tensor cores since Volta (compute capability 7.0).
                    RateKind::Shader(_)
                        if workload.precision != Precision::Fp32
                            && gpu.compute_capability().is_some_and(|cc| cc >= (7, 0)) =>
                    {
                        reasons.push(Reason::TensorRateUnknown)
                    }
                    RateKind::Shader(_) if workload.precision != Precision::Fp32 => {
                        reasons.push(Reason::NoTensorCores)
                    }
                    _ => {}
                }
                if let (true, Link::Assumed(gbs)) = (s.gpus_used > 1, s.link) {
                    reasons.push(Reason::LinkAssumed { gbs });
                }
                if s.gpus_used > 1 && workload.task.is_training() {
                    reasons.push(Reason::Scaling {
                        gpus: s.gpus_used,
                        efficiency: s.scaling_efficiency,
                        link: link_kind(s.link, workload.nodes),
                    });
                }
            }
            None if placement.is_some() => reasons.push(Reason::SpeedUnknown),
            None => {}
        }
        if gpu
            .compute_capability()
            .is_some_and(|cc| cc >= MIN_PYTORCH_CC && cc < DEFAULT_PYTORCH_CC)
        {
            reasons.push(Reason::LegacyPytorchOnly);
        }
        if gpu.has_ecosystem(Ecosystem::Rocm) && !gpu.has_ecosystem(Ecosystem::Cuda) {
            reasons.push(Reason::RocmNotCuda);
        }
        if gpu.has_ecosystem(Ecosystem::Oneapi) && !gpu.has_ecosystem(Ecosystem::Cuda) {
            reasons.push(Reason::OneApiNotCuda);
        }
        if gpu.has_ecosystem(Ecosystem::Xla) && !gpu.has_ecosystem(Ecosystem::Cuda) {
            reasons.push(Reason::XlaNotCuda);
        }
        if gpu.has_ecosystem(Ecosystem::Synapseai) && !gpu.has_ecosystem(Ecosystem::Cuda) {
            reasons.push(Reason::SynapseAiNotCuda);
        }
        if gpu.vendor == Vendor::Apple && cuda_first {
            reasons.push(Reason::MetalNotCuda);
        }
        reasons.extend(library_reasons);
        if gpu.vendor == Vendor::Apple {
            reasons.push(Reason::UnifiedMemory {
                usable_fraction: usable / (gpu.memory_gb * crate::gpu::GIB),
                raised: usable > estimate::usable_memory(gpu),
            });
        }
        if estimate::lacks_flash_attention_2(gpu)
            && workload.task != Task::Infer
            && sized.transformer.is_some()
        {
            reasons.push(Reason::NoFlashAttention2);
        }
        match workload.mode {
            Mode::Buy
                if cost
                    .purchase
                    .as_ref()
                    .is_some_and(|p| p.kind == PriceKind::Used) =>
            {
                reasons.push(Reason::UsedOnly)
            }
            Mode::Rent if gpu.segment == Segment::Cloud => reasons.push(Reason::CloudOnly),
            _ => {}
        }
        if workload.mode == Mode::Rent && gpu.price.cloud_marketplace {
            reasons.push(Reason::MarketplacePrice);
        }
        if cost_figure(&cost, workload).is_none() {
            reasons.push(Reason::PriceUnknown);
        }
        items.push(Ranked {
            gpu,
            memory: placement.as_ref().map_or(single, |p| p.memory),
            usable_bytes: usable,
            placement,
            speed,
            cost,
            score: None,
            reasons,
            why_not,
            off_stack: cuda_first && !gpu.has_ecosystem(Ecosystem::Cuda),
            software,
        });
    }

    score(&mut items, workload);
    let best_speed = items
        .iter()
        .filter(|r| is_candidate(r, workload))
        .filter_map(|r| r.speed.as_ref().map(|s| s.throughput.mid))
        .fold(0.0_f64, f64::max);
    for r in items.iter_mut().filter(|r| is_candidate(r, workload)) {
        if let (Some(s), true) = (&r.speed, best_speed > 0.0) {
            let ratio = s.throughput.mid / best_speed;
            r.reasons.insert(0, Reason::SpeedVsBest { ratio });
        }
    }
    mark_offload_that_outpaces(&mut items, workload);
    // Work someone waits on: a scored candidate slower than a usable pace for each user
    // (`per_user_pace`) ranks after those that keep it, when any that suits does: sixteen
    // users at 6 tokens/s each is no answer for sixteen users, however cheap the box, nor
    // two minutes per image for someone iterating on prompts.
    let reading = items.iter().any(|r| {
        is_candidate(r, workload) && suits(r, workload) && keeps_a_usable_pace(r, workload)
    });
    let slow = |r: &Ranked| reading && is_candidate(r, workload) && too_slow_to_use(r, workload);
    items.sort_by(|a, b| {
        b.fits()
            .cmp(&a.fits())
            .then(suits(a, workload).cmp(&suits(b, workload)).reverse())
            .then(runs_as_asked(b, workload).cmp(&runs_as_asked(a, workload)))
            .then(b.score.is_some().cmp(&a.score.is_some()))
            .then(slow(a).cmp(&slow(b)))
            .then(b.score.unwrap_or(0.0).total_cmp(&a.score.unwrap_or(0.0)))
            .then(a.gpu.id.cmp(&b.gpu.id))
    });
    let context = deploy::serves_language_model(workload, model.family).then(|| Context {
        tokens: workload.context_for(&model),
        sequences: workload.batch.max(1),
        assumed: workload.seq.is_none(),
    });
    Ranking {
        model,
        memory: single,
        context,
        items,
        picks: Picks::default(),
        alternatives: Vec::new(),
    }
}

/// Balance weighs speed against cost with diminishing returns on speed: the score is
/// `speed^w · (1/cost)^(1−w)`, both relative to the candidates, with `w` this weight. A
/// card 1.5× as fast is then preferred while it costs less than `1.5^(w/(1−w))` ≈ 1.84×
/// as much, and a card 3× as fast while it costs less than 5.2×: the way a practitioner
/// pays more for speed, but less and less per step. `w = 0.5` would be performance per
/// dollar (the value pick's order) and `w = 1` pure speed; 0.6 is neither.
pub const BALANCE_SPEED_WEIGHT: f64 = 0.6;
/// Buying, balance also judges a card on the next, larger run (`grown`): a purchase
/// serves more than the job entered, so the run as entered and the larger one count this
/// much each, and a card without room for the larger run keeps the entered run's share
/// and as much of the larger run's as it still reaches on it (`growth`). Practitioners'
/// "buy the most memory you can afford" in one number; renting has no next run and keeps
/// the whole score.
pub const GROWTH_SHARE: f64 = 0.5;
/// The entry pick must reach at least this share of the value pick's speed, and not be a
/// tight fit: cheaper cards that are much slower, or full to the brim, are not a start.
pub const ENTRY_MIN_SPEED_SHARE: f64 = 0.2;
/// Speeds within this share of the fastest count as the fastest for the flagship pick,
/// which goes to the cheapest of them. The engine does not resolve smaller leads: of the
/// calibration test's 20 cross-card throughput ratios, 8 land within ±5% of the published
/// ratio and 13 within ±10%. So an RTX PRO 6000 Blackwell 4% ahead of an RTX 5090 training
/// a ResNet-50 is no reason to pay three times as much, nor a GB200 3% ahead of a B200 to
/// rent a superchip, nor an RTX 4080 0.25% ahead of an RTX 3080 on Whisper's per-step costs.
pub const FLAGSHIP_TIE: f64 = 0.05;
/// Renting, job costs within this share of the least money count as the least, and the
/// value pick is the fastest of them: a job's cost is its hours at an hourly rate, and the
/// engine resolves hours between cards no finer than about this (13 of the calibration's
/// 20 cross-card ratios land within ±10%).
pub const RENT_VALUE_TIE: f64 = 0.10;

/// Serving a language model, the entry pick must also decode at least this many tokens
/// per second for each user of the batch: faster than people read (200–300 words a minute
/// is about 4–7 tokens/s).
pub const USABLE_DECODE_TOKENS_S: f64 = 10.0;
/// Generating images, the longest wait per image the picks call usable: about a minute is
/// what a practitioner iterates with (SDXL at 1024 px in about 60 s on an M1 Max, "the fast
/// workhorse"), where FLUX.1 [dev] at about 313 s on the same Mac is not something one
/// iterates on (jocheojeda.com, "Local AI Studio, Part 3", 2026-06).
pub const USABLE_SECONDS_PER_IMAGE: f64 = 60.0;
/// Buying for a training job, renting is "clearly cheaper" when the job's rental costs
/// under this share of the cheapest purchase that runs it.
pub const RENT_CLEARLY_CHEAPER: f64 = 0.25;

/// A candidate is a GPU the person could choose: it fits, and what it costs in this mode
/// (its price, rental or job cost) is known. A fitting GPU without a known cost is listed
/// after the candidates, unscored: "the fastest" never names a card nobody can price.
fn is_candidate(r: &Ranked, workload: &Workload) -> bool {
    r.fits() && cost_figure(&r.cost, workload).is_some_and(|c| c > 0.0)
}

/// Scores candidates 0–1 by the priority: speed against the fastest candidate, cost
/// against the cheapest, or the balance of the two (`BALANCE_SPEED_WEIGHT`). Candidates
/// are the GPUs that fit this workload in this mode (and its budget and filters), so
/// scores are relative to what the person could choose. GPUs without the needed figure
/// get no score and rank after.
fn score(items: &mut [Ranked], workload: &Workload) {
    let speed_of = |r: &Ranked| r.speed.as_ref().map(|s| s.throughput.mid);
    let best_speed = items
        .iter()
        .filter(|r| is_candidate(r, workload))
        .filter_map(speed_of)
        .fold(0.0_f64, f64::max);
    let cheapest = items
        .iter()
        .filter(|r| is_candidate(r, workload))
        .filter_map(|r| cost_figure(&r.cost, workload))
        .fold(f64::INFINITY, f64::min);
    for r in items.iter_mut().filter(|r| is_candidate(r, workload)) {
        let s = speed_of(r)
            .filter(|_| best_speed > 0.0)
            .map(|s| s / best_speed);
        let c = cost_figure(&r.cost, workload)
            .filter(|c| *c > 0.0 && cheapest.is_finite())
            .map(|c| cheapest / c);
        r.score = match workload.priority {
            Priority::Speed => s,
            Priority::Cost => c,
            Priority::Balance => match (s, balance_cost(r, workload).or(c)) {
                (Some(s), Some(c)) => {
                    let g = growth(r);
                    Some(s.powf(BALANCE_SPEED_WEIGHT) * c.powf(1.0 - BALANCE_SPEED_WEIGHT) * g)
                }
                _ => None,
            },
        };
    }
}

/// The cost side of the balance under a stated budget: the budget's share of the budget
/// plus this GPU's cost, `B / (B + cost)`, in the budget's own terms (purchase price, job
/// cost or a month of rent). Without a budget the balance compares each cost with the
/// cheapest candidate's, which makes a $358 card seven times better on cost than a $2,527
/// one; a person who said they would spend $5,000 weighs the two as 0.93 against 0.66,
/// and buys the faster card unless the cheaper one is nearly as fast.
fn balance_cost(r: &Ranked, workload: &Workload) -> Option<f64> {
    let budget = workload.budget_usd.filter(|b| *b > 0.0)?;
    let cost = r.cost.budget_figure.filter(|c| *c > 0.0)?;
    Some(budget / (budget + cost))
}

/// Whether the GPU runs the job as asked. Training at a precision the GPU has no units for (BF16 on Volta or Turing, which fall
/// back to FP16 with loss scaling) is what practitioners avoid: the QLoRA authors report
/// FP16 runs diverging where BF16 ones do not. Such GPUs still fit and are listed, after
/// every candidate that runs the job as asked, and picks come from the latter first.
pub fn runs_as_asked(r: &Ranked, workload: &Workload) -> bool {
    // PyTorch's wheels matter to what runs on them (vLLM, Transformers, diffusers,
    // training), not to llama.cpp.
    let pytorch = r.software.needs_pytorch();
    !r.reasons.iter().any(|x| match x {
        Reason::NoBf16UsesFp16 | Reason::PrecisionFallback { .. } => workload.task.is_training(),
        Reason::LegacyPytorchOnly => pytorch,
        _ => false,
    })
}

/// Whether the GPU suits the person as well as runs the job: it runs it as asked
/// (`runs_as_asked`), on the stack the workload's tools are built for (`cuda_first`),
/// holds the job in its own memory (offloading to CPU memory is the last resort
/// practitioners take when no GPU they can get holds it), and, bought for a workstation,
/// needs no added cooling. GPUs that do not suit still fit and are listed, after every one
/// that does, and picks come from those that suit first. When no GPU suits, the order is
/// the score's alone.
pub fn suits(r: &Ranked, workload: &Workload) -> bool {
    !r.off_stack && suits_on_its_stack(r, workload)
}

/// `suits` but for the stack: how the non-NVIDIA pick chooses among the cards off it.
fn suits_on_its_stack(r: &Ranked, workload: &Workload) -> bool {
    runs_as_asked(r, workload)
        && !r.reasons.iter().any(|x| {
            matches!(
                x,
                Reason::PassiveCooling
                    | Reason::MemorySavers {
                        offload: true,
                        outpaces_holders: false,
                        ..
                    }
            )
        })
}

/// The reason a GPU that fits is listed after those that suit (`suits`): the setting it
/// runs with instead of the one asked (`runs_as_asked`), the stack it runs off CUDA, a
/// datacenter card's passive cooling, or the CPU offload it needs. `None` when it suits.
/// A short list of the cards below the top ones names this beside each, so their order
/// reads as the ranking's rule rather than at random.
pub fn set_back_by<'r>(r: &'r Ranked, workload: &Workload) -> Option<&'r Reason> {
    if suits(r, workload) {
        return None;
    }
    let pytorch = r.software.needs_pytorch();
    let not_as_asked = |x: &&Reason| match x {
        Reason::NoBf16UsesFp16 | Reason::PrecisionFallback { .. } => workload.task.is_training(),
        Reason::LegacyPytorchOnly => pytorch,
        _ => false,
    };
    let off_stack = |x: &&Reason| {
        r.off_stack
            && matches!(
                x,
                Reason::RocmNotCuda
                    | Reason::OneApiNotCuda
                    | Reason::XlaNotCuda
                    | Reason::SynapseAiNotCuda
                    | Reason::MetalNotCuda
            )
    };
    let in_the_way = |x: &&Reason| {
        matches!(
            x,
            Reason::PassiveCooling
                | Reason::MemorySavers {
                    offload: true,
                    outpaces_holders: false,
                    ..
                }
        )
    };
    let reasons = &r.reasons;
    reasons
        .iter()
        .find(not_as_asked)
        .or_else(|| reasons.iter().find(off_stack))
        .or_else(|| reasons.iter().find(in_the_way))
}

/// The GPUs ruled out (but not filtered away by the view), grouped by the kind of reason
/// (`WhyNot::code`), in `WhyNot::nearness` order: a list that says each reason once with
/// the GPUs it rules out, in the ranking's order within a group.
pub fn ruled_out_by_reason<'r, 'c>(items: &'r [Ranked<'c>]) -> Vec<Vec<&'r Ranked<'c>>> {
    // Eleven passes over the list rather than a sort: a sort of references would be one
    // more copy of the standard library's sort in the page's WebAssembly.
    (0..=WhyNot::FARTHEST)
        .map(|near| {
            items
                .iter()
                .filter(|i| i.why_not.as_ref().and_then(WhyNot::nearness) == Some(near))
                .collect::<Vec<_>>()
        })
        .filter(|group| !group.is_empty())
        .collect()
}

fn offloads(r: &Ranked) -> bool {
    matches!(
        r.placement.as_ref().map(|p| p.sharding),
        Some(Sharding::Offloaded { .. })
    )
}

/// Sets `outpaces_holders` on the offloaded candidates faster than every candidate that
/// holds the job in its own memory and suits otherwise; bought, they must also still run
/// the larger run (a pair of 10 GB cards that only just holds the offloaded layers is no
/// answer).
fn mark_offload_that_outpaces(items: &mut [Ranked], workload: &Workload) {
    let speed = |r: &Ranked| r.speed.as_ref().map_or(0.0, |s| s.throughput.mid);
    let mut held = 0.0_f64;
    for r in items.iter() {
        if is_candidate(r, workload) && !offloads(r) && suits(r, workload) {
            held = held.max(speed(r));
        }
    }
    for r in items.iter_mut() {
        // Bought, the card must still run the larger run (`growth` above its entered share).
        let pays = is_candidate(r, workload)
            && offloads(r)
            && speed(r) > held
            && (workload.mode != Mode::Buy || growth(r) > 1.0 - GROWTH_SHARE);
        for x in r.reasons.iter_mut() {
            if let Reason::MemorySavers {
                outpaces_holders, ..
            } = x
            {
                *outpaces_holders = pays;
            }
        }
    }
}

/// The pace each user of the batch gets from this GPU, against the pace that makes it
/// usable, for work someone waits on: a language model's tokens per second against
/// `USABLE_DECODE_TOKENS_S`, images per second against one in `USABLE_SECONDS_PER_IMAGE`,
/// and seconds of audio per second against real time (a stream transcribed slower than
/// it plays never catches up). `None` for training and batch work, or an unknown speed.
fn per_user_pace(r: &Ranked, workload: &Workload) -> Option<(f64, f64)> {
    let s = r.speed.as_ref()?;
    let floor = match s.unit {
        estimate::Unit::Tokens => USABLE_DECODE_TOKENS_S,
        estimate::Unit::Images => 1.0 / USABLE_SECONDS_PER_IMAGE,
        estimate::Unit::AudioSeconds => 1.0,
        _ => return None,
    };
    (workload.task == Task::Infer)
        .then(|| (s.throughput.mid / f64::from(workload.batch.max(1)), floor))
}

/// The pace each user of a served batch gets (`per_user_pace`): the throughput shared by
/// the users at once, for the cards and picks to say beside the whole.
pub fn per_user(r: &Ranked, workload: &Workload) -> Option<f64> {
    per_user_pace(r, workload).map(|(pace, _)| pace)
}

/// Whether a GPU gives each user a usable pace (`per_user_pace`).
pub fn keeps_a_usable_pace(r: &Ranked, workload: &Workload) -> bool {
    per_user_pace(r, workload).is_some_and(|(pace, floor)| pace >= floor)
}

/// Whether a GPU is slower than a usable pace for each user (`per_user_pace`).
pub fn too_slow_to_use(r: &Ranked, workload: &Workload) -> bool {
    per_user_pace(r, workload).is_some_and(|(pace, floor)| pace < floor)
}

fn has_room(r: &Ranked) -> bool {
    !r.reasons
        .iter()
        .any(|x| matches!(x, Reason::NoRoomToGrow { .. }))
}

/// The share of a purchase's score it keeps: all with room for a larger run; without,
/// `1 − GROWTH_SHARE` plus the larger run's share scaled by how fast the card still runs
/// it (`NoRoomToGrow::speed_share`). Only buying marks cards without room.
fn growth(r: &Ranked) -> f64 {
    r.reasons
        .iter()
        .find_map(|x| match x {
            Reason::NoRoomToGrow { speed_share, .. } => {
                Some(1.0 - GROWTH_SHARE * (1.0 - speed_share))
            }
            _ => None,
        })
        .unwrap_or(1.0)
}

/// Reasons worth repeating next to a pick: what could surprise the person later. A full
/// copy on each of the GPUs the person allowed (plain data parallel) is what they asked for.
pub fn is_caveat(reason: &Reason) -> bool {
    if let Reason::NeedsGpus {
        sharding: Sharding::Single,
        ..
    } = reason
    {
        return false;
    }
    matches!(
        reason,
        Reason::TightFit { .. }
            | Reason::NeedsGpus { .. }
            | Reason::NoBf16UsesFp16
            | Reason::PrecisionFallback { .. }
            | Reason::NoTensorCores
            | Reason::TensorRateUnknown
            | Reason::UnifiedMemory { .. }
            | Reason::UsedOnly
            | Reason::MarketplacePrice
            | Reason::NoFlashAttention2
            | Reason::OneApiNotCuda
            | Reason::XlaNotCuda
            | Reason::SynapseAiNotCuda
            | Reason::MetalNotCuda
            | Reason::LibraryExperimental { .. }
            | Reason::SpeechFallback { .. }
            | Reason::RocmNotCuda
            | Reason::LegacyPytorchOnly
            | Reason::PassiveCooling
            | Reason::NoRoomToGrow { .. }
            | Reason::MemorySavers { .. }
            | Reason::ServerUnit { .. }
            | Reason::MultiCardBuild { .. }
    )
}

/// The cheapest rental of a training job, for the rent-instead pick: (GPU id, job dollars).
type RentalJob = (String, f64);

fn picks(items: &[Ranked], workload: &Workload, rental: Option<RentalJob>) -> Picks {
    let fitting: Vec<&Ranked> = items.iter().filter(|r| r.fits()).collect();
    let suiting: Vec<&Ranked> = fitting
        .iter()
        .copied()
        .filter(|r| suits(r, workload))
        .collect();
    let as_asked: Vec<&Ranked> = fitting
        .iter()
        .copied()
        .filter(|r| runs_as_asked(r, workload))
        .collect();
    // When no candidate runs the job as asked (only precision fallbacks, legacy PyTorch
    // wheels), the flagship still names the fastest there is, but no card is recommended
    // as value or entry: the answer's one change (`Alternative`) is the advice.
    let last_resort = suiting.is_empty() && as_asked.is_empty();
    let candidates = [suiting, as_asked, fitting]
        .into_iter()
        .find(|c| !c.is_empty())
        .unwrap_or_default();
    let speed = |r: &Ranked| r.speed.as_ref().map(|s| s.throughput.mid);
    let cost = |r: &Ranked| cost_figure(&r.cost, workload).filter(|c| *c > 0.0);
    let best_speed = candidates
        .iter()
        .filter_map(|r| speed(r))
        .fold(0.0, f64::max);
    // Buying, value is speed per dollar of the purchase, for the run as entered: a card
    // without room for a larger run says so in its caveats rather than losing half its
    // value (two used 24 GB cards stay the value answer for a 70B at 4 bits). Renting, the
    // cost is already that of the work (the job, or a million tokens): dividing speed by
    // it again would count speed twice and make the dearest, fastest rental the "value".
    let value_of = |r: &Ranked| {
        let per_dollar = match workload.mode {
            Mode::Buy => speed(r)?,
            Mode::Rent => 1.0,
        };
        Some(per_dollar / cost(r)?)
    };
    let best_value = candidates
        .iter()
        .filter_map(|r| value_of(r))
        .fold(0.0, f64::max);
    let pick = |tier: Tier, r: &Ranked| Pick {
        tier,
        id: r.gpu.id.clone(),
        speed: speed(r),
        speed_share: speed(r)
            .filter(|_| best_speed > 0.0)
            .map(|s| s / best_speed),
        value_share: value_of(r)
            .filter(|_| best_value > 0.0)
            .map(|v| v / best_value),
        cost_usd: cost(r),
        among: candidates.len(),
        caveats: r.reasons.iter().filter(|x| is_caveat(x)).cloned().collect(),
        rent_job_usd: None,
        buy_usd: None,
    };
    // The best by a key; ties go to the lower id so that picks are stable.
    let best_by = |key: &dyn Fn(&Ranked) -> Option<f64>| {
        candidates
            .iter()
            .filter_map(|r| key(r).map(|k| (k, *r)))
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.gpu.id.cmp(&a.1.gpu.id)))
            .map(|(_, r)| r)
    };
    // A pick is something the person can get: its price (or rental) must be known. Of
    // those the estimate cannot tell from the fastest (`FLAGSHIP_TIE`), the cheapest.
    let fastest = best_by(&|r| {
        cost(r)?;
        speed(r)
    })
    .and_then(speed)
    .unwrap_or(0.0);
    let flagship = best_by(&|r| {
        let s = speed(r)?;
        (s >= (1.0 - FLAGSHIP_TIE) * fastest).then_some(())?;
        cost(r).map(|c| -c)
    });
    // Serving a batch, each of its users reads their own stream: the usable bar is per user
    // (`too_slow_to_use`).
    // The value pick is a card to rely on: the most speed per dollar among those that are
    // not a tight fit and reach a usable speed (the entry pick's bar, against the best
    // value's speed); when none does, among all.
    let tight = |r: &Ranked| {
        r.reasons
            .iter()
            .any(|x| matches!(x, Reason::TightFit { .. }))
    };
    // Serving a language model at a context the person did not set, a tight fit is that
    // of the assumed context, which a shorter one frees: a caveat for the value pick, not
    // a bar.
    let assumed_context = workload.task == Task::Infer && workload.seq.is_none();
    let tight_as_asked = |r: &Ranked| {
        let serving = r
            .speed
            .as_ref()
            .is_some_and(|s| s.unit == estimate::Unit::Tokens);
        tight(r) && !(assumed_context && serving)
    };
    let any_value = best_by(&value_of);
    let any_value_speed = any_value.and_then(speed).unwrap_or(0.0);
    let eligible = |r: &Ranked| {
        speed(r).is_some_and(|s| {
            s >= ENTRY_MIN_SPEED_SHARE * any_value_speed
                && !too_slow_to_use(r, workload)
                && !tight_as_asked(r)
        })
    };
    let value = best_by(&|r| {
        eligible(r).then_some(())?;
        value_of(r)
    })
    // Renting, the least money, unless a faster rental costs within `RENT_VALUE_TIE` of
    // it: eight B300s for two hours at $97 over eight RTX 4090s for 33 hours at $90.
    .map(|least| {
        let bar = cost(least).unwrap_or(f64::INFINITY) * (1.0 + RENT_VALUE_TIE);
        best_by(&|r| {
            (workload.mode == Mode::Rent && eligible(r) && cost(r)? <= bar).then_some(())?;
            speed(r)
        })
        .unwrap_or(least)
    })
    // When every usable card is a tight fit, the best of them; a card too slow to use is
    // no value at any price.
    .or(any_value.filter(|r| !too_slow_to_use(r, workload)));
    let value_speed = value.and_then(speed).unwrap_or(0.0);
    let value_cost = value.and_then(cost).unwrap_or(f64::INFINITY);
    // The entry pick starts the person off: usable speed, not a tight fit (a longer
    // sequence or fragmentation pushes it over), and no dearer than the value pick. Among
    // those, the cheapest with room for a larger run; when none has room, the cheapest. A
    // tight fit starts the person off only when every card that holds the run comfortably
    // costs over twice as much (1 / `GROWTH_SHARE`: what a purchase without room gives up):
    // 24 GB cards that hold a 16-bit LoRA of an 8B model tightly, not a $4,700 box.
    let usable = |r: &Ranked| {
        let Some(s) = speed(r) else { return false };
        s >= ENTRY_MIN_SPEED_SHARE * value_speed
            && !too_slow_to_use(r, workload)
            && cost(r).is_some_and(|c| c <= value_cost)
    };
    let comfortable = best_by(&|r| {
        (usable(r) && !tight(r) && has_room(r)).then_some(())?;
        cost(r).map(|c| -c)
    })
    .or_else(|| {
        best_by(&|r| {
            (usable(r) && !tight(r)).then_some(())?;
            cost(r).map(|c| -c)
        })
    });
    let cheapest_tight = best_by(&|r| {
        (usable(r) && tight(r)).then_some(())?;
        cost(r).map(|c| -c)
    });
    let entry = match (comfortable, cheapest_tight) {
        (Some(c), Some(t))
            if cost(c).unwrap_or(f64::INFINITY)
                > cost(t).unwrap_or(f64::INFINITY) / GROWTH_SHARE =>
        {
            Some(t)
        }
        (Some(c), _) => Some(c),
        (None, t) => t,
    };
    // The best card off NVIDIA, in ranking order, among those that suit but for their
    // stack (off CUDA is what this pick is for) when there are any, and, serving a language
    // model, that decode faster than people read (`USABLE_DECODE_TOKENS_S`) when any does.
    let non_nvidia = items
        .iter()
        .filter(|r| {
            r.fits() && r.gpu.vendor != Vendor::Nvidia && r.score.is_some() && speed(r).is_some()
        })
        .min_by_key(|r| {
            let slow = too_slow_to_use(r, workload);
            (!suits_on_its_stack(r, workload), slow)
        });
    let cheapest_purchase = candidates.iter().filter_map(|r| cost(r)).reduce(f64::min);
    let rent_instead = rental.and_then(|(id, job)| {
        let clearly = cheapest_purchase.is_none_or(|buy| job < RENT_CLEARLY_CHEAPER * buy);
        clearly.then(|| Pick {
            tier: Tier::RentInstead,
            id,
            speed: None,
            speed_share: None,
            value_share: None,
            cost_usd: Some(job),
            among: candidates.len(),
            caveats: Vec::new(),
            rent_job_usd: Some(job),
            buy_usd: cheapest_purchase,
        })
    });
    Picks {
        flagship: flagship.map(|r| pick(Tier::Flagship, r)),
        value: value.filter(|_| !last_resort).map(|r| pick(Tier::Value, r)),
        entry: entry.filter(|_| !last_resort).map(|r| pick(Tier::Entry, r)),
        non_nvidia: non_nvidia.map(|r| pick(Tier::NonNvidia, r)),
        rent_instead,
    }
}
