//! The advise view as HTML: the workload form, the answer and the ranked cards. Plain
//! functions of the state and the engine's ranking; the page's module sets what they
//! write into the page (`crate::page`), and the build writes the default view with them
//! (`crate::prerender`).

use catalog::decimal::{fixed, shortest};
use catalog::gpu::{PriceKind, Segment, Vendor};
use catalog::model::Family;
use catalog::rank::{
    resolve_model, Alternative, Grade, Pick, Ranked, Ranking, Reason, Tier, WhyNot,
};
use catalog::share::{range, AppState, Condition, Lang, Nav};
use catalog::workload::{
    Change, EcoRequirement, Framework, Mode, ModelChoice, Precision, Priority, Runtime, Task,
    Workload,
};
use catalog::Catalog;

use web::html::{flag, Html};
use web::i18n::{fill, gb, num, tr, usd, usd_range, Key};
use web::text::{
    fit_badge, gpu_count, hardware_text, mode_key, per_work_cost_text, range_text, reason_text,
    sentence_case, short_hardware_text, speed_point_text, summary, task_key, throughput_text,
    why_not_group_text, why_not_text,
};

/// What drawing needs besides the figures: the language, and the state and page address
/// the links are made from.
pub struct Draw<'a> {
    pub lang: Lang,
    pub state: &'a AppState,
    /// The page's file (`web::url::page_file`: empty when served as a directory), which
    /// links are written relative to.
    pub path: &'a str,
}

impl Draw<'_> {
    pub fn t(&self, key: Key) -> &'static str {
        tr(self.lang, key)
    }

    /// The address of the state after `nav`.
    pub fn href(&self, nav: &Nav) -> String {
        web::url::link(self.path, &self.state.after(|s| s.apply(nav)))
    }

    /// A link that makes `nav`: a real address, so that a new tab or a copied link works;
    /// `data-nav` names the move, which the page makes itself on a plain click.
    pub fn link(&self, h: &mut Html, nav: &Nav, class: &str, testid: Option<&str>, label: &str) {
        let href = self.href(nav);
        let token = nav.token();
        h.el(
            "a",
            &[
                ("class", class),
                ("href", &href),
                (
                    if testid.is_some() { "data-testid" } else { "" },
                    testid.unwrap_or(""),
                ),
                ("data-nav", &token),
            ],
            label,
        );
    }
}

/// Ready-made workloads: the seed's scenarios and popular models.
pub fn presets() -> Vec<(Key, Workload)> {
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

/// Ranked GPUs shown as full cards; the rest are compact rows, which keeps every
/// input change cheap to draw.
const FULL_CARDS: usize = 12;

/// Ranked GPUs an embedded advise view shows.
const EMBED_ITEMS: usize = 8;

/// The model select's token for a custom size.
const CUSTOM: &str = "custom";

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
            tr(lang, Key::MemTotal),
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
            .filter(|x| matches!(x, Reason::NeedsGpus { .. } | Reason::MemorySavers { .. }))
            .map(|x| reason_text(lang, x))
            .collect();
        if !how.is_empty() {
            h.el(
                "span",
                &[("class", "mem-top"), ("data-testid", "memory-top")],
                &fill(
                    tr(lang, Key::MemTop),
                    &[
                        ("name", item.gpu.name.clone()),
                        ("gb", gb(item.memory.total())),
                        ("how", how.join("; ")),
                    ],
                ),
            );
        }
    }
    h.close("div");
}

// ---------------------------------------------------------------------------------------
// The form

