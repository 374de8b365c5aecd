//! The URL is the state: every view and its inputs live in the query string of
//! `index.html`. `parse` never fails; what it cannot read it skips and names in
//! the returned `Ignored` list, so the page can show a notice. `print` writes
//! only values that differ from the defaults, in a fixed order, so links stay
//! short and `print(parse(print(s))) == print(s)`.

mod applies;
mod params;

pub use params::{param, range, Exported, Param, PARAMS};

use crate::gpu::{Segment, Vendor};
use crate::workload::{token_enum, Change, Measured, Precision, Task, Workload};

token_enum!(View {
    Advise = "advise",
    Compare = "compare",
    Gpu = "gpu",
    Bench = "bench",
    Guide = "guide",
    Accuracy = "accuracy",
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
    /// Ranks cards as additions to this one (`have=`), on the advise view.
    Have(String),
    /// Ranks cards as additions to this one, with the bandwidth measured on it on this
    /// machine (`have=` and `measured=`).
    HaveMeasured(Measured),
    /// The accuracy page's form to add a measurement of this GPU under the workload.
    AddMeasurement(String),
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
            Nav::Have(id) => format!("have:{id}"),
            Nav::HaveMeasured(m) => format!("measured:{}:{}", m.gpu, params::number(m.gbs)),
            Nav::AddMeasurement(id) => format!("measure:{id}"),
            Nav::Change(Change::Gpus(n)) => format!("gpus:{n}"),
            Nav::Change(Change::Precision(p)) => format!("prec:{}", p.as_str()),
            Nav::Change(Change::Task(t)) => format!("task:{}", t.as_str()),
            Nav::Change(Change::Host(gb)) => format!("host:{gb}"),
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
            "have" => Nav::Have(value.into()),
            "measured" => {
                let (gpu, gbs) = value.split_once(':')?;
                let gbs =
                    crate::decimal::parse_number(gbs).filter(|x| x.is_finite() && *x > 0.0)?;
                Nav::HaveMeasured(Measured {
                    gpu: gpu.into(),
                    gbs,
                })
            }
            "measure" => Nav::AddMeasurement(value.into()),
            "gpus" => Nav::Change(Change::Gpus(value.parse().ok()?)),
            "prec" => Nav::Change(Change::Precision(Precision::parse(value)?)),
            "task" => Nav::Change(Change::Task(Task::parse(value)?)),
            "host" => Nav::Change(Change::Host(value.parse().ok()?)),
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
            Nav::Have(id) => {
                self.workload.have = vec![id.clone()];
                self.view = View::Advise;
            }
            Nav::HaveMeasured(m) => {
                self.workload.have = vec![m.gpu.clone()];
                self.workload.measured = Some(m.clone());
                self.view = View::Advise;
            }
            Nav::AddMeasurement(id) => {
                self.view = View::Accuracy;
                self.ids = vec![id.clone()];
            }
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
    /// Read, but it does not apply to the workload the link describes (`steps` on a
    /// language model, `ckpt` on inference, `cond` when renting): it changes nothing.
    NoEffect,
    /// Read, but another key replaces it (`params` replaces `model`).
    Overridden,
    /// More GPUs than the view shows: the GPU page shows the first.
    OneGpuShown,
    /// A sequence longer than the model's longest context, `max`: it runs only with the
    /// context extended (RoPE scaling), and is sized as asked.
    BeyondContext {
        max: u32,
    },
}

impl IgnoreReason {
    /// Whether the value was read into the state, and the notice says only that it does
    /// nothing there or was cut (`share::applies`), rather than that it was not read.
    pub fn was_read(&self) -> bool {
        matches!(
            self,
            IgnoreReason::NoEffect
                | IgnoreReason::Overridden
                | IgnoreReason::OneGpuShown
                | IgnoreReason::BeyondContext { .. }
        )
    }
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
    /// A model preset's family, to judge which keys apply to it.
    fn model_family(&self, id: &str) -> Option<crate::model::Family>;
    /// A model preset's longest context in tokens, when the catalog has it.
    fn max_context(&self, id: &str) -> Option<u32>;
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
pub use crate::decimal::parse_number;

/// Reads a query string (with or without the leading `?`).
pub fn parse(query: &str, catalog: &dyn Resolve) -> (AppState, Vec<Ignored>) {
    let mut state = AppState::default();
    let mut ignored = Vec::new();
    // Keys already read: a set, so a link with many distinct keys reads in linear time.
    let mut seen = std::collections::HashSet::new();
    // Keys read into the state, with their values, for what applies to the whole.
    let mut read = Vec::new();
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
        if !seen.insert(key.clone()) {
            ignored.push(Ignored {
                key: cut(&key),
                value: cut(&value),
                reason: IgnoreReason::Repeated,
            });
            continue;
        }
        if value.is_empty() || value.len() > MAX_VALUE_BYTES {
            ignored.push(Ignored {
                key: cut(&key),
                value: cut(&value),
                reason: IgnoreReason::InvalidValue,
            });
            continue;
        }
        let Some(param) = params::param(&key) else {
            ignored.push(Ignored {
                key: cut(&key),
                value: cut(&value),
                reason: IgnoreReason::UnknownParameter,
            });
            continue;
        };
        match param.read(&mut state, &value, catalog, &mut ignored) {
            Ok(()) => read.push((param.key, value)),
            Err(reason) => ignored.push(Ignored {
                key: cut(&key),
                value: cut(&value),
                reason,
            }),
        }
    }
    ignored.extend(applies::check(&state, &read, catalog));
    (state, ignored)
}

/// Writes the state as a query string without the leading `?`, in the order of `PARAMS`;
/// empty for the default state.
pub fn print(state: &AppState) -> String {
    params::PARAMS
        .iter()
        .filter_map(|p| Some(format!("{}={}", p.key, percent_encode(&p.write(state)?))))
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

/// The origin (`scheme://host[:port]`) of an absolute URL, when it has only the
/// characters an origin can have, so it can stand in the snippet's script as is.
fn origin_of(url: &str) -> Option<&str> {
    let scheme_end = url.find("://")? + 3;
    let end = url[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| scheme_end + i);
    let origin = &url[..end];
    let safe =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, ':' | '/' | '.' | '-' | '[' | ']');
    (end > scheme_end && origin.chars().all(safe)).then_some(origin)
}

/// Heights the snippet lets a widget ask for, in CSS pixels: enough for a phone's answer,
/// never a page-long frame.
pub const EMBED_HEIGHT: (u32, u32) = (150, 4000);

/// The host-side snippet that embeds a view: an iframe of `url` (which should carry
/// `embed=1`; absolute) and the lines that apply its `gpu-advisor:resize` messages, only
/// those from the app's origin and within `EMBED_HEIGHT`. Without the script (documentation
/// sites often strip scripts) the iframe keeps its 600 px and the widget its link to the
/// full view at the top.
pub fn embed_snippet(url: &str, title: &str) -> String {
    let from = origin_of(url)
        .map(|o| format!("e.origin !== \"{o}\" || "))
        .unwrap_or_default();
    let (low, high) = EMBED_HEIGHT;
    format!(
        r#"<iframe src="{src}" title="{title}" loading="lazy" style="width:100%;border:0;height:600px"></iframe>
<script>
addEventListener("message", function (e) {{
  if ({from}!e.data || e.data.type !== "gpu-advisor:resize") return;
  var h = Math.min(Math.max(Number(e.data.height) || 0, {low}), {high});
  document.querySelectorAll("iframe").forEach(function (f) {{
    if (f.contentWindow === e.source) f.style.height = h + "px";
  }});
}});
</script>"#,
        src = attribute(url),
        title = attribute(title),
    )
}
