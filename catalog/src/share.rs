//! The URL is the state: every view and its inputs live in the query string of
//! `index.html`. `parse` never fails; what it cannot read it skips and names in
//! the returned `Ignored` list, so the page can show a notice. `print` writes
//! only values that differ from the defaults, in a fixed order, so links stay
//! short and `print(parse(print(s))) == print(s)`.

use crate::gpu::{Segment, Vendor};
use crate::workload::{
    token_enum, Change, EcoRequirement, Framework, Mode, ModelChoice, Network, Optimizer,
    Precision, Priority, Runtime, Task, Workload,
};

token_enum!(View {
    Advise = "advise",
    Compare = "compare",
    Gpu = "gpu",
    Bench = "bench",
    Guide = "guide",
});

token_enum!(Lang { En = "en", Zh = "zh" });

token_enum!(Theme {
    Light = "light",
    Dark = "dark",
});

token_enum!(
    /// Which purchase conditions the advise view lists.
    Condition {
        Any = "any",
        New = "new",
        Used = "used",
    }
);

/// Filters of the advise view: empty lists mean "all".
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Filters {
    pub segments: Vec<Segment>,
    pub vendors: Vec<Vendor>,
    pub condition: Option<Condition>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    pub view: View,
    /// Canonical GPU ids (aliases already resolved).
    pub ids: Vec<String>,
    pub workload: Workload,
    pub filters: Filters,
    /// The visitor's own GPU, only when they chose to put it in the link.
    pub mine: Option<String>,
    pub lang: Option<Lang>,
    pub theme: Option<Theme>,
    pub embed: bool,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            view: View::Advise,
            ids: Vec::new(),
            workload: Workload::default(),
            filters: Filters::default(),
            mine: None,
            lang: None,
            theme: None,
            embed: false,
        }
    }
}

/// A move that a link makes: one value type, so every link shares one piece of code.
#[derive(Debug, Clone, PartialEq)]
pub enum Nav {
    GoTo(View),
    OpenGpu(String),
    AddToCompare(String),
    /// Takes a GPU out of the compared ones.
    Uncompare(String),
    ShareMine(String),
    /// One of the answer's alternatives: the workload with that input changed.
    Change(Change),
}

impl Nav {
    /// The move as one short word for a page element to carry (`data-nav`), read back by
    /// `from_token`: a link's target is computed from the state when it is clicked, so a
    /// link drawn before the state changed still makes the move it names.
    pub fn token(&self) -> String {
        match self {
            Nav::GoTo(view) => format!("go:{}", view.as_str()),
            Nav::OpenGpu(id) => format!("gpu:{id}"),
            Nav::AddToCompare(id) => format!("compare:{id}"),
            Nav::Uncompare(id) => format!("uncompare:{id}"),
            Nav::ShareMine(id) => format!("mine:{id}"),
            Nav::Change(Change::Gpus(n)) => format!("gpus:{n}"),
            Nav::Change(Change::Precision(p)) => format!("prec:{}", p.as_str()),
            Nav::Change(Change::Task(t)) => format!("task:{}", t.as_str()),
        }
    }

    pub fn from_token(token: &str) -> Option<Nav> {
        let (kind, value) = token.split_once(':')?;
        Some(match kind {
            "go" => Nav::GoTo(View::parse(value)?),
            "gpu" => Nav::OpenGpu(value.into()),
            "compare" => Nav::AddToCompare(value.into()),
            "uncompare" => Nav::Uncompare(value.into()),
            "mine" => Nav::ShareMine(value.into()),
            "gpus" => Nav::Change(Change::Gpus(value.parse().ok()?)),
            "prec" => Nav::Change(Change::Precision(Precision::parse(value)?)),
            "task" => Nav::Change(Change::Task(Task::parse(value)?)),
            _ => return None,
        })
    }
}

/// What a person can do to the state by clicking: each operation is one history
/// entry, and the views bind them to links (`after` gives the state a link points to).
impl AppState {
    /// This state changed by `change`: the target of a link, computed without following it.
    pub fn after(&self, change: impl FnOnce(&mut AppState)) -> AppState {
        let mut next = self.clone();
        change(&mut next);
        next
    }

    /// Applies a link's move.
    pub fn apply(&mut self, nav: &Nav) {
        match nav {
            Nav::GoTo(view) => self.go_to(*view),
            Nav::OpenGpu(id) => self.open_gpu(id),
            Nav::AddToCompare(id) => self.add_to_compare(id),
            Nav::Uncompare(id) => self.remove_from_compare(id),
            Nav::ShareMine(id) => self.share_mine(id),
            Nav::Change(change) => change.apply(&mut self.workload),
        }
    }

