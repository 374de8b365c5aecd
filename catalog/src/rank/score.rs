//! The order: scores by the priority among the candidates, what suits the person, the
//! usable pace, and the lists of what ranks lower and what is ruled out.

use super::*;

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
/// Training, the longest job the picks call usable, in hours: about nine months
/// (9 × 730 h). Past that, a run started later on faster hardware with better algorithms
/// finishes first: Epoch AI's estimate of the longest training run worth starting, revised
/// in July 2025 from 14–15 months to about nine as algorithms improve about 3× a year
/// (epochai.org/blog/the-longest-training-run; Epoch's thread of 2025-07-25). A person
/// buying a card for a job longer than that is better served renting many GPUs for it.
pub const LONGEST_USEFUL_JOB_HOURS: f64 = 9.0 * 730.0;
/// Buying for a training job, renting is "clearly cheaper" when the job's rental costs
/// under this share of the cheapest purchase that runs it.
pub const RENT_CLEARLY_CHEAPER: f64 = 0.25;

/// A candidate is a GPU the person could choose: it fits, and what it costs in this mode
/// (its price, rental or job cost) is known. A fitting GPU without a known cost is listed
/// after the candidates, unscored: "the fastest" never names a card nobody can price.
pub(super) fn is_candidate(r: &Ranked, workload: &Workload) -> bool {
    r.fits() && cost_figure(&r.cost, workload).is_some_and(|c| c > 0.0)
}

