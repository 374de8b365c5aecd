//! The bench view: measures the visitor's GPU with WebGPU on request (in builds with
//! the `webgpu-bench` feature), says what was measured and how, and places the result
//! among the catalog. Whatever the build, the person can pick their GPU by hand; it is
//! kept in the page's own storage and goes into a link only when they ask.

#[cfg(feature = "webgpu-bench")]
use catalog::bench::{self, Kernel};
use catalog::share::View;
use catalog::Catalog;
use leptos::prelude::*;

#[cfg(feature = "webgpu-bench")]
use crate::i18n::num;
use crate::i18n::{fill, t, tr, Key};
use crate::state::use_ctx;
#[cfg(feature = "webgpu-bench")]
use crate::webgpu::{self, AdapterInfo, KernelResult, Outcome, Progress};

/// Key of the visitor's own GPU in localStorage.
pub const MINE_KEY: &str = "gpu-advisor:mine";

#[cfg(feature = "webgpu-bench")]
#[derive(Debug, Clone, PartialEq)]
enum State {
    Idle,
    Running(&'static str),
    Finished(Outcome),
}

#[cfg(feature = "webgpu-bench")]
fn browser() -> String {
    let ua = window().navigator().user_agent().unwrap_or_default();
    ["Edg/", "Chrome/", "Firefox/", "Version/"]
        .iter()
        .find_map(|brand| {
            let at = ua.find(brand)?;
            let version: String = ua[at + brand.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let name = match *brand {
                "Edg/" => "Edge",
                "Chrome/" => "Chrome",
                "Firefox/" => "Firefox",
                _ => "Safari",
            };
            Some(format!("{name} {version}"))
        })
        .unwrap_or_else(|| "unknown browser".into())
}

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The visitor's own GPU: from the link when shared there, else from local storage.
pub fn my_gpu(state_mine: Option<String>) -> Option<String> {
    state_mine.or_else(|| storage()?.get_item(MINE_KEY).ok().flatten())
}

#[cfg(feature = "webgpu-bench")]
fn kernel_key(k: Kernel) -> Key {
    match k {
        Kernel::Fp32Matmul => Key::BenchFp32,
        Kernel::Fp16Matmul => Key::BenchFp16,
        Kernel::BandwidthRead => Key::BenchRead,
        Kernel::BandwidthWrite => Key::BenchWrite,
        Kernel::BandwidthCopy => Key::BenchCopy,
    }
}

#[cfg(feature = "webgpu-bench")]
#[component]
fn ResultRow(result: KernelResult) -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang();
    let value = result.summary.map(|s| s.median).unwrap_or(0.0);
    let detail = match (&result.summary, &result.failure) {
        (Some(s), _) => {
            fill(
                tr(lang, Key::BenchSpread),
                &[
                    ("best", num(s.best)),
                    ("worst", num(s.worst)),
                    ("variant", result.variant.into()),
                ],
            ) + if s.throttled {
                tr(lang, Key::BenchThrottled)
            } else {
                ""
            }
        }
        (None, Some(f)) => fill(tr(lang, Key::BenchFailed), &[("why", f.clone())]),
        _ => String::new(),
    };
    view! {
        <tr data-testid="bench-result" data-kernel=result.kernel.as_str() data-value=format!("{value:.3}")
            data-unit=result.kernel.unit() data-verified=result.verified.to_string()>
            <th scope="row">{tr(lang, kernel_key(result.kernel))}</th>
            <td>{if result.summary.is_some() { format!("{} {}", num(value), result.kernel.unit()) } else { "—".into() }}</td>
            <td>{if result.verified { tr(lang, Key::BenchVerified) } else { tr(lang, Key::BenchNotVerified) }}</td>
            <td>{detail}</td>
        </tr>
    }
}

#[component]
pub fn Bench() -> impl IntoView {
    let ctx = use_ctx();
    let catalog = Catalog::embedded();
    let mine = RwSignal::new(my_gpu(ctx.state.get_untracked().mine));
    let choose = move |id: String| {
        if let Some(s) = storage() {
            let _ = s.set_item(MINE_KEY, &id);
        }
        mine.set(Some(id));
    };
    view! {
        <section class="bench">
            <h1>{t(Key::NavBench)}</h1>
            <Measure choose=Callback::new(choose) />
            <h2>{t(Key::BenchPickTitle)}</h2>
            <label for="mine-select">{t(Key::BenchPickLabel)}</label>
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
                view! {
                    <p>{fill(tr(ctx.lang(), Key::BenchMine), &[("name", g.name.clone())])}" "
                        <button class="link" data-testid="share-mine" on:click=move |_| {
                            let id = id.clone();
                            ctx.update(true, move |s| { s.mine = Some(id); s.view = View::Advise; })
                        }>{t(Key::BenchShareMine)}</button></p>
                }
            })}
        </section>
    }
}

/// Without the `webgpu-bench` feature: says that this build does not measure.
#[cfg(not(feature = "webgpu-bench"))]
#[component]
fn Measure(choose: Callback<String>) -> impl IntoView {
    let _ = choose;
    view! { <p data-testid="bench-status" data-state="unsupported" role="status">{t(Key::BenchNotInBuild)}</p> }
}

