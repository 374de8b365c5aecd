//! The ranking as data to take elsewhere: JSON in the `gpu-advisor/ranking@3` schema
//! (documented in the README) and CSV with the same fields flattened. The browser's
//! export buttons and `cargo run -p catalog --example rank -- --json` both print these.
//! The writer is a few lines of string building, so the page carries no JSON library.

use crate::estimate::{Range, Unit};
use crate::evidence::{self, Difference, Measurement, Nearest};
use crate::json::string;
use crate::memory::MemoryBreakdown;
use crate::rank::{Ranked, Ranking, Tier};
use crate::share::{AppState, Exported, PARAMS};
use crate::workload::Workload;

pub const SCHEMA: &str = "gpu-advisor/ranking@3";

/// A JSON number; non-finite values (which JSON cannot hold) become null.
fn number(x: f64) -> String {
    if x.is_finite() {
        // Six significant figures are more than any estimate here carries.
        let scale = 10f64.powi(5 - x.abs().max(1e-300).log10().floor() as i32);
        let rounded = (x * scale).round() / scale;
        crate::decimal::shortest(if rounded.is_finite() { rounded } else { x })
    } else {
        "null".into()
    }
}

fn opt<T>(value: Option<T>, f: impl Fn(T) -> String) -> String {
    value.map_or_else(|| "null".into(), f)
}

fn object(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

fn range(r: Range) -> String {
    object(&[
        ("low", number(r.low)),
        ("mid", number(r.mid)),
        ("high", number(r.high)),
    ])
}

pub fn unit_code(unit: Unit) -> &'static str {
    match unit {
        Unit::Tokens => "tokens/s",
        Unit::TrainTokens => "training-tokens/s",
        Unit::Samples => "samples/s",
        Unit::Images => "images/s",
        Unit::AudioSeconds => "audio-s/s",
    }
}

/// The workload block: each parameter of the link that is the workload's, under the name
/// and with the value its declaration gives (`share::Param::export`), in the table's order.
fn workload_json(w: &Workload, ranking: &Ranking) -> String {
    let fields: Vec<(&str, String)> = PARAMS
        .iter()
        .filter_map(|p| p.export)
        .map(|(name, value)| {
            let text = match value(w, &ranking.model) {
                Exported::Text(t) => string(&t),
                Exported::Number(x) => number(x),
                Exported::Whole(n) => n.to_string(),
                Exported::Flag(b) => b.to_string(),
                Exported::Null => "null".into(),
                Exported::Prices(prices) => object(
                    &prices
                        .iter()
                        .map(|(id, usd)| (id.as_str(), number(*usd)))
                        .collect::<Vec<_>>(),
                ),
            };
            (name, text)
        })
        .collect();
    object(&fields)
}

fn memory_json(m: &MemoryBreakdown) -> String {
    object(&[
        ("total", number(m.total())),
        ("weights", number(m.weights)),
        ("gradients", number(m.gradients)),
        ("optimizer", number(m.optimizer)),
        ("adapters", number(m.adapters)),
        ("activations", number(m.activations)),
        ("kv_cache", number(m.kv_cache)),
        ("overhead", number(m.overhead)),
    ])
}

/// One exported row: the fields both formats share.
struct Row<'a> {
    rank: usize,
    item: &'a Ranked<'a>,
    /// The workload's batch: concurrent users when serving.
    batch: u32,
}

impl Row<'_> {
    fn per_user_tokens_s(&self) -> Option<Range> {
        let s = self.item.speed.as_ref()?;
        if s.unit != Unit::Tokens {
            return None;
        }
        let copies = f64::from(s.gpus_used / self.item.gpus_needed()?.max(1)).max(1.0);
        let users = f64::from(self.batch) * copies;
        Some(s.throughput.scale(1.0 / users))
    }
    fn time_to_first_token_s(&self) -> Option<Range> {
        self.item.speed.as_ref()?.prefill_seconds
    }
}

