//! The words the page writes for the engine's figures and reasons: prices, speeds,
//! costs, fit and why a GPU is left out, in the page's language. Plain functions of
//! `catalog` values, shared by every view and by the page written at build time.

use catalog::decimal::{fixed, shortest};
use catalog::estimate::{Bound, Offload, Range, Unit};
use catalog::evidence::Measurement;
use catalog::gpu::{PriceKind, Purchase};
use catalog::host::Host;
use catalog::memory::Sharding;
use catalog::quant;
use catalog::rank::{Chosen, LinkKind, Reason, WhyNot};
use catalog::share::Lang;
use catalog::workload::{EcoRequirement, Mode, Precision, Task};

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
        } => fill(
            t(Key::ReasonDataParallel),
            &[("n", crate::i18n::whole(f64::from(*gpus)))],
        ),
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
                &[("n", crate::i18n::whole(f64::from(*gpus))), ("how", how)],
            )
        }
        Reason::MemorySavers {
            checkpointing,
            micro_batch,
            offload,
            host_bytes,
            pipeline_offload,
            paged_bytes,
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
            if *paged_bytes > 0.0 {
                what.push(fill(
                    t(Key::SaverPagedOptimizer),
                    &[("gib", gb(*paged_bytes))],
                ));
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
                    ("n", crate::i18n::whole(f64::from(*gpus))),
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
        Reason::MarketplacePrice => t(Key::ReasonMarketplace).into(),
        Reason::PriceUnknown => t(Key::ReasonPriceUnknown).into(),
        Reason::SpeedUnknown => t(Key::ReasonSpeedUnknown).into(),
        Reason::NoFlashAttention2 => t(Key::ReasonNoFlashAttention).into(),
        Reason::RocmNotCuda => t(Key::ReasonRocm).into(),
        Reason::LegacyPytorchOnly => t(Key::ReasonLegacyPytorch).into(),
        Reason::PassiveCooling => t(Key::ReasonPassiveCooling).into(),
        Reason::MultiCardBuild { cards, watts } => fill(
            t(Key::ReasonMultiCard),
            &[("n", cards.to_string()), ("w", num(*watts))],
        ),
        Reason::ServerUnit {
            unit,
            servers,
            used,
            host,
            copies,
        } => {
            let key = if *unit > 8 {
                Key::ReasonRackUnit
            } else {
                Key::ReasonServerUnit
            };
            let total = unit * servers;
            let mut parts = Vec::new();
            if *copies > 1 {
                parts.push(fill(
                    t(Key::ReasonServerCopies),
                    &[
                        ("unit", unit.to_string()),
                        ("copies", copies.to_string()),
                        ("per", (used / copies).to_string()),
                    ],
                ));
            }
            if *used < total {
                parts.push(fill(
                    t(key),
                    &[
                        ("unit", unit.to_string()),
                        ("used", used.to_string()),
                        ("total", total.to_string()),
                    ],
                ));
            }
            if !host {
                parts.push(t(Key::ReasonServerNoHost).into());
            }
            parts.join(t(Key::ListSeparator))
        }
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
        Reason::PairedWith { owned, share } => fill(
            t(Key::ReasonPairedWith),
            &[
                ("gpus", owned_names(owned)),
                ("pct", fixed(share * 100.0, 0)),
            ],
        ),
        Reason::TooSlowToUse {
            pace,
            floor,
            unit,
            users,
        } => {
            let unit = *unit;
            let mut parts = vec![
                ("pace", speed_point_text(lang, *pace, unit)),
                ("floor", speed_point_text(lang, *floor, unit)),
            ];
            let key = if *users > 1 {
                parts.push(("n", crate::i18n::whole(f64::from(*users))));
                Key::ReasonTooSlowEach
            } else {
                Key::ReasonTooSlow
            };
            fill(t(key), &parts)
        }
        Reason::JobTooLong { hours } => fill(
            t(Key::ReasonJobTooLong),
            &[("days", crate::i18n::whole((hours / 24.0).round()))],
        ),
        Reason::SlowerThanOwned { tokens_s } => fill(
            t(Key::ReasonSlowerThanOwned),
            &[("speed", speed_point_text(lang, *tokens_s, Unit::Tokens))],
        ),
        Reason::MeasuredBandwidth { gpu, gbs, factor } => {
            let card = catalog::Catalog::embedded().gpu(gpu);
            let spec = card.and_then(|g| g.memory_bandwidth_gbs).unwrap_or(0.0);
            let key = if *factor < 1.0 {
                Key::ReasonMeasuredBandwidthLower
            } else {
                Key::ReasonMeasuredBandwidth
            };
            fill(
                t(key),
                &[
                    ("name", card.map_or_else(|| gpu.clone(), |g| g.name.clone())),
                    ("gbs", num(*gbs)),
                    ("spec", num(spec)),
                    // Whole percents, but a tiny share is not "0%".
                    (
                        "pct",
                        if *factor >= 0.1 {
                            fixed(factor * 100.0, 0)
                        } else {
                            num(factor * 100.0)
                        },
                    ),
                ],
            )
        }
        Reason::Offloaded { share, .. } => {
            let host = host_text(lang, share.host);
            match share.offload {
                Offload::Experts { layers, of } => fill(
                    t(Key::ReasonOffloadedExperts),
                    &[
                        ("n", layers.to_string()),
                        ("of", of.to_string()),
                        ("gb", gb(share.bytes())),
                        ("host", host),
                    ],
                ),
                Offload::Layers { on_gpu, of } => fill(
                    t(Key::ReasonOffloadedLayers),
                    &[
                        ("off", (of - on_gpu).to_string()),
                        ("of", of.to_string()),
                        ("gb", gb(share.bytes())),
                        ("host", host),
                    ],
                ),
            }
        }
        // An image model's 8-bit weights where its 16-bit ones do not fit.
        Reason::Quantized {
            precision,
            by: Chosen::Images,
            ..
        } => fill(
            t(Key::ReasonQuantizedImages),
            &[("q", precision.as_str().to_ascii_uppercase())],
        ),
        // A format a model is released in (gpt-oss's MXFP4, DeepSeek-V3's FP8, which no
        // ladder holds) is its own quality, served or on llama.cpp's ladder.
        Reason::Quantized {
            precision,
            by: Chosen::Released,
            ..
        }
        | Reason::Quantized {
            precision: precision @ Precision::Mxfp4,
            ..
        } => fill(
            t(Key::ReasonQuantizedReleased),
            &[("q", precision.as_str().to_ascii_uppercase())],
        ),
        // A served model whose 16-bit checkpoint does not fit: FP8 as vLLM loads it, else
        // a 4-bit checkpoint.
        Reason::Quantized {
            precision,
            by: Chosen::Served,
            ..
        } => fill(
            t(if *precision == Precision::Fp8 {
                Key::ReasonQuantizedServedFp8
            } else {
                Key::ReasonQuantizedServedInt4
            }),
            &[("q", precision.as_str().to_ascii_uppercase())],
        ),
        Reason::Quantized {
            precision,
            offloaded,
            paced,
            ..
        } => {
            let cost = match quant::perplexity_cost(*precision) {
                Some(ppl) => fill(t(Key::QuantPerplexity), &[("ppl", shortest(ppl))]),
                None => t(Key::QuantUnmeasured).into(),
            };
            fill(
                t(if *offloaded {
                    Key::ReasonQuantizedOffloaded
                } else if *paced {
                    Key::ReasonQuantizedPaced
                } else {
                    Key::ReasonQuantized
                }),
                &[
                    ("q", precision.as_str().to_ascii_uppercase()),
                    ("cost", cost),
                ],
            )
        }
    }
}