/// The measurement: start button, live status, results and placement.
#[cfg(feature = "webgpu-bench")]
#[component]
fn Measure(choose: Callback<String>) -> impl IntoView {
    let ctx = use_ctx();
    let state = RwSignal::new(State::Idle);
    let partial = RwSignal::new(Vec::<KernelResult>::new());
    let catalog = Catalog::embedded();
    let start = move |_| {
        partial.set(Vec::new());
        state.set(State::Running("adapter"));
        leptos::task::spawn_local(async move {
            let outcome = webgpu::run(move |p| match p {
                Progress::Step(s) => state.set(State::Running(s)),
                Progress::Kernel(r) => partial.update(|v| v.push(r)),
            })
            .await;
            state.set(State::Finished(outcome));
        });
    };
    let data_state = move || match state.get() {
        State::Idle => "idle",
        State::Running(_) => "running",
        State::Finished(Outcome::Unsupported) => "unsupported",
        State::Finished(Outcome::Error { .. }) => "error",
        State::Finished(Outcome::Done { ref adapter, .. }) if adapter.software => "software",
        State::Finished(Outcome::Done { .. }) => "done",
    };
    let adapter = move || match state.get() {
        State::Finished(Outcome::Done { adapter, .. }) => Some(adapter),
        State::Finished(Outcome::Error { adapter, .. }) => adapter,
        _ => None,
    };
    let status_text = move || {
        let lang = ctx.lang();
        match state.get() {
            State::Idle => tr(lang, Key::BenchIdle).to_string(),
            State::Running(step) => fill(tr(lang, Key::BenchRunning), &[("step", step.into())]),
            State::Finished(Outcome::Unsupported) => tr(lang, Key::BenchUnsupported).to_string(),
            State::Finished(Outcome::Error { message, .. }) => {
                fill(tr(lang, Key::BenchError), &[("why", message)])
            }
            State::Finished(Outcome::Done { adapter, .. }) if adapter.software => {
                tr(lang, Key::BenchSoftware).to_string()
            }
            State::Finished(Outcome::Done { .. }) => tr(lang, Key::BenchDone).to_string(),
        }
    };
    // Placement only for a real GPU: bandwidth (best of read and copy) and FP32.
    let matches = move || match state.get() {
        State::Finished(Outcome::Done { adapter, results }) if !adapter.software => {
            let rate = |k: Kernel| {
                results
                    .iter()
                    .find(|r| r.kernel == k && r.verified)
                    .and_then(|r| r.summary)
                    .map(|s| s.median)
            };
            let bw = rate(Kernel::BandwidthRead)
                .into_iter()
                .chain(rate(Kernel::BandwidthCopy))
                .fold(0.0, f64::max);
            if bw > 0.0 {
                bench::place(catalog, bw, rate(Kernel::Fp32Matmul))
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    };
    let adapter_line = move |a: AdapterInfo| {
        fill(
            tr(ctx.lang(), Key::BenchAdapter),
            &[
                ("vendor", a.vendor),
                ("arch", a.architecture),
                ("browser", browser()),
            ],
        )
    };
    view! {
            <p>{t(Key::BenchIntro)}</p>
            <button class="primary" data-testid="bench-start"
                disabled=move || matches!(state.get(), State::Running(_))
                on:click=start>{t(Key::BenchStart)}</button>
            <p data-testid="bench-status" data-state=data_state role="status">{status_text}</p>
            {move || adapter().map(|a| view! { <p class="meta">{adapter_line(a)}</p> })}
            <p class="meta">{t(Key::BenchMethod)}</p>
            <table class="spec-table">
                <tbody>
                    {move || partial.get().into_iter().map(|r| view! { <ResultRow result=r /> }).collect_view()}
                </tbody>
            </table>
            <Show when=move || !matches().is_empty()>
                <h2>{t(Key::BenchNearest)}</h2>
                <p class="meta">{move || fill(tr(ctx.lang(), Key::BenchEfficiency), &[
                    ("bw", format!("{:.0}–{:.0}%", bench::WEBGPU_BANDWIDTH_EFFICIENCY.0 * 100.0, bench::WEBGPU_BANDWIDTH_EFFICIENCY.1 * 100.0)),
                    ("fp32", format!("{:.0}–{:.0}%", bench::WEBGPU_FP32_EFFICIENCY.0 * 100.0, bench::WEBGPU_FP32_EFFICIENCY.1 * 100.0)),
                ])}</p>
                <ul class="matches">
                    {move || matches().into_iter().map(|m| {
                        let name = catalog.gpu(&m.gpu_id).map(|g| g.name.clone()).unwrap_or_default();
                        let id = m.gpu_id.clone();
                        view! {
                            <li>{name}" — "{fill(tr(ctx.lang(), Key::BenchConfidence), &[("pct", format!("{:.0}", m.confidence * 100.0))])}
                                " "<button class="link" on:click=move |_| choose.run(id.clone())>{t(Key::BenchThisIsMine)}</button></li>
                        }
                    }).collect_view()}
                </ul>
            </Show>
    }
}