/// The options of every select, in one language.
pub struct FormOptions {
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

fn tokens<T: Copy>(
    all: &[T],
    token: fn(T) -> &'static str,
    label: impl Fn(T) -> String,
) -> Vec<(String, String)> {
    all.iter()
        .map(|v| (token(*v).to_string(), label(*v)))
        .collect()
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
        modes: tokens(Mode::ALL, Mode::as_str, |m| t(mode_key(m))),
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
            (Framework::Unsloth.as_str().into(), t(Key::FrameworkUnsloth)),
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

/// How a field reads and writes its part of the state.
pub enum Input {
    Select {
        options: for<'o> fn(&'o FormOptions, &AppState) -> &'o [(String, String)],
        get: fn(&AppState) -> String,
        set: fn(&mut AppState, &str),
    },
    /// A number in the range the link's parameter `param` takes (`share::range`); an
    /// empty field clears optional values.
    Number {
        param: &'static str,
        get: fn(&AppState) -> Option<f64>,
        set: fn(&mut AppState, Option<f64>),
    },
}

/// One input of the workload form.
pub struct Field {
    pub id: &'static str,
    label: Key,
    /// Behind "More" (advanced inputs).
    more: bool,
    /// Whether the form shows it for this state.
    shown: fn(&AppState) -> bool,
    pub input: Input,
}

fn always(_: &AppState) -> bool {
    true
}

fn custom_model(s: &AppState) -> bool {
    matches!(s.workload.model, ModelChoice::Custom(_))
}

fn diffusing(s: &AppState) -> bool {
    s.workload.task == Task::Infer
        && resolve_model(Catalog::embedded(), &s.workload).family == Family::Diffusion
}

/// The form, in the order it is drawn. One table drives drawing, refreshing the values
/// after a change and reading what the person typed (`crate::page`).
pub const FIELDS: &[Field] = &[
    Field {
        id: "f-task",
        label: Key::FormTask,
        more: false,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.tasks,
            get: |s| s.workload.task.as_str().into(),
            set: |s, v| {
                if let Some(t) = Task::parse(v) {
                    s.workload.task = t
                }
            },
        },
    },
    Field {
        id: "f-model",
        label: Key::FormModel,
        more: false,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.models,
            get: |s| match &s.workload.model {
                ModelChoice::Preset(id) => id.clone(),
                ModelChoice::Custom(_) => CUSTOM.into(),
            },
            set: |s, v| {
                s.workload.model = if v == CUSTOM {
                    ModelChoice::Custom(8.0)
                } else {
                    ModelChoice::Preset(v.into())
                }
            },
        },
    },
    Field {
        id: "f-params",
        label: Key::FormParams,
        more: false,
        shown: custom_model,
        input: Input::Number {
            param: "params",
            get: |s| match s.workload.model {
                ModelChoice::Custom(p) => Some(p),
                _ => None,
            },
            set: |s, v| {
                if let Some(p) = v {
                    s.workload.model = ModelChoice::Custom(p)
                }
            },
        },
    },
    Field {
        id: "f-prec",
        label: Key::FormPrecision,
        more: false,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.precisions,
            get: |s| s.workload.precision.as_str().into(),
            set: |s, v| {
                if let Some(p) = Precision::parse(v) {
                    s.workload.precision = p
                }
            },
        },
    },
    Field {
        id: "f-batch",
        label: Key::FormBatch,
        more: false,
        shown: always,
        input: Input::Number {
            param: "batch",
            get: |s| Some(f64::from(s.workload.batch)),
            set: |s, v| s.workload.batch = v.map_or(1, |b| b as u32),
        },
    },
    Field {
        id: "f-seq",
        label: Key::FormSeq,
        more: false,
        shown: always,
        input: Input::Number {
            param: "seq",
            // The length typed (the ranking cuts one beyond the model's context to it, as
            // the memory line says), else the one the estimate uses.
            get: |s| {
                let w = &s.workload;
                w.seq
                    .or_else(|| w.seq_for(&resolve_model(Catalog::embedded(), w)))
                    .map(f64::from)
            },
            set: |s, v| s.workload.seq = v.map(|x| x as u32),
        },
    },
    Field {
        id: "f-steps",
        label: Key::FormSteps,
        more: false,
        shown: diffusing,
        input: Input::Number {
            param: "steps",
            get: |s| Some(f64::from(s.workload.steps())),
            set: |s, v| s.workload.steps = v.map(|x| x as u32),
        },
    },
    Field {
        id: "f-gpus",
        label: Key::FormGpus,
        more: false,
        shown: always,
        input: Input::Number {
            param: "gpus",
            get: |s| Some(f64::from(s.workload.gpus)),
            set: |s, v| s.workload.gpus = v.map_or(1, |g| g as u32),
        },
    },
    Field {
        id: "f-budget",
        label: Key::FormBudget,
        more: false,
        shown: always,
        input: Input::Number {
            param: "budget",
            get: |s| s.workload.budget_usd,
            set: |s, v| s.workload.budget_usd = v,
        },
    },
    Field {
        id: "f-mode",
        label: Key::FormMode,
        more: false,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.modes,
            get: |s| s.workload.mode.as_str().into(),
            set: |s, v| {
                if let Some(m) = Mode::parse(v) {
                    s.workload.mode = m
                }
            },
        },
    },
    Field {
        id: "f-prio",
        label: Key::FormPrio,
        more: false,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.prios,
            get: |s| s.workload.priority.as_str().into(),
            set: |s, v| {
                if let Some(p) = Priority::parse(v) {
                    s.workload.priority = p
                }
            },
        },
    },
    Field {
        id: "f-nodes",
        label: Key::FormNodes,
        more: true,
        shown: always,
        input: Input::Number {
            param: "nodes",
            get: |s| Some(f64::from(s.workload.nodes)),
            set: |s, v| s.workload.nodes = v.map_or(1, |n| n as u32),
        },
    },
    Field {
        id: "f-samples",
        label: Key::FormSamples,
        more: true,
        shown: always,
        input: Input::Number {
            param: "samples",
            get: |s| {
                Some(
                    s.workload
                        .samples_for(&resolve_model(Catalog::embedded(), &s.workload))
                        as f64,
                )
            },
            set: |s, v| s.workload.samples = v.map(|n| n as u64),
        },
    },
    Field {
        id: "f-epochs",
        label: Key::FormEpochs,
        more: true,
        shown: always,
        input: Input::Number {
            param: "epochs",
            get: |s| Some(s.workload.epochs),
            set: |s, v| s.workload.epochs = v.unwrap_or(1.0),
        },
    },
    // One field for the software: the runtime when serving, the framework when training.
    Field {
        id: "f-software",
        label: Key::FormSoftware,
        more: true,
        shown: always,
        input: Input::Select {
            options: |o, s| {
                if s.workload.task == Task::Infer {
                    &o.runtimes
                } else {
                    &o.frameworks
                }
            },
            get: |s| match s.workload.task {
                Task::Infer => s
                    .workload
                    .runtime
                    .map(Runtime::as_str)
                    .unwrap_or_default()
                    .into(),
                _ => match s.workload.framework {
                    Some(Framework::Pytorch) | None => String::new(),
                    Some(f) => f.as_str().into(),
                },
            },
            set: |s, v| match s.workload.task {
                Task::Infer => s.workload.runtime = Runtime::parse(v),
                _ => s.workload.framework = Framework::parse(v),
            },
        },
    },
    Field {
        id: "f-eco",
        label: Key::FormEco,
        more: true,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.ecos,
            get: |s| s.workload.eco.as_str().into(),
            set: |s, v| {
                if let Some(e) = EcoRequirement::parse(v) {
                    s.workload.eco = e
                }
            },
        },
    },
    Field {
        id: "f-seg",
        label: Key::FilterSegment,
        more: true,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.segments,
            get: |s| {
                s.filters
                    .segments
                    .first()
                    .map(|x| x.as_str())
                    .unwrap_or_default()
                    .into()
            },
            set: |s, v| {
                s.filters.segments = Segment::ALL
                    .iter()
                    .copied()
                    .filter(|x| x.as_str() == v)
                    .collect()
            },
        },
    },
    Field {
        id: "f-vendor",
        label: Key::FilterVendor,
        more: true,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.vendors,
            get: |s| {
                s.filters
                    .vendors
                    .first()
                    .map(|x| x.as_str())
                    .unwrap_or_default()
                    .into()
            },
            set: |s, v| {
                s.filters.vendors = Vendor::ALL
                    .iter()
                    .copied()
                    .filter(|x| x.as_str() == v)
                    .collect()
            },
        },
    },
    Field {
        id: "f-cond",
        label: Key::FilterCondition,
        more: true,
        shown: always,
        input: Input::Select {
            options: |o, _| &o.conditions,
            get: |s| {
                s.filters
                    .condition
                    .map(|c| c.as_str())
                    .unwrap_or_default()
                    .into()
            },
            set: |s, v| s.filters.condition = Condition::parse(v).filter(|c| *c != Condition::Any),
        },
    },
];

