//! The GPU view: every spec with its source, notes, ecosystems and nearest neighbours.

use catalog::decimal::fixed;
use catalog::gpu::Gpu;
use catalog::share::Nav;
use catalog::support::{self, Level, Library};
use catalog::Catalog;
use leptos::prelude::*;

use crate::components::link::view_link;
use crate::details::Loaded;
use crate::state::use_ctx;
use web::i18n::{fill, num, tr, usd, Key, ViewKey};

/// A price with the month it held: "$1,207 (2026-09)".
fn dated(usd_value: Option<f64>, date: &Option<String>) -> Option<String> {
    usd_value.map(|v| format!("{} ({})", usd(v), date.clone().unwrap_or_default()))
}

/// (label, schema field, shown value) for every numeric spec.
fn specs(g: &Gpu) -> Vec<(ViewKey, &'static str, Option<String>)> {
    let p = &g.price;
    let tf = |v: Option<f64>| v.map(|v| format!("{} TFLOPS", num(v)));
    vec![
        (
            ViewKey::SpecMemory,
            "memory_gb",
            Some(format!(
                "{} GB {}",
                num(g.memory_gb),
                g.memory_type.clone().unwrap_or_default()
            )),
        ),
        (
            ViewKey::SpecBandwidth,
            "memory_bandwidth_gbs",
            g.memory_bandwidth_gbs.map(|v| format!("{} GB/s", num(v))),
        ),
        (ViewKey::SpecFp32, "fp32_tflops", tf(g.fp32_tflops)),
        (ViewKey::SpecFp16Shader, "fp16_tflops", tf(g.fp16_tflops)),
        (
            ViewKey::SpecTf32,
            "tf32_tensor_tflops",
            tf(g.tf32_tensor_tflops),
        ),
        (
            ViewKey::SpecFp16,
            "fp16_tensor_tflops",
            tf(g.fp16_tensor_tflops),
        ),
        (
            ViewKey::SpecBf16,
            "bf16_tensor_tflops",
            tf(g.bf16_tensor_tflops),
        ),
        (
            ViewKey::SpecFp8,
            "fp8_tensor_tflops",
            tf(g.fp8_tensor_tflops),
        ),
        (
            ViewKey::SpecInt8,
            "int8_tensor_tops",
            g.int8_tensor_tops.map(|v| format!("{} TOPS", num(v))),
        ),
        (
            ViewKey::SpecTdp,
            "tdp_w",
            g.tdp_w.map(|v| format!("{} W", num(v))),
        ),
        (
            ViewKey::SpecLink,
            "interconnect.bandwidth_gbs",
            g.interconnect.as_ref().and_then(|i| {
                i.bandwidth_gbs
                    .map(|b| format!("{} {} GB/s", i.kind.as_str(), num(b)))
            }),
        ),
        (
            ViewKey::SpecPrice,
            "price.msrp_usd",
            dated(p.msrp_usd, &p.msrp_date),
        ),
        (
            ViewKey::SpecStreet,
            "price.street_usd",
            dated(p.street_usd, &p.street_date),
        ),
        (
            ViewKey::SpecUsed,
            "price.used_usd",
            dated(p.used_usd, &p.used_date),
        ),
        (
            ViewKey::SpecServer,
            "price.server_usd_per_gpu",
            dated(p.server_usd_per_gpu, &p.server_date),
        ),
        (
            ViewKey::SpecCloud,
            "price.cloud_usd_per_hour",
            g.price.cloud_usd_per_hour.map(|v| {
                format!(
                    "${}/h ({})",
                    fixed(v, 2),
                    g.price.cloud_date.clone().unwrap_or_default()
                )
            }),
        ),
    ]
}

