//! One ranked GPU: fit bar, speed and cost with their ranges, the top reasons.

use catalog::decimal::fixed;
use catalog::estimate::{Bound, Range, Unit};
use catalog::memory::Sharding;
use catalog::rank::{Grade, LinkKind, Ranked, Reason, WhyNot};
use catalog::share::{Lang, Nav};
use catalog::workload::{EcoRequirement, Mode};
use leptos::prelude::*;

use crate::components::answer::price_text;
use crate::components::link::view_link;
use crate::i18n::{fill, gb, num, tr, usd, usd_range, Key};

pub fn range_text(r: Range) -> String {
    format!("{}–{}", num(r.low), num(r.high))
}

pub fn unit_text(lang: Lang, unit: Unit) -> &'static str {
    tr(
        lang,
        match unit {
            Unit::Tokens => Key::UnitTokens,
            Unit::TrainTokens => Key::UnitTrainTokens,
            Unit::Samples => Key::UnitSamples,
            Unit::Images => Key::UnitImages,
            Unit::AudioSeconds => Key::UnitAudio,
        },
    )
}

/// A throughput range in the workload's unit; diffusion reads as seconds per image, speech
/// as a multiple of real time.
pub fn throughput_text(lang: Lang, r: Range, unit: Unit) -> String {
    match unit {
        Unit::Images => fill(
            tr(lang, Key::CardSecondsPerImage),
            &[("range", range_text(Range::new(1.0 / r.high, 1.0 / r.low)))],
        ),
        Unit::AudioSeconds => fill(tr(lang, Key::CardRealtime), &[("range", range_text(r))]),
        _ => format!("{} {}", range_text(r), unit_text(lang, unit)),
    }
}

/// One throughput figure in the workload's unit, as `throughput_text` words it.
pub fn speed_point_text(lang: Lang, x: f64, unit: Unit) -> String {
    match unit {
        Unit::Images => fill(
            tr(lang, Key::CardSecondsPerImage),
            &[("range", num(1.0 / x))],
        ),
        Unit::AudioSeconds => fill(tr(lang, Key::CardRealtime), &[("range", num(x))]),
        _ => format!("{} {}", num(x), unit_text(lang, unit)),
    }
}

