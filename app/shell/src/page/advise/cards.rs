//! The ranking: the memory line, the cards, the rows below them, and the folded lists
//! of what fits with a drawback, has no price or is ruled out.

use super::*;

/// Ranked GPUs shown as full cards; the rest are compact rows, which keeps every
/// input change cheap to draw.
const FULL_CARDS: usize = 12;

/// Ranked GPUs an embedded advise view shows.
const EMBED_ITEMS: usize = 8;

/// What the workload needs per GPU, in total and by part.
pub fn memory_total(h: &mut Html, lang: Lang, r: &Ranking) {
    let m = &r.memory;
    let parts: Vec<String> = [
        (Key::MemWeights, m.weights),
        (Key::MemGradients, m.gradients),
        (Key::MemOptimizer, m.optimizer),
        (Key::MemAdapters, m.adapters),
        (Key::MemActivations, m.activations),
        (Key::MemKvCache, m.kv_cache),
        (Key::MemOverhead, m.overhead),
    ]
    .into_iter()
    .filter(|(_, b)| *b > 0.0)
    .map(|(k, b)| {
        // Serving: the context the KV cache holds, and whether it is the model's default.
        let context = r.context.filter(|_| k == Key::MemKvCache).map(|c| {
            fill(
                tr(lang, Key::MemKvContext),
                &[
                    ("n", c.sequences.to_string()),
                    ("tokens", num(f64::from(c.tokens))),
                    (
                        "default",
                        if c.assumed {
                            tr(lang, Key::MemKvAssumed)
                        } else {
                            ""
                        }
                        .into(),
                    ),
                ],
            )
        });
        format!(
            "{} {} GiB{}",
            tr(lang, k),
            gb(b),
            context.unwrap_or_default()
        )
    })
    .collect();
    let bytes = m.total_bytes().to_string();
    let laddered = r.items.iter().any(|i| {
        i.reasons
            .iter()
            .any(|x| matches!(x, Reason::Quantized { .. }))
    });
    h.open(
        "div",
        &[
            ("class", "memory-total"),
            ("data-testid", "memory-total"),
            ("data-bytes", &bytes),
        ],
    )
    .el(
        "strong",
        &[],
        &fill(
            // With the ladder (`prec=auto`) the figure is the model's in 16 bits, which
            // the cards below run in the GGUF type each holds.
            tr(
                lang,
                if laddered {
                    Key::MemTotalSixteen
                } else {
                    Key::MemTotal
                },
            ),
            &[("gb", gb(m.total())), ("model", r.model.name.clone())],
        ),
    )
    .el("span", &[("class", "mem-parts")], &parts.join(" · "));
    // The figure above is one GPU's, as entered; the cards below may split the job or use
    // memory savers, so the first card's own figure and how it gets there follow.
    let top = r
        .items
        .iter()
        .find(|i| i.fits() && i.score.is_some())
        .or_else(|| r.items.iter().find(|i| i.fits()));
    if let Some(item) = top {
        let how: Vec<String> = item
            .reasons
            .iter()
            .filter_map(|x| match x {
                Reason::Quantized { precision, .. } => Some(fill(
                    tr(lang, Key::MemTopQuant),
                    &[("q", precision.as_str().to_ascii_uppercase())],
                )),
                Reason::NeedsGpus { .. } | Reason::MemorySavers { .. } => {
                    Some(reason_text(lang, x))
                }
                _ => None,
            })
            .collect();
        if !how.is_empty() {
            h.el(
                "span",
                &[("class", "mem-top"), ("data-testid", "memory-top")],
                &fill(
                    tr(lang, Key::MemTop),
                    &[
                        ("name", item.gpu.name.clone()),
                        ("gb", gb(item.held_bytes())),
                        ("how", how.join("; ")),
                    ],
                ),
            );
        }
    }
    h.close("div");
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

/// The card's speed line: the job's time when it has one, else the throughput, and
/// serving a language model to several users at once, what each of them gets.
fn time_line(lang: Lang, item: &Ranked, w: &Workload) -> String {
    match &item.speed {
        Some(s) => match s.job_hours {
            Some(h) => fill(
                tr(lang, Key::CardJobHours),
                &[("range", range_text(h)), ("mid", num(h.mid))],
            ),
            None => {
                let whole = throughput_text(lang, s.throughput, s.unit);
                match per_user_text(lang, item, w) {
                    Some(each) => format!("{whole} · {each}"),
                    None => whole,
                }
            }
        },
        None => tr(lang, Key::ReasonSpeedUnknown).into(),
    }
}

/// "12.3 tokens/s for each of 16 users": serving a language model to more than one user
/// at once, the pace each gets (`rank::per_user`).
pub(super) fn per_user_text(lang: Lang, item: &Ranked, w: &Workload) -> Option<String> {
    let unit = item.speed.as_ref()?.unit;
    if w.batch < 2 || unit != catalog::estimate::Unit::Tokens {
        return None;
    }
    let each = catalog::rank::per_user(item, w)?;
    Some(fill(
        tr(lang, Key::CardPerUser),
        &[
            ("speed", speed_point_text(lang, each, unit)),
            ("n", web::i18n::whole(f64::from(w.batch))),
        ],
    ))
}

/// What the card says about money: hardware, rental, the job's running cost, per unit of
/// output, and (buying for training) what renting would cost and when buying pays off.
fn cost_parts(lang: Lang, mode: Mode, item: &Ranked) -> Vec<String> {
    let c = &item.cost;
    let speed = item.speed.as_ref();
    let mut parts = Vec::new();
    let hardware =
        hardware_text(lang, c).map(|text| fill(tr(lang, Key::CardHardware), &[("usd", text)]));
    // Renting, the rental's figures read first and the purchase comes after them.
    if mode == Mode::Buy {
        parts.extend(hardware.clone());
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
        let mut text = fill(tr(lang, key), &[("range", usd_range(j.low, j.high))]);
        // Renting, the range counts the machine's start-up; say how long it is taken to be.
        if let (Mode::Rent, Some(s)) = (mode, c.rent_start_hours) {
            let minutes = format!("{}–{}", fixed(s.low * 60.0, 0), fixed(s.high * 60.0, 0));
            text = fill(
                tr(lang, Key::CardJobStart),
                &[("job", text), ("minutes", minutes)],
            );
        }
        parts.push(text);
    }
    if let Some(m) = c.per_million_usd {
        parts.push(per_work_cost_text(lang, mode, speed.map(|s| s.unit), m));
    }
    if mode == Mode::Rent {
        parts.extend(hardware);
    }
    if let (Mode::Buy, Some(rent)) = (mode, c.rent_job_usd) {
        parts.push(fill(tr(lang, Key::CardRentJob), &[("usd", usd(rent.mid))]));
        if let Some(b) = c.break_even_hours {
            parts.push(fill(tr(lang, Key::CardBreakEven), &[("hours", num(b))]));
        }
    }
    parts
}

/// A candidate GPU in the ranking: a fit badge and a grade, then at most three lines
/// (time or speed, cost, the reason that matters most); the rest opens under "More",
/// open when `open`.
#[allow(clippy::too_many_arguments)]
pub fn card(
    h: &mut Html,
    d: &Draw,
    item: &Ranked,
    position: usize,
    grade: Option<Grade>,
    vs_mine: Option<(f64, &str)>,
    measured: Option<Option<Nearest>>,
    elsewhere: Option<Nearest>,
    model: &catalog::model::Model,
    open: bool,
) {
    let (lang, mode) = (d.lang, d.state.workload.mode);
    let gpu = item.gpu;
    let (need, have) = (item.held_bytes(), item.usable_bytes);
    let fill_pct = (need / have * 100.0).clamp(0.0, 100.0);
    let memory = fill(
        d.t(Key::CardMemory),
        &[("need", gb(need)), ("have", gb(have))],
    );
    let parts = cost_parts(lang, mode, item);
    // The first two cost figures read on the card; the rest under "More".
    let split = parts.len().min(2);
    let (cost_line, cost_more) = (parts[..split].join(" · "), parts[split..].join(" · "));
    let lead = lead_reason(&item.reasons);
    let gpus = item.gpus_needed().unwrap_or(1);

    h.open(
        "li",
        &[
            ("class", "rank-item"),
            ("data-testid", "rank-item"),
            ("data-gpu-id", &gpu.id),
            ("data-fits", if item.fits() { "true" } else { "false" }),
            // No published measurement of this GPU: its "More" offers to add one.
            flag("data-unmeasured", matches!(measured, Some(None))),
        ],
    );
    h.open("div", &[("class", "rank-head")]).el(
        "span",
        &[("class", "rank-pos")],
        &position.to_string(),
    );
    h.open("h3", &[("class", "rank-name")]);
    d.link(
        h,
        &Nav::OpenGpu(gpu.id.clone()),
        "name-link",
        None,
        &gpu.name,
    );
    h.close("h3");
    if gpus > 1 {
        h.el("span", &[("class", "badge")], &format!("×{gpus}"));
    }
    if let Some(g) = grade {
        let letter = g.letter();
        h.el(
            "span",
            &[
                (
                    "class",
                    &format!("grade grade-{}", letter.to_ascii_lowercase()),
                ),
                ("data-testid", "grade"),
                ("title", d.t(Key::CardGrade)),
                ("aria-label", &format!("{} {letter}", d.t(Key::CardGrade))),
                ("data-score", &fixed(item.score.unwrap_or(0.0), 3)),
            ],
            letter,
        );
    }
    h.close("div");
    h.open("div", &[("class", "fit-line")]);
    if let Some((class, text)) = fit_badge(lang, &item.reasons) {
        h.el(
            "span",
            &[("class", class), ("data-testid", "fit-badge")],
            &text,
        );
    }
    h.open("span", &[("class", "fit"), ("title", &memory)])
        .el(
            "span",
            &[
                ("class", "fit-bar"),
                ("style", &format!("width:{}%", fixed(fill_pct, 1))),
            ],
            "",
        )
        .close("span")
        .el("span", &[("class", "fit-label")], &memory)
        .close("div");
    h.el(
        "p",
        &[("class", "rank-speed")],
        &time_line(lang, item, &d.state.workload),
    );
    // Its GPU's own measurement, else the same model measured on another GPU, as a
    // neighbour to read the estimate by (the card still offers to add its own).
    if let Some(n) = measured
        .as_ref()
        .and_then(Option::as_ref)
        .or(elsewhere.as_ref())
    {
        measured_line(h, d, n);
    }
    h.el("p", &[("class", "rank-cost")], &cost_line);
    match vs_mine {
        Some((ratio, name)) => {
            h.el(
                "p",
                &[("class", "vs-mine")],
                &fill(
                    d.t(Key::CardVsMine),
                    &[("x", fixed(ratio, 1)), ("name", name.to_string())],
                ),
            );
        }
        None => {
            if let Some(r) = lead {
                h.el("p", &[("class", "rank-why")], &reason_text(lang, r));
            }
        }
    }
    // "More" is written only while open: the page opens and closes it itself (a click on
    // its summary, `more:` in the page's click path), so a redraw carries a dozen closed
    // cards' worth of HTML less.
    h.open(
        "details",
        &[
            ("class", "card-more"),
            ("data-testid", "card-more"),
            flag("open", open),
        ],
    )
    .el(
        "summary",
        &[("data-act", &format!("more:{}", gpu.id))],
        d.t(Key::CardMore),
    );
    if !open {
        h.close("details").close("li");
        return;
    }
    if !cost_more.is_empty() {
        h.el("p", &[("class", "rank-cost")], &cost_more);
    }
    if let Some(speed) = &item.speed {
        h.el(
            "p",
            &[("class", "rank-terms"), ("data-testid", "card-terms")],
            &terms_text(lang, gpu, speed),
        );
    }
    if let Some(None) = measured {
        h.open(
            "p",
            &[("class", "measured"), ("data-testid", "measured-none")],
        )
        .text(d.t(Key::CardMeasuredNone))
        .text(" ");
        d.link(
            h,
            &Nav::AddMeasurement(gpu.id.clone()),
            "link",
            Some("measured-add"),
            d.t(Key::CardMeasuredAdd),
        );
        h.close("p");
    }
    if let Some(c) = item.longest_context {
        h.el(
            "p",
            &[("class", "rank-context"), ("data-testid", "card-context")],
            &fill(
                d.t(if c.whole {
                    Key::CardContextWhole
                } else {
                    Key::CardContext
                }),
                &[
                    ("n", num(f64::from(c.tokens))),
                    ("kv", d.state.workload.kv.as_str().to_ascii_uppercase()),
                ],
            ),
        );
    }
    h.el(
        "p",
        &[("class", "rank-software"), ("data-testid", "card-software")],
        &fill(
            d.t(Key::CardSoftware),
            &[("software", item.software.name().to_string())],
        ),
    );
    if let Some(command) = catalog::command::command(item, &d.state.workload, model) {
        // The command that starts it, to copy (`command::command`).
        let id = &gpu.id;
        h.open("div", &[("class", "rank-command")])
            .el("span", &[], d.t(Key::CardCommand))
            .el(
                "code",
                &[("data-testid", "card-command"), ("data-command-for", id)],
                &command,
            )
            .el(
                "button",
                &[
                    ("type", "button"),
                    ("class", "link"),
                    ("data-testid", "copy-command"),
                    ("data-act", &format!("copy-command:{id}")),
                ],
                d.t(Key::CardCommandCopy),
            )
            .close("div");
    }
    h.open("ul", &[("class", "reasons")]);
    for r in item.reasons.iter().filter(|r| {
        (vs_mine.is_some() || Some(*r) != lead)
            && !matches!(r, Reason::Fits { .. } | Reason::TightFit { .. })
    }) {
        h.el("li", &[], &reason_text(lang, r));
    }
    h.close("ul").open("div", &[("class", "rank-actions")]);
    if mode == Mode::Buy {
        // The person's own price for this GPU: typing one replaces the catalog's (the
        // `price` key of the link); clearing it goes back to the catalog's.
        let yours = item
            .cost
            .purchase
            .as_ref()
            .filter(|p| p.kind == PriceKind::Yours)
            .map(|p| p.usd);
        h.open("label", &[("class", "your-price")])
            .text(d.t(Key::CardYourPrice))
            .open(
                "input",
                &[
                    ("type", "number"),
                    ("inputmode", "decimal"),
                    ("min", "1"),
                    ("data-testid", "your-price"),
                    ("value", &number_text(yours)),
                ],
            )
            .close("label");
    }
    d.link(
        h,
        &Nav::AddToCompare(gpu.id.clone()),
        "link",
        Some("card-compare"),
        d.t(Key::CardCompare),
    );
    d.link(
        h,
        &Nav::OpenGpu(gpu.id.clone()),
        "link",
        Some("card-details"),
        d.t(Key::CardDetails),
    );
    h.close("div").close("details").close("li");
}

/// The published figure nearest a card (`catalog::evidence::nearest`): the figure, what
/// differs from the card's workload when it is not the same run, who published it and
/// when (a link to the source), how far the engine's estimate of that run is from it, and
/// a link to the accuracy page.
fn measured_line(h: &mut Html, d: &Draw, n: &Nearest) {
    let lang = d.lang;
    let row = n.row;
    let value = measured_value(lang, row, n.value, n.unit);
    let off = n.comparison.map(|c| signed_percent(c.off()));
    // A ratio row reads "the estimated ratio is {off}"; other rows say the whole clause.
    let off = match (n.versus, off) {
        (Some(_), off) => off.unwrap_or_else(|| "–".into()),
        (None, Some(pct)) => fill(d.t(Key::CardMeasuredOff), &[("pct", pct)]),
        (None, None) => d.t(Key::CardMeasuredNoEstimate).into(),
    };
    let differs = differences(lang, &n.differs);
    let same_preset =
        matches!(&d.state.workload.model, ModelChoice::Preset(id) if id == row.model());
    let (template, what) = match (n.versus, n.exact()) {
        // A ratio row names what differs after the GPU it was measured against.
        (Some(_), true) => (Key::CardMeasuredRatio, String::new()),
        (Some(_), false) => (
            Key::CardMeasuredRatio,
            format!("{}{differs}", if lang == Lang::Zh { "，" } else { ", " }),
        ),
        // The same family and size, another preset: the line names the model measured.
        (None, true) if !same_preset => (Key::CardMeasuredWith, model_name(row.model())),
        (None, true) => (Key::CardMeasured, String::new()),
        (None, false) => (Key::CardMeasuredNear, differs),
    };
    let other = n
        .versus
        .map(|id| Catalog::embedded().gpu(id).map_or(id, |g| g.name.as_str()))
        .unwrap_or_default();
    let ratio = match (n.versus, row.value()) {
        (Some(v), Some(r)) if v == row.gpu() => num(1.0 / r),
        (Some(_), Some(r)) => num(r),
        _ => String::new(),
    };
    let text = fill(
        d.t(template),
        &[
            ("value", value),
            ("what", what),
            ("off", off),
            ("other", other.to_string()),
            ("ratio", ratio),
        ],
    );
    let source = match row.date() {
        "" => row.publisher().to_string(),
        date => format!("{}, {date}", row.publisher()),
    };
    let (before, after) = text.split_once("{source}").unwrap_or((&text, ""));
    h.open("p", &[("class", "measured"), ("data-testid", "measured")])
        .text(before)
        .el(
            "a",
            &[
                ("href", row.source_url()),
                ("rel", "noopener"),
                ("target", "_blank"),
                ("data-testid", "measured-source"),
            ],
            &source,
        )
        .text(after)
        .text(" ");
    d.link(
        h,
        &Nav::GoTo(catalog::share::View::Accuracy),
        "link",
        Some("measured-accuracy"),
        d.t(Key::CardMeasuredHow),
    );
    h.close("p");
}

/// The estimate's terms in words: what a step spends its time on and the rates it assumes.
fn terms_text(lang: Lang, gpu: &catalog::gpu::Gpu, speed: &catalog::estimate::Speed) -> String {
    use catalog::estimate::{Bound, RateSource, Unit, GEFORCE_MATMUL_SHARE};
    let t = speed.terms;
    let source = match t.rate_source {
        RateSource::Peak => tr(lang, Key::TermsSourcePeak).to_string(),
        RateSource::PowerCap => fill(
            tr(lang, Key::TermsSourcePower),
            &[("watts", whole(gpu.tdp_w.unwrap_or(0.0)))],
        ),
        RateSource::MeasuredShare => fill(
            tr(lang, Key::TermsSourceShare),
            &[("share", num(GEFORCE_MATMUL_SHARE))],
        ),
    };
    let stack = if t.stack_factor == (1.0, 1.0) {
        String::new()
    } else {
        fill(
            tr(lang, Key::TermsStack),
            &[
                ("compute", num(t.stack_factor.0)),
                ("bandwidth", num(t.stack_factor.1)),
            ],
        )
    };
    let per = match speed.unit {
        Unit::Tokens | Unit::TrainTokens if t.per_step == 1.0 => {
            tr(lang, Key::TermsTokenOne).into()
        }
        Unit::Images if t.per_step == 1.0 => tr(lang, Key::TermsImageOne).into(),
        Unit::Samples if t.per_step == 1.0 => tr(lang, Key::TermsSampleOne).into(),
        unit => fill(
            tr(
                lang,
                match unit {
                    Unit::Tokens | Unit::TrainTokens => Key::TermsTokens,
                    Unit::Samples => Key::TermsSamples,
                    Unit::Images => Key::TermsImages,
                    Unit::AudioSeconds => Key::TermsAudio,
                },
            ),
            &[("n", whole(t.per_step))],
        ),
    };
    let share =
        |(low, high): (f64, f64)| format!("{}–{}%", whole(low * 100.0), whole(high * 100.0));
    // A GPU without a known matrix rate is estimated from memory traffic alone.
    let template = if t.tflops.is_finite() {
        Key::CardTerms
    } else {
        Key::CardTermsNoRate
    };
    fill(
        tr(lang, template),
        &[
            ("per", per),
            ("compute", duration(t.compute_s)),
            ("memory", duration(t.memory_s)),
            ("comm", duration(t.communication_s)),
            ("fixed", duration(t.fixed_s)),
            (
                "bound",
                tr(
                    lang,
                    match speed.bound {
                        Bound::Compute => Key::TermsCompute,
                        Bound::Memory => Key::TermsMemory,
                    },
                )
                .to_string(),
            ),
            ("tflops", num(t.tflops)),
            ("compute_share", share(t.compute_share)),
            ("gbs", num(t.bandwidth_gbs)),
            ("bandwidth_share", share(t.bandwidth_share)),
            ("source", source),
            ("stack", stack),
        ],
    )
}

/// A step's time: "0", "45 µs", "12.3 ms", "1.2 s".
fn duration(seconds: f64) -> String {
    match seconds {
        s if s <= 0.0 || !s.is_finite() => "0".into(),
        s if s < 1e-3 => format!("{} µs", num(s * 1e6)),
        s if s < 1.0 => format!("{} ms", num(s * 1e3)),
        s => format!("{} s", num(s)),
    }
}

/// A preset's name, or its id when the catalog does not hold it.
fn model_name(id: &str) -> String {
    Catalog::embedded()
        .model(id)
        .map_or_else(|| id.to_string(), |m| m.name.clone())
}

/// What a measured run has that the card's workload does not, in a few words.
fn differences(lang: Lang, differs: &[Difference]) -> String {
    let words: Vec<String> = differs
        .iter()
        .map(|d| match d {
            Difference::Model(id) | Difference::Sibling(id) => model_name(id),
            Difference::Task(t) => Task::parse(t).map_or(t.clone(), |t| {
                // Within a sentence: "train from scratch". ASCII only: no Unicode case
                // tables in the bundle, and Chinese has no case.
                let mut text = tr(lang, task_key(t)).to_string();
                if let Some(first) = text.get_mut(0..1) {
                    first.make_ascii_lowercase();
                }
                text
            }),
            Difference::Prompt => tr(lang, Key::DiffPrompt).to_string(),
            Difference::Stack(s) => stack_name(s).to_string(),
            Difference::Backend(b) => backend_name(b).to_string(),
            Difference::Precision(p) => p.to_ascii_uppercase(),
            Difference::Batch(b) => fill(tr(lang, Key::DiffBatch), &[("n", whole(*b))]),
            Difference::Gpus(n) => gpu_count(lang, *n as usize),
            Difference::Steps(n) => fill(tr(lang, Key::DiffSteps), &[("n", whole(f64::from(*n)))]),
            Difference::Gpu(id) => Catalog::embedded()
                .gpu(id)
                .map_or_else(|| id.clone(), |g| g.name.clone()),
        })
        .collect();
    words.join(if lang == Lang::Zh { "，" } else { ", " })
}

/// A candidate below the top of the ranking: its name and time, then its price and, when
/// it does not suit as the cards above do, what sets it back (`rank::set_back_by`), so the
/// order reads as the ranking's rule; the same test hooks as a card.
fn row(h: &mut Html, d: &Draw, item: &Ranked, position: usize) {
    let gpu = item.gpu;
    h.open(
        "li",
        &[
            ("class", "rank-row"),
            ("data-testid", "rank-item"),
            ("data-gpu-id", &gpu.id),
            ("data-fits", if item.fits() { "true" } else { "false" }),
        ],
    )
    .el("span", &[("class", "rank-pos")], &position.to_string());
    d.link(h, &Nav::OpenGpu(gpu.id.clone()), "link", None, &gpu.name);
    h.el(
        "span",
        &[("class", "rank-row-speed")],
        &time_line(d.lang, item, &d.state.workload),
    );
    let mut note = Vec::new();
    let price = match d.state.workload.mode {
        Mode::Buy => short_hardware_text(d.lang, &item.cost),
        Mode::Rent => item
            .cost
            .job_usd
            .map(|j| usd_range(j.low, j.high))
            .or_else(|| {
                let r = item.cost.rent_usd_per_hour?;
                Some(fill(
                    d.t(Key::CardRent),
                    &[("usd", format!("${}", fixed(r, 2)))],
                ))
            }),
    };
    note.extend(price);
    if let Some(r) = catalog::rank::set_back_by(item, &d.state.workload) {
        note.push(reason_text(d.lang, r));
    }
    if !note.is_empty() {
        h.el("span", &[("class", "rank-row-note")], &note.join(" · "));
    }
    h.close("li");
}

/// How much of the ranking is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// All of it.
    All,
    /// The cards a screen shows after a change (`FIRST_FRAME_CARDS`), marked
    /// `data-partial`: the page's morph keeps the rest of the list and the folds as they
    /// were until the whole ranking is drawn, after the change has been painted.
    FirstFrame,
    /// What the build writes into `index.html`: the first cards only
    /// (`prerender::CARDS`), no downloads (nothing runs them before the module), no list
    /// of GPUs left out.
    Written(usize),
}

