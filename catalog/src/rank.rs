//! Ranks every catalog GPU for a workload: fit, speed, cost, a score by the
//! chosen priority, and the reasons behind each place. Reasons are data; the UI
//! translates them.

use crate::data::Catalog;
use crate::estimate::{self, Bound, Cost, Link, Placement, RateKind, Speed};
use crate::gpu::{Availability, Ecosystem, Gpu, Segment, Vendor};
use crate::memory::{self, MemoryBreakdown, Sharding};
use crate::model::Model;
use crate::share::{Condition, Filters};
use crate::workload::{EcoRequirement, Mode, ModelChoice, Precision, Priority, Task, Workload};

/// Oldest CUDA compute capability current PyTorch wheels ship kernels for: the CUDA 12.8+
/// builds of PyTorch 2.8 dropped Maxwell and Pascal (sm_50–sm_61), and Kepler (K80, sm_37)
/// went years earlier.
pub const MIN_PYTORCH_CC: (u32, u32) = (7, 0);
/// A fit with less than this share of memory free is tight: fragmentation or a longer
/// sequence will push it over.
pub const TIGHT_FRACTION: f64 = 0.10;

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
    /// QLoRA needs bitsandbytes (CUDA, and ROCm builds); not on TPU, Apple or Gaudi.
    QloraUnsupported,
    /// Cannot be bought (cloud only) when buying.
    NotForSale,
    /// No cloud offering when renting.
    NotRentable,
    Memory {
        need_bytes: f64,
        have_bytes: f64,
        gpus: u32,
    },
    Budget {
        cost_usd: f64,
        budget_usd: f64,
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
    Scaling {
        gpus: u32,
        efficiency: f64,
        link: LinkKind,
    },
    UnifiedMemory {
        usable_fraction: f64,
    },
    UsedOnly,
    CloudOnly,
    PriceUnknown,
    SpeedUnknown,
    /// Older than the newest compute capability that FlashAttention 2 supports (Ampere, 8.0).
    NoFlashAttention2,
    /// Runs ROCm rather than CUDA: PyTorch works, CUDA-only libraries and kernels do not.
    RocmNotCuda,
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
    pub speed: Option<Speed>,
    pub cost: Cost,
    /// 0–1 by the chosen priority among candidates; None when excluded or unknown.
    pub score: Option<f64>,
    pub reasons: Vec<Reason>,
    pub why_not: Option<WhyNot>,
}

impl Ranked<'_> {
    pub fn fits(&self) -> bool {
        self.why_not.is_none()
    }
    pub fn gpus_needed(&self) -> Option<u32> {
        self.placement.as_ref().map(|p| p.gpus)
    }
}

/// The engine's verdicts in the seed article's tiers, computed, not hard-coded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picks {
    /// Fastest candidate.
    pub flagship: Option<String>,
    /// Most throughput per dollar.
    pub best_value: Option<String>,
    /// Cheapest candidate that runs the job.
    pub entry_level: Option<String>,
    /// Best-scoring candidate from a vendor other than NVIDIA.
    pub non_nvidia: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ranking<'c> {
    pub model: Model,
    /// Memory the workload needs on one GPU, as entered.
    pub memory: MemoryBreakdown,
    /// Candidates first, in rank order; then excluded GPUs.
    pub items: Vec<Ranked<'c>>,
    pub picks: Picks,
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

fn ecosystem_ok(gpu: &Gpu, eco: EcoRequirement) -> bool {
    match eco {
        EcoRequirement::Any => true,
        EcoRequirement::Cuda => gpu.has_ecosystem(Ecosystem::Cuda),
        EcoRequirement::Rocm => gpu.has_ecosystem(Ecosystem::Rocm),
        EcoRequirement::Xla => gpu.has_ecosystem(Ecosystem::Xla),
    }
}

