//! Every URL parameter, declared once: its key, the range a number in it takes, how its
//! value is read into the state and how the state writes it back. `parse` and `print`
//! run over this table in its order, the form's number fields take their ranges from it
//! (`range`), the export's workload block takes its names and values from it (`export`),
//! and a test checks the README's table of keys against it.

use super::{
    cut, AppState, Condition, IgnoreReason, Ignored, Lang, Resolve, Theme, View, MAX_COMPARE,
};
use crate::decimal::{parse_number, shortest};
use crate::gpu::{Segment, Vendor};
use crate::host::Host;
use crate::model::Model;
use crate::workload::{
    EcoRequirement, Framework, KvCache, Measured, Mode, ModelChoice, Network, Optimizer, Priority,
    Runtime, Task, Workload, DEFAULT_MODEL, MAX_HAVE, MAX_PRICES,
};

/// One parameter of the link.
pub struct Param {
    pub key: &'static str,
    /// The range a number in the value must fall in, for numeric parameters (for `price`,
    /// each pair's amount).
    pub range: Option<(f64, f64)>,
    /// Whether the number must be whole (a batch of 2.7 is not read as 2).
    pub whole: bool,
    read: fn(&mut AppState, &mut Reading) -> Result<(), IgnoreReason>,
    /// The value for the state, or `None` when it holds the default (left out of links).
    write: fn(&AppState) -> Option<String>,
    /// Its name and value in the export's workload block (`catalog::export`): the value
    /// the estimate used (the model's own sequence length when the link sets none), not
    /// only what the link says. `None` for keys that are not the workload's (the view,
    /// the compared GPUs, filters, language, theme, embedding).
    pub export: Option<(&'static str, ExportFn)>,
}

/// How a parameter's value is read for the export, from the workload and its model.
pub type ExportFn = fn(&Workload, &Model) -> Exported;

/// A workload parameter's value in the export (`Param::export`).
#[derive(Debug, Clone, PartialEq)]
pub enum Exported {
    Text(String),
    Number(f64),
    Whole(u64),
    Flag(bool),
    Null,
    /// Your prices: GPU id and dollars.
    Prices(Vec<(String, f64)>),
}

/// A value being read: its text, and where a list's items are noticed one by one.
pub(super) struct Reading<'a> {
    pub value: &'a str,
    key: &'static str,
    range: (f64, f64),
    catalog: &'a dyn Resolve,
    ignored: &'a mut Vec<Ignored>,
}

impl Reading<'_> {
    fn number(&self) -> Result<f64, IgnoreReason> {
        let (low, high) = self.range;
        parse_number(self.value)
            .filter(|x| x.is_finite() && *x >= low && *x <= high)
            .ok_or(IgnoreReason::InvalidValue)
    }

    /// A whole number in range (digits only: `2.7` is not a batch).
    fn whole(&self) -> Result<u64, IgnoreReason> {
        let (low, high) = self.range;
        self.value
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|x| (*x as f64) >= low && (*x as f64) <= high)
            .ok_or(IgnoreReason::InvalidValue)
    }

    fn small(&self) -> Result<u32, IgnoreReason> {
        self.whole()
            .and_then(|x| u32::try_from(x).map_err(|_| IgnoreReason::InvalidValue))
    }

    fn token<T>(&self, parse: fn(&str) -> Option<T>) -> Result<T, IgnoreReason> {
        parse(self.value).ok_or(IgnoreReason::InvalidValue)
    }

    fn flag(&self) -> Result<bool, IgnoreReason> {
        match self.value {
            "1" => Ok(true),
            "0" => Ok(false),
            _ => Err(IgnoreReason::InvalidValue),
        }
    }

    /// One item of a list that cannot be used, noticed on its own.
    fn notice(&mut self, item: &str, reason: IgnoreReason) {
        self.ignored.push(Ignored {
            key: cut(self.key),
            value: cut(item),
            reason,
        });
    }

    /// A comma list of catalog GPUs into `into`, by their ids: unknown ones, those past
    /// `max` and (unless `repeats`) repeated ones noticed one by one. A list of nothing
    /// (`ids=,,,`) is named, not passed over.
    fn gpus(
        &mut self,
        into: &mut Vec<String>,
        max: usize,
        repeats: bool,
    ) -> Result<(), IgnoreReason> {
        let value = self.value;
        if value.split(',').all(|t| t.trim().is_empty()) {
            return Err(IgnoreReason::InvalidValue);
        }
        for id in value.split(',').filter(|t| !t.is_empty()) {
            match self.catalog.gpu_id(id.trim()) {
                Some(canonical) if !repeats && into.contains(&canonical) => {
                    self.notice(id, IgnoreReason::Repeated)
                }
                Some(_) if into.len() >= max => self.notice(id, IgnoreReason::TooMany),
                Some(canonical) => into.push(canonical),
                None => self.notice(id, IgnoreReason::UnknownGpu),
            }
        }
        Ok(())
    }

    /// A comma list of tokens, in order, repeats dropped, unknown ones noticed.
    fn tokens<T: PartialEq>(&mut self, read: impl Fn(&str) -> Option<T>) -> Vec<T> {
        let mut out = Vec::new();
        let value = self.value;
        for token in value.split(',').filter(|t| !t.is_empty()) {
            match read(token) {
                Some(t) if !out.contains(&t) => out.push(t),
                Some(_) => {}
                None => self.notice(token, IgnoreReason::InvalidValue),
            }
        }
        out
    }
}