/// The whole ranking (every GPU, fitting or not) as `gpu-advisor/ranking@3` JSON.
///
/// `evidence`: the published measurements (`evidence::nearest` gives each GPU's); empty
/// when they could not be read, and then every item's `measured` is null.
pub fn to_json(
    ranking: &Ranking,
    state: &AppState,
    link: &str,
    catalog_date: Option<&str>,
    evidence: &[Measurement],
) -> String {
    let w = &state.workload;
    let picks = object(
        &Tier::ALL
            .iter()
            .map(|t| (t.as_str(), opt(ranking.picks.id(*t), string)))
            .collect::<Vec<_>>(),
    );
    let items: Vec<String> = rows(ranking, w)
        .map(|row| {
            let item = row.item;
            let cost = &item.cost;
            let price = opt(cost.purchase.as_ref(), |p| {
                object(&[
                    ("usd", number(p.usd)),
                    ("kind", string(p.kind.as_str())),
                    ("date", opt(p.date.as_deref(), string)),
                ])
            });
            let measured = opt(measured(ranking, w, item, evidence).as_ref(), |n| {
                object(&[
                    ("kind", string(n.row.text("kind"))),
                    ("model", string(n.row.model())),
                    ("value", number(n.value)),
                    ("unit", string(n.unit)),
                    ("versus", opt(n.versus, string)),
                    ("exact", n.exact().to_string()),
                    (
                        "differs",
                        format!(
                            "[{}]",
                            n.differs
                                .iter()
                                .map(|d| string(&difference_code(d)))
                                .collect::<Vec<_>>()
                                .join(",")
                        ),
                    ),
                    ("estimate_off", opt(n.comparison.map(|c| c.off()), number)),
                    ("source_url", string(n.row.source_url())),
                    (
                        "date",
                        opt(Some(n.row.date()).filter(|d| !d.is_empty()), string),
                    ),
                ])
            });
            object(&[
                ("rank", row.rank.to_string()),
                ("id", string(&item.gpu.id)),
                ("name", string(&item.gpu.name)),
                ("fits", item.fits().to_string()),
                ("why_not", opt(item.why_not.as_ref(), |w| string(w.code()))),
                (
                    "gpus",
                    opt(
                        item.speed
                            .as_ref()
                            .map(|s| s.gpus_used)
                            .or(item.gpus_needed()),
                        |g| g.to_string(),
                    ),
                ),
                (
                    "placement",
                    opt(item.placement.as_ref(), |p| string(p.sharding.code())),
                ),
                ("software", string(item.software.code())),
                ("precision", string(item.precision.as_str())),
                (
                    "command",
                    opt(crate::command::command(item, w, &ranking.model), |c| {
                        string(&c)
                    }),
                ),
                (
                    "longest_context",
                    opt(item.longest_context, |c| {
                        object(&[
                            ("tokens", c.tokens.to_string()),
                            ("whole", c.whole.to_string()),
                        ])
                    }),
                ),
                (
                    "throughput",
                    opt(item.speed.as_ref(), |s| {
                        object(&[
                            ("low", number(s.throughput.low)),
                            ("mid", number(s.throughput.mid)),
                            ("high", number(s.throughput.high)),
                            ("unit", string(unit_code(s.unit))),
                        ])
                    }),
                ),
                ("per_user_tokens_s", opt(row.per_user_tokens_s(), range)),
                (
                    "time_to_first_token_s",
                    opt(row.time_to_first_token_s(), range),
                ),
                (
                    "job_hours",
                    opt(item.speed.as_ref().and_then(|s| s.job_hours), range),
                ),
                ("price", price),
                ("hardware_usd", opt(cost.hardware_usd, number)),
                ("rent_usd_per_hour", opt(cost.rent_usd_per_hour, number)),
                ("job_usd", opt(cost.job_usd, range)),
                ("rent_job_usd", opt(cost.rent_job_usd, range)),
                ("rent_start_hours", opt(cost.rent_start_hours, range)),
                ("break_even_hours", opt(cost.break_even_hours, number)),
                ("score", opt(item.score, number)),
                ("measured", measured),
                (
                    "reasons",
                    format!(
                        "[{}]",
                        item.reasons
                            .iter()
                            .map(|r| string(r.code()))
                            .collect::<Vec<_>>()
                            .join(",")
                    ),
                ),
            ])
        })
        .collect();
    object(&[
        ("schema", string(SCHEMA)),
        ("link", string(link)),
        ("catalog_date", opt(catalog_date, string)),
        ("workload", workload_json(w, ranking)),
        ("memory_bytes", memory_json(&ranking.memory)),
        ("picks", picks),
        ("items", format!("[{}]", items.join(","))),
    ])
}

/// The published measurement nearest a GPU's card, as the card shows it: of its own GPU,
/// else of the same model on another GPU (`differs` starts with `gpu:ID`).
fn measured<'e>(
    ranking: &Ranking,
    w: &Workload,
    item: &Ranked,
    evidence: &'e [Measurement],
) -> Option<Nearest<'e>> {
    let catalog = crate::Catalog::embedded();
    evidence::nearest(catalog, evidence, w, &ranking.model, item)
        .or_else(|| evidence::nearest_elsewhere(catalog, evidence, w, &ranking.model, item))
}