/// What decides the form's shape: its language, which fields it shows and the software
/// select's options. The form is drawn again only when this changes; otherwise its
/// values are refreshed in place, so the field being typed in keeps focus.
pub fn form_shape(lang: Lang, s: &AppState) -> (Lang, bool, bool, bool, bool) {
    (
        lang,
        custom_model(s),
        diffusing(s),
        s.workload.task == Task::Infer,
        serving_lm(s),
    )
}

/// Serving a language model (`deploy::serves_language_model`).
fn serving_lm(s: &AppState) -> bool {
    let family = resolve_model(Catalog::embedded(), &s.workload).family;
    catalog::deploy::serves_language_model(&s.workload, family)
}

/// A number as a field shows it.
pub fn number_text(v: Option<f64>) -> String {
    v.map(shortest).unwrap_or_default()
}

fn field(h: &mut Html, d: &Draw, options: &FormOptions, f: &Field) {
    // Serving a language model, the batch is the users served at once, as people think
    // of it (`form_shape` redraws the form when that changes).
    let label = if f.id == "f-batch" && serving_lm(d.state) {
        Key::FormUsers
    } else {
        f.label
    };
    h.el("label", &[("for", f.id)], d.t(label));
    match &f.input {
        Input::Select {
            options: pick, get, ..
        } => {
            let current = get(d.state);
            h.open("select", &[("id", f.id)]);
            for (token, label) in pick(options, d.state) {
                h.el(
                    "option",
                    &[("value", token), flag("selected", *token == current)],
                    label,
                );
            }
            h.close("select");
        }
        Input::Number { param, get, .. } => {
            let (min, max) = range(param);
            h.open(
                "input",
                &[
                    ("id", f.id),
                    ("type", "number"),
                    ("inputmode", "decimal"),
                    ("min", &shortest(min)),
                    ("max", &shortest(max)),
                    ("value", &number_text(get(d.state))),
                    ("aria-describedby", &format!("{}-error", f.id)),
                ],
            );
            // Says why a typed number is not used (`crate::page::on_input` fills it).
            h.el(
                "span",
                &[
                    ("class", "field-error"),
                    ("id", &format!("{}-error", f.id)),
                    ("data-testid", "field-error"),
                    ("role", "status"),
                    ("hidden", ""),
                ],
                "",
            );
        }
    }
}