pub fn reason_text(lang: Lang, reason: &Reason) -> String {
    let t = |k| tr(lang, k);
    match reason {
        Reason::Fits { spare_bytes } => fill(t(Key::ReasonFits), &[("gb", gb(*spare_bytes))]),
        Reason::TightFit { spare_bytes } => fill(t(Key::ReasonTight), &[("gb", gb(*spare_bytes))]),
        // Replicated: the job fits on each GPU and runs on as many as the person allows.
        Reason::NeedsGpus {
            gpus,
            sharding: Sharding::Single,
            ..
        } => fill(t(Key::ReasonDataParallel), &[("n", gpus.to_string())]),
        Reason::NeedsGpus {
            gpus,
            sharding,
            in_turn,
        } => {
            let how = match sharding {
                _ if *in_turn => t(Key::ShardingLayers).to_string(),
                Sharding::FullySharded { .. } => t(Key::ShardingFsdp).to_string(),
                Sharding::FsdpTensor { tensor, .. } => {
                    fill(t(Key::ShardingFsdpTp), &[("tp", tensor.to_string())])
                }
                Sharding::Offloaded { .. } => t(Key::ShardingOffload).to_string(),
                Sharding::TensorParallel { pipeline, .. } if *pipeline > 1 => {
                    t(Key::ShardingTpPp).to_string()
                }
                _ => t(Key::ShardingTp).to_string(),
            };
            fill(
                t(Key::ReasonNeedsGpus),
                &[("n", gpus.to_string()), ("how", how)],
            )
        }
        Reason::MemorySavers {
            checkpointing,
            micro_batch,
            offload,
            host_bytes,
            pipeline_offload,
            ..
        } => {
            let mut what = Vec::new();
            if *checkpointing {
                what.push(t(Key::SaverCheckpointing).to_string());
            }
            if let Some(n) = micro_batch {
                what.push(t(Key::SaverMicroBatch).replace("{n}", &n.to_string()));
            }
            if *offload {
                what.push(fill(t(Key::SaverOffload), &[("gib", gb(*host_bytes))]));
            }
            if *pipeline_offload {
                what.push(t(Key::SaverPipelineOffload).to_string());
            }
            fill(t(Key::ReasonMemorySavers), &[("what", what.join(" + "))])
        }
        Reason::SpeedVsBest { ratio } => {
            if *ratio >= 0.995 {
                t(Key::ReasonFastest).into()
            } else {
                fill(
                    t(Key::ReasonSpeedVsBest),
                    &[("pct", fixed(ratio * 100.0, 0))],
                )
            }
        }
        Reason::Bound(Bound::Memory) => t(Key::ReasonMemoryBound).into(),
        Reason::Bound(Bound::Compute) => t(Key::ReasonComputeBound).into(),
        Reason::NoBf16UsesFp16 => t(Key::ReasonNoBf16).into(),
        Reason::PrecisionFallback { wanted, used } => fill(
            t(Key::ReasonPrecisionFallback),
            &[
                ("wanted", wanted.as_str().to_ascii_uppercase()),
                ("used", used.as_str().to_ascii_uppercase()),
            ],
        ),
        Reason::NoTensorCores => t(Key::ReasonNoTensorCores).into(),
        Reason::Scaling {
            gpus,
            efficiency,
            link,
        } => {
            let link = match link {
                LinkKind::Direct => t(Key::LinkDirect),
                LinkKind::Pcie => t(Key::LinkPcie),
                LinkKind::PcieNoP2p => t(Key::LinkPcieNoP2p),
                LinkKind::Network => t(Key::LinkNetwork),
            };
            fill(
                t(Key::ReasonScaling),
                &[
                    ("link", link.into()),
                    ("pct", fixed(efficiency * 100.0, 0)),
                    ("n", gpus.to_string()),
                ],
            )
        }
        Reason::UnifiedMemory {
            usable_fraction,
            raised,
        } => fill(
            t(if *raised {
                Key::ReasonUnifiedMemoryRaised
            } else {
                Key::ReasonUnifiedMemory
            }),
            &[("pct", fixed(usable_fraction * 100.0, 0))],
        ),
        Reason::UsedOnly => t(Key::ReasonUsedOnly).into(),
        Reason::CloudOnly => t(Key::ReasonCloudOnly).into(),
        Reason::PriceUnknown => t(Key::ReasonPriceUnknown).into(),
        Reason::SpeedUnknown => t(Key::ReasonSpeedUnknown).into(),
        Reason::NoFlashAttention2 => t(Key::ReasonNoFlashAttention).into(),
        Reason::RocmNotCuda => t(Key::ReasonRocm).into(),
        Reason::LegacyPytorchOnly => t(Key::ReasonLegacyPytorch).into(),
        Reason::PassiveCooling => t(Key::ReasonPassiveCooling).into(),
        Reason::TensorRateUnknown => t(Key::ReasonTensorRateUnknown).into(),
        Reason::NoRoomToGrow { need_bytes, .. } => {
            fill(t(Key::ReasonNoRoomToGrow), &[("gb", gb(*need_bytes))])
        }
        Reason::OneApiNotCuda => t(Key::ReasonOneapi).into(),
        Reason::XlaNotCuda => t(Key::ReasonXla).into(),
        Reason::SynapseAiNotCuda => t(Key::ReasonSynapseai).into(),
        Reason::MetalNotCuda => t(Key::ReasonMetal).into(),
        Reason::LibraryExperimental { library } => fill(
            t(Key::ReasonLibraryExperimental),
            &[("lib", library.name().into())],
        ),
        Reason::RuntimeFallback { wanted, used } => fill(
            t(Key::ReasonRuntimeFallback),
            &[
                ("wanted", wanted.name().into()),
                ("used", used.name().into()),
            ],
        ),
        Reason::SpeechFallback { runtime, slowdown } => fill(
            t(Key::ReasonSpeechFallback),
            &[
                ("runtime", runtime.as_str().into()),
                ("x", fixed(*slowdown, 2)),
            ],
        ),
        Reason::LinkAssumed { gbs } => fill(t(Key::ReasonLinkAssumed), &[("gbs", num(*gbs))]),
    }
}

