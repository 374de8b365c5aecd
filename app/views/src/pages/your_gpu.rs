//! The bench view: measures the visitor's GPU with WebGPU on request, says what was
//! measured and how, and places the result among the catalog. The measurement's code is
//! a separate module loaded only when a run starts (`crate::measurement`). Whatever the
//! browser, the person can pick their GPU by hand; it is kept in the page's own storage
//! and goes into a link only when they ask.

use catalog::share::Nav;
use catalog::workload::Measured;
use catalog::Catalog;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::link::view_link;
use crate::measurement;
use crate::state::use_ctx;
use crate::state::{t, tv};
use web::i18n::{fill, num, tr, Key, ViewKey};
use web::url::{my_gpu, storage, MINE_KEY};

#[component]
pub fn YourGpu() -> impl IntoView {
    let ctx = use_ctx();
    let catalog = Catalog::embedded();
    let mine = RwSignal::new(my_gpu(ctx.mine.get_untracked()));
    // The bandwidth a finished run on a real GPU measured, in GB/s.
    let measured = RwSignal::new(None::<f64>);
    let choose = move |id: String| {
        if let Some(s) = storage() {
            let _ = s.set_item(MINE_KEY, &id);
        }
        mine.set(Some(id));
    };
    view! {
        <section class="bench">
            <h1>{t(Key::NavBench)}</h1>
            <Detected />
            <Measure choose=Callback::new(choose) measured=measured />
            <h2>{tv(ViewKey::BenchPickTitle)}</h2>
            <label for="mine-select">{tv(ViewKey::BenchPickLabel)}</label>
            <select id="mine-select" on:change=move |ev| {
                let id = event_target_value(&ev);
                if !id.is_empty() { choose(id); }
            }>
                <option value="">"—"</option>
                {catalog.gpus.iter().map(|g| {
                    let id = g.id.clone();
                    view! { <option value=g.id.clone() selected=move || mine.get().as_deref() == Some(id.as_str())>{g.name.clone()}</option> }
                }).collect_view()}
            </select>
            {move || mine.get().and_then(|id| catalog.gpu(&id)).map(|g| {
                let id = g.id.clone();
                // Beside the card, its speed from the bandwidth measured here, once a run has.
                let spec = g.memory_bandwidth_gbs.unwrap_or(0.0);
                let consistent = measured.get().filter(|gbs| catalog::bench::bandwidth_consistent(spec, *gbs));
                // A figure this card does not measure stays out of its estimates, and says why.
                let unlike = measured.get().filter(|_| consistent.is_none()).map(|gbs| {
                    let (lo, hi) = catalog::bench::WEBGPU_BANDWIDTH_EFFICIENCY;
                    let text = fill(tr(ctx.lang(), ViewKey::BenchMeasuredUnlike), &[
                        ("gbs", num(gbs)),
                        ("name", g.name.clone()),
                        ("lo", catalog::decimal::fixed(lo * 100.0, 0)),
                        ("hi", catalog::decimal::fixed(hi * 100.0, 0)),
                        ("spec", num(spec)),
                    ]);
                    view! { <p data-testid="measured-unlike">{text}</p> }
                });
                let have = match consistent {
                    Some(gbs) => {
                        let label = move || fill(tr(ctx.lang(), ViewKey::BenchHaveMeasured), &[("gbs", num(gbs))]);
                        view_link(Nav::HaveMeasured(Measured { gpu: id.clone(), gbs }), "link", Some("have-mine"), Signal::derive(label))
                    }
                    None => view_link(Nav::Have(id.clone()), "link", Some("have-mine"), Signal::derive(move || tr(ctx.lang(), ViewKey::BenchHave).to_string())),
                };
                view! {
                    <p>{fill(tr(ctx.lang(), ViewKey::BenchMine), &[("name", g.name.clone())])}" "
                        {view_link(Nav::ShareMine(id), "link", Some("share-mine"), Signal::derive(move || tr(ctx.lang(), ViewKey::BenchShareMine).to_string()))}" · "
                        {have}</p>
                    {unlike}
                }
            })}
        </section>
    }
}

/// What the browser's WebGPU adapter says it is: vendor, architecture, description, and
/// whether it is a software fallback.
#[derive(Debug, Clone, PartialEq)]
struct AdapterText {
    vendor: String,
    architecture: String,
    description: String,
    software: bool,
}