/// How the person has unfolded the form: on a phone, its fields (`editing`); anywhere, the
/// advanced inputs under "More" (`more_open`). Kept when the form is drawn again.
#[derive(Clone, Copy, Default)]
pub struct Unfolded {
    pub editing: bool,
    pub more_open: bool,
}

/// The workload form: its heading, the phone's one-line summary, the presets and the fields.
pub fn form(d: &Draw, unfolded: Unfolded) -> String {
    let catalog = Catalog::embedded();
    let options = form_options(d.lang, catalog);
    let mut h = Html::new();
    h.el("h2", &[("id", "workload-heading")], d.t(Key::FormHeading));
    // On a phone the workload reads as one line until the person edits it: a checkbox
    // and CSS fold the fields, with no page code to run.
    h.open(
        "p",
        &[
            ("class", "workload-summary"),
            ("data-testid", "workload-summary"),
        ],
    )
    .el("span", &[], &summary(d.lang, catalog, &d.state.workload))
    .open(
        "input",
        &[
            ("type", "checkbox"),
            ("id", "edit-workload"),
            ("class", "edit-toggle"),
            ("data-testid", "edit-workload"),
            flag("checked", unfolded.editing),
        ],
    )
    .el(
        "label",
        &[("for", "edit-workload"), ("class", "edit-workload")],
        d.t(Key::FormEdit),
    )
    .close("p");
    let presets = presets();
    h.el(
        "label",
        &[("class", "preset-chooser-label"), ("for", "f-preset")],
        d.t(Key::PresetsLabel),
    );
    h.open(
        "select",
        &[
            ("id", "f-preset"),
            ("class", "preset-chooser"),
            ("data-testid", "preset-chooser"),
        ],
    )
    .el(
        "option",
        &[("value", ""), ("selected", "")],
        d.t(Key::PresetChoose),
    );
    for (i, (key, _)) in presets.iter().enumerate() {
        h.el("option", &[("value", &i.to_string())], d.t(*key));
    }
    h.close("select");
    h.open(
        "div",
        &[
            ("class", "presets"),
            ("role", "group"),
            ("aria-label", d.t(Key::PresetsLabel)),
        ],
    );
    for (i, (key, _)) in presets.iter().enumerate() {
        h.el(
            "button",
            &[("class", "preset"), ("data-act", &format!("preset:{i}"))],
            d.t(*key),
        );
    }
    h.close("div");
    for more in [false, true] {
        if more {
            h.open(
                "details",
                &[
                    ("class", "more"),
                    ("data-testid", "more-inputs"),
                    flag("open", unfolded.more_open),
                ],
            )
            .el("summary", &[], d.t(Key::FormMore));
        }
        h.open("div", &[("class", "form-grid")]);
        for f in FIELDS
            .iter()
            .filter(|f| f.more == more && (f.shown)(d.state))
        {
            field(&mut h, d, &options, f);
        }
        h.close("div");
        if more {
            h.close("details");
        }
    }
    h.el("p", &[("class", "assumptions")], d.t(Key::FormAssumptions));
    h.finish()
}