/// Hard constraints that do not depend on memory or price.
fn excluded(gpu: &Gpu, workload: &Workload, filters: &Filters) -> Option<WhyNot> {
    if !passes_filters(gpu, filters) {
        return Some(WhyNot::Filtered);
    }
    if !ecosystem_ok(gpu, workload.eco) {
        return Some(WhyNot::Ecosystem {
            required: workload.eco,
        });
    }
    if let Some(cc) = gpu.compute_capability() {
        if cc < MIN_PYTORCH_CC {
            return Some(WhyNot::PytorchDropped {
                compute_capability: gpu.compute_capability.clone().unwrap_or_default(),
            });
        }
    }
    if workload.task == Task::Qlora
        && !(gpu.has_ecosystem(Ecosystem::Cuda) || gpu.has_ecosystem(Ecosystem::Rocm))
    {
        return Some(WhyNot::QloraUnsupported);
    }
    match workload.mode {
        Mode::Buy if !gpu.is_buyable() => Some(WhyNot::NotForSale),
        Mode::Rent if !gpu.is_rentable() => Some(WhyNot::NotRentable),
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

pub fn rank<'c>(catalog: &'c Catalog, workload: &Workload, filters: &Filters) -> Ranking<'c> {
    let model = resolve_model(catalog, workload);
    let sized = memory::size_model(&model, workload);
    let single = memory::breakdown(&sized, workload, Sharding::Single);
    let mut items: Vec<Ranked<'c>> = Vec::with_capacity(catalog.gpus.len());

    for gpu in &catalog.gpus {
        let mut reasons = Vec::new();
        let mut why_not = excluded(gpu, workload, filters);
        let placement = match estimate::place(gpu, &sized, workload) {
            Ok(p) => Some(p),
            Err(need) => {
                why_not = why_not.or(Some(WhyNot::Memory {
                    need_bytes: need.total(),
                    have_bytes: estimate::usable_memory(gpu),
                    gpus: workload.max_gpus(),
                }));
                None
            }
        };
        let speed = placement
            .as_ref()
            .and_then(|p| estimate::speed(gpu, &sized, workload, p));
        let gpus_used = speed
            .as_ref()
            .map(|s| s.gpus_used)
            .or(placement.as_ref().map(|p| p.gpus))
            .unwrap_or(1);
        let cost = estimate::cost(gpu, workload, speed.as_ref(), gpus_used);
        if let (Some(budget), Some(figure)) = (workload.budget_usd, cost.budget_figure) {
            if figure > budget {
                why_not = why_not.or(Some(WhyNot::Budget {
                    cost_usd: figure,
                    budget_usd: budget,
                }));
            }
        }
        if let Some(p) = &placement {
            let spare = estimate::usable_memory(gpu) - p.memory.total();
            if p.gpus > 1 {
                reasons.push(Reason::NeedsGpus {
                    gpus: p.gpus,
                    sharding: p.sharding,
                });
            }
            if spare < TIGHT_FRACTION * estimate::usable_memory(gpu) {
                reasons.push(Reason::TightFit { spare_bytes: spare });
            } else {
                reasons.push(Reason::Fits { spare_bytes: spare });
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
                    RateKind::Shader(_) if workload.precision != Precision::Fp32 => {
                        reasons.push(Reason::NoTensorCores)
                    }
                    _ => {}
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
        if gpu.has_ecosystem(Ecosystem::Rocm) && !gpu.has_ecosystem(Ecosystem::Cuda) {
            reasons.push(Reason::RocmNotCuda);
        }
        if gpu.vendor == Vendor::Apple {
            reasons.push(Reason::UnifiedMemory {
                usable_fraction: estimate::APPLE_USABLE_MEMORY,
            });
        }
        if gpu.vendor == Vendor::Nvidia
            && gpu.compute_capability().is_some_and(|cc| cc < (8, 0))
            && workload.task != Task::Infer
            && sized.transformer.is_some()
        {
            reasons.push(Reason::NoFlashAttention2);
        }
        match workload.mode {
            Mode::Buy if !gpu.availability.contains(&Availability::New) && gpu.is_buyable() => {
                reasons.push(Reason::UsedOnly)
            }
            Mode::Rent if gpu.segment == Segment::Cloud => reasons.push(Reason::CloudOnly),
            _ => {}
        }
        if cost_figure(&cost, workload).is_none() {
            reasons.push(Reason::PriceUnknown);
        }
        items.push(Ranked {
            gpu,
            memory: placement.as_ref().map_or(single, |p| p.memory),
            placement,
            speed,
            cost,
            score: None,
            reasons,
            why_not,
        });
    }

    score(&mut items, workload);
    let best_speed = items
        .iter()
        .filter(|r| r.fits())
        .filter_map(|r| r.speed.as_ref().map(|s| s.throughput.mid))
        .fold(0.0_f64, f64::max);
    for r in items.iter_mut().filter(|r| r.fits()) {
        if let (Some(s), true) = (&r.speed, best_speed > 0.0) {
            let ratio = s.throughput.mid / best_speed;
            r.reasons.insert(0, Reason::SpeedVsBest { ratio });
        }
    }
    items.sort_by(|a, b| {
        b.fits()
            .cmp(&a.fits())
            .then(b.score.is_some().cmp(&a.score.is_some()))
            .then(b.score.unwrap_or(0.0).total_cmp(&a.score.unwrap_or(0.0)))
            .then(a.gpu.id.cmp(&b.gpu.id))
    });
    let picks = picks(&items, workload);
    Ranking {
        model,
        memory: single,
        items,
        picks,
    }
}

/// Scores candidates 0–1: speed against the fastest, cost against the cheapest, or
/// their geometric mean. GPUs without the needed figure get no score and rank after.
fn score(items: &mut [Ranked], workload: &Workload) {
    let speed_of = |r: &Ranked| r.speed.as_ref().map(|s| s.throughput.mid);
    let best_speed = items
        .iter()
        .filter(|r| r.fits())
        .filter_map(speed_of)
        .fold(0.0_f64, f64::max);
    let cheapest = items
        .iter()
        .filter(|r| r.fits())
        .filter_map(|r| cost_figure(&r.cost, workload))
        .filter(|c| *c > 0.0)
        .fold(f64::INFINITY, f64::min);
    for r in items.iter_mut().filter(|r| r.fits()) {
        let s = speed_of(r)
            .filter(|_| best_speed > 0.0)
            .map(|s| s / best_speed);
        let c = cost_figure(&r.cost, workload)
            .filter(|c| *c > 0.0 && cheapest.is_finite())
            .map(|c| cheapest / c);
        r.score = match workload.priority {
            Priority::Speed => s,
            Priority::Cost => c,
            Priority::Balance => match (s, c) {
                (Some(s), Some(c)) => Some((s * c).sqrt()),
                _ => None,
            },
        };
    }
}

fn picks(items: &[Ranked], workload: &Workload) -> Picks {
    let candidates = || items.iter().filter(|r| r.fits());
    let by = |f: &dyn Fn(&Ranked) -> Option<f64>| {
        candidates()
            .filter_map(|r| f(r).map(|v| (v, r)))
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.gpu.id.cmp(&a.1.gpu.id)))
            .map(|(_, r)| r.gpu.id.clone())
    };
    let speed = |r: &Ranked| r.speed.as_ref().map(|s| s.throughput.mid);
    Picks {
        flagship: by(&speed),
        best_value: by(&|r: &Ranked| {
            let c = cost_figure(&r.cost, workload)?;
            (c > 0.0).then_some(speed(r)? / c)
        }),
        entry_level: by(&|r: &Ranked| {
            speed(r)?;
            cost_figure(&r.cost, workload).map(|c| -c)
        }),
        non_nvidia: candidates()
            .find(|r| r.gpu.vendor != Vendor::Nvidia && r.score.is_some())
            .map(|r| r.gpu.id.clone()),
    }
}
