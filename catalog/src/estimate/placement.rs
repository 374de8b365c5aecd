//! Where a job goes: the link between GPUs, the memory savers, and the placement
//! search over data parallel, FSDP, tensor parallel and offload.

use super::*;

/// The link gradients or activations cross between GPUs of one node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Link {
    /// NVLink, Infinity Fabric, ICI: one-direction GB/s per GPU.
    Direct(f64),
    /// PCIe, with peer-to-peer or through host memory.
    Pcie { gbs: f64, p2p: bool },
    /// The catalog has no figure for the link this part uses (TPU v3/v4 ICI): a stated
    /// conservative default, named on the card, never zero.
    Assumed(f64),
}

/// One-direction GB/s assumed for a link the catalog has no figure for: PCIe 3.0 x16,
/// the slowest link a current accelerator server gives a device.
pub const ASSUMED_LINK_GBS: f64 = 15.75;

impl Link {
    pub fn gbs(self) -> f64 {
        match self {
            Link::Direct(g) => g,
            // Without P2P every transfer is staged through host memory: half the rate.
            Link::Pcie { gbs, p2p } => {
                if p2p {
                    gbs
                } else {
                    gbs / 2.0
                }
            }
            Link::Assumed(g) => g,
        }
    }
}

pub fn link_for(gpu: &Gpu, gpus_per_node: u32) -> Link {
    if let Some(ic) = &gpu.interconnect {
        let fits = ic.max_gpus.is_none_or(|m| gpus_per_node <= m);
        if let (Some(bw), true) = (ic.bandwidth_gbs, fits) {
            return Link::Direct(bw / 2.0);
        }
    }
    match &gpu.pcie {
        // NVIDIA disables PCIe peer-to-peer on GeForce cards.
        Some(p) => Link::Pcie {
            gbs: p.bandwidth_gbs(),
            p2p: !(gpu.vendor == Vendor::Nvidia && gpu.segment == crate::gpu::Segment::Consumer),
        },
        None => Link::Assumed(ASSUMED_LINK_GBS),
    }
}

/// Memory savers a training placement turned on that the workload as entered did not ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Savers {
    /// Activation checkpointing (full recomputation): one more forward pass.
    pub checkpointing: bool,
    /// A smaller micro-batch per GPU, with gradient accumulation keeping the global batch:
    /// the largest halving of the batch that fits.
    pub micro_batch: Option<u32>,
    /// Diffusion inference: text encoders and VAE kept in CPU memory, moved in when used.
    pub pipeline_offload: bool,
}

impl Savers {
    pub fn any(self) -> bool {
        self.checkpointing || self.micro_batch.is_some() || self.pipeline_offload
    }

    /// The workload as it runs with these savers.
    pub fn apply(self, workload: &Workload) -> Workload {
        let mut w = workload.clone();
        if self.checkpointing {
            w.checkpointing = Some(true);
        }
        if let Some(micro) = self.micro_batch {
            w.batch = micro;
        }
        if self.pipeline_offload {
            w.pipeline_offload = true;
        }
        w
    }

    /// The savers a practitioner reaches for on one GPU, cheapest first: none; the
    /// micro-batch halved until it fits, down to 1, with gradient accumulation keeping the
    /// global batch (each sample costs the same; only the per-step weight traffic is spread
    /// over fewer samples); then activation checkpointing (a third more compute), at the
    /// batch as entered and again with the micro-batch halved. Steps that change nothing
    /// are left out; the last step holds every saver.
    fn steps(workload: &Workload) -> Vec<Savers> {
        let mut steps = Vec::new();
        let ckpt = [false, !workload.checkpointing()];
        for checkpointing in ckpt.into_iter().take(if ckpt[1] { 2 } else { 1 }) {
            let mut micro = workload.batch.max(1);
            while micro >= 1 {
                steps.push(Savers {
                    checkpointing,
                    micro_batch: (micro < workload.batch).then_some(micro),
                    pipeline_offload: false,
                });
                micro /= 2;
            }
        }
        steps
    }
}

/// How many GPUs the job needs and how it is split.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub gpus: u32,
    pub sharding: Sharding,
    pub memory: MemoryBreakdown,
    /// Training: the memory savers turned on to fit.
    pub savers: Savers,
    /// Serving a language model with llama.cpp: what waits in system memory (`offload`).
    pub host: Option<HostShare>,
    /// Training in torchtune on one GPU: bytes of its paged 8-bit optimizer state that the
    /// card has no room for and that wait in system memory (`paged_placement`).
    pub paged_optimizer: f64,
}

impl Placement {
    /// Bytes the job must have on each card. A paged optimizer state (torchtune on one
    /// GPU) takes whatever room the rest leaves and moves to system memory as the rest
    /// grows, so it is not counted: what the card must hold is the rest.
    pub fn held_bytes(&self) -> f64 {
        if self.paged_optimizer > 0.0 {
            self.memory.without_optimizer().total()
        } else {
            self.memory.total()
        }
    }