/// What a million units of the workload's output cost: electricity buying, the rental
/// renting. Speech reads per hour of audio (3,600 of its units) and images per thousand,
/// not per million of either.
pub fn per_work_cost_text(lang: Lang, mode: Mode, unit: Option<Unit>, m: Range) -> String {
    let (key, m) = match (mode, unit) {
        (Mode::Buy, Some(Unit::AudioSeconds)) => {
            (Key::CardEnergyPerAudioHour, m.scale(3600.0 / 1e6))
        }
        (Mode::Rent, Some(Unit::AudioSeconds)) => (Key::CardPerAudioHour, m.scale(3600.0 / 1e6)),
        (Mode::Buy, Some(Unit::Images)) => (Key::CardEnergyPerKImages, m.scale(1e-3)),
        (Mode::Rent, Some(Unit::Images)) => (Key::CardPerKImages, m.scale(1e-3)),
        (Mode::Buy, _) => (Key::CardEnergyPerMillion, m),
        (Mode::Rent, _) => (Key::CardPerMillion, m),
    };
    fill(tr(lang, key), &[("range", usd_range(m.low, m.high))])
}

pub fn why_not_text(lang: Lang, why: &WhyNot) -> String {
    let t = |k| tr(lang, k);
    match why {
        WhyNot::Filtered => t(Key::WhyFiltered).into(),
        WhyNot::Ecosystem { required } => fill(
            t(Key::WhyEcosystem),
            &[(
                "eco",
                match required {
                    EcoRequirement::Cuda => "CUDA",
                    EcoRequirement::Rocm => "ROCm",
                    EcoRequirement::Xla => "XLA/TPU",
                    EcoRequirement::Any => "",
                }
                .into(),
            )],
        ),
        WhyNot::PytorchDropped { compute_capability } => fill(
            t(Key::WhyPytorchDropped),
            &[("cc", compute_capability.clone())],
        ),
        WhyNot::QloraUnsupported => t(Key::WhyQlora).into(),
        WhyNot::RuntimeUnsupported { runtime } => {
            fill(t(Key::WhyRuntime), &[("runtime", runtime.name().into())])
        }
        WhyNot::NotForSale => t(Key::WhyNotForSale).into(),
        WhyNot::NotRentable => t(Key::WhyNotRentable).into(),
        WhyNot::Memory {
            need_bytes,
            have_bytes,
            gpus,
        } => fill(
            t(Key::WhyMemory),
            &[
                ("need", gb(*need_bytes)),
                ("have", gb(*have_bytes)),
                ("n", gpus.to_string()),
            ],
        ),
        WhyNot::ServerOnly => t(Key::WhyServerOnly).into(),
        WhyNot::PriceUnknown => t(Key::WhyPriceUnknown).into(),
        WhyNot::Budget {
            cost_usd,
            budget_usd,
        } => fill(
            t(Key::WhyBudget),
            &[("cost", usd(*cost_usd)), ("budget", usd(*budget_usd))],
        ),
    }
}

