//! The accuracy page: every published measurement (`measurements.json`) beside the
//! engine's estimate of the same run, computed here by the engine this page runs
//! (`catalog::evidence`), so its figures are those of the version served and equal the
//! calibration test's. Filters by vendor, kind of work and runtime; the share within ±25%
//! overall, held out and per kind of work; misses first. Below, a form that writes a new
//! row in the file's format.

use std::sync::Arc;

use catalog::evidence::{self, Kind, Measurement, Tally};
use catalog::gpu::Vendor;
use catalog::share::Lang;
use catalog::Catalog;
use leptos::prelude::*;

use crate::state::{tv, use_ctx};
use web::i18n::{fill, tr, whole, ViewKey};
use web::text::{measured_value, signed_percent, stack_name};

/// One row as the page shows it.
#[derive(Clone)]
struct Line {
    kind: Kind,
    vendor: Option<Vendor>,
    gpu: String,
    /// Model, precision, batch, GPU count and the GPU of a ratio, in a few words.
    run: String,
    stack: String,
    measured: f64,
    unit: String,
    estimated: Option<f64>,
    within: bool,
    url: String,
    source: String,
    /// Why the engine has no estimate, or the constants the row set.
    remark: Option<(ViewKey, String)>,
    held_out: bool,
    /// The raw row, for the figures' wording.
    row: Measurement,
}

impl Line {
    /// How far off, for ordering: misses first, the furthest first.
    fn distance(&self) -> f64 {
        self.estimated
            .map_or(f64::INFINITY, |e| (e / self.measured).ln().abs())
    }
}

struct Computed {
    lines: Vec<Line>,
    all: Tally,
    held_out: Tally,
}

