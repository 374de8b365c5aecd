//! The published measurement nearest a card: the rule that decides which row a card shows
//! beside its estimate, and when it shows none.
//!
//! A row is a candidate for a card when it measured the card's GPU (either GPU of a
//! ratio) doing the same kind of work: serving a language model (generation first, prompt
//! processing after), training, generating images, or transcribing speech. Memory rows
//! are not speed and are never shown as one, and a run with part of its model in system
//! memory is a candidate only for a card that runs so too. Of the candidates, the one with
//! the fewest and smallest differences wins (`Difference::weight`); among equals, the
//! card's own model before a sibling, then the latest. A row
//! with no difference matches exactly: same model, task, runtime or framework, precision,
//! GPU count, and a batch within a factor of `BATCH_TOLERANCE`. Another model of the same
//! family within ±25% of its size (and of the parameters a token uses) matches as well,
//! and the card names it.

use super::estimate::precision;
use super::*;
use crate::deploy::Software;
use crate::gpu::{Gpu, Vendor};
use crate::model::{Family, Model};
use crate::rank::Ranked;
use crate::workload::{Precision, Task, Workload};
use crate::Catalog;

/// A batch counts as the card's when it is within this factor of it.
pub const BATCH_TOLERANCE: f64 = 2.0;

/// How the measured run differs from the card's workload.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// Another model (its preset id), of another family or size.
    Model(String),
    /// Another model of the card's family and about its size (its preset id): as good as
    /// the card's own for this comparison, so not weighed, but named, so that a line which
    /// names other differences does not pass the run off as one of the card's model.
    Sibling(String),
    /// Another kind of training (the row's task token: `train`, `lora`, …).
    Task(String),
    /// Prompt processing, where the card shows generation.
    Prompt,
    /// Another runtime or framework (the row's token).
    Stack(String),
    /// llama.cpp on another backend than the vendor's own, which the estimate models
    /// (the row's token: `vulkan`).
    Backend(String),
    /// Another precision (the row's token).
    Precision(String),
    /// Another batch (the row's).
    Batch(f64),
    /// Another number of GPUs (the row's).
    Gpus(u32),
    /// Another number of denoising steps (the row's): its seconds per image are not the
    /// card's.
    Steps(u32),
    /// Another GPU (the row's id): shown only where no row measured the card's own GPU at
    /// this kind of work (`nearest_elsewhere`).
    Gpu(String),
}

impl Difference {
    /// How far this takes the row from the card: the model and the kind of work first.
    fn weight(&self) -> u32 {
        match self {
            Difference::Model(_) => 8,
            Difference::Task(_) | Difference::Prompt => 4,
            Difference::Gpus(_) => 3,
            Difference::Stack(_) => 2,
            Difference::Backend(_)
            | Difference::Precision(_)
            | Difference::Batch(_)
            | Difference::Steps(_) => 1,
            Difference::Sibling(_) => 0,
            Difference::Gpu(_) => 16,
        }
    }
}

/// The row a card shows, with the figure for the card's GPU.
#[derive(Debug, Clone, PartialEq)]
pub struct Nearest<'a> {
    pub row: &'a Measurement,
    /// The published figure for this GPU, in `unit`: a ratio row's own cell for it.
    pub value: f64,
    pub unit: &'a str,
    /// A ratio row: the GPU it was measured against (the estimate's error is the ratio's).
    pub versus: Option<&'a str>,
    /// Empty, or only a sibling model, when the row matches exactly.
    pub differs: Vec<Difference>,
    /// The engine's figure for the row's own run.
    pub comparison: Option<Comparison>,
}

impl Nearest<'_> {
    pub fn exact(&self) -> bool {
        self.differs
            .iter()
            .all(|d| matches!(d, Difference::Sibling(_)))
    }
}

/// The kinds that can stand beside a card of this workload, in order of preference.
pub fn kinds_for(task: Task, family: Family) -> &'static [Kind] {
    match (task.is_training(), family) {
        (true, _) => &[Kind::Training, Kind::TrainingRatio],
        (false, f) if f.is_decoder() => &[Kind::Decode, Kind::Prefill],
        (false, Family::Diffusion) => &[Kind::Diffusion],
        (false, Family::Speech) => &[Kind::Speech],
        _ => &[],
    }
}

/// Whether a row's model is the card's: the same preset, or the same family within ±25%
/// of its parameters and of the parameters a token uses (a 35B mixture of experts with
/// 3B active decodes nothing like a dense 32B).
fn same_model(catalog: &Catalog, row: &str, model: &Model) -> bool {
    let near = |a: f64, b: f64| (0.8..=1.25).contains(&(a / b));
    row == model.id
        || catalog.model(row).is_some_and(|m| {
            m.family == model.family
                && near(m.params_b, model.params_b)
                && near(m.active_params(), model.active_params())
        })
}