/// The person's own price for this GPU: typing one replaces the catalog's (the `price`
/// key of the link); clearing it goes back to the catalog's.
fn your_price_input(id: String, yours: Option<f64>, lang: Lang) -> impl IntoView {
    // The page written at build time has no state to record a price in; the app's does.
    let ctx = use_context::<crate::state::Ctx>();
    view! {
        <label class="your-price">
            {tr(lang, Key::CardYourPrice)}
            <input type="number" inputmode="decimal" min="1" data-testid="your-price"
                prop:value=yours.map(catalog::decimal::shortest).unwrap_or_default()
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    let value = catalog::share::parse_number(&text).filter(|v| v.is_finite() && *v >= 1.0 && *v <= 1e7);
                    if let (Some(ctx), true) = (ctx, text.trim().is_empty() || value.is_some()) {
                        ctx.update(false, |s| s.workload.set_your_price(&id, value));
                    }
                } />
        </label>
    }
}

/// What buying the GPUs costs: "$1,100 new (price from 2026-06)" for one, "$2,200 = 2 ×
/// $1,100 new (…)" for several.
pub fn hardware_text(lang: Lang, cost: &catalog::estimate::Cost) -> Option<String> {
    let (h, p) = (cost.hardware_usd?, cost.purchase.as_ref()?);
    let each = price_text(lang, p);
    if (h - p.usd).abs() < 0.5 {
        return Some(each);
    }
    // A count of cards reads as a whole number.
    let n = h / p.usd;
    let n = if (n - n.round()).abs() < 0.01 {
        fixed(n, 0)
    } else {
        num(n)
    };
    Some(format!("{} = {n} × {each}", usd(h)))
}

/// The fit badge that leads a card: on how many GPUs the job fits, if more than one, and
/// how much memory is left (marked when tight). `None` when no fit reason is given.
pub fn fit_badge(lang: Lang, reasons: &[Reason]) -> Option<(&'static str, String)> {
    let gpus = reasons
        .iter()
        .find(|r| matches!(r, Reason::NeedsGpus { .. }))
        .map(|r| reason_text(lang, r));
    let spare = reasons.iter().find_map(|r| match r {
        Reason::TightFit { spare_bytes } => Some((
            "fit-badge tight",
            fill(tr(lang, Key::CardBadgeTight), &[("gb", gb(*spare_bytes))]),
        )),
        Reason::Fits { spare_bytes } => Some((
            "fit-badge",
            fill(tr(lang, Key::CardBadgeFits), &[("gb", gb(*spare_bytes))]),
        )),
        _ => None,
    });
    match (gpus, spare) {
        (Some(g), Some((class, s))) => Some((
            class,
            format!("{} · {}", sentence_case(&g, true), sentence_case(&s, false)),
        )),
        (Some(g), None) => Some(("fit-badge", sentence_case(&g, true))),
        (None, spare) => spare,
    }
}

/// The text with its first letter upper or lower case: ASCII only, which is all the
/// English strings need (Unicode's case tables would add kilobytes to the module), and
/// Chinese has no case.
pub fn sentence_case(text: &str, upper: bool) -> String {
    let mut text = text.to_string();
    if let Some(first) = text.get_mut(..1) {
        if upper {
            first.make_ascii_uppercase();
        } else {
            first.make_ascii_lowercase();
        }
    }
    text
}

/// The one reason a card shows before "More": what could surprise the person (a caveat)
/// if there is one, else how its speed compares. The badge shows the fit, and the cost
/// line says when a price is for a used card.
fn lead_reason(reasons: &[Reason]) -> Option<&Reason> {
    let said = |r: &&Reason| {
        matches!(
            r,
            Reason::Fits { .. }
                | Reason::TightFit { .. }
                | Reason::NeedsGpus { .. }
                | Reason::UsedOnly
        )
    };
    let mut rest = reasons.iter().filter(|r| !said(r));
    rest.clone()
        .find(|r| catalog::rank::is_caveat(r))
        .or_else(|| rest.next())
}