/// A number as links write it: whole numbers without a decimal point.
pub(super) fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        shortest(x)
    }
}

fn differs<T: PartialEq>(value: T, default: T, text: impl FnOnce(T) -> String) -> Option<String> {
    (value != default).then(|| text(value))
}

fn defaults() -> &'static Workload {
    static D: std::sync::OnceLock<Workload> = std::sync::OnceLock::new();
    D.get_or_init(Workload::default)
}

fn joined<T>(items: &[T], text: impl Fn(&T) -> String) -> Option<String> {
    (!items.is_empty()).then(|| items.iter().map(text).collect::<Vec<_>>().join(","))
}

const NONE: Option<(f64, f64)> = None;

/// The parameters, in the order links write them.
pub const PARAMS: &[Param] = &[
    Param {
        key: "view",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.view = r.token(View::parse)?;
            Ok(())
        },
        write: |s| differs(s.view, View::Advise, |v| v.as_str().into()),
        export: None,
    },
    Param {
        key: "ids",
        range: NONE,
        whole: false,
        read: |s, r| r.gpus(&mut s.ids, MAX_COMPARE, false),
        write: |s| joined(&s.ids, String::clone),
        export: None,
    },
    Param {
        key: "mine",
        range: NONE,
        whole: false,
        read: |s, r| {
            let id = r.catalog.gpu_id(r.value.trim());
            s.mine = Some(id.ok_or(IgnoreReason::UnknownGpu)?);
            Ok(())
        },
        write: |s| s.mine.clone(),
        export: None,
    },
    Param {
        key: "have",
        range: NONE,
        whole: false,
        // The GPUs the person owns (`Workload::have`): the same card may be owned twice.
        read: |s, r| r.gpus(&mut s.workload.have, MAX_HAVE, true),
        write: |s| joined(&s.workload.have, String::clone),
        export: Some(("have", |w, _| {
            if w.have.is_empty() {
                Exported::Null
            } else {
                Exported::Text(w.have.join(","))
            }
        })),
    },
    Param {
        key: "measured",
        range: Some((1.0, 20000.0)),
        whole: false,
        // `rtx-3090:812`: a catalog card and the GB/s measured on it (`Workload::measured`).
        read: |s, r| {
            let (low, high) = r.range;
            let (id, gbs) = r.value.split_once(':').unwrap_or((r.value, ""));
            let gbs = parse_number(gbs).filter(|x| x.is_finite() && *x >= low && *x <= high);
            match (r.catalog.gpu_id(id.trim()), gbs) {
                (Some(gpu), Some(gbs)) => {
                    s.workload.measured = Some(Measured { gpu, gbs });
                    Ok(())
                }
                (None, _) if r.value.contains(':') => Err(IgnoreReason::UnknownGpu),
                _ => Err(IgnoreReason::InvalidValue),
            }
        },
        write: |s| {
            let m = s.workload.measured.as_ref()?;
            Some(format!("{}:{}", m.gpu, number(m.gbs)))
        },
        export: Some(("measured_bandwidth", |w, _| match &w.measured {
            Some(m) => Exported::Text(format!("{}:{}", m.gpu, number(m.gbs))),
            None => Exported::Null,
        })),
    },
    Param {
        key: "task",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.task = r.token(Task::parse)?;
            Ok(())
        },
        write: |s| differs(s.workload.task, defaults().task, |t| t.as_str().into()),
        export: Some(("task", |w, _| Exported::Text(w.task.as_str().into()))),
    },
    Param {
        key: "model",
        range: NONE,
        whole: false,
        read: |s, r| {
            if !r.catalog.has_model(r.value) {
                return Err(IgnoreReason::UnknownModel);
            }
            // A custom size (`params`) wins over a preset, whatever the order of the keys.
            if !matches!(s.workload.model, ModelChoice::Custom(_)) {
                s.workload.model = ModelChoice::Preset(r.value.to_string());
            }
            Ok(())
        },
        write: |s| match &s.workload.model {
            ModelChoice::Preset(id) if id != DEFAULT_MODEL => Some(id.clone()),
            _ => None,
        },
        export: Some(("model", |w, _| match &w.model {
            ModelChoice::Preset(id) => Exported::Text(id.clone()),
            ModelChoice::Custom(_) => Exported::Null,
        })),
    },
    Param {
        key: "params",
        range: Some((0.01, 5000.0)),
        whole: false,
        read: |s, r| {
            s.workload.model = ModelChoice::Custom(r.number()?);
            Ok(())
        },
        write: |s| match s.workload.model {
            ModelChoice::Custom(p) => Some(number(p)),
            ModelChoice::Preset(_) => None,
        },
        export: Some(("params_b", |w, _| match w.model {
            ModelChoice::Custom(p) => Exported::Number(p),
            ModelChoice::Preset(_) => Exported::Null,
        })),
    },
    Param {
        key: "prec",
        range: NONE,
        whole: false,
        // `auto` (the default, left out of links): the quantization ladder (`quant`);
        // a named precision fixes it for every GPU.
        read: |s, r| {
            if s.workload.set_precision_token(r.value) {
                Ok(())
            } else {
                Err(IgnoreReason::InvalidValue)
            }
        },
        write: |s| (!s.workload.auto_precision).then(|| s.workload.precision_token().into()),
        export: Some(("precision", |w, _| {
            Exported::Text(w.precision_token().into())
        })),
    },
    Param {
        key: "kv",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.kv = r.token(KvCache::parse)?;
            Ok(())
        },
        write: |s| differs(s.workload.kv, defaults().kv, |k| k.as_str().into()),
        export: Some(("kv_cache", |w, _| Exported::Text(w.kv.as_str().into()))),
    },
    Param {
        key: "host",
        range: NONE,
        whole: false,
        // The machine's system memory: `64`, `64-ddr4` (`host::Host`).
        read: |s, r| {
            s.workload.host = r.token(Host::parse)?;
            Ok(())
        },
        write: |s| differs(s.workload.host, defaults().host, Host::token),
        export: Some(("host", |w, _| Exported::Text(w.host.token()))),
    },
    Param {
        key: "batch",
        range: Some((1.0, 4096.0)),
        whole: true,
        read: |s, r| {
            s.workload.batch = r.small()?;
            s.workload.batch_given = true;
            Ok(())
        },
        // Written when chosen: without it the run takes its usual batch
        // (`workload::default_batch`).
        write: |s| s.workload.batch_given.then(|| s.workload.batch.to_string()),
        export: Some(("batch", |w, m| {
            Exported::Whole(u64::from(w.batch_for(m.family)))
        })),
    },
    Param {
        key: "seq",
        range: Some((16.0, 1_048_576.0)),
        whole: true,
        read: |s, r| {
            s.workload.seq = Some(r.small()?);
            Ok(())
        },
        write: |s| s.workload.seq.map(|x| x.to_string()),
        export: Some(("seq", |w, m| {
            w.seq_for(m)
                .map_or(Exported::Null, |s| Exported::Whole(u64::from(s)))
        })),
    },
    Param {
        key: "samples",
        range: Some((1.0, 1e11)),
        whole: true,
        read: |s, r| {
            s.workload.samples = Some(r.whole()?);
            Ok(())
        },
        write: |s| s.workload.samples.map(|x| x.to_string()),
        export: Some(("samples", |w, m| Exported::Whole(w.samples_for(m)))),
    },
    Param {
        key: "epochs",
        range: Some((0.01, 1000.0)),
        whole: false,
        read: |s, r| {
            s.workload.epochs = r.number()?;
            Ok(())
        },
        write: |s| differs(s.workload.epochs, defaults().epochs, number),
        export: Some(("epochs", |w, _| Exported::Number(w.epochs))),
    },
    Param {
        key: "steps",
        range: Some((1.0, 1000.0)),
        whole: true,
        read: |s, r| {
            s.workload.steps = Some(r.small()?);
            Ok(())
        },
        write: |s| s.workload.steps.map(|x| x.to_string()),
        export: Some(("steps", |w, _| Exported::Whole(u64::from(w.steps())))),
    },
    Param {
        key: "gpus",
        range: Some((1.0, 16.0)),
        whole: true,
        read: |s, r| {
            s.workload.gpus = r.small()?;
            Ok(())
        },
        write: |s| differs(s.workload.gpus, defaults().gpus, |g| g.to_string()),
        export: Some(("gpus", |w, _| Exported::Whole(u64::from(w.gpus)))),
    },
    Param {
        key: "nodes",
        range: Some((1.0, 1024.0)),
        whole: true,
        read: |s, r| {
            s.workload.nodes = r.small()?;
            Ok(())
        },
        write: |s| differs(s.workload.nodes, defaults().nodes, |n| n.to_string()),
        export: Some(("nodes", |w, _| Exported::Whole(u64::from(w.nodes)))),
    },
    Param {
        key: "net",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.network = r.token(Network::parse)?;
            Ok(())
        },
        write: |s| {
            differs(s.workload.network, defaults().network, |n| {
                n.as_str().into()
            })
        },
        export: Some(("network", |w, _| Exported::Text(w.network.as_str().into()))),
    },
    Param {
        key: "runtime",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.runtime = Some(r.token(Runtime::parse)?);
            Ok(())
        },
        write: |s| s.workload.runtime.map(|x| x.as_str().into()),
        export: Some(("runtime", |w, _| {
            w.runtime
                .map_or(Exported::Null, |r| Exported::Text(r.as_str().into()))
        })),
    },
    Param {
        key: "fw",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.framework = Some(r.token(Framework::parse)?);
            Ok(())
        },
        write: |s| s.workload.framework.map(|x| x.as_str().into()),
        export: Some(("framework", |w, _| {
            Exported::Text(w.framework().as_str().into())
        })),
    },
    Param {
        key: "budget",
        range: Some((1.0, 1e9)),
        whole: false,
        read: |s, r| {
            s.workload.budget_usd = Some(r.number()?);
            Ok(())
        },
        write: |s| s.workload.budget_usd.map(number),
        export: Some(("budget_usd", |w, _| {
            w.budget_usd.map_or(Exported::Null, Exported::Number)
        })),
    },
    Param {
        key: "mode",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.mode = r.token(Mode::parse)?;
            Ok(())
        },
        write: |s| differs(s.workload.mode, defaults().mode, |m| m.as_str().into()),
        export: Some(("mode", |w, _| Exported::Text(w.mode.as_str().into()))),
    },
    Param {
        key: "eco",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.eco = r.token(EcoRequirement::parse)?;
            Ok(())
        },
        write: |s| differs(s.workload.eco, defaults().eco, |e| e.as_str().into()),
        export: Some(("eco", |w, _| Exported::Text(w.eco.as_str().into()))),
    },
    Param {
        key: "prio",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.priority = r.token(Priority::parse)?;
            Ok(())
        },
        write: |s| {
            differs(s.workload.priority, defaults().priority, |p| {
                p.as_str().into()
            })
        },
        export: Some(("priority", |w, _| {
            Exported::Text(w.priority.as_str().into())
        })),
    },
    Param {
        key: "opt",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.optimizer = r.token(Optimizer::parse)?;
            Ok(())
        },
        write: |s| {
            differs(s.workload.optimizer, defaults().optimizer, |o| {
                o.as_str().into()
            })
        },
        export: Some(("optimizer", |w, _| {
            Exported::Text(w.optimizer.as_str().into())
        })),
    },
    Param {
        key: "rank",
        range: Some((1.0, 1024.0)),
        whole: true,
        read: |s, r| {
            s.workload.lora_rank = r.small()?;
            Ok(())
        },
        write: |s| {
            differs(s.workload.lora_rank, defaults().lora_rank, |x| {
                x.to_string()
            })
        },
        export: Some(("lora_rank", |w, _| Exported::Whole(u64::from(w.lora_rank)))),
    },
    Param {
        key: "ckpt",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.workload.checkpointing = Some(r.flag()?);
            Ok(())
        },
        write: |s| {
            s.workload
                .checkpointing
                .map(|c| if c { "1" } else { "0" }.into())
        },
        export: Some(("checkpointing", |w, _| Exported::Flag(w.checkpointing()))),
    },
    Param {
        key: "kwh",
        range: Some((0.0, 10.0)),
        whole: false,
        read: |s, r| {
            s.workload.electricity_usd_per_kwh = r.number()?;
            Ok(())
        },
        write: |s| {
            let kwh = s.workload.electricity_usd_per_kwh;
            differs(kwh, defaults().electricity_usd_per_kwh, number)
        },
        export: Some(("electricity_usd_per_kwh", |w, _| {
            Exported::Number(w.electricity_usd_per_kwh)
        })),
    },
    Param {
        key: "price",
        range: Some((1.0, 1e7)),
        whole: false,
        read: |s, r| {
            let (low, high) = r.range;
            let value = r.value;
            for pair in value.split(',').filter(|t| !t.is_empty()) {
                let (id, usd) = pair.split_once(':').unwrap_or((pair, ""));
                let id = r.catalog.gpu_id(id.trim());
                let usd = parse_number(usd).filter(|x| x.is_finite() && *x >= low && *x <= high);
                let w = &mut s.workload;
                let reason = match (id, usd) {
                    (Some(id), Some(_)) if w.your_price(&id).is_some() => IgnoreReason::Repeated,
                    (Some(_), Some(_)) if w.your_prices.len() >= MAX_PRICES => {
                        IgnoreReason::TooMany
                    }
                    (Some(id), Some(usd)) => {
                        w.your_prices.push((id, usd));
                        continue;
                    }
                    (None, _) if pair.contains(':') => IgnoreReason::UnknownGpu,
                    _ => IgnoreReason::InvalidValue,
                };
                r.notice(pair, reason);
            }
            Ok(())
        },
        write: |s| {
            joined(&s.workload.your_prices, |(id, usd)| {
                format!("{id}:{}", number(*usd))
            })
        },
        export: Some(("your_prices", |w, _| {
            Exported::Prices(w.your_prices.clone())
        })),
    },
    Param {
        key: "seg",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.filters.segments =
                r.tokens(|t| Segment::ALL.iter().copied().find(|x| x.as_str() == t));
            Ok(())
        },
        write: |s| joined(&s.filters.segments, |x| x.as_str().into()),
        export: None,
    },
    Param {
        key: "vendor",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.filters.vendors = r.tokens(|t| Vendor::ALL.iter().copied().find(|x| x.as_str() == t));
            Ok(())
        },
        write: |s| joined(&s.filters.vendors, |x| x.as_str().into()),
        export: None,
    },
    Param {
        key: "cond",
        range: NONE,
        whole: false,
        read: |s, r| {
            let c = r.token(Condition::parse)?;
            s.filters.condition = (c != Condition::Any).then_some(c);
            Ok(())
        },
        write: |s| s.filters.condition.map(|c| c.as_str().into()),
        export: None,
    },
    Param {
        key: "lang",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.lang = Some(r.token(Lang::parse)?);
            Ok(())
        },
        write: |s| s.lang.map(|l| l.as_str().into()),
        export: None,
    },
    Param {
        key: "theme",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.theme = Some(r.token(Theme::parse)?);
            Ok(())
        },
        write: |s| s.theme.map(|t| t.as_str().into()),
        export: None,
    },
    Param {
        key: "embed",
        range: NONE,
        whole: false,
        read: |s, r| {
            s.embed = r.flag()?;
            Ok(())
        },
        write: |s| s.embed.then(|| "1".into()),
        export: None,
    },
];

