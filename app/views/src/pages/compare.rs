//! The compare view: 2–4 GPUs side by side, the best value in each row marked.

use catalog::decimal::fixed;
use catalog::gpu::Gpu;
use catalog::rank::rank;

use catalog::share::Nav;
use catalog::support::{self, Level, Library};
use catalog::Catalog;
use leptos::prelude::*;

use catalog::chart::{Point, Scatter};
use catalog::workload::Mode;

use crate::components::chart::ScatterChart;
use crate::components::link::view_link;
use crate::state::tv;
use crate::state::use_ctx;
use web::i18n::{fill, num, tr, usd, Key, ViewKey};
use web::text::{range_text, summary, throughput_text, unit_text, why_not_text};

/// A spec row: label, value per GPU, and whether higher is better (None: not compared).
struct Row {
    label: ViewKey,
    values: Vec<Option<f64>>,
    higher_is_better: Option<bool>,
    format: fn(f64) -> String,
}

fn spec_rows(gpus: &[&Gpu]) -> Vec<Row> {
    let col = |f: fn(&Gpu) -> Option<f64>| gpus.iter().map(|g| f(g)).collect::<Vec<_>>();
    vec![
        Row {
            label: ViewKey::SpecMemory,
            values: col(|g| Some(g.memory_gb)),
            higher_is_better: Some(true),
            format: |v| format!("{} GB", num(v)),
        },
        Row {
            label: ViewKey::SpecBandwidth,
            values: col(|g| g.memory_bandwidth_gbs),
            higher_is_better: Some(true),
            format: |v| format!("{} GB/s", num(v)),
        },
        Row {
            label: ViewKey::SpecFp32,
            values: col(|g| g.fp32_tflops),
            higher_is_better: Some(true),
            format: |v| format!("{} TFLOPS", num(v)),
        },
        Row {
            label: ViewKey::SpecBf16,
            values: col(|g| g.bf16_tensor_tflops),
            higher_is_better: Some(true),
            format: |v| format!("{} TFLOPS", num(v)),
        },
        Row {
            label: ViewKey::SpecFp16,
            values: col(|g| g.fp16_tensor_tflops),
            higher_is_better: Some(true),
            format: |v| format!("{} TFLOPS", num(v)),
        },
        Row {
            label: ViewKey::SpecFp8,
            values: col(|g| g.fp8_tensor_tflops),
            higher_is_better: Some(true),
            format: |v| format!("{} TFLOPS", num(v)),
        },
        Row {
            label: ViewKey::SpecInt8,
            values: col(|g| g.int8_tensor_tops),
            higher_is_better: Some(true),
            format: |v| format!("{} TOPS", num(v)),
        },
        Row {
            label: ViewKey::SpecTdp,
            values: col(|g| g.tdp_w),
            higher_is_better: Some(false),
            format: |v| format!("{} W", num(v)),
        },
        Row {
            // Today's price to buy one (new, or used once no longer sold new), not the
            // launch price the GPU view lists with the others.
            label: ViewKey::SpecBuyToday,
            values: col(|g| g.purchase_usd()),
            higher_is_better: Some(false),
            format: usd,
        },
        Row {
            label: ViewKey::SpecCloud,
            values: col(|g| g.price.cloud_usd_per_hour),
            higher_is_better: Some(false),
            format: |v| format!("${}/h", fixed(v, 2)),
        },
        Row {
            label: ViewKey::SpecLink,
            values: col(|g| g.interconnect.as_ref().and_then(|i| i.bandwidth_gbs)),
            higher_is_better: Some(true),
            format: |v| format!("{} GB/s", num(v)),
        },
        Row {
            label: ViewKey::SpecReleased,
            values: col(|g| g.released.map(f64::from)),
            higher_is_better: None,
            format: |v| fixed(v, 0),
        },
    ]
}

