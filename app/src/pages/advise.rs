//! The advise view: workload form on one side, live ranking on the other.

use catalog::decimal::{fixed, shortest};
use catalog::gpu::{Segment, Vendor};
use catalog::rank::{rank, resolve_model, Ranking};
use catalog::share::{AppState, Condition, Lang};
use catalog::workload::{
    EcoRequirement, Framework, Mode, ModelChoice, Precision, Priority, Runtime, Task, Workload,
};
use catalog::Catalog;
use leptos::prelude::*;

use crate::components::rank_card::{why_not_text, RankCard, RankRow};
use crate::i18n::{fill, gb, t, tr, Key};
use crate::state::use_ctx;

/// Ready-made workloads: the seed's scenarios and popular models.
fn presets() -> Vec<(Key, Workload)> {
    let model = |id: &str| ModelChoice::Preset(id.into());
    let d = Workload::default;
    vec![
        (
            Key::PresetQlora8b,
            Workload {
                task: Task::Qlora,
                model: model("llama-3.1-8b"),
                seq: Some(2048),
                batch: 4,
                ..d()
            },
        ),
        (
            Key::PresetServe70b,
            Workload {
                task: Task::Infer,
                model: model("llama-3.1-70b"),
                precision: Precision::Int4,
                gpus: 4,
                ..d()
            },
        ),
        (
            Key::PresetResnet,
            Workload {
                task: Task::Train,
                model: model("resnet-50"),
                batch: 256,
                samples: Some(1_281_167),
                epochs: 90.0,
                ..d()
            },
        ),
        (
            Key::PresetSdxl,
            Workload {
                task: Task::Infer,
                model: model("sdxl"),
                precision: Precision::Fp16,
                ..d()
            },
        ),
        (
            Key::PresetDebug,
            Workload {
                task: Task::Lora,
                model: model("mistral-7b"),
                seq: Some(1024),
                batch: 1,
                samples: Some(2_000),
                ..d()
            },
        ),
        (
            Key::PresetLongRun,
            Workload {
                task: Task::Train,
                model: model("vit-l-16"),
                batch: 64,
                samples: Some(1_281_167),
                epochs: 30.0,
                gpus: 8,
                ..d()
            },
        ),
        (
            Key::PresetMedical,
            Workload {
                task: Task::Train,
                model: model("unet-3d"),
                batch: 2,
                samples: Some(1_000),
                epochs: 100.0,
                ..d()
            },
        ),
        (
            Key::PresetVideo,
            Workload {
                task: Task::Finetune,
                model: model("videomae-large"),
                batch: 8,
                samples: Some(10_000),
                epochs: 10.0,
                ..d()
            },
        ),
        (
            Key::PresetNlp,
            Workload {
                task: Task::Finetune,
                model: model("bert-base"),
                seq: Some(128),
                batch: 32,
                samples: Some(100_000),
                epochs: 3.0,
                ..d()
            },
        ),
    ]
}

/// Saves `text` as a file through a temporary object URL and a download link.
fn download(name: &str, mime: &str, text: &str) {
    use wasm_bindgen::JsCast;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Downloads the ranking for `state` as JSON or CSV; the views module writes it
/// (`crate::views::export_text`), loaded on the first click if no other view has loaded it.
fn save_export(json: bool, lang: Lang, state: AppState) {
    leptos::task::spawn_local(async move {
        match crate::views::export_text(json, &state).await {
            Ok(text) if json => download("gpu-advisor-ranking.json", "application/json", &text),
            Ok(text) => download("gpu-advisor-ranking.csv", "text/csv", &text),
            Err(why) => {
                let _ = window()
                    .alert_with_message(&fill(tr(lang, Key::ExportFailed), &[("why", why)]));
            }
        }
    });
}

/// On a narrow screen the answer sits above the form: after a preset, bring it into view.
fn show_answer_on_a_phone() {
    let narrow = window()
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= 760.0);
    if narrow {
        if let Ok(Some(answer)) = document().query_selector("[data-testid=answer]") {
            answer.scroll_into_view();
        }
    }
}

/// Ranked GPUs shown as full cards; the rest are compact rows, which keeps every
/// input change cheap to render.
const FULL_CARDS: usize = 12;

/// Ranked GPUs an embedded advise view shows.
const EMBED_ITEMS: usize = 8;

/// The model select's token for a custom size.
const CUSTOM: &str = "custom";