/// Scores candidates 0–1 by the priority: speed against the fastest candidate, cost
/// against the cheapest, or the balance of the two (`BALANCE_SPEED_WEIGHT`). Candidates
/// are the GPUs that fit this workload in this mode (and its budget and filters), so
/// scores are relative to what the person could choose. GPUs without the needed figure
/// get no score and rank after.
pub(super) fn score(items: &mut [Ranked], workload: &Workload) {
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
pub(super) fn balance_cost(r: &Ranked, workload: &Workload) -> Option<f64> {
    let budget = workload.budget_usd.filter(|b| *b > 0.0)?;
    let cost = r.cost.budget_figure.filter(|c| *c > 0.0)?;
    Some(budget / (budget + cost))
}

/// Whether the GPU runs the job as asked. Training at a precision the GPU has no units for (BF16 on Volta or Turing, which fall
/// back to FP16 with loss scaling) is what practitioners avoid: the QLoRA authors report
/// FP16 runs diverging where BF16 ones do not. Such GPUs still fit and are listed, after
/// every candidate that runs the job as asked, and picks come from the latter first.
pub fn runs_as_asked(r: &Ranked, workload: &Workload) -> bool {
    !r.reasons.iter().any(|x| not_as_asked(x, r, workload))
}

/// A reason that the GPU runs the job with another setting than the one asked: FP16 or
/// another precision for training, or PyTorch's legacy wheels for software on PyTorch
/// (PyTorch's wheels matter to what runs on them, vLLM, Transformers, diffusers and
/// training, not to llama.cpp), or weights below 4 bits (`quant::below_floor`).
fn not_as_asked(x: &Reason, r: &Ranked, workload: &Workload) -> bool {
    match x {
        Reason::NoBf16UsesFp16 | Reason::PrecisionFallback { .. } => workload.task.is_training(),
        Reason::LegacyPytorchOnly => r.software.needs_pytorch(),
        Reason::Quantized { precision, .. } => quant::below_floor(*precision),
        _ => false,
    }
}

/// A reason that a GPU which runs the job as asked still does not suit a person: it
/// needs added cooling, or offloads to CPU memory without outpacing the cards that hold
/// the job.
pub fn in_the_way(x: &Reason) -> bool {
    matches!(
        x,
        Reason::PassiveCooling
            | Reason::MemorySavers {
                offload: true,
                outpaces_holders: false,
                ..
            }
            | Reason::Offloaded {
                readable: false,
                ..
            }
            | Reason::SlowerThanOwned { .. }
    )
}

/// Whether llama.cpp runs the model here with part of it in system memory at a pace slower
/// than people read (`Reason::Offloaded`).
pub(super) fn slow_offload(r: &Ranked) -> bool {
    r.reasons.iter().any(|x| {
        matches!(
            x,
            Reason::Offloaded {
                readable: false,
                ..
            }
        )
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
pub(super) fn suits_on_its_stack(r: &Ranked, workload: &Workload) -> bool {
    runs_as_asked(r, workload) && !r.reasons.iter().any(in_the_way)
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
    let reasons = &r.reasons;
    reasons
        .iter()
        .find(|x| not_as_asked(x, r, workload))
        .or_else(|| reasons.iter().find(off_stack))
        .or_else(|| reasons.iter().find(|x| in_the_way(x)))
}

/// The GPUs ruled out (but not filtered away by the view), grouped by the kind of reason
/// (`WhyNot::code`), in `WhyNot::nearness` order: a list that says each reason once with
/// the GPUs it rules out, in the ranking's order within a group.
pub fn ruled_out_by_reason<'r, 'c>(items: &'r [Ranked<'c>]) -> Vec<Vec<&'r Ranked<'c>>> {
    // Twelve passes over the list rather than a sort: a sort of references would be one
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

pub(super) fn offloads(r: &Ranked) -> bool {
    matches!(
        r.placement.as_ref().map(|p| p.sharding),
        Some(Sharding::Offloaded { .. })
    )
}

/// Sets `outpaces_holders` on the offloaded candidates faster than every candidate that
/// holds the job in its own memory and suits otherwise; bought, they must also still run
/// the larger run (a pair of 10 GB cards that only just holds the offloaded layers is no
/// answer).
pub(super) fn mark_offload_that_outpaces(items: &mut [Ranked], workload: &Workload) {
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
pub(super) fn per_user_pace(r: &Ranked, workload: &Workload) -> Option<(f64, f64)> {
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

/// Training, the hours the job takes on this GPU when that is longer than
/// `LONGEST_USEFUL_JOB_HOURS`.
pub fn job_too_long(r: &Ranked, workload: &Workload) -> Option<f64> {
    let hours = r.speed.as_ref()?.job_hours?.mid;
    (workload.task.is_training() && hours > LONGEST_USEFUL_JOB_HOURS).then_some(hours)
}

/// Whether a GPU gives each user a usable pace (`per_user_pace`), or, training, finishes
/// the job within `LONGEST_USEFUL_JOB_HOURS`.
pub fn keeps_a_usable_pace(r: &Ranked, workload: &Workload) -> bool {
    let training = workload.task.is_training()
        && r.speed.as_ref().and_then(|s| s.job_hours).is_some()
        && job_too_long(r, workload).is_none();
    training || per_user_pace(r, workload).is_some_and(|(pace, floor)| pace >= floor)
}

/// Whether a GPU is slower than a usable pace for each user (`per_user_pace`), or takes
/// longer than `LONGEST_USEFUL_JOB_HOURS` over a training job.
pub fn too_slow_to_use(r: &Ranked, workload: &Workload) -> bool {
    job_too_long(r, workload).is_some()
        || per_user_pace(r, workload).is_some_and(|(pace, floor)| pace < floor)
}

pub(super) fn has_room(r: &Ranked) -> bool {
    !r.reasons
        .iter()
        .any(|x| matches!(x, Reason::NoRoomToGrow { .. }))
}

/// The share of a purchase's score it keeps: all with room for a larger run; without,
/// `1 − GROWTH_SHARE` plus the larger run's share scaled by how fast the card still runs
/// it (`NoRoomToGrow::speed_share`). Only buying marks cards without room.
pub(super) fn growth(r: &Ranked) -> f64 {
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
    if let Reason::Quantized { precision, .. } = reason {
        return quant::below_floor(*precision);
    }
    if let Reason::NeedsGpus {
        sharding: Sharding::Single,
        ..
    } = reason
    {
        return false;
    }
    matches!(
        reason,
        Reason::TooSlowToUse { .. }
            | Reason::JobTooLong { .. }
            | Reason::Offloaded { .. }
            | Reason::SlowerThanOwned { .. }
            | Reason::TightFit { .. }
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