/// The GPUs a person owns (`have=`), by name: "NVIDIA GeForce RTX 3090 + NVIDIA GeForce RTX 3060".
pub fn owned_names(ids: &[String]) -> String {
    let catalog = catalog::Catalog::embedded();
    ids.iter()
        .map(|id| catalog.gpu(id).map_or(id.as_str(), |g| g.name.as_str()))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A machine's system memory: "64 GB DDR5, 2 channels".
pub fn host_text(lang: Lang, host: Host) -> String {
    fill(
        tr(lang, Key::HostDesc),
        &[
            ("gb", host.ram_gb.to_string()),
            ("kind", host.kind.as_str().to_ascii_uppercase()),
            ("n", host.channels.to_string()),
        ],
    )
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
        WhyNot::CannotPair { owned } => fill(
            t(Key::WhyCannotPair),
            &[("vendor", owned.name().to_string())],
        ),
        WhyNot::RuntimeUnsupported { runtime } => {
            fill(t(Key::WhyRuntime), &[("runtime", runtime.name().into())])
        }
        WhyNot::NotForSale => t(Key::WhyNotForSale).into(),
        WhyNot::NotRentable => t(Key::WhyNotRentable).into(),
        WhyNot::NoClusterRental => t(Key::WhyNoClusterRental).into(),
        WhyNot::Memory {
            need_bytes,
            have_bytes,
            gpus,
        } => fill(
            // One GPU allowed: no "across 1 GPUs".
            t(if *gpus > 1 {
                Key::WhyMemory
            } else {
                Key::WhyMemoryOne
            }),
            &[
                ("need", gb(*need_bytes)),
                ("have", gb(*have_bytes)),
                ("n", crate::i18n::whole(f64::from(*gpus))),
            ],
        ),
        WhyNot::ServerOnly { gpus } => fill(
            t(Key::WhyServerOnly),
            &[("n", crate::i18n::whole(f64::from(*gpus)))],
        ),
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

/// A group of GPUs ruled out for one kind of reason (`catalog::rank::ruled_out_by_reason`),
/// said once for all of them: "12 GPUs: sold only inside whole servers or racks".
pub fn why_not_group_text(lang: Lang, why: &WhyNot, count: usize) -> String {
    let t = |k| tr(lang, k);
    let reason = match why {
        WhyNot::Filtered => t(Key::WhyFiltered).into(),
        WhyNot::Memory { .. } => t(Key::OutMemory).into(),
        WhyNot::Budget { budget_usd, .. } => {
            fill(t(Key::OutBudget), &[("budget", usd(*budget_usd))])
        }
        WhyNot::PriceUnknown => t(Key::OutPriceUnknown).into(),
        WhyNot::RuntimeUnsupported { .. } => t(Key::OutRuntime).into(),
        WhyNot::CannotPair { .. } => t(Key::OutCannotPair).into(),
        WhyNot::QloraUnsupported => t(Key::OutQlora).into(),
        WhyNot::Ecosystem { .. } => t(Key::OutEcosystem).into(),
        WhyNot::PytorchDropped { .. } => t(Key::OutPytorch).into(),
        WhyNot::NotForSale => t(Key::OutNotForSale).into(),
        WhyNot::NotRentable => t(Key::OutNotRentable).into(),
        WhyNot::NoClusterRental => t(Key::OutNoCluster).into(),
        WhyNot::ServerOnly { .. } => t(Key::OutServerOnly).into(),
    };
    fill(
        t(Key::OutGroup),
        &[("gpus", gpu_count(lang, count)), ("why", reason)],
    )
}

/// "1 GPU", "16 GPUs", "16,384 GPUs".
pub fn gpu_count(lang: Lang, n: usize) -> String {
    let key = if n == 1 {
        Key::SummaryGpus
    } else {
        Key::SummaryGpusMany
    };
    fill(tr(lang, key), &[("n", crate::i18n::whole(n as f64))])
}

/// What buying the GPUs costs: "$1,100 new (price from 2026-06)" for one, "$2,200 = 2 ×
/// $1,100 new (…)" for several.
pub fn hardware_text(lang: Lang, cost: &catalog::estimate::Cost) -> Option<String> {
    let p = cost.purchase.as_ref()?;
    times_price(cost.hardware_usd?, p, price_text(lang, p))
}

/// The picks' short form of the same: "$2,414 used", "$9,656 = 4 × $2,414 used".
pub fn short_hardware_text(lang: Lang, cost: &catalog::estimate::Cost) -> Option<String> {
    let p = cost.purchase.as_ref()?;
    times_price(cost.hardware_usd?, p, short_price_text(lang, p))
}

fn times_price(h: f64, p: &Purchase, each: String) -> Option<String> {
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
    // Run at a ladder's type: "at Q5_K_M" after the GPU count.
    let quant = reasons.iter().find_map(|r| match r {
        Reason::Quantized { precision, .. } => Some(fill(
            tr(lang, Key::CardBadgeQuant),
            &[("q", precision.as_str().to_ascii_uppercase())],
        )),
        _ => None,
    });
    let class = spare.as_ref().map_or("fit-badge", |(c, _)| *c);
    let parts: Vec<String> = [gpus, quant, spare.map(|(_, s)| s)]
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, p)| sentence_case(&p, i == 0))
        .collect();
    (!parts.is_empty()).then(|| (class, parts.join(" · ")))
}