/// What tells a GPU apart from its namesakes in the search: memory, how it is built in,
/// and its year ("80 GB · SXM · 2020").
fn variant(g: &Gpu) -> String {
    let mut parts = vec![format!("{} GB", num(g.memory_gb))];
    parts.push(g.form_factor.as_str().to_ascii_uppercase());
    if let Some(year) = g.released {
        parts.push(year.to_string());
    }
    parts.join(" · ")
}

/// Estimated speed for the workload against price, for every GPU with both figures.
fn speed_vs_price(
    ranking: &catalog::rank::Ranking,
    ids: &[String],
    mode: Mode,
    lang: catalog::share::Lang,
) -> Scatter {
    let points = ranking
        .items
        .iter()
        .filter(|r| r.fits())
        .filter_map(|r| {
            let speed = r.speed.as_ref()?;
            let price = match mode {
                Mode::Buy => r.gpu.purchase_usd()?,
                Mode::Rent => r.gpu.price.cloud_usd_per_hour?,
            };
            Some(Point {
                label: r.gpu.name.clone(),
                x: price,
                y: speed.throughput.mid,
                highlight: ids.contains(&r.gpu.id),
            })
        })
        .collect::<Vec<_>>();
    let unit = ranking
        .items
        .iter()
        .find_map(|r| r.speed.as_ref().map(|s| s.unit))
        .map(|u| unit_text(lang, u))
        .unwrap_or_default();
    Scatter {
        title: tr(lang, ViewKey::ChartSpeedPriceTitle).into(),
        x_label: tr(
            lang,
            if mode == Mode::Buy {
                ViewKey::ChartPriceBuy
            } else {
                ViewKey::ChartPriceRent
            },
        )
        .into(),
        y_label: fill(tr(lang, ViewKey::ChartSpeed), &[("unit", unit.into())]),
        x_log: true,
        y_log: true,
        points,
        legend: (
            tr(lang, ViewKey::ChartLegendAll).into(),
            tr(lang, ViewKey::ChartLegendCompared).into(),
        ),
    }
}

/// Memory against bandwidth for every GPU in the catalog.
fn memory_vs_bandwidth(catalog: &Catalog, ids: &[String], lang: catalog::share::Lang) -> Scatter {
    Scatter {
        title: tr(lang, ViewKey::ChartMemBwTitle).into(),
        x_label: tr(lang, ViewKey::ChartMemory).into(),
        y_label: tr(lang, ViewKey::ChartBandwidth).into(),
        x_log: true,
        y_log: true,
        points: catalog
            .gpus
            .iter()
            .filter_map(|g| {
                Some(Point {
                    label: g.name.clone(),
                    x: g.memory_gb,
                    y: g.memory_bandwidth_gbs?,
                    highlight: ids.contains(&g.id),
                })
            })
            .collect(),
        legend: (
            tr(lang, ViewKey::ChartLegendAll).into(),
            tr(lang, ViewKey::ChartLegendCompared).into(),
        ),
    }
}

