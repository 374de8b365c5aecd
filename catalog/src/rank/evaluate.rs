//! Each GPU against the workload: the filters, the stack and ecosystem, the unit it is
//! sold in, then placement, memory, speed and cost, and the reasons that go with them.

use super::*;

pub(super) fn passes_filters(gpu: &Gpu, filters: &Filters) -> bool {
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
pub(super) fn cuda_first(workload: &Workload, model: &Model, runtime: Runtime) -> bool {
    workload.eco == EcoRequirement::Any
        && (workload.task.is_training()
            || !model.family.is_decoder()
            || runtime != Runtime::LlamaCpp)
}

pub(super) fn ecosystem_ok(gpu: &Gpu, eco: EcoRequirement) -> bool {
    match eco {
        EcoRequirement::Any => true,
        EcoRequirement::Cuda => gpu.has_ecosystem(Ecosystem::Cuda),
        EcoRequirement::Rocm => gpu.has_ecosystem(Ecosystem::Rocm),
        EcoRequirement::Xla => gpu.has_ecosystem(Ecosystem::Xla),
    }
}

/// Whether the purchase is a server: 4 GPUs or more per node, several nodes, or the person
/// asked for datacenter parts.
pub(super) fn server_sized(workload: &Workload, filters: &Filters) -> bool {
    workload.gpus >= SERVER_GPUS
        || workload.nodes > 1
        || filters.segments.contains(&Segment::Datacenter)
}

/// Whether the person allows the unit a part is sold in: a server's GPUs are in one node;
/// a rack's (NVL72) span its trays, counted in all.
pub(super) fn holds_unit(workload: &Workload, unit: u32) -> bool {
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
pub(super) fn grown(workload: &Workload, model: &Model) -> Workload {
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

/// `prec=auto` where no GGUF type runs locally: a model whose own checkpoint is published
/// below 16 bits (`quant::checkpoint`: DeepSeek-V3's FP8, gpt-oss's MXFP4) is served in
/// that format on the GPUs that load it so (`deploy::loads_checkpoint`), as `vllm serve`
/// loads it: gpt-oss-120b on one 80 GB card, DeepSeek-V3 on eight H200s. Where the link
/// names llama.cpp, its ladder decides.
fn served_as_released(gpu: &Gpu, sized: &memory::Sized, workload: &Workload) -> Option<Precision> {
    let precision = quant::checkpoint(sized.model)?;
    if workload.runtime == Some(Runtime::LlamaCpp) || !deploy::loads_checkpoint(gpu, precision) {
        return None;
    }
    let released = Workload {
        precision,
        ..workload.clone()
    };
    estimate::place(gpu, sized, &released).ok()?;
    Some(precision)
}

/// `prec=auto` for a language model served by vLLM (`deploy::serving_runtime`: a batch of
/// users, a rental, a datacenter part, more GPUs than a home build) whose 16-bit checkpoint
/// does not fit on the GPUs allowed: FP8, quantized as vLLM loads it (`--quantization
/// fp8`), where the GPU multiplies FP8 (vLLM's FP8 W8A8 documentation), else 4-bit
/// weights from an AWQ or GPTQ checkpoint through vLLM's Marlin kernels, on NVIDIA GPUs of
/// compute capability 8.0 and later. So teams serve Llama 3.1 70B on one 80 or 96 GB card
/// and 405B on one node of eight H100s. Kurtic et al. ("Give Me BF16 or Give Me Death?",
/// arXiv 2411.02355, ACL 2025) evaluate both on the whole Llama 3.1 family: FP8 weights and
/// activations lose nothing measurable, 4-bit weights about what 8-bit integers do (1–3%).
/// A model that fits at 16 bits is served so.
fn served_quantized(gpu: &Gpu, sized: &memory::Sized, workload: &Workload) -> Option<Precision> {
    if !workload.auto_precision
        || workload.task != Task::Infer
        || matches!(workload.runtime, Some(r) if !r.tensor_parallel())
        || estimate::place(gpu, sized, workload).is_ok()
    {
        return None;
    }
    let four_bit =
        gpu.vendor == Vendor::Nvidia && gpu.compute_capability().is_some_and(|cc| cc >= (8, 0));
    [Precision::Fp8, Precision::Int4]
        .into_iter()
        .filter(|p| match p {
            Precision::Fp8 => deploy::loads_checkpoint(gpu, *p),
            _ => four_bit,
        })
        .find(|p| {
            let w = Workload {
                precision: *p,
                ..workload.clone()
            };
            estimate::place(gpu, sized, &w).is_ok_and(|placed| {
                w.runtime.is_some()
                    || deploy::serving_runtime(&w, gpu, placed.gpus) == Runtime::Vllm
            })
        })
}

/// `prec=auto` for an image model: its 16-bit weights where they fit (with the memory
/// savers the placement allows), else weights stored in 8 bits and multiplied in 16, as
/// people run FLUX.1 on 16 and 24 GB cards (ComfyUI's FP8 and GGUF Q8_0 files, diffusers'
/// layerwise casting; Hugging Face's comparison of diffusers' quantization backends finds
/// 8-bit FLUX.1 images hard to tell from 16-bit ones). Estimated as Q8_0: about 8 bits a
/// weight, the multiplications at the 16-bit rate.
fn eight_bit_images(gpu: &Gpu, sized: &memory::Sized, workload: &Workload) -> Option<Precision> {
    if !(workload.auto_precision
        && workload.task == Task::Infer
        && sized.model.family == crate::model::Family::Diffusion)
    {
        return None;
    }
    let fits = |w: &Workload| {
        estimate::place(gpu, sized, w).is_ok()
            || estimate::raised_memory(gpu)
                .is_some_and(|limit| estimate::place_within(gpu, sized, w, limit).is_ok())
    };
    if fits(workload) {
        return None;
    }
    let eight = Workload {
        precision: Precision::Q8_0,
        ..workload.clone()
    };
    fits(&eight).then_some(Precision::Q8_0)
}

/// The highest GGUF type of llama.cpp's ladder (`quant::LLAMACPP_LADDER`) at which the
/// model fits on this GPU with room to spare (not a `TightFit`: the runtime's buffers
/// grow with the prompt, and the desktop shares the card), else the highest at which it
/// fits at all, on the same side of the quality floor (`quant::below_floor`), and is
/// served by llama.cpp there (`deploy::serving_runtime`: one
/// or two cards, not a served deployment), with the GPUs the workload allows and a Mac's
/// raised memory limit. The ladder is what local runs download; a served deployment (a
/// batch of users, a rental, a datacenter part, a runtime named other than llama.cpp) runs
/// the precision asked, as released checkpoints are served. `None`: no rung runs locally
/// here.
/// `owned`: the GPUs of a box this card joins (`have=`), which holds the model with it
/// (`estimate::paired_usable`) and runs its layers in turn (`estimate::layer_split`).
fn rung(
    gpu: &Gpu,
    sized: &memory::Sized,
    workload: &Workload,
    owned: Option<&[&Gpu]>,
) -> Option<(Precision, bool)> {
    let paired = owned.map(|o| estimate::paired_usable(gpu, o));
    // A datacenter card that vLLM serves is served as released; one it does not (a Tesla
    // P40, a Radeon Instinct MI50) is a local llama.cpp card like any other.
    let datacenter = matches!(gpu.segment, Segment::Datacenter | Segment::Cloud)
        && support::level(gpu, Library::Vllm) != Level::Unsupported;
    match workload.runtime {
        Some(Runtime::LlamaCpp) => {}
        Some(_) => return None,
        None if datacenter => return None,
        None => {}
    }
    // Whether each rung runs here, and with room to spare (not a `TightFit`); with `pace`,
    // also whether each user decodes it slower than people read
    // (`score::USABLE_DECODE_TOKENS_S`; `false` for an unknown speed).
    let runs = |p: Precision, pace: bool| {
        let w = Workload {
            precision: p,
            ..workload.clone()
        };
        let placed = match paired {
            Some(usable) => (estimate::place_within(gpu, sized, &w, usable).ok()?, usable),
            None => estimate::place(gpu, sized, &w)
                .ok()
                .map(|placed| (placed, estimate::usable_memory(gpu)))
                .or_else(|| {
                    let limit = estimate::raised_memory(gpu)?;
                    Some((estimate::place_within(gpu, sized, &w, limit).ok()?, limit))
                })?,
        };
        let (placed, usable) = placed;
        if w.runtime.is_none() && deploy::serving_runtime(&w, gpu, placed.gpus) != Runtime::LlamaCpp
        {
            return None;
        }
        let slow = pace
            && match owned {
                Some(owned) => paired_speed(gpu, owned, sized, &w, &placed),
                None => estimate::speed(gpu, sized, &w, &placed),
            }
            .is_some_and(|s| {
                s.throughput.mid / f64::from(w.batch.max(1)) < score::USABLE_DECODE_TOKENS_S
            });
        Some((
            usable - placed.memory.total() >= TIGHT_FRACTION * usable,
            slow,
        ))
    };
    // Room to spare wins within each side of the quality floor, never across it: a card
    // that holds Q4_K_M tightly runs it rather than Q3_K_M with room. A rung that decodes
    // slower than people read gives way to the highest lower rung above the floor that does
    // not, or to the lowest above the floor, the fastest (a 70B on a 128 GB Mac or Ryzen AI
    // Max is run at Q4_K_M, not at the Q8_0 that fits at half its pace).
    let ladder = quant::ladder(sized.model);
    // `true` beside the type when it is lower than the one that fits.
    let paced = |p: Precision| {
        let mut chosen = p;
        for &q in ladder.iter().skip_while(|q| **q != p) {
            if quant::below_floor(q) {
                break;
            }
            match runs(q, true) {
                Some((_, false)) => return (q, q != p),
                Some(_) => chosen = q,
                None => {}
            }
        }
        (chosen, chosen != p)
    };
    let (mut above_tight, mut below) = (None, None);
    for &p in ladder {
        match runs(p, false).map(|(room, _)| room) {
            Some(true) if !quant::below_floor(p) => return Some(paced(p)),
            Some(false) if !quant::below_floor(p) => above_tight = above_tight.or(Some(p)),
            Some(room) => {
                below = match below {
                    Some((_, true)) => below,
                    Some((q, false)) if !room => Some((q, false)),
                    _ => Some((p, room)),
                }
            }
            None => {}
        }
    }
    if let Some(p) = above_tight {
        return Some(paced(p));
    }
    // Nothing at 4 bits or more fits on the GPU: with part of the model in system memory
    // (`estimate::offload`), the highest such type up to Q4_K_M
    // (`quant::OFFLOAD_CEILING`) that decodes faster than people read,
    // before a type below the floor that fits on the GPU; a slower offloaded run, at the
    // fastest such type (the last that offloads), only when nothing else runs.
    let offloaded = |p: Precision| {
        let w = Workload {
            precision: p,
            ..workload.clone()
        };
        let usable = paired.unwrap_or_else(|| estimate::usable_memory(gpu));
        let placed = offloads(gpu, &w).then(|| estimate::place_offloaded(sized, &w, usable))??;
        let speed = match owned {
            Some(owned) => paired_speed(gpu, owned, sized, &w, &placed)?,
            None => estimate::speed(gpu, sized, &w, &placed)?,
        };
        Some(speed.throughput.mid >= score::USABLE_DECODE_TOKENS_S)
    };
    let mut slow = None;
    for &p in ladder
        .iter()
        .filter(|p| !quant::below_floor(**p) && quant::runs_offloaded(sized.model, **p))
    {
        match offloaded(p) {
            Some(true) => return Some((p, false)),
            Some(false) => slow = Some(p),
            None => {}
        }
    }
    below
        .map(|(p, _)| p)
        .or(slow)
        .or_else(|| {
            ladder
                .iter()
                .copied()
                .find(|p| quant::below_floor(*p) && offloaded(*p).is_some())
        })
        .map(|p| (p, false))
}

/// Whether this card is ranked as an addition to the GPUs the person owns (`have=`,
/// `estimate::mixed`): a language model run locally by llama.cpp, on a card that goes in
/// the same box (not a Mac, DGX Spark or Ryzen AI Max, which is a computer of its own,
/// nor a server module) from the owned cards' vendor: a box that mixes vendors runs
/// llama.cpp through Vulkan or RPC, which the engine does not model (such cards are ruled
/// out, `WhyNot::CannotPair`). Whole machines and server modules are ranked alone, as
/// replacements.
pub(super) fn pairs(gpu: &Gpu, workload: &Workload, owned: &[&Gpu], family: Family) -> bool {
    !owned.is_empty()
        && owned.iter().all(|o| o.vendor == gpu.vendor)
        && deploy::serves_language_model(workload, family)
        && gpu.form_factor != FormFactor::Soc
        && !deploy::served_at_scale(workload, gpu)
        && matches!(workload.runtime, None | Some(Runtime::LlamaCpp))
}

/// A card's speed beside the owned ones: each card's speed with the whole placement,
/// added up by its share of the layers (`estimate::layer_split`). Offloaded, each card's
/// time carries the host's reads once per token, and the shares, summing to one, keep it
/// once.
fn paired_speed(
    gpu: &Gpu,
    owned: &[&Gpu],
    sized: &memory::Sized,
    workload: &Workload,
    placement: &Placement,
) -> Option<estimate::Speed> {
    let shares = estimate::layer_shares(gpu, owned);
    let parts: Option<Vec<_>> = std::iter::once(gpu)
        .chain(owned.iter().copied())
        .zip(shares)
        .map(|(g, share)| Some((estimate::speed(g, sized, workload, placement)?, share)))
        .collect();
    estimate::layer_split(&parts?)
}

/// Whether llama.cpp may run this model here with part of it in system memory
/// (`estimate::offload`): a language model served locally (one user or a few, bought,
/// llama.cpp by default or named) on a card with memory of its own. A Mac, a DGX Spark or
/// a Ryzen AI Max has only the one memory.
pub(super) fn offloads(gpu: &Gpu, workload: &Workload) -> bool {
    workload.task == Task::Infer
        && gpu.form_factor != FormFactor::Soc
        && !deploy::served_at_scale(workload, gpu)
        && matches!(workload.runtime, None | Some(Runtime::LlamaCpp))
}

/// The longest context that fits (`LongestContext`): the memory a placement needs grows
/// linearly with the context (the KV cache, the activations of a step and the overheads
/// counted on them), so its growth from this context to twice it, per token, stretches
/// into the memory left.
fn longest_context(
    model: &Model,
    workload: &Workload,
    placement: &Placement,
    usable: f64,
) -> Option<LongestContext> {
    let tokens = workload.context_for(model);
    let longer = Workload {
        seq: Some(tokens.saturating_mul(2)),
        ..workload.clone()
    };
    let sized = memory::size_model(model, &longer);
    // Offloaded, what grows is the part on the GPU under the same split.
    let grown = match placement.host {
        Some(h) => estimate::split(&sized, &longer, h.offload)?.0.total(),
        None => memory::breakdown(&sized, &longer, placement.sharding).total(),
    };
    let per_token = (grown - placement.memory.total()) / f64::from(tokens);
    let spare = usable - placement.memory.total();
    if per_token <= 0.0 || spare < 0.0 {
        return None;
    }
    let longest = f64::from(tokens) + spare / per_token;
    Some(match model.max_seq {
        Some(max) if longest >= f64::from(max) => LongestContext {
            tokens: max,
            whole: true,
        },
        _ => LongestContext {
            tokens: longest.min(f64::from(u32::MAX)) as u32,
            whole: false,
        },
    })
}

/// Hard constraints that do not depend on memory or price.
pub(super) fn excluded(
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

pub(super) fn link_kind(link: Link, nodes: u32) -> LinkKind {
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
pub(super) fn cost_figure(cost: &Cost, workload: &Workload) -> Option<f64> {
    match (workload.task, workload.mode) {
        (Task::Infer, Mode::Buy) => cost.hardware_usd,
        (Task::Infer, Mode::Rent) => cost.per_million_usd.map(|r| r.mid),
        (_, Mode::Buy) => cost
            .hardware_usd
            .map(|h| h + cost.energy_usd.map_or(0.0, |e| e.mid)),
        (_, Mode::Rent) => cost.job_usd.map(|r| r.mid),
    }
}

pub(super) fn rank_items<'c>(
    catalog: &'c Catalog,
    workload: &Workload,
    filters: &Filters,
) -> Ranking<'c> {
    let model = resolve_model(catalog, workload);
    // A link without a batch runs at its task's and model's usual one.
    let settled;
    let workload = if workload.batch_given {
        workload
    } else {
        settled = Workload {
            batch: workload.batch_for(model.family),
            batch_given: true,
            ..workload.clone()
        };
        &settled
    };
    let sized = memory::size_model(&model, workload);
    let single = memory::breakdown(&sized, workload, Sharding::Single);
    let buying = workload.mode == Mode::Buy;
    let grown_sized = memory::size_model(&model, &grown(workload, &model));
    let workstation = buying && !server_sized(workload, filters);
    let mut items: Vec<Ranked<'c>> = Vec::with_capacity(catalog.gpus.len());

    let laddered = workload.auto_precision && deploy::serves_language_model(workload, model.family);
    // The GPUs the person owns, which a card joins (`pairs`).
    let owned = owned_gpus(catalog, workload);
    // What the owned GPUs do on their own: an addition slower than that, on their memory
    // alone, buys memory rather than speed.
    let alone = owned_alone(catalog, workload);
    let alone_speed = alone
        .as_ref()
        .filter(|r| {
            r.fits()
                && r.placement.as_ref().is_some_and(|p| p.host.is_none())
                && !r.quantized().is_some_and(quant::below_floor)
        })
        .and_then(|r| r.speed.as_ref())
        .map(|s| s.throughput.mid);
    for gpu in &catalog.gpus {
        let mut reasons = Vec::new();
        let paired = pairs(gpu, workload, &owned, model.family)
            .then(|| estimate::paired_usable(gpu, &owned));
        // A whole machine (Apple, DGX Spark, Ryzen AI Max) is one GPU per node: more of
        // them are more nodes, which only `nodes` asks for. A card added to those the
        // person owns is one card.
        let one = (gpu.form_factor == FormFactor::Soc || paired.is_some()) && workload.gpus > 1;
        let mut own = one.then(|| Workload {
            gpus: 1,
            ..workload.clone()
        });
        // `prec=auto`: the highest rung of the ladder that fits here.
        let rung = laddered
            .then(|| {
                rung(
                    gpu,
                    &sized,
                    own.as_ref().unwrap_or(workload),
                    paired.map(|_| owned.as_slice()),
                )
            })
            .flatten();
        // The weights' format this card runs: the ladder's rung, else a served model's
        // released checkpoint, else a served model quantized where its 16 bits do not
        // fit, else an image model's 8-bit weights.
        let base = own.as_ref().unwrap_or(workload);
        let served = |rule: fn(&Gpu, &memory::Sized, &Workload) -> Option<Precision>| {
            laddered.then(|| rule(gpu, &sized, base)).flatten()
        };
        let chosen = match rung {
            Some((p, paced)) => Some((p, paced, Chosen::Ladder)),
            None => served(served_as_released)
                .map(|p| (p, false, Chosen::Released))
                .or_else(|| served(served_quantized).map(|p| (p, false, Chosen::Served)))
                .or_else(|| {
                    eight_bit_images(gpu, &sized, base).map(|p| (p, false, Chosen::Images))
                }),
        };
        if let Some((precision, paced, by)) = chosen {
            own = Some(Workload {
                precision,
                ..own.take().unwrap_or_else(|| workload.clone())
            });
            reasons.push(Reason::Quantized {
                precision,
                offloaded: false,
                paced,
                by,
            });
        }
        // What the libraries the workload uses allow here (`support`).
        let mut library_reasons = Vec::new();
        let mut runtime_unsupported = None;
        let mut runtime = workload.runtime();
        if deploy::serves_language_model(workload, model.family) {
            // The runtime follows the deployment (`deploy::serving_runtime`): how many of
            // these GPUs hold the model, what they are, bought or rented.
            let base = own.as_ref().unwrap_or(workload);
            let gpus = estimate::place(gpu, &sized, base).map_or(1, |p| p.gpus);
            let wanted = match (workload.runtime, paired) {
                (Some(named), _) => named,
                // Cards of different kinds split by layers: llama.cpp's way.
                (None, Some(_)) => Runtime::LlamaCpp,
                (None, None) => deploy::serving_runtime(base, gpu, gpus),
            };
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
        // A card of another vendor goes in no box with the owned ones.
        if let Some(o) = owned.first().filter(|o| {
            o.vendor != gpu.vendor
                && gpu.form_factor == FormFactor::Pcie
                && deploy::serves_language_model(workload, model.family)
        }) {
            why_not = why_not.or(Some(WhyNot::CannotPair { owned: o.vendor }));
        }
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
        let mut usable = paired.unwrap_or_else(|| estimate::usable_memory(gpu));
        let placed = match paired {
            Some(box_memory) => estimate::place_within(gpu, &sized, workload, box_memory),
            None => estimate::place(gpu, &sized, workload),
        };
        let placement = match placed {
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
                // llama.cpp runs it with part of the model in system memory, else it
                // does not fit.
                None => {
                    let offloaded = (offloads(gpu, workload) && model.family.is_decoder())
                        .then(|| estimate::place_offloaded(&sized, workload, usable))
                        .flatten();
                    if offloaded.is_none() {
                        why_not = why_not.or(Some(WhyNot::Memory {
                            need_bytes: need.total(),
                            have_bytes: usable,
                            gpus: workload.max_gpus(),
                        }));
                    }
                    offloaded
                }
            },
        };
        // Buying modules, the server comes whole: when the model takes fewer of its GPUs
        // than the person allows, copies of it on the others can serve the users between
        // them (vLLM's and SGLang's data-parallel serving, or one server process per
        // copy), each copy on the fewest GPUs that hold its share of the batch. The number
        // of copies that serves the batch fastest is the one a team would run: more
        // copies read the weights more often for fewer users each, so a decode bound by
        // its weights' reads gains only while each copy still batches enough users.
        let room = match &placement {
            Some(p)
                if buying
                    && workload.task == Task::Infer
                    && p.host.is_none()
                    && paired.is_none()
                    && p.gpus > 0 =>
            {
                gpu.sold_in().min(workload.max_gpus())
            }
            _ => 1,
        };
        let speed = placement
            .as_ref()
            .and_then(|p| estimate::speed(gpu, &sized, workload, p));
        let alone = speed.as_ref().map_or(0.0, |s| s.throughput.mid);
        // Each number of copies is tried on the fewest GPUs that hold its share and on as
        // many as one copy for the whole batch takes. A plain loop: iterator adapters
        // here cost the page's WebAssembly 1.4 KB more.
        let mut copy: Option<(Placement, estimate::Speed, u32)> = None;
        let mut fastest = alone;
        for copies in 2..=room.min(workload.batch) {
            let share = Workload {
                batch: workload.batch.div_ceil(copies),
                ..workload.clone()
            };
            let sized_copy = memory::size_model(&model, &share);
            for wide in [false, true] {
                let p = match (wide, &placement) {
                    (true, Some(w)) => Placement {
                        memory: memory::breakdown(&sized_copy, &share, w.sharding),
                        ..w.clone()
                    },
                    (true, None) => continue,
                    (false, _) => match estimate::place(gpu, &sized_copy, &share) {
                        Ok(p) => p,
                        Err(_) => continue,
                    },
                };
                if p.gpus * copies > room || p.host.is_some() {
                    continue;
                }
                if let Some(s) = estimate::speed(gpu, &sized_copy, &share, &p) {
                    let whole = s.throughput.mid * f64::from(copies);
                    if whole > fastest {
                        fastest = whole;
                        copy = Some((p, s, copies));
                    }
                }
            }
        }
        let (placement, speed, copies) = match copy {
            Some((p, mut s, copies)) => {
                s.throughput = s.throughput.scale(f64::from(copies));
                s.gpus_used *= copies;
                (Some(p), Some(s), copies)
            }
            None => (placement, speed, 1),
        };
        // Beside the owned cards, each runs its share of the layers in turn.
        let speed = match (paired, &placement) {
            (Some(_), Some(p)) => {
                reasons.push(Reason::PairedWith {
                    owned: workload.have.clone(),
                    share: estimate::layer_shares(gpu, &owned)[0],
                });
                let speed = speed.and_then(|_| paired_speed(gpu, &owned, &sized, workload, p));
                if let (Some(s), Some(tokens_s)) = (&speed, alone_speed) {
                    if s.throughput.mid < score::RENT_VALUE_TIE.mul_add(tokens_s, tokens_s) {
                        reasons.push(Reason::SlowerThanOwned { tokens_s });
                    }
                }
                speed
            }
            _ => speed,
        };
        // A bandwidth measured on the person's card, this one or one it is paired with.
        if let Some(m) = workload.measured.as_ref().filter(|m| {
            speed.is_some()
                && (m.gpu == gpu.id || (paired.is_some() && owned.iter().any(|o| o.id == m.gpu)))
        }) {
            if let Some(card) = std::iter::once(gpu)
                .chain(owned.iter().copied())
                .find(|g| g.id == m.gpu)
            {
                reasons.push(Reason::MeasuredBandwidth {
                    gpu: m.gpu.clone(),
                    gbs: m.gbs,
                    factor: estimate::measured_bandwidth_factor(card, workload),
                });
            }
        }
        if let Some(share) = placement.as_ref().and_then(|p| p.host) {
            for r in reasons.iter_mut() {
                if let Reason::Quantized { offloaded, .. } = r {
                    *offloaded = true;
                }
            }
            reasons.push(Reason::Offloaded {
                share,
                readable: speed
                    .as_ref()
                    .is_some_and(|s| s.throughput.mid >= score::USABLE_DECODE_TOKENS_S),
            });
        }
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
            && (bought > gpus_used || !host || copies > 1)
            && !matches!(why_not, Some(WhyNot::ServerOnly { .. }))
        {
            reasons.push(Reason::ServerUnit {
                unit,
                servers: bought / unit,
                used: gpus_used,
                host,
                copies,
            });
        }
        let cost = estimate::cost(
            gpu,
            workload,
            speed.as_ref(),
            gpus_used,
            bought,
            purchase.as_ref(),
            model.params(),
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
            let spare = usable - p.held_bytes();
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
            if p.savers.any() || offload || p.paged_optimizer > 0.0 {
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
                    paged_bytes: p.paged_optimizer,
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
                let needed = memory::breakdown(&grown_sized, &larger, layout);
                // Paged, the state gives way to the rest (`Placement::held_bytes`).
                let need = if p.paged_optimizer > 0.0 {
                    needed.without_optimizer().total()
                } else {
                    needed.total()
                };
                let saving = p.savers.any() || matches!(p.sharding, Sharding::Offloaded { .. });
                if saving || usable - need < TIGHT_FRACTION * usable {
                    let entered = speed.as_ref().map(|s| s.throughput.mid);
                    // A larger run that would only fit tightly does not count as run.
                    let speed_share = estimate::place_within(gpu, &grown_sized, &larger, usable)
                        .ok()
                        .filter(|p| usable - p.held_bytes() >= TIGHT_FRACTION * usable)
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
        let longest_context = placement
            .as_ref()
            .filter(|_| deploy::serves_language_model(workload, model.family))
            .and_then(|p| longest_context(&model, workload, p, usable));
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
            precision: workload.precision,
            longest_context,
        });
    }

    score(&mut items, workload);
    mark_offload_that_outpaces(&mut items, workload);
    // Each candidate's speed beside the fastest of the GPUs the picks choose among
    // (`picks::choosing`), so "N% of the fastest candidate's speed" and the flagship speak
    // of the same GPUs: a card at weights below 4 bits, which the picks pass over, is not
    // the fastest candidate of a card at Q4_K_M.
    let choice: Vec<(&str, f64)> = super::picks::choosing(&items, workload)
        .0
        .into_iter()
        .filter(|r| is_candidate(r, workload))
        .filter_map(|r| Some((r.gpu.id.as_str(), r.speed.as_ref()?.throughput.mid)))
        .collect();
    let best_speed = choice.iter().map(|(_, s)| *s).fold(0.0_f64, f64::max);
    let chosen: Vec<String> = choice.iter().map(|(id, _)| id.to_string()).collect();
    for r in items.iter_mut().filter(|r| chosen.contains(&r.gpu.id)) {
        if let (Some(s), true) = (&r.speed, best_speed > 0.0) {
            let ratio = s.throughput.mid / best_speed;
            r.reasons.insert(0, Reason::SpeedVsBest { ratio });
        }
    }
    // A card that runs the job slower than a usable pace for each user says so, first
    // among its caveats: a box at 3 tokens/s for each of 32 users is no answer for them,
    // whatever it costs.
    for r in items.iter_mut().filter(|r| r.fits()) {
        let Some(unit) = r.speed.as_ref().map(|s| s.unit) else {
            continue;
        };
        if let Some((pace, floor)) = per_user_pace(r, workload).filter(|(p, f)| p < f) {
            let users = workload.batch.max(1);
            let slow = Reason::TooSlowToUse {
                pace,
                floor,
                unit,
                users,
            };
            r.reasons.insert(0, slow);
        }
        if let Some(hours) = job_too_long(r, workload) {
            r.reasons.insert(0, Reason::JobTooLong { hours });
        }
    }
    // Work someone waits on: a scored candidate slower than a usable pace for each user
    // (`per_user_pace`) ranks after those that keep it, when any that suits does: sixteen
    // users at 6 tokens/s each is no answer for sixteen users, however cheap the box, nor
    // two minutes per image for someone iterating on prompts.
    let reading = items.iter().any(|r| {
        is_candidate(r, workload) && suits(r, workload) && keeps_a_usable_pace(r, workload)
    });
    let slow = |r: &Ranked| reading && is_candidate(r, workload) && too_slow_to_use(r, workload);
    // Of the cards that run the job only with another setting, those that need nothing
    // added (`score::in_the_way`) come first, as the picks choose (`picks::choosing`).
    let in_place =
        |r: &Ranked| !runs_as_asked(r, workload) && !r.reasons.iter().any(score::in_the_way);
    items.sort_by(|a, b| {
        b.fits()
            .cmp(&a.fits())
            .then(suits(a, workload).cmp(&suits(b, workload)).reverse())
            .then(runs_as_asked(b, workload).cmp(&runs_as_asked(a, workload)))
            .then(in_place(b).cmp(&in_place(a)))
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
        owned_alone: alone,
    }
}