    /// The workload as this placement runs it.
    pub fn planned(&self, workload: &Workload) -> Workload {
        self.savers.apply(workload)
    }
}

/// Training layouts over `n` GPUs, least intrusive first: a full copy on each (plain data
/// parallel, DDP); FSDP over all `n`; FSDP with tensor parallelism inside a node (degree 2,
/// 4, 8... dividing the heads and at most the GPUs of a node). Pipeline parallelism is not tried: FSDP already shards all state
/// over the `n` GPUs, which is what pipeline stages would save, and tensor parallelism
/// splits activations; torchtitan trains 70B models in this FSDP × TP layout.
pub(super) fn training_layouts(sized: &Sized, n: u32, per_node: u32) -> Vec<Sharding> {
    if n <= 1 {
        return vec![Sharding::Single];
    }
    let mut out = vec![Sharding::Single, Sharding::FullySharded { gpus: n }];
    if let Some(t) = sized.transformer {
        let heads = t.heads as u32;
        let mut tensor = 2;
        while tensor <= per_node.min(n) {
            if heads % tensor == 0 {
                // Whole tensor-parallel groups only: GPUs left over sit idle.
                out.push(Sharding::FsdpTensor {
                    gpus: n - n % tensor,
                    tensor,
                });
            }
            tensor *= 2;
        }
    }
    out
}

/// How much faster a plan later in the search order (more savers, a more intrusive
/// layout) must be to be taken over an earlier one that fits. A few per cent is far inside
/// the spread of the engine's own estimate (`MFU_TENSOR`), and at that difference people
/// keep the simpler plan: a ResNet-50 or an 8B LoRA that fits on each GPU runs plain data
/// parallel (DDP), where sharding its small optimizer state with FSDP would save about 1%.
pub const SIMPLER_PLAN_MARGIN: f64 = 1.05;

/// Training runs data-parallel on every GPU the workload allows (`gpus` × `nodes`), so
/// the placement is searched on all of them: every combination of the savers
/// (`Savers::steps`) and the layouts (`training_layouts`) that fits, and of those the
/// plan `speed` puts fastest (recomputing activations on FSDP against tensor parallelism
/// of degree 64 over chip links, say), a later plan only when it beats the one kept by
/// `SIMPLER_PLAN_MARGIN`; without a speed, the first in that order, cheapest savers and
/// least intrusive layout first. Only when nothing fits,
/// the same with parameters and optimizer state offloaded to CPU memory (slower: `speed`
/// charges the PCIe traffic). `Err` carries the smallest per-GPU need found.
pub(super) fn place_training(
    gpu: &Gpu,
    sized: &Sized,
    workload: &Workload,
    usable: f64,
    layout: Option<Sharding>,
) -> Result<Placement, MemoryBreakdown> {
    let per_node = workload.gpus.max(1);
    let n = workload.max_gpus();
    let layouts = layout.map_or_else(|| training_layouts(sized, n, per_node), |l| vec![l]);
    let steps = Savers::steps(workload);
    let all = *steps.last().expect("at least the plain step");
    let mut smallest: Option<MemoryBreakdown> = None;
    // torchtune's one-GPU full fine-tune, when nothing fits whole: the first plan whose
    // optimizer state can page (`paged_placement`).
    let pages =
        workload.framework() == Framework::Torchtune && !workload.task.is_adapter() && n == 1;
    let paged: std::cell::RefCell<Option<Placement>> = std::cell::RefCell::new(None);
    let mut try_fit = |savers: Savers, sharding: Sharding| {
        let m = memory::breakdown(sized, &savers.apply(workload), sharding);
        if pages && sharding == Sharding::Single && paged.borrow().is_none() {
            *paged.borrow_mut() = paged_placement(m, savers, usable);
        }
        if m.total() <= usable {
            // One replica per GPU (data parallel) uses them all; a tensor-parallel layout
            // may leave some idle.
            let gpus = match sharding {
                Sharding::Single => n,
                _ => sharding.gpus(),
            };
            return Some(Placement {
                gpus,
                sharding,
                memory: m,
                savers,
                host: None,
                paged_optimizer: 0.0,
            });
        }
        if smallest.is_none_or(|s| m.total() < s.total()) {
            smallest = Some(m);
        }
        None
    };
    let mut best: Option<(Placement, f64)> = None;
    for &savers in &steps {
        for &sharding in &layouts {
            if let Some(p) = try_fit(savers, sharding) {
                let rate = speed(gpu, sized, workload, &p).map_or(0.0, |s| s.throughput.mid);
                if best
                    .as_ref()
                    .is_none_or(|(_, r)| rate > *r * SIMPLER_PLAN_MARGIN)
                {
                    best = Some((p, rate));
                }
            }
        }
    }
    if let Some((p, _)) = best {
        return Ok(p);
    }
    if let Some(p) = paged.take() {
        return Ok(p);
    }
    // The offloaded state must fit in the host's memory.
    if offloaded_bytes(sized, &all.apply(workload), n) <= HOST_MEMORY_PER_GPU_BYTES {
        if let Some(p) = try_fit(all, Sharding::Offloaded { gpus: n }) {
            return Ok(p);
        }
    }
    Err(smallest.expect("at least one layout tried"))
}