/// A candidate GPU in the ranking: a fit badge and a grade, then at most three lines
/// (time or speed, cost, the reason that matters most); the rest opens under "More".
#[component]
pub fn RankCard(
    item: Ranked<'static>,
    position: usize,
    /// How it compares with the first card (`catalog::rank::grades`).
    grade: Option<Grade>,
    /// Speed relative to the visitor's own GPU, and its name.
    vs_mine: Option<(f64, String)>,
    /// The language to write in: the list re-renders its cards when it changes.
    lang: Lang,
    /// Buying or renting: says whether a job's cost is electricity or rental.
    mode: Mode,
    /// The GPUs whose "More" is open, kept by the list (none in the page written at build time).
    open_more: Option<RwSignal<Vec<String>>>,
) -> impl IntoView {
    let gpu = item.gpu;
    let need = item.memory.total();
    let have = item.usable_bytes;
    let fill_pct = (need / have * 100.0).clamp(0.0, 100.0);
    let speed = item.speed.clone();
    let time_line = speed.as_ref().map(|s| match s.job_hours {
        Some(h) => fill(
            tr(lang, Key::CardJobHours),
            &[("range", range_text(h)), ("mid", num(h.mid))],
        ),
        None => throughput_text(lang, s.throughput, s.unit),
    });
    let cost_parts = {
        let c = &item.cost;
        let mut parts = Vec::new();
        if let Some(text) = hardware_text(lang, c) {
            parts.push(fill(tr(lang, Key::CardHardware), &[("usd", text)]));
        }
        if let Some(r) = c.rent_usd_per_hour {
            parts.push(fill(
                tr(lang, Key::CardRent),
                &[("usd", format!("${}", fixed(r, 2)))],
            ));
        }
        if let Some(j) = c.job_usd {
            // Buying, the job's running cost is its electricity; renting, the rental.
            let key = match mode {
                Mode::Buy => Key::CardEnergy,
                Mode::Rent => Key::CardJobCost,
            };
            parts.push(fill(tr(lang, key), &[("range", usd_range(j.low, j.high))]));
        }
        if let Some(m) = c.per_million_usd {
            let unit = speed.as_ref().map(|s| s.unit);
            parts.push(per_work_cost_text(lang, mode, unit, m));
        }
        // Buying for a training job: what renting the same job would cost, and when buying pays off.
        if let (Mode::Buy, Some(rent), Some(hours)) = (
            mode,
            c.rent_usd_per_hour,
            speed.as_ref().and_then(|s| s.job_hours),
        ) {
            parts.push(fill(
                tr(lang, Key::CardRentJob),
                &[("usd", usd(rent * hours.mid))],
            ));
            if let Some(b) = c.break_even_hours {
                parts.push(fill(tr(lang, Key::CardBreakEven), &[("hours", num(b))]));
            }
        }
        parts
    };
    // The first two cost figures read on the card; the rest under "More".
    let (cost_line, cost_more) = {
        let split = cost_parts.len().min(2);
        (
            cost_parts[..split].join(" · "),
            cost_parts[split..].join(" · "),
        )
    };
    let badge = fit_badge(lang, &item.reasons);
    let lead = lead_reason(&item.reasons);
    let lead_line = match &vs_mine {
        Some((ratio, name)) => view! {
            <p class="vs-mine">{fill(tr(lang, Key::CardVsMine), &[("x", fixed(*ratio, 1)), ("name", name.clone())])}</p>
        }
        .into_any(),
        None => lead
            .map(|r| view! { <p class="rank-why">{reason_text(lang, r)}</p> })
            .into_any(),
    };
    let reasons: Vec<String> = item
        .reasons
        .iter()
        .filter(|r| vs_mine.is_some() || Some(*r) != lead)
        .filter(|r| !matches!(r, Reason::Fits { .. } | Reason::TightFit { .. }))
        .map(|r| reason_text(lang, r))
        .collect();
    let id = gpu.id.clone();
    let id_detail = gpu.id.clone();
    let fits = item.fits();
    let yours = item
        .cost
        .purchase
        .as_ref()
        .filter(|p| p.kind == catalog::gpu::PriceKind::Yours)
        .map(|p| p.usd);
    let gpus = item.gpus_needed().unwrap_or(1);
    let grade_view = grade.map(|g| {
        let share = item.score.unwrap_or(0.0);
        view! {
            <span class=format!("grade grade-{}", g.letter().to_ascii_lowercase()) data-testid="grade"
                title=tr(lang, Key::CardGrade) aria-label=format!("{} {}", tr(lang, Key::CardGrade), g.letter())
                data-score=fixed(share, 3)>{g.letter()}</span>
        }
    });
    view! {
        <li class="rank-item" data-testid="rank-item" data-gpu-id=gpu.id.clone() data-fits=fits.to_string()>
            <div class="rank-head">
                <span class="rank-pos">{position}</span>
                <h3 class="rank-name">{view_link(Nav::OpenGpu(gpu.id.clone()), "name-link", None, gpu.name.clone().into())}</h3>
                {(gpus > 1).then(|| view! { <span class="badge">{format!("×{gpus}")}</span> })}
                {grade_view}
            </div>
            <div class="fit-line">
                {badge.map(|(class, text)| view! { <span class=class data-testid="fit-badge">{text}</span> })}
                <span class="fit" title=fill(tr(lang, Key::CardMemory), &[("need", gb(need)), ("have", gb(have))])>
                    <span class="fit-bar" style=format!("width:{}%", fixed(fill_pct, 1))></span>
                </span>
                <span class="fit-label">{fill(tr(lang, Key::CardMemory), &[("need", gb(need)), ("have", gb(have))])}</span>
            </div>
            <p class="rank-speed">{time_line.unwrap_or_else(|| tr(lang, Key::ReasonSpeedUnknown).into())}</p>
            <p class="rank-cost">{cost_line}</p>
            {lead_line}
            <details class="card-more" data-testid="card-more"
                prop:open={
                    let id = gpu.id.clone();
                    move || open_more.is_some_and(|o| o.with(|o| o.contains(&id)))
                }
                on:toggle={
                    let id = gpu.id.clone();
                    move |ev| {
                        let open = event_target::<web_sys::Element>(&ev).has_attribute("open");
                        if let Some(o) = open_more {
                            if open != o.with_untracked(|o| o.contains(&id)) {
                                o.update(|o| if open { o.push(id.clone()) } else { o.retain(|x| *x != id) });
                            }
                        }
                    }
                }>
                <summary>{tr(lang, Key::CardMore)}</summary>
                {(!cost_more.is_empty()).then(|| view! { <p class="rank-cost">{cost_more}</p> })}
                <ul class="reasons">{reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
                <div class="rank-actions">
                    {(mode == Mode::Buy).then(|| your_price_input(id.clone(), yours, lang))}
                    {view_link(Nav::AddToCompare(id), "link", Some("card-compare"), tr(lang, Key::CardCompare).to_string().into())}
                    {view_link(Nav::OpenGpu(id_detail), "link", Some("card-details"), tr(lang, Key::CardDetails).to_string().into())}
                </div>
            </details>
        </li>
    }
}

/// A candidate below the top of the ranking: one line with the same test hooks.
#[component]
pub fn RankRow(item: Ranked<'static>, position: usize, lang: Lang) -> impl IntoView {
    let gpu = item.gpu;
    let speed = item.speed.as_ref().map(|s| match s.job_hours {
        Some(h) => fill(
            tr(lang, Key::CardJobHours),
            &[("range", range_text(h)), ("mid", num(h.mid))],
        ),
        None => throughput_text(lang, s.throughput, s.unit),
    });
    let id = gpu.id.clone();
    view! {
        <li class="rank-row" data-testid="rank-item" data-gpu-id=gpu.id.clone() data-fits=item.fits().to_string()>
            <span class="rank-pos">{position}</span>
            {view_link(Nav::OpenGpu(id), "link", None, gpu.name.clone().into())}
            <span class="rank-row-speed">{speed.unwrap_or_else(|| tr(lang, Key::ReasonSpeedUnknown).into())}</span>
        </li>
    }
}