/// The text with its first letter upper or lower case: ASCII only, which is all the
/// English strings need (Unicode's case tables would add kilobytes to the module), and
/// Chinese has no case. A name written in capitals ("Q4_K_M", "GPU") keeps them.
pub fn sentence_case(text: &str, upper: bool) -> String {
    let mut text = text.to_string();
    let word = text.as_bytes().get(1).is_none_or(u8::is_ascii_lowercase);
    if let Some(first) = text.get_mut(..1) {
        if upper {
            first.make_ascii_uppercase();
        } else if word {
            first.make_ascii_lowercase();
        }
    }
    text
}

/// "$1,207 used": the price and its kind, for the picks' one-line form.
pub fn short_price_text(lang: Lang, p: &Purchase) -> String {
    format!("{} {}", usd(p.usd), price_kind(lang, p))
}

pub fn price_kind(lang: Lang, p: &Purchase) -> &'static str {
    tr(
        lang,
        match p.kind {
            PriceKind::New => Key::PriceKindNew,
            PriceKind::Used => Key::PriceKindUsed,
            PriceKind::ServerShare => Key::PriceKindServer,
            PriceKind::Launch => Key::PriceKindLaunch,
            PriceKind::Yours => Key::PriceKindYours,
        },
    )
}

/// "$1,207 used (price from 2026-09)", marking prices over a year old.
pub fn price_text(lang: Lang, p: &Purchase) -> String {
    let kind = price_kind(lang, p);
    let Some(date) = p.date.clone() else {
        return format!("{} ({kind})", usd(p.usd));
    };
    let age = if p.is_stale(crate::url::catalog_date()) {
        fill(tr(lang, Key::PriceStale), &[("date", date)])
    } else {
        fill(tr(lang, Key::PriceFrom), &[("date", date)])
    };
    format!("{} {kind} ({age})", usd(p.usd))
}