// ---------------------------------------------------------------------------------------
// The answer

/// A pick in one line, and what to mind about it (drawn after it, muted; on a phone on a
/// line of its own). `said` holds the caveats the answer already gave, per GPU: a GPU
/// that is also the top card or an earlier pick does not repeat them.
fn pick_sentence<'r>(
    lang: Lang,
    w: &Workload,
    ranking: &Ranking,
    pick: &'r Pick,
    said: &mut Vec<(&'r str, &'static str)>,
) -> Option<(String, Option<String>)> {
    let mode = w.mode;
    let item = ranking.items.iter().find(|r| r.gpu.id == pick.id)?;
    let name = item.gpu.name.clone();
    let speed = pick
        .speed
        .zip(item.speed.as_ref().map(|s| s.unit))
        .map(|(s, unit)| speed_point_text(lang, s, unit))
        .unwrap_or_default();
    let speed = match per_user_text(lang, item, w) {
        Some(each) if !speed.is_empty() => format!("{speed} ({each})"),
        _ => speed,
    };
    let price = match short_hardware_text(lang, &item.cost) {
        Some(total) if mode == Mode::Buy => total,
        _ => item
            .cost
            .job_usd
            .map(|j| fill(tr(lang, Key::CardRentJob), &[("usd", usd(j.mid))]))
            .or(item.cost.rent_usd_per_hour.map(|r| {
                // Serving: the hour's rental and what the output costs at this speed, which
                // is what the value pick is chosen by.
                let hour = format!("${}/h", fixed(r, 2));
                match item.cost.per_million_usd {
                    Some(m) => {
                        let unit = item.speed.as_ref().map(|s| s.unit);
                        format!("{hour} · {}", per_work_cost_text(lang, mode, unit, m))
                    }
                    None => hour,
                }
            }))
            .unwrap_or_default(),
    };
    let sentence = match pick.tier {
        Tier::Flagship => fill(
            tr(lang, Key::PickFlagship),
            &[
                ("name", name),
                ("n", pick.among.to_string()),
                ("speed", speed),
                ("price", price),
            ],
        ),
        Tier::Value => fill(
            tr(
                lang,
                if mode == Mode::Rent {
                    Key::PickValueRent
                } else {
                    Key::PickValue
                },
            ),
            &[
                ("name", name),
                ("share", fixed(pick.speed_share.unwrap_or(0.0) * 100.0, 0)),
                ("price", price),
            ],
        ),
        Tier::Entry => fill(
            tr(lang, Key::PickEntry),
            &[("name", name), ("speed", speed), ("price", price)],
        ),
        Tier::NonNvidia => fill(
            tr(lang, Key::PickNonNvidia),
            &[("name", name), ("speed", speed), ("price", price)],
        ),
        // Without a purchase to weigh it against, the sentence names none.
        Tier::RentInstead => fill(
            tr(
                lang,
                if pick.buy_usd.is_some() {
                    Key::PickRentInstead
                } else {
                    Key::PickRentInsteadOnly
                },
            ),
            &[
                ("name", name),
                ("job", usd(pick.rent_job_usd.unwrap_or(0.0))),
                ("buy", pick.buy_usd.map(usd).unwrap_or_default()),
            ],
        ),
    };
    // A used price already says "used".
    let used =
        matches!(&item.cost.purchase, Some(p) if p.kind == PriceKind::Used && mode == Mode::Buy);
    let mut caveats = Vec::new();
    for c in &pick.caveats {
        let key = (pick.id.as_str(), c.code());
        if (used && matches!(c, Reason::UsedOnly)) || said.contains(&key) {
            continue;
        }
        said.push(key);
        caveats.push(reason_text(lang, c));
    }
    let mind = (!caveats.is_empty()).then(|| {
        fill(
            tr(lang, Key::PickCaveats),
            &[("list", caveats.join(tr(lang, Key::ListSeparator)))],
        )
    });
    Some((sentence, mind))
}