    /// Goes to another view, keeping the workload, filters, compared GPUs and settings.
    pub fn go_to(&mut self, view: View) {
        self.view = view;
    }

    /// The GPU view of one GPU. The compared list it replaces comes back with "back".
    pub fn open_gpu(&mut self, id: &str) {
        self.view = View::Gpu;
        self.ids = vec![id.to_string()];
    }

    /// Adds a GPU to the compared ones and shows them; beyond `MAX_COMPARE` the oldest goes.
    /// Coming from the GPU view, the GPU shown there stays in the comparison.
    pub fn add_to_compare(&mut self, id: &str) {
        self.view = View::Compare;
        if self.ids.iter().any(|x| x == id) {
            return;
        }
        if self.ids.len() >= MAX_COMPARE {
            self.ids.remove(0);
        }
        self.ids.push(id.to_string());
    }

    pub fn remove_from_compare(&mut self, id: &str) {
        self.ids.retain(|x| x != id);
    }

    /// Puts the visitor's own GPU into the link and shows the ranking measured against it.
    pub fn share_mine(&mut self, id: &str) {
        self.mine = Some(id.to_string());
        self.view = View::Advise;
    }
}

/// Why a parameter was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IgnoreReason {
    UnknownParameter,
    /// Not one of the allowed tokens, not a number, or outside the allowed range.
    InvalidValue,
    UnknownGpu,
    UnknownModel,
    /// Not valid UTF-8 after percent-decoding.
    BadEncoding,
    /// The same key again; the first one counts.
    Repeated,
    TooMany,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// The key, cut to a display-safe length.
    pub key: String,
    /// The offending value (or id), cut to a display-safe length.
    pub value: String,
    pub reason: IgnoreReason,
}

/// Longest key or value kept in a notice, in characters.
const NOTICE_CHARS: usize = 40;
/// Longest raw value read at all; beyond this a value is rejected unread.
const MAX_VALUE_BYTES: usize = 512;
pub const MAX_COMPARE: usize = 4;
pub use crate::workload::MAX_PRICES;

/// What the codec needs from the catalog: id and alias resolution.
pub trait Resolve {
    /// The canonical GPU id for an id or alias.
    fn gpu_id(&self, id_or_alias: &str) -> Option<String>;
    fn has_model(&self, id: &str) -> bool;
}

/// Ranges a number must fall in to be read.
/// The range each number in a link is accepted in; the form's fields and the card's own
/// price take the same ranges (`app::page`).
pub mod limits {
    pub const PARAMS_B: (f64, f64) = (0.01, 5000.0);
    pub const BATCH: (u32, u32) = (1, 4096);
    pub const SEQ: (u32, u32) = (16, 1_048_576);
    pub const SAMPLES: (u64, u64) = (1, 100_000_000_000);
    pub const EPOCHS: (f64, f64) = (0.01, 1000.0);
    pub const STEPS: (u32, u32) = (1, 1000);
    pub const GPUS: (u32, u32) = (1, 16);
    pub const NODES: (u32, u32) = (1, 1024);
    pub const BUDGET: (f64, f64) = (1.0, 1e9);
    pub const RANK: (u32, u32) = (1, 1024);
    pub const KWH: (f64, f64) = (0.0, 10.0);
    pub const PRICE: (f64, f64) = (1.0, 1e7);
}

fn cut(s: &str) -> String {
    if s.chars().count() <= NOTICE_CHARS {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(NOTICE_CHARS).collect();
        out.push('…');
        out
    }
}

/// Percent-decodes a query component (`+` is a space). `None` when the bytes are not UTF-8.
pub fn percent_decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Percent-encodes everything but unreserved characters, the comma (lists) and the colon
/// (`id:price` pairs), both allowed in a query string.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b',' | b':') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Shortest decimal that reads back as the same number (what Rust's `Display` writes for
/// f64, `decimal::shortest`).
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        crate::decimal::shortest(x)
    }
}

pub use crate::decimal::parse_number;

fn parse_f64(value: &str, (lo, hi): (f64, f64)) -> Option<f64> {
    let x = parse_number(value)?;
    (x.is_finite() && x >= lo && x <= hi).then_some(x)
}