/// Asks the browser for its WebGPU adapter and reads `GPUAdapterInfo`, without creating
/// a device or running anything. `None` without WebGPU or an adapter.
async fn adapter_text() -> Option<AdapterText> {
    use js_sys::{Function, Promise, Reflect};
    let get = |from: &wasm_bindgen::JsValue, key: &str| {
        Reflect::get(from, &key.into())
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
    };
    let navigator = web_sys::window()?.navigator();
    let gpu = get(&navigator, "gpu")?;
    let request: Function = get(&gpu, "requestAdapter")?.dyn_into().ok()?;
    let promise: Promise = request.call0(&gpu).ok()?.dyn_into().ok()?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let info = get(&adapter, "info")?;
    let text = |key: &str| {
        get(&info, key)
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let fallback = |from: &wasm_bindgen::JsValue| {
        get(from, "isFallbackAdapter").and_then(|v| v.as_bool()) == Some(true)
    };
    let architecture = text("architecture");
    Some(AdapterText {
        software: fallback(&info) || fallback(&adapter) || architecture.contains("swiftshader"),
        vendor: text("vendor"),
        architecture,
        description: text("description"),
    })
}

/// The card(s) the browser's adapter may be (`catalog::adapter::candidates`), each a
/// one-click link that ranks cards to add beside it (`have=`); nothing without WebGPU.
#[component]
fn Detected() -> impl IntoView {
    let ctx = use_ctx();
    let found = RwSignal::new(None::<AdapterText>);
    leptos::task::spawn_local(async move {
        if let Some(a) = adapter_text().await {
            found.set(Some(a));
        }
    });
    move || {
        let a = found.get()?;
        let lang = ctx.lang();
        if a.software {
            let text = fill(
                tr(lang, ViewKey::BenchDetectedSoftware),
                &[("architecture", a.architecture.clone())],
            );
            return Some(
                view! { <p data-testid="detected" data-state="software">{text}</p> }.into_any(),
            );
        }
        let catalog = Catalog::embedded();
        let cards =
            catalog::adapter::candidates(catalog, &a.vendor, &a.architecture, &a.description);
        let link = |id: String, label: String| {
            view! { <li>{view_link(Nav::Have(id), "link", Some("detected-have"), Signal::derive(move || label.clone()))}</li> }
        };
        match cards.as_slice() {
            [] => None,
            [one] => {
                let intro = fill(
                    tr(lang, ViewKey::BenchDetectedOne),
                    &[("name", one.name.clone())],
                );
                let label = fill(
                    tr(lang, ViewKey::BenchHaveOne),
                    &[("name", one.name.clone())],
                );
                Some(
                    view! {
                        <div data-testid="detected" data-state="one">
                            <p>{intro}</p>
                            <ul>{link(one.id.clone(), label)}</ul>
                        </div>
                    }
                    .into_any(),
                )
            }
            many => {
                // The catalog's names for what the adapter reported.
                let intro = fill(
                    tr(lang, ViewKey::BenchDetectedSome),
                    &[
                        ("vendor", many[0].vendor.name().to_string()),
                        ("architecture", many[0].architecture.clone()),
                    ],
                );
                let links = many
                    .iter()
                    .map(|g| link(g.id.clone(), g.name.clone()))
                    .collect_view();
                Some(
                    view! {
                        <div data-testid="detected" data-state="some">
                            <p>{intro}</p>
                            <ul>{links}</ul>
                        </div>
                    }
                    .into_any(),
                )
            }
        }
    }
}

/// Where the measurement stands, as far as the page knows.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Idle,
    /// Fetching the measurement module.
    Loading,
    /// The module could not be loaded, or stopped without a report.
    Failed(String),
    /// The module is loaded and draws the run from its records.
    Loaded,
}

/// The measurement: start button, live status, and what the measurement module draws.
#[component]
fn Measure(choose: Callback<String>, measured: RwSignal<Option<f64>>) -> impl IntoView {
    let ctx = use_ctx();
    let phase = RwSignal::new(Phase::Idle);
    let progress = RwSignal::new(String::new());
    let outcome = RwSignal::new(String::new());
    let module = StoredValue::new_local(None::<measurement::Module>);
    let start = move |_| {
        progress.set(String::new());
        outcome.set(String::new());
        measured.set(None);
        phase.set(Phase::Loading);
        leptos::task::spawn_local(async move {
            let loaded = match module.get_value() {
                Some(m) => Ok(m),
                None => measurement::load().await,
            };
            let m = match loaded {
                Ok(m) => m,
                Err(why) => return phase.set(Phase::Failed(why.to_string())),
            };
            module.set_value(Some(m.clone()));
            phase.set(Phase::Loaded);
            match m
                .measure(move |line| progress.update(|p| p.push_str(&line)))
                .await
            {
                Ok(report) => {
                    measured.set(
                        catalog::bench::report::Outcome::decode(&report)
                            .ok()
                            .and_then(|o| o.bandwidth_gbs()),
                    );
                    outcome.set(report);
                }
                Err(why) => phase.set(Phase::Failed(why.to_string())),
            }
        });
    };
    // Drawing is cheap (a call into the loaded module), so each binding below draws.
    let drawn = move || {
        let lang = ctx.lang();
        let plain = |state: &str, status: String| measurement::Drawn {
            state: state.into(),
            status,
            html: String::new(),
        };
        match phase.get() {
            Phase::Idle => plain("idle", tr(lang, ViewKey::BenchIdle).into()),
            Phase::Loading => plain("running", tr(lang, ViewKey::BenchStageLoad).into()),
            Phase::Failed(why) => plain(
                "error",
                fill(tr(lang, ViewKey::BenchError), &[("why", why.to_string())]),
            ),
            Phase::Loaded => module
                .with_value(|m| {
                    m.as_ref()
                        .map(|m| progress.with(|p| outcome.with(|o| m.render(p, o, lang))))
                })
                .unwrap_or_else(|| Err(web::JsError::new("the measurement module is gone")))
                .unwrap_or_else(|why| {
                    plain(
                        "error",
                        fill(tr(lang, ViewKey::BenchError), &[("why", why.to_string())]),
                    )
                }),
        }
    };
    // The "This is my GPU" buttons live in the drawn fragment: one listener for all.
    let pick = move |ev: web_sys::MouseEvent| {
        let id = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.get_attribute("data-gpu"));
        if let Some(id) = id {
            choose.run(id);
        }
    };
    view! {
        <p>{tv(ViewKey::BenchIntro)}</p>
        <button class="primary" data-testid="bench-start"
            disabled=move || drawn().state == "running"
            on:click=start>{tv(ViewKey::BenchStart)}</button>
        <p data-testid="bench-status" data-state=move || drawn().state role="status">
            {move || drawn().status}
        </p>
        <div class="bench-results" on:click=pick inner_html=move || drawn().html></div>
    }
}