/// A task's name in the form and the workload's line.
pub fn task_key(t: Task) -> Key {
    match t {
        Task::Infer => Key::TaskInfer,
        Task::Train => Key::TaskTrain,
        Task::Finetune => Key::TaskFinetune,
        Task::Lora => Key::TaskLora,
        Task::Qlora => Key::TaskQlora,
    }
}

/// A mode's name in the form and the workload's line.
pub fn mode_key(m: Mode) -> Key {
    match m {
        Mode::Buy => Key::ModeBuy,
        Mode::Rent => Key::ModeRent,
    }
}

/// The workload in one line, as a phone shows it until the person edits it, an embedded
/// widget above its answer and the compare view beside its estimates:
/// "Llama 3.1 8B · QLoRA · BF16 · 1 GPU · buy · ≤ $1,500".
pub fn summary(lang: Lang, catalog: &catalog::Catalog, w: &catalog::workload::Workload) -> String {
    let model = catalog::rank::resolve_model(catalog, w);
    let laddered = w.auto_precision && w.task == Task::Infer && model.family.is_decoder();
    let mut parts = vec![
        model.name,
        tr(lang, task_key(w.task)).to_string(),
        if laddered {
            tr(lang, Key::PrecisionAutoShort).to_string()
        } else {
            w.precision.as_str().to_ascii_uppercase()
        },
        gpu_count(lang, w.max_gpus() as usize),
        tr(lang, mode_key(w.mode)).to_string(),
    ];
    if let Some(b) = w.budget_usd {
        parts.push(format!("≤ {}", usd(b)));
    }
    parts.join(" · ")
}