/// A difference as a code: `model:llama-3-8b`, `batch:64`, `prompt`.
fn difference_code(d: &Difference) -> String {
    match d {
        Difference::Model(id) | Difference::Sibling(id) => format!("model:{id}"),
        Difference::Task(t) => format!("task:{t}"),
        Difference::Prompt => "prompt".into(),
        Difference::Stack(s) => format!("stack:{s}"),
        Difference::Backend(b) => format!("backend:{b}"),
        Difference::Precision(p) => format!("precision:{p}"),
        Difference::Batch(b) => format!("batch:{}", number(*b)),
        Difference::Steps(n) => format!("steps:{n}"),
        Difference::Gpus(n) => format!("gpus:{n}"),
        Difference::Gpu(id) => format!("gpu:{id}"),
    }
}

fn rows<'a>(ranking: &'a Ranking, w: &Workload) -> impl Iterator<Item = Row<'a>> {
    let batch = w.batch_for(ranking.model.family).max(1);
    ranking.items.iter().enumerate().map(move |(i, item)| Row {
        rank: i + 1,
        item,
        batch,
    })
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub const CSV_HEADER: &str = "rank,id,name,fits,why_not,gpus,placement,software,throughput_low,throughput_mid,throughput_high,throughput_unit,per_user_tokens_s_mid,time_to_first_token_s_mid,job_hours_low,job_hours_mid,job_hours_high,price_usd,price_kind,price_date,hardware_usd,rent_usd_per_hour,job_usd_mid,break_even_hours,score,reasons,measured_value,measured_unit,measured_exact,measured_estimate_off,measured_source_url,precision,command";

/// The same ranking as CSV: one header row and one row per GPU.
pub fn to_csv(ranking: &Ranking, state: &AppState, evidence: &[Measurement]) -> String {
    let num = |x: Option<f64>| x.filter(|v| v.is_finite()).map(number).unwrap_or_default();
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for row in rows(ranking, &state.workload) {
        let item = row.item;
        let speed = item.speed.as_ref();
        let hours = speed.and_then(|s| s.job_hours);
        let purchase = item.cost.purchase.as_ref();
        let m = measured(ranking, &state.workload, item, evidence);
        let fields = [
            row.rank.to_string(),
            cell(&item.gpu.id),
            cell(&item.gpu.name),
            item.fits().to_string(),
            item.why_not
                .as_ref()
                .map(|w| w.code().to_string())
                .unwrap_or_default(),
            speed
                .map(|s| s.gpus_used)
                .or(item.gpus_needed())
                .map(|g| g.to_string())
                .unwrap_or_default(),
            item.placement
                .as_ref()
                .map(|p| p.sharding.code().to_string())
                .unwrap_or_default(),
            item.software.code().to_string(),
            num(speed.map(|s| s.throughput.low)),
            num(speed.map(|s| s.throughput.mid)),
            num(speed.map(|s| s.throughput.high)),
            speed
                .map(|s| unit_code(s.unit).to_string())
                .unwrap_or_default(),
            num(row.per_user_tokens_s().map(|r| r.mid)),
            num(row.time_to_first_token_s().map(|r| r.mid)),
            num(hours.map(|h| h.low)),
            num(hours.map(|h| h.mid)),
            num(hours.map(|h| h.high)),
            num(purchase.map(|p| p.usd)),
            purchase
                .map(|p| p.kind.as_str().to_string())
                .unwrap_or_default(),
            purchase.and_then(|p| p.date.clone()).unwrap_or_default(),
            num(item.cost.hardware_usd),
            num(item.cost.rent_usd_per_hour),
            num(item.cost.job_usd.map(|j| j.mid)),
            num(item.cost.break_even_hours),
            num(item.score),
            item.reasons
                .iter()
                .map(|r| r.code())
                .collect::<Vec<_>>()
                .join(";"),
            num(m.as_ref().map(|n| n.value)),
            m.as_ref().map(|n| cell(n.unit)).unwrap_or_default(),
            m.as_ref()
                .map(|n| n.exact().to_string())
                .unwrap_or_default(),
            num(m.as_ref().and_then(|n| n.comparison).map(|c| c.off())),
            m.as_ref()
                .map(|n| cell(n.row.source_url()))
                .unwrap_or_default(),
            item.precision.as_str().to_string(),
            crate::command::command(item, &state.workload, &ranking.model)
                .map(|c| cell(&c))
                .unwrap_or_default(),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}