/// The top card's facts in one line: price, fit, speed, job time and cost.
fn top_facts(lang: Lang, mode: Mode, item: &Ranked) -> String {
    let mut facts = Vec::new();
    match (hardware_text(lang, &item.cost), item.cost.rent_usd_per_hour) {
        (Some(price), _) if mode == Mode::Buy => facts.push(price),
        (_, Some(r)) => facts.push(fill(
            tr(lang, Key::CardRent),
            &[("usd", format!("${}", fixed(r, 2)))],
        )),
        _ => {}
    }
    // As the card's badge says it: on how many GPUs, and how much is left.
    facts.extend(fit_badge(lang, &item.reasons).map(|(_, text)| sentence_case(&text, false)));
    if let Some(s) = &item.speed {
        facts.push(speed_point_text(lang, s.throughput.mid, s.unit));
        if let Some(h) = s.job_hours {
            facts.push(fill(tr(lang, Key::AnswerJobHours), &[("h", num(h.mid))]));
        }
    }
    if let Some(j) = item.cost.job_usd {
        let key = match mode {
            Mode::Buy => Key::AnswerEnergy,
            Mode::Rent => Key::AnswerJobCost,
        };
        facts.push(fill(tr(lang, key), &[("usd", usd(j.mid))]));
    }
    facts.join(" · ")
}

/// Reasons the top card's facts line already gives: the fit, and "used" in its price.
fn stated_in_facts(r: &Reason) -> bool {
    matches!(
        r,
        Reason::Fits { .. } | Reason::TightFit { .. } | Reason::NeedsGpus { .. } | Reason::UsedOnly
    )
}

/// Why the top card is first: what the priority chose it for among the candidates, and
/// the reason that matters most after that.
fn top_why(lang: Lang, priority: Priority, ranking: &Ranking, item: &Ranked) -> String {
    // As many as the picks choose among: the GPUs that fit and suit the person.
    let candidates = ranking.picks.all().next().map_or_else(
        || ranking.items.iter().filter(|r| r.score.is_some()).count(),
        |p| p.among,
    );
    let mut why = Vec::new();
    if item.score.is_some() {
        let key = match priority {
            Priority::Balance => Key::AnswerWhyBalance,
            Priority::Speed => Key::AnswerWhySpeed,
            Priority::Cost => Key::AnswerWhyCost,
        };
        why.push(fill(tr(lang, key), &[("n", candidates.to_string())]));
    }
    let rest = || item.reasons.iter().filter(|r| !stated_in_facts(r));
    if priority != Priority::Speed {
        why.extend(
            rest()
                .find(|r| matches!(r, Reason::SpeedVsBest { .. }))
                .map(|r| reason_text(lang, r)),
        );
    }
    why.extend(
        rest()
            .find(|r| catalog::rank::is_caveat(r))
            .map(|r| reason_text(lang, r)),
    );
    if why.is_empty() {
        why.extend(rest().take(2).map(|r| reason_text(lang, r)));
    }
    fill(
        tr(lang, Key::AnswerWhy),
        &[("why", why.join(tr(lang, Key::ListSeparator)))],
    )
}

/// An alternative in one line: the change (a link that makes it), how many GPUs then run
/// the workload, and the first of them with its facts.
fn alternative_line(h: &mut Html, d: &Draw, alt: &Alternative) {
    let lang = d.lang;
    let change = match alt.change {
        Change::Gpus(n) => fill(d.t(Key::AnswerAltGpus), &[("n", n.to_string())]),
        Change::Precision(p) => fill(
            d.t(Key::AnswerAltPrecision),
            &[("prec", p.as_str().to_ascii_uppercase())],
        ),
        Change::Task(t) => fill(
            d.t(Key::AnswerAltTask),
            &[("task", d.t(task_key(t)).to_string())],
        ),
    };
    let key = if alt.cheaper {
        Key::AnswerAltCheaper
    } else if alt.among == 1 {
        Key::AnswerAltOne
    } else {
        Key::AnswerAlt
    };
    let rest = fill(
        d.t(key),
        &[
            ("n", alt.among.to_string()),
            ("name", alt.top.gpu.name.clone()),
            ("facts", top_facts(lang, d.state.workload.mode, &alt.top)),
        ],
    );
    h.open(
        "li",
        &[
            ("data-testid", "alternative"),
            ("data-gpu-id", &alt.top.gpu.id),
        ],
    );
    d.link(h, &Nav::Change(alt.change), "alt-change", None, &change);
    h.text(&rest).close("li");
}