/// A published figure in its unit, worded as the card's speed is.
pub fn measured_value(lang: Lang, row: &Measurement, value: f64, unit: &str) -> String {
    let unit = match unit {
        "ratio" => return format!("{}×", num(value)),
        "GB" | "GiB" => return format!("{} {unit}", num(value)),
        "s/image" => return fill(tr(lang, Key::CardSecondsPerImage), &[("range", num(value))]),
        "audio s/s" => Unit::AudioSeconds,
        "images/s" => return format!("{} {}", num(value), tr(lang, Key::UnitImages)),
        "samples/s" => Unit::Samples,
        _ if row.text("kind") == "train_throughput" => Unit::TrainTokens,
        _ => Unit::Tokens,
    };
    speed_point_text(lang, value, unit)
}

/// −5% or +12%: the estimate against the measurement.
pub fn signed_percent(off: f64) -> String {
    // Whole percents as integers: no float formatting in the bundle.
    let pct = (off * 100.0).round() as i64;
    if pct < 0 {
        format!("\u{2212}{}%", -pct)
    } else {
        format!("+{pct}%")
    }
}

/// The name of a published measurement's runtime or framework token (`llamacpp` →
/// "llama.cpp", `megatron` → "Megatron-Core"); a token the engine does not model, as is.
pub fn stack_name(token: &str) -> &str {
    match token {
        "comfyui" => "ComfyUI",
        "sglang" => "SGLang",
        "tensorflow" => "TensorFlow",
        _ => catalog::deploy::Software::parse(token).map_or(token, |s| s.name()),
    }
}

/// The name of a llama.cpp backend token of a published measurement (`vulkan` →
/// "Vulkan"); another token as is.
pub fn backend_name(token: &str) -> &str {
    match token {
        "vulkan" => "Vulkan",
        "sycl" => "SYCL",
        "cuda" => "CUDA",
        "hip" => "HIP",
        "metal" => "Metal",
        _ => token,
    }
}

#[cfg(test)]
mod tests {
    use super::{reason_text, sentence_case};
    use catalog::rank::{Chosen, Reason};
    use catalog::share::Lang;
    use catalog::workload::Precision;

    /// Each rule of `prec=auto` says why its format, in both languages: a released format
    /// (MXFP4 on llama.cpp's ladder too, offloaded or not) loses nothing further, and a
    /// served model's FP8 and 4-bit weights say what fits and what it costs.
    #[test]
    fn each_weights_rule_says_its_own_reason() {
        let text = |lang, precision, offloaded, by| {
            reason_text(
                lang,
                &Reason::Quantized {
                    precision,
                    offloaded,
                    paced: false,
                    by,
                },
            )
        };
        let released = text(Lang::En, Precision::Mxfp4, true, Chosen::Ladder);
        assert!(released.contains("as the model is released"), "{released}");
        let fp8 = text(Lang::En, Precision::Fp8, false, Chosen::Served);
        assert!(fp8.contains("--quantization fp8"), "{fp8}");
        assert!(!fp8.contains("as the model is released"), "{fp8}");
        let int4 = text(Lang::En, Precision::Int4, false, Chosen::Served);
        assert!(
            int4.starts_with("INT4 weights") && int4.contains("AWQ"),
            "{int4}"
        );
        assert!(text(Lang::Zh, Precision::Int4, false, Chosen::Served).contains("AWQ"));
    }

    #[test]
    fn sentence_case_keeps_names_in_capitals() {
        assert_eq!(
            sentence_case("Fits · 2 GiB spare", false),
            "fits · 2 GiB spare"
        );
        assert_eq!(sentence_case("at Q8_0", true), "At Q8_0");
        assert_eq!(sentence_case("Q4_K_M 量化", false), "Q4_K_M 量化");
        assert_eq!(sentence_case("GPU", false), "GPU");
        assert_eq!(sentence_case("需要 2 块 GPU", false), "需要 2 块 GPU");
        assert_eq!(sentence_case("", false), "");
    }
}