/// Whether a row ran part of its model from system memory (`--n-cpu-moe`, or fewer layers
/// on the GPU than the model has): a neighbour only for a card that does too, whose
/// speed the host's memory sets as much as the GPU's.
fn offloaded(catalog: &Catalog, row: &Measurement) -> bool {
    row.number("cpu_moe_layers").is_some()
        || row.number("gpu_layers").is_some_and(|on_gpu| {
            catalog
                .model(row.model())
                .and_then(|m| m.layers)
                .is_some_and(|of| on_gpu < f64::from(of))
        })
}

/// Whether a row's runtime or framework token is the software a card models.
fn same_stack(row: &str, software: Software) -> bool {
    Software::parse(row) == Some(software)
}

/// FP16 and BF16 runs (mixed precision either way) count as one precision, and so do a
/// width and its GGUF type (`Precision::same_as`).
fn same_precision(a: Precision, b: Precision) -> bool {
    a.same_as(b)
}

/// The measurement nearest a ranked card (its GPU, the GPUs its placement uses, the
/// software it models), `model` the workload's resolved model. `None`: no row measured
/// this GPU at this kind of work.
pub fn nearest<'a>(
    catalog: &Catalog,
    rows: &'a [Measurement],
    workload: &Workload,
    model: &Model,
    card: &Ranked,
) -> Option<Nearest<'a>> {
    let gpu = card.gpu.id.as_str();
    let kinds = kinds_for(workload.task, model.family);
    let card_offloaded = card.placement.as_ref().is_some_and(|p| p.host.is_some());
    let mut best: Option<((u32, bool), Nearest<'a>)> = None;
    for row in rows {
        let Some(kind) = row.kind().filter(|k| kinds.contains(k)) else {
            continue;
        };
        let (value, unit, versus) = if row.gpu() == gpu {
            let value = if kind == Kind::TrainingRatio {
                row.number("value_gpu")
            } else {
                row.value()
            };
            let versus = (kind == Kind::TrainingRatio).then(|| row.text("gpu_b"));
            (value, row.unit(), versus)
        } else if kind == Kind::TrainingRatio && row.text("gpu_b") == gpu {
            (row.number("value_gpu_b"), row.unit(), Some(row.gpu()))
        } else {
            continue;
        };
        let Some(value) = value else { continue };
        if offloaded(catalog, row) != card_offloaded {
            continue;
        }
        let unit = if kind == Kind::TrainingRatio {
            row.text("value_gpu_unit")
        } else {
            unit
        };
        let differs = differences(catalog, row, kind, workload, model, card);
        // Fewest differences, then the card's own model before a sibling, then the latest.
        let score = (
            differs.iter().map(Difference::weight).sum::<u32>(),
            differs.iter().any(|d| matches!(d, Difference::Sibling(_))),
        );
        let better = match &best {
            None => true,
            Some((s, b)) => score < *s || (score == *s && row.date() > b.row.date()),
        };
        if better {
            best = Some((
                score,
                Nearest {
                    row,
                    value,
                    unit,
                    versus,
                    differs,
                    comparison: None,
                },
            ));
        }
    }
    best.map(|(_, mut n)| {
        n.comparison = estimate(catalog, n.row);
        n
    })
}

/// How a row's run differs from the card's workload (the GPU aside).
fn differences(
    catalog: &Catalog,
    row: &Measurement,
    kind: Kind,
    workload: &Workload,
    model: &Model,
    card: &Ranked,
) -> Vec<Difference> {
    let gpus = card.placement.as_ref().map_or(1, |p| p.gpus);
    let card_task = workload.task.as_str();
    let mut differs = Vec::new();
    if !same_model(catalog, row.model(), model) {
        differs.push(Difference::Model(row.model().to_string()));
    } else if row.model() != model.id {
        differs.push(Difference::Sibling(row.model().to_string()));
    }
    if workload.task.is_training() {
        let task = match row.text("task") {
            "" => "train",
            t => t,
        };
        if task != card_task {
            differs.push(Difference::Task(task.to_string()));
        }
    }
    if kind == Kind::Prefill {
        differs.push(Difference::Prompt);
    }
    if !row.stack().is_empty() && !same_stack(row.stack(), card.software) {
        differs.push(Difference::Stack(row.stack().to_string()));
    }
    if let Some(backend) = other_backend(row, card.gpu) {
        differs.push(Difference::Backend(backend.to_string()));
    }
    let row_precision = row.text("precision");
    if !same_precision(precision(row_precision), card.precision) {
        differs.push(Difference::Precision(row_precision.to_string()));
    }
    if let Some(batch) = row
        .number("batch")
        .or((kind == Kind::Decode).then_some(1.0))
    {
        let ratio = batch / f64::from(workload.batch_for(model.family).max(1));
        if !(1.0 / BATCH_TOLERANCE..=BATCH_TOLERANCE).contains(&ratio) {
            differs.push(Difference::Batch(batch));
        }
    }
    if let Some(steps) = row.number("steps").filter(|_| kind == Kind::Diffusion) {
        if steps as u32 != workload.steps() {
            differs.push(Difference::Steps(steps as u32));
        }
    }
    if row.gpus() != gpus.max(1) {
        differs.push(Difference::Gpus(row.gpus()));
    }
    differs
}