/// The alternatives under the picks, when the engine offers any (`Ranking::alternatives`).
fn alternatives(h: &mut Html, d: &Draw, ranking: &Ranking) {
    if ranking.alternatives.is_empty() {
        return;
    }
    let heading = if catalog::rank::first_pick_offloaded(&ranking.items, &ranking.picks) {
        Key::AnswerAltHeadingOffload
    } else if ranking.alternatives.iter().any(|a| a.cheaper) {
        Key::AnswerAltHeadingCheaper
    } else {
        Key::AnswerAltHeading
    };
    h.open(
        "div",
        &[("class", "alternatives"), ("data-testid", "alternatives")],
    )
    .el("p", &[], d.t(heading))
    .open("ul", &[]);
    for alt in &ranking.alternatives {
        alternative_line(h, d, alt);
    }
    h.close("ul").close("div");
}

/// The answer block; `data-testid="answer"`, one `pick-<tier>` line per pick.
pub fn answer(h: &mut Html, d: &Draw, ranking: &Ranking) {
    let (lang, mode) = (d.lang, d.state.workload.mode);
    let top = ranking.items.first().filter(|r| r.fits());
    // The caveat the why line gives for the top card is not repeated by its picks.
    let mut said: Vec<(&str, &'static str)> = top
        .and_then(|item| {
            item.reasons
                .iter()
                .find(|r| catalog::rank::is_caveat(r) && !stated_in_facts(r))
                .map(|r| (item.gpu.id.as_str(), r.code()))
        })
        .into_iter()
        .collect();
    h.open(
        "section",
        &[
            ("class", "answer"),
            ("id", "answer"),
            ("tabindex", "-1"),
            ("data-testid", "answer"),
            ("aria-labelledby", "answer-heading"),
            (
                if top.is_some() { "data-top" } else { "" },
                top.map_or("", |t| t.gpu.id.as_str()),
            ),
        ],
    )
    .el("h2", &[("id", "answer-heading")], d.t(Key::AnswerHeading));
    match top {
        Some(item) => {
            let line = fill(
                d.t(Key::AnswerTop),
                &[
                    ("name", item.gpu.name.clone()),
                    ("facts", top_facts(lang, mode, item)),
                ],
            );
            h.el("p", &[("class", "answer-top")], &line);
            h.el(
                "p",
                &[("class", "answer-why")],
                &top_why(lang, d.state.workload.priority, ranking, item),
            );
        }
        None => {
            // When the view's filters hide GPUs, the answer says so rather than blaming
            // the workload.
            let hidden = ranking
                .items
                .iter()
                .filter(|i| i.why_not == Some(WhyNot::Filtered))
                .count();
            let text = if hidden == ranking.items.len() {
                d.t(Key::AnswerFilteredAll).to_string()
            } else if hidden > 0 {
                fill(
                    d.t(Key::AnswerNoneFiltered),
                    &[("gpus", gpu_count(lang, hidden))],
                )
            } else {
                d.t(Key::AnswerNone).to_string()
            };
            h.el("p", &[("class", "answer-top")], &text);
        }
    }
    h.open("ul", &[("class", "picks")]);
    for p in ranking.picks.all() {
        let Some((text, mind)) = pick_sentence(lang, &d.state.workload, ranking, p, &mut said)
        else {
            continue;
        };
        h.open(
            "li",
            &[
                ("data-testid", &format!("pick-{}", p.tier.as_str())),
                ("data-gpu-id", &p.id),
            ],
        )
        .text(&text)
        .text(" ")
        .el("span", &[("class", "pick-mind")], &mind.unwrap_or_default())
        .close("li");
    }
    h.close("ul");
    alternatives(h, d, ranking);
    h.close("section");
}

// ---------------------------------------------------------------------------------------
// The ranked cards

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
fn per_user_text(lang: Lang, item: &Ranked, w: &Workload) -> Option<String> {
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
        parts.push(per_work_cost_text(lang, mode, speed.map(|s| s.unit), m));
    }
    if let (Mode::Buy, Some(rent), Some(hours)) =
        (mode, c.rent_usd_per_hour, speed.and_then(|s| s.job_hours))
    {
        parts.push(fill(
            tr(lang, Key::CardRentJob),
            &[("usd", usd(rent * hours.mid))],
        ));
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
    open: bool,
) {
    let (lang, mode) = (d.lang, d.state.workload.mode);
    let gpu = item.gpu;
    let (need, have) = (item.memory.total(), item.usable_bytes);
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
    h.open(
        "details",
        &[
            ("class", "card-more"),
            ("data-testid", "card-more"),
            flag("open", open),
        ],
    )
    .el("summary", &[], d.t(Key::CardMore));
    if !cost_more.is_empty() {
        h.el("p", &[("class", "rank-cost")], &cost_more);
    }
    h.el(
        "p",
        &[("class", "rank-software"), ("data-testid", "card-software")],
        &fill(
            d.t(Key::CardSoftware),
            &[("software", item.software.name().to_string())],
        ),
    );
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

/// The ranking section: its head (with the downloads), the memory the workload needs,
/// whether the visitor's own GPU (`mine`) runs it, the cards, and the GPUs left out with
/// why. `open` lists the GPUs whose "More" is open; `rank_ms` is how long ranking took.
/// The build writes it into `index.html` with `written`: the first cards only
/// (`prerender::CARDS`), no downloads (nothing runs them before the module), no list of
/// GPUs left out.
pub fn ranking(
    h: &mut Html,
    d: &Draw,
    r: &Ranking,
    mine: Option<&str>,
    open: &[String],
    rank_ms: f64,
    written: Option<usize>,
) {
    let lang = d.lang;
    let embedded = d.state.embed || written.is_some();
    h.open(
        "section",
        &[
            ("class", "ranking"),
            ("aria-labelledby", "ranking-heading"),
            ("data-rank-ms", &fixed(rank_ms, 3)),
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
    let mine_item = mine.and_then(|id| r.items.iter().find(|i| i.gpu.id == id));
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
    h.open("ol", &[("class", "rank-list")]);
    for (n, (item, grade)) in priced.iter().take(shown.min(set_back)).enumerate() {
        if n < FULL_CARDS {
            let vs_mine =
                base.and_then(|(b, name)| Some((item.speed.as_ref()?.throughput.mid / b, name)));
            card(
                h,
                d,
                item,
                n + 1,
                *grade,
                vs_mine,
                open.contains(&item.gpu.id),
            );
        } else {
            row(h, d, item, n + 1);
        }
    }
    h.close("ol");
    if embedded {
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

/// The advise view's frame: its title and the grid the form, answer and ranking fill
/// (`crate::page` sets each of them).
pub fn frame(d: &Draw) -> String {
    let mut h = Html::new();
    let embedded = d.state.embed;
    h.el("h1", &[("class", "view-title")], d.t(Key::AdviseTitle))
        .open(
            "div",
            &[("class", if embedded { "advise compact" } else { "advise" })],
        )
        .open(
            "section",
            &[
                (
                    "class",
                    if embedded {
                        "workload hidden"
                    } else {
                        "workload"
                    },
                ),
                ("aria-labelledby", "workload-heading"),
            ],
        )
        .close("section")
        .open("section", &[("class", "answer"), ("data-testid", "answer")])
        .close("section")
        .open("section", &[("class", "ranking")])
        .close("section")
        .close("div");
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States the form is drawn for: the default and every preset's workload.
    fn states() -> Vec<AppState> {
        std::iter::once(AppState::default())
            .chain(presets().into_iter().map(|(_, workload)| AppState {
                workload,
                ..AppState::default()
            }))
            .collect()
    }

    #[test]
    fn every_option_the_form_offers_reads_back_as_chosen() {
        let options = form_options(Lang::En, Catalog::embedded());
        for state in states() {
            for f in FIELDS {
                let Input::Select {
                    options: pick,
                    get,
                    set,
                } = &f.input
                else {
                    continue;
                };
                for (token, label) in pick(&options, &state) {
                    let mut chosen = state.clone();
                    set(&mut chosen, token);
                    assert_eq!(&get(&chosen), token, "{} option {label:?}", f.id);
                }
            }
        }
    }

    #[test]
    fn every_number_the_form_shows_reads_back_as_typed() {
        for state in states() {
            for f in FIELDS {
                let Input::Number { param, get, set } = &f.input else {
                    continue;
                };
                let (min, max) = range(param);
                assert!(min < max, "{} takes a range ({param})", f.id);
                if !(f.shown)(&state) {
                    continue;
                }
                for value in [get(&state), Some(min), Some(max)] {
                    let mut typed = state.clone();
                    set(&mut typed, value);
                    assert_eq!(get(&typed), value, "{} = {value:?}", f.id);
                }
            }
        }
    }

    #[test]
    fn field_ids_are_unique() {
        let mut ids: Vec<&str> = FIELDS.iter().map(|f| f.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), FIELDS.len());
    }
}
