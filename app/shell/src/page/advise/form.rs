//! The workload form: one table of fields (`FIELDS`) drives drawing it, refreshing its
//! values after a change and reading what the person typed.

use super::*;

/// The model select's token for a custom size.
const CUSTOM: &str = "custom";

/// The options of every select, in one language.
pub struct FormOptions {
    tasks: Vec<(String, String)>,
    models: Vec<(String, String)>,
    precisions: Vec<(String, String)>,
    kv_caches: Vec<(String, String)>,
    hosts: Vec<(String, String)>,
    owned: Vec<(String, String)>,
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
        v.name().to_string()
    }));
    FormOptions {
        tasks: tokens(Task::ALL, Task::as_str, |v| t(task_key(v))),
        models,
        precisions: std::iter::once((AUTO_PRECISION.to_string(), t(Key::PrecisionAuto)))
            .chain(tokens(Precision::ALL, Precision::as_str, |p| {
                p.as_str().to_ascii_uppercase()
            }))
            .collect(),
        kv_caches: tokens(KvCache::ALL, KvCache::as_str, |k| {
            t(match k {
                KvCache::F16 => Key::KvF16,
                KvCache::Q8 => Key::KvQ8,
                KvCache::Q4 => Key::KvQ4,
            })
        }),
        // Cards that go in a box beside others: not whole machines, not server modules.
        owned: std::iter::once((String::new(), t(Key::FormHaveNone)))
            .chain(
                catalog
                    .gpus
                    .iter()
                    .filter(|g| g.form_factor == FormFactor::Pcie)
                    .map(|g| (g.id.clone(), g.name.clone())),
            )
            .collect(),
        hosts: HOSTS
            .iter()
            .filter_map(|token| Host::parse(token))
            .map(|h| (h.token(), host_text(lang, h)))
            .collect(),
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
            (
                Framework::Torchtune.as_str().into(),
                t(Key::FrameworkTorchtune),
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

/// The machines the system-memory select offers: desktops with two channels of DDR4 or
/// DDR5, a four-channel workstation and eight- and twelve-channel servers. A link may name
/// any other (`host::Host::parse`); the select then shows it too.
const HOSTS: [&str; 14] = [
    "16-ddr4",
    "32-ddr4",
    "64-ddr4",
    "128-ddr4",
    "16",
    "32",
    "64",
    "96",
    "128",
    "192",
    "256-ddr4x4",
    "256-ddr5x8",
    "512-ddr5x8",
    "768-ddr5x12",
];

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
            get: |s| s.workload.precision_token().into(),
            set: |s, v| {
                s.workload.set_precision_token(v);
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
            get: |s| {
                let model = resolve_model(Catalog::embedded(), &s.workload);
                Some(f64::from(s.workload.batch_for(model.family)))
            },
            // Left blank, the run's usual batch (`workload::default_batch`).
            set: |s, v| {
                s.workload.batch = v.map_or(1, |b| b as u32);
                s.workload.batch_given = v.is_some();
            },
        },
    },
    Field {
        id: "f-seq",
        label: Key::FormSeq,
        more: false,
        shown: always,
        input: Input::Number {
            param: "seq",
            get: |s| {
                s.workload
                    .seq_for(&resolve_model(Catalog::embedded(), &s.workload))
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
        id: "f-kv",
        label: Key::FormKv,
        more: true,
        shown: serving_lm,
        input: Input::Select {
            options: |o, _| &o.kv_caches,
            get: |s| s.workload.kv.as_str().into(),
            set: |s, v| {
                if let Some(k) = KvCache::parse(v) {
                    s.workload.kv = k
                }
            },
        },
    },
    Field {
        id: "f-have",
        label: Key::FormHave,
        more: true,
        shown: serving_lm,
        // One owned card from the form; a link may name up to `MAX_HAVE`, which the
        // select shows by the first and a choice here replaces.
        input: Input::Select {
            options: |o, _| &o.owned,
            get: |s| s.workload.have.first().cloned().unwrap_or_default(),
            set: |s, v| {
                s.workload.have = if v.is_empty() {
                    Vec::new()
                } else {
                    vec![v.to_string()]
                }
            },
        },
    },
    Field {
        id: "f-host",
        label: Key::FormHost,
        more: true,
        shown: serving_lm,
        input: Input::Select {
            options: |o, _| &o.hosts,
            get: |s| s.workload.host.token(),
            set: |s, v| {
                if let Some(h) = Host::parse(v) {
                    s.workload.host = h
                }
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
            let listed = pick(options, d.state);
            for (token, label) in listed {
                h.el(
                    "option",
                    &[("value", token), flag("selected", *token == current)],
                    label,
                );
            }
            // A value from a link that the list does not offer (a machine's memory) is
            // shown as itself rather than as the first option.
            if !listed.iter().any(|(token, _)| *token == current) {
                h.el(
                    "option",
                    &[("value", &current), flag("selected", true)],
                    &current,
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
    h.el(
        "p",
        &[("class", "assumptions")],
        assumptions(d.lang, d.state),
    );
    h.finish()
}

/// What the estimate assumes that the form does not ask, for the framework a training
/// job runs in.
pub fn assumptions(lang: Lang, s: &AppState) -> &'static str {
    use catalog::workload::Framework;
    let key = match s.workload.framework() {
        _ if !s.workload.task.is_training() => Key::FormAssumptionsServing,
        Framework::Torchtune => Key::FormAssumptionsTorchtune,
        Framework::Megatron => Key::FormAssumptionsMegatron,
        Framework::Unsloth => Key::FormAssumptionsUnsloth,
        Framework::Pytorch => Key::FormAssumptions,
    };
    tr(lang, key)
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

    /// Each training framework states its own defaults; serving states its own line.
    #[test]
    fn the_assumptions_line_names_the_framework_a_training_job_runs_in() {
        use catalog::workload::Framework;
        let line = |task: Task, framework: Framework| {
            let mut s = AppState::default();
            s.workload.task = task;
            s.workload.framework = Some(framework);
            assumptions(Lang::En, &s)
        };
        let lines: std::collections::HashSet<&str> = Framework::ALL
            .iter()
            .map(|&f| line(Task::Finetune, f))
            .collect();
        assert_eq!(lines.len(), Framework::ALL.len());
        // Serving names no trainer's defaults, whatever the framework field holds.
        for &f in Framework::ALL {
            assert_eq!(
                line(Task::Infer, f),
                tr(Lang::En, Key::FormAssumptionsServing)
            );
        }
        assert!(!line(Task::Infer, Framework::Pytorch).contains("LoRA"));
        assert!(line(Task::Lora, Framework::Megatron).contains("no activation recomputation"));
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