/// torchtune's full fine-tune on one GPU keeps its 8-bit AdamW state in bitsandbytes'
/// paged memory (CUDA unified memory), which moves to system memory when the card runs
/// out: the job fits when everything else does, with as much of the state on the card as
/// the rest leaves room for (`speed` charges the pages' trips over PCIe). torchtune's own
/// table runs Llama 3.1 8B this way on one 24 GB RTX 4090 (README at 0031bfb, "Memory and
/// training speed": 18.9 GiB peak, the paged state not counted by PyTorch's allocator).
/// `None` when the rest does not fit either. Arithmetic on the breakdown `place_training`
/// already made, so the search adds no call of its own.
fn paged_placement(mut m: MemoryBreakdown, savers: Savers, usable: f64) -> Option<Placement> {
    let state = m.optimizer;
    let rest = m.total() - state * (1.0 + memory::ALLOCATOR_SLACK);
    if rest > usable {
        return None;
    }
    // Not `f64::clamp`: its check on the bounds formats floats when it fails, which would
    // bring the standard library's float formatting into the page's WebAssembly.
    let resident = ((usable - rest) / (1.0 + memory::ALLOCATOR_SLACK))
        .max(0.0)
        .min(state);
    m.optimizer = resident;
    m.overhead -= (state - resident) * memory::ALLOCATOR_SLACK;
    Some(Placement {
        gpus: 1,
        sharding: Sharding::Single,
        memory: m,
        savers,
        host: None,
        paged_optimizer: state - resident,
    })
}

/// Bytes of weights, gradients and optimizer state each of `gpus` GPUs keeps in CPU memory
/// when the job is offloaded (FSDP `CPUOffload`, ZeRO-Offload).
pub fn offloaded_bytes(sized: &Sized, workload: &Workload, gpus: u32) -> f64 {
    let state = memory::breakdown(sized, workload, Sharding::FullySharded { gpus });
    state.weights + state.gradients + state.optimizer
}

/// The smallest group of this GPU (up to the workload's limit) that holds the job.
/// `Err` carries the per-GPU need at the largest group tried (training: the smallest need found).
pub fn place(gpu: &Gpu, sized: &Sized, workload: &Workload) -> Result<Placement, MemoryBreakdown> {
    place_within(gpu, sized, workload, usable_memory(gpu))
}

/// A training job on one given layout (a measurement that states its own, such as
/// torchtitan's FSDP 32 × tensor parallelism 8): the savers searched as `place` does.
pub fn place_training_on(
    gpu: &Gpu,
    sized: &Sized,
    workload: &Workload,
    layout: Sharding,
) -> Result<Placement, MemoryBreakdown> {
    place_training(gpu, sized, workload, usable_memory(gpu), Some(layout))
}

/// `place` with `usable` bytes per GPU instead of what the GPU gives by default (a Mac
/// whose GPU memory limit was raised: `raised_memory`).
pub fn place_within(
    gpu: &Gpu,
    sized: &Sized,
    workload: &Workload,
    usable: f64,
) -> Result<Placement, MemoryBreakdown> {
    if workload.task.is_training() {
        return place_training(gpu, sized, workload, usable, None);
    }
    let per_node = workload.gpus.max(1);
    let max = workload.max_gpus();
    let mut last = memory::breakdown(sized, workload, Sharding::Single);
    // A diffusion pipeline that does not fit whole first offloads its text encoders and
    // VAE (the FLUX.1 [dev] model card's own example does), before taking more GPUs.
    let mut options = vec![Savers::default()];
    if sized.model.pipeline_params_b.is_some() {
        options.push(Savers {
            pipeline_offload: true,
            ..Savers::default()
        });
    }
    let mut n = 1;
    while n <= max {
        for &savers in &options {
            let w = savers.apply(workload);
            if let Some(sharding) = memory::sharding_for(sized, &w, n, per_node) {
                let m = memory::breakdown(sized, &w, sharding);
                if m.total() <= usable {
                    return Ok(Placement {
                        gpus: n,
                        sharding,
                        memory: m,
                        savers,
                        host: None,
                        paged_optimizer: 0.0,
                    });
                }
                if !savers.any() {
                    last = m;
                }
            }
        }
        n *= 2;
    }
    Err(last)
}