#[component]
pub fn Compare() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    let catalog = Catalog::embedded();
    let query = RwSignal::new(String::new());
    let ids = ctx.ids;
    let ranking = Memo::new(move |_| {
        ctx.inputs
            .with(|(w, _)| rank(catalog, w, &catalog::share::Filters::default()))
    });
    let matches = move || {
        let q = query.get();
        if q.trim().is_empty() {
            return Vec::new();
        }
        catalog
            .search(&q)
            .into_iter()
            .take(8)
            .map(|g| (g.id.clone(), g.name.clone(), variant(g)))
            .collect::<Vec<_>>()
    };
    let mine = move || web::url::my_gpu(ctx.mine.get());
    let add = move |id: String| {
        query.set(String::new());
        ctx.go(&Nav::AddToCompare(id));
    };

    view! {
        <section class="compare" aria-labelledby="compare-heading">
            <h1 id="compare-heading">{tv(ViewKey::CompareHeading)}</h1>
            <div class="compare-search">
                <label for="gpu-search">{tv(ViewKey::CompareSearch)}</label>
                <input id="gpu-search" type="search" autocomplete="off" data-testid="compare-search"
                    prop:value=move || query.get()
                    on:input=move |ev| query.set(event_target_value(&ev)) />
                {move || mine().filter(|m| !ids.with(|ids| ids.contains(m))).and_then(|m| catalog.gpu(&m)).map(|g| {
                    let id = g.id.clone();
                    view! { <p><button class="link" data-testid="compare-add-mine" on:click=move |_| add(id.clone())>
                        {fill(tr(lang(), ViewKey::CompareAddMine), &[("name", g.name.clone())])}</button></p> }
                })}
                <ul class="search-results">
                    {move || matches().into_iter().map(|(id, name, detail)| {
                        let id2 = id.clone();
                        view! { <li><button class="link" data-testid="compare-add" data-gpu-id=id on:click=move |_| add(id2.clone())>{"+ "}{name}</button>" "<span class="variant">{detail}</span></li> }
                    }).collect_view()}
                </ul>
            </div>
            {move || {
                let gpus: Vec<&'static Gpu> = ids.get().iter().filter_map(|id| catalog.gpu(id)).collect();
                if gpus.is_empty() {
                    return view! { <p class="empty">{tr(lang(), ViewKey::CompareEmpty)}</p> }.into_any();
                }
                let rows = spec_rows(&gpus);
                view! {
                    <div class="table-wrap">
                    <table class="spec-table" data-testid="compare-table">
                        <thead>
                            <tr>
                                <th scope="col">{tr(lang(), ViewKey::SpecColumn)}</th>
                                {gpus.iter().map(|g| {
                                    let id = g.id.clone();
                                    let detail = g.id.clone();
                                    view! {
                                        <th scope="col" data-gpu-id=g.id.clone()>
                                            {view_link(Nav::OpenGpu(detail), "link", Some("compare-open"), g.name.clone().into())}
                                            <button class="remove" data-testid="compare-remove"
                                                aria-label=fill(tr(lang(), ViewKey::CompareRemove), &[("name", g.name.clone())])
                                                on:click=move |_| { ctx.go(&Nav::Uncompare(id.clone())) }>"×"</button>
                                        </th>
                                    }
                                }).collect_view()}
                            </tr>
                        </thead>
                        <tbody>
                            {rows.into_iter().map(|row| {
                                let best = row.higher_is_better.and_then(|higher| {
                                    let known = row.values.iter().flatten().copied();
                                    if higher { known.reduce(f64::max) } else { known.reduce(f64::min) }
                                });
                                let max = row.values.iter().flatten().copied().fold(0.0, f64::max);
                                view! {
                                    <tr>
                                        <th scope="row">{tr(lang(), row.label)}</th>
                                        {row.values.iter().map(|v| match v {
                                            Some(v) => {
                                                let is_best = best == Some(*v) && gpus.len() > 1;
                                                // A bar only where more or less is better: a release year's length means nothing.
                                                let bar = row.higher_is_better.map(|_| {
                                                    let pct = if max > 0.0 { v / max * 100.0 } else { 0.0 };
                                                    view! { <span class="bar" style=format!("width:{}%", fixed(pct, 0))></span> }
                                                });
                                                view! {
                                                    <td class:best=is_best>
                                                        {bar}
                                                        <span class="val">{(row.format)(*v)}{is_best.then_some(" ★")}</span>
                                                    </td>
                                                }.into_any()
                                            }
                                            None => view! { <td class="na">"—"</td> }.into_any(),
                                        }).collect_view()}
                                    </tr>
                                }
                            }).collect_view()}
                            <tr>
                                <th scope="row">{tr(lang(), ViewKey::CompareWorkload)}
                                    <span class="workload-named" data-testid="compare-workload">
                                        {move || ctx.inputs.with(|(w, _)| summary(lang(), catalog, w))}
                                    </span>
                                </th>
                                {gpus.iter().map(|g| ranking.with(|r| {
                                    let item = r.items.iter().find(|i| i.gpu.id == g.id);
                                    // Speed against the visitor's own GPU, when it is another compared one that runs the job.
                                    let speed = |id: &str| r.items.iter().find(|i| i.gpu.id == id && i.fits()).and_then(|i| Some(i.speed.as_ref()?.throughput.mid));
                                    let vs_mine = mine().filter(|m| *m != g.id && ids.with(|ids| ids.contains(m)))
                                        .and_then(|m| Some(speed(&g.id)? / speed(&m)?));
                                    let text = match item {
                                        Some(i) if i.fits() => match &i.speed {
                                            Some(s) => match s.job_hours {
                                                Some(h) => fill(tr(lang(), Key::CardJobHours), &[("range", range_text(h)), ("mid", num(h.mid))]),
                                                None => {
                                                    let speed = throughput_text(lang(), s.throughput, s.unit);
                                                    // On the ladder, the type each card runs: "… tokens/s at Q6_K".
                                                    match i.quantized() {
                                                        Some(p) => fill(tr(lang(), Key::PickAtQuant), &[("speed", speed), ("q", p.as_str().to_ascii_uppercase())]),
                                                        None => speed,
                                                    }
                                                }
                                            },
                                            None => tr(lang(), Key::ReasonSpeedUnknown).into(),
                                        },
                                        Some(i) => i.why_not.as_ref().map(|w| why_not_text(lang(), w)).unwrap_or_default(),
                                        None => String::new(),
                                    };
                                    let text = match vs_mine {
                                        Some(x) => format!("{text} · {}", fill(tr(lang(), ViewKey::CompareVsMine), &[("x", fixed(x, 1))])),
                                        None => text,
                                    };
                                    view! { <td>{text}</td> }
                                })).collect_view()}
                            </tr>
                            // What runs on each (`catalog::support`); each GPU's page cites the sources.
                            <tr class="group">
                                <th scope="rowgroup" colspan=(gpus.len() + 1).to_string()>{tr(lang(), ViewKey::GpuLibraries)}</th>
                            </tr>
                            {Library::ALL.into_iter().map(|lib| view! {
                                <tr data-library=lib.as_str()>
                                    <th scope="row">{lib.name()}</th>
                                    {gpus.iter().map(|g| {
                                        let level = support::level(g, lib);
                                        let text = match level {
                                            Level::Supported => ViewKey::SupportSupported,
                                            Level::Experimental => ViewKey::SupportExperimental,
                                            Level::Unsupported => ViewKey::SupportUnsupported,
                                        };
                                        view! { <td data-level=level.as_str()>{tr(lang(), text)}</td> }
                                    }).collect_view()}
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    </div>
                    {ranking.with(|r| {
                        let ids = ids.get();
                        let mode = ctx.inputs.with(|(w, _)| w.mode);
                        let chart = speed_vs_price(r, &ids, mode, lang());
                        // A compared GPU the price chart cannot place is named, not dropped.
                        let missing: Vec<String> = gpus
                            .iter()
                            .filter(|g| !chart.points.iter().any(|p| p.label == g.name))
                            .map(|g| g.name.clone())
                            .collect();
                        let note = (!missing.is_empty()).then(|| view! {
                            <p class="chart-note" data-testid="chart-missing">
                                {fill(tr(lang(), ViewKey::ChartMissing), &[("names", missing.join(", "))])}
                            </p>
                        });
                        view! {
                            <div class="charts">
                                <div>
                                    <ScatterChart chart=chart name_header="GPU" />
                                    {note}
                                </div>
                                <ScatterChart chart=memory_vs_bandwidth(catalog, &ids, lang()) name_header="GPU" />
                            </div>
                        }
                    })}
                }.into_any()
            }}
        </section>
    }
}