/// The computed page, compared by identity: a memo of it changes only when recomputed.
#[derive(Clone)]
struct Shared(Arc<Computed>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Shared {
    type Target = Computed;
    fn deref(&self) -> &Computed {
        &self.0
    }
}

fn kind_key(kind: Kind) -> ViewKey {
    match kind {
        Kind::Decode => ViewKey::AccuracyKindDecode,
        Kind::Prefill => ViewKey::AccuracyKindPrefill,
        Kind::Training => ViewKey::AccuracyKindTraining,
        Kind::TrainingRatio => ViewKey::AccuracyKindRatio,
        Kind::Diffusion => ViewKey::AccuracyKindDiffusion,
        Kind::Speech => ViewKey::AccuracyKindSpeech,
        Kind::Memory => ViewKey::AccuracyKindMemory,
    }
}

fn compute(lang: Lang, rows: &[Measurement]) -> Computed {
    let catalog = Catalog::embedded();
    let accuracy = evidence::accuracy(catalog, rows);
    let gpu_name = |id: &str| {
        catalog
            .gpu(id)
            .map_or_else(|| id.to_string(), |g| g.name.clone())
    };
    let mut lines: Vec<Line> = rows
        .iter()
        .zip(&accuracy.rows)
        .filter_map(|(m, c)| {
            let kind = m.kind()?;
            let mut run = vec![catalog
                .model(m.model())
                .map_or_else(|| m.model().to_string(), |x| x.name.clone())];
            run.push(m.text("precision").to_ascii_uppercase());
            if let Some(b) = m.number("batch").filter(|b| *b > 1.0) {
                run.push(fill(tr(lang, ViewKey::AccuracyBatch), &[("n", whole(b))]));
            }
            if m.gpus() > 1 {
                run.push(fill(
                    tr(lang, ViewKey::AccuracyGpus),
                    &[("n", m.gpus().to_string())],
                ));
            }
            if kind == Kind::TrainingRatio {
                run.push(fill(
                    tr(lang, ViewKey::AccuracyVs),
                    &[("other", gpu_name(m.text("gpu_b")))],
                ));
            }
            let remark = match (c, evidence::fitted_on(m)) {
                (None, _) => Some((ViewKey::AccuracyNoEstimate, m.text("unmatched").to_string())),
                (Some(_), Some(names)) => Some((ViewKey::AccuracyFitted, names.to_string())),
                _ => None,
            };
            Some(Line {
                kind,
                vendor: catalog.gpu(m.gpu()).map(|g| g.vendor),
                gpu: if m.gpu().is_empty() {
                    "–".into()
                } else {
                    gpu_name(m.gpu())
                },
                run: run.join(" · "),
                stack: stack_name(m.stack()).to_string(),
                measured: c.map_or(m.value().unwrap_or(0.0), |c| c.published),
                unit: m.unit().to_string(),
                estimated: c.map(|c| c.estimated),
                within: c.is_some_and(|c| c.within()),
                url: m.source_url().to_string(),
                source: match m.date() {
                    "" => m.publisher().to_string(),
                    d => format!("{}, {d}", m.publisher()),
                },
                remark,
                held_out: evidence::fitted_on(m).is_none(),
                row: m.clone(),
            })
        })
        .collect();
    // Misses first, the furthest off first; then the close ones, the closest last.
    catalog::order::sort_by(&mut lines, |a, b| {
        a.within
            .cmp(&b.within)
            .then(b.distance().total_cmp(&a.distance()))
    });
    Computed {
        lines,
        all: accuracy.all,
        held_out: accuracy.held_out,
    }
}

fn share_text(t: Tally) -> String {
    // catalog::decimal, as the page writes every number: core's float formatting is not
    // linked for one percentage.
    format!("{}%", catalog::decimal::fixed(t.share() * 100.0, 1))
}

fn tally_text(lang: Lang, key: ViewKey, t: Tally) -> String {
    fill(
        tr(lang, key),
        &[
            ("within", t.within.to_string()),
            ("rows", t.rows.to_string()),
            ("share", share_text(t)),
        ],
    )
}

#[derive(Clone)]
enum Loaded {
    Loading,
    Ready(Arc<Vec<Measurement>>),
    Failed(String),
}

#[component]
pub fn Accuracy() -> impl IntoView {
    let ctx = use_ctx();
    let loaded = RwSignal::new(Loaded::Loading);
    leptos::task::spawn_local(async move {
        loaded.set(
            match web::load::measurements(web::load::Measurements::Full).await {
                Ok(rows) => Loaded::Ready(Arc::new(rows.as_ref().clone())),
                Err(e) => Loaded::Failed(e.to_string()),
            },
        );
    });
    let vendor = RwSignal::new(String::new());
    let work = RwSignal::new(String::new());
    let stack = RwSignal::new(String::new());
    let computed = Memo::new(move |_| match loaded.get() {
        Loaded::Ready(rows) => Some(Shared(Arc::new(compute(ctx.lang(), &rows)))),
        _ => None,
    });
    let shown = move || {
        computed.get().map(|c| {
            let (v, w, s) = (vendor.get(), work.get(), stack.get());
            c.lines
                .iter()
                .filter(|l| {
                    (v.is_empty() || l.vendor.map(|x| x.as_str()) == Some(v.as_str()))
                        && (w.is_empty() || l.kind.as_str() == w)
                        && (s.is_empty() || l.stack == s)
                })
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let body = move || match loaded.get() {
        Loaded::Loading => {
            view! { <p class="accuracy-status">{tv(ViewKey::AccuracyLoading)}</p> }.into_any()
        }
        Loaded::Failed(why) => view! {
            <p class="view-error" role="alert" data-testid="accuracy-failed">
                {move || fill(tv(ViewKey::AccuracyFailed)(), &[("why", why.clone())])}
            </p>
        }
        .into_any(),
        Loaded::Ready(_) => {
            let Some(c) = computed.get() else {
                return ().into_any();
            };
            let lang = ctx.lang();
            let mut stacks: Vec<String> = c.lines.iter().map(|l| l.stack.clone()).collect();
            catalog::order::sort_by(&mut stacks, Ord::cmp);
            stacks.dedup();
            let groups: Vec<(Kind, Tally)> = Kind::ALL
                .iter()
                .map(|k| {
                    let mut t = Tally::default();
                    for l in c.lines.iter().filter(|l| l.kind == *k) {
                        t.add(l.within);
                    }
                    (*k, t)
                })
                .filter(|(_, t)| t.rows > 0)
                .collect();
            view! {
                <p class="accuracy-overall" data-testid="accuracy-overall">
                    <strong>{tally_text(lang, ViewKey::AccuracyOverall, c.all)}</strong>
                </p>
                <p data-testid="accuracy-held-out">{tally_text(lang, ViewKey::AccuracyHeldOut, c.held_out)}</p>
                <h2>{tv(ViewKey::AccuracyByWork)}</h2>
                <table class="spec-table accuracy-groups">
                    <thead><tr>
                        <th scope="col">{tv(ViewKey::AccuracyFilterWork)}</th>
                        <th scope="col">{tv(ViewKey::AccuracyColRows)}</th>
                        <th scope="col">{tv(ViewKey::AccuracyColWithin)}</th>
                    </tr></thead>
                    <tbody>
                        {groups.into_iter().map(|(k, t)| view! {
                            <tr>
                                <th scope="row">{tv(kind_key(k))}</th>
                                <td>{t.rows}</td>
                                <td>{format!("{} ({})", t.within, share_text(t))}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                <div class="accuracy-filters">
                    <label>{tv(ViewKey::AccuracyFilterVendor)}
                        <select id="accuracy-vendor" data-testid="accuracy-vendor" on:change=move |ev| vendor.set(event_target_value(&ev))>
                            <option value="">{tv(ViewKey::AccuracyAll)}</option>
                            {Vendor::ALL.iter().map(|v| view! { <option value=v.as_str()>{v.name()}</option> }).collect_view()}
                        </select>
                    </label>
                    <label>{tv(ViewKey::AccuracyFilterWork)}
                        <select id="accuracy-work" data-testid="accuracy-work" on:change=move |ev| work.set(event_target_value(&ev))>
                            <option value="">{tv(ViewKey::AccuracyAll)}</option>
                            {Kind::ALL.iter().map(|k| view! { <option value=k.as_str()>{tv(kind_key(*k))}</option> }).collect_view()}
                        </select>
                    </label>
                    <label>{tv(ViewKey::AccuracyFilterStack)}
                        <select id="accuracy-stack" data-testid="accuracy-stack" on:change=move |ev| stack.set(event_target_value(&ev))>
                            <option value="">{tv(ViewKey::AccuracyAll)}</option>
                            {stacks.into_iter().map(|s| view! { <option value=s.clone()>{s.clone()}</option> }).collect_view()}
                        </select>
                    </label>
                </div>
                {move || shown().map(|lines| {
                    let mut t = Tally::default();
                    for l in &lines {
                        t.add(l.within);
                    }
                    let lang = ctx.lang();
                    view! {
                        <p data-testid="accuracy-shown">{tally_text(lang, ViewKey::AccuracyShown, t)}</p>
                        <div class="table-wrap">
                        <table class="spec-table accuracy-table" data-testid="accuracy-table">
                            <thead><tr>
                                <th scope="col">{tv(ViewKey::AccuracyColGpu)}</th>
                                <th scope="col">{tv(ViewKey::AccuracyColRun)}</th>
                                <th scope="col">{tv(ViewKey::AccuracyColMeasured)}</th>
                                <th scope="col">{tv(ViewKey::AccuracyColEstimate)}</th>
                                <th scope="col">{tv(ViewKey::AccuracyColOff)}</th>
                                <th scope="col">{tv(ViewKey::AccuracyColSource)}</th>
                            </tr></thead>
                            <tbody>
                                {lines.into_iter().map(|l| line_view(lang, l)).collect_view()}
                            </tbody>
                        </table>
                        </div>
                    }
                })}
            }
            .into_any()
        }
    };
    view! {
        <article class="accuracy" data-testid="accuracy">
            <h1>{tv(ViewKey::AccuracyHeading)}</h1>
            <p>{tv(ViewKey::AccuracyIntro)}</p>
            {body}
            <AddMeasurement/>
        </article>
    }
}

fn line_view(lang: Lang, l: Line) -> impl IntoView {
    let measured = measured_value(lang, &l.row, l.measured, &l.unit);
    let estimated = l.estimated.map_or("–".to_string(), |e| {
        measured_value(lang, &l.row, e, &l.unit)
    });
    let off = l
        .estimated
        .map_or("–".to_string(), |e| signed_percent(e / l.measured - 1.0));
    let kind = tr(lang, kind_key(l.kind));
    let note = l.row.text("note").to_string();
    let remark = l
        .remark
        .map(|(key, text)| fill(tr(lang, key), &[("why", text.clone()), ("names", text)]));
    // Each cell names its column, which a phone shows in place of the header row.
    let label = |key| tr(lang, key);
    view! {
        <tr class=if l.within { "close" } else { "miss" } data-held-out=l.held_out.to_string()>
            <th scope="row">{l.gpu}</th>
            <td>
                <span class="accuracy-kind">{kind}</span>" · "{l.run}" · "{l.stack}
                {remark.map(|r| view! { <span class="accuracy-remark">{r}</span> })}
                {(!note.is_empty()).then(|| view! {
                    <details class="accuracy-note">
                        <summary>{tr(lang, ViewKey::AccuracyNote)}</summary>
                        {note}
                    </details>
                })}
            </td>
            <td data-label=label(ViewKey::AccuracyColMeasured)>{measured}</td>
            <td data-label=label(ViewKey::AccuracyColEstimate)>{estimated}</td>
            <td class="accuracy-off" data-label=label(ViewKey::AccuracyColOff)>
                {off}
                {(!l.within).then(|| view! { " "<span class="accuracy-miss">{tr(lang, ViewKey::AccuracyMiss)}</span> })}
            </td>
            <td><a href=l.url rel="noopener" target="_blank">{l.source}</a></td>
        </tr>
    }
}

/// The fields of a new row, with their labels; the kind and GPU and model are chosen
/// from the catalog.
const TEXT_FIELDS: [(&str, ViewKey, &str); 7] = [
    ("runtime", ViewKey::AccuracyAddStack, "text"),
    ("precision", ViewKey::AccuracyAddPrecision, "text"),
    ("batch", ViewKey::AccuracyAddBatch, "number"),
    ("value", ViewKey::AccuracyAddValue, "number"),
    ("date", ViewKey::AccuracyAddDate, "text"),
    ("source_url", ViewKey::AccuracyAddSource, "url"),
    ("note", ViewKey::AccuracyAddNote, "text"),
];

/// The row's unit, by what was measured.
fn unit_for(kind: Kind) -> &'static str {
    match kind {
        Kind::Decode | Kind::Prefill | Kind::Training => "tokens/s",
        Kind::TrainingRatio => "ratio",
        Kind::Diffusion => "s/image",
        Kind::Speech => "audio s/s",
        Kind::Memory => "GiB",
    }
}

/// The row the form's values make, and the labels of what is still missing.
fn new_row(values: &[(String, String)], lang: Lang) -> (Measurement, Vec<&'static str>) {
    use catalog::evidence::Field;
    let get = |k: &str| {
        values
            .iter()
            .find(|(key, _)| key == k)
            .map_or("", |(_, v)| v.trim())
    };
    let kind = Kind::parse(get("kind")).unwrap_or(Kind::Decode);
    let training = matches!(kind, Kind::Training | Kind::TrainingRatio | Kind::Memory);
    let mut fields = vec![
        ("kind".to_string(), Field::Text(kind.as_str().into())),
        ("unit".to_string(), Field::Text(unit_for(kind).into())),
    ];
    let mut missing = Vec::new();
    for key in [
        "gpu",
        "model",
        "runtime",
        "precision",
        "date",
        "source_url",
        "note",
    ] {
        let value = get(key);
        let name = if key == "runtime" && training {
            "framework"
        } else {
            key
        };
        let ok = match key {
            "source_url" => value.starts_with("https://"),
            _ => !value.is_empty(),
        };
        if ok {
            fields.push((name.to_string(), Field::Text(value.to_string())));
        } else {
            let label = match key {
                "gpu" => ViewKey::AccuracyAddGpu,
                "model" => ViewKey::AccuracyAddModel,
                "runtime" => ViewKey::AccuracyAddStack,
                "precision" => ViewKey::AccuracyAddPrecision,
                "date" => ViewKey::AccuracyAddDate,
                "source_url" => ViewKey::AccuracyAddSource,
                _ => ViewKey::AccuracyAddNote,
            };
            missing.push(tr(lang, label));
        }
    }
    for key in ["batch", "value"] {
        match catalog::decimal::parse_number(get(key)).filter(|v| *v > 0.0) {
            Some(v) => fields.push((key.to_string(), Field::Number(v))),
            None if key == "value" => missing.push(tr(lang, ViewKey::AccuracyAddValue)),
            None => {}
        }
    }
    (Measurement::new(fields), missing)
}

#[component]
fn AddMeasurement() -> impl IntoView {
    let ctx = use_ctx();
    let catalog = Catalog::embedded();
    // Opened from a card ("Add one"): that GPU and the workload's model, and the kind of
    // measurement its card would show.
    let (card_gpu, card_model, card_kind) = ctx.card_to_measure();
    let values = RwSignal::new(vec![
        ("kind".to_string(), card_kind.as_str().to_string()),
        ("gpu".to_string(), card_gpu.clone().unwrap_or_default()),
        ("model".to_string(), card_model.clone().unwrap_or_default()),
    ]);
    let set = move |key: &'static str, value: String| {
        values.update(|vs| match vs.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => vs.push((key.to_string(), value)),
        })
    };
    let copied = RwSignal::new(None::<bool>);
    let made = Memo::new(move |_| {
        let (row, missing) = values.with(|v| new_row(v, ctx.lang()));
        (row.to_json(), missing)
    });
    let issue = move || {
        let json = made.with(|(j, _)| j.clone());
        format!(
            "{}/issues/new?title={}&body={}",
            env!("CARGO_PKG_REPOSITORY"),
            catalog::share::percent_encode("Measurement: "),
            catalog::share::percent_encode(&format!("```json\n{json}\n```\n")),
        )
    };
    let copy = move |_| {
        let json = made.with(|(j, _)| j.clone());
        let Some(window) = web_sys::window() else {
            return;
        };
        let promise = window.navigator().clipboard().write_text(&json);
        leptos::task::spawn_local(async move {
            let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            copied.set(Some(ok));
        });
    };
    let select = move |key: &'static str, options: Vec<(String, String)>| {
        let chosen = values.with_untracked(|vs| {
            vs.iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        });
        view! {
            <select id=format!("add-{key}") data-testid=format!("add-{key}") on:change=move |ev| set(key, event_target_value(&ev))>
                {(key != "kind").then(|| view! { <option value="">"–"</option> })}
                {options.into_iter().map(|(v, label)| {
                    let selected = v == chosen;
                    view! { <option value=v selected=selected>{label}</option> }
                }).collect_view()}
            </select>
        }
    };
    view! {
        <details class="accuracy-add" data-testid="accuracy-add" open=card_gpu.is_some()>
            <summary>{tv(ViewKey::AccuracyAddHeading)}</summary>
            <p>{tv(ViewKey::AccuracyAddIntro)}</p>
            <div class="accuracy-form">
                <label>{tv(ViewKey::AccuracyAddKind)}
                    {move || select("kind", Kind::ALL.iter().map(|k| (k.as_str().to_string(), tr(ctx.lang(), kind_key(*k)).to_string())).collect())}
                </label>
                <label>{tv(ViewKey::AccuracyAddGpu)}
                    {select("gpu", catalog.gpus.iter().map(|g| (g.id.clone(), g.name.clone())).collect())}
                </label>
                <label>{tv(ViewKey::AccuracyAddModel)}
                    {select("model", catalog.models.iter().map(|m| (m.id.clone(), m.name.clone())).collect())}
                </label>
                {TEXT_FIELDS.iter().map(|(key, label, kind)| {
                    let key: &'static str = key;
                    view! {
                        <label>{tv(*label)}
                            <input type=*kind id=format!("add-{key}") data-testid=format!("add-{key}")
                                on:input=move |ev| set(key, event_target_value(&ev)) />
                        </label>
                    }
                }).collect_view()}
            </div>
            <pre class="accuracy-row" data-testid="add-row">{move || made.with(|(j, _)| j.clone())}</pre>
            {move || {
                let missing = made.with(|(_, m)| m.clone());
                (!missing.is_empty()).then(|| view! {
                    <p class="accuracy-missing" data-testid="add-missing">
                        {fill(tr(ctx.lang(), ViewKey::AccuracyAddMissing), &[("fields", missing.join(", "))])}
                    </p>
                })
            }}
            <div class="accuracy-actions">
                <button class="tool" data-testid="add-copy" on:click=copy>
                    {move || tr(ctx.lang(), if copied.get() == Some(true) { ViewKey::AccuracyAddCopied } else { ViewKey::AccuracyAddCopy })}
                </button>
                {move || made.with(|(_, m)| m.is_empty()).then(|| view! {
                    <a class="link" data-testid="add-issue" href=issue rel="noopener" target="_blank">
                        {tv(ViewKey::AccuracyAddIssue)}
                    </a>
                })}
            </div>
            {move || (copied.get() == Some(false)).then(|| view! {
                <p role="alert">{tv(ViewKey::AccuracyAddCopyFailed)}</p>
            })}
        </details>
    }
}