/// The cards drawn before the first frame after a change: the answer and three cards
/// fill a desktop window of 900 px and a phone's several times over; the others follow
/// in the next frame.
pub const FIRST_FRAME_CARDS: usize = 3;

/// The ranking section: its head (with the downloads), the memory the workload needs,
/// whether the visitor's own GPU (`mine`) runs it, the cards, and the GPUs left out with
/// why. `open` lists the GPUs whose "More" is open; `rank_ms` is how long ranking took.
pub fn ranking(
    h: &mut Html,
    d: &Draw,
    r: &Ranking,
    mine: Option<&str>,
    open: &[String],
    rank_ms: f64,
    extent: Extent,
) {
    let lang = d.lang;
    let written = match extent {
        Extent::Written(cards) => Some(cards),
        Extent::All | Extent::FirstFrame => None,
    };
    let partial = extent == Extent::FirstFrame;
    let embedded = d.state.embed || written.is_some();
    h.open(
        "section",
        &[
            ("class", "ranking"),
            ("aria-labelledby", "ranking-heading"),
            ("data-rank-ms", &fixed(rank_ms, 3)),
            flag("data-partial", partial),
        ],
    )
    .open("div", &[("class", "ranking-head")])
    .el("h2", &[("id", "ranking-heading")], d.t(Key::RankHeading));
    if !embedded {
        h.el(
            "button",
            &[
                ("class", "tool"),
                ("data-testid", "export-json"),
                ("data-act", "export-json"),
            ],
            d.t(Key::ExportJson),
        )
        .el(
            "button",
            &[
                ("class", "tool"),
                ("data-testid", "export-csv"),
                ("data-act", "export-csv"),
            ],
            d.t(Key::ExportCsv),
        );
    }
    h.close("div");
    memory_total(h, lang, r);
    // Whether the visitor's own GPU runs this workload, and if not, why; the cards then
    // say how much faster each is.
    // A GPU the person also owns (`have=`) is measured against on its own: in the list,
    // its card is the box with one more of it.
    let owned = |id: &str| d.state.workload.have.iter().any(|h| h == id);
    let mine_item = mine.and_then(|id| match &r.owned_alone {
        Some(alone) if owned(id) => Some(alone),
        _ => r.items.iter().find(|i| i.gpu.id == id),
    });
    if let Some(item) = mine_item {
        let name = item.gpu.name.clone();
        let text = match &item.why_not {
            None => fill(d.t(Key::AdviseMineFits), &[("name", name)]),
            Some(why) => fill(
                d.t(Key::AdviseMineNot),
                &[("name", name), ("why", why_not_text(lang, why))],
            ),
        };
        h.el(
            "p",
            &[
                ("class", "mine-fit"),
                ("data-testid", "mine-fit"),
                ("data-fits", if item.fits() { "true" } else { "false" }),
            ],
            &text,
        );
    }
    let base =
        mine_item.and_then(|i| Some((i.speed.as_ref()?.throughput.mid, i.gpu.name.as_str())));
    let shown = match written {
        Some(cards) => cards,
        None if embedded => EMBED_ITEMS,
        None if partial => FIRST_FRAME_CARDS,
        None => usize::MAX,
    };
    // The GPUs that fit with a price for this mode, in the ranking's order: the first as
    // cards, the rest as rows; those without a price, folded after them.
    let grades = catalog::rank::grades(&r.items);
    if !embedded && grades.iter().any(Option::is_some) {
        h.el("p", &[("class", "grade-legend")], d.t(Key::RankGradeLegend));
    }
    let fitting = r.items.iter().zip(grades).filter(|(i, _)| i.fits());
    let (priced, unpriced): (Vec<_>, Vec<_>) = fitting.partition(|(i, _)| i.score.is_some());
    // Past the cards, those that do not suit as the cards do are folded, after the rows of
    // those that do.
    let set_back = priced
        .iter()
        .enumerate()
        .position(|(n, (i, _))| {
            n >= FULL_CARDS && catalog::rank::set_back_by(i, &d.state.workload).is_some()
        })
        .unwrap_or(priced.len());
    h.open(
        "ol",
        &[("class", "rank-list"), flag("data-partial", partial)],
    );
    for (n, (item, grade)) in priced.iter().take(shown.min(set_back)).enumerate() {
        if n < FULL_CARDS {
            let vs_mine =
                base.and_then(|(b, name)| Some((item.speed.as_ref()?.throughput.mid / b, name)));
            let catalog = Catalog::embedded();
            let measured = d.evidence.map(|rows| {
                catalog::evidence::nearest(catalog, rows, &d.state.workload, &r.model, item)
            });
            let elsewhere = match (d.evidence, &measured) {
                (Some(rows), Some(None)) => catalog::evidence::nearest_elsewhere(
                    catalog,
                    rows,
                    &d.state.workload,
                    &r.model,
                    item,
                ),
                _ => None,
            };
            card(
                h,
                d,
                item,
                n + 1,
                *grade,
                vs_mine,
                measured,
                elsewhere,
                &r.model,
                open.contains(&item.gpu.id),
            );
        } else {
            row(h, d, item, n + 1);
        }
    }
    h.close("ol");
    if embedded || partial {
        h.close("section");
        return;
    }
    if set_back < priced.len() {
        fold(
            h,
            &fill(
                d.t(Key::FoldSetBack),
                &[("gpus", gpu_count(lang, priced.len() - set_back))],
            ),
            "fold-set-back",
            open,
        );
        for (n, (item, _)) in priced.iter().enumerate().skip(set_back) {
            row(h, d, item, n + 1);
        }
        h.close("ol").close("details");
    }
    if !unpriced.is_empty() {
        let key = match d.state.workload.mode {
            Mode::Buy => Key::FoldUnpricedBuy,
            Mode::Rent => Key::FoldUnpricedRent,
        };
        fold(
            h,
            &fill(d.t(key), &[("gpus", gpu_count(lang, unpriced.len()))]),
            "fold-unpriced",
            open,
        );
        for (n, (item, _)) in unpriced.iter().enumerate() {
            row(h, d, item, priced.len() + n + 1);
        }
        h.close("ol").close("details");
    }
    let groups = catalog::rank::ruled_out_by_reason(&r.items);
    if !groups.is_empty() {
        h.el("h2", &[], d.t(Key::ExcludedHeading));
    }
    for group in groups {
        let Some(why) = group[0].why_not.as_ref() else {
            continue;
        };
        let key = format!("fold:out-{}", why.code());
        h.open(
            "details",
            &[
                ("class", "fold"),
                ("data-testid", "ruled-out"),
                ("data-why", why.code()),
                flag("open", open.contains(&key)),
                ("data-fold", &key),
            ],
        )
        .el("summary", &[], &why_not_group_text(lang, why, group.len()))
        .open("ul", &[("class", "excluded")]);
        for item in group {
            let why = item
                .why_not
                .as_ref()
                .map(|w| why_not_text(lang, w))
                .unwrap_or_default();
            h.open(
                "li",
                &[
                    ("data-testid", "rank-item"),
                    ("data-gpu-id", &item.gpu.id),
                    ("data-fits", "false"),
                ],
            )
            .el("strong", &[], &item.gpu.name)
            .text(": ")
            .text(&why)
            .close("li");
        }
        h.close("ul").close("details");
    }
    h.close("section");
}

/// Opens a folded list of rows under `summary`; the caller adds the rows and closes the
/// list and the fold.
fn fold(h: &mut Html, summary: &str, testid: &str, open: &[String]) {
    let key = format!("fold:{testid}");
    h.open(
        "details",
        &[
            ("class", "fold"),
            ("data-testid", testid),
            flag("open", open.contains(&key)),
            ("data-fold", &key),
        ],
    )
    .el("summary", &[], summary)
    .open("ol", &[("class", "rank-list")]);
}