fn parse_u32(value: &str, (lo, hi): (u32, u32)) -> Option<u32> {
    let x: u32 = value.trim().parse().ok()?;
    (lo..=hi).contains(&x).then_some(x)
}

fn parse_u64(value: &str, (lo, hi): (u64, u64)) -> Option<u64> {
    let x: u64 = value.trim().parse().ok()?;
    (lo..=hi).contains(&x).then_some(x)
}

fn parse_bool(value: &str) -> Option<bool> {
    match value {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// Splits a comma list into tokens, keeping order and dropping repeats.
fn tokens<T: PartialEq>(
    key: &str,
    value: &str,
    read: impl Fn(&str) -> Option<T>,
    ignored: &mut Vec<Ignored>,
) -> Vec<T> {
    let mut out = Vec::new();
    for token in value.split(',').filter(|t| !t.is_empty()) {
        match read(token) {
            Some(t) if !out.contains(&t) => out.push(t),
            Some(_) => {}
            None => ignored.push(Ignored {
                key: cut(key),
                value: cut(token),
                reason: IgnoreReason::InvalidValue,
            }),
        }
    }
    out
}

/// Reads a query string (with or without the leading `?`).
pub fn parse(query: &str, catalog: &dyn Resolve) -> (AppState, Vec<Ignored>) {
    let mut state = AppState::default();
    let mut ignored = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);

    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let (Some(key), Some(value)) = (percent_decode(raw_key), percent_decode(raw_value)) else {
            ignored.push(Ignored {
                key: cut(&String::from_utf8_lossy(raw_key.as_bytes())),
                value: String::new(),
                reason: IgnoreReason::BadEncoding,
            });
            continue;
        };
        if seen.contains(&key) {
            ignored.push(Ignored {
                key: cut(&key),
                value: cut(&value),
                reason: IgnoreReason::Repeated,
            });
            continue;
        }
        seen.push(key.clone());
        let invalid = |ignored: &mut Vec<Ignored>| {
            ignored.push(Ignored {
                key: cut(&key),
                value: cut(&value),
                reason: IgnoreReason::InvalidValue,
            })
        };
        if value.is_empty() || value.len() > MAX_VALUE_BYTES {
            invalid(&mut ignored);
            continue;
        }
        let w = &mut state.workload;
        let ok = match key.as_str() {
            "view" => View::parse(&value).map(|v| state.view = v).is_some(),
            "ids" => {
                for id in value.split(',').filter(|t| !t.is_empty()) {
                    match catalog.gpu_id(id.trim()) {
                        Some(canonical) if state.ids.contains(&canonical) => {
                            ignored.push(Ignored {
                                key: cut(&key),
                                value: cut(id),
                                reason: IgnoreReason::Repeated,
                            })
                        }
                        Some(_) if state.ids.len() >= MAX_COMPARE => ignored.push(Ignored {
                            key: cut(&key),
                            value: cut(id),
                            reason: IgnoreReason::TooMany,
                        }),
                        Some(canonical) => state.ids.push(canonical),
                        None => ignored.push(Ignored {
                            key: cut(&key),
                            value: cut(id),
                            reason: IgnoreReason::UnknownGpu,
                        }),
                    }
                }
                true
            }
            "mine" => match catalog.gpu_id(value.trim()) {
                Some(id) => {
                    state.mine = Some(id);
                    true
                }
                None => {
                    ignored.push(Ignored {
                        key: cut(&key),
                        value: cut(&value),
                        reason: IgnoreReason::UnknownGpu,
                    });
                    continue;
                }
            },
            "task" => Task::parse(&value).map(|t| w.task = t).is_some(),
            "model" => {
                if catalog.has_model(&value) {
                    if !matches!(w.model, ModelChoice::Custom(_)) {
                        w.model = ModelChoice::Preset(value.clone());
                    }
                } else {
                    ignored.push(Ignored {
                        key: cut(&key),
                        value: cut(&value),
                        reason: IgnoreReason::UnknownModel,
                    });
                }
                continue;
            }
            // A custom size wins over a preset, whatever the order of the two keys.
            "params" => parse_f64(&value, limits::PARAMS_B)
                .map(|p| w.model = ModelChoice::Custom(p))
                .is_some(),
            "prec" => Precision::parse(&value).map(|p| w.precision = p).is_some(),
            "batch" => parse_u32(&value, limits::BATCH)
                .map(|b| w.batch = b)
                .is_some(),
            "seq" => parse_u32(&value, limits::SEQ)
                .map(|s| w.seq = Some(s))
                .is_some(),
            "samples" => parse_u64(&value, limits::SAMPLES)
                .map(|s| w.samples = Some(s))
                .is_some(),
            "epochs" => parse_f64(&value, limits::EPOCHS)
                .map(|e| w.epochs = e)
                .is_some(),
            "steps" => parse_u32(&value, limits::STEPS)
                .map(|s| w.steps = Some(s))
                .is_some(),
            "gpus" => parse_u32(&value, limits::GPUS)
                .map(|g| w.gpus = g)
                .is_some(),
            "nodes" => parse_u32(&value, limits::NODES)
                .map(|n| w.nodes = n)
                .is_some(),
            "net" => Network::parse(&value).map(|n| w.network = n).is_some(),
            "runtime" => Runtime::parse(&value)
                .map(|r| w.runtime = Some(r))
                .is_some(),
            "fw" => Framework::parse(&value)
                .map(|f| w.framework = Some(f))
                .is_some(),
            "budget" => parse_f64(&value, limits::BUDGET)
                .map(|b| w.budget_usd = Some(b))
                .is_some(),
            "mode" => Mode::parse(&value).map(|m| w.mode = m).is_some(),
            "eco" => EcoRequirement::parse(&value).map(|e| w.eco = e).is_some(),
            "prio" => Priority::parse(&value).map(|p| w.priority = p).is_some(),
            "opt" => Optimizer::parse(&value).map(|o| w.optimizer = o).is_some(),
            "rank" => parse_u32(&value, limits::RANK)
                .map(|r| w.lora_rank = r)
                .is_some(),
            "ckpt" => parse_bool(&value)
                .map(|c| w.checkpointing = Some(c))
                .is_some(),
            "kwh" => parse_f64(&value, limits::KWH)
                .map(|k| w.electricity_usd_per_kwh = k)
                .is_some(),
            "price" => {
                for pair in value.split(',').filter(|t| !t.is_empty()) {
                    let read = pair.split_once(':').and_then(|(id, usd)| {
                        Some((catalog.gpu_id(id.trim())?, parse_f64(usd, limits::PRICE)?))
                    });
                    let reason = match read {
                        Some((id, _)) if w.your_price(&id).is_some() => {
                            Some(IgnoreReason::Repeated)
                        }
                        Some(_) if w.your_prices.len() >= MAX_PRICES => Some(IgnoreReason::TooMany),
                        Some((id, usd)) => {
                            w.your_prices.push((id, usd));
                            None
                        }
                        None if pair
                            .split_once(':')
                            .is_some_and(|(id, _)| catalog.gpu_id(id.trim()).is_none()) =>
                        {
                            Some(IgnoreReason::UnknownGpu)
                        }
                        None => Some(IgnoreReason::InvalidValue),
                    };
                    if let Some(reason) = reason {
                        ignored.push(Ignored {
                            key: cut(&key),
                            value: cut(pair),
                            reason,
                        });
                    }
                }
                true
            }
            "seg" => {
                state.filters.segments = tokens(
                    &key,
                    &value,
                    |t| Segment::ALL.iter().copied().find(|s| s.as_str() == t),
                    &mut ignored,
                );
                true
            }
            "vendor" => {
                state.filters.vendors = tokens(
                    &key,
                    &value,
                    |t| Vendor::ALL.iter().copied().find(|v| v.as_str() == t),
                    &mut ignored,
                );
                true
            }
            "cond" => Condition::parse(&value)
                .map(|c| state.filters.condition = (c != Condition::Any).then_some(c))
                .is_some(),
            "lang" => Lang::parse(&value).map(|l| state.lang = Some(l)).is_some(),
            "theme" => Theme::parse(&value)
                .map(|t| state.theme = Some(t))
                .is_some(),
            "embed" => parse_bool(&value).map(|e| state.embed = e).is_some(),
            _ => {
                ignored.push(Ignored {
                    key: cut(&key),
                    value: cut(&value),
                    reason: IgnoreReason::UnknownParameter,
                });
                continue;
            }
        };
        if !ok {
            invalid(&mut ignored);
        }
    }
    (state, ignored)
}