/// A llama.cpp row's backend where it is not the vendor's own (CUDA on NVIDIA, SYCL on
/// Intel, HIP on AMD, Metal on Apple), which the estimate models: a Vulkan run of the
/// same card is another stack's figure.
fn other_backend<'r>(row: &'r Measurement, gpu: &Gpu) -> Option<&'r str> {
    let backend = row.text("backend");
    let own = match gpu.vendor {
        Vendor::Nvidia => "cuda",
        Vendor::Intel => "sycl",
        Vendor::Amd => "hip",
        Vendor::Apple => "metal",
        _ => return None,
    };
    (matches!(row.text("runtime"), "llamacpp" | "llamafile")
        && !backend.is_empty()
        && !backend.eq_ignore_ascii_case(own))
    .then_some(backend)
}

/// Where no row measured the card's GPU at this kind of work (`nearest` is `None`): the
/// same model measured on another GPU of its vendor, of its architecture where one was,
/// the nearest in memory bandwidth among the rows with the fewest other differences, so the card still shows a measured neighbour. Its
/// differences start with that GPU (`Difference::Gpu`); the comparison is the engine's
/// figure for the row's own run, on its own GPU.
pub fn nearest_elsewhere<'a>(
    catalog: &Catalog,
    rows: &'a [Measurement],
    workload: &Workload,
    model: &Model,
    card: &Ranked,
) -> Option<Nearest<'a>> {
    let kinds = kinds_for(workload.task, model.family);
    let bandwidth = |id: &str| catalog.gpu(id).and_then(|g| g.memory_bandwidth_gbs);
    let own = card.gpu.memory_bandwidth_gbs?;
    let card_offloaded = card.placement.as_ref().is_some_and(|p| p.host.is_some());
    let mut best: Option<((u32, u32, f64), Nearest<'a>)> = None;
    for row in rows {
        let Some(kind) = row
            .kind()
            .filter(|k| kinds.contains(k) && *k != Kind::TrainingRatio)
        else {
            continue;
        };
        if row.gpu() == card.gpu.id
            || !same_model(catalog, row.model(), model)
            || offloaded(catalog, row) != card_offloaded
        {
            continue;
        }
        let (Some(value), Some(theirs)) = (row.value(), bandwidth(row.gpu())) else {
            continue;
        };
        let mut differs = vec![Difference::Gpu(row.gpu().to_string())];
        differs.extend(differences(catalog, row, kind, workload, model, card));
        // Another vendor's run is another software stack (CUDA beside Metal or SYCL):
        // no neighbour. Fewest differences, then the card's own model before a sibling,
        // then the same architecture (its kernels),
        // then the nearest bandwidth, then the latest.
        let Some(other) = catalog
            .gpu(row.gpu())
            .filter(|g| g.vendor == card.gpu.vendor)
        else {
            continue;
        };
        let architecture = other.architecture != card.gpu.architecture;
        let sibling = differs.iter().any(|d| matches!(d, Difference::Sibling(_)));
        let key = (
            differs.iter().map(Difference::weight).sum::<u32>(),
            u32::from(architecture) + 2 * u32::from(sibling),
            (theirs / own).ln().abs(),
        );
        let better = match &best {
            None => true,
            Some(((s, arch, far), b)) => {
                (key.0, key.1) < (*s, *arch)
                    || ((key.0, key.1) == (*s, *arch) && key.2 < *far)
                    || ((key.0, key.1) == (*s, *arch) && key.2 == *far && row.date() > b.row.date())
            }
        };
        if better {
            best = Some((
                key,
                Nearest {
                    row,
                    value,
                    unit: row.unit(),
                    versus: None,
                    differs,
                    comparison: None,
                },
            ));
        }
    }
    best.map(|(_, mut n)| {
        n.comparison = estimate(catalog, n.row);
        n
    })
}