pub(crate) fn task_key(t: Task) -> Key {
    match t {
        Task::Infer => Key::TaskInfer,
        Task::Train => Key::TaskTrain,
        Task::Finetune => Key::TaskFinetune,
        Task::Lora => Key::TaskLora,
        Task::Qlora => Key::TaskQlora,
    }
}

/// The workload in one line, as a phone shows it before it is edited:
/// "Llama 3.1 8B · QLoRA · BF16 · 1 GPU · buy · ≤ $1,500".
/// What the workload needs per GPU, in total and by part.
pub(crate) fn memory_total(lang: Lang, r: &Ranking) -> impl IntoView {
    let m = &r.memory;
    let parts = [
        (Key::MemWeights, m.weights),
        (Key::MemGradients, m.gradients),
        (Key::MemOptimizer, m.optimizer),
        (Key::MemAdapters, m.adapters),
        (Key::MemActivations, m.activations),
        (Key::MemKvCache, m.kv_cache),
        (Key::MemOverhead, m.overhead),
    ];
    let parts: Vec<String> = parts
        .into_iter()
        .filter(|(_, b)| *b > 0.0)
        .map(|(k, b)| format!("{} {} GiB", tr(lang, k), gb(b)))
        .collect();
    view! {
        <div class="memory-total" data-testid="memory-total" data-bytes=m.total_bytes().to_string()>
            <strong>{fill(tr(lang, Key::MemTotal), &[("gb", gb(m.total())), ("model", r.model.name.clone())])}</strong>
            <span class="mem-parts">{parts.join(" · ")}</span>
        </div>
    }
}

/// The workload in one line, as a phone shows it until the person edits it.
pub(crate) fn summary(lang: Lang, catalog: &Catalog, w: &Workload) -> String {
    let mut parts = vec![
        resolve_model(catalog, w).name,
        tr(lang, task_key(w.task)).to_string(),
        w.precision.as_str().to_ascii_uppercase(),
        fill(
            tr(lang, Key::SummaryGpus),
            &[("n", w.max_gpus().to_string())],
        ),
        tr(
            lang,
            match w.mode {
                Mode::Buy => Key::ModeBuy,
                Mode::Rent => Key::ModeRent,
            },
        )
        .to_string(),
    ];
    if let Some(b) = w.budget_usd {
        parts.push(format!("≤ {}", crate::i18n::usd(b)));
    }
    parts.join(" · ")
}

/// A labelled `<select>` bound to one field of the state. Options are (token, label)
/// in the current language; `get` and `set` are plain functions so that every select
/// shares one instance of the view code (closures would each compile their own copy).
fn select(
    id: &'static str,
    label: Key,
    options: Signal<Vec<(String, String)>>,
    get: fn(&AppState) -> String,
    set: fn(&mut AppState, &str),
) -> impl IntoView {
    let ctx = use_ctx();
    // Only a change of this field (or of the language) re-renders the options.
    let current = Memo::new(move |_| ctx.read(get));
    view! {
        <label for=id>{t(label)}</label>
        <select id=id on:change=move |ev| {
            let token = event_target_value(&ev);
            ctx.update(false, |s| set(s, &token));
        }>
            {move || {
                let current = current.get();
                options.with(|o| o.iter().map(|(token, label)| {
                    view! { <option value=token.clone() selected=*token == current>{label.clone()}</option> }
                }).collect_view())
            }}
        </select>
    }
}

/// A labelled number input; an empty field clears optional values.
fn number_input(
    id: &'static str,
    label: Key,
    (min, max): (f64, f64),
    get: fn(&AppState) -> Option<f64>,
    set: fn(&mut AppState, Option<f64>),
) -> impl IntoView {
    let ctx = use_ctx();
    let value = Memo::new(move |_| ctx.read(get));
    view! {
        <label for=id>{t(label)}</label>
        <input
            id=id
            type="number"
            inputmode="decimal"
            min=shortest(min)
            max=shortest(max)
            prop:value=move || value.get().map(shortest).unwrap_or_default()
            on:input=move |ev| {
                let text = event_target_value(&ev);
                let value = catalog::share::parse_number(&text).filter(|v| v.is_finite() && *v >= min && *v <= max);
                if text.trim().is_empty() || value.is_some() {
                    ctx.update(false, |s| set(s, value));
                }
            }
        />
    }
}

fn tokens<T: Copy>(
    all: &[T],
    token: fn(T) -> &'static str,
    label: impl Fn(T) -> String,
) -> Vec<(String, String)> {
    all.iter()
        .map(|v| (token(*v).to_string(), label(*v)))
        .collect()
}

