//! The data file's rules, checked by the catalog tests like `gpus.json`'s.

use super::*;
use crate::Catalog;

/// Runtimes and frameworks a row may name.
const RUNTIMES: &[&str] = &[
    "llamacpp",
    "llamafile",
    "vllm",
    "sglang",
    "transformers",
    "diffusers",
    "comfyui",
    "faster-whisper",
];
const FRAMEWORKS: &[&str] = &["pytorch", "megatron", "unsloth", "torchtune", "tensorflow"];

/// The units a kind's figure may be in.
fn units(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Decode | Kind::Prefill => &["tokens/s"],
        Kind::Training => &["tokens/s", "images/s", "samples/s"],
        Kind::TrainingRatio => &["ratio"],
        Kind::Diffusion => &["s/image"],
        Kind::Speech => &["audio s/s"],
        Kind::Memory => &["GB", "GiB"],
    }
}

fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [y] => digits(y, 4),
        [y, m] => digits(y, 4) && digits(m, 2),
        [y, m, d] => digits(y, 4) && digits(m, 2) && digits(d, 2),
        _ => false,
    }
}

/// Every broken rule of the data file, one line each naming the row; empty when it is
/// sound. `json` is the file's text: a required field must be present even where null is
/// allowed (`date` when the source prints none, `gpu` on a memory row that does not
/// depend on it).
pub fn violations(catalog: &Catalog, json: &str) -> Vec<String> {
    let raw: Vec<serde_json::Map<String, serde_json::Value>> = match serde_json::from_str(json) {
        Ok(rows) => rows,
        Err(e) => return vec![format!("measurements.json: {e}")],
    };
    let rows = match Measurement::parse_all(json) {
        Ok(rows) => rows,
        Err(e) => return vec![format!("measurements.json: {e}")],
    };
    let mut out = Vec::new();
    for (i, (object, m)) in raw.iter().zip(&rows).enumerate() {
        let mut fail = |what: String| {
            out.push(format!(
                "row {i} ({} {} {}): {what}",
                m.text("kind"),
                m.model(),
                m.gpu()
            ))
        };
        for key in REQUIRED {
            if !object.contains_key(*key) {
                fail(format!("no `{key}`"));
            }
        }
        let Some(kind) = m.kind() else {
            fail(format!("unknown kind {:?}", m.text("kind")));
            continue;
        };
        let inference = matches!(
            kind,
            Kind::Decode | Kind::Prefill | Kind::Diffusion | Kind::Speech
        );
        let (key, allowed) = if inference {
            ("runtime", RUNTIMES)
        } else {
            ("framework", FRAMEWORKS)
        };
        if !allowed.contains(&m.text(key)) {
            fail(format!(
                "`{key}` {:?} is not one of {allowed:?}",
                m.text(key)
            ));
        }
        if kind != Kind::Memory && catalog.gpu(m.gpu()).is_none() {
            fail(format!("GPU {:?} is not in the catalog", m.gpu()));
        }
        for id in m.text("with").split(',').filter(|id| !id.is_empty()) {
            if catalog.gpu(id.trim()).is_none() {
                fail(format!("GPU \"{id}\" in `with` is not in the catalog"));
            }
        }
        if kind == Kind::TrainingRatio {
            if catalog.gpu(m.text("gpu_b")).is_none() {
                fail(format!("GPU {:?} is not in the catalog", m.text("gpu_b")));
            }
            for key in ["value_gpu", "value_gpu_b"] {
                if !m.number(key).is_some_and(|v| v > 0.0) {
                    fail(format!("no `{key}`"));
                }
            }
        }
        if catalog.model(m.model()).is_none() {
            fail(format!("model {:?} is not in the catalog", m.model()));
        }
        if !m.value().is_some_and(|v| v > 0.0 && v.is_finite()) {
            fail("`value` is not a positive number".into());
        }
        if !units(kind).contains(&m.unit()) {
            fail(format!(
                "unit {:?} is not one of {:?}",
                m.unit(),
                units(kind)
            ));
        }
        if !m.source_url().starts_with("https://") {
            fail("`source_url` is not an https link".into());
        }
        if m.date().is_empty() && !m.text("note").contains("No date:") {
            fail("no date, and the note does not say the source has none (\"No date: …\")".into());
        }
        if !m.date().is_empty() && !is_date(m.date()) {
            fail(format!(
                "date {:?} is not YYYY, YYYY-MM or YYYY-MM-DD",
                m.date()
            ));
        }
        if m.text("note").len() < 20 {
            fail("the note does not say how the figure was read".into());
        }
        let estimated = estimate(catalog, m).is_some();
        match (estimated, m.text("unmatched").is_empty()) {
            (false, true) => {
                fail("the engine has no estimate and `unmatched` does not say why".into())
            }
            (true, false) => fail("`unmatched` is set, yet the engine estimates the row".into()),
            _ => {}
        }
    }
    out
}