/// Writes the state as a query string without the leading `?`; empty for the default state.
pub fn print(state: &AppState) -> String {
    let d = Workload::default();
    let w = &state.workload;
    let mut pairs: Vec<(&str, String)> = Vec::new();
    let mut put = |key: &'static str, differs: bool, value: String| {
        if differs {
            pairs.push((key, value));
        }
    };
    put(
        "view",
        state.view != View::Advise,
        state.view.as_str().into(),
    );
    put("ids", !state.ids.is_empty(), state.ids.join(","));
    put(
        "mine",
        state.mine.is_some(),
        state.mine.clone().unwrap_or_default(),
    );
    put("task", w.task != d.task, w.task.as_str().into());
    match &w.model {
        ModelChoice::Preset(id) => put("model", *id != crate::workload::DEFAULT_MODEL, id.clone()),
        ModelChoice::Custom(p) => put("params", true, number(*p)),
    }
    put(
        "prec",
        w.precision != d.precision,
        w.precision.as_str().into(),
    );
    put("batch", w.batch != d.batch, w.batch.to_string());
    put(
        "seq",
        w.seq.is_some(),
        w.seq.unwrap_or_default().to_string(),
    );
    put(
        "samples",
        w.samples.is_some(),
        w.samples.unwrap_or_default().to_string(),
    );
    put("epochs", w.epochs != d.epochs, number(w.epochs));
    put(
        "steps",
        w.steps.is_some(),
        w.steps.unwrap_or_default().to_string(),
    );
    put("gpus", w.gpus != d.gpus, w.gpus.to_string());
    put("nodes", w.nodes != d.nodes, w.nodes.to_string());
    put("net", w.network != d.network, w.network.as_str().into());
    put(
        "runtime",
        w.runtime.is_some(),
        w.runtime.map(Runtime::as_str).unwrap_or_default().into(),
    );
    put(
        "fw",
        w.framework.is_some(),
        w.framework
            .map(Framework::as_str)
            .unwrap_or_default()
            .into(),
    );
    put(
        "budget",
        w.budget_usd.is_some(),
        number(w.budget_usd.unwrap_or_default()),
    );
    put("mode", w.mode != d.mode, w.mode.as_str().into());
    put("eco", w.eco != d.eco, w.eco.as_str().into());
    put("prio", w.priority != d.priority, w.priority.as_str().into());
    put(
        "opt",
        w.optimizer != d.optimizer,
        w.optimizer.as_str().into(),
    );
    put("rank", w.lora_rank != d.lora_rank, w.lora_rank.to_string());
    put(
        "ckpt",
        w.checkpointing.is_some(),
        if w.checkpointing == Some(true) {
            "1"
        } else {
            "0"
        }
        .into(),
    );
    put(
        "kwh",
        w.electricity_usd_per_kwh != d.electricity_usd_per_kwh,
        number(w.electricity_usd_per_kwh),
    );
    put(
        "price",
        !w.your_prices.is_empty(),
        w.your_prices
            .iter()
            .map(|(id, usd)| format!("{id}:{}", number(*usd)))
            .collect::<Vec<_>>()
            .join(","),
    );
    let f = &state.filters;
    put(
        "seg",
        !f.segments.is_empty(),
        f.segments
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(","),
    );
    put(
        "vendor",
        !f.vendors.is_empty(),
        f.vendors
            .iter()
            .map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(","),
    );
    put(
        "cond",
        f.condition.is_some(),
        f.condition.map(|c| c.as_str()).unwrap_or_default().into(),
    );
    put(
        "lang",
        state.lang.is_some(),
        state.lang.map(|l| l.as_str()).unwrap_or_default().into(),
    );
    put(
        "theme",
        state.theme.is_some(),
        state.theme.map(|t| t.as_str()).unwrap_or_default().into(),
    );
    put("embed", state.embed, "1".into());
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", percent_encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Escapes text for an HTML attribute value in double quotes.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The host-side snippet that embeds a view: an iframe of `url` (which should carry
/// `embed=1`) and the lines that apply its `gpu-advisor:resize` messages.
pub fn embed_snippet(url: &str, title: &str) -> String {
    format!(
        r#"<iframe src="{src}" title="{title}" loading="lazy" style="width:100%;border:0;height:600px"></iframe>
<script>
addEventListener("message", function (e) {{
  if (!e.data || e.data.type !== "gpu-advisor:resize") return;
  document.querySelectorAll("iframe").forEach(function (f) {{
    if (f.contentWindow === e.source) f.style.height = e.data.height + "px";
  }});
}});
</script>"#,
        src = attribute(url),
        title = attribute(title),
    )
}