/// The options of every select, in one language.
#[derive(Debug, Clone, PartialEq)]
struct FormOptions {
    tasks: Vec<(String, String)>,
    models: Vec<(String, String)>,
    precisions: Vec<(String, String)>,
    modes: Vec<(String, String)>,
    ecos: Vec<(String, String)>,
    prios: Vec<(String, String)>,
    runtimes: Vec<(String, String)>,
    frameworks: Vec<(String, String)>,
    segments: Vec<(String, String)>,
    vendors: Vec<(String, String)>,
    conditions: Vec<(String, String)>,
}

fn form_options(lang: Lang, catalog: &Catalog) -> FormOptions {
    let t = move |k: Key| tr(lang, k).to_string();
    let mut models: Vec<(String, String)> = catalog
        .models
        .iter()
        .map(|m| (m.id.clone(), m.name.clone()))
        .collect();
    models.push((CUSTOM.into(), t(Key::FormCustomModel)));
    let all = (String::new(), t(Key::FilterAll));
    let mut segments = vec![all.clone()];
    segments.extend(tokens(&Segment::ALL, Segment::as_str, |s| {
        t(match s {
            Segment::Consumer => Key::SegmentConsumer,
            Segment::Workstation => Key::SegmentWorkstation,
            Segment::Datacenter => Key::SegmentDatacenter,
            Segment::Cloud => Key::SegmentCloud,
        })
    }));
    let mut vendors = vec![all.clone()];
    vendors.extend(tokens(&Vendor::ALL, Vendor::as_str, |v| {
        match v {
            Vendor::Nvidia => "NVIDIA",
            Vendor::Amd => "AMD",
            Vendor::Google => "Google",
            Vendor::Apple => "Apple",
            Vendor::Intel => "Intel",
        }
        .to_string()
    }));
    FormOptions {
        tasks: tokens(Task::ALL, Task::as_str, |v| t(task_key(v))),
        models,
        precisions: tokens(Precision::ALL, Precision::as_str, |p| {
            p.as_str().to_ascii_uppercase()
        }),
        modes: tokens(Mode::ALL, Mode::as_str, |m| {
            t(match m {
                Mode::Buy => Key::ModeBuy,
                Mode::Rent => Key::ModeRent,
            })
        }),
        ecos: tokens(EcoRequirement::ALL, EcoRequirement::as_str, |e| match e {
            EcoRequirement::Any => t(Key::EcoAny),
            EcoRequirement::Cuda => "CUDA".into(),
            EcoRequirement::Rocm => "ROCm".into(),
            EcoRequirement::Xla => "XLA / TPU".into(),
        }),
        runtimes: std::iter::once((String::new(), t(Key::RuntimeAuto)))
            .chain(tokens(Runtime::ALL, Runtime::as_str, |r| match r {
                Runtime::LlamaCpp => "llama.cpp".into(),
                Runtime::Vllm => "vLLM".into(),
                Runtime::Transformers => "Transformers".into(),
            }))
            .collect(),
        frameworks: vec![
            (String::new(), t(Key::FrameworkPytorch)),
            (
                Framework::Megatron.as_str().into(),
                t(Key::FrameworkMegatron),
            ),
        ],
        prios: tokens(Priority::ALL, Priority::as_str, |p| {
            t(match p {
                Priority::Balance => Key::PrioBalance,
                Priority::Speed => Key::PrioSpeed,
                Priority::Cost => Key::PrioCost,
            })
        }),
        segments,
        vendors,
        conditions: vec![
            all,
            ("new".into(), t(Key::ConditionNew)),
            ("used".into(), t(Key::ConditionUsed)),
        ],
    }
}