/// The parameter with this key.
pub fn param(key: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.key == key)
}

/// The range a numeric parameter takes (the form's fields and the card's own price use
/// it); `(0, 0)` for a key that is not numeric, which no test lets happen.
pub fn range(key: &str) -> (f64, f64) {
    param(key).and_then(|p| p.range).unwrap_or((0.0, 0.0))
}

impl Param {
    /// Reads `value` into `state`; items of a list that cannot be used are noticed in
    /// `ignored` one by one, and a value that cannot be used at all is the `Err`.
    pub(super) fn read(
        &self,
        state: &mut AppState,
        value: &str,
        catalog: &dyn Resolve,
        ignored: &mut Vec<Ignored>,
    ) -> Result<(), IgnoreReason> {
        let mut r = Reading {
            value,
            key: self.key,
            range: self.range.unwrap_or((0.0, 0.0)),
            catalog,
            ignored,
        };
        (self.read)(state, &mut r)
    }

    /// Whether a number typed for this parameter would be read: in its range, and whole
    /// where it must be.
    pub fn takes(&self, x: f64) -> bool {
        self.range
            .is_some_and(|(low, high)| x.is_finite() && x >= low && x <= high)
            && (!self.whole || x.fract() == 0.0)
    }

    /// The value the state writes for this parameter, `None` when it is the default.
    pub fn write(&self, state: &AppState) -> Option<String> {
        (self.write)(state)
    }
}
