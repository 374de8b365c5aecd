//! The changes worth a look beside the picks: the workload with one input changed (smaller
//! weights, a second GPU, an adapter), and what the changed workload's first pick is.

use super::*;

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

/// GPU counts offered for serving many users, past a second GPU: the tensor-parallel
/// groups a server holds.
pub const SERVER_GPUS: [u32; 2] = [4, 8];

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
pub(super) fn changes(workload: &Workload, model: &Model) -> Vec<Change> {
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
    // With the ladder, every GPU already runs the smallest format that fits.
    let laddered = workload.auto_precision && model.family.is_decoder();
    if workload.task == Task::Infer && workload.precision.weight_bits() >= 16.0 && !laddered {
        let smaller = match model.family {
            Family::Llm => Some(Precision::Int4),
            Family::Diffusion | Family::Video => Some(Precision::Fp8),
            Family::Speech => Some(Precision::Int8),
            _ => None,
        };
        out.extend(smaller.map(Change::Precision));
    }
    if model.family.is_decoder() && workload.nodes == 1 {
        if workload.gpus == 1 {
            out.push(Change::Gpus(2));
        }
        // Served to many users, a model is split over a server's GPUs (vLLM's
        // `--tensor-parallel-size 4`, the size its docs give for a 70B model): four, then
        // eight; the answer names the fewest that open up more GPUs (`alternatives`).
        if workload.batch >= crate::workload::VLLM_FROM_BATCH {
            out.extend(
                SERVER_GPUS
                    .into_iter()
                    .filter(|n| *n > workload.gpus)
                    .map(Change::Gpus),
            );
        }
    }
    // A language model run locally: more system memory for the part that does not fit on
    // the card (`estimate::offload`), as gaming PCs running gpt-oss-120b carry 64 GB and
    // those running Qwen3-235B 128.
    let local = workload.task == Task::Infer
        && model.family.is_decoder()
        && workload.mode == Mode::Buy
        && workload.batch < crate::workload::VLLM_FROM_BATCH
        && matches!(workload.runtime, None | Some(Runtime::LlamaCpp));
    if local {
        let more = [64, 128].into_iter().find(|gb| workload.host.ram_gb < *gb);
        out.extend(more.map(Change::Host));
    }
    out
}

/// The GPUs a ranking's picks choose among (what the answer calls "the N you could get"):
/// none when there is no pick.
pub fn choices(picks: &Picks) -> usize {
    picks.all().next().map_or(0, |p| p.among)
}

/// Whether the first pick runs the job only by keeping part of it in CPU memory: a
/// training job's weights and optimizer state (`Sharding::Offloaded`), or a model llama.cpp
/// serves with layers or experts in system memory (`Placement::host`). Slower, and it
/// needs a host with that much memory.
pub fn first_pick_offloaded(items: &[Ranked], picks: &Picks) -> bool {
    picks.all().next().is_some_and(|pick| {
        items.iter().any(|r| {
            r.gpu.id == pick.id
                && r.placement.as_ref().is_some_and(|p| {
                    matches!(p.sharding, Sharding::Offloaded { .. }) || p.host.is_some()
                })
        })
    })
}

/// Whether the first pick runs the model only in weights below 4 bits
/// (`quant::below_floor`), as when no card and system memory the person has hold it in
/// Q4_K_M: quality a practitioner would not accept where more memory buys it back.
pub fn first_pick_below_floor(items: &[Ranked], picks: &Picks) -> bool {
    picks.all().next().is_some_and(|pick| {
        items
            .iter()
            .any(|r| r.gpu.id == pick.id && r.quantized().is_some_and(quant::below_floor))
    })
}

/// The alternatives when the first pick runs the model only below 4 bits, each change
/// whose first pick runs it at 4 bits or more; when it runs only offloaded to CPU memory,
/// each change whose first pick holds the job in GPU memory; otherwise, when the picks
/// choose among at most `FEW_CANDIDATES` GPUs, each change whose picks choose among more.
/// Each comes with the first GPU of its ranking. Otherwise, buying, a second GPU whose
/// entry pick costs at most `CHEAPER_WITH_CHANGE` of the entry pick as entered (or any,
/// when there is none), with that entry pick.
pub(super) fn alternatives<'c>(
    catalog: &'c Catalog,
    workload: &Workload,
    filters: &Filters,
    ranking: &Ranking<'c>,
) -> Vec<Alternative<'c>> {
    let as_entered = choices(&ranking.picks);
    let offloaded = first_pick_offloaded(&ranking.items, &ranking.picks);
    let below = first_pick_below_floor(&ranking.items, &ranking.picks);
    let cheaper = as_entered > FEW_CANDIDATES && !offloaded && !below;
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
    let mut out = Vec::new();
    for change in changes(workload, &ranking.model) {
        let gpus = matches!(change, Change::Gpus(_));
        // Buying with picks to spare, only the local changes (a second card, more memory).
        if cheaper && !matches!(change, Change::Gpus(2) | Change::Host(_)) {
            continue;
        }
        // Of the GPU counts, the fewest that opens something.
        if gpus
            && out
                .iter()
                .any(|a: &Alternative| matches!(a.change, Change::Gpus(_)))
        {
            continue;
        }
        let mut changed = workload.clone();
        change.apply(&mut changed);
        let items = rank_items(catalog, &changed, filters).items;
        let picks = picks(&items, &changed, None);
        let among = choices(&picks);
        if cheaper {
            let Some(entry) = picks.entry else { continue };
            if entry.cost_usd.is_none_or(|c| c > bar) {
                continue;
            }
            if let Some(top) = items.into_iter().find(|r| r.gpu.id == entry.id) {
                out.push(Alternative {
                    change,
                    among,
                    top,
                    cheaper,
                });
            }
            continue;
        }
        let opens = if below {
            among > 0 && !first_pick_below_floor(&items, &picks)
        } else if offloaded {
            among > 0 && !first_pick_offloaded(&items, &picks)
        } else {
            among > as_entered
        };
        // More GPUs are named with the first build that uses them: a single card ranked first
        // because the others' pairs cost too much was there without the change.
        let top = if gpus {
            items.into_iter().find(|r| {
                is_candidate(r, &changed)
                    && r.placement.as_ref().is_some_and(|p| p.gpus > workload.gpus)
            })
        } else {
            items
                .into_iter()
                .next()
                .filter(|r| is_candidate(r, &changed))
        };
        if let (true, Some(top)) = (opens, top) {
            out.push(Alternative {
                change,
                among,
                top,
                cheaper,
            });
        }
    }
    out
}