/// GPUs closest in memory and bandwidth (log distance).
fn neighbours(catalog: &'static Catalog, g: &Gpu) -> Vec<&'static Gpu> {
    let key = |x: &Gpu| (x.memory_gb.ln(), x.memory_bandwidth_gbs.unwrap_or(1.0).ln());
    let (m0, b0) = key(g);
    let mut others: Vec<(f64, &Gpu)> = catalog
        .gpus
        .iter()
        .filter(|x| x.id != g.id)
        .map(|x| {
            let (m, b) = key(x);
            ((m - m0).powi(2) + (b - b0).powi(2), x)
        })
        .collect();
    catalog::order::sort_by(&mut others, |a, b| a.0.total_cmp(&b.0));
    others.into_iter().take(4).map(|(_, x)| x).collect()
}

#[component]
pub fn GpuDetail() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    let catalog = Catalog::embedded();
    // Owned by `App`: re-rendering this view never disposes it.
    let info = ctx.details();
    let id = Memo::new(move |_| ctx.ids.with(|ids| ids.first().cloned()));
    move || {
        let Some(g) = id.get().as_deref().and_then(|id| catalog.gpu(id)) else {
            return view! { <p class="empty">{move || tr(lang(), ViewKey::GpuPick)}</p> }
                .into_any();
        };
        let gpu_id = g.id.clone();
        let mine = Memo::new(move |_| match info.get() {
            Loaded::Ready(all) => Some(all.into_iter().find(|d| d.id == gpu_id)),
            _ => None,
        });
        let source_of = move |field: &'static str| {
            mine.get()
                .flatten()
                .and_then(|d| {
                    d.sources
                        .into_iter()
                        .find(|s| s.fields.iter().any(|f| f == field))
                })
                .map(|s| s.url)
        };
        // Notes, or why they are missing; the specifications above stay either way.
        let notes = move || {
            match info.get() {
            Loaded::Loading => view! { <p class="empty">{tr(lang(), ViewKey::GpuLoading)}</p> }.into_any(),
            Loaded::Failed(e) => view! {
                <p class="empty" role="alert" data-testid="gpu-load-failed">
                    {fill(tr(lang(), ViewKey::GpuLoadFailed), &[("why", e)])}
                    " "
                    <button class="tool" data-testid="gpu-retry" on:click=move |_| ctx.retry_details()>
                        {tr(lang(), ViewKey::GpuRetry)}
                    </button>
                </p>
            }.into_any(),
            Loaded::Ready(_) => view! {
                <ul class="notes">{mine.get().flatten().map(|d| d.notes).unwrap_or_default().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            }.into_any(),
        }
        };
        let specs_rows = move || {
            specs(g).into_iter().map(|(label, field, value)| {
            view! {
                <tr>
                    <th scope="row">{tr(lang(), label)}</th>
                    <td>{value.unwrap_or_else(|| tr(lang(), ViewKey::GpuUnknown).into())}</td>
                    <td>{move || source_of(field).map(|url| view! { <a href=url rel="noopener" target="_blank" data-testid="spec-source">{tr(lang(), ViewKey::GpuSource)}</a> })}</td>
                </tr>
            }
        }).collect_view()
        };
        // What runs here, from the support table (`catalog::support`), each row with its source.
        let library_rows = move || {
            Library::ALL.into_iter().map(|lib| {
                let (level, row) = support::support(g, lib);
                let text = match level {
                    Level::Supported => ViewKey::SupportSupported,
                    Level::Experimental => ViewKey::SupportExperimental,
                    Level::Unsupported => ViewKey::SupportUnsupported,
                };
                // Where it is unsupported, the statement of what it does support.
                let source = row.or_else(|| support::statement(lib)).map(|r| {
                    let text = r.source.text();
                    let (url, note) = text.split_once(' ').unwrap_or((text, ""));
                    view! { <a href=url.to_string() title=note.trim().to_string() rel="noopener" target="_blank">{tr(lang(), ViewKey::GpuSource)}</a> }
                });
                view! {
                    <tr data-level=level.as_str()>
                        <th scope="row">{lib.name()}</th>
                        <td>{tr(lang(), text)}</td>
                        <td>{source}</td>
                    </tr>
                }
            }).collect_view()
        };
        view! {
            <article class="gpu-detail" data-testid="gpu-detail" data-gpu-id=g.id.clone()>
                <h1>{g.name.clone()}</h1>
                <p class="meta">{format!("{} · {} · {}", g.architecture, g.released.map(|y| y.to_string()).unwrap_or_default(), g.ecosystems.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(", "))}
                    {g.compute_capability.clone().map(|cc| format!(" · CUDA {cc}"))}</p>
                <p class="gpu-actions">{
                    let id = g.id.clone();
                    view_link(Nav::AddToCompare(id), "link", Some("gpu-compare"), Signal::derive(move || tr(lang(), Key::CardCompare).to_string()))
                }</p>
                <table class="spec-table">
                    <tbody>{specs_rows}</tbody>
                </table>
                <h2>{move || tr(lang(), ViewKey::GpuLibraries)}</h2>
                <table class="spec-table" data-testid="gpu-libraries">
                    <thead><tr>
                        <th scope="col">{move || tr(lang(), ViewKey::GpuLibrary)}</th>
                        <th scope="col">{move || tr(lang(), ViewKey::GpuSupport)}</th>
                        <th scope="col">{move || tr(lang(), ViewKey::GpuSourceColumn)}</th>
                    </tr></thead>
                    <tbody>{library_rows}</tbody>
                </table>
                <h2>{move || tr(lang(), ViewKey::GpuNotes)}</h2>
                {notes}
                <h2>{move || tr(lang(), ViewKey::GpuNeighbours)}</h2>
                <ul class="neighbours">
                    {neighbours(catalog, g).into_iter().map(|n| {
                        let id = n.id.clone();
                        view! { <li>{view_link(Nav::OpenGpu(id), "link", Some("gpu-neighbour"), n.name.clone().into())}</li> }
                    }).collect_view()}
                </ul>
                <h2>{move || tr(lang(), ViewKey::GpuSources)}</h2>
                <ul class="sources">
                    {move || mine.get().flatten().map(|d| d.sources).unwrap_or_default().into_iter().map(|s| view! {
                        <li><a href=s.url.clone() rel="noopener" target="_blank">{s.url.clone()}</a>" — "{s.fields.join(", ")}</li>
                    }).collect_view()}
                </ul>
            </article>
        }.into_any()
    }
}