#[component]
pub fn Advise() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    let catalog = Catalog::embedded();
    let inputs = ctx.inputs;
    // The ranking, and how long computing it took (shown as data-rank-ms for tests). It is
    // recomputed only when the inputs change, so it always counts as changed: comparing
    // two rankings would cost time and bundle size for nothing.
    let timed = Memo::new_with_compare(
        move |_| {
            let clock = window().performance();
            let start = clock.as_ref().map(|p| p.now());
            let ranking = inputs.with(|(w, f)| rank(catalog, w, f));
            let elapsed = clock.zip(start).map(|(p, s)| p.now() - s).unwrap_or(0.0);
            (ranking, elapsed)
        },
        |_, _| true,
    );

    let options = Memo::new(move |_| form_options(ctx.lang(), catalog));
    let pick = |f: fn(&FormOptions) -> &Vec<(String, String)>| {
        Signal::derive(move || options.with(|o| f(o).clone()))
    };
    let tasks = pick(|o| &o.tasks);
    let models = pick(|o| &o.models);
    let precisions = pick(|o| &o.precisions);
    let modes = pick(|o| &o.modes);
    let ecos = pick(|o| &o.ecos);
    let prios = pick(|o| &o.prios);
    let runtimes = pick(|o| &o.runtimes);
    let frameworks = pick(|o| &o.frameworks);
    let segments = pick(|o| &o.segments);
    let vendors = pick(|o| &o.vendors);
    let conditions = pick(|o| &o.conditions);

    // Embedded, the view is compact: the ranking's top entries without the form.
    let embedded = move || ctx.embed.get();
    let shown = move || if embedded() { EMBED_ITEMS } else { usize::MAX };
    // The GPUs whose card has "More" open: the cards are redrawn in place when the
    // ranking changes, so an open card stays open with its GPU, not at its position.
    let open_more = RwSignal::new(Vec::<String>::new());
    let is_custom = move || inputs.with(|(w, _)| matches!(w.model, ModelChoice::Custom(_)));
    let serving = move || inputs.with(|(w, _)| w.task == Task::Infer);
    // The presets, shared by the phone's chooser and the desktop's buttons.
    let all_presets = StoredValue::new(presets());
    let preset_keys: Vec<Key> = all_presets.with_value(|p| p.iter().map(|(k, _)| *k).collect());
    let apply_preset = move |i: usize| {
        if let Some(w) = all_presets.with_value(|p| p.get(i).map(|(_, w)| w.clone())) {
            ctx.update(false, |s| s.workload = w);
            show_answer_on_a_phone();
        }
    };
    let diffusing = move || {
        inputs.with(|(w, _)| {
            w.task == Task::Infer
                && resolve_model(catalog, w).family == catalog::model::Family::Diffusion
        })
    };

    // The form's fields as type-erased views: one rendering path for both grids keeps the
    // bundle small.
    let main_fields: Vec<AnyView> = vec![
        select("f-task", Key::FormTask, tasks, |s| s.workload.task.as_str().into(), |s, v| if let Some(t) = Task::parse(v) { s.workload.task = t }).into_any(),
        select("f-model", Key::FormModel, models,
                        |s| match &s.workload.model { ModelChoice::Preset(id) => id.clone(), ModelChoice::Custom(_) => CUSTOM.into() },
                        |s, v| s.workload.model = if v == CUSTOM { ModelChoice::Custom(8.0) } else { ModelChoice::Preset(v.into()) }).into_any(),
        view! { <Show when=is_custom>
                        {number_input("f-params", Key::FormParams, (0.01, 5000.0),
                            |s| match s.workload.model { ModelChoice::Custom(p) => Some(p), _ => None },
                            |s, v| if let Some(p) = v { s.workload.model = ModelChoice::Custom(p) })}
                    </Show> }.into_any(),
        select("f-prec", Key::FormPrecision, precisions, |s| s.workload.precision.as_str().into(), |s, v| if let Some(p) = Precision::parse(v) { s.workload.precision = p }).into_any(),
        number_input("f-batch", Key::FormBatch, (1.0, 4096.0), |s| Some(f64::from(s.workload.batch)), |s, v| s.workload.batch = v.map_or(1, |b| b as u32)).into_any(),
        number_input("f-seq", Key::FormSeq, (16.0, 1_048_576.0), |s| s.workload.seq_for(&resolve_model(Catalog::embedded(), &s.workload)).map(f64::from), |s, v| s.workload.seq = v.map(|x| x as u32)).into_any(),
        view! { <Show when=diffusing>
                        {number_input("f-steps", Key::FormSteps, (1.0, 1000.0), |s| Some(f64::from(s.workload.steps())), |s, v| s.workload.steps = v.map(|x| x as u32))}
                    </Show> }.into_any(),
        number_input("f-gpus", Key::FormGpus, (1.0, 16.0), |s| Some(f64::from(s.workload.gpus)), |s, v| s.workload.gpus = v.map_or(1, |g| g as u32)).into_any(),
        number_input("f-budget", Key::FormBudget, (1.0, 1e9), |s| s.workload.budget_usd, |s, v| s.workload.budget_usd = v).into_any(),
        select("f-mode", Key::FormMode, modes, |s| s.workload.mode.as_str().into(), |s, v| if let Some(m) = Mode::parse(v) { s.workload.mode = m }).into_any(),
        select("f-prio", Key::FormPrio, prios, |s| s.workload.priority.as_str().into(), |s, v| if let Some(p) = Priority::parse(v) { s.workload.priority = p }).into_any(),
    ];
    let more_fields: Vec<AnyView> = vec![
        number_input(
            "f-nodes",
            Key::FormNodes,
            (1.0, 1024.0),
            |s| Some(f64::from(s.workload.nodes)),
            |s, v| s.workload.nodes = v.map_or(1, |n| n as u32),
        )
        .into_any(),
        number_input(
            "f-samples",
            Key::FormSamples,
            (1.0, 1e11),
            |s| {
                Some(
                    s.workload
                        .samples_for(&resolve_model(Catalog::embedded(), &s.workload))
                        as f64,
                )
            },
            |s, v| s.workload.samples = v.map(|n| n as u64),
        )
        .into_any(),
        number_input(
            "f-epochs",
            Key::FormEpochs,
            (0.01, 1000.0),
            |s| Some(s.workload.epochs),
            |s, v| s.workload.epochs = v.unwrap_or(1.0),
        )
        .into_any(),
        // One field for the software: the runtime when serving, the framework when training.
        select(
            "f-software",
            Key::FormSoftware,
            Signal::derive(move || {
                if serving() {
                    runtimes.get()
                } else {
                    frameworks.get()
                }
            }),
            |s| match s.workload.task {
                Task::Infer => s
                    .workload
                    .runtime
                    .map(Runtime::as_str)
                    .unwrap_or_default()
                    .into(),
                _ => match s.workload.framework {
                    Some(Framework::Megatron) => "megatron".into(),
                    _ => String::new(),
                },
            },
            |s, v| match s.workload.task {
                Task::Infer => s.workload.runtime = Runtime::parse(v),
                _ => s.workload.framework = Framework::parse(v),
            },
        )
        .into_any(),
        select(
            "f-eco",
            Key::FormEco,
            ecos,
            |s| s.workload.eco.as_str().into(),
            |s, v| {
                if let Some(e) = EcoRequirement::parse(v) {
                    s.workload.eco = e
                }
            },
        )
        .into_any(),
        select(
            "f-seg",
            Key::FilterSegment,
            segments,
            |s| {
                s.filters
                    .segments
                    .first()
                    .map(|x| x.as_str())
                    .unwrap_or_default()
                    .into()
            },
            |s, v| {
                s.filters.segments = Segment::ALL
                    .iter()
                    .copied()
                    .filter(|x| x.as_str() == v)
                    .collect()
            },
        )
        .into_any(),
        select(
            "f-vendor",
            Key::FilterVendor,
            vendors,
            |s| {
                s.filters
                    .vendors
                    .first()
                    .map(|x| x.as_str())
                    .unwrap_or_default()
                    .into()
            },
            |s, v| {
                s.filters.vendors = Vendor::ALL
                    .iter()
                    .copied()
                    .filter(|x| x.as_str() == v)
                    .collect()
            },
        )
        .into_any(),
        select(
            "f-cond",
            Key::FilterCondition,
            conditions,
            |s| {
                s.filters
                    .condition
                    .map(|c| c.as_str())
                    .unwrap_or_default()
                    .into()
            },
            |s, v| s.filters.condition = Condition::parse(v).filter(|c| *c != Condition::Any),
        )
        .into_any(),
    ];

    view! {
        <h1 class="view-title">{t(Key::AdviseTitle)}</h1>
        <div class="advise" class:compact=embedded>
            <section class="workload" class:hidden=embedded aria-labelledby="workload-heading">
                <h2 id="workload-heading">{t(Key::FormHeading)}</h2>
                // On a phone the workload reads as one line until the person edits it: a
                // checkbox and CSS fold the fields, with no page code to run.
                <p class="workload-summary" data-testid="workload-summary">
                    <span>{move || inputs.with(|(w, _)| summary(ctx.lang(), catalog, w))}</span>
                    <input type="checkbox" id="edit-workload" class="edit-toggle" data-testid="edit-workload"/>
                    <label for="edit-workload" class="edit-workload">{t(Key::FormEdit)}</label>
                </p>
                <label class="preset-chooser-label" for="f-preset">{t(Key::PresetsLabel)}</label>
                <select id="f-preset" class="preset-chooser" data-testid="preset-chooser"
                    on:change=move |ev| event_target_value(&ev).parse().map_or((), apply_preset)>
                    <option value="" selected=true>{t(Key::PresetChoose)}</option>
                    {preset_keys.iter().enumerate().map(|(i, key)| view! { <option value=i.to_string()>{t(*key)}</option> }).collect_view()}
                </select>
                <div class="presets" role="group" aria-label=t(Key::PresetsLabel)>
                    {preset_keys.iter().enumerate().map(|(i, key)| view! {
                        <button class="preset" on:click=move |_| apply_preset(i)>{t(*key)}</button>
                    }).collect_view()}
                </div>
                <div class="form-grid">{main_fields}</div>
                <details class="more" data-testid="more-inputs">
                    <summary>{t(Key::FormMore)}</summary>
                    <div class="form-grid">{more_fields}</div>
                </details>
                <p class="assumptions">{t(Key::FormAssumptions)}</p>
            </section>
            // The answer is its own grid item: beside the form on a desktop, first on a phone.
            {move || timed.with(|(r, _)| crate::components::answer::answer(ctx.lang(), inputs.with(|(w, _)| w.mode), inputs.with(|(w, _)| w.priority), r))}
            <section class="ranking" aria-labelledby="ranking-heading" data-rank-ms=move || timed.with(|(_, ms)| fixed(*ms, 3))>
                <div class="ranking-head">
                    <h2 id="ranking-heading">{t(Key::RankHeading)}</h2>
                    <Show when=move || !embedded()>
                        <button class="tool" data-testid="export-json" on:click=move |_| save_export(true, ctx.lang(), ctx.state())>{t(Key::ExportJson)}</button>
                        <button class="tool" data-testid="export-csv" on:click=move |_| save_export(false, ctx.lang(), ctx.state())>{t(Key::ExportCsv)}</button>
                    </Show>
                </div>
                {move || timed.with(|(r, _)| memory_total(lang(), r))}
                {move || timed.with(|(r, _)| {
                    // Whether the visitor's own GPU runs this workload, and if not, why.
                    let id = crate::pages::bench::my_gpu(ctx.mine.get())?;
                    let item = r.items.iter().find(|i| i.gpu.id == id)?;
                    let name = item.gpu.name.clone();
                    let text = match &item.why_not {
                        None => fill(tr(lang(), Key::AdviseMineFits), &[("name", name)]),
                        Some(why) => fill(tr(lang(), Key::AdviseMineNot), &[("name", name), ("why", why_not_text(lang(), why))]),
                    };
                    Some(view! { <p class="mine-fit" data-testid="mine-fit" data-fits=item.fits().to_string()>{text}</p> })
                })}
                <ol class="rank-list">
                    {move || timed.with(|(r, _)| {
                        let lang = ctx.lang();
                        let mode = inputs.with(|(w, _)| w.mode);
                        // Speed-ups against the visitor's own GPU, when they chose one and it runs the job.
                        let mine = crate::pages::bench::my_gpu(ctx.mine.get())
                            .and_then(|id| r.items.iter().find(|i| i.gpu.id == id))
                            .and_then(|i| Some((i.speed.as_ref()?.throughput.mid, i.gpu.name.clone())));
                        let grades = catalog::rank::grades(&r.items);
                        r.items.iter().zip(grades).filter(|(i, _)| i.fits()).take(shown()).enumerate().map(move |(n, (item, grade))| {
                        let vs_mine = mine.clone().and_then(|(base, name)| Some((item.speed.as_ref()?.throughput.mid / base, name)));
                        if n < FULL_CARDS {
                            view! { <RankCard item=item.clone() position=n + 1 grade=grade vs_mine=vs_mine lang=lang mode=mode open_more=Some(open_more) /> }.into_any()
                        } else {
                            view! { <RankRow item=item.clone() position=n + 1 lang=lang /> }.into_any()
                        }
                    }).collect_view()})}
                </ol>
                <Show when=move || !embedded()>
                <h2>{t(Key::ExcludedHeading)}</h2>
                <ul class="excluded">
                    {move || timed.with(|(r, _)| r.items.iter().filter(|i| !i.fits() && i.why_not != Some(catalog::rank::WhyNot::Filtered)).map(|item| {
                        let why = item.why_not.as_ref().map(|w| why_not_text(lang(), w)).unwrap_or_default();
                        view! {
                            <li data-testid="rank-item" data-gpu-id=item.gpu.id.clone() data-fits="false">
                                <strong>{item.gpu.name.clone()}</strong>": "{why}
                            </li>
                        }
                    }).collect_view())}
                </ul>
                </Show>
            </section>
        </div>
    }
}
